#!/usr/bin/env python3
"""docs/product.schema.json accepts exactly the products the loader accepts.

Documents: every catalog product, the product of every stored reference (reference/values/, as
product_to_json wrote it), every note of a generated book, every product of the fuzz
corpus (each file of tests/fuzz/corpus/product/, each line of tests/fuzz/corpus/book/), and
mutations of the catalog products: an unknown key added to each object, each key or array element
removed, each value replaced by one of another type, each number set beyond every bound (+-1e13)
and to each constant bound the schema gives it and the doubles either side, and the type changed
to each other type.

The loader runs as `elsbench price --product FILE --solver adi --n 20 --nt 20 --max-seconds 1e-9`
(no command only loads a product): exit 2 naming FILE and a field is its refusal; exit 3 is an
acceptance, since the work check that refuses to start the pricing (too-much-work, in milliseconds)
runs only on a product the loader accepted; so is exit 0. Anything else fails this test. A
document that is not JSON (or has NaN or Infinity) is one the schema refuses.

Rules that span fields the schema cannot state (its description lists them: a symmetric, positive
definite correlation with a unit diagonal, autocall dates increasing, spot / reference and
strike / spot within [1/100, 100], a lizard's date before maturity and barrier at or above the
knock-in's) are left out: no mutation moves a number those rules bound
(CROSS_FIELD) within its constant bounds, and the corpus files that break one alone are
LOADER_ONLY, refused by the loader and accepted by the schema.

    python3 tests/schema/product_schema.py --elsbench build-cpu/elsbench
"""
import argparse
import collections
import concurrent.futures
import copy
import json
import math
import os
import subprocess
import sys
import tempfile

import jsonschema

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TYPES = ["stepdown-els", "european-call", "european-put", "min-call", "max-call", "min-put", "max-put",
         "exchange", "cash-or-nothing-2"]
BEYOND_BOUNDS = [1e13, -1e13]  # outside the range of every number of a product
# Bounded by other fields too: at a constant bound such a value may break a rule of the loader's
# alone (spot / reference, dates increasing, positive definite), so only BEYOND_BOUNDS probes them.
CROSS_FIELD = {"spot", "reference", "strike", "strikes", "time", "correlation", "lizard"}
LOADER_ONLY = {"near-unsorted-dates.json": "autocall dates out of order"}


class Unexpected(Exception):
    """The loader neither accepted nor refused naming the file and a field."""


def loader_accepts(elsbench, path):
    run = subprocess.run([elsbench, "price", "--product", path, "--solver", "adi", "--n", "20", "--nt", "20",
                          "--max-seconds", "1e-9"], capture_output=True, text=True, timeout=60)
    if run.returncode in (0, 3):
        return True
    if run.returncode == 2 and f"{path}: field '" in run.stderr:
        return False
    raise Unexpected(f"exit {run.returncode}: {run.stderr.strip()}")


def refuse_constant(name):
    raise ValueError(f"{name} is not JSON")


def schema_accepts(validator, data):
    try:
        doc = json.loads(data, parse_constant=refuse_constant)
    except ValueError:  # UnicodeDecodeError and json.JSONDecodeError too
        return False
    return validator.is_valid(doc)


def sampled_paths(node, path=()):
    """Paths of every value below `node`; of a longer array, its first and last element only."""
    if isinstance(node, dict):
        items = list(node.items())
    elif isinstance(node, list):
        items = [(i, node[i]) for i in sorted({0, len(node) - 1})] if node else []
    else:
        return
    for key, value in items:
        yield path + (key,)
        yield from sampled_paths(value, path + (key,))


def at(doc, path):
    for key in path:
        doc = doc[key]
    return doc


def edited(doc, path, edit):
    """A copy of `doc` with edit(parent, key) applied where `path` ends."""
    out = copy.deepcopy(doc)
    edit(at(out, path[:-1]), path[-1])
    return out


def schema_of(schema, path):
    """The subschema of the value at `path`, through properties, items and $ref; {} where it is
    conditional (the knock-in's barrier and days_per_year)."""
    node = schema
    for key in path + (None,):
        while isinstance(node, dict) and "$ref" in node:
            node = at(schema, node["$ref"].split("/")[1:])
        if not isinstance(node, dict) or key is None:
            return node if isinstance(node, dict) else {}
        node = node.get("items", {}) if isinstance(key, int) else node.get("properties", {}).get(key, {})


def near_bounds(subschema):
    """Each constant bound of a number, and the doubles either side of it."""
    for key in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"):
        if key in subschema:
            bound = subschema[key]
            yield from (bound, math.nextafter(bound, -math.inf), math.nextafter(bound, math.inf))


