#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to a running demo:
# installs what is missing, builds build/bin/xlac, and runs the demo model.
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
make
scripts/demo.sh
