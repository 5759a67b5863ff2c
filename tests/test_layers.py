"""The architecture as a contract: the import graph of ``src/hive`` read with :mod:`ast`, checked against the layers of
``docs/architecture.md`` — imports flow down, the two games never import each other, the server has no import
circle, its domains use each other only through their public face and never another's storage, the app object is
only wiring, no server module passes 400 lines, and no test module imports another."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

#: The project's layers, lowest first; a module imports from its own layer or lower ones. A module's layer is that of
#: the longest prefix listed. ``__main__`` modules are entry points and may import anything.
LAYERS: list[tuple[str, ...]] = [
    ("hive._build", "hive.game", "hive.gameboard", "hive.position_records", "hive.search", "hive.plugin", "hive.sdk"),
    ("hive.games.hive", "hive.games.hivequeen"),
    ("hive.games",),
    ("hive", "hive.records", "hive.svg", "hive.tournament", "hive.ratings"),
    # a game's view and encoding, which the apps load through its plug-in, stand on the library (Hive's view reads
    # pasted records) and on the registry
    ("hive.games.hive.view", "hive.games.hivequeen.view", "hive.games.hive.encoding", "hive.games.hivequeen.encoding"),
    ("hive.engine", "hive.players"),
    ("hive.arena", "hive.tune", "hive.rl", "hive.uhp", "hive.web", "hive.bot"),
    ("hive.cli",),
]

#: The server's layers, lowest first: what every domain stands on, the domains, and the front door that wires them.
WEB = "hive.web"
WEB_SHARED = ("hive.web.shared", "hive.web.migrations", "hive.web.views")
WEB_FRONT = ("hive.web.http", "hive.web.storage", "hive.web.schema")
#: The server's domains, each standing on those before it: one may use an earlier one's public face (its service,
#: its events, its values), never its tables or repository, and never a later one.
DOMAINS = (
    "play", "ai", "analysis", "players", "ratings", "tournaments", "chat", "lobby", "bots", "push", "moderation",
)  # fmt: skip
PRIVATE = ("tables", "repository", "store")
#: The modules of a domain that may use SQL (its tables and its storage); the others use it at most for types.
SQL_MODULES = ("tables", "repository", "rows")
#: The longest a server module may grow.
MAX_LINES = 400


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(path): path for path in SRC.rglob("*.py")}


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, checking: bool = False) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, checking
        elif isinstance(node, ast.If) and _type_checking(node):
            for child in node.body:
                yield from _imports(ast.Module(body=[child], type_ignores=[]), True)
            for child in node.orelse:
                yield from _imports(ast.Module(body=[child], type_ignores=[]), checking)
        else:
            yield from _imports(node, checking)


@cache
def edges() -> list[tuple[str, str, bool]]:
    """Every import inside ``hive``: (importer, imported module, only for type checking)."""
    known = modules()
    found: set[tuple[str, str, bool]] = set()
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node, checking in _imports(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                targets = [
                    f"{source}.{alias.name}" if f"{source}.{alias.name}" in known else source for alias in node.names
                ]
            found |= {(name, target, checking) for target in targets if target == "hive" or target.startswith("hive.")}
    return sorted(found)


def _longest(name: str, prefixes: tuple[str, ...] | list[str]) -> str | None:
    matches = [p for p in prefixes if name == p or name.startswith(p + ".")]
    return max(matches, key=len) if matches else None


def layer(name: str) -> int:
    listed = [prefix for level in LAYERS for prefix in level]
    prefix = _longest(name, listed)
    assert prefix is not None, f"{name} is in no layer: add it to LAYERS and to docs/architecture.md"
    return next(i for i, level in enumerate(LAYERS) if prefix in level)


def test_imports_flow_down_the_layers() -> None:
    upward = [f"{a} -> {b}" for a, b, _ in edges() if not a.endswith("__main__") and layer(b) > layer(a)]
    assert upward == []


def test_the_games_do_not_import_each_other() -> None:
    games = ("hive.games.hive", "hive.games.hivequeen")
    crossing = [
        f"{a} -> {b}"
        for a, b, _ in edges()
        if _longest(a, games) and _longest(b, games) and _longest(a, games) != _longest(b, games)
    ]
    assert crossing == []


def web_part(name: str) -> str:
    """The server layer or domain a module of ``hive.web`` is in."""
    rest = name[len(WEB) + 1 :].split(".")[0] if name != WEB else ""
    return rest


def web_level(name: str) -> int:
    if name == WEB:
        return 2  # the package's lazy attributes reach the wiring
    if _longest(name, WEB_SHARED):
        return 0
    if _longest(name, WEB_FRONT):
        return 2
    assert web_part(name) in DOMAINS, f"{name} is in no layer nor domain of the server: see tests/test_layers.py"
    return 1


def web_edges(checking: bool = True) -> list[tuple[str, str]]:
    return [
        (a, b)
        for a, b, only_typing in edges()
        if a.startswith(WEB) and b.startswith(WEB + ".") and (checking or not only_typing)
    ]


def test_every_server_module_is_in_a_layer_or_a_domain() -> None:
    unplaced = []
    for name in modules():
        if name.startswith(WEB + "."):
            try:
                web_level(name)
            except AssertionError:
                unplaced.append(name)
    assert unplaced == []


def test_the_server_imports_flow_down() -> None:
    upward = [f"{a} -> {b}" for a, b in web_edges() if web_level(b) > web_level(a)]
    assert upward == []


def test_no_domain_reaches_into_another_domains_storage() -> None:
    reaching = []
    for a, b in web_edges():
        if web_level(a) == web_level(b) == 1 and web_part(a) != web_part(b):
            inner = b.split(".")[3:4]
            if inner and inner[0] in PRIVATE:
                reaching.append(f"{a} -> {b}")
    assert reaching == []


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A circle in ``graph``, or ``None``."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_no_import_circle_in_the_server() -> None:
    graph: dict[str, set[str]] = {}
    for a, b in web_edges(checking=False):
        if a != b and not b.startswith(a + "."):  # a package importing its own modules is no circle
            graph.setdefault(a, set()).add(b)
    assert _cycle(graph) is None


def test_a_domain_uses_only_the_domains_before_it() -> None:
    later = [
        f"{a} -> {b}"
        for a, b in web_edges()
        if web_level(a) == web_level(b) == 1 and DOMAINS.index(web_part(b)) > DOMAINS.index(web_part(a))
    ]
    assert later == []


def test_the_domains_depend_on_each_other_without_a_circle() -> None:
    graph: dict[str, set[str]] = {}
    for a, b in web_edges(checking=False):
        if web_level(a) == web_level(b) == 1 and web_part(a) != web_part(b):
            graph.setdefault(web_part(a), set()).add(web_part(b))
    assert _cycle(graph) is None


def test_only_a_domains_storage_uses_sql() -> None:
    """A domain's service, routes and events read and write through its repository: SQLAlchemy is imported (other
    than for type checking) by its tables and repository modules alone."""
    using = []
    for name, path in modules().items():
        if name.startswith(WEB + ".") and web_level(name) == 1:
            module = name.rsplit(".", 1)[-1]
            if not module.startswith(SQL_MODULES) and not module.endswith("_repository"):
                for node, checking in _imports(ast.parse(path.read_text())):
                    names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                    if not checking and any(n.split(".")[0] == "sqlalchemy" for n in names):
                        using.append(name)
    assert using == []


def test_no_module_reaches_into_the_app_object() -> None:
    """The app object wires the domains and hands each its collaborators; nothing below imports it."""
    reaching = [f"{a} -> {b}" for a, b in web_edges() if b == "hive.web.http.app" and web_level(a) < 2]
    assert reaching == []


@pytest.mark.parametrize("name", sorted(name for name in modules() if name.startswith(WEB)))
def test_no_server_module_passes_400_lines(name: str) -> None:
    lines = modules()[name].read_text().count("\n")
    assert lines <= MAX_LINES, f"{modules()[name]} has {lines} lines: cut it by concern"


def test_no_test_module_imports_another() -> None:
    """A helper two test modules share lives in a ``*_support`` module or a ``conftest.py``: importing a test module
    would collect its tests twice over and tie one file's fixtures to another's."""
    tests = Path(__file__).resolve().parent
    importing = []
    for path in sorted(tests.rglob("*.py")):
        for node, _ in _imports(ast.parse(path.read_text())):
            # ``from .test_x import y``, ``from . import test_x``, ``import tests.test_x``
            names = [alias.name for alias in node.names]
            if isinstance(node, ast.ImportFrom):
                names.append(node.module or "")
            if any(name.rsplit(".", 1)[-1].startswith("test_") for name in names):
                importing.append(f"{path.relative_to(tests)}: {', '.join(names)}")
    assert importing == []
