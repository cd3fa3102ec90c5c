#!/usr/bin/env bash
# Starts the service locally on PORT (default 8080) with its data under DATA_DIR (default ./.data).
set -euo pipefail
cd "$(dirname "$0")/.."
# The SDK warns that it will need Node 22 from 2027; the Lambdas run Node 22, the local machine Node 20.
export AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true
bash scripts/ensure-deps.sh
exec node --import tsx bin/local.ts "$@"
