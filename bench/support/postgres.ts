/**
 * PostgreSQL full-text search beside the embedded index (bench/search.ts): Debian's PostgreSQL (installed when
 * missing), a temporary cluster on loopback started and removed by the bench, and the schema a DBA would build
 * for a multi-tenant document search with every feature the local index has:
 * - a weighted `tsvector` (title A, filename B, labels and metadata C, content D) stored in the row, with a GIN
 *   index on (workspace_id, tsv) through `btree_gin`: one index scan per query, bounded to the workspace;
 * - substrings (`contains`): a `pg_trgm` GIN index on (workspace_id, the text) for ILIKE '%value%';
 * - typos: each workspace's distinct lexemes (from `ts_stat`) with a `pg_trgm` index, a query word widened to
 *   its similar lexemes;
 * - one statement per search: the page by `ts_rank_cd`, the total, the facets and `ts_headline` highlights.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import pg from 'pg';
import type { IndexedDocument } from '../../shared/domain/search/ports';

const PG_ROOT = '/usr/lib/postgresql';

/** The newest installed PostgreSQL's bin directory, after installing Debian's package when there is none. */
function binDir(): string {
  const find = () =>
    existsSync(PG_ROOT)
      ? readdirSync(PG_ROOT)
          .filter((version) => existsSync(path.join(PG_ROOT, version, 'bin', 'initdb')))
          .sort((a, b) => Number(b) - Number(a))[0]
      : undefined;
  let version = find();
  if (!version) {
    if (process.getuid?.() !== 0) throw new Error('PostgreSQL is not installed: apt-get install postgresql (as root), then run the bench again');
    console.log('installing PostgreSQL (apt-get install postgresql)');
    execFileSync('flock', ['/tmp/apt.lock', 'sh', '-c', 'apt-get install -y postgresql || (apt-get update && apt-get install -y postgresql)'], { stdio: 'inherit' });
    version = find();
    if (!version) throw new Error('apt-get install postgresql left no initdb under /usr/lib/postgresql');
  }
  return path.join(PG_ROOT, version, 'bin');
}

