/**
 * Workspace erasure (issue 37): how long erasing a workspace of 10,000 documents takes, step by step, on the
 * local emulators (DynamoDB Local, the S3 emulator, the SQLite index), and that it leaves nothing of it while a
 * second workspace of 1,000 documents stays whole.
 *
 * Seeds, through the real repositories and stores: each document's record with its OCR job (the document
 * repository's create), its original file in the bucket, and its index entry with a few words of text; the
 * workspace also gets a member and labels. Then runs the eraser's use case (`eraseWorkspace`) as the worker does,
 * timing each step, and scans the table, lists the bucket and reads the index afterwards.
 *
 * Usage: npx tsx bench/erasure.ts [--quick] [--documents=10000]
 * Results: bench/results/erasure.json (erasure.quick.json with --quick: 1,000 documents).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ListObjectsCommand } from '@aws-sdk/client-s3';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { createDynamoDocumentClient } from '../shared/adapters/aws/clients';
import { ensureBucket, ensureTable } from '../shared/adapters/aws/provisioning';
import { createS3Client } from '../shared/adapters/aws/s3/client';
import { S3FileStore } from '../shared/adapters/aws/s3/file-store';
import { S3WorkspaceEraser } from '../shared/adapters/aws/s3/workspace-eraser';
import { SqliteSearchIndex } from '../shared/adapters/local/sqlite-search-index';
import { requestGate } from '../shared/container/kit/request-gate';
import { passwordHasher } from '../shared/container/kit/serving';
import { workspaceTableStores } from '../shared/container/kit/workspace-data';
import { joseTokens } from '../shared/adapters/jwt/jose-token-service';
import { DynamoErasureRepository } from '../shared/adapters/aws/dynamodb/erasure-repository';
import { systemClock } from '../shared/domain/clock';
import { workspaceFileStore } from '../shared/domain/documents/bucket-layout';
import { commonEnvSchema, parseEnv } from '../shared/container/kit/config';
import { eraserDepsOf } from '../shared/container/kit/eraser';
import { localClientOptions } from '../shared/local/local-clients';
import { DynamoConnectionRepository } from '../shared/adapters/aws/dynamodb/connection-repository';
import { eraseWorkspace, type EraseWorkspaceDeps } from '../shared/domain/erasure/erase-workspace';
import { deleteOwnWorkspace } from '../shared/domain/erasure/request-erasure';
import type { Principal } from '../shared/domain/principal';
import type { IndexedDocument } from '../shared/domain/search/ports';
import { registerUser } from '../shared/domain/users/register';
import { startDynamoDbLocal } from '../shared/local/emulators/dynamodb-local';
import { startS3Emulator } from '../shared/local/emulators/s3-emulator';
import { aDocumentRecord } from '../test/support/builders';
import { round } from './support/stats';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const QUICK = process.argv.includes('--quick');
const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const DOCUMENTS = arg('documents', QUICK ? 1000 : 10_000);
const NEIGHBOUR_DOCUMENTS = Math.max(100, Math.round(DOCUMENTS / 10));
const TABLE = 'bench-erasure';
const BUCKET = 'bench-erasure';
/** Seeding writes this many documents at once. */
const SEED_CONCURRENCY = 16;

