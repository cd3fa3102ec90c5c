import type Database from 'better-sqlite3';
import type { DocumentQuery } from '../../domain/documents/ports';
import { LISTING_ORDER, type SqlValue } from './sqlite-search-query';

/**
 * A filtered or sorted listing of one workspace's documents from the documents table of the index (no
 * full-text work): the page's ids and the total. Null for a source filter, which the index does not hold.
 * `slot` is the workspace's (undefined: it has nothing in the index).
 */
export function listIndexedDocuments(db: Database.Database, slot: number | undefined, query: DocumentQuery): { ids: string[]; total: number } | null {
  if (query.sourceId) return null;
  if (slot === undefined) return { ids: [], total: 0 };
  const parts: string[] = ['d.slot = ?', 'd.deleted = 0'];
  const params: SqlValue[] = [slot];
  if (query.status) {
    parts.push('d.status = ?');
    params.push(query.status);
  }
  for (const label of new Set(query.labelIds ?? [])) {
    parts.push('EXISTS (SELECT 1 FROM json_each(d.label_ids) WHERE value = ?)');
    params.push(label);
  }
  if (query.createdFrom) {
    parts.push('d.created_at >= ?');
    params.push(query.createdFrom);
  }
  if (query.createdTo) {
    parts.push('d.created_at <= ?');
    params.push(query.createdTo);
  }
  const where = parts.join(' AND ');
  const direction = query.order === 'asc' ? 'ASC' : 'DESC';
  const { total } = db.prepare(`SELECT count(*) AS total FROM docs AS d WHERE ${where}`).get(...params) as { total: number };
  const rows = db
    .prepare(`SELECT d.id FROM docs AS d WHERE ${where} ORDER BY ${LISTING_ORDER[query.sort]} ${direction}, d.id ${direction} LIMIT ? OFFSET ?`)
    .all(...params, query.perPage, (query.page - 1) * query.perPage) as { id: string }[];
  return { ids: rows.map((row) => row.id), total };
}
