"""Add up a match played in parts: ``python docs/matches/total.py DIR [NAME]`` reads the ``hive match`` logs
``DIR/part*.log`` game by game (so that a part stopped by hand counts the games it finished) and prints W/D/L for
NAME (default: the first game's White, the match's first player), its score and Elo with the 95 % interval, as
``hive match`` prints them."""

from __future__ import annotations

import re
import statistics
import sys
from pathlib import Path

from hive.arena.stats import elo_difference

GAME = re.compile(r"^Game \d+/\d+: white (\S+), black (\S+): (WhiteWins|BlackWins|Draw) in (\d+) plies", re.M)


def tally(text: str, ours: str) -> tuple[int, int, int, list[int]]:
    """W/D/L for ``ours`` and the games' lengths in plies, from one log."""
    wins = draws = losses = 0
    plies = []
    for white, black, result, length in GAME.findall(text):
        if ours not in (white, black):
            raise SystemExit(f"{ours!r} played neither side of a game: white {white}, black {black}")
        plies.append(int(length))
        if result == "Draw":
            draws += 1
        elif (result == "WhiteWins") == (white == ours):
            wins += 1
        else:
            losses += 1
    return wins, draws, losses, plies


def main(folder: str, name: str | None = None) -> None:
    logs = sorted(Path(folder).glob("part*.log"), key=lambda p: int(re.findall(r"\d+", p.name)[0]))
    first = GAME.search(logs[0].read_text(encoding="utf-8")) if logs else None
    if first is None:
        raise SystemExit(f"no games in {folder}/part*.log")
    ours = name or first.group(1)
    wins = draws = losses = 0
    plies: list[int] = []
    for log in logs:
        text = log.read_text(encoding="utf-8")
        w, d, lost, lengths = tally(text, ours)
        seed = re.search(r"seed (\d+)", text)
        stopped = " (stopped by hand)" if "interrupted" in text else ""
        print(f"{log.name}: seed {seed.group(1) if seed else '?'}, {w + d + lost} games, W/D/L {w}/{d}/{lost}{stopped}")
        wins, draws, losses, plies = wins + w, draws + d, losses + lost, plies + lengths
    estimate, low, high = elo_difference(wins, draws, losses)
    score = wins + draws / 2
    games = wins + draws + losses
    print(
        f"{games} games: W/D/L {wins}/{draws}/{losses} for {ours}, score {score:g}/{games} = "
        f"{100 * score / games:.1f}%, Elo {estimate:+.1f} (95% interval {low:+.1f} to {high:+.1f}), "
        f"median {statistics.median(plies):g} plies"
    )


if __name__ == "__main__":
    if not 2 <= len(sys.argv) <= 3:
        raise SystemExit(__doc__)
    main(*sys.argv[1:])
