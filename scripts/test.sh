#!/usr/bin/env bash
# Runs the whole test suite: typecheck, lint, then unit, integration, infra and e2e tests.
set -euo pipefail
cd "$(dirname "$0")/.."
# The SDK warns that it will need Node 22 from 2027; the Lambdas run Node 22, the local machine Node 20.
export AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true
bash scripts/ensure-deps.sh
npm run --silent typecheck
npm run --silent lint
npx vitest run "$@"
