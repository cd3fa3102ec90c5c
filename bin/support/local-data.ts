/**
 * The local runtime's data under DATA_DIR, opened by a command while the runtime is stopped: DynamoDB Local (and
 * the S3 emulator where a command reads files) started on DATA_DIR's files the way the runtime starts them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClientOptions } from '../../shared/adapters/aws/clients';
import { LOCAL_REGION, localClientOptions, type LocalCredentials } from '../../shared/local/local-clients';
import { databaseFileName, startDynamoDbLocal, type RunningEmulator } from '../../shared/local/emulators/dynamodb-local';
import { startS3Emulator } from '../../shared/local/emulators/s3-emulator';
import { processArgs } from '../../shared/local/emulators/processes';
import { dynamoDbCredentials, RESOURCE_NAMES } from '../../shared/local/local-resources';
import { CommandError } from './cli';

/** What a command reaches of a local deployment while it holds it. */
export interface LocalData {
  dataDir: string;
  tableName: string;
  /** The runtime's private DynamoDB Local database. */
  dynamodb: ClientOptions;
  bucketName: string;
  /** The S3 emulator on DATA_DIR/s3, when the command asked for files. */
  s3: ClientOptions | null;
  /** The SQLite file of the local search index. */
  searchIndexPath: string;
}

/**
 * Runs `work` against the local runtime's data under `dataDir`, the runtime stopped: it starts DynamoDB Local on
 * DATA_DIR's database (and with `files` the S3 emulator on DATA_DIR's objects) and stops them after. Refuses, as a
 * {@link CommandError}, a DATA_DIR the runtime never started on and one that a running process holds: the runtime
 * is the only writer of its data (it remembers users, revocations and connections in memory and keeps the search
 * index open), and starting DynamoDB Local on its files would stop the runtime's own as a leftover.
 */
export async function withLocalData<T>(dataDir: string, options: { files: boolean }, work: (data: LocalData) => Promise<T>): Promise<T> {
  const dbPath = join(dataDir, 'dynamodb');
  const credentials = await checkLocalData(dataDir);
  const started: RunningEmulator[] = [];
  try {
    // Both starts are waited for before a failure is thrown, so that the finally below stops whichever started.
    const [dynamodb, s3] = await Promise.allSettled([
      startEmulator('DynamoDB Local', () => startDynamoDbLocal({ dbPath })),
      options.files ? startEmulator('the S3 emulator', () => startS3Emulator({ directory: join(dataDir, 's3'), uploadsBucket: RESOURCE_NAMES.bucket })) : null,
    ]);
    for (const outcome of [dynamodb, s3]) if (outcome.status === 'fulfilled' && outcome.value) started.push(outcome.value);
    if (dynamodb.status === 'rejected') throw dynamodb.reason;
    if (s3.status === 'rejected') throw s3.reason;
    return await work({
      dataDir,
      tableName: RESOURCE_NAMES.table,
      dynamodb: localClientOptions(dynamodb.value.endpoint, credentials),
      bucketName: RESOURCE_NAMES.bucket,
      s3: s3.value ? localClientOptions(s3.value.endpoint) : null,
      searchIndexPath: join(dataDir, 'search', 'index.sqlite'),
    });
  } finally {
    await Promise.allSettled(started.reverse().map((emulator) => emulator.stop()));
  }
}

/**
 * Checks that {@link withLocalData} can open `dataDir` (data of the runtime's, and no process holding it) and
 * answers its database's credentials: a command checks before it asks for input, so as not to ask in vain.
 */
export async function checkLocalData(dataDir: string): Promise<LocalCredentials> {
  const dbPath = join(dataDir, 'dynamodb');
  refuseWhenInUse(dataDir, dbPath);
  // The access key id is read, never made here: a DATA_DIR without it holds nothing of the runtime's.
  const keyFile = join(dataDir, 'secrets', 'dynamodb-access-key-id');
  const keyId = existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : null;
  if (!keyId || !existsSync(join(dbPath, databaseFileName(keyId, LOCAL_REGION)))) {
    throw new CommandError(`DATA_DIR ${dataDir} holds no data of the local runtime: start the runtime on it once (npm start), then stop it`);
  }
  return dynamoDbCredentials(dataDir);
}

async function startEmulator(name: string, start: () => Promise<RunningEmulator>): Promise<RunningEmulator> {
  try {
    return await start();
  } catch (error) {
    throw new CommandError(`${name} did not start: ${(error as Error).message.split('\n')[0]}`);
  }
}

/**
 * Refuses a DATA_DIR whose DynamoDB Local a living process runs (the runtime, or another command). One whose
 * parent is gone (a crash where the kernel could not end it) is left to `startDynamoDbLocal`, which stops it as
 * the runtime's start does. Reads /proc: elsewhere there is nothing to read and nothing is refused.
 */
function refuseWhenInUse(dataDir: string, dbPath: string): void {
  for (const [pid, argv] of processArgs()) {
    const isDatabase = argv.some((arg) => arg.endsWith('DynamoDBLocal.jar')) && argv.some((arg, i) => arg === '-dbPath' && argv[i + 1] === dbPath);
    if (!isDatabase) continue;
    const parent = parentOf(pid);
    if (parent === null || parent <= 1) continue;
    const owner = commandLineOf(parent);
    const who = owner.some((arg) => arg.endsWith('bin/local.ts')) ? `the local runtime (pid ${parent})` : `process ${parent} (${owner.join(' ').slice(0, 80)})`;
    throw new CommandError(`DATA_DIR ${dataDir} is in use by ${who}: stop it, then run this again`);
  }
}

function commandLineOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').filter(Boolean);
  } catch {
    // Ended while we looked, or not ours to read.
    return [];
  }
}

/** The parent's pid from /proc/<pid>/stat, whose second field (the name) may hold spaces and parentheses. */
function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isSafeInteger(parent) ? parent : null;
  } catch {
    return null;
  }
}
