import { GetCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { duplicate } from '../../../domain/errors';
import { LOST_RACE, retryLostRaces } from '../../../domain/optimistic-retry';
import type { MemberChanges, NewUserOptions, ProfileChanges, UserRepository } from '../../../domain/users/ports';
import type { User } from '../../../domain/users/user';
import { BOOTSTRAP_WORKSPACE_ID } from '../../../domain/workspaces/workspace';
import { failedConditions, isConditionFailure } from './errors';
import { keys } from './keys';
import { indexPartition } from './queries';
import { adminCountChange, isLegacy, isTransactionConflict, lastAdmin, toUser, type Item } from './user-items';
import { adoptLegacyUser, adoptLegacyUsers } from './user-adoption';
import { workspaceKeys } from './workspace-keys';
import { workspaceItem } from './workspace-repository';

/**
 * Member changes and removals that race on one workspace's admin count lose with TransactionConflict; a short
 * jittered pause keeps the next attempt from meeting the same writer.
 */
const memberRaceBackoff = { backoffMs: () => 10 + Math.random() * 40 };

/**
 * Users in the application table. Unique usernames and emails are lock items written in the same
 * transaction as the user, so two concurrent sign-ups can never take one name. Each workspace's admins are
 * counted in an item moved in the same transaction as every change that makes or unmakes an admin, whose
 * condition keeps the count at one or more (keys: workspace-keys.ts).
 */
export class DynamoUserRepository implements UserRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async create(user: User, { identity, workspace }: NewUserOptions = {}): Promise<void> {
    const notExists = 'attribute_not_exists(pk)';
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.tableName,
                Item: {
                  ...keys.user(user.id),
                  gsi1pk: workspaceKeys.membersIndex(user.workspace_id),
                  gsi1sk: `${user.created_at}#${user.id}`,
                  ...user,
                  // The SSO identity linked to the user, so that deleting the user frees it for a new account.
                  ...(identity ? { identity_lock: keys.identityLock(identity.issuer, identity.subject).pk } : {}),
                },
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
            ...(workspace ? [{ Put: { TableName: this.tableName, Item: workspaceItem(workspace), ConditionExpression: notExists } }] : []),
            // Last, so that the indexes above stay those of the locks.
            ...(user.role === 'admin' ? [adminCountChange(this.tableName, user.workspace_id, +1)] : []),
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
    const item = await this.findItem(id);
    return item ? toUser(item) : null;
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

  async list(workspaceId: string): Promise<User[]> {
    const [members, legacy] = await Promise.all([
      indexPartition(this.db, this.tableName, workspaceKeys.membersIndex(workspaceId)),
      // Until the adoption on start has run, users written before workspaces are the bootstrap workspace's.
      workspaceId === BOOTSTRAP_WORKSPACE_ID ? indexPartition(this.db, this.tableName, workspaceKeys.legacyUsersIndex) : [],
    ]);
    const users = new Map([...legacy.filter(isLegacy), ...members].map((item) => [item['id'] as string, toUser(item)]));
    return [...users.values()].sort((a, b) => `${a.created_at}#${a.id}`.localeCompare(`${b.created_at}#${b.id}`));
  }

  async updateProfile(id: string, changes: ProfileChanges, updatedAt: string): Promise<User | null> {
    let conflict: unknown;
    return retryLostRaces<User | null>(
      async () => {
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
          // Another change of the same user (an email change, a role change) came first: read it again.
          if (!(failed?.includes(0) || isConditionFailure(error))) throw error;
          conflict = error;
          return LOST_RACE;
        }
      },
      () => {
        throw conflict;
      },
    );
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
      return Attributes ? toUser(Attributes) : null;
    } catch (error) {
      if (isConditionFailure(error)) return null;
      throw error;
    }
  }

  async rehashPassword(id: string, currentHash: string, newHash: string): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.user(id),
          // token_version and updated_at stay: the password is the same, and no session is to end.
          UpdateExpression: 'SET password_hash = :new',
          ConditionExpression: 'password_hash = :current',
          ExpressionAttributeValues: { ':new': newHash, ':current': currentHash },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async updateMember(workspaceId: string, id: string, changes: MemberChanges, updatedAt: string): Promise<User | null> {
    let lastRace: unknown;
    return retryLostRaces(async () => {
      const current = await this.member(workspaceId, id);
      if (!current) return null;
      const next: User = { ...current, ...definedFields(changes), updated_at: updatedAt };
      const emailChanges = next.email.toLowerCase() !== current.email.toLowerCase();
      const adminDelta = (next.role === 'admin' ? 1 : 0) - (current.role === 'admin' ? 1 : 0);
      const items = [
        { Update: this.memberUpdate(current, next) },
        ...(emailChanges ? this.emailSwap(current, next) : []),
        ...(adminDelta ? [adminCountChange(this.tableName, workspaceId, adminDelta)] : []),
      ];
      try {
        await this.db.send(new TransactWriteCommand({ TransactItems: items }));
        return next;
      } catch (error) {
        const failed = failedConditions(error) ?? [];
        if (failed.includes(0) || (emailChanges && failed.includes(1)) || isTransactionConflict(error)) {
          lastRace = error;
          return LOST_RACE;
        }
        if (emailChanges && failed.includes(2)) throw duplicate('user', 'email');
        if (adminDelta < 0 && failed.includes(items.length - 1)) throw lastAdmin(workspaceId);
        throw error;
      }
    }, () => {
      throw lastRace;
    }, memberRaceBackoff);
  }

  async delete(workspaceId: string, id: string): Promise<User | null> {
    let lastRace: unknown;
    return retryLostRaces(async () => {
      const found = await this.memberItem(workspaceId, id);
      if (!found) return null;
      const { user: current, item } = found;
      const ownedBy = { ConditionExpression: 'user_id = :id', ExpressionAttributeValues: { ':id': id } };
      const identityLock = item['identity_lock'];
      const items = [
        {
          Delete: {
            TableName: this.tableName,
            Key: keys.user(id),
            ConditionExpression: 'workspace_id = :workspace AND #role = :role',
            ExpressionAttributeNames: { '#role': 'role' },
            ExpressionAttributeValues: { ':workspace': workspaceId, ':role': current.role },
          },
        },
        { Delete: { TableName: this.tableName, Key: keys.usernameLock(current.username), ...ownedBy } },
        { Delete: { TableName: this.tableName, Key: keys.emailLock(current.email), ...ownedBy } },
        { Delete: { TableName: this.tableName, Key: keys.settings(id) } },
        ...(typeof identityLock === 'string' ? [{ Delete: { TableName: this.tableName, Key: { pk: identityLock, sk: 'LOCK' }, ...ownedBy } }] : []),
        ...(current.role === 'admin' ? [adminCountChange(this.tableName, workspaceId, -1)] : []),
      ];
      try {
        await this.db.send(new TransactWriteCommand({ TransactItems: items }));
        return current;
      } catch (error) {
        const failed = failedConditions(error) ?? [];
        if (failed.some((index) => index < 3) || isTransactionConflict(error)) {
          lastRace = error;
          return LOST_RACE;
        }
        if (current.role === 'admin' && failed.includes(items.length - 1)) throw lastAdmin(workspaceId);
        throw error;
      }
    }, () => {
      throw lastRace;
    }, memberRaceBackoff);
  }

  async markOperator(id: string): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.user(id),
        UpdateExpression: 'SET #operator = :yes',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#operator': 'operator' },
        ExpressionAttributeValues: { ':yes': true },
      }),
    );
  }

  adoptLegacyUsers(): Promise<number> {
    return adoptLegacyUsers(this.db, this.tableName);
  }

  /** The user's stored item, read strongly consistent. */
  private async findItem(id: string): Promise<Item | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.user(id), ConsistentRead: true }));
    return Item ?? null;
  }

  /**
   * The user if a member of this workspace. One stored before workspaces is adopted first, so that the change
   * that follows moves an admin count that includes them.
   */
  private async member(workspaceId: string, id: string): Promise<User | null> {
    return (await this.memberItem(workspaceId, id))?.user ?? null;
  }

  /** {@link member} with the stored item, for a change that needs attributes the entity does not carry. */
  private async memberItem(workspaceId: string, id: string): Promise<{ user: User; item: Item } | null> {
    let item = await this.findItem(id);
    if (item && isLegacy(item)) {
      await adoptLegacyUser(this.db, this.tableName, item);
      item = await this.findItem(id);
    }
    const user = item ? toUser(item) : null;
    return item && user?.workspace_id === workspaceId ? { user, item } : null;
  }

  /** Writes a member's role, email and name, on condition that the change was based on the stored user. */
  private memberUpdate(current: User, next: User) {
    return {
      TableName: this.tableName,
      Key: keys.user(current.id),
      UpdateExpression: 'SET #role = :role, email = :email, display_name = :name, updated_at = :now',
      ConditionExpression: 'workspace_id = :workspace AND #role = :expectedRole AND email = :expectedEmail',
      ExpressionAttributeNames: { '#role': 'role' },
      ExpressionAttributeValues: {
        ':role': next.role,
        ':email': next.email,
        ':name': next.display_name,
        ':now': next.updated_at,
        ':workspace': current.workspace_id,
        ':expectedRole': current.role,
        ':expectedEmail': current.email,
      },
    };
  }

  /** Frees the old email and takes the new one: the items at index 1 and 2 of a member change. */
  private emailSwap(current: User, next: User) {
    return [
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
    ];
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

/** The changes a caller gave: a field given as undefined is no change. */
const definedFields = (changes: MemberChanges): MemberChanges =>
  Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as MemberChanges;
