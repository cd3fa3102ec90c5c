import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoConnectionRepository } from '../../../../shared/adapters/aws/dynamodb/connection-repository';
import { connectionEventHub } from '../../../../shared/container/kit/event-hub';
import type { Clock } from '../../../../shared/domain/clock';
import type { ConnectionSender, SendResult } from '../../../../shared/domain/connections/ports';
import type { EventHub, ServerEvent } from '../../../../shared/domain/events/ports';
import { freshTable } from '../../../support/aws-resources';

/** Stands in for API Gateway's @connections API: records what it was asked to send and close. */
class RecordingSender implements ConnectionSender {
  readonly sent: { connectionId: string; message: string }[] = [];
  readonly closed: string[] = [];

  async send(connectionId: string, message: string): Promise<SendResult> {
    this.sent.push({ connectionId, message });
    return 'sent';
  }

  async close(connectionId: string): Promise<void> {
    this.closed.push(connectionId);
  }
}

const HOUR_MS = 3_600_000;
const notification: ServerEvent = { type: 'notification', data: { id: crypto.randomUUID(), type: 'ocr_completed', title: 'OCR completed', message: 'done' } };

/** The event hub judges a connection's token by the clock it is given, as the tokens are judged. */
describe('connectionEventHub', () => {
  let connections: DynamoConnectionRepository;
  let hub: EventHub;
  const sender = new RecordingSender();
  // Two hours ahead of the system clock: a token that expires within the hour has expired by this clock.
  const clock: Clock = { now: () => new Date(Date.now() + 2 * HOUR_MS) };

  beforeAll(async () => {
    const { db, tableName } = await freshTable();
    connections = new DynamoConnectionRepository(db, tableName, clock);
    hub = connectionEventHub(connections, sender, clock);
  });

  it("closes a connection whose token has expired by the hub's clock instead of sending it the event", async () => {
    // Arrange
    const [userId, workspaceId] = [crypto.randomUUID(), crypto.randomUUID()];
    const connectionId = crypto.randomUUID();
    await connections.open(connectionId, clock.now());
    const expiresAt = new Date(Date.now() + HOUR_MS).toISOString();
    await connections.authenticate(connectionId, { userId, workspaceId }, 5, { tokenId: crypto.randomUUID(), tokenVersion: 0, expiresAt });

    // Act
    await hub.forWorkspace(workspaceId).publish(notification, { userId });

    // Assert
    const messages = sender.sent.filter((s) => s.connectionId === connectionId).map((s) => JSON.parse(s.message) as { type: string; data: { details?: unknown } });
    expect(messages).toEqual([{ type: 'error', data: expect.objectContaining({ code: 'UNAUTHORIZED', details: { reason: 'token_expired' } }) }]);
    expect(sender.closed).toContain(connectionId);
  });
});
