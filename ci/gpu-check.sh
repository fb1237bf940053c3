#!/usr/bin/env bash
# The first check of the GPU variants on a machine with an NVIDIA GPU, in one command, into
# results/<gpu>/ (each step a "--- N." section below): driver and toolkit, a Release build for the
# local GPU, the kernels' CPU emulation, the GPU suites (a skip fails), compute-sanitizer, GPU against
# CPU prices at n = 300, 600, 1000, gpu_adi, the cloud preset. ELSBENCH_CUDA_CHECKED=1 checks each kernel.
#   bash ci/gpu-check.sh [--build-dir DIR] [--allow-cpu] [--quick] [--make-reference]
# --allow-cpu: without a GPU, stop at the first step that needs one (exit 0). --quick: the book checks
# (solvers/gpu/README.md) on a carried build (build-sm90); --make-reference writes their CPU prices.
set -euo pipefail
cd "$(dirname "$0")/.."

build="" allow_cpu=0 quick=0 make_reference=0
while (($#)); do
  case "$1" in
    --build-dir) build="$2"; shift 2 ;;
    --allow-cpu) allow_cpu=1; shift ;;
    --quick) quick=1; shift ;;
    --make-reference) make_reference=1; shift ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "gpu-check: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

quick_book=(--notes 64 --assets 2 --seed 3)
reference=reference/gpu-check/book64_cpu.json
if [ "$make_reference" = 1 ]; then
  build=${build:-build}
  mkdir -p "$(dirname "$reference")"
  "$build/elsbench" book generate "${quick_book[@]}" --out /tmp/gpu-check-book64.jsonl
  "$build/elsbench" book price /tmp/gpu-check-book64.jsonl --solver adi --n 100 --out "$reference"
  rm -f "${reference%.json}.csv"
  exit 0
fi
[ "$quick" = 1 ] && build=${build:-build-sm90}
build=${build:-build-gpu-check}

step=0
say() { echo "gpu-check: $*"; }
begin() { step=$((step + 1)); echo; say "== step $step: $* ($(date -u +%H:%M:%S) UTC)"; }
die() { say "STOPPED at step $step: $*"; exit 1; }
# Without a GPU and with --allow-cpu: the end of the road, said plainly.
needs_device() {
  if [ "$have_gpu" = 0 ]; then
    [ "$allow_cpu" = 1 ] || die "$1 needs a CUDA device, and none is usable here ($gpu_reason)"
    say "STOP (--allow-cpu): step $step ($1) is the first that needs a CUDA device; none is usable here"
    say "  ($gpu_reason). Steps 1 to $((step - 1)) ran. Log: $log"
    exit 0
  fi
}

# --- where the log goes: results/<gpu>/ ---------------------------------------------------------
gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | sed -n 1p || true)
slug=$(echo "${gpu_name:-no-gpu}" | tr '[:upper:]' '[:lower:]' | sed -E 's/(nvidia|tesla|geforce) //g; s/[^a-z0-9.]+/-/g; s/^-|-$//g')
out="results/${slug}"
mkdir -p "$out"
log="$out/gpu-check.log"
exec > >(tee "$log") 2>&1
say "$(date -u +%Y-%m-%dT%H:%M:%SZ) commit $(git rev-parse --short HEAD 2>/dev/null || echo '?') on $(hostname)"

# --- 1. driver, GPU, toolkit ---------------------------------------------------------------------
begin "driver, GPU and toolkit"
nvcc=$(command -v nvcc || true)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
[ -n "$nvcc" ] || die "no nvcc (PATH, /usr/local/cuda/bin): install the CUDA toolkit"
export PATH="$(dirname "$nvcc"):$PATH"
toolkit=$("$nvcc" --version | sed -n 's/.*release \([0-9][0-9.]*\).*/\1/p')
say "nvcc $nvcc: CUDA $toolkit"
have_gpu=1 gpu_reason=""
if ! command -v nvidia-smi >/dev/null; then
  have_gpu=0 gpu_reason="no nvidia-smi: no NVIDIA driver installed"
elif ! nvidia-smi -L >/dev/null 2>&1; then
  have_gpu=0 gpu_reason="nvidia-smi -L failed: $(nvidia-smi -L 2>&1 | sed -n 1p)"
