#!/usr/bin/env bash
# bench/run.sh - builds what the benchmarks need and runs them all in one go.
#
# One run measures, in this order: the STREAM triad (1 and 2 threads), then
# `xlac bench --backend=cpu` on every program in bench/programs at each
# thread count, the OpenBLAS GEMM reference (bench_gemm, when the build has
# that target), optionally JAX/XLA on the same programs (--xla), and the
# STREAM triad once more.  Bandwidth-bound programs are reported in GB/s and
# as a ratio to the STREAM triad of the same run (the mean of the medians
# before and after), GEMM-like programs in GFLOP/s next to OpenBLAS.  The
# machine may be shared and noisy: every number is a median of several runs,
# and every ratio compares numbers taken in the same run.
#
# usage: bench/run.sh [options]
#   --build DIR       build directory (default: build; configured if missing)
#   --xlac PATH       use this xlac instead of DIR/bin/xlac (nothing is built)
#   --only "A B"      run only these programs (names without .mlir)
#   --threads "1 2"   thread counts to measure (default: "1 2")
#   --iters N         timed runs per program (default: 20; 10 for big ones)
#   --warmup N        untimed runs first (default: 3; 2 for big ones)
#   --quick           --iters 5 --warmup 1, small STREAM (for trying it out)
#   --xla             also time the programs on JAX/XLA's CPU backend
#   --backend B       xlac backend to measure (default: cpu; interp is slow)
#   --no-build        use what is already built
#   --out FILE        also write the machine-readable summary to FILE
#   --self-test       check the output parsing and arithmetic, then exit
#
# The JAX model suite (bench/models: MLPs, CNNs, transformers, ... exported
# from JAX) instead of the programs above:
#   --models          time the models in xlac (with --xla: against XLA:CPU)
#   --iree            with --models: also time IREE (llvm-cpu, local-task)
#   --rounds N        with --models: interleaved timing rounds (default: 5)
#   --chart FILE      with --models and --xla/--iree: also draw the time
#                     ratios (XLA/xlac, IREE/xlac per model and thread
#                     count) as a PNG (bench/models/chart.py, matplotlib)
# --only, --threads, --iters (default 10), --warmup (default 2), --quick,
# --out, --xlac, --build and --no-build apply to it too.  With --xla or
# --iree the suite runs in a Python virtual environment at
# $XLAC_BENCH_VENV (default: ~/.cache/xlac-bench-jax), created on first use
# with `python3 -m venv` and pinned jax[cpu], numpy (and IREE, and
# matplotlib for --chart); without them it uses that environment if it
# exists (to check xlac's results against jax), or else python3 and xlac
# alone on random inputs.
#
# Output: the raw output of every step, a table, and a summary whose lines
# are `RESULT key=value ...` (one per measurement), for scripts.
set -u -o pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bench_dir="$root/bench"
build="$root/build"
xlac=""
only=""
threads_list="1 2"
iters=""
warmup=""
quick=0
with_xla=0
backend=cpu
do_build=1
out_file=""
timeout_s=${BENCH_TIMEOUT:-300}
models=0
with_iree=0
rounds=""
chart=""
# What bench/models/*.mlir and *.xla.hlo were exported with; the suite's
# environment gets the same.
JAX_VERSION=0.10.2
NUMPY_VERSION=2.4.6
IREE_VERSION=3.13.0
MATPLOTLIB_VERSION=3.11.2
order="reduce_sum_xyz ew_chain10 sgemm_256 sgemm_1024 sgemm_2048 softmax layernorm mlp resnet_block attention"
big="sgemm_2048 mlp resnet_block attention"

die() { echo "run.sh: $*" >&2; exit 1; }

# ---- parsing and arithmetic (exercised by --self-test) ----

# kv LINE KEY: the value of KEY=value in a line of space-separated fields.
kv() {
  awk -v key="$2" '{ for (i = 1; i <= NF; i++) { n = index($i, "=");
    if (n > 1 && substr($i, 1, n - 1) == key) { print substr($i, n + 1); exit } } }' <<<"$1"
}

