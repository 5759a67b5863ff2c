"""The Universal Hive Protocol engine behind ``hive uhp``."""

from .server import UHPEngine, UHPError, run

__all__ = ["UHPEngine", "UHPError", "run"]
