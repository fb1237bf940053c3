#!/bin/bash
# The third audit's reproductions (issue 43), run again against a build: one line per item, "held"
# when the defect is gone, "FOUND" when it is back. Exit 1 when any is found.
#   bash tests/reliability/audit3_probe.sh [build/elsbench] [.venv/bin/python]
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
E=$(realpath "${1:-$ROOT/build/elsbench}")
PY=$(cd "$(dirname "${2:-$ROOT/.venv/bin/python}")" && pwd)/$(basename "${2:-$ROOT/.venv/bin/python}")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 2
found=0
verdict() {  # ITEM TEXT OK(0/1)
  if [ "$3" = 0 ]; then printf '%-3s held   %s\n' "$1" "$2"; else printf '%-3s FOUND  %s\n' "$1" "$2"; found=1; fi
}
code() { "$@" > out.txt 2>&1; echo $?; }
json() { "$PY" -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# 1. A key twice in one object.
sed 's/}[[:space:]]*$/, "type": "european-put"}/' "$ROOT/products/catalog/european-call.json" | tr -d '\n' > twice.json
echo >> twice.json
c=$(code "$E" price --product twice.json --threads 1)
verdict 1 "a key given twice: exit $c" "$([ "$c" = 2 ] && grep -q type out.txt; echo $?)"

# 2. A resume of an edited results file.
"$E" book generate --notes 8 --assets 1 --seed 3 --out b8.jsonl > /dev/null
"$E" book price b8.jsonl --n 30 --threads 1 --out r.json > /dev/null 2>&1
"$PY" -c "import json; d=json.load(open('r.json')); d['benchmarks'][0]['price']=-5.0; json.dump(d, open('r.json','w'))"
c=$(code "$E" book price b8.jsonl --n 30 --threads 1 --out r.json --resume)
verdict 2 "a resume of a price edited to -5.0: exit $c" "$([ "$c" = 2 ]; echo $?)"

# 3. compare with a case id twice.
"$E" sweep --products european-call --solvers adi:douglas --devices cpu:t1 --n 20 --repetitions 2 --out s.json > /dev/null 2>&1
"$PY" -c "
import json; d=json.load(open('s.json')); e=[dict(x) for x in d['benchmarks']]
for x in e: x['price'] = x['price'] + 5
d['benchmarks'] += e; json.dump(d, open('s2.json','w'))"
c=$(code "$E" compare s.json s2.json)
verdict 3 "compare with a case given twice: exit $c" "$([ "$c" = 2 ] && grep -q "given twice" out.txt; echo $?)"

# 4. per-n wrapping past 32 bits.
c=$(code "$E" sweep --products european-call --n 100 --nt-rule per-n:42949677.96 --dry-run)
verdict 4 "--nt-rule per-n:42949677.96: exit $c" "$([ "$c" = 2 ]; echo $?)"

# 5. A grid with too few nodes near the spot.
c=$(code "$E" price --product min-call --n 60 --mesh uniform --s-max 100 --threads 1)
verdict 5 "min call on 60 uniform nodes to --s-max 100: exit $c" "$([ "$c" = 3 ]; echo $?)"

# 6. Ctrl-C in a book keeps what it reported.
"$E" book generate --notes 16 --assets 2 --seed 3 --out b16.jsonl > /dev/null
"$E" book price b16.jsonl --n 90 --threads 1 --out k.json > k.log 2>&1 & p=$!
sleep 0.45; kill -INT $p; wait $p
reported=$(grep -c ' ok ' k.log)
kept=$( [ -f k.json ] && json k.json "sum(1 for e in d['benchmarks'] if e.get('run_type')=='iteration' and e.get('price') is not None)" || echo none)
verdict 6 "Ctrl-C at 0.45 s: $reported reported, $kept kept" "$([ "$kept" != none ] && [ "$kept" -ge "$reported" ]; echo $?)"

# 7. --write into a store given by --reference-store.
c=$(code "$E" reference --product european-call --paths 1000 --write --reference-store store)
verdict 7 "reference --write --reference-store: exit $c" "$([ "$c" = 2 ] && [ ! -e store/european-call.json ]; echo $?)"

# 8. Ctrl-C in Python's Monte Carlo.
start=$(date +%s.%N)
timeout -s INT 0.7 "$PY" -c "import elsbench; elsbench.reference('els-1a-stepdown', paths=4_000_000)" > /dev/null 2>&1
took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
verdict 8 "Python reference interrupted at 0.7 s ended at ${took} s" "$(awk -v t="$took" 'BEGIN { exit !(t < 2.0) }'; echo $?)"

# 9. Python threads beyond the CLI's bound.
out=$("$PY" -c "
import elsbench
try: elsbench.price('european-call', n=20, threads=100000); print('priced')
except elsbench.BadInput as e: print('BadInput')" 2>&1)
verdict 9 "Python threads=100000: $out" "$([ "$out" = BadInput ]; echo $?)"

# 10. cn-direct's memory model.
c=$(code timeout 30 "$E" price --product min-call --solver cn-direct --n 3000 --threads 1)
verdict 10 "cn-direct at n = 3000: exit $c" "$([ "$c" = 3 ] && grep -q 'memory model' out.txt; echo $?)"

# 11. Monte Carlo memory pre-flight.
c=$(code "$E" reference --product european-call --paths 1099511627776 --threads 1)
verdict 11 "reference --paths 2^40: exit $c" "$([ "$c" = 3 ] && grep -q -- '--paths' out.txt; echo $?)"

# 12. Python's exception types.
out=$("$PY" -c "
import elsbench
try: elsbench.price('european-call', n=float('nan')); print('priced')
except elsbench.BadInput: print('BadInput')
except Exception as e: print(type(e).__name__)" 2>&1)
verdict 12 "Python n=nan: $out" "$([ "$out" = BadInput ]; echo $?)"

# 13. A book and a report under a folder name that is not UTF-8.
d=$(printf 'desk\xff'); mkdir "$d"
"$E" book generate --notes 3 --assets 1 --seed 5 --out "$d/b.jsonl" > /dev/null
"$E" book price "$d/b.jsonl" --n 30 --threads 1 --out "$d/r.json" > /dev/null 2>&1
c1=$(code "$E" book price "$d/b.jsonl" --n 30 --threads 1 --out "$d/r.json" --resume)
c2=$(code "$E" report --history "$d" --out rep13)
verdict 13 "non-UTF-8 folder: resume exit $c1, report exit $c2" "$([ "$c1" = 0 ] && [ "$c2" = 0 ]; echo $?)"

# 14. report: a long --instance, a price table of another shape.
"$E" sweep --products european-call --solvers adi:douglas --devices cpu:t1 --n 8 --repetitions 2 \
  --instance "$(printf 'x%.0s' $(seq 10000))" --out long.json > /dev/null 2>&1
c1=$(code "$E" report long.json --out rep14)
echo '{"instances": [1, 2]}' > prices.json
c2=$(code "$E" report s.json --out rep14b --prices prices.json)
verdict 14 "report: long instance exit $c1, bad --prices exit $c2" "$([ "$c1" = 0 ] && [ "$c2" = 2 ] && grep -q 'instances\[0\]' out.txt; echo $?)"

# 15. A NUL byte.
{ tr -d '\n' < "$ROOT/products/catalog/european-call.json"; printf '\0{garbage'; } > nul.json
c=$(code "$E" price --product nul.json --threads 1)
verdict 15 "a NUL byte in a product: exit $c" "$([ "$c" = 2 ]; echo $?)"

# 16. --out under a file.
touch plain
c=$(code "$E" sweep --products european-call --solvers adi:douglas --devices cpu:t1 --n 8 --repetitions 2 --out plain/x.json)
verdict 16 "--out existing_file/x.json: exit $c" "$([ "$c" = 2 ]; echo $?)"

# 17. --max-seconds bounds the command.
start=$(date +%s.%N)
c=$(code "$E" price --product sample-2a-stepdown --n 150 --nt 2000 --greeks --max-seconds 1.2 --threads 1)
took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
verdict 17 "price --greeks --max-seconds 1.2: exit $c after ${took} s" "$(awk -v t="$took" 'BEGIN { exit !(t < 3.0) }'; echo $?)"

# 18. An empty OMP_WAIT_POLICY.
OMP_WAIT_POLICY= "$E" sweep --products european-call --solvers adi:douglas --devices cpu:t1 --n 8 --repetitions 2 --out w.json > /dev/null 2>&1
policy=$(json w.json "d['context']['elsbench']['machine'].get('omp_wait_policy')")
verdict 18 "OMP_WAIT_POLICY='': recorded as $policy" "$([ "$policy" = passive ]; echo $?)"

exit $found
