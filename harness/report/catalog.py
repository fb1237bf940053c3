"""What the report needs of the product catalog (products/catalog/<id>.json): a note's notional, to
give price errors in basis points of it. Results files carry the product's id, not its terms."""
from __future__ import annotations

import functools
import json
import os
import re

CATALOG = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "products",
                       "catalog")
DEFAULT_NOTIONAL = 1.0  # as the product loader (products/product_json.cpp) reads a product without one


@functools.lru_cache(maxsize=None)
def notional(product: str) -> float | None:
    """The catalog product's notional, or None for a product the catalog does not hold (a user's file,
    a book's note): its error in bp cannot be given."""
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", product or ""):
        return None
    try:
        with open(os.path.join(CATALOG, product + ".json"), encoding="utf-8") as f:
            value = json.load(f).get("notional", DEFAULT_NOTIONAL)
    except (OSError, ValueError, AttributeError):
        return None
    return float(value) if isinstance(value, (int, float)) and value > 0 else None
