"""Moving through the API and reading the page's state in the pre-selected move's browser tests."""

from __future__ import annotations

import httpx

from ...web_support import JSON, ServerProcess


def move(server: ServerProcess, game: JSON, token: str, text: str, ply: int) -> JSON:
    r = httpx.post(
        f"{server.url}api/games/{game['id']}/move", json={"move": text, "ply": ply}, headers={"x-seat-token": token}
    )
    assert r.status_code == 200, r.text
    data: JSON = r.json()
    return data


def slots(st: JSON) -> set[tuple[int, int]]:
    """The free cells beside the hive (where the page draws a slot)."""
    taken = {(c["q"], c["r"]) for c in st["view"]["cells"]}
    around = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
    return {(q + dq, r + dr) for q, r in taken for dq, dr in around} - taken


def placements(st: JSON, piece: str) -> list[tuple[str, tuple[int, int]]]:
    return [(m["move"], (m["to"][0], m["to"][1])) for m in st["view"]["legal"].get(piece, [])]
