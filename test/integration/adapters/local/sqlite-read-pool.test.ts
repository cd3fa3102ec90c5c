import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteReadPool } from '../../../../shared/adapters/local/sqlite-read-pool';

describe('SqliteReadPool', () => {
  const cleanups: (() => Promise<void>)[] = [];

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function databaseWith(values: number[]): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), 'read-pool-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'db.sqlite');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (v INTEGER)');
    for (const value of values) db.prepare('INSERT INTO t (v) VALUES (?)').run(value);
    db.close();
    return file;
  }

  it('runs each statement on its own reader and returns the rows in order', async () => {
    // Arrange
    const pool = new SqliteReadPool(await databaseWith([1, 2, 3, 4]), 2);
    cleanups.push(() => pool.close());

    // Act
    const rows = await pool.allOnEach<{ v: number }>([
      { sql: 'SELECT v FROM t WHERE v <= ? ORDER BY v', params: [2] },
      { sql: 'SELECT v FROM t WHERE v > ? ORDER BY v', params: [2] },
    ]);

    // Assert
    expect(rows).toEqual([[{ v: 1 }, { v: 2 }], [{ v: 3 }, { v: 4 }]]);
  });

  it('reports a statement error without losing the reader', async () => {
    // Arrange
    const pool = new SqliteReadPool(await databaseWith([1]), 1);
    cleanups.push(() => pool.close());

    // Act
    const failed = pool.allOnEach([{ sql: 'SELECT nope FROM t', params: [] }]);

    // Assert
    await expect(failed).rejects.toThrow(/no such column/);
    await expect(pool.allOnEach([{ sql: 'SELECT v FROM t', params: [] }])).resolves.toEqual([[{ v: 1 }]]);
    expect(pool.usable).toBe(true);
  });

  it('turns unusable and rejects what waits when a reader cannot open the file', async () => {
    // Arrange
    const pool = new SqliteReadPool(path.join(tmpdir(), 'no-such-dir', 'missing.sqlite'), 1);
    cleanups.push(() => pool.close());

    // Act
    const failed = pool.allOnEach([{ sql: 'SELECT 1', params: [] }]);

    // Assert
    await expect(failed).rejects.toThrow();
    expect(pool.usable).toBe(false);
  });
});
