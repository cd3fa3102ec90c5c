#!/usr/bin/env bash
# Runs the whole test suite: typecheck, lint, then unit, integration, infra, bundles and e2e tests (every
# project of vitest.config.ts).
#
# The typecheck and the lint run side by side (each is one process on one core). Then several vitest processes
# side by side, so that the cores stay busy while tests wait on processes, sockets and queues, and so that no
# project's global setup holds up another's files (a vitest runs every global setup before its first file):
#   - unit, integration and infra, TEST_WORKERS files at a time (vitest's own default leaves one core idle, which
#     on two cores means one file at a time);
#   - bundles, one file at a time (one synth, shared emulators);
#   - the e2e files in E2E_SHARDS shards (vitest --shard), each its own vitest process with its own local runtime
#     (test/e2e/global-setup.ts), files one at a time within a shard.
# The first e2e shard's output is shown as it runs, the others' after it. Arguments (a file filter,
# --project ...) run one vitest instead, as given.
set -euo pipefail
cd "$(dirname "$0")/.."
# Node 22 first (fetched when the machine's node is older), so that all below runs on it.
source scripts/ensure-node.sh
bash scripts/ensure-deps.sh

work="$(mktemp -d -t vitest-run.XXXXXX)"
trap 'rm -rf "$work"' EXIT

# Typecheck and lint side by side; each one's output whole, in this order.
npm run --silent typecheck > "$work/typecheck.log" 2>&1 &
typecheck_pid=$!
npm run --silent lint > "$work/lint.log" 2>&1 &
lint_pid=$!
checks=0
wait "$typecheck_pid" || checks=$?
cat "$work/typecheck.log"
wait "$lint_pid" || checks=$?
cat "$work/lint.log"
if [ "$checks" -ne 0 ]; then exit "$checks"; fi

run_vitest() { # <report file> [vitest arguments...]
  local report="$1"
  shift
  npx vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@"
}

status=0
if [ "$#" -gt 0 ]; then
  run_vitest "$work/all.json" "$@" || status=$?
else
  cores="$(nproc 2>/dev/null || echo 2)"
  workers="${TEST_WORKERS:-$((cores > 2 ? cores : 2))}"
  shards="${E2E_SHARDS:-2}"
  pids=()
  run_vitest "$work/parallel.json" --project unit --project integration --project infra --maxWorkers="$workers" \
    > "$work/parallel.log" 2>&1 &
  pids+=($!)
  run_vitest "$work/bundles.json" --project bundles > "$work/bundles.log" 2>&1 &
  pids+=($!)
  for shard in $(seq 2 "$shards"); do
    run_vitest "$work/e2e-$shard.json" --project e2e --shard="$shard/$shards" --passWithNoTests > "$work/e2e-$shard.log" 2>&1 &
    pids+=($!)
  done
  run_vitest "$work/e2e-1.json" --project e2e --shard="1/$shards" --passWithNoTests || status=$?
  for pid in "${pids[@]}"; do wait "$pid" || status=$?; done
  for shard in $(seq 2 "$shards"); do
    echo
    echo "== e2e, shard $shard of $shards (run beside the above) =="
    cat "$work/e2e-$shard.log"
  done
  echo
  echo "== bundles (run beside the above) =="
  cat "$work/bundles.log"
  echo
  echo "== unit, integration and infra (run beside the above) =="
  cat "$work/parallel.log"
fi
# TEST_REPORTS_DIR keeps each vitest's JSON report (per-file durations) and log, for CI to archive.
if [ -n "${TEST_REPORTS_DIR:-}" ]; then
  mkdir -p "$TEST_REPORTS_DIR"
  cp "$work"/*.json "$work"/*.log "$TEST_REPORTS_DIR"/ 2>/dev/null || true
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
' "$work"/*.json 2>/dev/null || true
exit "$status"
