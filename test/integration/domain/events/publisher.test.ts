import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoConnectionRepository } from '../../../../shared/adapters/aws/dynamodb/connection-repository';
import { systemClock } from '../../../../shared/domain/clock';
import type { ServerEvent } from '../../../../shared/domain/events/ports';
import type { ConnectionSender, SendResult } from '../../../../shared/domain/connections/ports';
import { ConnectionEventPublisher, type Publication } from '../../../../shared/domain/events/publisher';
import { freshTable } from '../../../support/aws-resources';

/**
 * The publisher over the real connection table. The sender stands in for API Gateway's @connections API,
 * whose failures (gone, slow, broken) cannot be produced on demand: it records what it was asked to send.
 */
class RecordingSender implements ConnectionSender {
  readonly sent: { connectionId: string; message: string }[] = [];
  readonly behaviour = new Map<string, 'gone' | 'hang' | 'fail'>();

  async send(connectionId: string, message: string): Promise<SendResult> {
    const behaviour = this.behaviour.get(connectionId);
    if (behaviour === 'gone') return 'gone';
    if (behaviour === 'hang') return new Promise<SendResult>(() => undefined);
    if (behaviour === 'fail') throw new Error('socket hang up');
    this.sent.push({ connectionId, message });
    return 'sent';
  }

  readonly closed: string[] = [];

  async close(connectionId: string): Promise<void> {
    this.closed.push(connectionId);
  }

  to(connectionId: string): ServerEvent[] {
    return this.sent.filter((s) => s.connectionId === connectionId).map((s) => JSON.parse(s.message) as ServerEvent);
  }
}

const documentCreated = (title: string): ServerEvent => ({
  type: 'document_created',
  data: { document_id: crypto.randomUUID(), title, source: 'upload' },
});
const notification: ServerEvent = { type: 'notification', data: { id: crypto.randomUUID(), type: 'ocr_completed', title: 'OCR completed', message: 'done' } };

/** The workspace whose publisher most tests use. */
const workspaceId = crypto.randomUUID();
const member = (userId: string, workspace = workspaceId) => ({ userId, workspaceId: workspace });