async function inParallel(count: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) await work(next++);
  }));
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-erasure-'));
  const [dynamodb, s3emulator] = await Promise.all([startDynamoDbLocal(), startS3Emulator({ directory: path.join(dir, 's3') })]);
  try {
    const db = createDynamoDocumentClient(localClientOptions(dynamodb.endpoint));
    const s3 = createS3Client(localClientOptions(s3emulator.endpoint));
    // A failing call names itself (the emulator answers a bare 500).
    s3.middlewareStack.add(
      (next, context) => async (args) => {
        try {
          return await next(args);
        } catch (error) {
          const input = args.input as { Prefix?: string; Delete?: { Objects?: unknown[] } };
          if (context.commandName === 'HeadBucketCommand') throw error;
          console.error(`S3 ${context.commandName} failed`, { prefix: input.Prefix, objects: input.Delete?.Objects?.length });
          throw error;
        }
      },
      { step: 'initialize', name: 'nameFailures' },
    );
    await ensureTable(db, TABLE);
    await ensureBucket(s3, BUCKET);
    const index = new SqliteSearchIndex(path.join(dir, 'index.sqlite'));
    const table = { db, name: TABLE };
    const env = parseEnv(commonEnvSchema, {});
    const gate = requestGate({ table, env, clock: systemClock, tokens: joseTokens(async () => new Uint8Array(64))({ issuer: env.JWT_ISSUER, audience: env.JWT_AUDIENCE, ttlSeconds: env.JWT_TTL_SECONDS, clock: systemClock }) });
    const stores = workspaceTableStores(table, systemClock, gate);
    const bucket = new S3FileStore(s3, BUCKET);
    const c = {
      ...gate,
      passwords: passwordHasher(env),
      registrationMode: env.REGISTRATION_MODE,
      connections: new DynamoConnectionRepository(db, TABLE, systemClock),
      // No WebSocket is open in the bench: nothing is sent or closed.
      connectionSender: { send: async () => 'gone' as const, close: async () => undefined },
      erasures: new DynamoErasureRepository(db, TABLE),
      erasureQueue: { enqueue: async () => {} },
      forWorkspace: (workspaceId: string) => ({ ...stores('documents')(workspaceId), files: workspaceFileStore(bucket, workspaceId) }),
    };

    const seed = async (tag: string, documents: number) => {
      const user = await registerUser(c, { username: `${tag}_${Date.now()}`, email: `${tag}-${Date.now()}@example.com`, password: 'bench-password-1' });
      const w = c.forWorkspace(user.workspace_id);
      const started = performance.now();
      const batch: IndexedDocument[] = [];
      await inParallel(documents, SEED_CONCURRENCY, async (i) => {
        const document = aDocumentRecord({ title: `${tag} document ${i}`, filename: `${tag}-${i}.pdf`, created_by: user.id, status: 'completed' });
        await w.documents.create(document);
        await w.files.put(`documents/${document.id}/original`, new TextEncoder().encode(`%PDF ${tag} ${i}`), 'application/pdf');
        batch.push({ ...document, version: 1, content: `${tag} invoice ${i} total ${i * 7}`, labels: [], metadata: {}, ocr_confidence: 1 });
      });
      index.forWorkspace(user.workspace_id).upsertMany(batch);
      const admin = { userId: user.id, username: user.username, email: user.email, role: 'admin', workspaceId: user.workspace_id, jti: 'bench', tokenExpiresAt: new Date() } as Principal;
      return { admin, workspaceId: user.workspace_id, name: (await c.workspaces.findById(user.workspace_id))!.name, seedSeconds: (performance.now() - started) / 1000 };
    };

    console.log(`seeding ${DOCUMENTS} documents (and ${NEIGHBOUR_DOCUMENTS} in a second workspace)...`);
    const gone = await seed('gone', DOCUMENTS);
    const kept = await seed('kept', NEIGHBOUR_DOCUMENTS);
    console.log(`seeded in ${round(gone.seedSeconds + kept.seedSeconds, 1)} s`);

    const steps: Record<string, number> = {};
    const deps = eraserDepsOf(c, { db, tableName: TABLE, objects: new S3WorkspaceEraser(s3, BUCKET, false), index: { erase: async (id) => index.eraseWorkspace(id) } });
    const timed = <T extends object>(name: string, target: T): T =>
      new Proxy(target, {
        get: (object, key) => {
          const value = Reflect.get(object, key) as unknown;
          if (typeof value !== 'function') return value;
          return async (...args: unknown[]) => {
            const started = performance.now();
            try {
              return await (value as (...a: unknown[]) => Promise<unknown>).apply(object, args);
            } finally {
              const label = `${name}.${String(key)}`;
              steps[label] = round((steps[label] ?? 0) + (performance.now() - started) / 1000, 2);
            }
          };
        },
      });
    const timedDeps: EraseWorkspaceDeps = { ...deps, table: timed('table', deps.table), objects: timed('bucket', deps.objects), index: timed('index', deps.index), connections: timed('connections', deps.connections) };

    await deleteOwnWorkspace(c, gone.admin, gone.name);
    const started = performance.now();
    await eraseWorkspace(timedDeps, gone.workspaceId);
    const seconds = (performance.now() - started) / 1000;
    const erasure = await c.erasures.find(gone.workspaceId);
    console.log(`erased in ${round(seconds, 1)} s; checking what is left...`);

    // What is left: a scan of the whole table, a listing of the whole bucket, the index's own answer.
    const items: Record<string, unknown>[] = [];
    let cursor: Record<string, unknown> | undefined;
    do {
      const page = await db.send(new ScanCommand({ TableName: TABLE, ExclusiveStartKey: cursor }));
      items.push(...(page.Items ?? []));
      cursor = page.LastEvaluatedKey;
    } while (cursor);
    const mentions = (id: string) => items.filter((item) => JSON.stringify(item).includes(id));
    const leftItems = mentions(gone.workspaceId).filter((item) => !String(item['pk']).startsWith(`WS#${gone.workspaceId}#USAGE`) && !['ERASURE', 'WORKSPACE'].some((p) => String(item['pk']).startsWith(`${p}#`)));
    // Listed with the first version's markers: the S3 emulator cannot make a V2 continuation token on Node 22.
    const keys: string[] = [];
    for (let after: string | undefined, truncated = true; truncated; ) {
      const page = await s3.send(new ListObjectsCommand({ Bucket: BUCKET, ...(after ? { Marker: after } : {}) }));
      const listed = (page.Contents ?? []).map((object) => object.Key!);
      keys.push(...listed);
      after = listed.at(-1);
      truncated = page.IsTruncated === true && after !== undefined;
    }
    const keptDocuments = (await index.forWorkspace(kept.workspaceId).search({ query: { kind: 'term', field: 'all', value: 'invoice' }, filters: {}, fuzzy: false, highlight: false, sort: [{ field: 'relevance', order: 'desc' }], page: 1, perPage: 1 })).total;
    const goneDocuments = (await index.forWorkspace(gone.workspaceId).search({ query: { kind: 'term', field: 'all', value: 'invoice' }, filters: {}, fuzzy: false, highlight: false, sort: [{ field: 'relevance', order: 'desc' }], page: 1, perPage: 1 })).total;

    const result = {
      bench: 'erasure',
      at: new Date().toISOString(),
      machine: { cpus: os.cpus().length, load: os.loadavg().map((l) => round(l, 2)) },
      documents: DOCUMENTS,
      seconds: round(seconds, 1),
      documents_per_second: round(DOCUMENTS / seconds, 0),
      counts: erasure?.counts,
      steps_seconds: steps,
      left: {
        table_items: leftItems.length,
        objects: keys.filter((key) => key.includes(gone.workspaceId)).length,
        index_documents: goneDocuments,
      },
      neighbour: {
        documents: NEIGHBOUR_DOCUMENTS,
        table_items: mentions(kept.workspaceId).length,
        objects: keys.filter((key) => key.includes(kept.workspaceId)).length,
        index_documents: keptDocuments,
      },
    };
    console.log(JSON.stringify(result, null, 2));
    const resultsFile = path.join(REPO_ROOT, 'bench', 'results', `erasure${QUICK ? '.quick' : ''}.json`);
    await mkdir(path.dirname(resultsFile), { recursive: true });
    await writeFile(resultsFile, `${JSON.stringify(result, null, 2)}\n`);
    index.close();
  } finally {
    await Promise.allSettled([dynamodb.stop(), s3emulator.stop()]);
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
