import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ApiClient } from '../support/api-client';
import { startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process';
import { ChannelClient, type ChannelMessage } from '../support/ws-client';
import { E2E_ADMIN, E2E_WS_AUTH_TIMEOUT_SECONDS } from './global-setup';

const CORPUS = resolve(import.meta.dirname, '../../../shared/corpus/ocrmypdf');
const baseUrl = inject('baseUrl');

describe('the real-time channel', () => {
  const anonymous = new ApiClient(baseUrl);
  let editor: ApiClient;
  const opened: ChannelClient[] = [];

  /** Opens a client that the test's cleanup closes. */
  const track = async (client: Promise<ChannelClient>) => {
    const ready = await client;
    opened.push(ready);
    return ready;
  };
  const connect = () => track(ChannelClient.open(baseUrl));
  const connectAs = (token: string) => track(ChannelClient.authenticated(baseUrl, token));

  /** A scan with OCR off: a document that exists at once and never queues a job. */
  const quickUpload = (title: string) =>
    editor.uploadDocument('pixel.png', readFileSync(join(CORPUS, 'linn.png')), { title, ocr_enabled: 'false' });

  const about = (type: string, documentId: string) => (m: ChannelMessage) => m.type === type && m.data.document_id === documentId;

  beforeAll(async () => {
    editor = await anonymous.login(E2E_ADMIN.username, E2E_ADMIN.password);
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((client) => client.close()));
  });

  it('answers a wrong token with UNAUTHORIZED and closes the connection', async () => {
    // Arrange
    const client = await connect();

    // Act
    const reply = await client.auth('not-a-token');

    // Assert
    expect(reply).toMatchObject({ type: 'error', data: { code: 'UNAUTHORIZED' } });
    await client.closed;
  });

  it('answers any other message before auth with UNAUTHORIZED and keeps the connection open meanwhile', async () => {
    // Arrange
    const client = await connect();

    // Act
    const reply = await client.request({ type: 'subscribe', events: ['notification'] });

    // Assert
    expect(reply).toMatchObject({ type: 'error', data: { code: 'UNAUTHORIZED' } });
    expect(client.isOpen).toBe(true);
  });

  it('closes a connection that does not authenticate within the auth timeout, saying why', async () => {
    // Arrange
    const client = await connect();
    const started = Date.now();

    // Act
    await client.closed;

    // Assert
    const elapsed = Date.now() - started;
    // Not before the timeout; how soon after it is the machine's business (a close that never came fails the wait).
    expect(elapsed).toBeGreaterThanOrEqual(E2E_WS_AUTH_TIMEOUT_SECONDS * 1000 - 100);
    expect(client.received).toEqual([expect.objectContaining({ type: 'error', data: expect.objectContaining({ code: 'UNAUTHORIZED' }) })]);
  });

  it("refuses a user's sixth connection with an error stating the limit of five, then closes it", async () => {
    // Arrange
    const { client: user } = await anonymous.signUp('sockets');
    for (let i = 0; i < 5; i++) await connectAs(user.token!);
    const sixth = await connect();

    // Act
    const reply = await sixth.auth(user.token!);

    // Assert
    expect(reply).toMatchObject({ type: 'error', data: { code: 'RATE_LIMITED', details: { limit: 5 } } });
    expect(reply.data.message).toContain('5');
    await sixth.closed;
  });

  it('admits five connections authenticating at once and refuses the rest', async () => {
    // Arrange
    const { client: user } = await anonymous.signUp('burst');
    const clients = await Promise.all(Array.from({ length: 8 }, () => connect()));

    // Act
    const replies = await Promise.all(clients.map((client) => client.auth(user.token!)));

    // Assert
    expect(replies.filter((reply) => reply.type === 'auth_success')).toHaveLength(5);
    expect(replies.filter((reply) => reply.type === 'error' && reply.data.code === 'RATE_LIMITED')).toHaveLength(3);
  });

  it("gives a closed connection's place to a new one", async () => {
    // Arrange
    const { client: user } = await anonymous.signUp('reuse');
    const [first] = await Promise.all(Array.from({ length: 5 }, () => connectAs(user.token!)));
    await first?.close();
    // The gateway runs $disconnect once the socket is closed on its side: allow it a moment.
    await new Promise((resolveWait) => setTimeout(resolveWait, 500));

    // Act
    const replacement = await connect();
    const reply = await replacement.auth(user.token!);

    // Assert
    expect(reply.type).toBe('auth_success');
  });

  it('confirms a subscription with the event types it selected, taking "notifications" for notification', async () => {
    // Arrange
    const { client: user } = await anonymous.signUp('subscriber');
    const client = await connectAs(user.token!);

    // Act
    const reply = await client.request({ type: 'subscribe', events: ['ocr_progress', 'notifications'] });

    // Assert
    expect(reply).toEqual({ type: 'subscribed', data: { events: ['ocr_progress', 'notification'] } });
  });

  it('reports unknown event names in a subscribe back to the client', async () => {
    // Arrange
    const { client: user } = await anonymous.signUp('typo');
    const client = await connectAs(user.token!);

    // Act
    const reply = await client.request({ type: 'subscribe', events: ['document_created', 'documents_deleted'] });

    // Assert
    expect(reply).toMatchObject({
      type: 'error',
      data: { code: 'VALIDATION_ERROR', details: { unknown_events: ['documents_deleted'] } },
    });
  });

  it('sends a subscribed client only the event types it selected', async () => {
    // Arrange
    const { client: viewer } = await editor.addMember('viewer', 'filtered');
    const client = await connectAs(viewer.token!);
    await client.request({ type: 'subscribe', events: ['document_updated'] });
    const everything = await connectAs(viewer.token!);

    // Act
    const id = await quickUpload('Subscribed');
    await editor.put(`/api/documents/${id}`, { title: 'Subscribed, renamed' });

    // Assert
    const updated = await client.next(about('document_updated', id));
    expect(updated.data).toEqual({ document_id: id, changes: { title: 'Subscribed, renamed' } });
    await everything.next(about('document_updated', id));
    expect(everything.received.some(about('document_created', id))).toBe(true);
    expect(client.received.some(about('document_created', id))).toBe(false);
  });

  it("tells every viewer when a label is assigned to a document: document_updated with the document's labels", async () => {
    // Arrange
    const { client: viewer } = await editor.addMember('viewer', 'labelwatcher');
    const client = await connectAs(viewer.token!);
    const id = await quickUpload('Labelled');
    const label = (await editor.post('/api/labels', { name: `watched-${crypto.randomUUID().slice(0, 8)}`, color: '#123456' })).body.id;

    // Act
    await editor.post(`/api/labels/${label}/assign`, { document_ids: [id] });

    // Assert
    const updated = await client.next(about('document_updated', id));
    expect(updated.data).toEqual({ document_id: id, changes: { labels: [label] } });
  });

  it('sends nothing for an edit that leaves every field as it was', async () => {
    // Arrange
    const client = await connectAs(editor.token!);
    const id = await quickUpload('Unchanged');
    await client.next(about('document_created', id));

    // Act
    await editor.put(`/api/documents/${id}`, { title: 'Unchanged' });
    await editor.put(`/api/documents/${id}`, { title: 'Changed once' });

    // Assert: the second edit's event comes, and it is the only one (events of one document arrive in order).
    await client.next(about('document_updated', id));
    expect(client.received.filter(about('document_updated', id)).map((m) => m.data.changes)).toEqual([{ title: 'Changed once' }]);
  });

  it('tells every viewer about a new document with its title and source', async () => {
    // Arrange
    const { client: viewer } = await editor.addMember('viewer', 'watcher');
    const client = await connectAs(viewer.token!);

    // Act
    const id = await quickUpload('Announced');

    // Assert
    const created = await client.next(about('document_created', id));
    expect(created).toEqual({ type: 'document_created', data: { document_id: id, title: 'Announced', source: 'upload' } });
  });

  it(
    "tells the uploader of a scan: document_created first, ocr_progress up to 100, the notification after it, and the queue's moves",
    async () => {
      // Arrange
      const client = await connectAs(editor.token!);

      // Act
      const id = await editor.uploadDocument('linn.png', readFileSync(join(CORPUS, 'linn.png')));

      // Assert
      const notification = await client.next((m) => m.type === 'notification' && m.data.message.includes('"linn"'), 90_000);
      const done = await client.next((m) => about('ocr_progress', id)(m) && m.data.progress === 100, 10_000);
      // The job's start and its completion move the queue's counters (in the same writes as the job).
      const queueStatus = await client.next((m) => m.type === 'queue_status', 10_000, client.received.findIndex(about('ocr_progress', id)));
      const story = client.received.filter(
        (m) => about('document_created', id)(m) || about('ocr_progress', id)(m) || m === notification || m === queueStatus,
      );
      expect(story[0]).toEqual({ type: 'document_created', data: { document_id: id, title: 'linn', source: 'upload' } });
      const progress = story.filter((m) => m.type === 'ocr_progress');
      expect(progress.length).toBeGreaterThanOrEqual(2);
      for (const m of progress) expect(Object.keys(m.data).sort()).toEqual(['document_id', 'progress', 'status']);
      const percents = progress.map((m) => m.data.progress as number);
      expect(percents).toEqual([...percents].sort((a, b) => a - b));
      expect(progress.at(-1)?.data).toEqual({ document_id: id, progress: 100, status: 'completed' });
      expect(story.indexOf(notification)).toBeGreaterThan(story.indexOf(done));
      expect(notification.data).toEqual({ id: expect.any(String), type: 'ocr_completed', title: 'OCR completed', message: expect.any(String) });
      expect(Object.keys(queueStatus.data).sort()).toEqual(['completed', 'pending', 'processing']);
    },
    120_000,
  );

  it("does not send a user's notification to another user subscribed to notifications", async () => {
    // Arrange
    const { client: other } = await editor.addMember('viewer', 'bystander');
    const bystander = await connectAs(other.token!);
    await bystander.request({ type: 'subscribe', events: ['notifications'] });
    const uploader = await connectAs(editor.token!);

    // Act
    await editor.uploadDocument('typewriter.png', readFileSync(join(CORPUS, 'typewriter.png')));
    const notification = await uploader.next((m) => m.type === 'notification' && m.data.message.includes('"typewriter"'), 90_000);
    // A notification sent to the wrong user would go out in the same breath: a moment is plenty.
    await new Promise((resolveWait) => setTimeout(resolveWait, 500));

    // Assert
    expect(bystander.received.filter((m) => m.type === 'notification' && m.data.id === notification.data.id)).toEqual([]);
    expect(bystander.received.map((m) => m.type)).toEqual(['auth_success', 'subscribed']);
  }, 120_000);
});

