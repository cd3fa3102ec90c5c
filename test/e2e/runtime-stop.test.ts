import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client';
import { startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process';
import { until } from '../support/until';

const ADMIN_PASSWORD = 'stop-admin-password';
/** A one-page scan that keeps the OCR worker busy for a moment. */
const SCAN = readFileSync(resolve(import.meta.dirname, '../../../shared/corpus/ocrmypdf/linn.png'));
/** Tests that start one or two runtimes (each a JVM) get room on a busy 2-core machine. */
const RUNTIME_TEST_TIMEOUT_MS = 180_000;

/** Warnings and errors (LOG_LEVEL=warn prints nothing else), refused connections and stack frames in `output`. */
const problemLines = (output: string): string[] =>
  output.split('\n').filter((line) => /\b(WARN|ERROR)\b|ECONNREFUSED|^\s+at\s/u.test(line));

/** A runtime that logs warnings and errors only, with the admin's password known. */
const startRuntime = (options: { dataDir?: string; processGroup?: boolean } = {}) =>
  startRuntimeProcess({ ...options, env: { ADMIN_PASSWORD, LOG_LEVEL: 'warn' } });

/** Whether a tesseract process that `pid` started is running: the runtime starts one when a page is first read. */
function tesseractOf(pid: number): boolean {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/u.test(entry))
    .some((entry) => {
      try {
        const [, command, parent] = /^\d+ \((.*)\) \S+ (\d+)/u.exec(readFileSync(`/proc/${entry}/stat`, 'utf8')) ?? [];
        return command === 'tesseract' && Number(parent) === pid;
      } catch {
        return false; // ended while looked at
      }
    });
}

/** Uploads the scan as the admin and waits until tesseract is reading it; answers the document's id. */
async function scanBeingRead(runtime: RuntimeProcess): Promise<string> {
  const admin = await new ApiClient(runtime.baseUrl).login('admin', ADMIN_PASSWORD);
  const id = await admin.uploadDocument('linn.png', SCAN);
  await until(() => tesseractOf(runtime.child.pid!), 60_000, 'tesseract to read the scan');
  return id;
}

describe('stopping the local runtime on SIGTERM', () => {
  it(
    'exits 0 and logs no warning or error once the stop has begun',
    async () => {
      const runtime = await startRuntime();
      try {
        await scanBeingRead(runtime);
        const before = runtime.output().length;

        const code = await runtime.stop();

        expect(code).toBe(0);
        expect(problemLines(runtime.output().slice(before))).toEqual([]);
      } finally {
        await runtime.stop();
      }
    },
    RUNTIME_TEST_TIMEOUT_MS,
  );

  it(
    'exits 0 and logs no warning or error when the signal reaches its whole process group, as Ctrl-C sends it',
    async () => {
      const runtime = await startRuntime({ processGroup: true });
      try {
        await scanBeingRead(runtime);
        const before = runtime.output().length;

        const code = await runtime.stop({ group: true });

        expect(code).toBe(0);
        expect(problemLines(runtime.output().slice(before))).toEqual([]);
      } finally {
        await runtime.stop({ group: true });
      }
    },
    RUNTIME_TEST_TIMEOUT_MS,
  );

  it(
    'does not fail the OCR of a scan that tesseract was reading when the process group got the signal',
    async () => {
      const first = await startRuntime({ processGroup: true });
      let id: string;
      try {
        id = await scanBeingRead(first);
      } finally {
        await first.stop({ group: true });
      }

      const second = await startRuntime({ dataDir: first.dataDir });
      try {
        const admin = await new ApiClient(second.baseUrl).login('admin', ADMIN_PASSWORD);
        let status: string | undefined;
        await until(
          async () => ['completed', 'failed'].includes((status = (await admin.get(`/api/documents/${id}`)).body.status)),
          90_000,
          'the OCR of the scan to end',
        );

        expect(status).toBe('completed');
      } finally {
        await second.stop();
      }
    },
    RUNTIME_TEST_TIMEOUT_MS,
  );
});
