"""The typed events: every type declared goes over the bus and comes back equal, a kind nobody declared is refused
by name, a subscriber to a family hears all of it; and a process builds a game's state once for a change, however many
of its sockets watch the game."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from hive.web.chat import events as chat_events
from hive.web.lobby import events as lobby_events
from hive.web.play import events as game
from hive.web.play import presence_events, showing
from hive.web.play.fanout import Fanout
from hive.web.play.following import STATE_LONGEST
from hive.web.play.service import GameService
from hive.web.players import events as players_events
from hive.web.shared.events import Event, Subscribers, kinds
from hive.web.tournaments import events as tournament_events

from ...web_support import server_thread

#: One event of every type declared (a new type is added here: the test below fails until it is).
SAMPLES: list[Event] = [
    game.GameCreated("g1", 1, game.CREATED, deadline=12.5, origin="p1"),
    game.GameDeleted("g1", 9, game.DELETED, by=0),
    game.MoveMade("g1", 2, game.MOVE, 0, 1, True, 30.0, {"declined": "draw"}, origin="p2"),
    game.AIMoved("g1", 3, game.AI_MOVE, 1, 2, change={"keep": 1, "add": ["wQ -wA1"]}, state='{"id":"g1"'),
    game.AIFailed("g1", 4, game.AI_ERROR),
    game.SeatJoined("g1", 5, game.JOINED, 1),
    game.GameActed("g1", 6, "undo", 0, 1, detail={"offered_by": 1}),
    game.GameEnded("g1", 7, "resign", 1, 2),
    game.FlagFell("g1", 8, game.FLAG, detail={"flag": 0}, state_follows=True),
    game.GameShown.pack("g1", 8, '{"id":"g1","view":{"legal":{}}'),
    chat_events.LineSaid("g1", "players", 7, origin="p1"),
    presence_events.PresenceChanged("g1"),
    players_events.CameOnline("ann"),
    lobby_events.SeekOpened("s1", ("a1",), {"seek": {"id": "s1", "game": "hive"}}, player="ann"),
    lobby_events.SeekTaken("s1", ("a1", "b2"), {"game_id": "g2", "by": "bob"}, player="ann", to="bob"),
    lobby_events.SeekClosed(
        "s1", ("a1",), {"by": "ann", "why": "gone"}, player="ann", rematch_of="g0", change="cancelled"
    ),
    tournament_events.PlayerInvited("t1", ("b2",), {"type": "invite", "name": "Spring", "by": "ann", "to": "bob"}),
    tournament_events.TournamentStarted("t1", ("a1", "b2"), {"type": "tournament_started", "name": "Spring"}),
]


def test_every_event_type_goes_over_the_bus_and_comes_back_equal() -> None:
    assert {type(event) for event in SAMPLES} == set(kinds().values())
    for event in SAMPLES:
        text = event.payload()
        head, _, tail = text.partition("\n")  # a state follows the JSON as it is, neither escaped nor read as JSON
        assert json.loads(head)["kind"] == event.kind
        assert tail == (getattr(event, "state", None) or "")
        back = Event.from_payload(text)
        assert type(back) is type(event)
        assert back == event
        assert Event.from_payload(text.encode()) == event


def test_a_state_sent_to_the_other_processes_comes_back_whole_or_not_at_all() -> None:
    for plies in (40, 1500):  # sent as it is; long, compressed
        text = '{"id":"g1","moves":[' + ",".join(f'"wA{i} -wQ"' for i in range(plies)) + "]"
        shown = game.GameShown.pack("g1", 3, text)
        assert shown.state.startswith("z:") == (plies > 40)
        assert len(shown.payload().encode()) < 8000
        assert game.GameShown.pack("g1", 3, text).text() == text
    noise = "".join(chr(0x4E00 + (i * 7919) % 20000) for i in range(8000))  # compresses badly: too long to send
    assert game.GameShown.pack("g1", 3, noise).text() is None


def test_a_change_carries_its_state_with_it_whole_within_a_notification_or_not_at_all() -> None:
    change = {"keep": 0, "add": ["x" * 2980], "length": 1}  # the longest change an event carries
    noise = "".join(chr(0x4E00 + (i * 7919) % 20000) for i in range(3000))  # compresses badly
    for plies, how in ((40, "as it is"), (600, "compressed"), (0, "too long still")):
        moves = ",".join(f'"wA{i} -wQ"' for i in range(plies)) if plies else f'"{noise}"'
        text = '{"id":"g1","moves":[' + moves + "]"
        carried = game.pack_state(text, STATE_LONGEST)
        assert carried.startswith("z:") == (how == "compressed")
        assert game.unpack_state(carried) == (None if how == "too long still" else text)
        event = game.MoveMade("g" * 64, 9, game.MOVE, 1, 200, False, 1e12, change=change, state=carried or None)
        assert len(event.payload().encode()) < 8000


def test_a_state_awaited_from_another_process_is_built_here_if_it_does_not_come() -> None:
    async def main() -> None:
        fanout = Fanout(8, 1.0)
        built: list[str] = []
        fanout.await_state("g1", 5, 0.05, lambda: built.append("g1"))
        assert not fanout.arrived("g1", 4)  # an older state: the newer is on its way
        assert fanout.arrived("g1", 5)
        assert not fanout.arrived("g1", 5)  # once
        fanout.await_state("g1", 6, 0.05, lambda: built.append("g1"))
        fanout.await_state("g2", 2, 0.05, lambda: built.append("g2"))
        fanout.stop_awaiting("g2")
        await asyncio.sleep(0.2)
        assert built == ["g1"]
        assert not fanout.arrived("g1", 6)  # came too late: built here already

    asyncio.run(main())


def test_a_kind_nobody_declared_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"unknown event kind 'game\.teleported'"):
        Event.from_payload('{"kind":"game.teleported","game_id":"g1"}')
    for text in ("[1]", "{}", "not json", '{"kind":"chat.said","game_id":"g1"}'):
        with pytest.raises(ValueError):
            Event.from_payload(text)


def test_a_kind_is_declared_once() -> None:
    with pytest.raises(TypeError, match="declared twice"):

        @dataclass(frozen=True)
        class Again(Event):
            kind = "chat.said"


def test_a_subscriber_to_a_family_hears_every_type_of_it() -> None:
    heard: list[tuple[str, Event]] = []
    subscribers = Subscribers()

    async def any_change(event: game.GameEvent) -> None:
        heard.append(("game", event))

    async def moves(event: game.MoveMade) -> None:
        heard.append(("move", event))

    subscribers.subscribe(game.GameEvent, any_change)
    subscribers.subscribe(game.MoveMade, moves)
    ai, ended, said = SAMPLES[3], SAMPLES[7], SAMPLES[9]
    for event in (ai, ended, said):
        asyncio.run(subscribers.deliver(event))
    assert heard == [("move", ai), ("game", ai), ("game", ended)]


def spy(monkeypatch: pytest.MonkeyPatch, cls: type, name: str) -> list[int]:
    """Count the calls of ``cls``'s method ``name`` from now on (in a list of one, read as it grows)."""
    calls = [0]
    original = getattr(cls, name)

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(cls, name, counted)
    return calls


