"""Notes (and the catalog's options) as elsbench's product loader reads them (docs/products.md)."""
from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any, Union

from elsbench import _core

NoteLike = Union["Note", Mapping, str, os.PathLike]


class Note:
    """A note checked by the loader every elsbench command uses.

    Note(source) takes a dict (the product JSON's fields), a catalog id ("sample-2a-stepdown") or
    a path to a product JSON file. Bad input raises elsbench.BadInput naming the field.
    """

    __slots__ = ("_product",)

    def __init__(self, source: NoteLike):
        if isinstance(source, Note):
            self._product = source._product
        elif isinstance(source, Mapping):
            self._product = _core.note_from_json(json.dumps(dict(source)), "<dict>")
        elif isinstance(source, (str, os.PathLike)):
            self._product = _core.note_from_source(os.fspath(source))
        else:
            raise TypeError(f"a Note comes from a dict, a catalog id or a JSON file, not {type(source).__name__}")

    @classmethod
    def from_json(cls, text: str, source: str = "<json>") -> "Note":
        """A note from JSON text; `source` names it in errors."""
        note = cls.__new__(cls)
        note._product = _core.note_from_json(text, source)
        return note

    @classmethod
    def _of(cls, product: "_core.Product") -> "Note":
        note = cls.__new__(cls)
        note._product = product
        return note

    @staticmethod
    def catalog() -> list:
        """The catalog's notes and options (elsbench list products)."""
        return [Note(i) for i in _core.catalog_ids()]

    @property
    def id(self) -> str:
        return self._product.id

    @property
    def dimension(self) -> int:
        """Underlyings."""
        return self._product.dimension

    def to_dict(self) -> dict[str, Any]:
        """The note's fields as the loader completed them (the product JSON)."""
        return json.loads(self._product.json())

    def to_json(self) -> str:
        return self._product.json()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Note) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(self.to_json())

    def __repr__(self) -> str:
        return f"Note({self.id!r}, {self.dimension} underlying{'s' if self.dimension != 1 else ''})"


def as_note(note: NoteLike) -> Note:
    return note if isinstance(note, Note) else Note(note)
