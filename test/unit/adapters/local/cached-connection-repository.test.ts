import { describe, expect, it } from 'vitest';
import { connectionTtl } from '../../../../shared/adapters/aws/dynamodb/connection-repository';
import { CachedConnectionRepository } from '../../../../shared/adapters/local/cached-connection-repository';
import type { Clock } from '../../../../shared/domain/clock';
import { inAudience, type AuthenticateOutcome, type Connection, type ConnectionAudience, type ConnectionMember, type ConnectionRepository, type ServerEventType, type SessionEndReason, type SessionSelector, type TokenSession } from '../../../../shared/domain/connections/ports';

/**
 * The store of record in memory, so that the tests can hold a read or fail a write at the moment they need.
 * Expiry is left to the decorator: this store lists connections whatever their age.
 */
class MemoryConnections implements ConnectionRepository {
  readonly records = new Map<string, Connection>();
  lists = 0;
  /** Held reads answer with what they read when called, once released. */
  private holdList: Promise<void> | undefined;
  private holdGet: { reached(): void; released: Promise<void> } | undefined;
  failRemove = false;

  /** Holds the next listAuthenticated; answers the function that releases it. */
  holdNextList(): () => void {
    let release = () => undefined as void;
    this.holdList = new Promise((resolve) => (release = resolve));
    return release;
  }

  /** Holds the next get: `reached` once it has read, `release` to let it answer. */
  holdNextGet(): { reached: Promise<void>; release(): void } {
    let release = () => undefined as void;
    let reached = () => undefined as void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const reaching = new Promise<void>((resolve) => (reached = resolve));
    this.holdGet = { reached, released };
    return { reached: reaching, release };
  }

  async open(connectionId: string, connectedAt: Date): Promise<void> {
    this.records.set(connectionId, { id: connectionId, userId: null, workspaceId: null, subscriptions: null, connectedAt: connectedAt.toISOString() });
  }

  async get(connectionId: string): Promise<Connection | null> {
    const record = this.records.get(connectionId) ?? null;
    const hold = this.holdGet;
    this.holdGet = undefined;
    hold?.reached();
    await hold?.released;
    return record;
  }

  async authenticate(connectionId: string, { userId, workspaceId }: ConnectionMember, limit: number, session?: TokenSession): Promise<AuthenticateOutcome> {
    const record = this.records.get(connectionId);
    if (!record || record.ended) return 'gone';
    if (record.userId !== null && (record.userId !== userId || record.workspaceId !== workspaceId)) return 'other_user';
    if (record.userId === null && [...this.records.values()].filter((r) => r.userId === userId).length >= limit) return 'limit';
    this.records.set(connectionId, { ...record, userId, workspaceId, ...(session ? { session } : {}) });
    return 'authenticated';
  }

  async subscribe(connectionId: string, events: ServerEventType[]): Promise<boolean> {
    const record = this.records.get(connectionId);
    if (!record) return false;
    this.records.set(connectionId, { ...record, subscriptions: events });
    return true;
  }

  async remove(connectionId: string): Promise<void> {
    this.records.delete(connectionId);
    if (this.failRemove) throw new Error('timed out after writing');
  }

  async endSessions(selector: SessionSelector, reason: SessionEndReason): Promise<string[]> {
    const chosen = this.selected(selector);
    for (const record of chosen) this.records.set(record.id, { ...record, ended: reason });
    return chosen.map((record) => record.id);
  }

  async moveSessions(selector: SessionSelector & { tokenId: string }, session: TokenSession): Promise<string[]> {
    const chosen = this.selected(selector);
    for (const record of chosen) this.records.set(record.id, { ...record, session });
    return chosen.map((record) => record.id);
  }

  private selected(selector: SessionSelector): Connection[] {
    return [...this.records.values()].filter(
      (r) =>
        r.userId === selector.userId &&
        !r.ended &&
        (selector.tokenId === undefined || r.session?.tokenId === selector.tokenId) &&
        (selector.tokenVersionBelow === undefined || (r.session?.tokenVersion ?? 0) < selector.tokenVersionBelow),
    );
  }

  async listAuthenticated(audience: ConnectionAudience): Promise<Connection[]> {
    this.lists++;
    const listed = [...this.records.values()].filter((r) => inAudience(r, audience));
    const hold = this.holdList;
    this.holdList = undefined;
    await hold;
    return listed;
  }
}

