import { describe, expect, it } from 'vitest';
import type { Page, PageRequest } from '../../../../shared/domain/pagination';
import { pageOf } from '../../../../shared/domain/pagination';
import { auditTrailOf, type AuditPages } from '../../../../shared/domain/portability/audit-trail';

/** An audit log of `count` entries per workspace, listing pages as the audit area does, and the pages asked for. */
const auditLog = (count: Record<string, number>) => {
  const asked: { workspaceId: string; page: PageRequest }[] = [];
  const list: AuditPages = async (workspaceId, _query, page): Promise<Page<object>> => {
    asked.push({ workspaceId, page });
    const total = count[workspaceId] ?? 0;
    const start = (page.page - 1) * page.perPage;
    const data = Array.from({ length: Math.max(0, Math.min(page.perPage, total - start)) }, (_, i) => ({ id: `${workspaceId}-${start + i}` }));
    return pageOf(data, page, total);
  };
  return { list, asked };
};

const readAll = async (records: AsyncIterable<Record<string, unknown>>) => {
  const read: Record<string, unknown>[] = [];
  for await (const record of records) read.push(record);
  return read;
};

describe('auditTrailOf', () => {
  it("reads every entry of the workspace's log, across pages, in the log's order", async () => {
    // Arrange
    const { list } = auditLog({ acme: 250 });

    // Act
    const records = await readAll(auditTrailOf(list, 'acme').records());

    // Assert
    expect(records).toHaveLength(250);
    expect(records.map((record) => record['id'])).toEqual(Array.from({ length: 250 }, (_, i) => `acme-${i}`));
  });

  it('asks pages of 100 until the log says there is no next one', async () => {
    // Arrange
    const { list, asked } = auditLog({ acme: 250 });

    // Act
    await readAll(auditTrailOf(list, 'acme').records());

    // Assert
    expect(asked.map(({ page }) => page)).toEqual([
      { page: 1, perPage: 100 },
      { page: 2, perPage: 100 },
      { page: 3, perPage: 100 },
    ]);
  });

  it("asks only the named workspace's log", async () => {
    // Arrange
    const { list, asked } = auditLog({ acme: 3, other: 5 });

    // Act
    const records = await readAll(auditTrailOf(list, 'acme').records());

    // Assert
    expect(records).toHaveLength(3);
    expect(new Set(asked.map(({ workspaceId }) => workspaceId))).toEqual(new Set(['acme']));
  });

  it('reads nothing from an empty log, after one page', async () => {
    // Arrange
    const { list, asked } = auditLog({});

    // Act
    const records = await readAll(auditTrailOf(list, 'acme').records());

    // Assert
    expect(records).toEqual([]);
    expect(asked).toHaveLength(1);
  });
});
