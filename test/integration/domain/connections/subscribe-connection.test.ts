import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoConnectionRepository } from '../../../../shared/adapters/aws/dynamodb/connection-repository';
import type { ConnectionRepository } from '../../../../shared/domain/connections/ports';
import { subscribeConnection } from '../../../../shared/domain/connections/subscribe-connection';
import { freshTable } from '../../../support/aws-resources';
import { ManualClock } from '../../../support/builders';

describe('subscribeConnection', () => {
  let connections: ConnectionRepository;
  const authenticated = async () => {
    const id = crypto.randomUUID();
    await connections.open(id, new Date());
    await connections.authenticate(id, { userId: crypto.randomUUID(), workspaceId: crypto.randomUUID() }, 5);
    return id;
  };

  beforeAll(async () => {
    const { db, tableName } = await freshTable();
    connections = new DynamoConnectionRepository(db, tableName, new ManualClock(new Date()));
  });

  it('stores the event types named, each once', async () => {
    // Arrange
    const id = await authenticated();

    // Act
    const result = await subscribeConnection({ connections }, id, ['ocr_progress', 'document_created', 'ocr_progress']);

    // Assert
    expect(result).toEqual({ ok: true, events: ['ocr_progress', 'document_created'] });
    expect((await connections.get(id))?.subscriptions).toEqual(['ocr_progress', 'document_created']);
  });

  it('takes `notifications`, as the spec spells it, for the notification event', async () => {
    // Arrange
    const id = await authenticated();

    // Act
    const result = await subscribeConnection({ connections }, id, ['notifications', 'notification']);

    // Assert
    expect(result).toEqual({ ok: true, events: ['notification'] });
  });

  it('refuses a list naming an unknown event, reporting each unknown name once and changing nothing', async () => {
    // Arrange
    const id = await authenticated();
    await subscribeConnection({ connections }, id, ['queue_status']);

    // Act
    const result = await subscribeConnection({ connections }, id, ['ocr_progres', 'queue_status', 'ocr_progres', 'documents']);

    // Assert
    expect(result).toEqual({ ok: false, unknown: ['ocr_progres', 'documents'] });
    expect((await connections.get(id))?.subscriptions).toEqual(['queue_status']);
  });

  it('answers gone for a connection no longer stored', async () => {
    // Arrange
    const id = await authenticated();
    await connections.remove(id);

    // Act
    const result = await subscribeConnection({ connections }, id, ['ocr_progress']);

    // Assert
    expect(result).toEqual({ ok: false, gone: true });
  });
});