def ws_url(url: str, game_id: str, token: str | None = None) -> str:
    return f"ws://{url.removeprefix('http://')}ws/games/{game_id}" + (f"?token={token}" if token else "")


async def state_at(ws: Any, version: int) -> dict[str, Any]:
    while True:
        state: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if state["version"] >= version:
            return state


def test_a_change_is_shown_once_however_many_sockets_watch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three sockets on a seat and five spectators' watch a game: a move builds its state once, encodes it once, and
    each socket gets it with its own seats."""
    built = spy(monkeypatch, GameService, "state")
    sent = spy(monkeypatch, Fanout, "send")

    async def main(url: str) -> None:
        async with httpx.AsyncClient(base_url=url, timeout=30) as c:
            created = (await c.post("/api/games", json={"mode": "online", "colour": "white"})).json()
            game_id, token = created["id"], created["token"]
            seats = [await websockets.connect(ws_url(url, game_id, token)) for _ in range(3)]
            spectators = [await websockets.connect(ws_url(url, game_id)) for _ in range(5)]
            first = [await state_at(ws, 0) for ws in seats + spectators]
            await asyncio.sleep(0.5)  # who is present settles
            for ws in seats + spectators:
                while True:
                    try:
                        await asyncio.wait_for(ws.recv(), 0.2)
                    except TimeoutError:
                        break
            version = first[0]["version"]
            move = next(iter(first[0]["view"]["legal"].values()))[0]["move"]
            before, sends = built[0], sent[0]
            answer = await c.post(f"/api/games/{game_id}/move", json={"move": move}, headers={"x-seat-token": token})
            assert answer.status_code == 200, answer.text
            states = [await state_at(ws, version + 1) for ws in seats + spectators]
            assert built[0] - before == 1  # the answer to the move is the text its sockets were sent
            assert sent[0] - sends == 8
            assert {tuple(s["seats"]) for s in states[:3]} == {(0,)} and {tuple(s["seats"]) for s in states[3:]} == {()}
            assert len({json.dumps({**s, "seats": None}, sort_keys=True) for s in states}) == 1
            for ws in seats + spectators:
                await ws.close()

    with server_thread(tmp_path / "games.sqlite3") as url:
        asyncio.run(main(url))


def test_the_states_shown_are_kept_for_a_few_seconds_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process keeps the state it last showed of each game only a few seconds (long enough for the request that
    made the change and the other processes to be sent it), not for every game it ever showed."""
    clock = [1000.0]
    monkeypatch.setattr("hive.web.play.showing.time.monotonic", lambda: clock[0])
    shows = showing.Showing.__new__(showing.Showing)
    shows._shown = {}
    for i in range(100):
        shows._keep(f"g{i}", 1, "{}")
        clock[0] += 0.5
    assert shows.last("g99", 1) == "{}" and shows.last("g0", 1) is None
    assert len(shows._shown) == showing.KEPT_FOR / 0.5
    clock[0] += showing.KEPT_FOR
    shows._keep("g100", 1, "{}")
    assert list(shows._shown) == ["g100"]