# is_number S: S is a plain non-negative decimal number.
is_number() { [[ $1 =~ ^[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$ ]]; }

# per_second AMOUNT MS: AMOUNT per MS milliseconds, in units of 1e9 per second
# (GB/s from bytes, GFLOP/s from flops).  Prints "-" when MS is no number.
per_second() {
  if is_number "$1" && is_number "$2"; then
    awk -v a="$1" -v ms="$2" 'BEGIN { if (ms > 0) printf "%.2f", a / (ms * 1e6); else print "-" }'
  else
    echo "-"
  fi
}

# ratio A B: A / B with two decimals, "-" unless both are positive numbers.
ratio() {
  if is_number "$1" && is_number "$2"; then
    awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'
  else
    echo "-"
  fi
}

# mean A B: the mean of two numbers, or whichever one is a number.
mean() {
  if is_number "$1" && is_number "$2"; then
    awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (a + b) / 2 }'
  elif is_number "$1"; then echo "$1"
  elif is_number "$2"; then echo "$2"
  else echo "-"
  fi
}

# header_field FILE KEY: KEY from the file's `// bench: kind=.. bytes=.. flops=..` line.
header_field() {
  local line
  line=$(grep -m1 '^// bench:' "$1" 2>/dev/null) || { echo "-"; return; }
  local v
  v=$(kv "$line" "$2")
  echo "${v:--}"
}

# fallback_ops TEXT: M from "..., M through the interpreter" in xlac bench's
# output, or "-".
fallback_ops() {
  local v
  v=$(sed -n 's/.*[^0-9]\([0-9][0-9]*\) through the interpreter.*/\1/p' <<<"$1" | tail -n 1)
  echo "${v:--}"
}

# bench_line TEXT: the last `BENCH ...` line of TEXT (empty if none).
bench_line() { grep '^BENCH ' <<<"$1" | tail -n 1; }

