"""A bot on a club's server: any player the arena knows (a UHP engine, a built-in level) plays as a bot account,
through the server's bot API (``hive bot``).

The bot follows its account's event stream (``GET /api/bot/stream``): it accepts the challenges its settings allow
and declines the others, and plays each game it is in (``gameStart``) over the game's WebSocket, on the clock: each
move's time is :func:`hive.search.timing.move_budget` of its remaining time. A network fault (the server restarting,
a dropped connection) is met by connecting again, with back-off; games in progress are picked up again from
``GET /api/bot/games``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

from .games import default_game, plugin_of
from .players import Player, Timed, check_player, make_player, parse_player
from .plugin import GameSpec
from .search import Limits
from .search.timing import move_budget

#: Seconds to think on a move without a clock.
UNTIMED_MOVE = 2.0
#: The most seconds a first move of the bot's takes: a server aborts a game whose side makes no first move in time
#: (30 s on a club's server), and a move budget from a long clock would pass it.
FIRST_MOVE = 5.0
#: The longest wait between two tries to reach the server.
MOST_BACKOFF = 30.0


class BotError(ValueError):
    """The server refused what the bot asked (the message is the server's), or the bot's settings are wrong."""


class PlayerFailed(Exception):
    """The bot's player could not give a move (its engine died, timed out, or answered what is not a move)."""


@dataclass(frozen=True)
class BotSettings:
    """What a bot plays and accepts.

    :ivar server: the server's address, ``http://host:port`` or ``https://host``.
    :ivar token: the bot account's API token.
    :ivar player: who plays: a level, ``random``, or ``uhp:<command>``.
    :ivar games: the games it accepts (names, in any case; empty: every game the player plays).
    :ivar rated: whether it accepts rated challenges; :ivar casual: casual ones.
    :ivar max_games: the games it plays at once; challenges past them are declined.
    """

    server: str
    token: str
    player: str
    games: frozenset[str] = frozenset()
    rated: bool = True
    casual: bool = True
    max_games: int = 2

    def __post_init__(self) -> None:
        parts = urllib.parse.urlsplit(self.server)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise BotError(f"The server's address is http://HOST:PORT or https://HOST, not {self.server!r}.")
        if not self.token:
            raise BotError(
                "The bot needs its account's API token (made on the server's page: Bots and API tokens; or "
                "POST /api/account/token)."
            )
        if self.max_games < 1:
            raise BotError(f"A bot plays at least 1 game at once, not {self.max_games}.")
        parse_player(self.player)


@dataclass
class _Game:
    """A game the bot is in: its seat and token, and the plies it has answered already."""

    id: str
    seat: int
    token: str
    answered: set[int] = field(default_factory=set)


class Bot:
    """A bot account played by ``settings.player``.

    :param settings: what it plays and accepts.
    :param log: where it says what it does (a line at a time).
    """

    def __init__(self, settings: BotSettings, log: Callable[[str], None] = print) -> None:
        self.settings = settings
        self.log = log
        self.games: dict[str, asyncio.Task[None]] = {}
        self.spec = parse_player(settings.player)
        self.name = ""

    # ------------------------------------------------------------------ the server's API

    def _request(self, method: str, path: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {self.settings.token}", "Accept": "application/json"}
        if token is not None:
            headers = {"X-Seat-Token": token}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(self.settings.server.rstrip("/") + path, data, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as err:
            try:
                message = json.loads(err.read()).get("error", err.reason)
            except ValueError:
                message = err.reason
            if err.code >= 500:
                raise OSError(f"the server answered {err.code}: {message}") from None
            raise BotError(f"{method} {path}: {message}") from None

    async def call(self, method: str, path: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
        """The server's JSON answer.

        :raises BotError: for a refusal (4xx), with the server's message.
        :raises OSError: when the server cannot be reached, or fails (5xx).
        """
        return await asyncio.to_thread(self._request, method, path, body, token)

    def _lines(self, path: str, stop: threading.Event) -> Iterator[str]:
        request = urllib.request.Request(
            self.settings.server.rstrip("/") + path, headers={"Authorization": f"Bearer {self.settings.token}"}
        )
        with urllib.request.urlopen(request, timeout=60) as response:
            for raw in response:
                if stop.is_set():
                    return
                yield raw.decode().strip()

    # ------------------------------------------------------------------ the loop

    async def run(self, stop: asyncio.Event | None = None) -> None:
        """Play until ``stop`` is set (or for ever), connecting again after every network fault.

        :raises BotError: when the token is refused, or the account is not a bot's.
        """
        stop = stop or asyncio.Event()
        me = await self.call("GET", "/api/session")
        if not me.get("name"):
            raise BotError("The server keeps no accounts, or does not know this token.")
        self.name = me["name"]
        profile = await self.call("GET", f"/api/players/{urllib.parse.quote(self.name)}")
        if not profile.get("bot"):
            raise BotError(f"{self.name} is a player's account: make it a bot's first (POST /api/account/bot).")
        await self.check_player()
        self.log(f"{self.name} is online at {self.settings.server}, played by {self.spec.text}")
        backoff = 1.0
        while not stop.is_set():
            try:
                for game in (await self.call("GET", "/api/bot/games"))["games"]:
                    self._start(game)
                await self._follow(stop)
                backoff = 1.0
            except (OSError, urllib.error.URLError) as err:
                self.log(f"the server cannot be reached ({err}); trying again in {backoff:g} s")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), backoff)
                backoff = min(MOST_BACKOFF, backoff * 2)
        for task in self.games.values():
            task.cancel()

    async def check_player(self) -> None:
        """Start the player once (an engine's process, answering the protocol) and close it, before the bot goes
        online, so that a bot whose engine cannot run never accepts a game it would lose on time.

        :raises BotError: with the engine's error.
        """
        first = next(iter(sorted(self.settings.games)), None) if self.settings.games else None
        game = _spec_of(default_game().kind, first)
        try:
            player = await asyncio.to_thread(make_player, self.spec, game)
        except (ValueError, OSError) as err:  # EngineError and InvalidPlayerError are ValueErrors
            raise BotError(f"{self.spec.text} cannot play: {err}") from None
        await asyncio.to_thread(player.close)

    async def _follow(self, stop: asyncio.Event) -> None:
        """Follow the event stream until it ends or ``stop`` is set."""
        queue: asyncio.Queue[str | BaseException | None] = asyncio.Queue()
        loop = asyncio.get_running_loop()
        ended = threading.Event()

        def read() -> None:
            try:
                for line in self._lines("/api/bot/stream", ended):
                    loop.call_soon_threadsafe(queue.put_nowait, line)
                loop.call_soon_threadsafe(queue.put_nowait, None)
            except BaseException as err:
                loop.call_soon_threadsafe(queue.put_nowait, err)

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        try:
            while not stop.is_set():
                waiting = asyncio.ensure_future(queue.get())
                stopping = asyncio.ensure_future(stop.wait())
                await asyncio.wait({waiting, stopping}, return_when=asyncio.FIRST_COMPLETED)
                stopping.cancel()
                if not waiting.done():
                    waiting.cancel()
                    return
                line = waiting.result()
                if isinstance(line, BaseException):
                    raise line
                if line is None:
                    raise OSError("the event stream ended")
                if line:
                    await self._event(json.loads(line))
        finally:
            ended.set()

    async def _event(self, event: dict[str, Any]) -> None:
        if event.get("type") == "gameStart":
            self._start(event["game"])
        elif event.get("type") == "challenge":
            challenge = event["challenge"]
            refusal = self.refusal(challenge)
            if refusal is None:
                self.log(f"accepting {challenge['player']}'s challenge: {self._describe(challenge)}")
                try:
                    started = await self.call("POST", f"/api/challenges/{challenge['id']}/accept")
                except BotError as err:
                    self.log(f"could not accept: {err}")
                    return
                seat = started["state"]["seats"][0]
                self._start({"id": started["id"], "seat": seat, "token": started["token"]})
            else:
                self.log(f"declining {challenge['player']}'s challenge ({self._describe(challenge)}): {refusal}")
                with contextlib.suppress(BotError):
                    await self.call("POST", f"/api/challenges/{challenge['id']}/decline")

    @staticmethod
    def _describe(challenge: dict[str, Any]) -> str:
        kind = "rated" if challenge["rated"] else "casual"
        return f"{challenge['game']}, {challenge['time_control']}, {kind}"

    def refusal(self, challenge: dict[str, Any]) -> str | None:
        """Why the bot declines ``challenge`` (``None``: it accepts)."""
        settings = self.settings
        if challenge["rated"] and not settings.rated:
            return "it plays casual games only"
        if not challenge["rated"] and not settings.casual:
            return "it plays rated games only"
        if settings.games and challenge["game"].lower() not in {g.lower() for g in settings.games}:
            return f"it plays {', '.join(sorted(settings.games))} only"
        if len([t for t in self.games.values() if not t.done()]) >= settings.max_games:
            return f"it plays {settings.max_games} games at once already"
        try:
            check_player(self.spec, _spec_of(challenge["kind"], challenge["game"]))
        except ValueError as err:
            return str(err)
        return None

    def _start(self, game: dict[str, Any]) -> None:
        task = self.games.get(game["id"])
        if task is None or task.done():
            self.games[game["id"]] = asyncio.create_task(self._play(_Game(game["id"], game["seat"], game["token"])))

    # ------------------------------------------------------------------ a game

    async def _play(self, game: _Game) -> None:
        """Play ``game`` to its end over its WebSocket, connecting again after a network fault."""
        parts = urllib.parse.urlsplit(self.settings.server)
        scheme = "wss" if parts.scheme == "https" else "ws"
        url = f"{scheme}://{parts.netloc}/ws/games/{game.id}?token={urllib.parse.quote(game.token)}"
        player: Player | None = None
        backoff = 1.0
        try:
            while True:
                try:
                    async with connect(url, open_timeout=30) as ws:
                        backoff = 1.0
                        async for message in ws:
                            if message == "pong":
                                continue
                            state = json.loads(message)
                            if state.get("result"):
                                self.log(f"game {game.id} is over: {state['result']} ({state['reason']})")
                                return
                            player = await self._answer(game, state, player)
                except PlayerFailed as err:
                    await self._give_up(game, err.__cause__ or err)
                    return
                except (TimeoutError, OSError, WebSocketException) as err:
                    self.log(f"game {game.id}: connection lost ({err}); again in {backoff:g} s")
                    await asyncio.sleep(backoff)
                    backoff = min(MOST_BACKOFF, backoff * 2)
                except BotError as err:
                    self.log(f"game {game.id}: {err}")
                    return
        finally:
            if player is not None:
                await asyncio.to_thread(player.close)

    async def _give_up(self, game: _Game, err: BaseException) -> None:
        """Resign ``game`` because its player failed, saying why in the log and in the game's chat."""
        self.log(f"game {game.id}: {self.spec.text} failed ({err}); resigning")
        with contextlib.suppress(BotError, OSError):
            text = f"My engine failed, so I resign: {err}"[:300]
            await self.call("POST", f"/api/games/{game.id}/chat", {"room": "players", "text": text})
        try:
            await self.call("POST", f"/api/games/{game.id}/resign", {}, token=game.token)
        except (BotError, OSError) as refused:
            self.log(f"game {game.id}: could not resign: {refused}")

    async def _answer(self, game: _Game, state: dict[str, Any], player: Player | None) -> Player | None:
        """Move if it is the bot's turn in ``state`` and it has not answered this ply yet; the player, made at the
        first move."""
        ply = len(state["moves"])
        if state["view"]["turn"] != game.seat or ply in game.answered:
            return player
        game.answered.add(ply)
        spec = _spec_of(state["kind"], None)
        board = type(spec()).from_record(state["game_string"])
        try:
            if player is None:
                player = await asyncio.to_thread(make_player, self.spec, spec)
            if isinstance(player, Timed):
                budget = _budget(state.get("clock"), game.seat)
                player.limits = Limits(time=min(budget, FIRST_MOVE) if ply < 2 else budget)
            move = await asyncio.to_thread(player.choose, board)
            text = board.move_text(move)
        except Exception as err:  # an engine that died, timed out or answered nonsense: no move will come
            raise PlayerFailed(str(err)) from err
        try:
            await self.call("POST", f"/api/games/{game.id}/move", {"move": text, "ply": ply}, token=game.token)
        except BotError as err:
            self.log(f"game {game.id}: the move {text!r} was refused: {err}")
        return player


def _spec_of(kind: str, name: str | None) -> GameSpec:
    games = plugin_of(kind).games
    if name is not None:
        for spec in games.values():
            if spec.name.lower() == name.lower():
                return spec
    return next(iter(games.values()))


def _budget(clock: dict[str, Any] | None, seat: int) -> float:
    """Seconds for this move from the seat's clock (a fixed time without one, or by correspondence)."""
    if not clock or "days" in (clock.get("control") or {}):
        return UNTIMED_MOVE
    remaining = clock["remaining"][seat] / 1000
    increment = (clock.get("control") or {}).get("increment", 0) / 1000
    return move_budget(remaining, increment)


__all__ = ["Bot", "BotError", "BotSettings"]
