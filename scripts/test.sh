#!/usr/bin/env bash
# Runs the whole test suite: typecheck, lint, then unit, integration, infra, bundles and e2e tests (every
# project of vitest.config.ts).
#
# Two vitest runs side by side: vitest runs the projects that take one file at a time (bundles, e2e: each file
# starts processes of its own) after those that run files in parallel (unit, integration, infra), so in one run
# the second core would idle through most of the e2e suite. The parallel run's output follows the other's.
# Arguments (a file filter, --project ...) run one vitest instead, as given.
set -euo pipefail
cd "$(dirname "$0")/.."
# Node 22 first (fetched when the machine's node is older), so that all below runs on it.
source scripts/ensure-node.sh
bash scripts/ensure-deps.sh
npm run --silent typecheck
npm run --silent lint

work="$(mktemp -d -t vitest-run.XXXXXX)"
trap 'rm -rf "$work"' EXIT

run_vitest() { # <report file> [vitest arguments...]
  local report="$1"
  shift
  npx vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@"
}

status=0
if [ "$#" -gt 0 ]; then
  run_vitest "$work/all.json" "$@" || status=$?
else
  run_vitest "$work/parallel.json" --project unit --project integration --project infra > "$work/parallel.log" 2>&1 &
  parallel_pid=$!
  run_vitest "$work/sequential.json" --project bundles --project e2e || status=$?
  wait "$parallel_pid" || status=$?
  echo
  echo "== unit, integration and infra (run beside the above) =="
  cat "$work/parallel.log"
fi
# A plain closing line that any CI reader understands, whatever the runner prints above it.
node -e '
  const fs = require("fs");
  const reports = process.argv.slice(1).filter((file) => fs.existsSync(file)).map((file) => JSON.parse(fs.readFileSync(file, "utf8")));
  const sum = (key) => reports.reduce((total, r) => total + (r[key] ?? 0), 0);
  const skipped = sum("numPendingTests");
  // A file whose worker process died reports no failed test: name every file that did not pass.
  const unfinished = reports.flatMap((r) => r.testResults ?? []).filter((file) => file.status !== "passed");
  for (const file of unfinished) console.log(`did not pass: ${file.name.replace(process.cwd() + "/", "")} (${file.status}${file.message ? ": " + file.message.split("\n")[0] : ""})`);
  console.log(`${sum("numPassedTests")} passed, ${sum("numFailedTests")} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "$work/all.json" "$work/parallel.json" "$work/sequential.json" 2>/dev/null || true
exit "$status"
