#!/usr/bin/env bash
# JAX over several processes on xlac (test_multiprocess.py): the reference
# values from one process on JAX's CPU backend, then the same programs on
# xlac in several processes, each calling jax.distributed.initialize():
#   multiprocess.sh tcp   started the way JAX's own launchers do (a
#                         coordinator address, a process id each),
#                         collectives over TCP: 2 processes x 2 devices
#                         and 4 x 2;
#   multiprocess.sh mpi   under mpirun (scripts/mpirun.sh), collectives
#                         over MPI: one device each in 2 and 4 processes
#                         (xlac's MPI communicator), and 2 x 2 devices
#                         (the devices of a process meet in memory, one
#                         crosses) (skipped, 77, where there is no mpirun
#                         or the plugin was built without MPI).
set -eu
transport=${1:?usage: multiprocess.sh tcp|mpi}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
venv=${XLAC_JAX_VENV:-$HOME/.cache/xlac-jax}
bin=$(dirname "$(command -v xlac)")
lib=${XLAC_PJRT_LIBRARY:-$bin/../lib/libxlac_pjrt.so}
if [ ! -f "$lib" ]; then
  echo "skipped: $lib was not built (a build without the plugin)"
  exit 77
fi
if [ "$transport" = mpi ] && ! command -v mpirun >/dev/null; then
  echo "skipped: no mpirun (apt-get install openmpi-bin libopenmpi-dev)"
  exit 77
fi
if [ "$transport" = mpi ] && [ ! -f "$(dirname "$lib")/libxlac_pjrt_mpi.so" ]; then
  echo "skipped: $(dirname "$lib")/libxlac_pjrt_mpi.so was not built (CMake found no MPI)"
  exit 77
fi
if [ ! -x "$venv/bin/python" ]; then
  echo "error: no Python environment with jax at $venv (run scripts/install-deps.sh)" >&2
  exit 1
fi
tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"' EXIT
export XLAC_PJRT_LIBRARY=$lib
export PYTHONPATH=$here/..:$here${PYTHONPATH:+:$PYTHONPATH}
"$venv/bin/python" "$here/test_multiprocess.py" ref "$tmp/ref.json"
# the CPU backend beside xlac: JAX runs host callbacks' operands through it
export JAX_PLATFORMS=xlac,cpu
ncases=10
status=0

# what rank r of a run printed: its cases, then whether it passed them all
report() { # run-name rank stdout stderr
  grep -E '^(PASS|FAIL)|losses|devices of' "$3" | sed "s/^/$1 process $2: /" || true
  if ! grep -q "^$ncases passed, 0 failed" "$3"; then
    echo "FAIL: $1 process $2 did not pass everything (its output follows)"
    tail -n 30 "$3" "$4"
    status=1
  fi
}

# over TCP, started as JAX's launchers start processes
[ "$transport" = tcp ] && for shape in 2x2 4x2; do
  np=${shape%x*} per=${shape#*x}
  echo "== $np processes x $per devices, TCP"
  port=$((20000 + RANDOM % 20000))
  pids=()
  for ((r = 0; r < np; r++)); do
    XLAC_DEVICES=$per XLAC_TEST_COORDINATOR=localhost:$port XLAC_TEST_NUM_PROCESSES=$np XLAC_TEST_PROCESS_ID=$r \
      timeout 600 "$venv/bin/python" "$here/test_multiprocess.py" check "$tmp/ref.json" \
      > "$tmp/tcp$shape.$r.out" 2> "$tmp/tcp$shape.$r.err" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p" || status=1; done
  pids=()
  for ((r = 0; r < np; r++)); do report "tcp $shape" "$r" "$tmp/tcp$shape.$r.out" "$tmp/tcp$shape.$r.err"; done
done

[ "$transport" = tcp ] && exit $status
# over MPI, under mpirun (each rank's output in a file of its own:
# mpirun interleaves what the ranks print)
cat > "$tmp/rank.sh" <<EOS
#!/usr/bin/env bash
export XLAC_DEVICES=\${XLAC_DEVICES:-1}
exec "$venv/bin/python" "\$@"
EOS
chmod +x "$tmp/rank.sh"
for np in 2 4; do
  echo "== $np processes, MPI"
  timeout 600 "$root/scripts/mpirun.sh" -np "$np" --output-filename "$tmp/mpi$np" "$tmp/rank.sh" \
    "$here/test_multiprocess.py" check "$tmp/ref.json" > /dev/null 2>&1 || status=1
  for ((r = 0; r < np; r++)); do
    report "mpi $np" "$r" "$tmp/mpi$np/1/rank.$r/stdout" "$tmp/mpi$np/1/rank.$r/stderr"
  done
done
# under mpirun with two devices each: the devices of a process meet in
# memory, and one of them crosses to the other processes, still over MPI
echo "== 2 processes x 2 devices under mpirun (MPI)"
XLAC_DEVICES=2 timeout 600 "$root/scripts/mpirun.sh" -np 2 --output-filename "$tmp/mpi2x2" "$tmp/rank.sh" \
  "$here/test_multiprocess.py" check "$tmp/ref.json" > /dev/null 2>&1 || status=1
for r in 0 1; do
  report "mpirun 2x2" "$r" "$tmp/mpi2x2/1/rank.$r/stdout" "$tmp/mpi2x2/1/rank.$r/stderr"
  if ! grep -q "2 processes over MPI" "$tmp/mpi2x2/1/rank.$r/stdout"; then
    echo "FAIL: mpirun 2x2 process $r did not meet the other over MPI"
    status=1
  fi
done
exit $status
