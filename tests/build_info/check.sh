#!/usr/bin/env bash
# The build's recorded commit is its own repository's or "unknown": a source copy without .git
# inside another checkout must not record that checkout's HEAD (cmake/write_build_info.cmake).
set -euo pipefail
root=$1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
recorded() {  # recorded SOURCE_DIR: the commit the script writes for that tree
  cmake -DSOURCE_DIR="$1" -DOUTPUT="$scratch/out.cpp" -DBUILD_TYPE=Release -DCXX_FLAGS= -DCOMPILER=c \
        -P "$root/cmake/write_build_info.cmake"
  sed -n 's/.*info{"\([^"]*\)".*/\1/p' "$scratch/out.cpp"
}
git -C "$scratch" init -q outer
git -C "$scratch/outer" -c user.name=t -c user.email=t@t commit -q --allow-empty -m outer
mkdir -p "$scratch/outer/copy/cmake"
cp "$root/cmake/build_info.cpp.in" "$scratch/outer/copy/cmake/"
got=$(recorded "$scratch/outer/copy")
[ "$got" = unknown ] || { echo "a copy inside another repository recorded '$got', expected 'unknown'"; exit 1; }
git -C "$scratch" init -q own
cp -r "$scratch/outer/copy/cmake" "$scratch/own/"
git -C "$scratch/own" add -A && git -C "$scratch/own" -c user.name=t -c user.email=t@t commit -q -m own
want=$(git -C "$scratch/own" rev-parse --short=12 HEAD)
got=$(recorded "$scratch/own")
[ "$got" = "$want" ] || { echo "its own repository recorded '$got', expected '$want'"; exit 1; }
echo "build info: own commit $want recorded; a copy inside another repository records unknown"
