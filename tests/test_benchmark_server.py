"""The server load benchmark's accounting, on a few seconds of a few games against one ``hive play`` process."""

from __future__ import annotations

import pytest
from benchmarks.server import run as server


def test_every_acknowledged_move_is_counted_and_stored() -> None:
    args = server.arguments().parse_args(
        ["--seconds", "4", "--games", "3", "--spectators", "2", "--think", "0.05", "0.15"]
    )
    figures = server.measure(args)
    assert figures["errors"] == 0, figures["error_examples"]
    assert figures["lost_moves"] == 0
    assert figures["passed"]
    assert figures["moves_acknowledged"] > 20
    assert figures["moves_stored"] == figures["moves_acknowledged"]
    assert figures["stored_unacknowledged"] == 0
    assert figures["games_created"] >= 3
    assert figures["sockets_opened"] >= 2 * 3 + 2
    assert figures["latency_ms"]["count"] > 0
    assert figures["reconnects"] == figures["retries"] == figures["moves_recovered"] == 0
    assert len(figures["server_cpu_pct"]) == 1


@pytest.mark.slow
def test_clients_of_a_killed_process_go_over_to_the_other_and_lose_nothing() -> None:
    """The failover of modes b and c against one ``hive play``: half the clients reach it through a relay that is
    killed halfway; they reconnect directly, resync, and send again only the moves the server does not have."""
    args = server.arguments().parse_args(
        ["--mode", "relay", "--seconds", "10", "--games", "20", "--spectators", "6", "--think", "0.05", "0.2"]
    )
    figures = server.measure(args)
    assert figures["errors"] == 0, figures["error_examples"]
    assert figures["lost_moves"] == 0
    assert figures["reconnects"] >= 20  # a player of every game, and half the spectators
    assert figures["failovers"] >= figures["reconnects"]
    assert figures["moves_stored"] == figures["moves_acknowledged"] + figures["stored_unacknowledged"]
