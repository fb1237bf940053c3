"""What the report needs of the product catalog (products/catalog/<id>.json): what a basis point of a
product is of, to give price errors in basis points. Results files carry the product's id, not its terms."""
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
    """What a basis point of the catalog product is of, as --target-error and --tol read it
    (products/price_bounds.cpp, PriceBounds::scale): an ELS's notional, an option's size (its first
    strike, its cash or its largest spot). None for a product the catalog does not hold (a user's
    file, a book's note, which carries its own notional)."""
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", product or ""):
        return None
    try:
        with open(os.path.join(CATALOG, product + ".json"), encoding="utf-8") as f:
            terms = json.load(f)
        if terms.get("type") == "stepdown-els":
            value = terms.get("notional", DEFAULT_NOTIONAL)
        else:
            strikes = terms.get("strikes") or [terms.get("strike", 0.0)]
            value = max([strikes[0], terms.get("cash", 0.0)] + [u["spot"] for u in terms.get("underlyings", [])])
    except (OSError, ValueError, AttributeError, KeyError, TypeError, IndexError):
        return None
    return float(value) if isinstance(value, (int, float)) and value > 0 else None
