#!/usr/bin/env bash
# Runs the whole test suite: typecheck, lint, then unit, integration, infra, bundles and e2e tests (every
# project of vitest.config.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
# The SDK warns that it will need Node 22 from 2027; the Lambdas run Node 22, the local machine Node 20.
export AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true
bash scripts/ensure-deps.sh
npm run --silent typecheck
npm run --silent lint

report="$(mktemp -t vitest-report.XXXXXX.json)"
trap 'rm -f "$report"' EXIT
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@" || status=$?
# A plain closing line that any CI reader understands, whatever the runner prints above it.
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed` + (r.numPendingTests ? `, ${r.numPendingTests} skipped` : ""));
' "$report" 2>/dev/null || true
exit "$status"