self_test() {
  local fails=0 passes=0
  check() {
    if [ "$2" == "$3" ]; then passes=$((passes + 1))
    else fails=$((fails + 1)); echo "self-test: $1: got '$2', want '$3'"; fi
  }
  local out line
  out=$'compile: 12.3 ms\nrun: median 4.56 ms\nBENCH name=bench/programs/reduce_sum_xyz.mlir backend=cpu compile_ms=12.3 median_ms=4.56 min_ms=4.40 iters=20 threads=1'
  line=$(bench_line "$out")
  check "bench line" "$line" "BENCH name=bench/programs/reduce_sum_xyz.mlir backend=cpu compile_ms=12.3 median_ms=4.56 min_ms=4.40 iters=20 threads=1"
  check "name" "$(kv "$line" name)" "bench/programs/reduce_sum_xyz.mlir"
  check "backend" "$(kv "$line" backend)" "cpu"
  check "compile_ms" "$(kv "$line" compile_ms)" "12.3"
  check "median_ms" "$(kv "$line" median_ms)" "4.56"
  check "min_ms" "$(kv "$line" min_ms)" "4.40"
  check "iters" "$(kv "$line" iters)" "20"
  check "threads" "$(kv "$line" threads)" "1"
  check "missing key" "$(kv "$line" gflops)" ""
  check "fallback ops" "$(fallback_ops $'x.mlir @main: compile 19.8 ms\n  0 ops native (0 fusions), 12 through the interpreter, temp 0 bytes')" "12"
  check "no fallback line" "$(fallback_ops "$out")" "-"
  check "no bench line" "$(bench_line $'error: unknown command bench')" ""
  # reduce_sum_xyz: 3 x 64 MiB read in 15.1 ms -> 13.33 GB/s.
  check "GB/s" "$(per_second 201326596 15.1)" "13.33"
  # 2 * 1024^3 flops in 10 ms -> 214.75 GFLOP/s.
  check "GFLOP/s" "$(per_second 2147483648 10)" "214.75"
  check "GB/s of nothing" "$(per_second 201326596 -)" "-"
  check "GB/s of zero time" "$(per_second 100 0)" "-"
  check "ratio" "$(ratio 13.33 19.16)" "0.70"
  check "ratio of nothing" "$(ratio - 19.16)" "-"
  check "mean" "$(mean 18.0 19.0)" "18.50"
  check "mean of one" "$(mean - 19.0)" "19.0"
  check "exponent" "$(per_second 2e9 1e3)" "2.00"
  local stream_out=$'triad, 1 thread, 3 x 128 MiB: best 19.16 GB/s\nSTREAM kernel=triad threads=1 mib_per_array=128 reps=10 best_gbs=19.16 median_gbs=18.26'
  check "stream median" "$(kv "$(grep '^STREAM ' <<<"$stream_out")" median_gbs)" "18.26"
  local gemm_out=$'GEMM impl=openblas m=1024 n=1024 k=1024 threads=2 gflops=251.3 median_ms=8.55\nGEMM impl=xlacrt m=1024 n=1024 k=1024 threads=2 gflops=180.0'
  check "gemm lookup" "$(gemm_gflops "$gemm_out" openblas 1024 2)" "251.3"
  check "gemm lookup miss" "$(gemm_gflops "$gemm_out" openblas 2048 2)" "-"
  gemm_out=$'OpenBLAS core: SkylakeX (OPENBLAS_CORETYPE=SkylakeX)\nsgemm   256  1 thr  xlacrt    95.2 GFLOP/s  openblas   120.5 GFLOP/s  ratio 0.79  (50 runs, max rel diff 1.2e-07)\nsgemm  1024  2 thr  xlacrt   180.0 GFLOP/s  openblas   251.3 GFLOP/s  ratio 0.72  (9 runs, max rel diff 1.0e-07)\ndgemm  1024  2 thr  xlacrt    90.0 GFLOP/s  openblas   120.0 GFLOP/s  ratio 0.75  (5 runs)'
  check "sgemm line, openblas" "$(gemm_gflops "$gemm_out" openblas 1024 2)" "251.3"
  check "sgemm line, xlacrt" "$(gemm_gflops "$gemm_out" xlacrt 256 1)" "95.2"
  check "sgemm line, wrong threads" "$(gemm_gflops "$gemm_out" openblas 1024 1)" "-"
  local tmp
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/xlac-bench-selftest.XXXXXX")
  printf '// Generated\n// bench: kind=bw bytes=201326596 flops=50331648\nmodule {}\n' >"$tmp/p.mlir"
  check "header kind" "$(header_field "$tmp/p.mlir" kind)" "bw"
  check "header bytes" "$(header_field "$tmp/p.mlir" bytes)" "201326596"
  check "header of headerless file" "$(header_field /dev/null flops)" "-"
  rm -rf "$tmp"
  echo "$passes passed, $fails failed"
  [ "$fails" -eq 0 ]
}