fi
if [ "$have_gpu" = 1 ]; then
  nvidia-smi --query-gpu=index,name,pci.bus_id,uuid,compute_cap,memory.total,driver_version --format=csv
  driver_cuda=$(nvidia-smi | sed -n 's/.*CUDA Version: *\([0-9][0-9.]*\).*/\1/p' | sed -n 1p)
  driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | sed -n 1p)
  say "driver $driver supports CUDA up to ${driver_cuda:-?}; this toolkit is CUDA $toolkit"
  # The driver must support the toolkit's major.minor (CUDA 13.x: an R580 or newer driver).
  if [ -n "$driver_cuda" ] && [ "$(printf '%s\n%s\n' "$toolkit" "$driver_cuda" | sort -V | sed -n 1p)" != "$toolkit" ] &&
     [ "${toolkit%%.*}" -gt "${driver_cuda%%.*}" ]; then
    die "driver $driver (CUDA $driver_cuda) cannot run CUDA $toolkit code: install an R580 or newer driver, or a CUDA ${driver_cuda%%.*} toolkit"
  fi
  # CUDA numbers devices fastest first unless told otherwise; PCI order matches nvidia-smi's.
  export CUDA_DEVICE_ORDER=PCI_BUS_ID
  say "CUDA_DEVICE_ORDER=PCI_BUS_ID: cuda:N is nvidia-smi's GPU N"
  arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | sed -n 1p | tr -d ' .')
else
  say "no usable GPU: $gpu_reason"
  [ "$allow_cpu" = 1 ] || die "no usable GPU ($gpu_reason); --allow-cpu runs the steps that need none"
  arch=""
fi

# --- quick: the book checks on a carried build --------------------------------------------------------
if [ "$quick" = 1 ]; then
  [ "$have_gpu" = 1 ] || die "--quick needs a CUDA device ($gpu_reason)"
  [ -x "$build/elsbench" ] || die "--quick runs a carried build: no $build/elsbench"
  set +e
  E=$build/elsbench summary=$out/gpu-quick.jsonl work=$(mktemp -d)
  : >"$summary"
  record() {  # step, status, detail: one JSON line, copied to $OUT as it comes
    python3 -c 'import json,sys; print(json.dumps({"step": sys.argv[1], "status": sys.argv[2], "detail": sys.argv[3]}))' \
      "$1" "$2" "$3" >>"$summary"
    [ -n "${OUT:-}" ] && cp "$summary" "$log" "$OUT/" 2>/dev/null
  }
  run_step() {  # name, seconds, command...: its exit status recorded (124: timed out)
    local name=$1 limit=$2
    shift 2
    begin "$name (at most ${limit} s)"
    timeout "$limit" "$@"
    local rc=$?
    record "$name" "$([ $rc = 0 ] && echo ok || { [ $rc = 124 ] && echo timeout || echo "exit $rc"; })" "$*"
  }
  # A device book against the CPU prices: price, then agreement (its line lands in the summary).
  book_check() {  # label, seconds, tolerance, cpu results, book price arguments...
    local label=$1 limit=$2 tol=$3 cpu=$4
    shift 4
    run_step "$label" "$limit" "$E" book price "$@" --out "$work/$label.json"
    python3 ci/lib/book_agreement.py "$work/$label.json" "$cpu" "$tol" --summary "$summary" --label "$label"
    cp "$work/$label.json" "$out/" 2>/dev/null
  }
  run_step q1-devices 30 "$E" list devices
  "$E" book generate "${quick_book[@]}" --out "$work/book64.jsonl" >/dev/null
  book_check q2-book64-fp64-on-chip 90 1e-9 "$reference" "$work/book64.jsonl" --solver adi-cuda --device cuda:0 --n 100
  ELSBENCH_BOOK_MARCH=batched book_check q2-book64-fp64-batched 90 1e-9 "$reference" "$work/book64.jsonl" \
    --solver adi-cuda --device cuda:0 --n 100
  # fp64 at n = 100 marches in clusters of two CTAs on sm_90; the global path as well.
  ELSBENCH_ON_CHIP_CLUSTERS=off book_check q2-book64-fp64-global 90 1e-9 "$reference" "$work/book64.jsonl" \
    --solver adi-cuda --device cuda:0 --n 100
  book_check q2-book64-fp32 90 1e-4 "$reference" "$work/book64.jsonl" --solver adi-cuda --device cuda:0 --n 100 --precision fp32
  book_check q2-book64-mixed 90 1e-6 "$reference" "$work/book64.jsonl" --solver adi-cuda --device cuda:0 --n 100 --precision mixed
  # The same book in chunks of 16: each next chunk prepared and uploaded on the builder thread
  # while one marches (price_book_with's pipeline).
  ELSBENCH_BOOK_CHUNK=16 book_check q2-book64-fp64-chunks 90 1e-9 "$reference" "$work/book64.jsonl" \
    --solver adi-cuda --device cuda:0 --n 100
  # A book of one to three assets: the CPU prices it here first (three assets march on chip).
  "$E" book generate --notes 12 --assets mixed --seed 7 --out "$work/book-mixed.jsonl" >/dev/null
  run_step q2-mixed-assets-cpu 120 "$E" book price "$work/book-mixed.jsonl" --solver adi --n 32 \
    --out "$work/book-mixed-cpu.json"
  book_check q2-mixed-assets-fp64 90 1e-9 "$work/book-mixed-cpu.json" "$work/book-mixed.jsonl" --solver adi-cuda \
    --device cuda:0 --n 32
  book_check q2-mixed-assets-mixed 90 1e-6 "$work/book-mixed-cpu.json" "$work/book-mixed.jsonl" --solver adi-cuda \
    --device cuda:0 --n 32 --precision mixed
  "$E" book generate --notes 2 --assets 2 --seed 5 --out "$work/book2.jsonl" >/dev/null
  sanitizer=$(command -v compute-sanitizer || echo "$(dirname "$nvcc")/compute-sanitizer")
  for tool in racecheck synccheck memcheck; do  # a chunk a note: the second uploaded while the first marches
    ELSBENCH_BOOK_CHUNK=1 run_step "q3-$tool" 100 "$sanitizer" --tool "$tool" --error-exitcode 3 "$E" book price \
      "$work/book2.jsonl" --solver adi-cuda --device cuda:0 --n 24 --out "$work/sanitized-$tool.json"
  done
  ELSBENCH_BOOK_CHUNK=1 run_step q3-racecheck-cluster 120 "$sanitizer" --tool racecheck --error-exitcode 3 "$E" book \
    price "$work/book2.jsonl" --solver adi-cuda --device cuda:0 --n 100 --out "$work/sanitized-cluster.json"
  "$E" book generate --notes 1000 --assets 2 --seed 1 --out "$work/book1000.jsonl" >/dev/null
  "$E" book generate --notes 250 --assets 2 --seed 1 --out "$work/book250.jsonl" >/dev/null
  "$E" book generate --notes 32 --assets 3 --seed 1 --out "$work/book32-3a.jsonl" >/dev/null
  for p in fp64 mixed fp32; do
    run_step "q4-1000-n100-$p" 120 "$E" book price "$work/book1000.jsonl" --solver adi-cuda --device cuda:0 --n 100 \
      --precision "$p" --out "$out/q4-1000-n100-$p.json"
  done
  ELSBENCH_ON_CHIP_CLUSTERS=off run_step q4-1000-n100-fp64-global 120 "$E" book price "$work/book1000.jsonl" \
    --solver adi-cuda --device cuda:0 --n 100 --out "$out/q4-1000-n100-fp64-global.json"
  ELSBENCH_BOOK_MARCH=batched run_step q4-1000-n100-fp64-batched 120 "$E" book price "$work/book1000.jsonl" \
    --solver adi-cuda --device cuda:0 --n 100 --out "$out/q4-1000-n100-fp64-batched.json"
  for p in fp64 mixed fp32; do
    run_step "q4-250-n200-$p" 120 "$E" book price "$work/book250.jsonl" --solver adi-cuda --device cuda:0 --n 200 \
      --precision "$p" --out "$out/q4-250-n200-$p.json"
  done
  run_step q4-32-3a-n48-fp64 120 "$E" book price "$work/book32-3a.jsonl" --solver adi-cuda --device cuda:0 --n 48 \
    --out "$out/q4-32-3a-n48-fp64.json"
  python3 - "$summary" "$out"/q4-*.json <<'PY'
