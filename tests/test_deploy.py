"""The deployment files (``deploy/``) and the server guide (``docs/site/server.rst``) agree with ``hive``.

Every ``hive`` command line they show uses only subcommands and options that ``hive <sub> --help`` lists (a help
that fails is a failure, not a skip), the compose file parses and names its services, every variable the
files read is set by their example settings, and Caddy passes requests to the port the app listens on.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]

from .servers import unavailable
from .shared import ROOT

DEPLOY = ROOT / "deploy"
COMPOSE = DEPLOY / "compose.yaml"
CADDYFILE = DEPLOY / "Caddyfile"
UNIT = DEPLOY / "hive.service"
UNIT_ENV = DEPLOY / "hive.env"
COMPOSE_ENV = DEPLOY / ".env.example"
GUIDE = ROOT / "docs" / "site" / "server.rst"
#: The port ``hive serve`` listens on without ``--port``.
DEFAULT_PORT = 8000


# --- what ``hive <sub> --help`` lists ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Help:
    """The options a command's ``--help`` lists, the values of those that list them, and its subcommands."""

    options: frozenset[str]
    choices: dict[str, frozenset[str]]
    commands: frozenset[str]


def parse_help(text: str) -> Help:
    """Read argparse's help: option lines are indented by two spaces (``  -h, --help``, ``  --log-format
    {text,json}``), and subcommands are listed as ``  {play,perft,...}`` under the positional arguments."""
    options: set[str] = set()
    choices: dict[str, frozenset[str]] = {}
    commands: set[str] = set()
    for line in text.splitlines():
        listed = re.match(r"  \{([^}]*)\}", line)
        if listed:
            commands |= set(listed.group(1).split(","))
        elif re.match(r"  -", line):
            invocation = re.split(r"\s{2,}", line.strip())[0]
            for form in invocation.split(", "):
                name, _, metavar = form.partition(" ")
                options.add(name)
                values = re.fullmatch(r"\{([^}]*)\}", metavar)
                if values:
                    choices[name] = frozenset(values.group(1).split(","))
    return Help(frozenset(options), choices, frozenset(commands))


#: Run in one interpreter for every command path it is given (``["db", "upgrade"]``): ``hive *path --help``, as
#: ``python -m hive`` runs it; prints ``{"db upgrade": help text, or null where the command fails}``.
HELP_SCRIPT = """
import contextlib, io, json, sys
from hive.cli import main
helps = {}
for path in json.loads(sys.argv[1]):
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            code = main([*path, "--help"])
    except SystemExit as exit:
        code = exit.code
    helps[" ".join(path)] = out.getvalue() if code in (0, None) else None
print(json.dumps(helps))
"""


@cache
def hive_helps(paths: tuple[tuple[str, ...], ...]) -> dict[tuple[str, ...], Help | None]:
    """The help of ``hive *path`` for each path (``None`` where it fails), read in one ``python`` process rather
    than one process each, which keeps these tests fast."""
    done = subprocess.run(
        [sys.executable, "-c", HELP_SCRIPT, json.dumps(paths)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": "200"},
    )
    assert done.returncode == 0, done.stderr
    texts: dict[str, str | None] = json.loads(done.stdout.splitlines()[-1])
    return {path: None if texts[" ".join(path)] is None else parse_help(str(texts[" ".join(path)])) for path in paths}


def hive_help(path: tuple[str, ...]) -> Help | None:
    """The help of ``hive *path`` (``hive serve --help``), ``None`` when it fails."""
    return hive_helps(HELP_PATHS)[path] if path in HELP_PATHS else hive_helps((path,))[path]


# --- the ``hive`` command lines written in the files ------------------------------------------------------------------

#: Shell words that end one command and start another.
SEPARATORS = frozenset({";", "&&", "||", "|", "&", "(", ")"})
#: Words before a command that take it as their argument, with their options that take a value.
PREFIXES = {
    "sudo": frozenset({"-u", "-g", "--user", "--group"}),
    "runuser": frozenset({"-u", "-g", "--user", "--group"}),
    "exec": frozenset(),
    "env": frozenset(),
    "nohup": frozenset(),
    "systemd-run": frozenset({"-p", "--property", "-u", "--unit", "--uid", "--gid", "-E", "--setenv"}),
}
#: ``docker compose exec|run`` options that take a value (the service, then the command, follow the options).
COMPOSE_VALUE_OPTIONS = frozenset({"-u", "--user", "-e", "--env", "-w", "--workdir", "--entrypoint", "--name"})


@dataclass(frozen=True)
class Command:
    """A ``hive`` command line: where it is written, and its words after ``hive``."""

    where: str
    words: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.where}: hive {shlex.join(self.words)}"


