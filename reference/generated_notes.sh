#!/usr/bin/env bash
# The stored sample of generated notes behind validation.generated_notes: the first four notes of
# `book generate --assets A --seed S` for one, two and three assets (seeds 11, 12, 13) and each
# book's first knocked-in note, written to reference/generated_notes/<id>.json and priced by
# `elsbench reference --write` (reference/values/<id>.json, with its provenance). Paths per
# dimension: what gives a standard error of about 0.002 of a 100 notional in a few minutes.
# Usage, from a clean tree: bash reference/generated_notes.sh [ELSBENCH_BINARY]  (15 min on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/elsbench}
mkdir -p reference/generated_notes
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for spec in "1 11 100000000" "2 12 60000000" "3 13 24000000"; do
  read -r assets seed paths <<< "$spec"
  "$bin" book generate --notes 16 --assets "$assets" --seed "$seed" --out "$tmp/book.jsonl" >/dev/null
  first_knocked_in=$(grep -n '"knocked_in":true' "$tmp/book.jsonl" | sed -n 1p | cut -d: -f1)
  for line in 1 2 3 4 "$first_knocked_in"; do
    note=$(sed -n "${line}p" "$tmp/book.jsonl")
    id=$(grep -o '"id":"[^"]*"' <<< "$note" | cut -d'"' -f4)
    printf '%s\n' "$note" > "reference/generated_notes/$id.json"
    "$bin" reference --product "reference/generated_notes/$id.json" --paths "$paths" --write
  done
done
