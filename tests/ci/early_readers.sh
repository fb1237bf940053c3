#!/usr/bin/env bash
# No shell script of the project feeds a pipe into a reader that may stop early (grep -q, grep -m,
# head, sed's q) while `pipefail` is set: the writer then dies of SIGPIPE (exit 141) and a match
# reads as a failure, depending on how much the writer prints. Read the output into a variable
# first, or use a reader that reads to the end (sed -n 1p, awk 'NR == 1').
set -euo pipefail
root=${1:?usage: early_readers.sh SOURCE_DIR}
cd "$root"
reader='\|[[:space:]]*(grep([[:space:]]+-[^[:space:]|]*)*[[:space:]]+-[A-Za-z]*[qm]|head([[:space:]]|$)|sed([^|]*[;[:space:]'"'"'"])q([[:space:]0-9;'"'"'"]|$))'
found=0
while IFS= read -r -d '' f; do
  grep -q 'pipefail' "$f" || continue
  if hits=$(grep -nE "$reader" "$f"); then
    while IFS= read -r hit; do echo "$f:$hit"; done <<<"$hits"
    found=1
  fi
done < <(git ls-files -z -- '*.sh' '.ci/run' 2>/dev/null || find . -name '*.sh' -print0)
if ((found)); then
  echo "FAIL: a pipe into an early-closing reader under pipefail (above)"
  exit 1
fi
echo "ok: no pipe into an early-closing reader under pipefail"
