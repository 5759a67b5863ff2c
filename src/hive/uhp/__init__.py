"""The Universal Hive Protocol engine behind ``hive uhp``."""

from .parsing import UHPError
from .process import run
from .server import UHPEngine

__all__ = ["UHPEngine", "UHPError", "run"]
