"""The options of a sequential probability ratio test, as ``hive match`` (``--sprt``, ``--alpha``, ``--beta``) and
``hive tune`` (``--confirm-sprt``, ``--confirm-alpha``, ``--confirm-beta``) take them: written once, read into the
arena's :class:`~hive.arena.Sprt`."""

from __future__ import annotations

import argparse
from typing import overload

from ..arena import Sprt

#: The chances an SPRT takes when none is given.
DEFAULT_CHANCES = Sprt(0, 1)


def add_sprt_options(parser: argparse.ArgumentParser, purpose: str, who: str, prefix: str = "") -> None:
    """Add ``--{prefix}sprt ELO0 ELO1``, ``--{prefix}alpha`` and ``--{prefix}beta`` to ``parser``.

    :param purpose: what the test is for, the start of ``--sprt``'s help.
    :param who: whom the hypotheses are about (``PLAYER1 is``, ``the values are``).
    :param prefix: the options' prefix (``confirm-``); their dests are the names with ``_`` for ``-``.
    """
    parser.add_argument(
        f"--{prefix}sprt",
        nargs=2,
        type=float,
        default=None,
        metavar=("ELO0", "ELO1"),
        help=f"{purpose}: H0 {who} ELO0 stronger, H1 {who} ELO1 stronger, logistic Elo, over pairs of games",
    )
    for name, meaning in (("alpha", "accepting H1 when H0 holds"), ("beta", "accepting H0 when H1 holds")):
        default = getattr(DEFAULT_CHANCES, name)
        parser.add_argument(
            f"--{prefix}{name}",
            type=float,
            default=None,
            metavar=name[0].upper(),
            help=f"the SPRT's chance of {meaning} (default {default:g})",
        )


@overload
def sprt_from(args: argparse.Namespace, prefix: str, default: Sprt) -> Sprt: ...


@overload
def sprt_from(args: argparse.Namespace, prefix: str = "", default: None = None) -> Sprt | None: ...


def sprt_from(args: argparse.Namespace, prefix: str = "", default: Sprt | None = None) -> Sprt | None:
    """The test the options of :func:`add_sprt_options` ask for: ``default``'s bounds where ``--sprt`` is not
    given (``None``: no test), the chances given or the default's.

    :raises ValueError: naming ``--alpha`` or ``--beta`` given with no test, or the test's bad numbers
        (:class:`~hive.arena.SprtError`).
    """
    dest = prefix.replace("-", "_")
    bounds: list[float] | None = getattr(args, f"{dest}sprt")
    given = {name: value for name in ("alpha", "beta") if (value := getattr(args, f"{dest}{name}")) is not None}
    if bounds is None and default is None:
        for name, value in given.items():
            raise ValueError(f"--{prefix}{name} {value:g} needs --{prefix}sprt ELO0 ELO1")
        return None
    base = default if default is not None else DEFAULT_CHANCES
    elo0, elo1 = bounds if bounds is not None else (base.elo0, base.elo1)
    chances = {"alpha": base.alpha, "beta": base.beta, **given}
    return Sprt(elo0, elo1, **chances)


__all__ = ["DEFAULT_CHANCES", "add_sprt_options", "sprt_from"]
