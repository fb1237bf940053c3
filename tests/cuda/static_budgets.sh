#!/usr/bin/env bash
# Static budgets of the on-chip book kernels (solvers/adi_cuda/note_kernel.cu: a CTA's and a
# cluster's), as ptxas reports them (nvcc --resource-usage) for each architecture the build
# targets and each precision:
#   no spill stores or loads (the body keeps its lines' chunk values in registers),
#   registers x the CTA's threads (kNoteThreadsFp64, Mixed, Fp32) within an SM's 64 K registers,
#   static shared memory under 1 KiB (the note's state is the dynamic workspace that
#   on_chip_launch sizes against the device's opt-in limit).
# Usage: static_budgets.sh NVCC SOURCE_DIR ARCH... (ARCH as in CMAKE_CUDA_ARCHITECTURES: 75 80 90)
set -euo pipefail
nvcc=$1 root=$2
shift 2
header=$root/solvers/gpu/kernels/note_march.hpp
threads_of() {  # kNoteThreadsFp64 | kNoteThreadsMixed | kNoteThreadsFp32
  local t
  t=$(grep -oE "$1 = [0-9]+" "$header" | awk '{ print $3 }')
  [ -n "$t" ] || { echo "static_budgets: $1 not found in $header" >&2; exit 1; }
  echo "$t"
}
fp64_threads=$(threads_of kNoteThreadsFp64)
mixed_threads=$(threads_of kNoteThreadsMixed)
fp32_threads=$(threads_of kNoteThreadsFp32)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
for arch in "$@"; do
  arch=${arch%%-*}  # 90-real -> 90
  "$nvcc" -DELSBENCH_HAVE_CUDA=1 -I"$root" -O3 -DNDEBUG -std=c++20 --expt-relaxed-constexpr \
    -arch="sm_$arch" --resource-usage -cubin -o "$work/note_kernel.cubin" "$root/solvers/adi_cuda/note_kernel.cu" \
    >"$work/usage.txt" 2>&1 || { cat "$work/usage.txt"; echo "static_budgets: nvcc failed for sm_$arch" >&2; exit 1; }
  # The kernels' template arguments as mangled: values then stages. The cluster kernel has a
  # body only where the device has clusters (sm_90 on).
  kernels=march_book_on_chip_kernel
  [ "$arch" -ge 90 ] && kernels="$kernels march_book_in_cluster_kernel"
  for kernel in $kernels; do
  for precision in dd ff df; do
    case $precision in
      dd) name=fp64; threads=$fp64_threads ;;
      ff) name=fp32; threads=$fp32_threads ;;
      df) name=mixed; threads=$mixed_threads ;;
    esac
    # The lines after the kernel's "Compiling entry function" line, up to the next entry.
    report=$(awk -v pat="${kernel}I${precision}E" '
      /Compiling entry function/ { on = index($0, pat) > 0; next }
      on { print }' "$work/usage.txt")
    [ -n "$report" ] || { cat "$work/usage.txt"; echo "static_budgets: no report for $kernel ($name) on sm_$arch" >&2; exit 1; }
    spills=$(grep -oE '[0-9]+ bytes spill (stores|loads)' <<<"$report" | awk '{ s += $1 } END { print s + 0 }')
    registers=$(grep -oE 'Used [0-9]+ registers' <<<"$report" | awk 'NR == 1 { print $2 }')
    smem=$(grep -oE '[0-9]+ bytes smem' <<<"$report" | awk 'NR == 1 { print $1 }')
    smem=${smem:-0}
    echo "sm_$arch $kernel $name: $registers registers x $threads threads, $spills spill bytes, $smem bytes static shared memory"
    if [ "$spills" -ne 0 ]; then echo "  FAIL: spills" >&2; failed=1; fi
    if [ $((registers * threads)) -gt 65536 ]; then echo "  FAIL: registers exceed an SM's 64 K" >&2; failed=1; fi
    if [ "$smem" -gt 1024 ]; then echo "  FAIL: static shared memory over 1 KiB" >&2; failed=1; fi
  done
  done
done
exit "$failed"
