#!/usr/bin/env bash
# One command for a fresh Ubuntu machine with an NVIDIA GPU (Colab, Kaggle, EC2): installs what is
# missing, builds with CUDA for the local GPU, runs the cloud preset (or prices --book FILE), renders
# the report and packs results + report into one .tar.gz for results/; a re-run resumes the day's run.
#   bash ci/cloud-sweep.sh [--instance PROVIDER:TYPE] [--preset cloud | --book FILE] [--dry-run]
#                          [--build-dir build-cloud] [--allow-cpu] [-- SWEEP OR BOOK PRICE ARGS...]
# --instance: an id of harness/cloud/prices.json (aws:g4dn.xlarge, colab:t4), else asked of the host.
# --dry-run: the plan, its time and cost, running nothing (it builds only without an elsbench yet).
set -euo pipefail
cd "$(dirname "$0")/.."

instance="" preset="cloud" book="" dry_run=0 build="build-cloud" allow_cpu=0 sweep_args=()
while (($#)); do
  case "$1" in
    --instance) instance="$2"; shift 2 ;;
    --preset) preset="$2"; shift 2 ;;
    --book) book="$2"; shift 2 ;;
    --dry-run) dry_run=1; shift ;;
    --build-dir) build="$2"; shift 2 ;;
    --allow-cpu) allow_cpu=1; shift ;;
    --) shift; sweep_args=("$@"); break ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "cloud-sweep: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

say() { echo "cloud-sweep: $*" >&2; }
die() { say "$*"; exit 1; }

gpu_family() {  # "Tesla T4" -> t4, "NVIDIA A100-SXM4-40GB" -> a100, "NVIDIA GeForce RTX 4090" -> rtx4090
  nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | sed -n 1p |
    tr '[:upper:]' '[:lower:]' | sed -E 's/(nvidia|tesla|geforce) //g; s/^rtx /rtx/; s/[ -].*//'
}

detect_instance() {
  if [ -n "${COLAB_RELEASE_TAG:-}${COLAB_GPU:-}" ] || [ -d /content/sample_data ]; then
    echo "colab:$(gpu_family)"; return
  fi
  if [ -n "${KAGGLE_KERNEL_RUN_TYPE:-}" ]; then
    local n; n=$(nvidia-smi -L 2>/dev/null | wc -l)
    echo "kaggle:$(gpu_family)$([ "$n" -gt 1 ] && echo "x$n")"; return
  fi
  local token type  # EC2 instance metadata (IMDSv2), answered only on EC2
  token=$(curl -s -m 2 -X PUT http://169.254.169.254/latest/api/token \
          -H "X-aws-ec2-metadata-token-ttl-seconds: 60" 2>/dev/null || true)
  if [ -n "$token" ]; then
    type=$(curl -s -m 2 -H "X-aws-ec2-metadata-token: $token" \
           http://169.254.169.254/latest/meta-data/instance-type 2>/dev/null || true)
    [ -n "$type" ] && { echo "aws:$type"; return; }
  fi
  echo ""
}

find_nvcc() {
  command -v nvcc && return
  local candidate versioned=(/usr/local/cuda-*/bin/nvcc)
  for candidate in /usr/local/cuda/bin/nvcc $(printf '%s\n' "${versioned[@]}" | sort -V -r); do
    [ -x "$candidate" ] && { echo "$candidate"; return; }
  done
}

cuda_architecture() {  # compute capability of GPU 0, e.g. 75 for a T4
  local cc
  cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | sed -n 1p | tr -d ' .')
  if [[ "$cc" =~ ^[0-9]+$ ]]; then echo "$cc"; else echo native; fi  # old drivers: CMake >= 3.24 asks the GPU
}

[ -z "$book" ] || [ -f "$book" ] || die "--book $book: no such file"
[ "$dry_run" = 1 ] && [ -x "$build/elsbench" ] || bash ci/install-deps.sh

nvcc=$(find_nvcc || true)
have_gpu=0
nvidia-smi -L >/dev/null 2>&1 && have_gpu=1
if [ -z "$nvcc" ] || [ "$have_gpu" = 0 ]; then
  [ "$allow_cpu" = 1 ] || die "$([ "$have_gpu" = 0 ] && echo "no NVIDIA GPU visible (nvidia-smi -L failed)" ||
    echo "no nvcc found (PATH, /usr/local/cuda*/bin): install the CUDA toolkit matching the driver"); pass --allow-cpu to sweep the CPU only"
  say "no usable GPU/nvcc: CPU-only build (--allow-cpu)"
