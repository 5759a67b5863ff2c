"""A run: the load, its figures, its report."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shlex
import sys
import tempfile
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from .clients import Bench, Window
from .servers import JSON, MODES, Servers, _relay, shown_url


def summary(seconds: list[float]) -> JSON:
    """p50, p99 and the largest of durations, in ms, and how many there were."""
    if not seconds:
        return {"p50": None, "p99": None, "max": None, "count": 0}
    ordered = sorted(seconds)

    def rank(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1)

    return {"p50": rank(0.5), "p99": rank(0.99), "max": round(ordered[-1] * 1000, 1), "count": len(ordered)}


async def _clients(urls: list[str], args: argparse.Namespace, servers: Servers) -> tuple[Bench, Window, JSON]:
    bench = Bench(urls, args)
    try:
        window = await bench.run(args.seconds, args.kill_at if MODES[args.mode].kill else None, servers)
        checked = await bench.verify()
    finally:
        for client in bench.clients:
            await client.aclose()
    return bench, window, checked


def _loop(work: Coroutine[Any, Any, tuple[Bench, Window, JSON]]) -> tuple[Bench, Window, JSON]:
    """Run ``work`` on uvloop when it is there (uvicorn's standard extra brings it), else on asyncio's loop."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(work)
    return uvloop.run(work)


def measure(args: argparse.Namespace) -> JSON:
    """Start the mode's servers, play, check the games, stop the servers: every figure of the run."""
    mode = MODES[args.mode]
    if "{database}" in mode.command and not args.database:
        raise SystemExit(f"mode {args.mode} needs --database postgresql://USER@HOST:PORT/DB")
    if args.kill_at is None:
        args.kill_at = args.seconds / 2
    with tempfile.TemporaryDirectory(prefix="hive-server-bench-") as workdir:
        servers = Servers(mode, args.games, args.database, Path(workdir), shlex.split(args.server_args))
        try:
            urls = servers.start()
            bench, window, checked = _loop(_clients(urls, args, servers))
        finally:
            servers.stop()
        log = servers.log_lines()
    stats = bench.stats
    seconds = window.end - window.start
    within = sum(t <= window.end for t in stats.acks)
    figures: JSON = {
        "benchmark": "server",
        "mode": args.mode,
        "description": mode.description,
        "seconds": args.seconds,
        "games": args.games,
        "players": 2 * args.games,
        "spectators": args.spectators,
        "think_s": list(bench.think),
        "kill_at_s": args.kill_at if mode.kill else None,
        "stall_s": args.stall,
        "seed": args.seed,
        "deflate": not args.no_deflate,
        "database": shown_url(args.database) if args.database else None,
        "servers": [shown_url(shlex.join(command)) for command in servers.commands],
        "cores": os.cpu_count(),
        "setup_s": round(bench.setup, 2),
        "measured_s": round(seconds, 2),
        "moves_acknowledged": len(stats.acks),
        "moves_per_s": round(within / seconds, 1),
        "latency_ms": summary(stats.latencies),
        "post_ms": summary(stats.round_trips),
        "games_created": stats.created,
        "games_finished": stats.finished,
        "games_lost_on_time": len(bench.lost_on_time),
        "sockets_opened": stats.sockets,
        "sockets_peak": stats.peak,
        "reconnects": stats.reconnects,
        "failovers": stats.failovers,
        "retries": stats.retries,
        "moves_recovered": stats.recovered,
        "conflicts_after_failover": stats.conflicts,
        "errors": sum(stats.errors.values()),
        "error_kinds": dict(stats.errors),
        "error_examples": stats.examples[:10],
        **checked,
        "client_cpu_pct": round(100 * window.client_cpu / seconds, 1),
        "client_loop_lag_ms": summary(stats.lags),
        "server_cpu_pct": {
            name: round(100 * cpu / seconds, 1) for name, cpu in zip(servers.names, window.server_cpu, strict=True)
        },
        "machine_cpu_pct": round(100 * window.machine_cpu / seconds, 1),
        # what the rest of the machine took: the servers get less than a core each when it is busy
        "other_cpu_pct": round(100 * (window.machine_cpu - window.client_cpu - sum(window.server_cpu)) / seconds, 1),
        # CPU time per move acknowledged within the run, which a busy machine changes less than moves per second
        "client_cpu_ms_per_move": round(1000 * window.client_cpu / max(1, within), 2),
        "server_cpu_ms_per_move": round(1000 * sum(window.server_cpu) / max(1, within), 2),
        "server_log_lines": len(log),
        "server_log": log[:10],
    }
    figures["passed"] = figures["errors"] == 0 and figures["lost_moves"] == 0
    return figures


def report(figures: JSON) -> list[str]:
    """The figures as a table, ending with the verdict."""
    f = figures

    def ms(summary: JSON) -> str:
        return f"{summary['p50']} / {summary['p99']} ms  (max {summary['max']} ms, {summary['count']:,})"

    kill = f" (SIGKILL at {f['kill_at_s']:g} s)" if f["kill_at_s"] is not None else ""
    servers = sum(f["server_cpu_pct"].values())
    rows = [
        ("mode", f"{f['mode']}: {f['description']}{kill}"),
        (
            "load",
            f"{f['games']} games ({f['players']} players), {f['spectators']} spectators, {f['seconds']:g} s,"
            f" think {f['think_s'][0]:g}-{f['think_s'][1]:g} s",
        ),
        (
            "moves acknowledged",
            f"{f['moves_acknowledged']:,}  ({f['moves_per_s']}/s over {f['measured_s']} s"
            f"; {f['setup_s']} s creating the games and opening the sockets before)",
        ),
        ("move to watcher p50/p99", ms(f["latency_ms"])),
        ("move POST p50/p99", ms(f["post_ms"])),
        ("games created / over", f"{f['games_created']} / {f['games_finished']}"),
        ("sockets opened / peak", f"{f['sockets_opened']} / {f['sockets_peak']}"),
        ("reconnects / failovers", f"{f['reconnects']} / {f['failovers']}"),
        (
            "retries / recovered / 409s",
            f"{f['retries']} / {f['moves_recovered']} / {f['conflicts_after_failover']}  (409s after a failover)",
        ),
        (
            "benchmark CPU",
            f"{f['client_cpu_pct']}% of a core ({f['client_cpu_ms_per_move']} ms a move),"
            f" event loop late p99 {f['client_loop_lag_ms']['p99']} ms",
        ),
        (
            "server CPU",
            ", ".join(f"{name} {pct}%" for name, pct in f["server_cpu_pct"].items())
            + f"  (all {servers:.1f}%, {f['server_cpu_ms_per_move']} ms a move)",
        ),
        (
            "machine CPU",
            f"{f['machine_cpu_pct']}% of {f['cores']} cores x 100% (other work {f['other_cpu_pct']}%)",
        ),
        ("server log lines", str(f["server_log_lines"])),
        ("moves stored", f"{f['moves_stored']:,} ({f['stored_unacknowledged']} without an acknowledgement)"),
        ("errors", f"{f['errors']}  {f['error_kinds'] or ''}"),
        ("lost moves", str(f["lost_moves"])),
    ]
    lines = [f"{name:<27} {value}" for name, value in rows]
    lines += [f"  error: {example}" for example in f["error_examples"]]
    lines += [f"  server: {line}" for line in f["server_log"]]
    if f["passed"]:
        lines.append("PASS: no errors and no lost moves.")
    else:
        lines.append(f"FAIL: {f['errors']} errors and {f['lost_moves']} lost moves.")
    return lines


def arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description="Load on the browser game's server (see the module's docstring).")
    parser.add_argument("--mode", choices=sorted(MODES), default="a", help="how the servers run (default a)")
    parser.add_argument("--seconds", type=float, default=120.0, help="length of the run (default 120)")
    parser.add_argument("--games", type=int, default=200, help="games kept in play (default 200)")
    parser.add_argument("--spectators", type=int, default=50, help="spectators (default 50)")
    parser.add_argument(
        "--think",
        type=float,
        nargs=2,
        default=[0.2, 1.0],
        metavar=("MIN", "MAX"),
        help="a player's thinking time, uniform between MIN and MAX seconds (default 0.2 1.0)",
    )
    parser.add_argument("--database", help="b, c and p: the PostgreSQL database, postgresql://USER@HOST:PORT/DB")
    parser.add_argument("--kill-at", type=float, help="c and relay: seconds into the run (default: half of it)")
    parser.add_argument(
        "--stall",
        type=float,
        default=15.0,
        help="seconds after which a move not yet received by a watcher is an error (default 15)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the thinking times and moves")
    parser.add_argument("--no-deflate", action="store_true", help="sockets without permessage-deflate")
    parser.add_argument("--server-args", default="", help="more options for each server, e.g. '--workers 2'")
    parser.add_argument("--relay", type=int, nargs=2, metavar=("PORT", "TARGET"), help=argparse.SUPPRESS)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = arguments().parse_args(argv)
    if args.relay:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(_relay(*args.relay))
        return 0
    try:
        figures = measure(args)
    except RuntimeError as err:  # a server that would not start
        print(f"benchmarks.server: {err}", file=sys.stderr)
        return 2
    for line in report(figures):
        print(line)
    print(json.dumps(figures))
    return 0 if figures["passed"] else 1
