#!/usr/bin/env bash
# Checks that two elsbench binaries price alike to the last bit: every catalog product on every
# CPU solver, scheme and precision it takes (price, delta and gamma of `price --json`), on a small
# grid. For a change that must change no price (a restructuring); prints each differing case.
#
#   bash ci/same-prices.sh BASE/elsbench NEW/elsbench [--n 24]
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,6p' "$0"; exit 2; }
base="$1" new="$2"; shift 2
n=24
if [ "${1:-}" = "--n" ]; then n="$2"; fi
root="$(cd "$(dirname "$0")/.." && pwd)"
export ELSBENCH_ROOT="$root" OMP_WAIT_POLICY=passive
same=0 differ=0 refused=0
for product in "$root"/products/catalog/*.json; do
  id="$(basename "$product" .json)"
  for spec in adi:hundsdorfer-verwer adi:modified-craig-sneyd adi:craig-sneyd adi:douglas cn-direct: explicit:; do
    solver="${spec%%:*}" scheme="${spec#*:}"
    for precision in fp64 fp32 mixed; do
      args=(price --product "$id" --solver "$solver" --n "$n" --precision "$precision" --threads 2 --json)
      [ -n "$scheme" ] && args+=(--scheme "$scheme")
      if ! a="$("$base" "${args[@]}" 2>/dev/null)"; then
        "$new" "${args[@]}" >/dev/null 2>&1 && { echo "differ: $id $spec $precision: base refuses, new prices"; differ=$((differ + 1)); }
        refused=$((refused + 1)); continue
      fi
      b="$("$new" "${args[@]}" 2>/dev/null)" || { echo "differ: $id $spec $precision: new refuses"; differ=$((differ + 1)); continue; }
      if python3 -c 'import json,sys; k=("price","delta","gamma","time_steps","grid_points"); a,b=(json.loads(x) for x in sys.argv[1:]); sys.exit(any(a[i]!=b[i] for i in k))' "$a" "$b"; then
        same=$((same + 1))
      else
        echo "differ: $id $spec $precision"; differ=$((differ + 1))
      fi
    done
  done
done
echo "same-prices: $same cases equal to the bit, $differ differ, $refused refused by both (n = $n)"
[ "$differ" = 0 ]
