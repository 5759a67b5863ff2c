"""``benchmarks.floor`` sorts callgrind's functions of the child loop into what they do (the benchmark itself compiles
an extension and runs callgrind: it is run by hand, ``python -m benchmarks.floor``)."""

from __future__ import annotations

from benchmarks.floor import GROUPS, grouped


def test_each_function_of_the_loop_counts_in_one_group() -> None:
    functions = {
        "position.Position__fill": 900.0,
        "state.State__visit": 1100.0,
        "movers.Movers__ladybug": 550.0,
        "state.State_make": 200.0,
        "PyLong_FromLong": 40.0,  # the history's int, boxed by make
        "position.Position_has_move": 250.0,
        "position.Position__keep": 180.0,
        "move._KeptMoves_5__next__": 1800.0,
        "__pyx_f_4hive_5games_4hive_4move__shared_move": 40.0,
        "__pyx_pw_9hivefloor_4Iter_3__next__": 740.0,
        "__pyx_f_4hive_5games_4hive_4move__play": 56.0,
        "__pyx_pw_9hivefloor_10FloorBoard_3push": 61.0,
        "list_extend": 600.0,
        "_PyObject_Malloc": 110.0,
        "_PyEval_EvalFrameDefault": 700.0,
    }
    totals = grouped(functions)
    assert list(totals) == [label for label, _ in GROUPS]
    assert sum(totals.values()) == sum(functions.values())
    assert totals["core: generation"] == 2550.0
    assert totals["core: make and unmake"] == 240.0
    assert totals["board: kept lists (has_move, _keep)"] == 430.0
    assert totals["values: the iterators, the table of moves"] == 2580.0
    assert totals["board: legal_moves, push and pop"] == 117.0
    assert totals["list(): filling and freeing the list"] == 600.0
    assert totals["allocation"] == 110.0
    assert totals["interpreter: bytecode, calls, look-ups"] == 700.0
