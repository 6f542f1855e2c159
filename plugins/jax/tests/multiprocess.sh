#!/usr/bin/env bash
# JAX over several processes on xlac (test_multiprocess.py): the reference
# values from one process on JAX's CPU backend, then the same programs on
# xlac in 2 and in 4 processes under mpirun (scripts/mpirun.sh), each
# process with jax.distributed.initialize() and one xlac device.  Skipped
# (77) where there is no mpirun or the plugin was built without MPI.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
venv=${XLAC_JAX_VENV:-$HOME/.cache/xlac-jax}
bin=$(dirname "$(command -v xlac)")
lib=${XLAC_PJRT_LIBRARY:-$bin/../lib/libxlac_pjrt.so}
if [ ! -f "$lib" ]; then
  echo "skipped: $lib was not built (a build without the plugin)"
  exit 77
fi
if ! command -v mpirun >/dev/null; then
  echo "skipped: no mpirun (apt-get install openmpi-bin libopenmpi-dev)"
  exit 77
fi
if [ ! -f "$(dirname "$lib")/libxlac_pjrt_mpi.so" ]; then
  echo "skipped: $(dirname "$lib")/libxlac_pjrt_mpi.so was not built (CMake found no MPI)"
  exit 77
fi
if [ ! -x "$venv/bin/python" ]; then
  echo "error: no Python environment with jax at $venv (run scripts/install-deps.sh)" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XLAC_PJRT_LIBRARY=$lib
export PYTHONPATH=$here/..:$here${PYTHONPATH:+:$PYTHONPATH}
"$venv/bin/python" "$here/test_multiprocess.py" ref "$tmp/ref.json"
# each rank: the plugin only (JAX_PLATFORMS), one device (XLAC_DEVICES)
cat > "$tmp/rank.sh" <<EOS
#!/usr/bin/env bash
export JAX_PLATFORMS=xlac XLAC_DEVICES=\${XLAC_DEVICES:-1}
exec "$venv/bin/python" "\$@"
EOS
chmod +x "$tmp/rank.sh"
# (each rank's output in a file of its own: mpirun interleaves what the
# ranks print)
status=0
for np in 2 4; do
  echo "== $np processes"
  "$root/scripts/mpirun.sh" -np "$np" --output-filename "$tmp/out$np" "$tmp/rank.sh" "$here/test_multiprocess.py" \
    check "$tmp/ref.json" > /dev/null 2>&1 || status=1
  for ((r = 0; r < np; r++)); do
    out="$tmp/out$np/1/rank.$r/stdout"
    grep -E '^(PASS|FAIL)|losses' "$out" | sed "s/^/rank $r: /" || true
    if ! grep -q '^8 passed, 0 failed' "$out"; then
      echo "FAIL: rank $r of $np did not pass everything (its output follows)"
      tail -30 "$out" "$tmp/out$np/1/rank.$r/stderr"
      status=1
    fi
  done
done
# two devices in each process are refused with a message, not a crash
cat > "$tmp/two.py" <<'EOS'
import jax
jax.distributed.initialize()
try:
    jax.devices()
    print("FAIL: two devices per process were accepted")
except RuntimeError as e:
    print("refused:", "one device per process" in str(e), str(e)[:200])
EOS
XLAC_DEVICES=2 "$root/scripts/mpirun.sh" -np 2 --output-filename "$tmp/two" "$tmp/rank.sh" "$tmp/two.py" \
  > /dev/null 2>&1 || true
if [ "$(cat "$tmp"/two/1/rank.*/stdout | grep -c '^refused: True')" = 2 ]; then
  echo "PASS 2 devices in each of 2 processes: refused with a message"
else
  echo "FAIL 2 devices in each of 2 processes:"
  tail -20 "$tmp"/two/1/rank.*/std*
  status=1
fi
exit $status
