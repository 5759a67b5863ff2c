"""The options ``hive play`` and ``hive serve`` share: who may reach the server, behind which proxy, and its limits
(docs/security.md explains each)."""

from __future__ import annotations

import argparse

from ..web.shared.settings import Settings

#: The server's limits: option, the field of :class:`hive.web.shared.settings.Settings`, its type and what it bounds.
LIMITS = (
    ("--max-games-per-minute", "games_per_minute", int, "new games a minute from one address (0: no limit)"),
    ("--max-hints-per-minute", "hints_per_minute", int, "hints a minute from one address (0: no limit)"),
    ("--max-ai-per-minute", "ai_per_minute", int, "moves asking the AI a minute from one address (0: no limit)"),
    ("--ai-queue", "ai_queue", int, "hints that may wait for the AI, all games together"),
    ("--ai-queue-per-game", "ai_per_game", int, "hints that may wait for the AI in one game"),
    ("--live-games", "live_games", int, "games kept in memory (others are reloaded from the database)"),
    ("--max-body", "body_bytes", int, "bytes a request body may have"),
    ("--request-timeout", "request_timeout", float, "seconds a request's head or body may take to arrive"),
    ("--idle-timeout", "idle_timeout", int, "seconds an idle connection is kept open"),
    ("--send-timeout", "send_timeout", float, "seconds a live update may take before its socket is dropped"),
    ("--game-sockets", "game_sockets", int, "games' sockets one address may hold open, in all (0: no limit)"),
    (
        "--game-sockets-per-game",
        "game_sockets_per_game",
        int,
        "sockets one address may hold open on one game (0: no limit)",
    ),
    ("--spectator-sockets", "spectator_sockets", int, "spectators' sockets one address may hold open (0: no limit)"),
    ("--seat-sockets", "seat_sockets", int, "sockets one seat of a game may hold open (0: no limit)"),
    ("--ai-lease", "ai_lease", float, "seconds before another process takes over the AI move of one that stopped"),
    (
        "--first-move",
        "first_move",
        float,
        "seconds each side has for its first move in a real-time game between two players before it is aborted",
    ),
)
#: The limits of accounts (``hive serve``'s only), as :data:`LIMITS`.
ACCOUNT_LIMITS = (
    ("--sign-ups-per-hour", "sign_ups_per_hour", int, "accounts one address may make in an hour"),
    ("--sign-in-failures", "sign_in_failures", int, "failed sign-ins for one name from one address in 15 minutes"),
    (
        "--sign-in-failures-per-address",
        "sign_in_failures_per_address",
        int,
        "failed sign-ins from one address in 15 minutes, all names together",
    ),
    (
        "--sign-in-failures-per-name",
        "sign_in_failures_per_name",
        int,
        "failed sign-ins for one name in 15 minutes from addresses and devices that never signed it in",
    ),
    ("--seek-grace", "seek_grace", float, "seconds a seek stays open once its seeker has no page open"),
)


def settings_from(args: argparse.Namespace) -> Settings:
    """The server's :class:`~hive.web.shared.settings.Settings` from the options.

    :raises ValueError: naming the option out of range.
    """
    limits = LIMITS + ACCOUNT_LIMITS
    values = {field: getattr(args, field) for _, field, _, _ in limits if getattr(args, field, None) is not None}
    hosts = tuple(args.allow_host) if args.allow_host else None
    if getattr(args, "push_contact", None) is not None:
        values["push_contact"] = args.push_contact
    try:
        return Settings(hosts=hosts, origins=tuple(args.allow_origin), proxy=args.proxy, **values)
    except ValueError as err:
        options = (*((option, field) for option, field, _, _ in limits), ("--push-contact", "push_contact"))
        option = next(option for option, field in options if str(err).startswith(field + " "))
        raise ValueError(f"{option} {str(err).split(' ', 1)[1]}") from None


def add_server_options(parser: argparse.ArgumentParser, *, proxy: str = "--proxy", accounts: bool = False) -> None:
    """Add the options of reach and limits to ``parser``; ``proxy`` is the name of the option trusting a reverse
    proxy's forwarded addresses; ``accounts``: the limits of accounts too (``hive serve``)."""
    group = parser.add_argument_group("who may reach the server, and its limits (see docs/security.md)")
    group.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="also answer to this host name (a reverse proxy's or a LAN name; '*' for any); repeatable",
    )
    group.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="also accept pages from this origin, e.g. https://hive.example.org (a reverse proxy's); repeatable",
    )
    group.add_argument(
        proxy,
        dest="proxy",
        nargs="?",
        const="127.0.0.1",
        default=None,
        metavar="ADDRESSES",
        help="behind a reverse proxy: trust its X-Forwarded-For and X-Forwarded-Proto from these addresses"
        " (comma-separated, '*' for any; default 127.0.0.1)",
    )
    group.add_argument("--ai-workers", type=int, default=1, metavar="N", help="processes for the AI (default 1)")
    defaults = Settings()
    if accounts:
        group.add_argument(
            "--push-contact",
            default=None,
            metavar="URL",
            help="the contact push services are given with each notification, mailto:ADDRESS or https://PAGE"
            f" (default {defaults.push_contact}; see docs/site/server.rst)",
        )
    for option, field, kind, text in LIMITS + (ACCOUNT_LIMITS if accounts else ()):
        group.add_argument(
            option,
            dest=field,
            type=kind,
            default=None,
            metavar="N",
            help=f"{text} (default {getattr(defaults, field)})",
        )


__all__ = ["ACCOUNT_LIMITS", "LIMITS", "add_server_options", "settings_from"]