describe('the real-time channel with LOCAL_EVENT_DELIVERY=direct (the gateway sends in process)', () => {
  const password = 'direct-admin-password';
  let runtime: RuntimeProcess;
  let admin: ApiClient;

  beforeAll(async () => {
    runtime = await startRuntimeProcess({ env: { ADMIN_PASSWORD: password, LOCAL_EVENT_DELIVERY: 'direct', WS_AUTH_TIMEOUT_SECONDS: '1' } });
    admin = await new ApiClient(runtime.baseUrl).login('admin', password);
  });

  afterAll(async () => {
    await runtime?.stop();
  });

  it("pushes an upload's document_created to the uploader's connection", async () => {
    // Arrange
    const client = await ChannelClient.authenticated(runtime.baseUrl, admin.token!);

    // Act
    const id = await admin.uploadDocument('direct.png', readFileSync(join(CORPUS, 'linn.png')), { title: 'Direct', ocr_enabled: 'false' });

    // Assert
    const created = await client.next((m) => m.type === 'document_created' && m.data.document_id === id);
    expect(created.data).toEqual({ document_id: id, title: 'Direct', source: 'upload' });
    await client.close();
  });

  it('closes a connection that does not authenticate in time, after telling it why', async () => {
    // Arrange
    const client = await ChannelClient.open(runtime.baseUrl);

    // Act
    const { code } = await client.closed;

    // Assert
    expect(client.received).toEqual([expect.objectContaining({ type: 'error', data: expect.objectContaining({ code: 'UNAUTHORIZED' }) })]);
    expect(code).toBe(1000);
  });
});
