#!/usr/bin/env python3
"""The layers depend one way (README, Architecture):

    platform -> products -> solvers, reference -> harness -> harness/cli, python (the package's module)

and inside harness/ its folders do too (HARNESS, lowest first; folders of one rank do not see each
other), so that a runner can be reused by every source of cases:

    machine -> references -> placement -> run -> results, compare -> runner -> book, sweep -> cli

Every #include "..." of the sources is checked against that order, and against three rules inside
the layers: a variant's folder is included by no other folder (a variant is one folder and one
registration), the shared solver folders do not reach up to the solver contract, and a header of
the CUDA-only folders is included outside them only under #ifdef ELSBENCH_HAVE_CUDA (a CPU-only
build must compile). Prints each violation as file:line and exits 1 if there is any.
"""
import os
import re
import sys

LAYERS = {"platform": 0, "products": 1, "solvers": 2, "reference": 2, "harness": 3, "harness/cli": 4, "python": 4}
SIBLINGS = {("solvers", "reference"), ("reference", "solvers"),  # same rank, no edge between them
            ("harness/cli", "python"), ("python", "harness/cli")}
# harness/'s folders by rank; report/ (Python) and the data folders (cloud, presets) hold no C++.
HARNESS = {"machine": 0, "references": 1, "placement": 2, "run": 3, "results": 4, "compare": 5, "runner": 5,
           "book": 6, "sweep": 6, "cli": 7}
BELOW_CONTRACT = ["solvers/problem", "solvers/meshers", "solvers/operators", "solvers/schemes", "solvers/march",
                  "solvers/tridiagonal"]
SOURCES = (".cpp", ".hpp", ".cu")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
# Found in the tree, as CMakeLists.txt finds them: a variant folder is one whose sources register
# a solver; a CUDA-only folder is one named `cuda` or holding a .cu file.
VARIANTS = []
CUDA_ONLY = []


def under(path, folder):
    return path == folder or path.startswith(folder + "/")


def layer(path):
    if under(path, "harness/cli"):
        return "harness/cli"
    top = path.split("/")[0]
    return top if top in LAYERS else None


def harness_folder(path):
    parts = path.split("/")
    return parts[1] if len(parts) > 2 else None


def harness_violations(path, target, where):
    mine, theirs = harness_folder(path), harness_folder(target)
    if mine is None or theirs is None or mine == theirs:
        return
    for folder in (mine, theirs):
        if folder not in HARNESS:
            yield f"{where}: harness/{folder} has no rank in check_layers.HARNESS: declare it"
            return
    if HARNESS[theirs] >= HARNESS[mine]:
        yield f"{where}: harness/{mine} may not depend on harness/{theirs}"


def violations(path, lines):
    mine = layer(path)
    guarded = []  # one flag per open #if: does it test ELSBENCH_HAVE_CUDA?
    for number, line in enumerate(lines, 1):
        directive = line.strip()
        if re.match(r"#\s*if", directive):
            guarded.append("ELSBENCH_HAVE_CUDA" in directive and "ifndef" not in directive)
        elif re.match(r"#\s*endif", directive) and guarded:
            guarded.pop()
        m = INCLUDE.match(line)
        if not m:
            continue
        target = m.group(1)
        theirs = layer(target)
        where = f"{path}:{number}: includes {target}"
        if mine and theirs:
            if LAYERS[theirs] > LAYERS[mine] or (mine, theirs) in SIBLINGS:
                yield f"{where}: layer {mine} may not depend on layer {theirs}"
        if under(path, "harness") and under(target, "harness"):
            yield from harness_violations(path, target, where)
        for v in VARIANTS:
            if under(target, v) and not under(path, v):
                yield f"{where}: another variant's folder ({v}); go through the solver contract"
        if under(target, "solvers/contract") and any(under(path, f) for f in BELOW_CONTRACT):
            yield f"{where}: {os.path.dirname(path)} is below the solver contract"
        if any(under(target, f) for f in CUDA_ONLY) and not any(under(path, f) for f in CUDA_ONLY) \
                and not any(guarded):
            yield f"{where}: a CUDA-only header outside #ifdef ELSBENCH_HAVE_CUDA"


def survey(root):
    for top in ["platform", "products", "solvers", "reference"]:
        for folder, _, files in os.walk(os.path.join(root, top)):
            rel = os.path.relpath(folder, root)
            if os.path.basename(folder) == "cuda" or any(f.endswith(".cu") for f in files):
                CUDA_ONLY.append(rel)
            if top == "solvers" and any(
                    "ELSBENCH_REGISTER_SOLVER(" in open(os.path.join(folder, f), encoding="utf-8").read()
                    for f in files if f.endswith(".cpp")):
                VARIANTS.append(rel)


def main(root):
    survey(root)
    found = []
    for top in ["platform", "products", "solvers", "reference", "harness", "python", "tests", "benchmarks"]:
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith(SOURCES):
                    continue
                full = os.path.join(folder, name)
                rel = os.path.relpath(full, root)
                with open(full, encoding="utf-8") as f:
                    found.extend(violations(rel, f.read().splitlines()))
    for v in found:
        print(v)
    print(f"layering: {len(found)} violation(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.getcwd()))