# gemm_gflops OUTPUT IMPL N THREADS: GFLOP/s of a square sgemm of size N from
# bench_gemm's output, or "-".  It prints lines such as
#   sgemm  1024  2 thr  xlacrt   180.0 GFLOP/s  openblas   251.3 GFLOP/s  ratio 0.72  (...)
# (IMPL is the word before the number); `GEMM impl=.. m=.. n=.. k=.. threads=..
# gflops=..` lines are read too.
gemm_gflops() {
  local v
  v=$(awk -v impl="$2" -v n="$3" -v t="$4" '
    $1 == "sgemm" && $2 == n && $3 == t && $4 == "thr" {
      for (i = 5; i < NF; i++) if ($i == impl) r = $(i + 1)
    }
    $1 == "GEMM" {
      delete f
      for (i = 2; i <= NF; i++) { p = index($i, "="); if (p > 1) f[substr($i, 1, p - 1)] = substr($i, p + 1) }
      if (f["impl"] == impl && f["m"] == n && f["n"] == n && f["k"] == n && ("threads" in f ? f["threads"] == t : t == 1)) r = f["gflops"]
    }
    END { if (r != "") print r }' <<<"$1")
  echo "${v:--}"
}

# ---- options ----
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --build=*) build=${1#*=}; shift ;;
    --xlac) xlac=$2; do_build=0; shift 2 ;;
    --xlac=*) xlac=${1#*=}; do_build=0; shift ;;
    --only) only=$2; shift 2 ;;
    --only=*) only=${1#*=}; shift ;;
    --threads) threads_list=$2; shift 2 ;;
    --threads=*) threads_list=${1#*=}; shift ;;
    --iters) iters=$2; shift 2 ;;
    --iters=*) iters=${1#*=}; shift ;;
    --warmup) warmup=$2; shift 2 ;;
    --warmup=*) warmup=${1#*=}; shift ;;
    --quick) quick=1; shift ;;
    --xla) with_xla=1; shift ;;
    --models) models=1; shift ;;
    --iree) with_iree=1; shift ;;
    --rounds) rounds=$2; shift 2 ;;
    --rounds=*) rounds=${1#*=}; shift ;;
    --chart) chart=$2; shift 2 ;;
    --chart=*) chart=${1#*=}; shift ;;
    --backend) backend=$2; shift 2 ;;
    --backend=*) backend=${1#*=}; shift ;;
    --no-build) do_build=0; shift ;;
    --out) out_file=$2; shift 2 ;;
    --out=*) out_file=${1#*=}; shift ;;
    --self-test) self_test; exit $? ;;
    -h|--help) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
