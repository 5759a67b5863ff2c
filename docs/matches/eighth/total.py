"""Add up the parts of the match at an eighth of nokamute's time (``hive match`` logs ``part*.log`` beside this
file), game by game, so that a part stopped by hand counts the games it finished: W/D/L for ours (``hive``), its
score and Elo with the 95 % interval, as ``hive match`` prints them."""

from __future__ import annotations

import re
import statistics
from pathlib import Path

from hive.arena.stats import elo_difference

GAME = re.compile(r"^Game \d+/\d+: white (\S+), black (\S+): (WhiteWins|BlackWins|Draw) in (\d+) plies", re.M)
OURS = "hive"


def tally(text: str) -> tuple[int, int, int, list[int]]:
    """W/D/L for ours and the games' lengths in plies, from one log."""
    wins = draws = losses = 0
    plies = []
    for white, black, result, length in GAME.findall(text):
        plies.append(int(length))
        if result == "Draw":
            draws += 1
        elif (result == "WhiteWins") == (white == OURS):
            wins += 1
        else:
            losses += 1
        assert OURS in (white, black), (white, black)
    return wins, draws, losses, plies


def main() -> None:
    wins = draws = losses = 0
    plies: list[int] = []
    logs = sorted(Path(__file__).parent.glob("part*.log"), key=lambda p: int(re.findall(r"\d+", p.name)[0]))
    for log in logs:
        text = log.read_text(encoding="utf-8")
        w, d, lost, lengths = tally(text)
        seed = re.search(r"seed (\d+)", text)
        stopped = " (stopped by hand)" if "interrupted" in text else ""
        print(f"{log.name}: seed {seed.group(1) if seed else '?'}, {w + d + lost} games, W/D/L {w}/{d}/{lost}{stopped}")
        wins, draws, losses, plies = wins + w, draws + d, losses + lost, plies + lengths
    games = wins + draws + losses
    if not games:
        return
    estimate, low, high = elo_difference(wins, draws, losses)
    score = wins + draws / 2
    print(
        f"{games} games: W/D/L {wins}/{draws}/{losses} for ours, score {score:g}/{games} = {100 * score / games:.1f}%, "
        f"Elo {estimate:+.1f} (95% interval {low:+.1f} to {high:+.1f}), median {statistics.median(plies):g} plies"
    )


if __name__ == "__main__":
    main()
