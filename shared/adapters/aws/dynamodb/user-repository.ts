import { GetCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { duplicate } from '../../../domain/errors';
import type { ExternalIdentity, ProfileChanges, UserRepository } from '../../../domain/users/ports';
import type { User } from '../../../domain/users/user';
import { failedConditions, isConditionFailure } from './errors';
import { keys, withoutKeys } from './keys';
import { indexPartition } from './queries';

/** Retries of an email change that lost a race against another change of the same user. */
const EMAIL_CHANGE_ATTEMPTS = 3;

/**
 * Users in the application table. Unique usernames and emails are lock items written in the same
 * transaction as the user, so two concurrent sign-ups can never take one name.
 */
export class DynamoUserRepository implements UserRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async create(user: User, identity?: ExternalIdentity): Promise<void> {
    const notExists = 'attribute_not_exists(pk)';
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.tableName,
                Item: { ...keys.user(user.id), gsi1pk: keys.usersIndex, gsi1sk: `${user.created_at}#${user.id}`, ...user },
                ConditionExpression: notExists,
              },
            },
            {
              Put: {
                TableName: this.tableName,
                Item: { ...keys.usernameLock(user.username), user_id: user.id },
                ConditionExpression: notExists,
              },
            },
            {
              Put: {
                TableName: this.tableName,
                Item: { ...keys.emailLock(user.email), user_id: user.id },
                ConditionExpression: notExists,
              },
            },
            ...(identity
              ? [
                  {
                    Put: {
                      TableName: this.tableName,
                      Item: { ...keys.identityLock(identity.issuer, identity.subject), user_id: user.id },
                      ConditionExpression: notExists,
                    },
                  },
                ]
              : []),
          ],
        }),
      );
    } catch (error) {
      const failed = failedConditions(error);
      // The identity first: a concurrent first login of the same person also collides on the email.
      if (failed?.includes(3)) throw duplicate('user', 'identity');
      if (failed?.includes(1)) throw duplicate('user', 'username');
      if (failed?.includes(2)) throw duplicate('user', 'email');
      throw error;
    }
  }

  async findById(id: string): Promise<User | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.user(id) }));
    return Item ? withoutKeys<User>(Item) : null;
  }

  async findByUsername(username: string): Promise<User | null> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.usernameLock(username) }),
    );
    return Item ? this.findById(Item['user_id'] as string) : null;
  }

  async findByIdentity(issuer: string, subject: string): Promise<User | null> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.identityLock(issuer, subject) }),
    );
    return Item ? this.findById(Item['user_id'] as string) : null;
  }

  async list(): Promise<User[]> {
    return (await indexPartition(this.db, this.tableName, keys.usersIndex)).map((item) => withoutKeys<User>(item));
  }

  async updateProfile(id: string, changes: ProfileChanges, updatedAt: string): Promise<User | null> {
    for (let attempt = 1; ; attempt++) {
      const current = await this.findById(id);
      if (!current) return null;
      const next: User = { ...current, ...changes, updated_at: updatedAt };
      const emailChanges = next.email.toLowerCase() !== current.email.toLowerCase();
      try {
        if (emailChanges) await this.replaceEmail(current, next);
        else await this.writeProfile(next, current.email);
        return next;
      } catch (error) {
        const failed = failedConditions(error);
        if (failed?.includes(2)) throw duplicate('user', 'email');
        const lostRace = failed?.includes(0) || isConditionFailure(error);
        if (!lostRace || attempt >= EMAIL_CHANGE_ATTEMPTS) throw error;
      }
    }
  }

  async updatePassword(id: string, passwordHash: string, updatedAt: string): Promise<User | null> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.user(id),
          UpdateExpression: 'SET password_hash = :hash, updated_at = :now ADD token_version :one',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':hash': passwordHash, ':now': updatedAt, ':one': 1 },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? withoutKeys<User>(Attributes) : null;
    } catch (error) {
      if (isConditionFailure(error)) return null;
      throw error;
    }
  }

  /** Writes the profile fields, on condition that the email is still the one the change was based on. */
  private profileUpdate(user: User, expectedEmail: string) {
    return {
      TableName: this.tableName,
      Key: keys.user(user.id),
      UpdateExpression: 'SET email = :email, display_name = :name, updated_at = :now',
      ConditionExpression: 'email = :expected',
      ExpressionAttributeValues: {
        ':email': user.email,
        ':name': user.display_name,
        ':now': user.updated_at,
        ':expected': expectedEmail,
      },
    };
  }

  private async writeProfile(user: User, expectedEmail: string): Promise<void> {
    await this.db.send(new UpdateCommand(this.profileUpdate(user, expectedEmail)));
  }

  private async replaceEmail(current: User, next: User): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Update: this.profileUpdate(next, current.email) },
          {
            Delete: {
              TableName: this.tableName,
              Key: keys.emailLock(current.email),
              ConditionExpression: 'user_id = :id',
              ExpressionAttributeValues: { ':id': current.id },
            },
          },
          {
            Put: {
              TableName: this.tableName,
              Item: { ...keys.emailLock(next.email), user_id: next.id },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      }),
    );
  }
}

