"""A tiny UHP engine for the tests (random legal moves, from ``hive.Board``); options make it misbehave.

``python fake_uhp_engine.py [--hang WHEN] [--die WHEN] [--junk WHEN] [--err WHEN] [--die-at N] [--illegal] ...``
where WHEN is ``start`` (before the info block) or a command word such as ``bestmove``; ``--die-at N`` dies on the
Nth ``bestmove`` (an engine that dies in the middle of a game); ``--claim STATE`` answers every ``newgame`` with that
GameState (an engine whose rules end games otherwise).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import hive

OPTIONS = {"Fast": ["bool", "False", "False"], "Depth": ["int", "3", "3", "1", "10"], "Style": ["enum", "Calm", "Calm"]}
STYLES = ["Calm", "Wild"]


def out(*lines: str) -> None:
    for line in lines:
        sys.stdout.write(line + "\n")
    sys.stdout.flush()


def option_line(name: str) -> str:
    fields = OPTIONS[name]
    extra = STYLES if name == "Style" else []
    return ";".join([name, *fields, *extra])


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    for flag in ("--hang", "--die", "--junk", "--err"):
        parser.add_argument(flag, action="append", default=[], metavar="WHEN")
    parser.add_argument("--die-at", type=int, default=0, metavar="N", help="die on the Nth bestmove")
    parser.add_argument("--illegal", action="store_true", help="answer bestmove with an illegal move")
    parser.add_argument("--ignore-exit", action="store_true", help="keep running after 'exit'")
    parser.add_argument("--name", default="FakeEngine")
    parser.add_argument("--capabilities", default="Mosquito;Ladybug;Pillbug")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds to think on bestmove")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--log", default=None, help="append every command received to this file")
    parser.add_argument("--threads-option", default=None, metavar="NAME", help="an int option NAME, 1 to 4")
    parser.add_argument("--claim", default=None, metavar="STATE", help="answer newgame with this GameState")
    args = parser.parse_args(argv)
    if args.threads_option:
        OPTIONS[args.threads_option] = ["int", "1", "1", "1", "4"]

    def misbehave(when: str) -> bool:
        if when in args.hang:
            time.sleep(3600)
        if when in args.die:
            sys.stderr.write(f"fake engine: dying on {when}\n")
            sys.stderr.flush()
            sys.exit(3)
        if when in args.junk:
            out("Lorem ipsum;dolor", "xyzzy", "ok")
            return True
        if when in args.err:
            out(f"err fake failure on {when}", "ok")
            return True
        return False

    rng = random.Random(args.seed)
    asked = 0  # bestmove commands so far
    board = hive.Board("Base")

    def info() -> None:
        out(f"id {args.name} v1.0", args.capabilities, "ok")

    if not misbehave("start"):
        info()
    for raw in sys.stdin:
        line = raw.strip()
        if not line:
            continue
        if args.log:
            with open(args.log, "a", encoding="utf-8") as log:
                log.write(line + "\n")
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        if misbehave(word):
            continue
        if word == "exit":
            if args.ignore_exit:
                continue
            return 0
        if word == "info":
            info()
        elif word == "newgame":
            try:
                new = hive.Board.from_game_string(rest or "Base")
            except ValueError as err:
                out(f"err {err}", "ok")
                continue
            missing = [bug for bug in ("Mosquito", "Ladybug", "Pillbug") if bug[0] in str(new.game_type)[5:]]
            if any(bug not in args.capabilities.split(";") for bug in missing):
                out(f"err unsupported game type {new.game_type}", "ok")
                continue
            board = new
            fields = board.game_string().split(";")
            if args.claim:  # an engine whose rules end games otherwise
                fields[1] = args.claim
            out(";".join(fields), "ok")
        elif word in ("play", "pass"):
            try:
                board.push_uhp(rest if word == "play" else "pass")
                out(board.game_string(), "ok")
            except ValueError as err:
                out(f"invalidmove {err}", "ok")
        elif word == "validmoves":
            out(";".join(board.uhp(m) for m in board.legal_moves), "ok")
        elif word == "bestmove":
            asked += 1
            if asked == args.die_at:
                sys.stderr.write(f"fake engine: dying on bestmove {asked}\n")
                sys.stderr.flush()
                sys.exit(3)
            if board.is_game_over():
                out("err the game is over", "ok")
                continue
            time.sleep(args.delay)
            if args.illegal:
                out("wQ" if board.ply == 0 else "pass", "ok")
                continue
            moves = sorted(board.uhp(m) for m in board.legal_moves)
            out(rng.choice(moves), "ok")
        elif word == "undo":
            for _ in range(int(rest or 1)):
                if board.ply:
                    board.pop()
            out(board.game_string(), "ok")
        elif word == "options":
            parts = rest.split()
            if not parts:
                out(*(option_line(name) for name in OPTIONS), "ok")
            elif parts[0] == "get" and len(parts) == 2 and parts[1] in OPTIONS:
                out(option_line(parts[1]), "ok")
            elif parts[0] == "set" and len(parts) == 3 and parts[1] in OPTIONS:
                OPTIONS[parts[1]][1] = parts[2]
                out(option_line(parts[1]), "ok")
            else:
                out(f"err bad options command {line!r}", "ok")
        else:
            out(f"err Invalid command. Try 'help' to see a list of valid commands. ({line!r})", "ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
