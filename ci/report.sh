#!/usr/bin/env bash
# Renders the report of the committed results files (results/<machine>/*.json, as git lists them)
# and of this run's (the arguments: the main job's quick sweep) into results/report/, with the
# history of every run under results/, and prints its report.html path (docs/reports.md, main job).
#   bash ci/report.sh [--out DIR] [--screenshot PNG] [--sections] [RUN.json...]
# --screenshot checks the report in headless Chromium (tests/support/browser_check.py) and writes a PNG
# of its first 4,000 pixels; --sections one PNG per section into OUT/screenshots/, with the same check.
# $ELSBENCH names the elsbench binary (default build/elsbench); the folder is replaced whole.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/results/report
screenshot=""
sections=""
runs=()
while (($#)); do  # paths as given, from the caller's folder
  case "$1" in
    --out) out=$(realpath -m "${2:?--out needs a folder}"); shift 2 ;;
    --screenshot) screenshot=$(realpath -m "${2:?--screenshot needs a file}"); shift 2 ;;
    --sections) sections=1; shift ;;
    -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "ci/report.sh: unknown option $1" >&2; exit 2 ;;
    *) [ -f "$1" ] || { echo "ci/report.sh: $1: no such results file" >&2; exit 2; }
       runs+=("$(realpath "$1")"); shift ;;
  esac
done
elsbench=$(realpath -m "${ELSBENCH:-$root/build/elsbench}")
cd "$root"
[ -x "$elsbench" ] || { echo "ci/report.sh: $elsbench not found: build first (bash ci/build.sh)" >&2; exit 2; }

# The committed results files, one folder deep (results/<machine>/NAME.json), less this run's.
listed=()
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  while IFS= read -r -d '' f; do listed+=("$f"); done < <(git ls-files -z -- 'results/*.json')
else
  echo "ci/report.sh: not a git checkout: every results/*/*.json counts as committed" >&2
  listed=(results/*/*.json)
fi
committed=()
for f in "${listed[@]}"; do
  [[ $f == results/*/*.json && $f != results/*/*/* && -f $f ]] || continue
  for r in "${runs[@]}"; do [ "$(realpath "$r")" != "$(realpath "$f")" ] || continue 2; done
  committed+=("$f")
done
((${#committed[@]} + ${#runs[@]})) || { echo "ci/report.sh: no results file to report" >&2; exit 1; }

# OUT is replaced whole (no stale plot of an earlier render stays): only a report's folder.
if [ -e "$out" ] && { [ ! -d "$out" ] || { [ -n "$(ls -A "$out")" ] && [ ! -f "$out/report.html" ]; }; }; then
  echo "ci/report.sh: $out is not a report folder (no report.html): not replacing it" >&2
  exit 2
fi
parent=$(dirname "$out")
mkdir -p "$parent"
staging=$(mktemp -d "$parent/.report-new.XXXXXX")
log=$staging/render.log
trap 'rm -rf "$staging"' EXIT

render() {  # render DIR FILE...: quiet, the output kept in $log
  rm -rf "$1"
  "$elsbench" report "${@:2}" --history "$root/results" --out "$1" >"$log" 2>&1
}

if ! render "$staging/report" "${runs[@]}" "${committed[@]}"; then
  echo "ci/report.sh: the report of every file failed ($(tail -n 1 "$log")); trying the committed files one by one" >&2
  if ((${#runs[@]})) && ! render "$staging/one" "${runs[@]}"; then
    cat "$log" >&2
    echo "ci/report.sh: the report of this run (${runs[*]}) could not be rendered" >&2
    exit 1
  fi
  kept=()
  for f in "${committed[@]}"; do
    if render "$staging/one" "${runs[@]}" "$f"; then
      kept+=("$f")
    else
      echo "ci/report.sh: warning: left out $f: $(tail -n 1 "$log")" >&2
    fi
  done
  if ! render "$staging/report" "${runs[@]}" "${kept[@]}"; then
    cat "$log" >&2
    echo "ci/report.sh: the report could not be rendered" >&2
    exit 1
  fi
fi
rm -rf "$staging/one" "$out"
mv "$staging/report" "$out"
if [ -n "$screenshot" ]; then
  /usr/bin/python3 tests/support/browser_check.py "$out/report.html" --screenshot "$screenshot" --max-height 4000
fi
if [ -n "$sections" ]; then  # inside OUT: replaced with the report, never stale
  /usr/bin/python3 tests/support/browser_check.py "$out/report.html" --sections "$out/screenshots"
fi
echo "report: $(realpath "$out/report.html")"