const movableClock = () => {
  let now = Date.now();
  const clock: Clock & { set(ms: number): void } = { now: () => new Date(now), set: (ms) => (now = ms) };
  return clock;
};

/** Lets every callback and timer already due run. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('CachedConnectionRepository', () => {
  const setup = () => {
    const inner = new MemoryConnections();
    const clock = movableClock();
    return { inner, clock, repo: new CachedConnectionRepository(inner, clock) };
  };
  const workspaceId = crypto.randomUUID();
  const member = (userId: string, workspace = workspaceId) => ({ userId, workspaceId: workspace });
  const authenticated = async (repo: ConnectionRepository, userId = crypto.randomUUID(), connectedAt = new Date(), workspace = workspaceId) => {
    const id = crypto.randomUUID();
    await repo.open(id, connectedAt);
    await repo.authenticate(id, member(userId, workspace), 5);
    return id;
  };
  const ids = (connections: Connection[]) => connections.map((c) => c.id).sort();

  it('reads the store once and then serves the list from memory', async () => {
    // Arrange
    const { inner, repo } = setup();
    const id = await authenticated(repo);

    // Act
    const first = await repo.listAuthenticated('all');
    const second = await repo.listAuthenticated('all');

    // Assert
    expect(ids(first)).toEqual([id]);
    expect(ids(second)).toEqual([id]);
    expect(inner.lists).toBe(1);
  });

  it('shares one load between reads made at the same time', async () => {
    // Arrange
    const { inner, repo } = setup();
    await authenticated(repo);

    // Act
    await Promise.all([repo.listAuthenticated('all'), repo.listAuthenticated('all')]);

    // Assert
    expect(inner.lists).toBe(1);
  });

  it('lists a connection authenticated after the load without reading the store again', async () => {
    // Arrange
    const { inner, repo } = setup();
    await repo.listAuthenticated('all');

    // Act
    const id = await authenticated(repo);

    // Assert
    expect(ids(await repo.listAuthenticated('all'))).toEqual([id]);
    expect(inner.lists).toBe(1);
  });

  it('lists only the user’s connections for a user’s audience', async () => {
    // Arrange
    const { repo } = setup();
    const alice = crypto.randomUUID();
    const ofAlice = await authenticated(repo, alice);
    await authenticated(repo);
    await repo.listAuthenticated('all');

    // Act
    const listed = await repo.listAuthenticated({ userId: alice });

    // Assert
    expect(ids(listed)).toEqual([ofAlice]);
  });

  it('lists only the workspace’s connections for a workspace’s audience', async () => {
    // Arrange
    const { repo } = setup();
    const [ours, theirs] = [crypto.randomUUID(), crypto.randomUUID()];
    const mine = await authenticated(repo, crypto.randomUUID(), new Date(), ours);
    await authenticated(repo, crypto.randomUUID(), new Date(), theirs);
    await repo.listAuthenticated('all');

    // Act
    const listed = await repo.listAuthenticated({ workspaceId: ours });

    // Assert
    expect(ids(listed)).toEqual([mine]);
  });

  it('lists nothing for a user’s audience in a workspace that is not the user’s', async () => {
    // Arrange
    const { repo } = setup();
    const alice = crypto.randomUUID();
    await authenticated(repo, alice);
    await repo.listAuthenticated('all');

    // Act
    const listed = await repo.listAuthenticated({ userId: alice, workspaceId: crypto.randomUUID() });

    // Assert
    expect(listed).toEqual([]);
  });

  it('never lists a connection that has not authenticated', async () => {
    // Arrange
    const { repo } = setup();
    await repo.listAuthenticated('all');

    // Act
    await repo.open(crypto.randomUUID(), new Date());

    // Assert
    expect(await repo.listAuthenticated('all')).toEqual([]);
  });

  it('does not list a connection the store refused for the user’s limit', async () => {
    // Arrange
    const { repo } = setup();
    const userId = crypto.randomUUID();
    const admitted = await authenticated(repo, userId);
    await repo.listAuthenticated('all');
    const refused = crypto.randomUUID();
    await repo.open(refused, new Date());

    // Act
    const outcome = await repo.authenticate(refused, member(userId), 1);

    // Assert
    expect(outcome).toBe('limit');
    expect(ids(await repo.listAuthenticated('all'))).toEqual([admitted]);
  });

  it('lists the event types a connection subscribed to after the load', async () => {
    // Arrange
    const { repo } = setup();
    const id = await authenticated(repo);
    await repo.listAuthenticated('all');

    // Act
    await repo.subscribe(id, ['notification']);

    // Assert
    expect((await repo.listAuthenticated('all'))[0]?.subscriptions).toEqual(['notification']);
  });

  it('stops listing a removed connection', async () => {
    // Arrange
    const { repo } = setup();
    const id = await authenticated(repo);
    await repo.listAuthenticated('all');

    // Act
    await repo.remove(id);

    // Assert
    expect(await repo.listAuthenticated('all')).toEqual([]);
  });

  it('still lists a connection at its TTL, as the DynamoDB repository does', async () => {
    // Arrange
    const { repo, clock } = setup();
    const connectedAt = new Date();
    const id = await authenticated(repo, crypto.randomUUID(), connectedAt);
    await repo.listAuthenticated('all');

    // Act
    clock.set(connectionTtl(connectedAt) * 1000);

    // Assert
    expect(ids(await repo.listAuthenticated('all'))).toEqual([id]);
  });

  it('stops listing a connection past its TTL, as the DynamoDB repository does', async () => {
    // Arrange
    const { repo, clock } = setup();
    const connectedAt = new Date();
    await authenticated(repo, crypto.randomUUID(), connectedAt);
    await repo.listAuthenticated('all');

    // Act
    clock.set(connectionTtl(connectedAt) * 1000 + 1);

    // Assert
    expect(await repo.listAuthenticated('all')).toEqual([]);
  });

  it('does not keep a load that read the store before a write finished', async () => {
    // Arrange
    const { repo, inner } = setup();
    const release = inner.holdNextList();
    const loading = repo.listAuthenticated('all');
    const id = await authenticated(repo);
    release();
    await loading;

    // Act
    const listed = await repo.listAuthenticated('all');

    // Assert
    expect(ids(listed)).toEqual([id]);
  });

  it('keeps the event types of a connection that subscribed while it was authenticating', async () => {
    // Arrange
    const { repo, inner } = setup();
    const id = crypto.randomUUID();
    await repo.open(id, new Date());
    await repo.listAuthenticated('all');
    const { reached, release } = inner.holdNextGet();
    const authenticating = repo.authenticate(id, member(crypto.randomUUID()), 5);
    await reached;
    const subscribing = repo.subscribe(id, ['notification']);
    await settled();

    // Act
    release();
    await Promise.all([authenticating, subscribing]);

    // Assert
    expect((await repo.listAuthenticated('all'))[0]?.subscriptions).toEqual(['notification']);
  });

  it('reads the store again after a write that failed', async () => {
    // Arrange
    const { repo, inner } = setup();
    const id = await authenticated(repo);
    await repo.listAuthenticated('all');
    inner.failRemove = true;
    await expect(repo.remove(id)).rejects.toThrow('timed out after writing');

    // Act
    const listed = await repo.listAuthenticated('all');

    // Assert
    expect(listed).toEqual([]);
    expect(inner.lists).toBe(2);
  });

  it('lists a connection as ended as soon as its session was ended, and others of the user unchanged', async () => {
    // Arrange
    const { repo } = setup();
    const userId = crypto.randomUUID();
    const session = (tokenId: string) => ({ tokenId, tokenVersion: 0, expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    const [loggedOut, kept] = [crypto.randomUUID(), crypto.randomUUID()];
    for (const [id, token] of [[loggedOut, 'a'], [kept, 'b']] as const) {
      await repo.open(id, new Date());
      await repo.authenticate(id, member(userId), 5, session(token));
    }
    await repo.listAuthenticated('all');

    // Act
    const ended = await repo.endSessions({ userId, tokenId: 'a' }, 'logout');

    // Assert
    expect(ended).toEqual([loggedOut]);
    const listed = new Map((await repo.listAuthenticated({ userId })).map((c) => [c.id, c.ended ?? null]));
    expect(Object.fromEntries(listed)).toEqual({ [loggedOut]: 'logout', [kept]: null });
  });
});
