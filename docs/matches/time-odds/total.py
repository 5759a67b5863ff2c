"""Add up the parts of a match played in parts (``hive match`` logs ``part*.log`` beside this file): W/D/L of the
first player, its score and Elo with the 95 % interval, as ``hive match`` prints them."""

from __future__ import annotations

import re
import statistics
from pathlib import Path

from hive.arena.stats import elo_difference


def main() -> None:
    wins = draws = losses = 0
    plies: list[int] = []
    logs = sorted(Path(__file__).parent.glob("part*.log"), key=lambda p: int(re.findall(r"\d+", p.name)[0]))
    for log in logs:
        text = log.read_text(encoding="utf-8")
        found = re.search(r"W/D/L (\d+)/(\d+)/(\d+) for (\S+?),? ", text)
        if found is None:
            print(f"{log.name}: unfinished")
            continue
        w, d, lost = map(int, found.groups()[:3])
        seed = re.search(r"seed (\d+)", text)
        print(f"{log.name}: seed {seed.group(1) if seed else '?'}, W/D/L {w}/{d}/{lost} for {found.group(4)}")
        wins, draws, losses = wins + w, draws + d, losses + lost
        plies += [int(n) for n in re.findall(r"^Game .* in (\d+) plies", text, re.M)]
    games = wins + draws + losses
    if not games:
        return
    estimate, low, high = elo_difference(wins, draws, losses)
    score = wins + draws / 2
    print(
        f"{games} games: W/D/L {wins}/{draws}/{losses}, score {score:g}/{games} = {100 * score / games:.1f}%, "
        f"Elo {estimate:+.1f} (95% interval {low:+.1f} to {high:+.1f}), median {statistics.median(plies):g} plies"
    )


if __name__ == "__main__":
    main()
