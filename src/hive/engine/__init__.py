"""Drive external Hive engines through the Universal Hive Protocol (UHP).

In the spirit of python-chess's ``chess.engine``: an asyncio protocol, :class:`UHPProtocol`, started with
:func:`popen_uhp`, and a blocking wrapper, :class:`SimpleEngine`, that runs the protocol in a thread of its own.

>>> import hive, hive.engine
>>> with hive.engine.SimpleEngine.popen_uhp("nokamute uhp") as engine:  # doctest: +SKIP
...     board = hive.Board("Base+MLP")
...     result = engine.play(board, hive.Limits(time=1))
...     board.push(result.move)

Every wait is bounded: a reply that does not come in time raises :class:`EngineTimeoutError` (and the engine is
killed), an engine that exits raises :class:`EngineTerminatedError`; neither ever hangs the caller.
"""

from .protocol import UHPProtocol, popen_uhp
from .simple import SimpleEngine
from .values import EngineError, EngineInvalidMoveError, EngineTerminatedError, EngineTimeoutError, Option, PlayResult

__all__ = [
    "EngineError",
    "EngineInvalidMoveError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "Option",
    "PlayResult",
    "SimpleEngine",
    "UHPProtocol",
    "popen_uhp",
]