def shell_words(line: str) -> list[str]:
    """A shell line's words, with ``;``, ``&&``, ``|`` and the like as words of their own; ``#`` comments dropped."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    return list(lexer)


def is_hive(word: str) -> bool:
    return word == "hive" or word.endswith("/bin/hive")


def hive_commands(line: str) -> Iterator[tuple[str, ...]]:
    """The words after ``hive`` of every ``hive`` command in a shell line: where a command starts (after
    ``sudo -u USER``, ``exec``, ``VAR=value``, ``docker compose exec SERVICE``, ``&&``, ...), up to its end."""
    words = shell_words(line)
    start = True
    i = 0
    while i < len(words):
        word = words[i]
        if word in SEPARATORS:
            start = True
        elif not start:
            pass
        elif word in PREFIXES:
            i += 1
            while i < len(words) and words[i].startswith("-"):
                i += 2 if words[i] in PREFIXES[word] else 1
            continue
        elif re.fullmatch(r"[A-Za-z_]\w*=.*", word):
            pass
        elif word == "docker" and words[i + 1 : i + 3] in (["compose", "exec"], ["compose", "run"]):
            i += 3
            while i < len(words) and words[i].startswith("-"):
                i += 2 if words[i] in COMPOSE_VALUE_OPTIONS else 1
            i += 1  # the service
            continue
        elif is_hive(word):
            end = i + 1
            while end < len(words) and words[end] not in SEPARATORS and not re.fullmatch(r"\d*[<>].*", words[end]):
                end += 1
            yield tuple(words[i + 1 : end])
            i = end
            continue
        else:
            start = False
        i += 1


def joined_lines(text: str) -> Iterator[tuple[int, str]]:
    """The lines of ``text`` with those ending in a backslash joined to the next, each with its first line's
    number."""
    pending: list[str] = []
    first = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if not pending:
            first = number
        if line.endswith("\\"):
            pending.append(line[:-1])
            continue
        yield first, " ".join([*pending, line])
        pending = []
    if pending:
        yield first, " ".join(pending)


def env_file(path: Path) -> dict[str, str]:
    """The ``KEY=value`` lines of an environment file (``#`` comments and blank lines skipped)."""
    values = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            values[key.strip()] = value.strip()
    return values


def unit_commands() -> Iterator[Command]:
    """The ``Exec*=`` lines of hive.service, with ``$VAR`` (unbraced: split into words, as systemd does) taken
    from the example hive.env."""
    settings = env_file(UNIT_ENV)
    for number, line in joined_lines(UNIT.read_text(encoding="utf-8")):
        command = re.match(r"\s*Exec\w*=[-@:+!]*(.*)", line)
        if command:
            expanded = re.sub(r"\$([A-Za-z_]\w*)", lambda m: settings.get(m.group(1), m.group(0)), command.group(1))
            for words in hive_commands(expanded):
                yield Command(f"deploy/hive.service:{number}", words)


def strings(node: object) -> Iterator[str | list[str]]:
    """Every string of a YAML document, and every list of strings (a command given as its words)."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, list):
        if node and all(isinstance(item, str) for item in node):
            yield [str(item) for item in node]
        for item in node:
            yield from strings(item)
    elif isinstance(node, dict):
        for value in node.values():
            yield from strings(value)


def compose() -> dict[str, Any]:
    """The compose file as ``docker compose`` reads it: ``${VAR}``, ``${VAR:-default}``, ``${VAR:?error}`` and
    ``$VAR`` replaced by the example settings' values (where the example leaves one empty: the default, or else
    the variable's name)."""

    def value(match: re.Match[str]) -> str:
        if match.group(0) == "$$":
            return "$"
        name = match.group(1) or match.group(3)
        return settings.get(name) or match.group(2) or name

    settings = env_file(COMPOSE_ENV)
    pattern = r"\$\$|\$\{([A-Za-z_]\w*)(?::?-([^}]*))?[^}]*\}|\$([A-Za-z_]\w*)"
    text = re.sub(pattern, value, COMPOSE.read_text(encoding="utf-8"))
    document: dict[str, Any] = yaml.safe_load(text)
    return document


def compose_commands() -> Iterator[Command]:
    for found in strings(compose()):
        if isinstance(found, list):
            if is_hive(found[0]):
                yield Command("deploy/compose.yaml", tuple(found[1:]))
        else:
            for _, line in joined_lines(found):
                for words in hive_commands(line):
                    if words:  # a bare "hive" is a value here (a user's or a database's name)
                        yield Command("deploy/compose.yaml", words)


def dockerfile_commands() -> Iterator[Command]:
    for number, line in joined_lines((DEPLOY / "Dockerfile").read_text(encoding="utf-8")):
        instruction = re.match(r"\s*(?:RUN|CMD|ENTRYPOINT)\s+(.*)", line)
        if not instruction:
            continue
        body = instruction.group(1).strip()
        if body.startswith("["):
            argv = json.loads(body)
            if is_hive(argv[0]):
                yield Command(f"deploy/Dockerfile:{number}", tuple(argv[1:]))
        else:
            for words in hive_commands(body):
                yield Command(f"deploy/Dockerfile:{number}", words)


def markdown_commands(path: Path) -> Iterator[Command]:
    """``hive`` commands in a Markdown file's shell code blocks and inline code."""
    name = path.relative_to(ROOT).as_posix()
    fence = ""
    for number, line in joined_lines(path.read_text(encoding="utf-8")):
        if line.strip().startswith("```"):
            fence = "" if fence else (line.strip()[3:].strip() or "text")
        elif fence in ("sh", "shell", "bash", "console"):
            text = line.strip()
            for words in hive_commands(text[2:] if fence == "console" and text.startswith("$ ") else text):
                yield Command(f"{name}:{number}", words)
        elif not fence:
            for code in re.findall(r"`(hive [^`]+)`", line):
                yield Command(f"{name}:{number}", tuple(shell_words(code)[1:]))


def rst_commands(path: Path) -> Iterator[Command]:
    """``hive`` commands in a reStructuredText page: the ``$`` lines of console blocks, every line of shell
    blocks, the ``Exec*=`` lines of systemd (``ini``) blocks, and inline literals that start with ``hive``."""
    name = path.relative_to(ROOT).as_posix()
    language = ""
    indent = 0
    prose = []
    for number, line in joined_lines(path.read_text(encoding="utf-8")):
        text = line.strip()
        depth = len(line) - len(line.lstrip())
        if language and text and depth <= indent:
            language = ""
        directive = re.match(r"\.\. code-block:: *(\S+)", text)
        if directive:
            language, indent = directive.group(1), depth
        elif not language:
            prose.append((number, line))
        elif language == "console" and text.startswith("$ "):
            yield from (Command(f"{name}:{number}", words) for words in hive_commands(text[2:]))
        elif language in ("sh", "shell", "bash"):
            yield from (Command(f"{name}:{number}", words) for words in hive_commands(text))
        elif language in ("ini", "systemd") and re.match(r"Exec\w*=", text):
            command = re.sub(r"^Exec\w*=[-@:+!]*", "", text)
            yield from (Command(f"{name}:{number}", words) for words in hive_commands(command))
    # Inline literals, which may run on over a line break.
    text = "\n".join(line for _, line in prose)
    for literal in re.finditer(r"``(hive\s[^`]+)``", text):
        number = prose[text.count("\n", 0, literal.start())][0]
        yield Command(f"{name}:{number}", tuple(shell_words(" ".join(literal.group(1).split()))[1:]))


def all_commands() -> list[Command]:
    """Every ``hive`` command line of the deployment files and the guide, each once a file."""
    found = [
        *compose_commands(),
        *dockerfile_commands(),
        *unit_commands(),
        *markdown_commands(DEPLOY / "README.md"),
        *rst_commands(GUIDE),
    ]
    first = {(command.where.split(":")[0], command.words): command for command in reversed(found)}
    return [command for command in found if first[(command.where.split(":")[0], command.words)] is command]


COMMANDS = all_commands()
#: The command paths whose help the commands need: ``()``, then each command's leading words (``serve``,
#: ``db upgrade``), read together.
HELP_PATHS = tuple(
    sorted(
        {()}
        | {("serve",), ("db",), ("db", "upgrade")}
        | {
            tuple(command.words[:length])
            for command in COMMANDS
            for length in (1, 2)
            if len(command.words) >= length and not any(word.startswith("-") for word in command.words[:length])
        }
    )
)


def option_value(words: tuple[str, ...], option: str) -> str | None:
    """The value given to ``option`` in ``words`` (``--port 8000`` or ``--port=8000``), the last if repeated."""
    value = None
    for i, word in enumerate(words):
        if word == option and i + 1 < len(words):
            value = words[i + 1]
        elif word.startswith(option + "="):
            value = word[len(option) + 1 :]
    return value


def port_of(words: tuple[str, ...]) -> int:
    port = option_value(words, "--port")
    return DEFAULT_PORT if port is None else int(port)


def serving(commands: list[Command]) -> list[Command]:
    return [command for command in commands if command.words[:1] == ("serve",)]


# --- the extraction itself --------------------------------------------------------------------------------------------


def test_command_lines_are_found_where_a_command_starts() -> None:
    line = "sudo -u hive /opt/hive/venv/bin/hive db upgrade && exec hive serve --port 9000 | tee log # hive x"
    assert list(hive_commands(line)) == [("db", "upgrade"), ("serve", "--port", "9000")]
    assert list(hive_commands("sudo -u postgres createdb --owner hive hive")) == []
    assert list(hive_commands("docker compose exec -T app hive --version > out")) == [("--version",)]
    assert list(hive_commands("HIVE_PURE=1 hive play --port=8001")) == [("play", "--port=8001")]


def test_help_is_read_into_options_choices_and_subcommands() -> None:
    text = """usage: hive serve [-h] [--port PORT] [--log-format {text,json}]

positional arguments:
  {upgrade,current}
    upgrade             bring the schema up to date

options:
  -h, --help            show this help message and exit
  --port PORT           port to listen on (default 8000)
  --log-format {text,json}
                        how log lines are written
  --game NAME, --game-type NAME
                        the game
"""
    found = parse_help(text)
    assert found.options == {"-h", "--help", "--port", "--log-format", "--game", "--game-type"}
    assert found.choices == {"--log-format": {"text", "json"}}
    assert found.commands == {"upgrade", "current"}


def test_the_files_hold_the_commands_they_are_meant_to() -> None:
    where = {(command.where.split(":")[0], command.words[:2]) for command in COMMANDS}
    for name in ("deploy/compose.yaml", "deploy/hive.service", "docs/site/server.rst"):
        assert (name, ("db", "upgrade")) in where, name
        assert any(path == name and words[:1] == ("serve",) for path, words in where), name


# --- every command line against ``hive --help`` -----------------------------------------------------------------------


@pytest.mark.parametrize("command", COMMANDS, ids=str)
def test_command_lines_use_only_what_hive_help_lists(command: Command) -> None:
    path: tuple[str, ...] = ()
    words = list(command.words)
    while True:
        found = hive_help(path)
        assert found is not None, f"{command}: `hive {' '.join(path)} --help` fails"
        if not found.commands or (words and words[0].startswith("-")):
            break
        assert words, f"{command}: `hive {' '.join(path)}` needs a subcommand ({', '.join(sorted(found.commands))})"
        assert words[0] in found.commands, (
            f"{command}: `hive {' '.join(path)} --help` lists no subcommand {words[0]!r} "
            f"(it lists {', '.join(sorted(found.commands))})"
        )
        path += (words.pop(0),)
    for i, word in enumerate(words):
        if not word.startswith("-") or word == "-":
            continue
        name, equals, value = word.partition("=")
        assert name in found.options, f"{command}: `hive {' '.join(path)} --help` lists no option {name}"
        if name in found.choices:
            given = value if equals else (words[i + 1] if i + 1 < len(words) else "")
            assert given in found.choices[name], f"{command}: {name} takes one of {sorted(found.choices[name])}"


# --- the compose file -------------------------------------------------------------------------------------------------


def test_compose_file_parses_and_names_its_services() -> None:
    assert isinstance(yaml.safe_load(COMPOSE.read_text(encoding="utf-8")), dict)
    services = compose()["services"]
    assert set(services) == {"db", "app", "caddy"}
    assert services["db"]["image"].startswith("postgres:")
    assert services["caddy"]["image"].startswith("caddy:")
    assert "healthcheck" in services["db"]
    assert "/healthz" in " ".join(services["app"]["healthcheck"]["test"])
    build = services["app"]["build"]
    assert (COMPOSE.parent / build["context"] / build["dockerfile"]).resolve() == DEPLOY / "Dockerfile"
    assert set(compose()["volumes"]) >= {"pgdata", "caddy_data"}
    assert not services["app"].get("ports") and not services["db"].get("ports"), "only Caddy faces the internet"


def test_compose_variables_are_all_in_the_example_settings() -> None:
    used = set(re.findall(r"\$\{?([A-Za-z_]\w*)", COMPOSE.read_text(encoding="utf-8")))
    assert used <= set(env_file(COMPOSE_ENV)), used - set(env_file(COMPOSE_ENV))


def test_compose_app_upgrades_the_schema_then_serves_behind_the_proxy() -> None:
    app = [command.words for command in compose_commands()]
    assert app.index(("db", "upgrade")) < next(i for i, words in enumerate(app) if words[:1] == ("serve",))
    (serve,) = serving([Command("", words) for words in app])
    assert option_value(serve.words, "--host") == "0.0.0.0"
    assert option_value(serve.words, "--forwarded-allow-ips") == "*"
    assert option_value(serve.words, "--allow-origin") == "https://" + str(option_value(serve.words, "--allow-host"))


def caddy_upstreams(text: str) -> list[str]:
    """The upstreams of a Caddyfile's ``reverse_proxy`` lines, in order."""
    lines = re.findall(r"^\s*reverse_proxy\s+([^{\n]*)", text, flags=re.MULTILINE)
    return [upstream for line in lines for upstream in line.split()]


def test_caddy_proxies_to_the_port_the_app_listens_on() -> None:
    app = compose()["services"]["app"]
    (serve,) = serving(list(compose_commands()))
    port = port_of(serve.words)
    assert caddy_upstreams(CADDYFILE.read_text(encoding="utf-8")) == [f"app:{port}"]
    assert [str(exposed) for exposed in app.get("expose", [])] == [str(port)]
    assert f"127.0.0.1:{port}/healthz" in " ".join(app["healthcheck"]["test"])


def test_caddy_reads_only_variables_compose_gives_it() -> None:
    given = set(compose()["services"]["caddy"]["environment"])
    used = set(re.findall(r"\{\$([A-Za-z_]\w*)", CADDYFILE.read_text(encoding="utf-8")))
    assert used and used <= given, used - given


def caddy_adapt(path: Path) -> str:
    """Caddy's JSON configuration for a Caddyfile (``caddy adapt``). Skips only where Caddy is not installed (and
    fails there too under CI, whose ``scripts/test.sh`` installs it); a ``caddy adapt`` that fails is a failure."""
    caddy = shutil.which("caddy")
    if caddy is None:
        unavailable("caddy is not installed (scripts/test.sh installs it: apt-get install caddy)")
    done = subprocess.run(
        [caddy, "adapt", "--config", str(path), "--adapter", "caddyfile"],
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "HIVE_DOMAIN": "hive.example.org", "HIVE_ACME_EMAIL": "admin@example.org"},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_caddy_adapts_the_caddyfile_to_the_same_upstream() -> None:
    dials = re.findall(r'"dial":\s*"([^"]+)"', caddy_adapt(CADDYFILE))
    (serve,) = serving(list(compose_commands()))
    assert dials == [f"app:{port_of(serve.words)}"]


def guide_blocks(language: str) -> list[str]:
    """The contents of the guide's code blocks in ``language``, without their indentation."""
    found = []
    for block in re.findall(rf"\.\. code-block:: {language}\n\n((?: +\S.*\n|\n)+)", GUIDE.read_text(encoding="utf-8")):
        lines = block.rstrip("\n").splitlines()
        indent = min(len(line) - len(line.lstrip()) for line in lines if line.strip())
        found.append("\n".join(line[indent:] for line in lines) + "\n")
    return found


def test_guide_caddyfiles_are_valid(tmp_path: Path) -> None:
    caddyfiles = [block for block in guide_blocks("none") if "reverse_proxy" in block]
    assert len(caddyfiles) >= 2
    for number, text in enumerate(caddyfiles):
        path = tmp_path / f"Caddyfile{number}"
        path.write_text(text, encoding="utf-8")
        assert re.findall(r'"dial":\s*"([^"]+)"', caddy_adapt(path)) == caddy_upstreams(text), text


def test_guide_yaml_snippets_parse() -> None:
    snippets = guide_blocks("yaml")
    assert snippets
    for text in snippets:
        assert isinstance(yaml.safe_load(text), dict), text


# --- the systemd unit -------------------------------------------------------------------------------------------------


def test_unit_reads_its_settings_and_upgrades_before_serving() -> None:
    text = UNIT.read_text(encoding="utf-8")
    assert "EnvironmentFile=/etc/hive/hive.env" in text
    pre = next(line for line in text.splitlines() if line.startswith("ExecStartPre="))
    assert list(hive_commands(pre.partition("=")[2])) == [("db", "upgrade")]
    for setting in ("Restart=on-failure", "KillSignal=SIGTERM", "NoNewPrivileges=yes", "PrivateTmp=yes"):
        assert setting in text.splitlines(), setting
    assert re.search(r"^TimeoutStopSec=\d+", text, flags=re.MULTILINE)
    assert re.search(r"^ProtectSystem=(strict|full)$", text, flags=re.MULTILINE)


def test_unit_variables_are_all_in_the_example_settings() -> None:
    settings = env_file(UNIT_ENV)
    used = set(re.findall(r"\$\{?([A-Za-z_]\w*)", UNIT.read_text(encoding="utf-8")))
    assert used <= set(settings), used - set(settings)
    assert settings["HIVE_DATABASE_URL"].startswith("postgresql://")


def test_guide_caddy_proxies_to_the_port_the_unit_serves() -> None:
    (serve,) = serving(list(unit_commands()))
    assert option_value(serve.words, "--host") == "127.0.0.1"
    upstreams = caddy_upstreams(GUIDE.read_text(encoding="utf-8"))
    assert upstreams and all(upstream.endswith(f":{port_of(serve.words)}") for upstream in upstreams), upstreams


def test_guide_includes_the_deployment_files() -> None:
    included = re.findall(r"\.\. literalinclude:: (\S+)", GUIDE.read_text(encoding="utf-8"))
    assert {(GUIDE.parent / path).resolve().name for path in included} >= {"hive.service", "hive.env"}
    assert all((GUIDE.parent / path).resolve().is_file() for path in included)
