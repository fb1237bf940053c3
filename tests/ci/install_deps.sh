#!/usr/bin/env bash
# ci/install-deps.sh decides with stand-ins for dpkg-query, apt-cache and apt-get on PATH:
# - on a machine that lacks only chromium, whose `apt-cache policy chromium` prints a long version
#   table (as Debian's does: more than a pipe's 64 KiB), chromium is installed. A reader that stops
#   at the Candidate line under pipefail killed apt-cache with SIGPIPE and made chromium
#   "not available" on every Debian machine;
# - where the Candidate is "(none)" (Ubuntu, whose chromium is a snap), it says so and installs
#   the rest.
set -euo pipefail
root=${1:?usage: install_deps.sh SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"

stand_in() {  # NAME BODY
  printf '#!/usr/bin/env bash\n%s\n' "$2" >"$work/bin/$1"
  chmod +x "$work/bin/$1"
}
stand_in dpkg-query 'pkg=${@: -1}; for m in $MISSING; do [ "$m" != "$pkg" ] || exit 1; done; printf "install ok installed"'
stand_in apt-get 'echo "apt-get $*" >>"$LOG"'
stand_in sudo '"$@"'
stand_in apt-cache 'printf "%s:\n  Installed: (none)\n  Candidate: %s\n  Version table:\n" "$2" "$CANDIDATE"
for i in $(seq 4000); do printf "     156.0.%s-1~deb12u1 500\n        500 http://deb.debian.org/debian-security bookworm-security/main amd64 Packages\n" "$i"; done'

run() {  # CANDIDATE MISSING...: runs install-deps.sh, prints what it installed
  : >"$work/log"
  CANDIDATE=$1 MISSING="${*:2}" LOG="$work/log" PATH="$work/bin:$PATH" \
    bash "$root/ci/install-deps.sh" >"$work/out" 2>&1 || { cat "$work/out"; echo "FAIL: install-deps.sh exited non-zero"; exit 1; }
  sed -n 's/^apt-get install .* --no-install-recommends //p' "$work/log"
}

failed=0
check() {  # WHAT EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then echo "ok: $1"; else echo "FAIL: $1: expected '$2', got '$3'"; cat "$work/out"; failed=1; fi
}

check "a Debian machine without chromium installs it" "chromium" "$(run 156.0.7-1~deb12u1 chromium)"
check "nothing missing installs nothing" "" "$(run 156.0.7-1~deb12u1)"
got=$(run '(none)' chromium cmake)
check "where apt has no chromium, the rest is installed" "cmake" "$got"
said=$(cat "$work/out")
check "and it says chromium is not available" "yes" "$([[ $said == *"chromium is not available from apt here"* ]] && echo yes || echo no)"
exit "$failed"
