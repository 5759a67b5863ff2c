"""``hive serve`` (the browser game as a club's server) and ``hive db`` (its database's schema)."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from dataclasses import replace
from typing import TYPE_CHECKING

from .server_options import add_server_options, settings_from

if TYPE_CHECKING:
    from ..web.shared.database import Database

#: The environment variables standing for ``--database`` and ``--redis`` (keeping passwords off command lines).
DATABASE_VARIABLE = "HIVE_DATABASE_URL"
REDIS_VARIABLE = "HIVE_REDIS_URL"
#: The environment variable standing for ``--smtp``.
SMTP_VARIABLE = "HIVE_SMTP_URL"


def _database(args: argparse.Namespace) -> str:
    """The database the options or the environment name ('' for the default SQLite file)."""
    return str(args.database or os.environ.get(DATABASE_VARIABLE) or "")


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the server until it is stopped (:func:`hive.web.http.run.serve_club`)."""
    from ..web.http.logs import FORMATS
    from ..web.http.run import ServeOptions, serve_club

    problems = []
    if not 0 <= args.port <= 65535:
        problems.append(f"--port must be 0..65535, not {args.port}")
    if args.workers < 1:
        problems.append(f"--workers must be at least 1, not {args.workers}")
    if args.ai_workers < 0:
        problems.append(f"--ai-workers must be 0 or more, not {args.ai_workers}")
    if args.log_format not in FORMATS:
        problems.append(f"--log-format must be one of {', '.join(FORMATS)}, not {args.log_format!r}")
    smtp = args.smtp or os.environ.get(SMTP_VARIABLE) or None
    if smtp is not None:
        from ..web.players.mail import MailServer

        try:
            MailServer.parse(smtp)
        except ValueError as err:
            problems.append(str(err))
    if problems:
        print(f"hive serve: {problems[0]}", file=sys.stderr)
        return 2
    try:
        options = ServeOptions(
            host=args.host,
            port=args.port,
            database=_database(args),
            processes=args.workers,
            ai_workers=args.ai_workers,
            redis=args.redis or os.environ.get(REDIS_VARIABLE) or None,
            log_format=args.log_format,
            settings=replace(settings_from(args), accounts=True, smtp=smtp),
        )
        serve_club(options)
    except (OSError, ValueError) as err:
        print(f"hive serve: {err}", file=sys.stderr)
        return 2
    return 0


def database_url(args: argparse.Namespace) -> str:
    """The database a ``hive db`` (or ``hive push``) command names: the option's, the environment's, or the SQLite
    file of ``hive play``."""
    return _database(args) or _default()


def cmd_db(args: argparse.Namespace) -> int:
    """``hive db upgrade`` brings the schema up to date (and makes the Web Push keys if there are none); ``hive db
    current`` says where it is; ``hive db admin NAME`` makes an account an admin (``--revoke``: no longer)."""
    from ..web.migrations import head
    from ..web.shared.database import Database, DatabaseError

    url = database_url(args)
    try:
        before = None
        if args.action == "upgrade":  # where it stood, to say what the upgrade did
            with contextlib.closing(Database(url, upgrade=False, check=False)) as found_first:
                before = found_first.revision()
        database = Database(url, upgrade=args.action == "upgrade", check=args.action == "admin")
    except DatabaseError as err:
        print(f"hive db {args.action}: {err}", file=sys.stderr)
        return 2
    try:
        if args.action == "admin":
            return _admin(database, args.name, not args.revoke)
        found = database.revision()
        newest = head()
        if args.action == "upgrade":
            _push_keys(database)
            if before is None:
                print(f"Made the tables of schema {found} in the empty database at {database.shown}: it is up to date.")
            elif before != found:
                print(f"Upgraded the database at {database.shown} from schema {before} to {found}: it is up to date.")
            else:
                print(f"The database at {database.shown} is up to date (schema {found}): nothing to do.")
            return 0
        state = "up to date" if found == newest else f"behind: run hive db upgrade (newest {newest})"
        print(f"The database at {database.shown} is at schema {found or 'none'}: {state}.")
        return 0 if found == newest else 1
    finally:
        database.close()


