#!/usr/bin/env bash
# Runs a command as sim.sh does (on the simulator, or the SIMT harness
# under XLAC_TEST_GPU=simt:ORDER) with cuBLASLt replaced by the test
# library built from fake_cublaslt.c, which computes on the host and
# appends a line per cublasLtMatmul to LOG:
#
#   fake_blas.sh LOG CMD [ARGS...]
#
# XLAC_CUBLASLT, when set already, is left as it is (a test of the paths
# without the library names one that does not exist).
set -uo pipefail
log=$1
shift
bin=$(dirname "$(command -v xlac)")
export XLAC_CUBLASLT=${XLAC_CUBLASLT-$bin/../tests/libxlac_fake_cublaslt.so}
export XLAC_FAKE_CUBLASLT_LOG=$log
exec "$(dirname "$0")/sim.sh" "$@"