/** The cluster refuses to run as root: as root, its commands run as the `postgres` user Debian's package made. */
function run(bin: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const result = spawnSync(asRoot ? 'runuser' : bin, asRoot ? ['-u', 'postgres', '--', bin, ...args] : args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${path.basename(bin)} failed: ${result.stderr || result.stdout}`);
}

export interface TempCluster {
  client: pg.Client;
  version: string;
  stop(): Promise<void>;
}

/** A fresh cluster in a temporary directory, listening on 127.0.0.1 only, with a client connected to it. */
export async function startTempCluster(): Promise<TempCluster> {
  const bin = binDir();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-pg-'));
  if (process.getuid?.() === 0) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
  const data = path.join(dir, 'data');
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  run(path.join(bin, 'initdb'), ['-D', data, '-U', 'bench', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  // A tuned single-user server: memory for the sorts and the index builds, no fsync wait per commit.
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses='127.0.0.1'",
    '-c shared_buffers=512MB',
    '-c work_mem=64MB',
    '-c maintenance_work_mem=512MB',
    '-c synchronous_commit=off',
    '-c max_wal_size=4GB',
    '-c jit=off',
  ].join(' ');
  run(path.join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'bench', database: 'postgres' });
  await client.connect();
  const version = ((await client.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version ?? '?').split(' ')[0]!;
  return {
    client,
    version,
    stop: async () => {
      await client.end();
      run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The concatenated text `contains` searches (the trigram index is on this very expression). */
const ALL_TEXT = `(title || ' ' || filename || ' ' || content || ' ' || labels || ' ' || metadata)`;

export const POSTGRES_SCHEMA = `
CREATE EXTENSION IF NOT EXISTS btree_gin;
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE TABLE docs (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL,
  title text NOT NULL,
  filename text NOT NULL,
  content text NOT NULL,
  labels text NOT NULL,
  metadata text NOT NULL,
  mime_type text NOT NULL,
  status text NOT NULL,
  ocr_confidence real,
  size bigint NOT NULL,
  created_at timestamptz NOT NULL,
  label_ids text[] NOT NULL,
  tsv tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', filename), 'B') ||
    setweight(to_tsvector('english', labels || ' ' || metadata), 'C') || setweight(to_tsvector('english', content), 'D')
  ) STORED
);
CREATE TABLE words (workspace_id uuid NOT NULL, word text NOT NULL, PRIMARY KEY (workspace_id, word));
`;

/** Built after the load (as a DBA bulk-loads: one index build instead of row-by-row index maintenance); one statement each. */
export const POSTGRES_INDEXES = [
  'CREATE INDEX docs_search ON docs USING gin (workspace_id, tsv)',
  `CREATE INDEX docs_substring ON docs USING gin (workspace_id, ${ALL_TEXT} gin_trgm_ops)`,
  `INSERT INTO words (workspace_id, word)
     SELECT w.workspace_id, s.word FROM (SELECT DISTINCT workspace_id FROM docs) AS w,
       LATERAL ts_stat(format('SELECT tsv FROM docs WHERE workspace_id = %L', w.workspace_id)) AS s`,
  'CREATE INDEX words_trigram ON words USING gin (workspace_id, word gin_trgm_ops)',
  'VACUUM ANALYZE',
];

/** Loads a batch of one workspace's documents (one transaction, one multi-row INSERT: what COPY costs, near enough). */
export async function loadBatch(client: pg.Client, workspaceId: string, documents: IndexedDocument[]): Promise<void> {
  if (!documents.length) return;
  const columns = 12;
  const values: unknown[] = [];
  const rows = documents.map((d, i) => {
    values.push(
      d.id,
      workspaceId,
      d.title,
      d.filename,
      d.content,
      d.labels.map((label) => label.name).join('\n'),
      Object.values(d.metadata).filter((value) => value !== null).join('\n'),
      d.mime_type,
      d.status,
      d.ocr_confidence,
      d.size,
      d.created_at,
    );
    const at = i * columns;
    return `(${Array.from({ length: columns }, (_, c) => `$${at + c + 1}`).join(', ')}, $${documents.length * columns + i + 1})`;
  });
  values.push(...documents.map((d) => d.labels.map((label) => label.id)));
  await client.query(
    `INSERT INTO docs (id, workspace_id, title, filename, content, labels, metadata, mime_type, status, ocr_confidence, size, created_at, label_ids) VALUES ${rows.join(', ')}`,
    values,
  );
}

/** Bytes of the search's tables with their indexes and TOAST. */
export async function postgresBytes(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ bytes: string }>(`SELECT pg_total_relation_size('docs') + pg_total_relation_size('words') AS bytes`);
  return Number(rows[0]!.bytes);
}

export type PostgresKind = 'one-word' | 'two-word' | 'phrase' | 'prefix' | 'fuzzy' | 'contains';

/** The tsquery of a kind: the english configuration, as the tsvector; a prefix unstemmed ('simple'). */
function tsquery(kind: PostgresKind): string {
  switch (kind) {
    case 'one-word':
    case 'two-word':
      return `plainto_tsquery('english', $2)`;
    case 'phrase':
      return `phraseto_tsquery('english', $2)`;
    case 'prefix':
      return `to_tsquery('simple', $2 || ':*')`;
    case 'fuzzy':
      // The word, OR its similar lexemes of the workspace (trigram similarity, the closest 20).
      return `(plainto_tsquery('english', $2) || coalesce((SELECT to_tsquery('simple', string_agg(quote_literal(word), ' | '))
        FROM (SELECT word FROM words WHERE workspace_id = $1 AND word % $2 ORDER BY word <-> $2 LIMIT 20) AS near), ''::tsquery))`;
    case 'contains':
      throw new Error('contains has no tsquery');
  }
}

/** One search as one statement: the page (20, by rank), the total, the facets and highlights of the page. */
export function postgresSearchSql(kind: PostgresKind): string {
  const matches =
    kind === 'contains'
      ? `SELECT d.id, d.title, d.mime_type, d.label_ids, 0::real AS rank FROM docs AS d WHERE d.workspace_id = $1 AND ${ALL_TEXT} ILIKE '%' || $2 || '%'`
      : `SELECT d.id, d.title, d.mime_type, d.label_ids, ts_rank_cd('{0.1, 0.2, 0.4, 1.0}', d.tsv, q.q) AS rank FROM docs AS d, q
         WHERE d.workspace_id = $1 AND d.tsv @@ q.q`;
  const headline =
    kind === 'contains'
      ? `substring(d.content from greatest(1, strpos(lower(d.content), lower($2)) - 80) for 200)`
      : `ts_headline('english', d.content, q.q, 'MaxFragments=1, MaxWords=24, MinWords=8')`;
  return `
    WITH q AS (SELECT ${kind === 'contains' ? 'NULL::tsquery' : tsquery(kind)} AS q),
    m AS (${matches}),
    p AS (SELECT * FROM m ORDER BY rank DESC, id LIMIT 20)
    SELECT (SELECT count(*) FROM m) AS total,
      (SELECT json_object_agg(mime_type, n) FROM (SELECT mime_type, count(*) AS n FROM m GROUP BY 1) AS f) AS mime_types,
      (SELECT json_object_agg(l, n) FROM (SELECT unnest(label_ids) AS l, count(*) AS n FROM m GROUP BY 1) AS g) AS labels,
      (SELECT json_agg(json_build_object('id', p.id, 'title', p.title, 'score', p.rank, 'highlight', ${headline}) ORDER BY p.rank DESC, p.id)
         FROM p JOIN docs AS d ON d.id = p.id, q) AS hits`;
}
