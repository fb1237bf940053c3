# Timed phases for the README's commands, sourced: `phase NAME COMMAND...` runs COMMAND and records
# its wall time; when the script exits, successful or not, a table of every phase is printed, so a
# slow or failing phase is seen where it happens.
phase_rows=()
phase_start=$EPOCHREALTIME

phase() {
  local name=$1 t0=$EPOCHREALTIME rc=0
  shift
  echo "== $name" >&2
  "$@" || rc=$?
  phase_rows+=("$(phase_row "$name" "$t0" "$([ "$rc" = 0 ] && echo ok || echo "FAILED (exit $rc)")")")
  return "$rc"
}

phase_row() {  # NAME START STATUS
  printf '  %-28s %8.1f s  %s' "$1" "$(phase_seconds "$2")" "$3"
}

phase_seconds() {  # seconds since START (an $EPOCHREALTIME)
  awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'
}

phase_table() {
  local row
  echo "timing ($1, $(nproc) cores, $(uname -n)):"
  for row in "${phase_rows[@]}"; do echo "$row"; done
  printf '  %-28s %8.1f s\n' total "$(phase_seconds "$phase_start")"
}

phases_report_at_exit() {  # NAME: print the table under NAME when the script ends
  trap "phase_table '$1' >&2" EXIT
}
