import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { AUDIT_RETENTION_DAYS, matchesAudit, type AuditEntry, type AuditQuery } from '../../../domain/audit/audit';
import type { AuditLog } from '../../../domain/audit/ports';
import { pageOf, type Page, type PageRequest } from '../../../domain/pagination';
import { isConditionFailure } from './errors';
import { ttlOf } from './keys';
import { queryAll } from './queries';

/**
 * Item keys of the audit table (a table of its own, so that its grants can be append-only): one partition per
 * workspace, sorted by time and entry id.
 */
export const auditKeys = {
  partition: (workspaceId: string) => `AUDIT#${workspaceId}`,
  entry: (entry: Pick<AuditEntry, 'workspace_id' | 'at' | 'id'>) => ({ pk: `AUDIT#${entry.workspace_id}`, sk: `${entry.at}#${entry.id}` }),
} as const;

const DAY_MS = 86_400_000;

/**
 * The audit log in its DynamoDB table: entries put once each (a condition keeps a second delivery from
 * rewriting one), expired by the table's TTL {@link AUDIT_RETENTION_DAYS} days after they happened. It puts and
 * queries only: the functions' grants on the table allow nothing else.
 */
export class DynamoAuditLog implements AuditLog {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async append(entries: readonly AuditEntry[]): Promise<void> {
    await Promise.all(
      entries.map(async (entry) => {
        try {
          await this.db.send(
            new PutCommand({
              TableName: this.tableName,
              Item: { ...auditKeys.entry(entry), ...entry, ttl: ttlOf(new Date(Date.parse(entry.at) + AUDIT_RETENTION_DAYS * DAY_MS)) },
              ConditionExpression: 'attribute_not_exists(pk)',
            }),
          );
        } catch (error) {
          if (!isConditionFailure(error)) throw error;
        }
      }),
    );
  }

  /** Reads the time range newest first, filters, and answers the page (the range bounds what is read). */
  async list(workspaceId: string, query: AuditQuery, page: PageRequest): Promise<Page<AuditEntry>> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': auditKeys.partition(workspaceId), ':from': query.from ?? '0', ':to': `${query.to ?? '9'}#\uffff` },
      ScanIndexForward: false,
    });
    const entries = items.map(({ pk: _pk, sk: _sk, ttl: _ttl, ...entry }) => entry as unknown as AuditEntry).filter((entry) => matchesAudit(entry, query));
    const start = (page.page - 1) * page.perPage;
    return pageOf(entries.slice(start, start + page.perPage), page, entries.length);
  }
}
