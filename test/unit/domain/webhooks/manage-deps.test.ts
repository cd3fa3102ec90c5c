import { describe, expect, it } from 'vitest';
import { secretContext } from '../../../../shared/domain/webhooks/manage-deps';

describe('secretContext', () => {
  it('seals an endpoint secret for that endpoint of that workspace', () => {
    // Act
    const context = secretContext('w-1', 'wh-1');

    // Assert
    expect(context).toEqual({ workspaceId: 'w-1', sourceId: 'webhook:wh-1' });
  });

  it('never gives two endpoints, nor one endpoint id in two workspaces, the same context', () => {
    // Act
    const contexts = [secretContext('w-1', 'wh-1'), secretContext('w-1', 'wh-2'), secretContext('w-2', 'wh-1')].map((c) => JSON.stringify(c));

    // Assert
    expect(new Set(contexts).size).toBe(3);
  });
});