fi

cuda_flags=(-DELSBENCH_WITH_CUDA=OFF)
if [ -n "$nvcc" ] && [ "$have_gpu" = 1 ]; then
  arch=$(cuda_architecture)
  say "GPU: $(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | sed -n 1p); nvcc: $nvcc; architecture: $arch"
  cuda_flags=(-DELSBENCH_WITH_CUDA=ON "-DCMAKE_CUDA_COMPILER=$nvcc" "-DCMAKE_CUDA_ARCHITECTURES=$arch")
fi
if [ "$dry_run" = 0 ] || [ ! -x "$build/elsbench" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${cuda_flags[@]}" >/dev/null
  cmake --build "$build" -j "$(nproc)"
fi
"$build/elsbench" list devices

[ -n "$instance" ] || instance=$(detect_instance)
[ -n "$instance" ] || die "cannot tell which machine this is: pass --instance PROVIDER:TYPE (ids in harness/cloud/prices.json)"
say "instance: $instance"

book_args=(--solver adi --device cpu)
[ "$have_gpu" = 1 ] && [ -n "$nvcc" ] && book_args=(--solver adi-cuda --device cuda:0)
if [ "$dry_run" = 1 ]; then
  if [ -n "$book" ]; then
    plan=$("$build/elsbench" book price "$book" "${book_args[@]}" "${sweep_args[@]}" --dry-run)
  else
    plan=$("$build/elsbench" sweep --preset "$preset" "${sweep_args[@]}" --dry-run)
  fi
  echo "$plan"
  # The cost of the estimated time at the instance's on-demand price.
  python3 - "$instance" "$(sed -n 's/^estimate_seconds: //p' <<<"$plan")" \
    "$(sed -n 's/^expected_seconds: //p' <<<"$plan")" <<'PY'
import json, sys
instance, estimate, expected = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
prices = {i["id"]: i for i in json.load(open("harness/cloud/prices.json"))["instances"]}
if instance not in prices:
    print(f"cost: {instance} is not in harness/cloud/prices.json: no price")
elif len(estimate) == 1 and estimate[0] != "unmeasured":
    per_hour = prices[instance]["usd_per_hour"]
    print(f"cost: at least ${float(estimate[0]) / 3600 * per_hour:.4f} on {instance} at ${per_hour}/h "
          f"(time of marching only, a lower bound: the plan says why)")
elif len(estimate) != 2:
    print("cost: no estimate of the time (the plan says why), so none of the cost")
else:
    per_hour = prices[instance]["usd_per_hour"]
    low, high = (float(x) for x in estimate)
    mid = f"${float(expected[0]) / 3600 * per_hour:.4f} (" if expected else "("
    print(f"cost: {mid}${low / 3600 * per_hour:.4f} to ${high / 3600 * per_hour:.4f}) on {instance} at "
          f"${per_hour}/h (time of marching only, from the plan's estimate)")
PY
  exit 0
fi

slug=$(printf '%s' "$instance" | tr -c 'A-Za-z0-9._-' '-')
stamp="$(date -u +%F)-$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
stage="$build/cloud-run"
results="$stage/results/$slug/$stamp$([ -n "$book" ] && echo -book).json"
mkdir -p "$(dirname "$results")"
if [ -n "$book" ]; then
  resume=()
  [ -f "$results" ] && { say "resuming $results"; resume=(--resume); }
  "$build/elsbench" book price "$book" "${book_args[@]}" --instance "$instance" --out "$results" "${resume[@]}" \
    "${sweep_args[@]}"
elif [ -f "$results" ]; then  # the file keeps the sweep, preset and instance it was started with
  say "resuming $results"
  "$build/elsbench" sweep --resume "$results"
else
  "$build/elsbench" sweep --preset "$preset" --instance "$instance" --out "$results" "${sweep_args[@]}"
fi
"$build/elsbench" report "$results" --out "$stage/results/$slug/report" --baseline adi/cpu  # the cloud preset runs CPU adi on all cores

archive="$build/elsbench-$slug-$stamp.tar.gz"
tar -czf "$archive" -C "$stage" "results/$slug"
say "report:  $stage/results/$slug/report/report.html"
say "archive: $archive  (tar -xzf it in the repository root: it unpacks into results/$slug/)"
echo "$archive" > "$build/LATEST_ARCHIVE"
echo "$stage/results/$slug/report/report.html" > "$build/LATEST_REPORT"