done
case "$build" in /*) ;; *) build="$PWD/$build" ;; esac
for n in $threads_list; do [[ $n =~ ^[1-9][0-9]*$ ]] || die "--threads wants positive integers, got '$n'"; done
for n in $iters $warmup $rounds; do [[ $n =~ ^[0-9]+$ ]] || die "--iters/--warmup/--rounds want integers, got '$n'"; done
[ -z "$iters" ] || [ "$iters" -ge 1 ] || die "--iters must be at least 1"
if [ "$quick" = 1 ]; then iters=${iters:-5}; warmup=${warmup:-1}; rounds=${rounds:-1}; fi
[ "$with_iree" = 0 ] || [ "$models" = 1 ] || die "--iree needs --models"
[ -z "$chart" ] || { [ "$models" = 1 ] && [ "$with_xla$with_iree" != 00 ]; } ||
  die "--chart needs --models and --xla or --iree"
stream_mib=128
stream_reps=10
[ "$quick" = 1 ] && { stream_mib=64; stream_reps=5; }

# ---- build ----
section() { printf '\n==== %s ====\n' "$*"; }

build_xlac() {
  if [ ! -f "$build/CMakeCache.txt" ]; then
    local gen=""
    command -v ninja >/dev/null 2>&1 && gen="-G Ninja"
    # shellcheck disable=SC2086
    cmake -S "$root" -B "$build" $gen -DCMAKE_BUILD_TYPE=RelWithDebInfo || die "cmake configure failed"
  fi
  cmake --build "$build" --target xlac-tool --parallel "${BENCH_JOBS:-2}" || die "building xlac failed"
}

# ---- the JAX model suite ----

# suite_python: sets `py` to the Python the model suite runs in.  With --xla
# or --iree that is the virtual environment, created or completed here.
suite_python() {
  local venv=${XLAC_BENCH_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/xlac-bench-jax}
  py=$venv/bin/python
  if [ "$with_xla" = 0 ] && [ "$with_iree" = 0 ]; then
    "$py" -c 'import jax' 2>/dev/null || py=python3
    return
  fi
  local want=("jax==$JAX_VERSION" "jaxlib==$JAX_VERSION" "numpy==$NUMPY_VERSION")
  [ "$with_iree" = 1 ] && want+=("iree-base-compiler==$IREE_VERSION" "iree-base-runtime==$IREE_VERSION")
  [ -n "$chart" ] && want+=("matplotlib==$MATPLOTLIB_VERSION")
  if [ ! -x "$py" ]; then
    python3 -c 'import venv, ensurepip' 2>/dev/null ||
      die "python3 cannot create virtual environments; install the python3-venv package (apt-get install python3-venv)"
    echo "run.sh: creating the virtual environment $venv"
    python3 -m venv "$venv" || die "python3 -m venv $venv failed"
    "$py" -m pip install -q --upgrade pip || die "pip does not work in $venv"
  fi
  local req have install=()
  for req in "${want[@]}"; do
    have=$("$py" -c 'import importlib.metadata as m, sys; print(m.version(sys.argv[1]))' "${req%%==*}" 2>/dev/null)
    [ "$have" = "${req#*==}" ] && continue
    case "$req" in jaxlib==*) ;; jax==*) install+=("jax[cpu]==$JAX_VERSION") ;; *) install+=("$req") ;; esac
  done
  if [ ${#install[@]} -gt 0 ]; then
    echo "run.sh: installing ${install[*]} into $venv"
    "$py" -m pip install -q "${install[@]}" || die "pip install ${install[*]} failed"
  fi
}

if [ "$models" = 1 ]; then
  if [ "$do_build" = 1 ]; then section "build"; build_xlac; fi
  [ -n "$xlac" ] || xlac="$build/bin/xlac"
  [ -x "$xlac" ] || die "$xlac not found or not executable (build first, or pass --xlac)"
  suite_python
  # shellcheck disable=SC2206 # space-separated lists of numbers and names
  args=(--xlac "$xlac" --threads $threads_list)
  # shellcheck disable=SC2206
  [ -n "$only" ] && args+=(--only $only)
  [ -n "$iters" ] && args+=(--iters "$iters")
  [ -n "$warmup" ] && args+=(--warmup "$warmup")
  [ -n "$rounds" ] && args+=(--rounds "$rounds")
  [ "$with_xla" = 1 ] && args+=(--xla)
  [ "$with_iree" = 1 ] && args+=(--iree)
  # The chart is drawn from the suite's summary: --out FILE, or a temporary file.
  results=$out_file
  if [ -n "$chart" ] && [ -z "$results" ]; then
    results=$(mktemp "${TMPDIR:-/tmp}/xlac-models.XXXXXX") || die "mktemp failed"
    trap 'rm -f "$results"' EXIT
  fi
  [ -n "$results" ] && args+=(--out "$results")
  section "JAX models ($py)"
  [ -n "$chart" ] || exec "$py" "$bench_dir/models/suite.py" "${args[@]}"
  "$py" "$bench_dir/models/suite.py" "${args[@]}" || exit
  section "chart"
  "$py" "$bench_dir/models/chart.py" "$results" -o "$chart" || die "drawing the chart failed"
  echo "run.sh: wrote $chart"
  exit 0
fi

programs=""
for p in ${only:-$order}; do
  [ -f "$bench_dir/programs/$p.mlir" ] || die "no program bench/programs/$p.mlir"
  programs+="$p "
done
if [ -z "$only" ]; then
  # Programs added to bench/programs but not to the fixed order come last.
  for f in "$bench_dir"/programs/*.mlir; do
    p=$(basename "$f" .mlir)
    [[ " $order " == *" $p "* ]] || programs+="$p "
  done
fi

bin_dir="$build/bench-bin"
mkdir -p "$bin_dir" || die "cannot create $bin_dir"

gemm_bin=""
if [ "$do_build" = 1 ]; then
  section "build"
  build_xlac
  if cmake --build "$build" --target help 2>/dev/null | grep -q 'bench_gemm'; then
    cmake --build "$build" --target bench_gemm --parallel "${BENCH_JOBS:-2}" ||
      echo "run.sh: building bench_gemm failed; skipping the OpenBLAS reference" >&2
  else
    echo "run.sh: the build has no bench_gemm target; skipping the OpenBLAS reference"
  fi
fi
[ -n "$xlac" ] || xlac="$build/bin/xlac"
[ -x "$xlac" ] || die "$xlac not found or not executable (build first, or pass --xlac)"
for f in "$build/bin/bench_gemm" "$build/bench/bench_gemm"; do
  [ -x "$f" ] && { gemm_bin=$f; break; }
done

stream_bin="$bin_dir/stream"
if [ "$do_build" = 1 ] || [ ! -x "$stream_bin" ]; then
  ${CC:-cc} -std=c11 -O3 -march=native -pthread -Wall -Wextra "$bench_dir/stream.c" -o "$stream_bin" ||
    die "building stream.c failed"
fi

# ---- machine ----
section "machine"
cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')
echo "cpu: ${cpu:-unknown}, $(nproc) cores; $(uname -sr)"
echo "xlac: $xlac ($("$xlac" --version 2>/dev/null | head -n 1))"
echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"

# ---- STREAM ----
declare -A stream_before stream_after
run_stream() {  # run_stream ARRAY_NAME
  local -n dest=$1
  local t out line
  for t in $threads_list; do
    out=$("$stream_bin" --threads "$t" --mib "$stream_mib" --reps "$stream_reps" 2>&1)
    echo "$out" | grep -v '^STREAM '
    line=$(grep '^STREAM ' <<<"$out" | tail -n 1)
    # shellcheck disable=SC2004 # dest is associative: $t is a key, not arithmetic
    dest[$t]=$(kv "$line" median_gbs)
    # shellcheck disable=SC2004
    [ -n "${dest[$t]}" ] || dest[$t]="-"
  done
}
# stream_once THREADS: median GB/s of a short triad run, for the bracket
# around each bandwidth-bound program.
stream_once() {
  local out
  out=$("$stream_bin" --threads "$1" --mib "$stream_mib" --reps 5 2>/dev/null | grep '^STREAM ')
  out=$(kv "$out" median_gbs)
  echo "${out:--}"
}

section "STREAM triad (before)"
run_stream stream_before

# ---- xlac ----
declare -A x_median x_min x_compile x_status x_stream x_fallback
section "xlac bench --backend=$backend"
for p in $programs; do
  file="$bench_dir/programs/$p.mlir"
  it=${iters:-20}
  wu=${warmup:-3}
  if [[ " $big " == *" $p "* ]]; then it=${iters:-10}; wu=${warmup:-2}; fi
  kind=$(header_field "$file" kind)
  for t in $threads_list; do
    key="$p/$t"
    # A bandwidth-bound program is bracketed by two short triad runs, and its
    # ratio is taken to their mean: the load from other processes changes
    # over a whole run much more than over a few seconds.
    [ "$kind" = bw ] && s_before=$(stream_once "$t")
    echo "-- $p, $t thread(s): xlac bench --backend=$backend --warmup $wu --iters $it --threads $t --random-inputs --seed 1"
    out=$(timeout "$timeout_s" "$xlac" bench --backend="$backend" --warmup "$wu" --iters "$it" --threads "$t" \
      --random-inputs --seed 1 "$file" 2>&1)
    rc=$?
    echo "$out" | tail -n 20
    line=$(bench_line "$out")
    if [ -n "$line" ] && [ "$rc" = 0 ]; then
      x_status[$key]=ok
      x_median[$key]=$(kv "$line" median_ms)
      x_min[$key]=$(kv "$line" min_ms)
      x_compile[$key]=$(kv "$line" compile_ms)
      # The cpu backend also says how many ops it left to the interpreter
      # ("N ops native (F fusions), M through the interpreter"); a program
      # with such ops is not measuring generated code alone.
      x_fallback[$key]=$(fallback_ops "$out")
    else
      if [ "$rc" = 124 ]; then x_status[$key]=timeout
      elif [ "$rc" != 0 ]; then x_status[$key]=failed
      else x_status[$key]=no-result; fi
      x_median[$key]="-"; x_min[$key]="-"; x_compile[$key]="-"
      echo "   ($p, $t thread(s): ${x_status[$key]}, exit $rc)"
    fi
    if [ "$kind" = bw ]; then
      s_after=$(stream_once "$t")
      x_stream[$key]=$(mean "$s_before" "$s_after")
      echo "   (STREAM triad around it: $s_before, $s_after GB/s)"
    fi
  done
done

# ---- OpenBLAS ----
gemm_out=""
if [ -n "$gemm_bin" ]; then
  section "GEMM reference ($gemm_bin, OPENBLAS_CORETYPE=SkylakeX)"
  sizes=""
  for p in $programs; do [[ $p =~ ^sgemm_([0-9]+)$ ]] && sizes+="${BASH_REMATCH[1]} "; done
  # shellcheck disable=SC2086 # sizes is a list of numbers
  [ -n "$sizes" ] && gemm_out=$(OPENBLAS_CORETYPE=SkylakeX timeout "$timeout_s" "$gemm_bin" --no-dgemm $sizes 2>&1)
  echo "$gemm_out"
fi

# ---- XLA ----
declare -A j_median j_compile
if [ "$with_xla" = 1 ]; then
  section "JAX/XLA CPU"
  if python3 -c 'import jax' 2>/dev/null; then
    small_programs=""; big_programs=""
    for p in $programs; do
      if [[ " $big " == *" $p "* ]]; then big_programs+="$p "; else small_programs+="$p "; fi
    done
    for t in $threads_list; do
      # XLA sizes its thread pool from the CPUs it may run on.
      ncpu=$(nproc)
      cpus=$(seq -s, 0 $(( (t < ncpu ? t : ncpu) - 1 )))
      out=""
      # One process per group: starting JAX costs more than most programs run.
      for group in small big; do
        if [ "$group" = small ]; then list=$small_programs; it=${iters:-20}; wu=${warmup:-3}
        else list=$big_programs; it=${iters:-10}; wu=${warmup:-2}; fi
        [ -n "$list" ] || continue
        # shellcheck disable=SC2086 # list is a space-separated list of names
        out+=$(timeout "$timeout_s" taskset -c "$cpus" python3 "$bench_dir/xla_bench.py" \
          --warmup "$wu" --iters "$it" --threads "$t" --seed 1 $list 2>&1)$'\n'
      done
      grep '^BENCH ' <<<"$out" || echo "$out" | tail -n 10
      for p in $programs; do
        line=$(grep "^BENCH name=$p " <<<"$out" | tail -n 1)
        j_median[$p/$t]=$(kv "$line" median_ms)
        j_compile[$p/$t]=$(kv "$line" compile_ms)
        [ -n "${j_median[$p/$t]}" ] || j_median[$p/$t]="-"
        [ -n "${j_compile[$p/$t]}" ] || j_compile[$p/$t]="-"
      done
    done
  else
    echo "run.sh: python3 cannot import jax; skipping --xla"
  fi
fi

section "STREAM triad (after)"
run_stream stream_after

# ---- table and summary ----
declare -A stream_gbs
for t in $threads_list; do stream_gbs[$t]=$(mean "${stream_before[$t]}" "${stream_after[$t]}"); done

summary=""
emit() { summary+="RESULT $*"$'\n'; }
for t in $threads_list; do
  emit "name=stream_triad threads=$t median_gbs=${stream_gbs[$t]} before_gbs=${stream_before[$t]} after_gbs=${stream_after[$t]}"
done

section "results"
printf '%-15s %3s %10s %10s %10s %15s %-13s %10s %10s %8s\n' \
  program thr compile_ms median_ms min_ms rate "vs reference" xla_ms xla_rate xla/xlac
for p in $programs; do
  file="$bench_dir/programs/$p.mlir"
  kind=$(header_field "$file" kind)
  bytes=$(header_field "$file" bytes)
  flops=$(header_field "$file" flops)
  for t in $threads_list; do
    key="$p/$t"
    med=${x_median[$key]}
    xm=${j_median[$key]:--}
    if [ "$kind" = bw ]; then
      rate=$(per_second "$bytes" "$med"); unit="GB/s"
      sref=${x_stream[$key]:--}
      is_number "$sref" || sref=${stream_gbs[$t]}
      ref=$(ratio "$rate" "$sref"); ref_label="$ref x STREAM"; ref_key="stream_gbs=$sref stream_ratio=$ref"
      xrate=$(per_second "$bytes" "$xm")
    else
      rate=$(per_second "$flops" "$med"); unit="GFLOP/s"
      ref="-"; ref_label="-"; ref_key=""
      if [[ $p =~ ^sgemm_([0-9]+)$ ]] && [ -n "$gemm_out" ]; then
        blas=$(gemm_gflops "$gemm_out" openblas "${BASH_REMATCH[1]}" "$t")
        ref=$(ratio "$rate" "$blas"); ref_label="$ref x BLAS"; ref_key="openblas_gflops=$blas blas_ratio=$ref xlacrt_gflops=$(gemm_gflops "$gemm_out" xlacrt "${BASH_REMATCH[1]}" "$t")"
      fi
      xrate=$(per_second "$flops" "$xm")
    fi
    [ "$ref" = "-" ] && ref_label="-"
    # Above 1: xlac is faster than XLA.
    speed=$(ratio "$xm" "$med")
    shown_rate="$rate $unit"; [ "$rate" = "-" ] && shown_rate="${x_status[$key]}"
    fb=${x_fallback[$key]:--}
    is_number "$fb" && [ "$fb" != 0 ] && shown_rate="*$shown_rate"
    printf '%-15s %3s %10s %10s %10s %15s %-13s %10s %10s %8s\n' "$p" "$t" "${x_compile[$key]}" \
      "$med" "${x_min[$key]}" "$shown_rate" "$ref_label" "$xm" "$xrate" "$speed"
    rate_key=gbs; [ "$kind" = bw ] || rate_key=gflops
    line="name=$p threads=$t backend=$backend status=${x_status[$key]} interp_ops=${x_fallback[$key]:--} compile_ms=${x_compile[$key]} median_ms=$med min_ms=${x_min[$key]} $rate_key=$rate"
    [ -n "$ref_key" ] && line+=" $ref_key"
    [ "$with_xla" = 1 ] && line+=" xla_compile_ms=${j_compile[$key]:--} xla_median_ms=$xm xla_$rate_key=$xrate xla_over_xlac=$speed"
    emit "$line"
  done
done
for t in $threads_list; do
  printf 'STREAM triad, %s thread(s): %s GB/s (median; before %s, after %s)\n' "$t" \
    "${stream_gbs[$t]}" "${stream_before[$t]}" "${stream_after[$t]}"
done
echo "rate: GB/s (minimum bytes moved / median time) for bandwidth-bound programs, GFLOP/s otherwise;"
echo "vs reference: that rate over the STREAM triad measured just before and after it, or over"
echo "  OpenBLAS (bench_gemm, same run) for sgemm;"
echo "xla/xlac: XLA's median time over xlac's (above 1: xlac is faster)."
echo "*: the cpu backend ran some of the program's ops through the interpreter."

section "summary"
printf '%s' "$summary"
if [ -n "$out_file" ]; then
  printf '%s' "$summary" >"$out_file" || die "cannot write $out_file"
fi
