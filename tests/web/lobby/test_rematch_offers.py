"""The rematch of a game between accounts is an offer, never a seat handed over: the asker's answer carries no
token of the opponent's seat (nor any answer another account's), the opponent sees the offer and accepts or declines
it, a tournament's game has no rematch; on SQLite and PostgreSQL. A guest's game keeps its rematch at once."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from ...web_support import JSON, in_process
from ..api_support import SERVER, finish, other, sign_up

Player = tuple[httpx.AsyncClient, dict[str, str]]


def tokens_in(answer: Any) -> set[str]:
    """Every string in an answer (a seat token among them, if it were there)."""
    if isinstance(answer, dict):
        return set().union(*(tokens_in(v) for v in answer.values())) if answer else set()
    if isinstance(answer, list):
        return set().union(*(tokens_in(v) for v in answer)) if answer else set()
    return {answer} if isinstance(answer, str) else set()


async def seat_of(player: Player, game_id: str) -> JSON:
    seat: JSON = (await player[0].get(f"/api/games/{game_id}/seat")).json()
    return seat


async def rated_game(ann: Player, bob: Player) -> str:
    """A rated blitz game between ann (white) and bob, from ann's seek, bob resigning after two moves."""
    body = {"game": "Base", "time_control": "blitz", "rated": True, "colour": "white"}
    seek = (await ann[0].post("/api/seeks", json=body, headers=ann[1])).json()
    game_id: str = (await bob[0].post(f"/api/seeks/{seek['id']}/accept", headers=bob[1])).json()["id"]
    await finish(game_id, {"ann": ann, "bob": bob}, 1)
    return game_id


def test_a_rematch_between_accounts_is_an_offer_and_never_hands_over_a_seat(database: str) -> None:
    async def main() -> None:
        async with in_process(database, settings=SERVER) as (_, c):
            people: dict[str, Player] = {}
            for name in ("ann", "bob", "cyd"):
                client = other(c)
                people[name] = (client, {"x-csrf-token": (await sign_up(client, name))["csrf"]})
            ann, bob, cyd = people["ann"], people["bob"], people["cyd"]
            game_id = await rated_game(ann, bob)
            path = f"/api/games/{game_id}/rematch"
            # a stranger, a guest and a spectator's seat token get nothing
            assert (await cyd[0].post(path, headers=cyd[1])).status_code == 403
            assert (await other(c).post(path)).status_code == 401
            assert (await ann[0].post(path)).status_code == 403  # no CSRF token

            offered = await ann[0].post(path, headers=ann[1])
            assert offered.status_code == 200, offered.text
            answer = offered.json()
            assert answer["token"] is None and answer["invite"] is None and answer["id"] is None
            offer = answer["offered"]
            assert (offer["player"], offer["to"], offer["rated"], offer["time_control"]) == (
                "ann",
                "bob",
                True,
                "Blitz 5+3",
            )
            assert offer["colour"] == "black"  # the colours swapped
            # asked again, the same offer; no game was started
            assert (await ann[0].post(path, headers=ann[1])).json()["offered"]["id"] == offer["id"]
            assert (await c.get(f"/api/games/{game_id}")).json()["rematch"] is None
            # bob sees it, on the game and among his challenges; he declines it
            state = (await bob[0].get(f"/api/games/{game_id}")).json()
            assert state["rematch_offer"] == {"id": offer["id"], "by": 0} and state["tournament"] is None
            incoming = (await bob[0].get("/api/challenges")).json()["incoming"]
            assert [seek["id"] for seek in incoming] == [offer["id"]]
            declined = await bob[0].post(f"/api/challenges/{offer['id']}/decline", headers=bob[1])
            assert declined.status_code == 200
            assert (await ann[0].get(f"/api/games/{game_id}")).json()["rematch_offer"] is None

            # offered again, and accepted: each player holds their own seat of the rematch, by their own session
            offer = (await ann[0].post(path, headers=ann[1])).json()["offered"]
            accepted = await bob[0].post(f"/api/challenges/{offer['id']}/accept", headers=bob[1])
            assert accepted.status_code == 200, accepted.text
            following = accepted.json()["id"]
            ann_seat, bob_seat = await seat_of(ann, following), await seat_of(bob, following)
            assert (ann_seat["seat"], bob_seat["seat"]) == (1, 0)
            assert accepted.json()["token"] == bob_seat["token"]
            state = accepted.json()["state"]
            assert state["names"] == ["bob", "ann"] and state["rated"] and state["time_control"] == "Blitz 5+3"
            assert (await c.get(f"/api/games/{game_id}")).json()["rematch"] == following
            # asking now leads each to the rematch with their own token alone
            for player, seat, theirs in ((ann, ann_seat, bob_seat), (bob, bob_seat, ann_seat)):
                again = await player[0].post(path, headers=player[1])
                assert again.json()["id"] == following and again.json()["token"] == seat["token"]
                assert theirs["token"] not in tokens_in(again.json())

            # both asking at once starts one rematch: the second ask accepts the first's offer
            await finish(following, {"ann": ann, "bob": bob}, 0)
            path = f"/api/games/{following}/rematch"
            first = (await bob[0].post(path, headers=bob[1])).json()
            assert first["offered"]["to"] == "ann" and first["token"] is None
            second = (await ann[0].post(path, headers=ann[1])).json()
            third = second["id"]
            assert second["token"] == (await seat_of(ann, third))["token"]
            assert (await seat_of(bob, third))["token"] not in tokens_in(second)
            assert (await c.get(f"/api/games/{following}")).json()["rematch"] == third

    asyncio.run(main())


def test_a_tournament_game_has_no_rematch(database: str) -> None:
    async def main() -> None:
        async with in_process(database, settings=SERVER) as (_, c):
            people: dict[str, Player] = {}
            for name in ("ada", "ben"):
                client = other(c)
                people[name] = (client, {"x-csrf-token": (await sign_up(client, name))["csrf"]})
            (ada, ada_h), (ben, _) = people["ada"], people["ben"]
            body = {"name": "Club", "rounds": 1, "game": "Base", "time_control": "blitz"}
            tid = (await ada.post("/api/tournaments", json=body, headers=ada_h)).json()["id"]
            for client, headers in people.values():
                assert (await client.post(f"/api/tournaments/{tid}/join", headers=headers)).is_success
            started = (await ada.post(f"/api/tournaments/{tid}/start", headers=ada_h)).json()
            game_id = started["paired"][0][0]["game_id"]
            await finish(game_id, people, 0)
            state = (await ada.get(f"/api/games/{game_id}")).json()
            assert state["tournament"] == tid and state["rematch_offer"] is None  # the page offers no rematch
            for client, headers in people.values():
                # each player's list names the game's tournament, so that it offers no rematch of it either
                (listed,) = [g for g in (await client.get("/api/games")).json()["games"] if g["id"] == game_id]
                assert listed["tournament"] == tid, listed
                refused = await client.post(f"/api/games/{game_id}/rematch", headers=headers)
                assert refused.status_code == 409 and "tournament" in refused.json()["error"]
            assert (await ben.get("/api/challenges")).json()["incoming"] == []

    asyncio.run(main())
