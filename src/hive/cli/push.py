"""``hive push keys``: the club server's VAPID keys for Web Push, shown or made anew (``--rotate``)."""

from __future__ import annotations

import argparse
import asyncio
import sys

from .serve import DATABASE_VARIABLE, database_url


def cmd_push(args: argparse.Namespace) -> int:
    """Show the server's VAPID public key (made now if the database has none); ``--rotate`` makes a new pair and
    deletes every push subscription (the browsers subscribe again when their players turn notifications on)."""
    from ..web.push import PushRepository
    from ..web.shared.database import Database, DatabaseError

    try:
        database = Database(database_url(args), upgrade=False)
    except DatabaseError as err:
        print(f"hive push keys: {err}", file=sys.stderr)
        return 2
    try:
        repository = PushRepository(database)
        if args.rotate:
            keys, deleted = asyncio.run(repository.rotate())
            print(f"Made new push keys; deleted {deleted} push subscription(s), which their browsers make again.")
        else:
            keys = asyncio.run(repository.keys())
        print(f"VAPID public key: {keys.public}")
        return 0
    finally:
        database.close()


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``push`` subcommand."""
    push = subparsers.add_parser(
        "push",
        help="the club server's Web Push notifications: its VAPID keys",
        description="The club server's Web Push notifications (see docs/site/server.rst).",
    )
    actions = push.add_subparsers(dest="action", required=True)
    text = "show the server's VAPID public key (made if absent); --rotate makes a new key pair"
    keys = actions.add_parser("keys", help=text, description=text[0].upper() + text[1:] + ".")
    keys.add_argument(
        "--rotate", action="store_true", help="make a new key pair, deleting every subscription made with the old"
    )
    keys.add_argument(
        "--database",
        default=None,
        metavar="URL",
        help=f"postgresql://USER@HOST/DB or sqlite:///PATH (default: ${DATABASE_VARIABLE}, else the SQLite file"
        " of hive play)",
    )
    keys.set_defaults(func=cmd_push)


__all__ = ["add_parser", "cmd_push"]
