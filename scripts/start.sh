#!/usr/bin/env bash
# Starts the service locally on PORT (default 8080) with its data under DATA_DIR (default ./.data).
set -euo pipefail
cd "$(dirname "$0")/.."
# Node 22 first (fetched when the machine's node is older), so that all below runs on it.
source scripts/ensure-node.sh
bash scripts/ensure-deps.sh
exec node --import tsx bin/local.ts "$@"
