# Debian package checks for ci/install-deps.sh, sourced. Each reads a command's whole output into a
# variable before matching it: a reader that stops early (grep -q, head) on a pipe under pipefail
# kills the writer with SIGPIPE and turns a match into a failure (exit 141).

# apt_installed PACKAGE: true when dpkg has PACKAGE installed.
apt_installed() {
  local status
  status=$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) || return 1
  [[ $status == *"install ok installed"* ]]
}

# apt_candidate PACKAGE: true when apt can install PACKAGE (a Candidate that is not "(none)").
apt_candidate() {
  local policy line
  policy=$(apt-cache policy "$1" 2>/dev/null) || return 1
  while IFS= read -r line; do
    [[ $line =~ ^[[:space:]]*Candidate:[[:space:]]*([^[:space:]]+) ]] || continue
    [[ ${BASH_REMATCH[1]} != "(none)" ]]
    return
  done <<<"$policy"
  return 1
}
