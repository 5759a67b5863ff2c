"""The server load benchmark's accounting, on a few seconds of a few games against one ``hive play`` process."""

from __future__ import annotations

from benchmarks import server


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
