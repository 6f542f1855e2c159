#!/usr/bin/env bash
# Runs a command against GPGPU-Sim's CUDA driver API (a simulator that runs
# PTX on the CPU), for GPU tests on machines without a GPU.
#
#   sim.sh --check        exit 0 when the simulator can run, else 77
#   sim.sh CMD [ARGS...]  run CMD with XLAC_CUDA_DRIVER pointing at it
#
# With XLAC_TEST_GPU=simt:ORDER (tests/run-tests.sh sets it for the files
# marked XLAC-SIMT) the command runs on xlac's own SIMT harness instead
# (src/gpu/simt.c: the kernels' LLVM IR compiled for the host, each GPU
# thread a fiber, resumed in ORDER), which needs nothing installed.
#
# The simulator is looked for in $XLAC_GPGPUSIM_DIR, else next to the
# repository at ../shared/tools/gpgpu-sim.  Exit status 77 (the test
# harness's "skipped", with the last line as the reason) when it or its
# ptxas (fetched from PyPI by its setup.sh once, then cached) is missing.
# The simulator reads its configuration from the working directory, so CMD
# runs in a temporary one (pass absolute paths); it logs a lot on stdout,
# which is thinned out here (FileCheck ignores what is left).
set -uo pipefail
root=$(cd "$(dirname "$0")/../../../.." && pwd)
sim=${XLAC_GPGPUSIM_DIR:-$root/../shared/tools/gpgpu-sim}
skip() {
  echo "skipped: $*"
  exit 77
}
case "${XLAC_TEST_GPU:-}" in
simt*)
  [ "${1:-}" = --check ] && exit 0
  if [ "${1:-}" != --ptxas ]; then
    export XLAC_CUDA_DRIVER=$XLAC_TEST_GPU
    exec "$@"
  fi
  ;;
esac
[ -x "$sim/setup.sh" ] && [ -f "$sim/lib/libcudart.so" ] ||
  skip "no GPGPU-Sim at $sim (set XLAC_GPGPUSIM_DIR)"
env_text=$("$sim/setup.sh" 2>/dev/null) || skip "GPGPU-Sim's setup.sh failed (it fetches ptxas from PyPI once)"
eval "$env_text"
[ -x "${CUDA_INSTALL_PATH:-}/bin/ptxas" ] || skip "GPGPU-Sim has no ptxas"
[ "${1:-}" = --check ] && exit 0
[ "${1:-}" = --ptxas ] && { echo "$CUDA_INSTALL_PATH/bin/ptxas"; exit 0; }
work=$(mktemp -d "${TMPDIR:-/tmp}/xlac-gpgpusim.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$GPGPUSIM_CONFIG_DIR"/* "$work"/
export XLAC_CUDA_DRIVER=$GPGPUSIM_LIBCUDA
# under the sanitizer build (make asan), what the simulator's own library
# never frees is its business, not a leak of ours
printf 'leak:%s\n' "$(basename "$GPGPUSIM_LIBCUDA")" >"$work/lsan.supp"
export LSAN_OPTIONS="suppressions=$work/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# The simulated device says sm_86, but its PTX parser lacks instructions
# LLVM uses from sm_80 on (max.NaN.f32: it crashes); sm_75 PTX avoids them.
export XLAC_GPU_ARCH=${XLAC_GPU_ARCH:-sm_75}
# its unimplemented entry points print a warning without a newline, which
# would glue itself to the next line of ours
(cd "$work" && "$@") |
  sed -e 's/WARNING: this function has not been implemented yet\.//g' |
  grep -a -v -E '^(GPGPU-Sim|-[a-zA-Z_]|gpgpu_|addr_dec_mask|[[:space:]]*$)'
status=${PIPESTATUS[0]}
exit "$status"
