"""The bot API (``hive serve``): accounts an engine plays, their event stream and their games."""

from .service import Bots

__all__ = ["Bots"]
