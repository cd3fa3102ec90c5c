import type { Clock } from '../../domain/clock';
import { inAudience, type AuthenticateOutcome, type Connection, type ConnectionAudience, type ConnectionMember, type ConnectionRepository, type ServerEventType, type SessionEndReason, type SessionSelector, type TokenSession } from '../../domain/connections/ports';
import { connectionTtl, isLive } from '../aws/dynamodb/connection-repository';

/**
 * The local runtime's connection repository: DynamoDB (through `inner`) stays the store of record, and the
 * authenticated connections are also kept in memory so that publishing an event does not query the table.
 *
 * The view is exact, not a time-based cache, because the local runtime is one process whose one container
 * makes every connection write: each mutation goes to `inner` first and then updates the view. That holds
 * only in a single process; in the cloud, connections are written by other Lambda instances, so the cloud
 * composition reads DynamoDB each time and must not use this class.
 *
 * - Writes delegate, so DynamoDB still enforces what it enforces (the per-user limit of `authenticate`).
 * - Mutations of one connection run one after another, so the record re-read after a write is that write's.
 * - The first `listAuthenticated` loads the connections of every workspace ('all'); a load during which a
 *   mutation finished is returned but not kept, since it may predate that write. Audiences (a workspace, a
 *   user in it) are filtered from the view with the rule every listing follows ({@link inAudience}).
 * - Connections past their TTL are left out at read time, as `DynamoConnectionRepository` does.
 * - A mutation that fails leaves DynamoDB in an unknown state: the view is dropped and loaded again.
 */
export class CachedConnectionRepository implements ConnectionRepository {
  /** Authenticated connections by id, once loaded. */
  private view: Map<string, Connection> | undefined;
  /** Counts finished mutations, so that a load can tell whether one finished while it ran. */
  private generation = 0;
  private loading: { generation: number; connections: Promise<Connection[]> } | undefined;
  /** The tail of each connection's running mutations. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly inner: ConnectionRepository,
    private readonly clock: Clock,
  ) {}

  open(connectionId: string, connectedAt: Date): Promise<void> {
    return this.mutate(connectionId, async () => {
      await this.inner.open(connectionId, connectedAt);
      return { result: undefined, connection: null };
    });
  }

  get(connectionId: string): Promise<Connection | null> {
    return this.inner.get(connectionId);
  }

  authenticate(connectionId: string, member: ConnectionMember, limit: number, session?: TokenSession): Promise<AuthenticateOutcome> {
    return this.mutate(connectionId, async () => {
      const outcome = await this.inner.authenticate(connectionId, member, limit, session);
      if (outcome === 'gone') return { result: outcome, connection: null };
      // 'limit' and 'other_user' changed no connection.
      if (outcome !== 'authenticated') return { result: outcome };
      return { result: outcome, connection: await this.inner.get(connectionId) };
    });
  }

  subscribe(connectionId: string, events: ServerEventType[]): Promise<boolean> {
    return this.mutate(connectionId, async () => {
      const stored = await this.inner.subscribe(connectionId, events);
      return { result: stored, connection: stored ? await this.inner.get(connectionId) : null };
    });
  }

  remove(connectionId: string): Promise<void> {
    return this.mutate(connectionId, async () => {
      await this.inner.remove(connectionId);
      return { result: undefined, connection: null };
    });
  }

  async endSessions(selector: SessionSelector, reason: SessionEndReason): Promise<string[]> {
    return this.refreshed(await this.inner.endSessions(selector, reason));
  }

  async moveSessions(selector: SessionSelector & { tokenId: string }, session: TokenSession): Promise<string[]> {
    return this.refreshed(await this.inner.moveSessions(selector, session));
  }

  /** Brings the view in line for connections that `inner` changed, each after its own earlier writes. */
  private async refreshed(connectionIds: string[]): Promise<string[]> {
    await Promise.all(
      connectionIds.map((connectionId) =>
        this.mutate(connectionId, async () => ({ result: undefined, connection: await this.inner.get(connectionId) })),
      ),
    );
    return connectionIds;
  }

  async listAuthenticated(audience: ConnectionAudience): Promise<Connection[]> {
    const connections = this.view ? [...this.view.values()] : await this.load();
    const now = this.clock.now();
    return connections.filter(
      (connection) => isLive(connectionTtl(new Date(connection.connectedAt)), now) && inAudience(connection, audience),
    );
  }

  /** Every workspace's connections from `inner`, kept as the view unless a mutation finished meanwhile. */
  private load(): Promise<Connection[]> {
    // A load that started before the latest mutation finished may miss it: only a current one is shared.
    if (this.loading?.generation === this.generation) return this.loading.connections;
    const generation = this.generation;
    const connections = this.inner.listAuthenticated('all').then((loaded) => {
      if (generation === this.generation) this.view = new Map(loaded.map((connection) => [connection.id, connection]));
      return loaded;
    });
    const loading = { generation, connections };
    this.loading = loading;
    const forget = () => {
      if (this.loading === loading) this.loading = undefined;
    };
    connections.then(forget, forget);
    return connections;
  }

  /**
   * Runs a write of one connection after that connection's earlier ones, then brings the view in line:
   * `connection` is the connection's state after the write (null: not authenticated, or gone); left out, the
   * write changed nothing the view holds.
   */
  private mutate<T>(connectionId: string, write: () => Promise<{ result: T; connection?: Connection | null }>): Promise<T> {
    const run = async () => {
      try {
        const { result, connection } = await write();
        if (connection !== undefined) this.settle(connectionId, connection);
        return result;
      } catch (error) {
        this.generation++;
        this.view = undefined;
        throw error;
      }
    };
    const previous = this.queues.get(connectionId) ?? Promise.resolve();
    const done = previous.then(run);
    const tail = done.catch(() => undefined);
    this.queues.set(connectionId, tail);
    void tail.then(() => {
      if (this.queues.get(connectionId) === tail) this.queues.delete(connectionId);
    });
    return done;
  }

  private settle(connectionId: string, connection: Connection | null): void {
    this.generation++;
    if (!this.view) return;
    if (connection?.userId) this.view.set(connectionId, connection);
    else this.view.delete(connectionId);
  }
}
