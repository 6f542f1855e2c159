#!/usr/bin/env bash
# bench/aot/tfcompile.sh - times TensorFlow's own ahead-of-time compiler
# (`saved_model_cli aot_compile_cpu`, tfcompile's machinery as the PyPI
# wheel ships it, no Bazel) on the models of models.py, and leaves the same
# computations as HLO text for xlac.  Not part of the test suite.
#
# Steps: a Python virtual environment with TensorFlow (created once, kept in
# a cache directory); models.py writes SavedModels, HLO text, inputs and
# TensorFlow's outputs into a work directory; saved_model_cli compiles each
# SavedModel to a header and object files; timer.cc is built against each
# header and linked step by step (see "Linking" below); each timer checks
# its result against TensorFlow's and times Run() on one thread.
#
# usage: bench/aot/tfcompile.sh [options]
#   --work DIR        work directory (default: a new mktemp -d directory,
#                     removed at the end unless --keep; a DIR given here is
#                     always kept)
#   --keep            keep the mktemp work directory
#   --only "A B"      models to run (default: "tiny mlp cnn")
#   --target-cpu CPU  LLVM CPU name for aot_compile_cpu's --target_cpu:
#                     "host" (default) detects this machine's CPU and also
#                     builds the C++ side with -march=native; "generic"
#                     passes no --target_cpu (the tool's default, baseline
#                     x86-64) and no -march
#   --batches N       timed batches per model (default: 15)
#   --batch-ms M      milliseconds per batch, roughly (default: 20)
#   --jobs N          parallel compiles (default: 2)
#
# Environment:
#   XLAC_BENCH_TF_ENV  the virtual environment and the build caches
#                      (default: ${XDG_CACHE_HOME:-$HOME/.cache}/xlac-bench-tf)
#   TF_VERSION         TensorFlow version to install (default: 2.21.0)
#   PYTHON             interpreter that creates the environment (python3)
#   CXX                C++ compiler (default: g++)
#   ABSL_SRC           an abseil-cpp source tree of the release the wheel's
#                      headers name (include/absl/base/config.h); without it
#                      the script tries to download that release from GitHub
#   TARGET_TRIPLE      LLVM target triple (default: this host's)
#
# Linking.  The generated <model>_makefile.inc names only an include
# directory, an -L for the output directory and a CXXFLAGS define; it names
# no library.  The script links in three steps and records, for each, the
# symbols still undefined (work/link/<model>.<step>.undefined):
#   1. timer + the generated object files, as makefile.inc describes;
#   2. + a static library compiled from the wheel's tensorflow/
#        xla_aot_runtime_src sources (built once per compiler flags);
#   3. + Abseil: static libraries built from ABSL_SRC (or the downloaded
#        release) with CMake, so the program stands alone; if Abseil cannot
#        be had, the wheel's libtensorflow_framework.so.2, which exports the
#        Abseil symbols, instead.
#
# Output: the log of every step, a table, and one line per model:
#   RESULT tfcompile <model> median_ns=.. min_ns=.. max_ns=.. obj_bytes=..
#          obj_text=.. const_bytes=.. const_rodata=.. meta_bytes=..
#          bin_bytes=.. compile_s=.. max_abs_err=.. ok=.. target_cpu=..
#          tf=.. link=..
# obj_bytes is the file size of the code object <model>.o and obj_text its
# text (`size`); the weights are in <model>_constants.o (file size
# const_bytes, `size` const_rodata) and a serialized compilation result in
# <model>_metadata.o (meta_bytes).  bin_bytes is the unstripped timer
# program; compile_s the wall time of aot_compile_cpu (Python start-up
# included).  link lists what had to be added to what makefile.inc says.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ENV_DIR=${XLAC_BENCH_TF_ENV:-${XDG_CACHE_HOME:-$HOME/.cache}/xlac-bench-tf}
TF_VERSION=${TF_VERSION:-2.21.0}
PYTHON=${PYTHON:-python3}
CXX=${CXX:-g++}
WORK=""
KEEP=0
ONLY="tiny mlp cnn"
TARGET_CPU=host
BATCHES=15
BATCH_MS=20
JOBS=2

die() { echo "tfcompile.sh: $*" >&2; exit 1; }
log() { echo "== $*"; }

while [ $# -gt 0 ]; do
  case "$1" in
    --work) WORK=$2; KEEP=1; shift 2 ;;
    --keep) KEEP=1; shift ;;
    --only) ONLY=$2; shift 2 ;;
    --target-cpu) TARGET_CPU=$2; shift 2 ;;
    --batches) BATCHES=$2; shift 2 ;;
    --batch-ms) BATCH_MS=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option $1 (try --help)" ;;
  esac
