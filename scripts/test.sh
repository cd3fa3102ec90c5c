#!/usr/bin/env bash
# Runs the whole test suite: typecheck, lint, then unit, integration, infra and e2e tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
npm run --silent typecheck
npm run --silent lint
npx vitest run "$@"