def other_type(value):
    if isinstance(value, bool):
        return "true"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return 1
    return [] if isinstance(value, dict) else {}


def set_value(value):
    def edit(parent, key):
        parent[key] = value
    return edit


def remove(parent, key):
    del parent[key]


def mutations(name, doc, schema):
    """(label, document) for each mutation of one product."""
    for path in [()] + [p for p in sampled_paths(doc) if isinstance(at(doc, p), dict)]:
        obj = at(doc, path)
        first = next(iter(obj))
        for key, value in [("comment", "x"), (first.upper(), obj[first])]:
            out = copy.deepcopy(doc)
            at(out, path)[key] = value
            yield f"{name}: key {key!r} added at {list(path)}", out
    for path in sampled_paths(doc):
        value = at(doc, path)
        yield f"{name}: {list(path)} removed", edited(doc, path, remove)
        yield f"{name}: {list(path)} of another type", edited(doc, path, set_value(other_type(value)))
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            near = [] if CROSS_FIELD & set(path) else near_bounds(schema_of(schema, path))
            for x in BEYOND_BOUNDS + list(near):
                yield f"{name}: {list(path)} = {x!r}", edited(doc, path, set_value(x))
    for t in TYPES:
        if t != doc["type"]:
            yield f"{name}: type {t}", dict(doc, type=t)


def documents(elsbench, schema, tmp):
    """(label, bytes, expected verdicts (loader, schema) or None for 'the same') of every document."""
    catalog_dir = os.path.join(ROOT, "products", "catalog")
    for f in sorted(os.listdir(catalog_dir)):
        with open(os.path.join(catalog_dir, f)) as text:
            doc = json.load(text)
        yield f"catalog {f}", json.dumps(doc).encode(), (True, True)
        for label, mutated in mutations(f, doc, schema):
            yield label, json.dumps(mutated).encode(), None
    references = os.path.join(ROOT, "reference", "values")
    for f in sorted(os.listdir(references)):
        with open(os.path.join(references, f)) as text:
            yield f"stored reference {f}", json.dumps(json.load(text)["product"]).encode(), (True, True)
    book = os.path.join(tmp, "book.jsonl")
    subprocess.run([elsbench, "book", "generate", "--notes", "50", "--assets", "mixed", "--seed", "1", "--out", book],
                   check=True, capture_output=True)
    with open(book, "rb") as lines:
        for i, line in enumerate(lines, 1):
            yield f"generated book line {i}", line, (True, True)
    corpus = os.path.join(ROOT, "tests", "fuzz", "corpus")
    for f in sorted(os.listdir(os.path.join(corpus, "product"))):
        with open(os.path.join(corpus, "product", f), "rb") as text:
            yield f"corpus product/{f}", text.read(), (False, True) if f in LOADER_ONLY else None
    for f in sorted(os.listdir(os.path.join(corpus, "book"))):
        with open(os.path.join(corpus, "book", f), "rb") as lines:
            for i, line in enumerate(lines, 1):
                if line.strip():
                    yield f"corpus book/{f} line {i}", line, None


def check(elsbench, validator, tmp, n, label, data, expected):
    """The verdicts (loader, schema) on one document, and a finding about them or None."""
    path = os.path.join(tmp, f"product-{n}.json")
    with open(path, "wb") as f:
        f.write(data)
    try:
        verdicts = (loader_accepts(elsbench, path), schema_accepts(validator, data))
    except (Unexpected, subprocess.TimeoutExpired) as e:
        return None, f"{label}: {e}"
    os.remove(path)
    if verdicts == (expected or (verdicts[0], verdicts[0])):
        return verdicts, None
    word = {True: "accepts", False: "refuses"}
    return verdicts, (f"{label}: the loader {word[verdicts[0]]} and the schema {word[verdicts[1]]}\n"
                      f"  {data.strip()[:400].decode(errors='replace')}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--elsbench", required=True)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    with open(os.path.join(ROOT, "docs", "product.schema.json")) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    with tempfile.TemporaryDirectory(prefix="elsbench-schema-") as tmp:
        cases = list(documents(args.elsbench, schema, tmp))
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(lambda c: check(args.elsbench, validator, tmp, c[0], *c[1]), enumerate(cases)))
    findings = [f for _, f in results if f]
    for f in findings:
        print(f, file=sys.stderr)
    tally = collections.Counter(v for v, _ in results)
    print(f"{len(cases)} documents: {tally[(True, True)]} accepted by both, {tally[(False, False)]} refused by both, "
          f"{tally[(False, True)]} by the loader only; {len(findings)} finding(s)")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
