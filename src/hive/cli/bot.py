"""``hive bot``: a player the arena knows (a UHP engine, a built-in level) plays on a server as a bot account."""

from __future__ import annotations

import argparse
import asyncio
import os
from collections.abc import Sequence

from ..bot import Bot, BotError, BotSettings
from ..players import PLAYER_CHOICES
from .common import reported, standalone

#: The environment variable standing for ``--token`` (keeping it off command lines).
TOKEN_VARIABLE = "HIVE_BOT_TOKEN"

DESCRIPTION = (
    "Play on a server as a bot account: accept the challenges the options allow, play each game on its clock with "
    "the engine or level given, and reconnect after a network fault. The account is made a bot's, and its API "
    "token, on the server's page (the account's dialog: Bots and API tokens), or with POST /api/account/bot and "
    "POST /api/account/token."
)


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``bot`` subcommand."""
    parser = subparsers.add_parser("bot", help="play on a server as a bot account", description=DESCRIPTION)
    add_arguments(parser)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``hive bot``; the parser's ``func`` runs it."""
    parser.add_argument("--server", required=True, metavar="URL", help="the server, http://HOST:PORT or https://HOST")
    parser.add_argument("--token", default=None, help=f"the bot account's API token (default: ${TOKEN_VARIABLE})")
    who = parser.add_mutually_exclusive_group(required=True)
    who.add_argument("--engine", metavar="COMMAND", help="a UHP engine's command line, e.g. 'nokamute uhp'")
    who.add_argument("--player", metavar="PLAYER", help=f"any player: {PLAYER_CHOICES}")
    parser.add_argument(
        "--game", action="append", default=[], metavar="NAME", help="accept this game only (repeatable; default any)"
    )
    kinds = parser.add_mutually_exclusive_group()
    kinds.add_argument("--rated-only", action="store_true", help="decline casual challenges")
    kinds.add_argument("--casual-only", action="store_true", help="decline rated challenges")
    parser.add_argument("--max-games", type=int, default=2, metavar="N", help="games at once (default 2)")
    parser.set_defaults(func=cmd_bot)


def _serve(args: argparse.Namespace) -> int:
    """Play on the server as ``args`` asks, until interrupted; returns the exit code."""
    settings = BotSettings(
        server=args.server,
        token=args.token or os.environ.get(TOKEN_VARIABLE, ""),
        player=f"uhp:{args.engine}" if args.engine else args.player,
        games=frozenset(args.game),
        rated=not args.casual_only,
        casual=not args.rated_only,
        max_games=args.max_games,
    )
    try:
        asyncio.run(Bot(settings, log=lambda line: print(line, flush=True)).run())
    except OSError as err:
        raise BotError(f"the server cannot be reached: {err}") from None
    return 0


def cmd_bot(args: argparse.Namespace) -> int:
    """Run ``hive bot`` from parsed arguments until it is interrupted; returns the exit code."""
    return reported("bot", (BotError, ValueError), lambda: _serve(args))


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``hive bot`` with ``argv`` (default ``sys.argv[1:]``); returns the exit code."""
    return standalone("bot", DESCRIPTION, add_arguments, argv)


__all__ = ["add_arguments", "add_parser", "cmd_bot", "main"]
