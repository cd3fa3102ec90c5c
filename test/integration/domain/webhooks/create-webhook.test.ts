import { beforeAll, describe, expect, it } from 'vitest';
import { createWebhook } from '../../../../shared/domain/webhooks/create-webhook';
import { secretContext } from '../../../../shared/domain/webhooks/manage-deps';
import { MAX_WEBHOOKS_PER_WORKSPACE } from '../../../../shared/domain/webhooks/ports';
import { input, NOW, refusal, webhookStores } from './webhook-stores';

describe('createWebhook', () => {
  let stores: Awaited<ReturnType<typeof webhookStores>>;

  beforeAll(async () => {
    stores = await webhookStores();
  });

  it('answers the whsec_ secret once, with the endpoint as the API shows it', async () => {
    // Arrange
    const { deps, admin } = stores.setup();

    // Act
    const created = await createWebhook(deps, admin, input);

    // Assert
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(created).toMatchObject({
      url: input.url,
      events: ['document.uploaded', 'ocr.completed'],
      description: 'CRM sync',
      active: true,
      disabled_reason: null,
      failing_since: null,
      created_by: 'admin-1',
      created_at: NOW.toISOString(),
      updated_at: NOW.toISOString(),
    });
    expect(created).not.toHaveProperty('secrets');
    expect(created).not.toHaveProperty('workspace_id');
  });

  it('stores the secret only sealed, for this endpoint of this workspace', async () => {
    // Arrange
    const { deps, admin, webhooks, vault } = stores.setup();

    // Act
    const created = await createWebhook(deps, admin, input);

    // Assert
    const stored = (await webhooks.get(created.id))!;
    expect(stored.workspace_id).toBe(deps.workspaceId);
    expect(JSON.stringify(stored)).not.toContain(created.secret);
    expect(stored.secrets).toEqual([{ sealed: expect.any(String), created_at: NOW.toISOString(), expires_at: null }]);
    expect(await vault.open(stored.secrets[0]!.sealed, secretContext(deps.workspaceId, created.id))).toBe(created.secret);
    await expect(vault.open(stored.secrets[0]!.sealed, secretContext(crypto.randomUUID(), created.id))).rejects.toThrow();
  });

  it(`refuses an endpoint beyond the ${MAX_WEBHOOKS_PER_WORKSPACE} a workspace may have, with 409 webhook_limit`, async () => {
    // Arrange
    const { deps, admin, webhooks } = stores.setup();
    for (let i = 0; i < MAX_WEBHOOKS_PER_WORKSPACE; i++) await createWebhook(deps, admin, { ...input, url: `https://hooks.example.com/${i}` });

    // Act
    const error = await refusal(createWebhook(deps, admin, input));

    // Assert
    expect(error.code).toBe('DUPLICATE_RESOURCE');
    expect(error.status).toBe(409);
    expect(error.details).toEqual({ reason: 'webhook_limit', limit: MAX_WEBHOOKS_PER_WORKSPACE });
    expect(await webhooks.list()).toHaveLength(MAX_WEBHOOKS_PER_WORKSPACE);
  });

  it("does not count another workspace's endpoints toward the limit", async () => {
    // Arrange
    const full = stores.setup();
    for (let i = 0; i < MAX_WEBHOOKS_PER_WORKSPACE; i++) await createWebhook(full.deps, full.admin, { ...input, url: `https://hooks.example.com/${i}` });
    const { deps, admin, webhooks } = stores.setup();

    // Act
    const created = await createWebhook(deps, admin, input);

    // Assert
    expect((await webhooks.list()).map((webhook) => webhook.id)).toEqual([created.id]);
  });
});
