#!/usr/bin/env bash
# Runs the plugin's tests (test_plugin.py) with the PJRT library of the
# build whose xlac is first on PATH and the Python environment with jax
# that scripts/install-deps.sh prepares (XLAC_JAX_VENV, default
# ~/.cache/xlac-jax).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
venv=${XLAC_JAX_VENV:-$HOME/.cache/xlac-jax}
if [ ! -x "$venv/bin/python" ]; then
  echo "error: no Python environment with jax at $venv (run scripts/install-deps.sh)" >&2
  exit 1
fi
bin=$(dirname "$(command -v xlac)")
lib=${XLAC_PJRT_LIBRARY:-$bin/../lib/libxlac_pjrt.so}
if [ ! -f "$lib" ]; then
  # the sanitizer builds leave the plugin out (a sanitized library cannot
  # be loaded into python): the test harness reports 77 as skipped
  echo "skipped: $lib was not built (a build without the plugin; cmake -DXLAC_PJRT=ON)"
  exit 77
fi
export XLAC_PJRT_LIBRARY=$lib
export PYTHONPATH=$here/..${PYTHONPATH:+:$PYTHONPATH}
exec "$venv/bin/python" "$here/${1:-test_plugin.py}" "${@:2}"
