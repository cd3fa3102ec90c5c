import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Clock } from '../../../domain/clock';
import type { PendingLogin, PendingLoginStore } from '../../../domain/sso/ports';
import { isConditionFailure } from './errors';
import { keys, ttlOf, withoutKeys } from './keys';

/**
 * Pending SSO logins (`OIDCLOGIN#<state> / PENDING`), removed by the table's TTL once they expired. Taking one
 * is a conditional delete that returns the item, so of two callbacks with one state only one gets it.
 */
export class DynamoOidcLoginStore implements PendingLoginStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async save(login: PendingLogin): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...keys.oidcLogin(login.state), ...login, ttl: ttlOf(new Date(login.expires_at)) },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async take(state: string): Promise<PendingLogin | null> {
    try {
      const { Attributes } = await this.db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: keys.oidcLogin(state),
          ConditionExpression: 'attribute_exists(pk)',
          ReturnValues: 'ALL_OLD',
        }),
      );
      if (!Attributes) return null;
      const login = withoutKeys<PendingLogin>(Attributes);
      // TTL deletion lags by up to days: an expired login is gone as far as callers are concerned.
      return new Date(login.expires_at) > this.clock.now() ? login : null;
    } catch (error) {
      if (isConditionFailure(error)) return null;
      throw error;
    }
  }
}
