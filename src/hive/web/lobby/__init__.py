"""The lobby (``hive serve``): seeks, challenges and rematch offers between accounts, and the lobby's sockets that
show them as they change."""

from .service import SIGNED_OUT, Seeks
from .sockets import ONLINE, LobbySockets

__all__ = ["ONLINE", "SIGNED_OUT", "LobbySockets", "Seeks"]