done

# ---------------------------------------------------------------- TensorFlow
PY=$ENV_DIR/bin/python
if [ ! -x "$PY" ]; then
  log "creating the virtual environment $ENV_DIR"
  mkdir -p "$(dirname "$ENV_DIR")"
  "$PYTHON" -m venv "$ENV_DIR"
  "$PY" -m pip install -q --upgrade pip
fi
have_tf=$("$PY" -c 'import importlib.metadata as m; print(m.version("tensorflow"))' 2>/dev/null || true)
if [ "$have_tf" != "$TF_VERSION" ]; then
  log "installing tensorflow==$TF_VERSION into $ENV_DIR"
  "$PY" -m pip install -q "tensorflow==$TF_VERSION"
fi
export TF_CPP_MIN_LOG_LEVEL=2
TFP=$("$PY" -c 'import os, importlib.util as u; print(os.path.dirname(u.find_spec("tensorflow").origin))')
[ -d "$TFP/xla_aot_runtime_src" ] || die "$TFP has no xla_aot_runtime_src"
SMCLI=$ENV_DIR/bin/saved_model_cli
[ -x "$SMCLI" ] || die "no saved_model_cli in $ENV_DIR/bin"
log "TensorFlow $TF_VERSION at $TFP"

# ------------------------------------------------------------------- target
if [ -z "${TARGET_TRIPLE:-}" ]; then
  case "$(uname -s)" in
    Linux) TARGET_TRIPLE="$(uname -m)-unknown-linux-gnu" ;;
    *) die "set TARGET_TRIPLE for $(uname -s)" ;;
  esac
fi
host_cpu() {
  # LLVM's name for this CPU: from llc if there is one, else clang, else gcc
  # (whose -march names mostly agree with LLVM's).
  local t
  for t in llc llc-21 llc-20 llc-19 llc-18 llc-17 llc-16 llc-15 llc-14; do
    if command -v "$t" >/dev/null; then
      "$t" --version | sed -n 's/.*Host CPU: *//p' | head -1
      return
    fi
  done
  if command -v clang >/dev/null; then
    clang -march=native -### -x c -c /dev/null 2>&1 |
      sed -n 's/.*"-target-cpu" "\([^"]*\)".*/\1/p' | head -1
    return
  fi
  "$CXX" -march=native -Q --help=target 2>/dev/null |
    awk '$1 == "-march=" { print $2; exit }'
}
CPU_FLAGS=(--target_triple "$TARGET_TRIPLE")
CXX_OPT="-O2"
case "$TARGET_CPU" in
  generic) ;;
  host)
    TARGET_CPU=$(host_cpu)
    [ -n "$TARGET_CPU" ] || die "cannot tell the host CPU; use --target-cpu"
    CPU_FLAGS+=(--target_cpu "$TARGET_CPU")
    CXX_OPT="-O2 -march=native"
    # The wheel's Eigen does not compile under GCC 12 with AVX-512 enabled
    # (AVX512/PacketMathFP16.h does not parse; the tensor contraction used
    # by the convolution runtime finds no gemm_pack_rhs for the AVX-512
    # packet), so the C++ side stays at AVX2/FMA.  The LLVM-generated code
    # still gets the full --target_cpu.
    case "$(uname -m)" in x86_64) CXX_OPT="$CXX_OPT -mno-avx512f" ;; esac ;;
  *) CPU_FLAGS+=(--target_cpu "$TARGET_CPU") ;;
esac
log "target: triple $TARGET_TRIPLE, cpu $TARGET_CPU; C++: $CXX $CXX_OPT"

# ---------------------------------------------------------------- work dir
if [ -z "$WORK" ]; then
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/xlac-bench-aot.XXXXXX")
  if [ "$KEEP" = 0 ]; then trap 'rm -rf "$WORK"' EXIT; fi
fi
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
log "work directory $WORK"

# ----------------------------------------------- runtime library (cached)
# The wheel ships the sources the generated code needs at run time
# (XlaCompiledCpuFunction, the Eigen dot/convolution/sort routines the
# thunks call, ...) but no compiled library: compile them once per flags.
CXX_BASE=(-std=c++17 -fPIC -D_GLIBCXX_USE_CXX11_ABI=1 -I"$TFP/include"
          -Wno-ignored-attributes -Wno-deprecated-copy -Wno-attributes
          -Wno-deprecated-declarations)
rt_key=$(printf '%s\n' "$TF_VERSION" "$CXX" "$($CXX --version | head -1)" "$CXX_OPT" |
         cksum | cut -d' ' -f1)