describe('ConnectionEventPublisher', () => {
  let connections: DynamoConnectionRepository;

  const authenticated = async (userId: string, subscriptions?: ServerEvent['type'][], workspace = workspaceId) => {
    const id = crypto.randomUUID();
    await connections.open(id, new Date());
    await connections.authenticate(id, member(userId, workspace), 5);
    if (subscriptions) await connections.subscribe(id, subscriptions);
    return id;
  };
  const hubWith = (sender: ConnectionSender, problems: string[] = []) =>
    new ConnectionEventPublisher({ connections, sender, sendTimeoutMs: 200, log: (message) => problems.push(message) });
  const publisherWith = (sender: ConnectionSender, problems: string[] = []) => hubWith(sender, problems).forWorkspace(workspaceId);

  beforeAll(async () => {
    const { db, tableName } = await freshTable();
    connections = new DynamoConnectionRepository(db, tableName, systemClock);
  });

  it("sends a user's event to that user's connections only", async () => {
    // Arrange
    const sender = new RecordingSender();
    const [alice, bob] = [crypto.randomUUID(), crypto.randomUUID()];
    const [a1, a2, b1] = [await authenticated(alice), await authenticated(alice), await authenticated(bob)];

    // Act
    await publisherWith(sender).publish(notification, { userId: alice });

    // Assert
    expect(sender.to(a1)).toEqual([notification]);
    expect(sender.to(a2)).toEqual([notification]);
    expect(sender.to(b1)).toEqual([]);
  });

  it("sends a workspace's event to every connection of that workspace and to none of another", async () => {
    // Arrange
    const sender = new RecordingSender();
    const [ours, theirs] = [crypto.randomUUID(), crypto.randomUUID()];
    const [alice, bob] = [await authenticated(crypto.randomUUID(), undefined, ours), await authenticated(crypto.randomUUID(), undefined, ours)];
    const carol = await authenticated(crypto.randomUUID(), undefined, theirs);
    const event = documentCreated('ours only');

    // Act
    await hubWith(sender).forWorkspace(ours).publish(event, 'workspace');

    // Assert
    expect(sender.to(alice)).toEqual([event]);
    expect(sender.to(bob)).toEqual([event]);
    expect(sender.to(carol)).toEqual([]);
  });

  it("sends nothing for a user through another workspace's publisher", async () => {
    // Arrange
    const sender = new RecordingSender();
    const userId = crypto.randomUUID();
    const connection = await authenticated(userId);

    // Act
    await hubWith(sender).forWorkspace(crypto.randomUUID()).publish(notification, { userId });

    // Assert
    expect(sender.to(connection)).toEqual([]);
  });

  it('never sends to a connection of another workspace, even one the listing answers', async () => {
    // Arrange
    const sender = new RecordingSender();
    const stranger = { id: crypto.randomUUID(), userId: crypto.randomUUID(), workspaceId: crypto.randomUUID(), subscriptions: null, connectedAt: new Date().toISOString() };
    const careless = new ConnectionEventPublisher({
      connections: { listAuthenticated: async () => [stranger], remove: async () => undefined },
      sender,
      sendTimeoutMs: 200,
      log: () => undefined,
    });

    // Act
    await careless.forWorkspace(workspaceId).publish(documentCreated('not for strangers'), 'workspace');

    // Assert
    expect(sender.sent).toEqual([]);
  });

  it("sends a workspace's event only to connections that subscribed to its type or never subscribed", async () => {
    // Arrange
    const sender = new RecordingSender();
    const all = await authenticated(crypto.randomUUID());
    const wants = await authenticated(crypto.randomUUID(), ['document_created']);
    const other = await authenticated(crypto.randomUUID(), ['notification']);
    const event = documentCreated('for the workspace');

    // Act
    await publisherWith(sender).publish(event, 'workspace');

    // Assert
    expect(sender.to(all)).toEqual([event]);
    expect(sender.to(wants)).toEqual([event]);
    expect(sender.to(other)).toEqual([]);
  });

  it('removes a connection the gateway reports gone', async () => {
    // Arrange
    const sender = new RecordingSender();
    const userId = crypto.randomUUID();
    const gone = await authenticated(userId);
    sender.behaviour.set(gone, 'gone');

    // Act
    await publisherWith(sender).publish(notification, { userId });

    // Assert
    expect(await connections.get(gone)).toBeNull();
  });

  it('delivers to the others while one client hangs, within the send timeout', async () => {
    // Arrange
    const sender = new RecordingSender();
    const userId = crypto.randomUUID();
    const stuck = await authenticated(userId);
    const fine = await authenticated(userId);
    sender.behaviour.set(stuck, 'hang');
    const problems: string[] = [];

    // Act: the hanging send never settles, so returning at all is the send timeout's doing.
    await publisherWith(sender, problems).publish(notification, { userId });

    // Assert
    expect(sender.to(fine)).toEqual([notification]);
    expect(problems).toContain('event send timed out');
  });

  it('reports each published event with its targets, when it was emitted and how long the sends took', async () => {
    // Arrange
    const userId = crypto.randomUUID();
    await authenticated(userId);
    await authenticated(userId);
    const publications: Publication[] = [];
    const publisher = new ConnectionEventPublisher({
      connections,
      sender: new RecordingSender(),
      sendTimeoutMs: 200,
      log: () => undefined,
      published: (publication) => publications.push(publication),
    }).forWorkspace(workspaceId);
    const before = Date.now();

    // Act
    await publisher.publish(notification, { userId });

    // Assert
    expect(publications).toEqual([{ event: 'notification', workspaceId, targets: 2, emittedAt: expect.any(Number), durationMs: expect.any(Number) }]);
    // Epoch milliseconds (from the monotonic clock, so a few ms apart from Date.now() at most).
    expect(publications[0]!.emittedAt).toBeGreaterThanOrEqual(before - 50);
    expect(publications[0]!.emittedAt).toBeLessThanOrEqual(Date.now() + 50);
  });

  it('never throws, and logs, when a send fails', async () => {
    // Arrange
    const sender = new RecordingSender();
    const userId = crypto.randomUUID();
    sender.behaviour.set(await authenticated(userId), 'fail');
    const problems: string[] = [];

    // Act
    const publishing = publisherWith(sender, problems).publish(notification, { userId });

    // Assert
    await expect(publishing).resolves.toBeUndefined();
    expect(problems).toContain('event not delivered');
  });

  it('never throws, and logs, when the connections cannot be read', async () => {
    // Arrange
    const broken = new ConnectionEventPublisher({
      connections: { listAuthenticated: () => Promise.reject(new Error('table unavailable')), remove: async () => undefined },
      sender: new RecordingSender(),
      sendTimeoutMs: 200,
      log: (message) => problems.push(message),
    });
    const problems: string[] = [];

    // Act
    const publishing = broken.forWorkspace(workspaceId).publish(notification, 'workspace');

    // Assert
    await expect(publishing).resolves.toBeUndefined();
    expect(problems).toEqual(['event not published']);
  });

  describe('connections whose session ended', () => {
    const withSession = async (userId: string, tokenId: string, expiresAt = new Date(Date.now() + 3_600_000)) => {
      const id = crypto.randomUUID();
      await connections.open(id, new Date());
      await connections.authenticate(id, member(userId), 5, { tokenId, tokenVersion: 0, expiresAt: expiresAt.toISOString() });
      return id;
    };

    it('tells a logged-out connection why, closes and forgets it, and still delivers to the user\'s other sessions', async () => {
      // Arrange
      const sender = new RecordingSender();
      const userId = crypto.randomUUID();
      const [loggedOut, other] = [await withSession(userId, 'logged-out'), await withSession(userId, 'other')];
      await connections.endSessions({ userId, tokenId: 'logged-out' }, 'logout');

      // Act
      await publisherWith(sender).publish(notification, { userId });

      // Assert
      expect(sender.to(other)).toEqual([notification]);
      expect(sender.sent.filter((s) => s.connectionId === loggedOut).map((s) => JSON.parse(s.message))).toEqual([
        { type: 'error', data: { code: 'UNAUTHORIZED', message: expect.any(String), details: { reason: 'logout' } } },
      ]);
      expect(sender.closed).toEqual([loggedOut]);
      expect(await connections.get(loggedOut)).toBeNull();
    });

    it('closes a connection whose token has expired instead of sending it the event', async () => {
      // Arrange
      const sender = new RecordingSender();
      const userId = crypto.randomUUID();
      const expired = await withSession(userId, 'expired', new Date(Date.now() - 1000));

      // Act
      await publisherWith(sender).publish(notification, { userId });

      // Assert
      expect(sender.sent.map((s) => JSON.parse(s.message).data.details)).toEqual([{ reason: 'token_expired' }]);
      expect(sender.closed).toEqual([expired]);
    });
  });
});
