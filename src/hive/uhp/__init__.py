"""The Universal Hive Protocol engine behind ``hive uhp``."""

from .engine import UHPEngine, UHPError, add_parser, main, run

__all__ = ["UHPEngine", "UHPError", "add_parser", "main", "run"]
