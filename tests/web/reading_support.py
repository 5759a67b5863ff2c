"""A request body that notes the fields its handler reads, so that a test knows each route's fields from the
handlers themselves rather than from a list kept by hand."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from _collections_abc import dict_items, dict_keys


class Reading(dict[str, Any]):
    """A request body that notes in ``reads`` each field a handler reads by name (``a.b``: ``b`` of the object
    ``a``), so that the test knows the fields of each route from the handlers themselves."""

    def __init__(self, data: dict[str, Any], reads: set[str], where: str = "") -> None:
        inner = {
            key: Reading(value, reads, f"{where}{key}.") if isinstance(value, dict) else value
            for key, value in data.items()
        }
        super().__init__(inner)
        self.reads, self.where = reads, where

    def get(self, key: str, default: Any = None) -> Any:
        self.reads.add(self.where + key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> Any:
        self.reads.add(self.where + key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self.reads.add(f"{self.where}{key}")
        return super().__contains__(key)

    def __iter__(self) -> Iterator[str]:  # every field handed on (a copy made, the body stored): "a.*"
        self.reads.add(self.where + "*")
        return super().__iter__()

    def keys(self) -> dict_keys[str, Any]:
        self.reads.add(self.where + "*")
        return super().keys()

    def items(self) -> dict_items[str, Any]:
        self.reads.add(self.where + "*")
        return super().items()


def outer(name: str) -> str:
    """The object a field is in, as :class:`Reading` names it (``a.`` for ``a.b``, ``""`` at the top)."""
    return name.rpartition(".")[0] + "." if "." in name else ""


__all__ = ["Reading", "outer"]
