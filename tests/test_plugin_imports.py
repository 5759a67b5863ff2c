"""A game plug-in is self-contained: its modules (the project's games' and the toy game's) import no app, and the
view and encoding its plug-in names live in its own package, on the SDK (:mod:`hive.sdk`), which sits below the
games. Read from the source with :mod:`ast`, so that an import inside a function counts too."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from hive.games import BUILT_IN
from hive.plugin import GamePlugin, load

from .toygame import PLUGIN as TOY

ROOT = Path(__file__).resolve().parent.parent
#: The apps, which a game package never imports.
APPS = ("hive.web", "hive.rl", "hive.arena", "hive.uhp", "hive.cli", "hive.tune")
#: What the SDK may not import either: the games and what builds on them.
ABOVE_SDK = (*APPS, "hive.games", "hive.records", "hive.players", "hive.engine", "hive.bot", "hive.svg")


def module_name(path: Path) -> str:
    """The dotted name of the module at ``path`` (under ``src/`` or the project's root)."""
    relative = path.relative_to(ROOT / "src" if path.is_relative_to(ROOT / "src") else ROOT)
    parts = list(relative.with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(source: str, package: str) -> Iterator[tuple[int, str]]:
    """Each module a module of ``package`` imports (``source`` its text), by line, relative imports resolved."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            yield node.lineno, target
            # ``from hive import web`` imports hive.web
            yield from ((node.lineno, f"{target}.{alias.name}") for alias in node.names)


def imports_of(path: Path) -> Iterator[tuple[int, str]]:
    """Each module the module at ``path`` imports, by line."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    return imported(path.read_text(encoding="utf-8"), package)


def offending(folder: Path, forbidden: tuple[str, ...]) -> list[str]:
    """The imports of the modules under ``folder`` of a forbidden package, as ``path:line: module``."""
    return [
        f"{path.relative_to(ROOT)}:{line}: {target}"
        for path in sorted(folder.rglob("*.py"))
        for line, target in imports_of(path)
        if any(target == app or target.startswith(f"{app}.") for app in forbidden)
    ]


@pytest.mark.parametrize("folder", ["src/hive/games", "tests/toygame"])
def test_no_game_module_imports_an_app(folder: str) -> None:
    assert offending(ROOT / folder, APPS) == []


def test_the_sdk_sits_below_the_games() -> None:
    assert offending(ROOT / "src" / "hive" / "sdk", ABOVE_SDK) == []


def test_the_checker_sees_relative_and_nested_imports() -> None:
    """The checker itself: a relative import reaching an app, and one inside a function, are both found."""
    source = "from ...web.views import view_for\ndef f():\n    from hive import rl\n"
    found = [target for _, target in imported(source, "hive.games.hive")]
    assert found == ["hive.web.views", "hive.web.views.view_for", "hive", "hive.rl"]
    assert "hive.sdk.view" in {target for _, target in imports_of(ROOT / "src/hive/games/hive/view.py")}


@pytest.mark.parametrize("plugin", [*(load(reference) for reference in BUILT_IN), TOY], ids=lambda p: p.kind)
def test_a_plugin_s_view_and_encoding_are_its_own(plugin: GamePlugin) -> None:
    """The view and the encoding a plug-in names are modules of its own package, each on the SDK's protocol."""
    for reference in (plugin.view, plugin.encoding):
        assert reference is not None and reference.startswith(f"{plugin.package}."), reference
    view = load(plugin.view or "")
    assert view.kind == plugin.kind
    pytest.importorskip("numpy")
    encoding = load(plugin.encoding or "")
    board = next(iter(plugin.games.values()))()
    assert encoding(board).mask().sum() > 0