import json, sys
for path in sys.argv[2:]:
    try:
        s = json.load(open(path))["context"]["elsbench"]["book"]["summary"]
    except (OSError, ValueError, KeyError):
        continue
    line = {"step": path.rsplit("/", 1)[-1][:-5], "status": "throughput",
            **{k: s.get(k) for k in ("notes", "failed", "notes_per_second", "wall_seconds", "setup_seconds",
                                     "upload_seconds", "march_seconds", "download_seconds")}}
    open(sys.argv[1], "a").write(json.dumps(line) + "\n")
    print(line)
PY
  [ -n "${OUT:-}" ] && cp "$summary" "$log" "$OUT/" 2>/dev/null
  rm -rf "$work"
  say "quick: done; summary $summary"
  exit 0
fi

# --- 2. build -------------------------------------------------------------------------------------
begin "build ($build, $([ -n "$arch" ] && echo "sm_$arch" || echo "the project's default architectures"))"
cuda_arch=()
[ -n "$arch" ] && cuda_arch=(-DCMAKE_CUDA_ARCHITECTURES="$arch")
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${cuda_arch[@]}" >/dev/null
cmake --build "$build" -j "$(nproc)" | tail -n 3
grep -q 'adi_kernels\.cu' "$build/build.ninja" || die "$build builds no CUDA code: nvcc was not picked up by CMake (or ELSBENCH_WITH_CUDA=OFF)"

