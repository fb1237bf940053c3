#!/usr/bin/env bash
# mpirun --oversubscribe -np 2 elsbench book price: rank 0 writes one results file whose notes
# (ids, lines, statuses, prices, Greeks) are those of the single-process run; a note that fails
# on a rank is named with its rank, and the run exits non-zero.
set -euo pipefail
elsbench=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_WAIT_POLICY=passive
mpi=(mpirun --oversubscribe -np 2)

"$elsbench" book generate --notes 8 --assets mixed --seed 4 --out "$work/book.jsonl"
"$elsbench" book price "$work/book.jsonl" --solver adi --n 20 --threads 1 --out "$work/one.json"
"${mpi[@]}" "$elsbench" book price "$work/book.jsonl" --solver adi --n 20 --threads 1 --out "$work/two.json"
python3 - "$work/one.json" "$work/two.json" <<'PY'
import json, sys
one, two = (json.load(open(p)) for p in sys.argv[1:3])
keys = ("case_id", "product", "line", "status", "price", "delta", "gamma", "grid_points", "time_steps")
notes = lambda f: [e for e in f["benchmarks"] if e["run_type"] == "aggregate"]
a = [{k: n.get(k) for k in keys} for n in notes(one)]
b = [{k: n.get(k) for k in keys} for n in notes(two)]
assert len(a) == 8 and all(n["status"] == "no-reference" for n in a), a
assert a == b, (a, b)
assert two["context"]["elsbench"]["book"]["ranks"] == 2
print("mpi: 2 ranks give the single-process prices of", len(a), "notes")
PY

# cn-direct takes two underlyings at most: the 3-asset notes fail, each named with its rank.
"$elsbench" book generate --notes 4 --assets 3 --seed 5 --out "$work/three.jsonl"
set +e
"${mpi[@]}" "$elsbench" book price "$work/three.jsonl" --solver cn-direct --n 12 --threads 1 \
    --out "$work/fail.json" 2> "$work/err"
rc=$?
set -e
cat "$work/err" >&2
test "$rc" -ne 0
grep -q "failed on rank 0" "$work/err"
grep -q "failed on rank 1" "$work/err"
echo "mpi: a failing rank fails the run, naming its rank and note (exit $rc)"