RT_DIR=$ENV_DIR/xla_aot_runtime/$rt_key
RT_LIB=$RT_DIR/libxla_aot_runtime.a
if [ ! -f "$RT_LIB" ]; then
  log "compiling the wheel's xla_aot_runtime_src ($CXX $CXX_OPT, -j$JOBS) into $RT_DIR"
  rm -rf "$RT_DIR"; mkdir -p "$RT_DIR/obj"
  (cd "$TFP/xla_aot_runtime_src" && find . -name '*.cc' | sed 's|^\./||' | sort) >"$RT_DIR/sources"
  export CXX RT_DIR
  export CXX_FLAGS_STR="${CXX_BASE[*]} $CXX_OPT"
  (cd "$TFP/xla_aot_runtime_src" &&
   xargs -P "$JOBS" -I{} sh -c 'o="$RT_DIR/obj/$(echo "$1" | tr / _).o"
       $CXX $CXX_FLAGS_STR -c "$1" -o "$o" 2>"$o.log" ||
       { cat "$o.log" >&2; echo "failed: $1" >&2; exit 255; }' _ {} \
   <"$RT_DIR/sources") || die "the runtime sources do not compile"
  ar rcs "$RT_LIB.tmp" "$RT_DIR"/obj/*.o && mv "$RT_LIB.tmp" "$RT_LIB"
fi
log "runtime library $RT_LIB ($(wc -l <"$RT_DIR/sources") sources)"

# ------------------------------------------------------ Abseil (cached)
ABSL_VER=$(sed -n 's/^#define ABSL_LTS_RELEASE_VERSION \([0-9]*\).*/\1/p' "$TFP/include/absl/base/config.h")
ABSL_PATCH=$(sed -n 's/^#define ABSL_LTS_RELEASE_PATCH_LEVEL \([0-9]*\).*/\1/p' "$TFP/include/absl/base/config.h")
ABSL_TAG=$ABSL_VER.$ABSL_PATCH
# What the generated code and the runtime sources call into (found by
# linking without Abseil; see the .undefined files).
ABSL_TARGETS="synchronization log_internal_message log_internal_check_op raw_hash_set hash status"
ABSL_BUILD=$ENV_DIR/absl-build-$ABSL_TAG
ABSL_LIBS=()
get_absl() {
  local src=${ABSL_SRC:-}
  if [ -z "$src" ]; then
    src=$ENV_DIR/abseil-cpp-$ABSL_TAG
    if [ ! -f "$src/CMakeLists.txt" ]; then
      log "downloading abseil-cpp $ABSL_TAG"
      local tgz=$ENV_DIR/abseil-cpp-$ABSL_TAG.tar.gz
      curl -fsSL --max-time 120 -o "$tgz.part" \
        "https://github.com/abseil/abseil-cpp/archive/refs/tags/$ABSL_TAG.tar.gz" &&
        mv "$tgz.part" "$tgz" || { rm -f "$tgz.part"; return 1; }
      mkdir -p "$src" && tar -xzf "$tgz" -C "$src" --strip-components=1 || return 1
    fi
  fi
  grep -q "ABSL_LTS_RELEASE_VERSION $ABSL_VER" "$src/absl/base/config.h" ||
    { echo "tfcompile.sh: $src is not abseil-cpp $ABSL_VER" >&2; return 1; }
  command -v cmake >/dev/null || { echo "tfcompile.sh: no cmake" >&2; return 1; }
  log "building Abseil $ABSL_TAG ($ABSL_TARGETS) in $ABSL_BUILD"
  cmake -S "$src" -B "$ABSL_BUILD" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER="$CXX" \
    -DCMAKE_CXX_STANDARD=17 -DABSL_PROPAGATE_CXX_STD=ON \
    -DABSL_BUILD_TESTING=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
    >"$ABSL_BUILD.log" 2>&1 &&
  cmake --build "$ABSL_BUILD" -j "$JOBS" --target $ABSL_TARGETS >>"$ABSL_BUILD.log" 2>&1 &&
  touch "$ABSL_BUILD/.done" || { tail -20 "$ABSL_BUILD.log" >&2; return 1; }
}
if [ -f "$ABSL_BUILD/.done" ] || get_absl; then
  mapfile -t ABSL_LIBS < <(find "$ABSL_BUILD" -name 'libabsl_*.a' | sort)
  LINK_ABSL=(-Wl,--start-group "${ABSL_LIBS[@]}" -Wl,--end-group -lpthread)
  LINK_KIND="standalone+absl-$ABSL_TAG"
  log "Abseil: ${#ABSL_LIBS[@]} static libraries from $ABSL_BUILD"
else
  LINK_ABSL=(-L"$TFP" -l:libtensorflow_framework.so.2 -Wl,-rpath,"$TFP")
  LINK_KIND="libtensorflow_framework.so.2"
  log "Abseil $ABSL_TAG not available: linking the wheel's libtensorflow_framework.so.2 for it"
fi

# ------------------------------------------------------------------ models
log "models.py -> $WORK"
"$PY" "$HERE/models.py" "$WORK" --only $ONLY 2>&1 | grep -v -e '^I0000' -e '^W0000' \
  -e '^E0000' -e 'absl::InitializeLog' -e '^To enable the following' || true
[ -f "$WORK/manifest.txt" ] || die "models.py wrote no manifest"

mkdir -p "$WORK/aot" "$WORK/bin" "$WORK/link"
undefined() { grep -o "undefined reference to \`[^']*'" "$1" | sed "s/^undefined reference to .//; s/'$//" | sort -u || true; }
summarize() {  # the undefined symbols of a failed link, by family
  local f=$1 n
  n=$(wc -l <"$f")
  [ "$n" = 0 ] && { echo "none"; return; }
  echo "$n: $(sed -e 's/^[^a-zA-Z_]*//; s/^\(const \|char const\* \|void \)//' \
    -e 's/^\(absl\)::lts_[0-9]*::\([A-Za-z_]*\).*/\1::\2/' \
    -e 's/^\(xla\|tensorflow\|tsl\|Eigen\)::\([A-Za-z_]*\).*/\1::\2/' \
    -e 's/(.*//' "$f" | sort | uniq -c | sort -rn | awk '{ printf "%s%s(%s)", (NR > 1 ? " " : ""), $2, $1 }')"
}

RESULTS=()
for name in $ONLY; do
  line=$(grep "^$name " "$WORK/manifest.txt") || die "$name is not in the manifest"
  # "tiny x:2x3,y:3x2 -> output_0:2x2"
  args=$(echo "$line" | awk '{print $2}')
  out_key=$(echo "$line" | awk '{print $4}' | cut -d: -f1)
  class=M_$name
  prefix=$WORK/aot/$name

  log "$name: saved_model_cli aot_compile_cpu"
  cmd=("$SMCLI" aot_compile_cpu --dir "$WORK/$name/saved_model" --tag_set serve
       --signature_def_key serving_default --output_prefix "$prefix"
       --cpp_class "bench_aot::$class" "${CPU_FLAGS[@]}")
  echo "${cmd[*]#$ENV_DIR/bin/}" | sed "s|$WORK/||g"
  t0=$(date +%s.%N)
  "${cmd[@]}" >"$prefix.log" 2>&1 || { tail -30 "$prefix.log"; die "$name: aot_compile_cpu failed"; }
  compile_s=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  ls -l "$prefix"* | awk '{print "   ", $5, $9}' | sed "s|$WORK/||"
  echo "    makefile.inc: $(grep -v '^$' "${prefix}_makefile.inc" | sed "s|$TFP|<tensorflow>|g" | tr '\n' ';')"

  # What makefile.inc asks for.
  INC=$(sed -n 's/^INC *= *//p' "${prefix}_makefile.inc")
  LIBF=$(sed -n 's/^LIB *= *//p' "${prefix}_makefile.inc")
  MKCXX=$(sed -n 's/^CXXFLAGS *= *//p' "${prefix}_makefile.inc")
  objs=("$prefix.o" "${prefix}_constants.o")
  [ -f "${prefix}_metadata.o" ] && objs+=("${prefix}_metadata.o")

  timer_o=$WORK/bin/timer_$name.o
  # shellcheck disable=SC2086
  $CXX "${CXX_BASE[@]}" $CXX_OPT $INC $MKCXX -I"$WORK/aot" \
    -DAOT_HEADER="\"$name.h\"" -DAOT_CLASS="bench_aot::$class" \
    -c "$HERE/timer.cc" -o "$timer_o" >"$timer_o.log" 2>&1 ||
    { cat "$timer_o.log" >&2; die "$name: timer.cc does not compile"; }

  exe=$WORK/bin/timer_$name
  try_link() {  # STEP OBJECTS-AND-LIBRARIES...: links $exe, or records why not
    local step=$1; shift
    # shellcheck disable=SC2086
    if $CXX -o "$exe" "$timer_o" "$@" $LIBF >"$WORK/link/$name.$step.log" 2>&1; then
      : >"$WORK/link/$name.$step.undefined"; return 0
    fi
    undefined "$WORK/link/$name.$step.log" >"$WORK/link/$name.$step.undefined"
    [ -s "$WORK/link/$name.$step.undefined" ] || cat "$WORK/link/$name.$step.log" >&2
    return 1
  }
  notes=()
  if try_link 1-makefile-inc "${objs[@]}"; then
    libs=()
    notes+=("makefile.inc-suffices")
  else
    echo "    link step 1 (makefile.inc only): undefined $(summarize "$WORK/link/$name.1-makefile-inc.undefined")"
    libs=("$RT_LIB")
    if try_link 2-runtime "${objs[@]}" "${libs[@]}"; then
      notes+=("+xla_aot_runtime_src")
    else
      echo "    link step 2 (+ runtime sources): undefined $(summarize "$WORK/link/$name.2-runtime.undefined")"
      libs+=("${LINK_ABSL[@]}")
      try_link 3-absl "${objs[@]}" "${libs[@]}" ||
        { cat "$WORK/link/$name.3-absl.log" >&2; die "$name: does not link even with $LINK_KIND"; }
      notes+=("+xla_aot_runtime_src" "+$LINK_KIND")
    fi
  fi
  # Is the metadata object (a serialized compilation result) needed at all?
  if [ -f "${prefix}_metadata.o" ]; then
    mv "$exe" "$exe.full"
    if try_link 4-no-metadata "$prefix.o" "${prefix}_constants.o" "${libs[@]}"; then
      notes+=("_metadata.o-unused")
      mv "$exe" "$exe.nometa"
    fi
    mv "$exe.full" "$exe"
  fi
  echo "    link: ${notes[*]}"

  feeds=()
  i=0
  for a in ${args//,/ }; do
    feeds+=("feed_${a%%:*}=$WORK/$name.in$i.bin")
    i=$((i + 1))
  done
  log "$name: timing (check against TensorFlow's output first)"
  "$exe" --result "fetch_$out_key" --batches "$BATCHES" --batch-ms "$BATCH_MS" \
    "$WORK/$name.out.bin" "${feeds[@]}" 2>&1 | tee "$WORK/bin/timer_$name.out" |
    grep -v -e '^I0000' -e '^W0000' -e 'absl::InitializeLog' || true
  tl=$(grep '^TIMER ' "$WORK/bin/timer_$name.out") || die "$name: the timer failed"
  get() { echo "$tl" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
  obj_bytes=$(stat -c %s "$prefix.o")
  obj_text=$(size "$prefix.o" | awk 'NR==2 {print $1}')
  const_bytes=$(stat -c %s "${prefix}_constants.o")
  const_rodata=$(size "${prefix}_constants.o" | awk 'NR==2 {print $1}')
  meta_bytes=$(stat -c %s "${prefix}_metadata.o" 2>/dev/null || echo 0)
  bin_bytes=$(stat -c %s "$exe")
  link_note=$(IFS=,; echo "${notes[*]}")
  RESULTS+=("RESULT tfcompile $name median_ns=$(get median_ns) min_ns=$(get min_ns) max_ns=$(get max_ns) obj_bytes=$obj_bytes obj_text=$obj_text const_bytes=$const_bytes const_rodata=$const_rodata meta_bytes=$meta_bytes bin_bytes=$bin_bytes compile_s=$compile_s max_abs_err=$(get check_max_abs_err) ok=$(get ok) target_cpu=$TARGET_CPU tf=$TF_VERSION link=$link_note")
done

echo
echo "tfcompile (saved_model_cli aot_compile_cpu, TensorFlow $TF_VERSION, target cpu $TARGET_CPU), one thread"
printf '%-6s %11s %11s %11s %9s %8s %11s %12s %10s  %s\n' model median_ns min_ns max_ns obj_bytes obj_text const_bytes const_rodata meta_bytes "link notes"
for r in "${RESULTS[@]}"; do
  f() { echo "$r" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
  printf '%-6s %11s %11s %11s %9s %8s %11s %12s %10s  %s\n' "$(echo "$r" | awk '{print $3}')" \
    "$(f median_ns)" "$(f min_ns)" "$(f max_ns)" "$(f obj_bytes)" "$(f obj_text)" \
    "$(f const_bytes)" "$(f const_rodata)" "$(f meta_bytes)" "$(f link | tr ',' ' ')"
done
echo
echo "HLO for xlac: $(for n in $ONLY; do printf '%s ' "$WORK/$n.hlo"; done)"
[ "$KEEP" = 1 ] || echo "(the work directory is removed on exit; --keep keeps it)"
echo
printf '%s\n' "${RESULTS[@]}"