# --- 3. CPU emulation of the kernels ----------------------------------------------------------------
begin "CPU emulation of the kernels and the GPU gate (no device needed)"
ctest --test-dir "$build" -R 'unit\.gpu_' --output-on-failure
# The price sweep of step 6, planned here (no device needed) so that a wrong case list shows now:
# every GPU variant at n = 300, 600, 1000 in fp64 and fp32 (18 GPU cases), with the CPU adi.
gpu_variants=(adi-cuda adi-cusparse adi-cusparse-interleaved)
price_sweep=(--solvers adi "${gpu_variants[@]}" --schemes hundsdorfer-verwer --products sample-2a-stepdown
             --n 300 600 1000 --nt-rule fixed:200 --devices cpu cuda:0 --precisions fp64 fp32)
plan=$("$build/elsbench" sweep "${price_sweep[@]}" --dry-run)
for v in "${gpu_variants[@]}"; do
  for n in 300 600 1000; do
    for p in fp64 fp32; do
      grep -q "$v[^ ]*/n=$n/[^ ]*cuda:0/$p" <<<"$plan" || die "the price sweep plans no $v case at n = $n in $p"
    done
  done
done
say "price sweep planned: ${#gpu_variants[@]} GPU variants x 3 sizes x 2 precisions, against the CPU adi"

# --- 4. GPU suites ---------------------------------------------------------------------------------
begin "GPU suites, ELSBENCH_REQUIRE_GPU=1"
if [ "$have_gpu" = 0 ]; then
  # What a machine without a GPU shows: the suites fail (not skip) under ELSBENCH_REQUIRE_GPU=1.
  say "without a GPU, ELSBENCH_REQUIRE_GPU=1 must turn the skips into failures:"
  if ELSBENCH_REQUIRE_GPU=1 "$build/tests/test_gpu_adi_cuda"; then die "test_gpu_adi_cuda passed without a GPU"; fi
fi
needs_device "the GPU suites"
ELSBENCH_REQUIRE_GPU=1 ctest --test-dir "$build" -L gpu --output-on-failure

suites=("$build"/tests/test_gpu_*)
# --- 5. compute-sanitizer ----------------------------------------------------------------------------
begin "compute-sanitizer memcheck, racecheck, synccheck, initcheck"
sanitizer=$(command -v compute-sanitizer || echo "$(dirname "$nvcc")/compute-sanitizer")
[ -x "$sanitizer" ] || die "no compute-sanitizer next to nvcc"
for tool in memcheck racecheck synccheck initcheck; do
  for s in "${suites[@]}"; do
    say "$tool $(basename "$s")"
    ELSBENCH_REQUIRE_GPU=1 "$sanitizer" --tool "$tool" --error-exitcode 3 "$s" --log_level=nothing ||
      die "compute-sanitizer --tool $tool found errors in $(basename "$s")"
  done
done

# --- 6. GPU-against-CPU prices --------------------------------------------------------------------
begin "GPU-against-CPU prices at n = 300, 600, 1000, every GPU variant, fp64 and fp32"
"$build/elsbench" sweep "${price_sweep[@]}" --repetitions 2 --out "$out/prices.json"
python3 - "$out/prices.json" <<'EOF'
import json, sys
cases = {}
for e in json.load(open(sys.argv[1]))["benchmarks"]:
    cases.setdefault(e["case_id"], e)
cpu = {}
for cid, e in cases.items():
    p = cid.split("/")
    if p[1].startswith("adi:") and p[-1] == "fp64" and e.get("status") != "skipped":
        cpu[p[2]] = e["price"]
worst = 0.0
for cid, e in sorted(cases.items()):
    p = cid.split("/")
    if p[1].startswith("adi:") or e.get("status") == "skipped" and "unsupported" in e.get("skip_reason", ""):
        continue
    if e.get("status") == "skipped":
        print(f"{cid}: SKIPPED {e.get('skip_reason')}"); worst = float("inf"); continue
    rel = abs(e["price"] - cpu[p[2]]) / abs(cpu[p[2]])
    tol = 1e-9 if p[-1] == "fp64" else 1e-4
    worst = max(worst, rel / tol)
    print(f"{cid}: {e['price']:.10f}  cpu adi fp64 {cpu[p[2]]:.10f}  relative {rel:.2e} (tolerance {tol:g})")
sys.exit(0 if worst <= 1 else 1)
EOF

# --- 7. benchmark ----------------------------------------------------------------------------------
begin "gpu_adi benchmark"
ELSBENCH_REQUIRE_GPU=1 "$build/gpu_adi" --benchmark_out="$out/gpu_adi.json" --benchmark_out_format=json \
  --benchmark_counters_tabular=true

# --- 8. cloud preset -------------------------------------------------------------------------------
begin "cloud sweep preset"
"$build/elsbench" sweep --preset cloud --out "$out/cloud.json"

echo
say "done: every step passed; results and log in $out/"
