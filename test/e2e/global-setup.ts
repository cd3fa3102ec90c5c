import type { TestProject } from 'vitest/node';
import { startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process';

export const E2E_ADMIN = { username: 'root-admin', password: 'e2e-admin-password' };

let runtime: RuntimeProcess | undefined;

/** One local runtime for the e2e suite, started like the README's start command, on a free port. */
export async function setup(project: TestProject): Promise<void> {
  runtime = await startRuntimeProcess({
    env: { ADMIN_USERNAME: E2E_ADMIN.username, ADMIN_PASSWORD: E2E_ADMIN.password },
  });
  project.provide('baseUrl', runtime.baseUrl);
}

export async function teardown(): Promise<void> {
  await runtime?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    awsEndpoints: { dynamodb: string; s3: string; sqs: string };
  }
}
