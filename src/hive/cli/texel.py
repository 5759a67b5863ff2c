"""``hive tune --texel``: the evaluation's weights fitted to the results of self-played games and records of real
games; and what both modes of ``hive tune`` ask first, the game and its parameters' spec."""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from ..arena import plural
from ..games import default_game, find_game
from ..plugin import GameSpec
from ..tune import files
from ..tune.capabilities import has_parameters
from ..tune.positions import Features, recorded_games, samples, self_play, split
from ..tune.spec import DEFAULT_SPEC, Spec, load_spec
from ..tune.texel import fit

#: The defaults of a fit.
TEXEL_OUT = "texel-run"
SELF_PLAY = 200
TEXEL_DEPTH = 2
TEXEL_OPENINGS = 6


def chosen_game(args: argparse.Namespace) -> GameSpec:
    """The game asked for, once it is known to offer parameters to tune.

    :raises ValueError: naming a game that offers none.
    """
    game = find_game(args.game) if args.game else default_game()
    if not has_parameters(game):
        raise ValueError(f"{game.name}'s AI has no parameters to tune")
    return game


def chosen_spec(args: argparse.Namespace, game: GameSpec) -> Spec:
    """The parameters to tune: ``--spec``'s, or the shipped spec.

    :raises ~hive.tune.spec.SpecError: naming what is wrong with the spec for ``game``.
    """
    return load_spec(args.spec if args.spec is not None else DEFAULT_SPEC, game)


def run_texel(args: argparse.Namespace) -> int:
    """Run ``hive tune --texel``; returns the exit code.

    :raises ValueError: naming a bad option, game or record.
    """
    game = chosen_game(args)
    spec = chosen_spec(args, game)
    features = Features(game)
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    count = SELF_PLAY if args.self_play is None else args.self_play
    if count < 0:
        raise ValueError(f"self-play games must be >= 0, not {count}")
    skip = 4 if args.skip is None else args.skip
    if skip < 0:
        raise ValueError(f"positions skipped must be >= 0, not {skip}")
    holdout = 0.2 if args.holdout is None else args.holdout
    out = Path(args.out or TEXEL_OUT)
    labelled = []
    if args.records:
        found, skipped = recorded_games(args.records, game)
        print(f"Records: {plural(len(found), 'finished game')} from {', '.join(args.records)}", flush=True)
        for line in skipped:
            print(f"  left out {line}", flush=True)
        labelled += found
    if count:
        depth = TEXEL_DEPTH if args.depth is None else args.depth
        openings = TEXEL_OPENINGS if args.openings is None else args.openings
        begun = time.perf_counter()
        played = self_play(game, count, depth=depth, openings=openings, seed=seed, jobs=args.jobs, ray=args.ray)
        results = [g.result for g in played]
        print(
            f"Self-play: {plural(count, 'game')} of {game.name} at depth {depth}, openings of {openings} random "
            f"moves, seed {seed}: first player {results.count(1.0)} wins, {results.count(0.5)} draws, "
            f"{results.count(0.0)} losses ({time.perf_counter() - begun:.0f} s)",
            flush=True,
        )
        labelled += played
    if not labelled:
        raise ValueError("no games to fit: give --records PATH or --self-play N")
    found_samples = list(samples(labelled, features, skip))
    held = split(len(labelled), holdout, seed)
    result = fit(found_samples, features.names, spec, game.ai.parameters, held, args.loss or "log")
    print(result.summary())
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ValueError(f"cannot make the directory {str(out)!r}: {err.strerror or err}") from None
    report = {
        "game": game.name,
        "seed": seed,
        "records": args.records or [],
        "self_play": count,
        "skip": skip,
        "holdout": holdout,
        **result.to_dict(),
    }
    files.write_json(out / "texel.json", report)
    files.write_json(out / "fitted.json", result.values)
    print(
        f"Wrote {out / 'fitted.json'} and {out / 'texel.json'} "
        f"(play them: hive match medium@{out / 'fitted.json'} medium)"
    )
    return 0


__all__ = ["SELF_PLAY", "TEXEL_DEPTH", "TEXEL_OPENINGS", "TEXEL_OUT", "chosen_game", "chosen_spec", "run_texel"]
