import { defineConfig } from 'vitest/config';

/**
 * Five projects, one command. unit: pure code, no I/O. integration: adapters against DynamoDB Local and the
 * emulators (started once by the global setup). infra: CDK assertions. bundles: the Lambda assets `cdk synth`
 * writes, run like Lambda against the emulators. e2e: the local runtime as a process, driven over HTTP like a
 * client.
 */
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/integration/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 90_000,
        },
      },
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          globalSetup: ['test/infra/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The functions as `cdk synth` bundles them, run like Lambda against the emulators (one synth per run).
        test: {
          name: 'bundles',
          include: ['test/bundles/**/*.test.ts'],
          globalSetup: ['test/bundles/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          setupFiles: ['test/e2e/remove-data-dirs.ts'],
          // A test may start two runtimes in turn, which a loaded machine makes slow.
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // One runtime for the files of a run (global setup), one file at a time: files count its connections
          // and its OCR queue. scripts/test.sh runs the files in shards side by side, each with its own runtime.
          fileParallelism: false,
        },
      },
    ],
  },
});
