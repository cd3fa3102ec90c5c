import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

let outdir: string | undefined;

/**
 * One folder for the cloud assemblies the infra tests synthesize (each App its own inside it), removed when the
 * run ends: an App given no outdir makes a temporary folder of its own and leaves it behind.
 */
export async function setup(project: TestProject): Promise<void> {
  outdir = await mkdtemp(join(tmpdir(), 'infra-cdk-out-'));
  project.provide('infraCdkOut', outdir);
}

export async function teardown(): Promise<void> {
  if (outdir) await rm(outdir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    infraCdkOut: string;
  }
}
