"""The community's domains (players, ratings, lobby, tournaments, chat, bots) keep their boundaries: none imports
another's tables or repository (but the few named here, each with why), their imports between each other run one
way (no circle), and none imports the front door (``hive.web.http``)."""

from __future__ import annotations

import ast
from pathlib import Path

import hive.web

WEB = Path(hive.web.__file__).parent
DOMAINS = ("players", "ratings", "lobby", "tournaments", "chat", "bots")
#: The reaches into another domain's storage left, each until the domain it reaches into offers a public function.
REACHES = {
    # the game side's commit asks the seeks' repository whether a game is a tournament's
    ("hive.web.lobby.repository", "hive.web.tournaments.tables"),
}


def _imports(path: Path, module: str) -> set[str]:
    """The modules of ``hive.web`` a module imports (relative imports resolved)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add(target)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("hive.web.")}


def _modules() -> dict[str, set[str]]:
    """Each module of the community's domains, with what it imports."""
    modules = {}
    for domain in DOMAINS:
        for path in sorted((WEB / domain).glob("*.py")):
            name = f"hive.web.{domain}" + ("" if path.stem == "__init__" else f".{path.stem}")
            modules[name] = _imports(path, name)
    return modules


def test_no_domain_reaches_into_anothers_storage() -> None:
    reaches = {
        (module, target)
        for module, targets in _modules().items()
        for target in targets
        if target.split(".")[2] in DOMAINS
        and target.split(".")[2] != module.split(".")[2]
        and target.split(".")[-1] in ("tables", "repository")
    }
    assert reaches == REACHES


def test_the_domains_import_each_other_one_way_and_never_the_front_door() -> None:
    edges: dict[str, set[str]] = {domain: set() for domain in DOMAINS}
    for module, targets in _modules().items():
        for target in targets:
            assert not target.startswith("hive.web.http"), (module, target)
            other = target.split(".")[2]
            if other in DOMAINS and other != module.split(".")[2]:
                edges[module.split(".")[2]].add(other)
    done: list[str] = []
    while len(done) < len(DOMAINS):  # take a domain whose imports are all taken already: none left means a circle
        ready = [domain for domain in DOMAINS if domain not in done and edges[domain] <= set(done)]
        assert ready, {domain: edges[domain] - set(done) for domain in DOMAINS if domain not in done}
        done += ready
