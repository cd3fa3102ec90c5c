import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RuleRepository } from '../../../domain/rules/ports';
import { byOrder, type Rule, type RuleApplyJob, type RuleChanges } from '../../../domain/rules/rule';
import { deleteCounted, putCounted } from './counted-items';
import { isConditionFailure } from './errors';
import { dataKeys, withoutKeys, type DataKeys } from './keys';
import { queryAll } from './queries';

type Item = Record<string, unknown>;

const ruleOf = (item: Item): Rule => {
  const { apply_cursor: _cursor, apply, ...rule } = withoutKeys<Rule & { apply_cursor?: string | null }>(item);
  return { ...rule, apply: apply ?? null };
};

/**
 * A workspace's rules in one partition (`WS#<ws>#RULES`, `RULE#<id>`): a list is one strongly consistent query.
 * The count item beside them (`COUNT`) moves in the same transaction as each create and delete and bounds how
 * many there are. A run over existing documents is kept on its rule (`apply`, and `apply_cursor`: where the
 * run stands, never shown), so its progress is read with the rule.
 */
export class DynamoRuleRepository implements RuleRepository {
  private readonly keys: DataKeys;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    workspaceId: string,
  ) {
    this.keys = dataKeys(workspaceId);
  }

  /** Two creates at once meet on the count: the loser's transaction is sent again (see putCounted). */
  create(rule: Rule, limit: number): Promise<'created' | 'limit'> {
    const item = { ...this.keys.rule(rule.id), ...rule };
    return putCounted(this.db, { tableName: this.tableName, countKey: this.keys.ruleCount, item, limit, what: 'rule' });
  }

  async get(id: string): Promise<Rule | null> {
    const item = await this.raw(id);
    return item ? ruleOf(item) : null;
  }

  async list(): Promise<Rule[]> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :rule)',
      ExpressionAttributeValues: { ':pk': this.keys.rulesPartition, ':rule': 'RULE#' },
      ConsistentRead: true,
    });
    return items.map(ruleOf).sort(byOrder);
  }

  async update(id: string, changes: RuleChanges, updatedAt: string): Promise<Rule | null> {
    const set = Object.entries(changes).filter(([, value]) => value !== undefined);
    const names = Object.fromEntries(set.map(([field], i) => [`#f${i}`, field]));
    const values = Object.fromEntries(set.map(([, value], i) => [`:v${i}`, value]));
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.keys.rule(id),
          UpdateExpression: `SET ${[...set.map((_, i) => `#f${i} = :v${i}`), 'updated_at = :now'].join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: Object.keys(names).length ? names : undefined,
          ExpressionAttributeValues: { ...values, ':now': updatedAt },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? ruleOf(Attributes) : null;
    } catch (error) {
      if (isConditionFailure(error)) return null;
      throw error;
    }
  }

  delete(id: string): Promise<boolean> {
    return deleteCounted(this.db, { tableName: this.tableName, key: this.keys.rule(id), countKey: this.keys.ruleCount });
  }

  async startApply(id: string, job: RuleApplyJob): Promise<Rule | null | 'busy'> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.keys.rule(id),
          UpdateExpression: 'SET apply = :job, apply_cursor = :start',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(apply) OR apply = :none OR NOT apply.#state IN (:queued, :running))',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':job': job, ':start': null, ':none': null, ':queued': 'queued', ':running': 'running' },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? ruleOf(Attributes) : null;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return (await this.raw(id)) ? 'busy' : null;
    }
  }

  async applyProgress(id: string): Promise<{ job: RuleApplyJob; cursor: string | null } | null> {
    const item = await this.raw(id);
    const job = item?.['apply'] as RuleApplyJob | null | undefined;
    return job ? { job, cursor: (item!['apply_cursor'] as string | null | undefined) ?? null } : null;
  }

  async recordStep(id: string, jobId: string, from: { cursor: string | null; processed: number }, next: { job: RuleApplyJob; cursor: string | null }): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.keys.rule(id),
          UpdateExpression: 'SET apply = :job, apply_cursor = :next',
          ConditionExpression: 'apply.job_id = :id AND apply_cursor = :from AND apply.#processed = :processed AND apply.#state IN (:queued, :running)',
          ExpressionAttributeNames: { '#state': 'state', '#processed': 'processed' },
          ExpressionAttributeValues: {
            ':job': next.job,
            ':next': next.cursor,
            ':id': jobId,
            ':from': from.cursor,
            ':processed': from.processed,
            ':queued': 'queued',
            ':running': 'running',
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  private async raw(id: string): Promise<Item | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.keys.rule(id), ConsistentRead: true }));
    return Item;
  }
}