def _push_keys(database: Database) -> None:
    """Make the server's Web Push (VAPID) keys if the database has none (every process shares them)."""
    import asyncio

    from ..web.push import PushRepository

    asyncio.run(PushRepository(database).keys())


def _admin(database: Database, name: str, admin: bool) -> int:
    """Make the account ``name`` an admin, or no longer."""
    import asyncio

    from ..web.players import Accounts
    from ..web.players.repository import AccountRepository
    from ..web.shared.errors import NotFound

    try:
        account = asyncio.run(Accounts(AccountRepository(database)).set_admin(name, admin))
    except NotFound as err:
        print(f"hive db admin: {err}", file=sys.stderr)
        return 2
    print(f"{account.name} is {'now an admin' if admin else 'no longer an admin'}.")
    return 0


def _default() -> str:
    from ..web.shared.database import default_path

    return str(default_path())


def add_parsers(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``serve`` and ``db`` subcommands."""
    serve = subparsers.add_parser(
        "serve",
        help="run the browser game as a server for a club: PostgreSQL, several processes acting as one",
        description="Run the browser game as a long-running server. Several hive serve processes, on one machine"
        " or several, given the same PostgreSQL database act as one server. SIGTERM drains it.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    serve.add_argument(
        "--database",
        default=None,
        metavar="URL",
        help=f"postgresql://USER[:PASSWORD]@HOST[:PORT]/DB or sqlite:///PATH (default: ${DATABASE_VARIABLE}, else"
        " a SQLite file in the user's data directory)",
    )
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="server processes behind the one port (default 1; several need PostgreSQL)",
    )
    serve.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help=f"carry changes between processes over Redis pub/sub, redis://HOST:PORT/DB (default: ${REDIS_VARIABLE},"
        " else PostgreSQL's NOTIFY)",
    )
    serve.add_argument(
        "--smtp",
        default=None,
        metavar="URL",
        help="the mail server that sends a forgotten password's link to a player who asks:"
        " smtp://USER:PASSWORD@HOST:587?starttls=1, smtps://USER:PASSWORD@HOST:465 or smtp://HOST:25;"
        f" &from=ADDRESS sets the sender (default: ${SMTP_VARIABLE}, else no mail: only an admin issues links)",
    )
    serve.add_argument(
        "--log-format", default="text", metavar="FORMAT", help="text (default) or json: one object a line"
    )
    add_server_options(serve, proxy="--forwarded-allow-ips", accounts=True)
    serve.set_defaults(func=cmd_serve)

    db = subparsers.add_parser(
        "db",
        help="the server's database: bring its schema up to date",
        description="Manage the server's database schema (Alembic migrations, for SQLite and PostgreSQL alike).",
    )
    actions = db.add_subparsers(dest="action", required=True)
    for action, text in (
        ("upgrade", "bring the schema up to the newest this release knows (safe to run twice, or at once)"),
        ("current", "say which schema the database is at (exit 1 when it is behind)"),
        ("admin", "make an account an admin (one who may reset passwords, ban and delete accounts)"),
    ):
        sub = actions.add_parser(action, help=text, description=text[0].upper() + text[1:] + ".")
        if action == "admin":
            sub.add_argument("name", metavar="NAME", help="the account's name")
            sub.add_argument("--revoke", action="store_true", help="make it an admin no longer")
        sub.add_argument(
            "--database",
            default=None,
            metavar="URL",
            help=f"postgresql://USER@HOST/DB or sqlite:///PATH (default: ${DATABASE_VARIABLE}, else the SQLite file"
            " of hive play)",
        )
        sub.set_defaults(func=cmd_db)


__all__ = ["add_parsers", "cmd_db", "cmd_serve", "database_url"]
