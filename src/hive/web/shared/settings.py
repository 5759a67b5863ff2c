"""What one server allows: its limits, each with a default and a command-line option (see docs/security.md)."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    """A server's limits and who may reach it.

    :ivar hosts: the names the ``Host`` header may carry (``None``: any, for a server placed behind another that
        checks them; ``*`` in the tuple also allows any).
    :ivar origins: origins allowed besides the server's own (``scheme://host:port``), e.g. a reverse proxy's.
    :ivar proxy: the reverse proxy's addresses (comma-separated, ``*`` for any) whose ``X-Forwarded-For`` and
        ``X-Forwarded-Proto`` are trusted; ``None``: no proxy, a client is the peer.
    :ivar ai_lease: seconds a process holds an AI move it took from the shared queue without saying it still works on
        it; a process that dies gives its moves to another after at most this long.
    :ivar accounts: whether players may make accounts and sign in (``hive serve``; ``hive play`` has none).
    :ivar lobby_sockets: the lobby's sockets (``/ws/lobby``) one client (an address) may hold open at once; ``0``:
        no limit.
    :ivar sign_ups_per_hour: the accounts one address may make in an hour (clubs behind one address raise it).
    :ivar sign_in_failures: the failed sign-ins one address may make for one name in 15 minutes (or one device
        cookie, for its accounts).
    :ivar sign_in_failures_per_address: the failed sign-ins one address may make in 15 minutes, all names together.
    :ivar sign_in_failures_per_name: the failed sign-ins for one name in 15 minutes from the addresses and devices
        that never signed it in (those that did are not held by it: a stranger does not lock the owner out).
    :ivar game_sockets: the games' sockets (``/ws/games/{id}``) one client (an address) may hold open on one
        process at once, in all; ``game_sockets_per_game`` of them on one game, ``spectator_sockets`` of them
        without a seat; ``seat_sockets``: the sockets one seat of a game may have open on one process, from any
        address. ``0``: no limit.
    :ivar seek_grace: seconds a seek or challenge (but a correspondence one) stays open once its seeker has no page
        (lobby socket) and no bot event stream open on any process; then it is cancelled.
    :ivar first_move: seconds the side to move has for its first move in a real-time game between two players online
        (each side's first move) before the server aborts the game (a correspondence game gives its days per move).
    :ivar push_contact: the server's contact that push services are given with each notification (the VAPID
        ``sub``: a ``mailto:`` or ``https:`` URL).
    :ivar push_loopback: take push endpoints over ``http`` and on this machine or a local network (tests' stand-in
        push services only: a real one is ``https`` on the Internet).
    :ivar smtp: the host's mail server (``hive serve --smtp URL``, see :mod:`hive.web.players.mail`), through which a
        player asks for a forgotten password's link; ``None``: no mail.
    """

    hosts: tuple[str, ...] | None = None
    origins: tuple[str, ...] = ()
    proxy: str | None = None
    games_per_minute: int = 30
    hints_per_minute: int = 60
    ai_per_minute: int = 120
    ai_queue: int = 64
    ai_per_game: int = 4
    live_games: int = 256
    body_bytes: int = 64 * 1024
    json_depth: int = 32
    request_timeout: float = 15.0
    idle_timeout: int = 5
    send_queue: int = 32
    send_timeout: float = 5.0
    ai_lease: float = 15.0
    accounts: bool = False
    lobby_sockets: int = 8
    sign_ups_per_hour: int = 5
    sign_in_failures: int = 5
    sign_in_failures_per_address: int = 20
    sign_in_failures_per_name: int = 10
    game_sockets: int = 100
    game_sockets_per_game: int = 20
    spectator_sockets: int = 50
    seat_sockets: int = 8
    seek_grace: float = 30.0
    first_move: float = 30.0
    push_contact: str = "mailto:admin@localhost"
    push_loopback: bool = False
    smtp: str | None = None

    def __post_init__(self) -> None:
        sockets = ("lobby_sockets", "game_sockets", "game_sockets_per_game", "spectator_sockets", "seat_sockets")
        for name in ("games_per_minute", "hints_per_minute", "ai_per_minute", *sockets):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be 0 (no limit) or more, not {getattr(self, name)}")
        for name in (
            "ai_queue",
            "ai_per_game",
            "live_games",
            "body_bytes",
            "json_depth",
            "send_queue",
            "sign_ups_per_hour",
            "sign_in_failures",
            "sign_in_failures_per_address",
            "sign_in_failures_per_name",
        ):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, not {getattr(self, name)}")
        for name in ("request_timeout", "idle_timeout", "send_timeout", "ai_lease", "seek_grace", "first_move"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be more than 0 seconds, not {getattr(self, name)}")
        if not re.fullmatch(r"mailto:[^@\s]+@[\w.-]+|https://[\w.-]+(:\d+)?(/\S*)?", self.push_contact):
            raise ValueError(f"push_contact must be a mailto: or https: URL, not {self.push_contact!r}")


__all__ = ["Settings"]
