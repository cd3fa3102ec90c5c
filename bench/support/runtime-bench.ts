/**
 * The harness of the benches that measure requests against a local runtime process (bench/login.ts,
 * bench/ratelimit.ts): a runtime on a DATA_DIR of its own, removed after the run and on Ctrl-C; the machine's load
 * before and after; the report written to `bench/results/<name>[.quick].json`. And the latency helpers they share.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startRuntimeProcess, type RuntimeProcess } from '../../test/support/runtime-process';
import { percentile, round } from './stats';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** `--quick` on the command line: fewer samples, and a report of its own. */
export const QUICK = process.argv.includes('--quick');

export interface Latency {
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  meanMs: number;
  samples: number;
}

/** Percentiles and mean of durations in ms, rounded to `digits`. */
export const latencySummary = (values: readonly number[], digits: number): Latency => ({
  p50Ms: round(percentile(values, 50), digits),
  p95Ms: round(percentile(values, 95), digits),
  p99Ms: round(percentile(values, 99), digits),
  meanMs: round(values.reduce((sum, value) => sum + value, 0) / values.length, digits),
  samples: values.length,
});

/** How long `call` takes, in ms. */
export async function timed(call: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await call();
  return performance.now() - started;
}

const execFileAsync = promisify(execFile);

/** The endpoint of the runtime's DynamoDB Local, from the `-port` argument of its java child process. */
export async function dynamoDbEndpoint(runtimePid: number): Promise<string> {
  const { stdout } = await execFileAsync('ps', ['--ppid', String(runtimePid), '-o', 'pid=,args=']);
  const line = stdout.split('\n').find((entry) => entry.includes('DynamoDBLocal.jar'));
  const port = line && /\s-port\s+(\d+)/.exec(line)?.[1];
  if (!port) throw new Error(`no DynamoDB Local child of process ${runtimePid}:\n${stdout}`);
  return `http://127.0.0.1:${port}`;
}

/**
 * Starts a runtime with `env`, runs `measure` against it, prints `table(result)` and the machine's load, and writes
 * the report (`report` and the result, with the time, the machine and its load). The runtime's last output is
 * printed when `measure` fails.
 */
export async function benchAgainstRuntime<R extends object>(options: {
  name: string;
  env: Record<string, string>;
  /** What the progress line says is measured, e.g. "5 warm-up, 100 samples per series". */
  describe: string;
  measure(runtime: RuntimeProcess): Promise<R>;
  table(result: R): string;
  report: Record<string, unknown>;
}): Promise<void> {
  const resultsFile = path.join(REPO_ROOT, 'bench', 'results', `${options.name}${QUICK ? '.quick' : ''}.json`);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `bench-${options.name}-`));
  let runtime: RuntimeProcess | undefined;
  const interrupted = () => void cleanUp().finally(() => process.exit(130));
  const cleanUp = async () => {
    await runtime?.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    process.stderr.write('starting the local runtime...\n');
    runtime = await startRuntimeProcess({ dataDir, env: options.env });
    const started = runtime;
    const loadBefore = os.loadavg().map((load) => round(load, 2));
    process.stderr.write(`measuring (${options.describe})...\n`);
    const result = await options.measure(started).catch((error: unknown) => {
      const exit = started.child.exitCode ?? started.child.signalCode ?? 'still running';
      process.stderr.write(`runtime (${exit}), last output:\n${started.output().slice(-4000)}\n`);
      throw error;
    });
    const loadAfter = os.loadavg().map((load) => round(load, 2));
    console.log(options.table(result));
    console.log(
      `Machine: ${os.cpus().length} cores, ${process.platform}-${process.arch}, Node ${process.version}; ` +
        `load average (1, 5, 15 min) ${loadBefore.join(', ')} before, ${loadAfter.join(', ')} after.`,
    );
    await mkdir(path.dirname(resultsFile), { recursive: true });
    const report = {
      measuredAt: new Date().toISOString(),
      machine: { node: process.version, platform: `${process.platform}-${process.arch}`, cores: os.cpus().length },
      loadAverage: { before: loadBefore, after: loadAfter },
      quick: QUICK,
      ...options.report,
      ...result,
    };
    await writeFile(resultsFile, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`Written: ${path.relative(REPO_ROOT, resultsFile)}`);
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await cleanUp();
  }
}
