/** Item keys of the single application table, in one place so that access patterns are easy to review. */
export const keys = {
  user: (id: string) => ({ pk: `USER#${id}`, sk: 'PROFILE' }),
  usersIndex: 'USERS',
  usernameLock: (username: string) => ({ pk: `USERNAME#${username.toLowerCase()}`, sk: 'LOCK' }),
  emailLock: (email: string) => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'LOCK' }),
  settings: (userId: string) => ({ pk: `USER#${userId}`, sk: 'SETTINGS' }),
  revokedToken: (jti: string) => ({ pk: `REVOKED#${jti}`, sk: 'TOKEN' }),
} as const;

/** DynamoDB TTL wants epoch seconds. */
export const ttlOf = (date: Date): number => Math.ceil(date.getTime() / 1000);

/** Strips the table's own attributes from an item so that only the entity's fields remain. */
export function withoutKeys<T>(item: Record<string, unknown>): T {
  const { pk: _pk, sk: _sk, gsi1pk: _gpk, gsi1sk: _gsk, ttl: _ttl, ...entity } = item;
  return entity as T;
}
