"""The game side's domains (play, analysis, ai) keep their layering: play's service and routes import no SQL, play
imports neither of the domains built on it nor the front door, no domain reaches into another's tables or
repositories, and no module passes 400 lines."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[3] / "src" / "hive" / "web"
DOMAINS = ("play", "analysis", "ai")
#: The modules of each domain that hold its SQL (its tables and repositories).
STORAGE = {
    "play": {"tables", "repository", "rows", "presence_repository"},
    "analysis": {"tables", "line_repository", "review_repository"},
    "ai": {"tables", "repository"},
}


def imports(path: Path) -> set[str]:
    """The modules ``path`` imports (relative imports resolved; ``from x import y`` counts ``x`` and ``x.y``)."""
    package = ["hive", "web", *path.parent.relative_to(WEB).parts]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def modules(domain: str) -> list[Path]:
    return sorted((WEB / domain).glob("*.py"))


@pytest.mark.parametrize("domain", DOMAINS)
def test_only_a_domain_s_tables_and_repositories_import_sqlalchemy(domain: str) -> None:
    for path in modules(domain):
        if path.stem in STORAGE[domain] or path.stem == "__init__":
            continue
        assert not {name for name in imports(path) if name.split(".")[0] == "sqlalchemy"}, path.name


def test_play_imports_neither_the_domains_above_it_nor_the_front_door() -> None:
    above = ("hive.web.analysis", "hive.web.ai", "hive.web.http", "hive.web.storage", "hive.web.accounts")
    for path in modules("play"):
        assert not [name for name in imports(path) if name.startswith(above)], path.name


@pytest.mark.parametrize("domain", DOMAINS)
def test_no_domain_reaches_into_another_s_tables_or_repositories(domain: str) -> None:
    others = [f"hive.web.{other}.{module}" for other in DOMAINS if other != domain for module in STORAGE[other]]
    for path in modules(domain):
        reached = [name for name in imports(path) if any(name == o or name.startswith(o + ".") for o in others)]
        assert not reached, (path.name, reached)


@pytest.mark.parametrize("domain", DOMAINS)
def test_no_module_of_a_domain_passes_400_lines(domain: str) -> None:
    for path in modules(domain):
        assert len(path.read_text().splitlines()) <= 400, path.name
