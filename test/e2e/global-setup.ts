import { writeFile } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import { removeMadeDataDirs, startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process';

export const E2E_ADMIN = { username: 'root-admin', password: 'e2e-admin-password' };

/** A second plan of the suite's runtime (no limit, like its default), for the operator to move a workspace to. */
export const E2E_SECOND_PLAN = 'second';
const UNLIMITED = Object.fromEntries(['documents_stored', 'bytes_stored', 'ocr_pages_per_month', 'sources', 'members', 'api_tokens'].map((quota) => [quota, 'unlimited']));

/** The runtime's WebSocket auth timeout in the e2e suite. */
export const E2E_WS_AUTH_TIMEOUT_SECONDS = 2;

let runtime: RuntimeProcess | undefined;

/** One local runtime for the e2e suite, started like the README's start command, on a free port. */
export async function setup(project: TestProject): Promise<void> {
  runtime = await startRuntimeProcess({
    // A short WebSocket auth timeout, so that the test of it waits seconds rather than the default ten.
    env: {
      ADMIN_USERNAME: E2E_ADMIN.username,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      WS_AUTH_TIMEOUT_SECONDS: String(E2E_WS_AUTH_TIMEOUT_SECONDS),
      // The sources suite stops its WebDAV server mid-sync: a short timeout keeps it quick.
      SOURCE_REQUEST_TIMEOUT_SECONDS: '3',
      // A render limit no loaded machine reaches: past it a file is refused for good, and the suites render real
      // scans. Renders stopped by their limit are tested on a runtime of their own (test/e2e/hostile-files.test.ts).
      THUMBNAIL_TIMEOUT_SECONDS: '60',
      PLANS: JSON.stringify({ default: UNLIMITED, [E2E_SECOND_PLAN]: UNLIMITED }),
      DEFAULT_PLAN: 'default',
    },
  });
  project.provide('baseUrl', runtime.baseUrl);
}

export async function teardown(): Promise<void> {
  await runtime?.stop();
  // What the runtime logged, for a failed run to be read after it (E2E_RUNTIME_LOG names the file).
  if (process.env['E2E_RUNTIME_LOG'] && runtime) await writeFile(process.env['E2E_RUNTIME_LOG'], runtime.output());
  await removeMadeDataDirs();
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    awsEndpoints: { dynamodb: string; s3: string; sqs: string };
  }
}
