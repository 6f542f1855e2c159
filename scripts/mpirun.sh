#!/usr/bin/env bash
# Runs an MPI program on this machine the way the tests and benchmarks do:
#
#   scripts/mpirun.sh -np 4 PROGRAM [ARGS...]
#
# Open MPI's mpirun with what a small machine or a container needs: more
# ranks than cores (--oversubscribe, and no binding to cores), running as
# root when root runs it, and shared memory between the ranks (btl
# self,vader).  Large messages are copied straight between the processes
# (process_vm_readv) where the kernel allows it -- with CAP_SYS_PTRACE, or
# without a seccomp filter or Yama restriction -- and through shared-memory
# fragments otherwise.  XLAC_MPIRUN_FLAGS adds flags (word-split).
set -eu
if ! command -v mpirun >/dev/null; then
  echo "mpirun.sh: mpirun not found (apt-get install openmpi-bin libopenmpi-dev)" >&2
  exit 127
fi
flags=(--oversubscribe --bind-to none --mca btl self,vader)
[ "$(id -u)" -eq 0 ] && flags+=(--allow-run-as-root)

cap_eff=$(awk '/^CapEff:/ {print $2}' /proc/self/status 2>/dev/null || echo 0)
seccomp=$(awk '/^Seccomp:/ {print $2}' /proc/self/status 2>/dev/null || echo 0)
yama=$(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null || echo 0)
cma=0
if [ $(( 0x${cap_eff:-0} >> 19 & 1 )) -eq 1 ]; then
  cma=1  # CAP_SYS_PTRACE
elif [ "${seccomp:-0}" = 0 ] && [ "${yama:-0}" = 0 ]; then
  cma=1
fi
[ "$cma" -eq 1 ] || flags+=(--mca btl_vader_single_copy_mechanism none)

# Under AddressSanitizer (make asan) the ranks keep its checks but not its
# leak report: Open MPI does not free what MPI_Init allocated (its plugins
# are unloaded by then, so the leaks cannot even be named for a
# suppression).  xlac's own leak freedom is checked by the in-process tests.
if [ -n "${ASAN_OPTIONS:-}" ]; then
  export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"
fi

# shellcheck disable=SC2086
exec mpirun "${flags[@]}" ${XLAC_MPIRUN_FLAGS:-} "$@"
