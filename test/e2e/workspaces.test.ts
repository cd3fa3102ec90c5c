import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { eventually } from '../support/until';
import { ApiClient, type ApiResponse } from '../support/api-client';
import { pngImage } from '../support/fixtures';
import { emptyPdf, textPdf } from '../support/text-pdf';
import { ChannelClient, type ChannelMessage } from '../support/ws-client';
import { DOCUMENT_STATUSES } from '../../shared/domain/documents/document';
import { DOCUMENT_SORT_FIELDS } from '../../shared/domain/documents/ports';
import { SERVER_EVENT_TYPES } from '../../shared/domain/connections/ports';
import { OCR_JOB_STATUSES, OCR_PRIORITIES } from '../../shared/domain/ocr/jobs';
import { SEARCH_SORT_FIELDS } from '../../shared/domain/search/ports';

/**
 * Issue 13's isolation, end to end: two workspaces side by side on the suite's runtime. Workspace A holds
 * documents (labelled, OCRed, failed), labels, OCR jobs and a notification; every member of workspace B asks
 * for them by id (and gets exactly what an unknown id gets) and lists, searches and counts (and sees only B).
 */
const baseUrl = inject('baseUrl');
const ROLES = ['admin', 'editor', 'viewer'] as const;
type Role = (typeof ROLES)[number];
type Workspace = Record<Role, ApiClient> & { ids: Record<Role, string> };

const suffix = () => Math.random().toString(36).slice(2, 10);
/** Words no other suite writes: A's documents say both, B's only the shared one. */
const SHARED_WORD = `quokka${suffix()}`;
const A_ONLY_WORD = `zanzibar${suffix()}`;
const SETTLED = new Set(['completed', 'failed']);

const anonymous = new ApiClient(baseUrl);

/**
 * Runs tasks at most `limit` at a time: hundreds of requests at once on a busy machine make the client reuse
 * keep-alive sockets the server is closing (ECONNRESET), and are no faster.
 */
async function inBatches<T>(tasks: (() => Promise<T>)[], limit = 12): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

/** Registers an admin (a new, empty workspace), who then creates an editor and a viewer with POST /api/users. */
async function workspace(prefix: string): Promise<Workspace> {
  const { client: admin, user } = await anonymous.signUp(`${prefix}_admin`);
  const members = await Promise.all(
    (['editor', 'viewer'] as const).map(async (role) => {
      const account = { username: `${prefix}_${role}_${suffix()}`, email: `${prefix}_${role}_${suffix()}@example.com`, password: `pw-${suffix()}-secret` };
      const created = await admin.post('/api/users', { ...account, role });
      if (created.status !== 201) throw new Error(`create ${role} failed: ${JSON.stringify(created.body)}`);
      return { client: await anonymous.login(account.username, account.password), id: created.body.id as string };
    }),
  );
  return {
    admin,
    editor: members[0]!.client,
    viewer: members[1]!.client,
    ids: { admin: user.id, editor: members[0]!.id, viewer: members[1]!.id },
  };
}

/** Polls a document until its OCR has finished one way or the other. */
async function settled(client: ApiClient, id: string): Promise<ApiResponse> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const response = await client.get(`/api/documents/${id}`);
    if (SETTLED.has(response.body?.status)) return response;
    if (Date.now() > deadline) throw new Error(`document ${id} never settled: ${JSON.stringify(response.body)}`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 200));
  }
}

/**
 * What a client can tell from a response: its status and body, without what differs per request
 * (request_id, timestamp) and with the id it asked about written as `<id>`, so that the answer about another
 * workspace's object can be compared with the answer about an id that exists nowhere.
 */
function observable(response: ApiResponse, askedId: string): { status: number; body: unknown } {
  const body = response.body?.error ? { error: { ...response.body.error, request_id: undefined, timestamp: undefined } } : response.body;
  return { status: response.status, body: JSON.parse(JSON.stringify(body ?? null).replaceAll(askedId, '<id>')) };
}

const form = (fields: Record<string, string>, files: [string, Uint8Array, string][]) => {
  const body = new FormData();
  for (const [field, value] of Object.entries(fields)) body.append(field, value);
  for (const [field, bytes, name] of files) body.append(field, new Blob([bytes]), name);
  return body;
};

describe('workspace isolation', () => {
  let a: Workspace;
  let b: Workspace;
  /** A's objects, by kind. */
  const A = { documents: {} as Record<'scanned' | 'plain' | 'failed', string>, labels: [] as { id: string; name: string }[], notification: '' };
  /** B's own: one document carrying one label, and the shared word in its title. */
  const B = { document: '', label: '' };
  const opened: ChannelClient[] = [];

  /** Every id and name of A that must never show in an answer to B. */
  const secretsOfA = () => [...Object.values(A.documents), ...A.labels.flatMap((l) => [l.id, l.name]), A.notification, A_ONLY_WORD, ...Object.values(a.ids)];
  const expectNothingOfA = (response: ApiResponse) => {
    const text = JSON.stringify(response.body).toLowerCase();
    for (const secret of secretsOfA()) expect(text, `${secret} leaked in ${JSON.stringify(response.body)}`).not.toContain(secret.toLowerCase());
  };
  const asEveryRoleOfB = <T>(ask: (client: ApiClient, role: Role) => Promise<T>) => Promise.all(ROLES.map((role) => ask(b[role], role)));
  /** Sends every request as each role of B (a few at a time), and answers per role, in order. */
  const askEveryRoleOfB = async (requests: ((client: ApiClient) => Promise<ApiResponse>)[]): Promise<ApiResponse[][]> => {
    const answers = await inBatches(ROLES.flatMap((role) => requests.map((send) => () => send(b[role]))));
    return ROLES.map((_, index) => answers.slice(index * requests.length, (index + 1) * requests.length));
  };

  beforeAll(async () => {
    [a, b] = await Promise.all([workspace('ws_a'), workspace('ws_b')]);
    const [first, second, bLabel] = await Promise.all([
      a.admin.post('/api/labels', { name: `Invoices ${suffix()}`, color: '#ff0000' }),
      a.admin.post('/api/labels', { name: `Receipts ${suffix()}`, color: '#00ff00' }),
      b.admin.post('/api/labels', { name: `Letters ${suffix()}`, color: '#0000ff' }),
    ]);
    A.labels = [first.body, second.body];
    B.label = bLabel.body.id;
    [A.documents.scanned, A.documents.plain, A.documents.failed, B.document] = await Promise.all([
      a.editor.uploadDocument('scanned.pdf', textPdf([[`Quarterly invoice ${SHARED_WORD} ${A_ONLY_WORD}`]]), {
        title: `Scanned ${SHARED_WORD} ${A_ONLY_WORD}`,
        labels: A.labels[0]!.id,
      }),
      a.editor.uploadDocument('plain.png', pngImage(4, 4), {
        title: `Plain ${SHARED_WORD} ${A_ONLY_WORD}`,
        labels: A.labels.map((l) => l.id).join(','),
        ocr_enabled: 'false',
      }),
      a.editor.uploadDocument('failed.pdf', emptyPdf(), { title: `Failed ${A_ONLY_WORD}` }),
      b.editor.uploadDocument('theirs.png', pngImage(4, 4), { title: `Theirs ${SHARED_WORD}`, labels: B.label, ocr_enabled: 'false' }),
    ]);
    await Promise.all([settled(a.editor, A.documents.scanned), settled(a.editor, A.documents.failed)]);
    // Searches and filtered listings follow the table's stream: wait until the index has all of the above.
    await a.editor.searchable(A.documents.scanned);
    await eventually(() => a.editor.get(`/api/search?q=${A_ONLY_WORD}`), (response) => response.body.total === 3);
    await eventually(() => b.editor.get(`/api/documents?label_ids=${B.label}`), (response) => response.body.pagination.total === 1);
    const notifications = (await a.editor.get('/api/notifications')).body.notifications as { id: string; data: { document_id: string } }[];
    A.notification = notifications.find((n) => n.data.document_id === A.documents.scanned)!.id;
  }, 90_000);

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((client) => client.close()));
  });

  it("lets A's members see what the tests below hide from B (the checks are not vacuous)", async () => {
    // Arrange: the workspaces above.

    // Act
    const [documents, labels, search, queue, metrics] = await Promise.all([
      a.viewer.get('/api/documents?per_page=100'),
      a.viewer.get('/api/labels'),
      a.viewer.get(`/api/search?q=${A_ONLY_WORD}`),
      Promise.all(['completed', 'failed'].map((status) => a.viewer.get(`/api/ocr/queue?status=${status}`))),
      a.viewer.get('/api/metrics/ocr'),
    ]);

    // Assert
    expect(documents.body.data.map((d: { id: string }) => d.id).sort()).toEqual(Object.values(A.documents).sort());
    expect(labels.body.labels.map((l: { id: string; document_count: number }) => [l.id, l.document_count]).sort()).toEqual(
      [
        [A.labels[0]!.id, 2],
        [A.labels[1]!.id, 1],
      ].sort(),
    );
    expect(search.body.total).toBe(3);
    expect(queue.map((list) => list.body.data.map((j: { id: string }) => j.id))).toEqual([[A.documents.scanned], [A.documents.failed]]);
    expect(metrics.body.total_processed).toBe(2);
  });

  describe("B's admin, editor and viewer, asking for A's objects by id, get what an unknown id gets", () => {
    /** One request about one id; `access` is the least role the route admits (below it: 403, whatever the id). */
    interface Probe {
      name: string;
      access: Role;
      /** The status a member allowed by `access` gets; 404 unless said. */
      status?: number;
      send: (client: ApiClient, id: string) => Promise<ApiResponse>;
    }
    const allowed = (access: Role, role: Role) => ROLES.indexOf(role) <= ROLES.indexOf(access);

    const documentProbes: Probe[] = [
      { name: 'GET /api/documents/{id}', access: 'viewer', send: (c, id) => c.get(`/api/documents/${id}`) },
      { name: 'GET /api/v2/documents/{id}', access: 'viewer', send: (c, id) => c.get(`/api/v2/documents/${id}`) },
      { name: 'PUT /api/documents/{id}', access: 'editor', send: (c, id) => c.put(`/api/documents/${id}`, { title: 'taken over' }) },
      { name: 'DELETE /api/documents/{id}', access: 'editor', send: (c, id) => c.delete(`/api/documents/${id}`) },
      { name: 'GET /api/documents/{id}/download', access: 'viewer', send: (c, id) => c.get(`/api/documents/${id}/download`) },
      { name: 'GET /api/documents/{id}/thumbnail', access: 'viewer', send: (c, id) => c.get(`/api/documents/${id}/thumbnail?width=32&height=32`) },
      {
        name: 'POST /api/documents/{id}/retry-ocr',
        access: 'editor',
        send: (c, id) => c.post(`/api/documents/${id}/retry-ocr`, { language: 'eng', priority: 'high' }),
      },
      { name: 'PUT /api/ocr/queue/{id}/priority', access: 'editor', send: (c, id) => c.put(`/api/ocr/queue/${id}/priority`, { priority: 'high' }) },
      { name: 'DELETE /api/ocr/queue/{id}', access: 'editor', send: (c, id) => c.delete(`/api/ocr/queue/${id}`) },
      {
        name: "POST /api/labels/{B's label}/assign with the document",
        access: 'editor',
        status: 200,
        send: (c, id) => c.post(`/api/labels/${B.label}/assign`, { document_ids: [id] }),
      },
    ];

    const labelProbes: Probe[] = [
      { name: 'PUT /api/labels/{id}', access: 'editor', send: (c, id) => c.put(`/api/labels/${id}`, { name: `taken over ${suffix()}` }) },
      { name: 'DELETE /api/labels/{id}', access: 'editor', send: (c, id) => c.delete(`/api/labels/${id}`) },
      { name: "POST /api/labels/{id}/assign with B's document", access: 'editor', send: (c, id) => c.post(`/api/labels/${id}/assign`, { document_ids: [B.document] }) },
      {
        name: "PUT /api/documents/{B's document} with the label",
        access: 'editor',
        status: 400,
        send: (c, id) => c.put(`/api/documents/${B.document}`, { labels: [id] }),
      },
      {
        name: 'POST /api/documents/upload with the label',
        access: 'editor',
        status: 400,
        send: (c, id) => c.upload('/api/documents/upload', form({ labels: id, ocr_enabled: 'false' }, [['file', pngImage(4, 4), 'probe.png']])),
      },
      {
        name: 'POST /api/documents/bulk-upload with the label',
        access: 'editor',
        status: 201,
        send: (c, id) => c.upload('/api/documents/bulk-upload', form({ default_labels: id, ocr_enabled: 'false' }, [['files', pngImage(4, 4), 'probe.png']])),
      },
      {
        name: 'POST /api/documents/upload-url with the label',
        access: 'editor',
        status: 400,
        send: (c, id) => c.post('/api/documents/upload-url', { filename: 'probe.pdf', size: 1000, labels: [id] }),
      },
      { name: 'GET /api/documents?label_ids={id}', access: 'viewer', status: 200, send: (c, id) => c.get(`/api/documents?label_ids=${id}`) },
      {
        name: 'GET /api/search with the label as a filter',
        access: 'viewer',
        status: 200,
        send: (c, id) => c.get(`/api/search?q=${SHARED_WORD}&filters=${encodeURIComponent(JSON.stringify({ labels: [id] }))}`),
      },
      {
        name: 'POST /api/search/advanced with the label as a filter',
        access: 'viewer',
        status: 200,
        send: (c, id) =>
          c.post('/api/search/advanced', { query: { must: [{ field: 'all', value: SHARED_WORD, type: 'match' }] }, filters: { labels: [id] } }),
      },
    ];

    const notificationProbes: Probe[] = [
      { name: 'PUT /api/notifications/{id}/read', access: 'viewer', send: (c, id) => c.put(`/api/notifications/${id}/read`) },
    ];

    const userProbes: Probe[] = [
      { name: 'PUT /api/users/{id}', access: 'admin', send: (c, id) => c.put(`/api/users/${id}`, { role: 'viewer' }) },
      { name: 'DELETE /api/users/{id}', access: 'admin', send: (c, id) => c.delete(`/api/users/${id}`) },
    ];

    /**
     * Sends each probe, as each role of B, about each of A's ids and about one id that exists nowhere, and returns
     * per combination what A's id got, what the unknown id got and the status the role should get.
     */
    const compare = async (probes: Probe[], ids: string[]) => {
      const cases = probes.flatMap((probe) => ROLES.map((role) => ({ probe, role, unknown: crypto.randomUUID() })));
      const nowhere = await inBatches(cases.map(({ probe, role, unknown }) => () => probe.send(b[role], unknown)));
      const asked = cases.flatMap((entry, index) => ids.map((id) => ({ ...entry, id, nowhere: observable(nowhere[index]!, entry.unknown) })));
      const theirs = await inBatches(asked.map(({ probe, role, id }) => () => probe.send(b[role], id)));
      return asked.map(({ probe, role, id, nowhere: unknownAnswer }, index) => ({
        case: `${probe.name} as B's ${role} about ${id}`,
        theirs: observable(theirs[index]!, id),
        nowhere: unknownAnswer,
        expected: allowed(probe.access, role) ? (probe.status ?? 404) : 403,
      }));
    };
    const expectIndistinguishable = (results: Awaited<ReturnType<typeof compare>>) => {
      for (const result of results) {
        expect(result.theirs, result.case).toEqual(result.nowhere);
        expect(result.theirs.status, result.case).toBe(result.expected);
      }
    };

    it("answers every document, OCR and assign endpoint about A's documents (OCRed, failed, never OCRed) exactly as about an unknown id, and changes none", async () => {
      // Arrange
      const ids = Object.values(A.documents);

      // Act
      const results = await compare(documentProbes, ids);

      // Assert
      expectIndistinguishable(results);
      const after = await Promise.all(ids.map((id) => a.viewer.get(`/api/documents/${id}`)));
      expect(after.map((d) => [d.status, d.body.title.startsWith('taken over'), d.body.labels.includes(B.label)])).toEqual(Array(3).fill([200, false, false]));
    });

    it("answers every label endpoint and label filter about A's labels exactly as about an unknown label id, and changes none", async () => {
      // Arrange
      const ids = A.labels.map((l) => l.id);

      // Act
      const results = await compare(labelProbes, ids);

      // Assert
      expectIndistinguishable(results);
      const after = await a.viewer.get('/api/labels');
      expect(after.body.labels.map((l: { id: string; name: string; document_count: number }) => [l.id, l.name, l.document_count]).sort()).toEqual(
        [
          [A.labels[0]!.id, A.labels[0]!.name, 2],
          [A.labels[1]!.id, A.labels[1]!.name, 1],
        ].sort(),
      );
    });

    it("answers marking A's notification read exactly as an unknown notification id, and leaves it unread", async () => {
      // Arrange: A's editor's ocr_completed notification above.

      // Act
      const results = await compare(notificationProbes, [A.notification]);

      // Assert
      expectIndistinguishable(results);
      const unread = await a.editor.get('/api/notifications?unread_only=true');
      expect(unread.body.notifications.map((n: { id: string }) => n.id)).toContain(A.notification);
    });

    it("answers changing or deleting A's users exactly as an unknown user id, and changes none", async () => {
      // Arrange
      const ids = Object.values(a.ids);

      // Act
      const results = await compare(userProbes, ids);

      // Assert
      expectIndistinguishable(results);
      const after = await a.admin.get('/api/users?per_page=100');
      expect(after.body.data.map((u: { id: string; role: string }) => [u.id, u.role]).sort()).toEqual(ROLES.map((role) => [a.ids[role], role]).sort());
    });
  });

  describe("B's admin, editor and viewer, listing and counting, see only B", () => {
    it('lists only B’s document under every status, label, date range and sort, with totals that count only B', async () => {
      // Arrange
      const from = new Date(Date.now() - 3_600_000).toISOString();
      const to = new Date(Date.now() + 3_600_000).toISOString();
      const queries = [
        'per_page=100',
        ...DOCUMENT_STATUSES.map((status) => `status=${status}`),
        `label_ids=${A.labels.map((l) => l.id).join(',')}`,
        `label_ids=${B.label}`,
        `date_from=${from}&date_to=${to}`,
        `date_from=${from}`,
        `date_to=${to}`,
        ...DOCUMENT_SORT_FIELDS.map((sort) => `sort=${sort}&order=asc`),
        'sort=title&order=desc',
      ];

      // Act
      const responses = await askEveryRoleOfB(queries.map((query) => (client) => client.get(`/api/documents?${query}`)));

      // Assert
      for (const perRole of responses) {
        perRole.forEach((response, index) => {
          const ids = response.body.data.map((d: { id: string }) => d.id);
          expect(response.status, queries[index]).toBe(200);
          expect(ids.every((id: string) => id === B.document), queries[index]).toBe(true);
          expect(response.body.pagination.total, queries[index]).toBe(ids.length);
          expectNothingOfA(response);
        });
        const [all, ...rest] = perRole;
        expect(all!.body.data.map((d: { id: string }) => d.id)).toEqual([B.document]);
        expect(rest.filter((r) => r.body.data.length === 0).map((r) => queries[perRole.indexOf(r)])).toEqual([
          ...DOCUMENT_STATUSES.filter((status) => status !== perRole[0]!.body.data[0].status).map((status) => `status=${status}`),
          `label_ids=${A.labels.map((l) => l.id).join(',')}`,
        ]);
      }
    });

    it('lists only B’s label, with a document count of B’s documents', async () => {
      // Arrange: A's labels each carry documents; B's one label carries B's one document.

      // Act
      const responses = await asEveryRoleOfB((client) => client.get('/api/labels'));

      // Assert
      for (const response of responses) {
        expect(response.status).toBe(200);
        expect(response.body.labels.map((l: { id: string; document_count: number }) => [l.id, l.document_count])).toEqual([[B.label, 1]]);
        expectNothingOfA(response);
      }
    });

    it('finds only B’s document for a word both workspaces use, with totals and facets of B alone', async () => {
      // Arrange
      const queries = [
        `q=${SHARED_WORD}`,
        `q=${SHARED_WORD}&fuzzy=true`,
        `q=${SHARED_WORD}&highlight=false&per_page=100`,
        `q=${SHARED_WORD}&filters=${encodeURIComponent(JSON.stringify({ mime_types: ['image/png'] }))}`,
        `q=${SHARED_WORD}&filters=${encodeURIComponent(JSON.stringify({ labels: [B.label] }))}`,
      ];

      // Act
      const responses = await askEveryRoleOfB(queries.map((query) => (client) => client.get(`/api/search?${query}`)));

      // Assert
      for (const response of responses.flat()) {
        expect(response.status).toBe(200);
        expect(response.body.results.map((r: { document_id: string }) => r.document_id)).toEqual([B.document]);
        expect(response.body.total).toBe(1);
        expect(response.body.facets.mime_types).toEqual({ 'image/png': 1 });
        expect(Object.values(response.body.facets.labels)).toEqual([1]);
        expectNothingOfA(response);
      }
    });

    it('finds nothing for a word only A’s documents say, however it is searched', async () => {
      // Arrange
      const misspelled = `${A_ONLY_WORD.slice(0, -1)}x`;
      const boxQueries = [
        `q=${A_ONLY_WORD}`,
        `q=${A_ONLY_WORD}&fuzzy=true`,
        `q=${misspelled}&fuzzy=true`,
        `q=${A_ONLY_WORD}&filters=${encodeURIComponent(JSON.stringify({ status: 'completed', min_confidence: 0.5 }))}`,
        `q=${A_ONLY_WORD}&filters=${encodeURIComponent(JSON.stringify({ mime_types: ['application/pdf'] }))}`,
      ];
      const advancedBodies = [
        { query: { must: [{ field: 'all', value: A_ONLY_WORD, type: 'match' }] } },
        { query: { must: [{ field: 'content', value: A_ONLY_WORD, type: 'contains' }] } },
        { query: { must: [{ field: 'title', value: `Failed ${A_ONLY_WORD}`, type: 'exact' }] } },
        { query: { should: [{ field: 'all', value: A_ONLY_WORD, type: 'match' }] }, fuzzy: true },
        { query: { must: [{ field: 'labels', value: A.labels[0]!.name, type: 'match' }] } },
        { query: { must: [{ field: 'metadata', value: A_ONLY_WORD, type: 'contains' }] }, filters: { status: ['completed', 'failed'] } },
        ...SEARCH_SORT_FIELDS.map((field) => ({ query: { should: [{ field: 'all', value: A_ONLY_WORD, type: 'match' }] }, sort: [{ field, order: 'asc' }] })),
      ];

      // Act
      const responses = await askEveryRoleOfB([
        ...boxQueries.map((query) => (client: ApiClient) => client.get(`/api/search?${query}`)),
        ...advancedBodies.map((body) => (client: ApiClient) => client.post('/api/search/advanced', body)),
      ]);

      // Assert
      for (const response of responses.flat()) {
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        expect(response.body.results).toEqual([]);
        expect(response.body.total).toBe(0);
        expect(response.body.facets).toEqual({ mime_types: {}, labels: {} });
        expectNothingOfA(response);
      }
    });

    it('reports an OCR queue, queue status and OCR metrics of B alone: empty, since B never OCRed', async () => {
      // Arrange
      const queueQueries = ['per_page=100', ...OCR_JOB_STATUSES.map((status) => `status=${status}`), ...OCR_PRIORITIES.map((priority) => `priority=${priority}`)];

      // Act
      const responses = await askEveryRoleOfB([
        ...queueQueries.map((query) => (client: ApiClient) => client.get(`/api/ocr/queue?${query}`)),
        (client) => client.get('/api/ocr/queue/status'),
        (client) => client.get('/api/metrics/ocr'),
      ]);

      // Assert
      for (const perRole of responses) {
        const [status, metrics] = perRole.slice(-2) as [ApiResponse, ApiResponse];
        for (const queue of perRole.slice(0, -2)) {
          expect(queue.status).toBe(200);
          expect(queue.body.data).toEqual([]);
          expect(queue.body.pagination.total).toBe(0);
        }
        expect(status.body).toMatchObject({ pending: 0, processing: 0, completed_today: 0, failed: 0 });
        expect(metrics.body).toMatchObject({ total_processed: 0, languages_used: {} });
        expectNothingOfA(metrics);
      }
    });

    it('lists no notification of A, and marking all read leaves A’s unread', async () => {
      // Arrange: A's editor has an unread ocr_completed notification.

      // Act
      const [lists, marks] = await Promise.all([
        asEveryRoleOfB((client) => client.get('/api/notifications')),
        asEveryRoleOfB((client) => client.put('/api/notifications/read-all')),
      ]);
      const unreadInA = await a.editor.get('/api/notifications?unread_only=true');

      // Assert
      for (const list of lists) expect(list.body).toEqual({ notifications: [] });
      expect(marks.map((m) => m.status)).toEqual([200, 200, 200]);
      expect(unreadInA.body.notifications.map((n: { id: string }) => n.id)).toContain(A.notification);
    });

    it('lists only B’s users to B’s admin', async () => {
      // Arrange: three members in each workspace.

      // Act
      const users = await b.admin.get('/api/users?per_page=100');

      // Assert
      expect(users.body.data.map((u: { id: string }) => u.id).sort()).toEqual(Object.values(b.ids).sort());
      expect(users.body.pagination.total).toBe(3);
      expectNothingOfA(users);
    });
  });

  it("lets B create a label with the name of one of A's, which A itself may not reuse", async () => {
    // Arrange
    const name = A.labels[0]!.name;

    // Act
    const [inB, inA] = await Promise.all([
      b.editor.post('/api/labels', { name, color: '#123456' }),
      a.editor.post('/api/labels', { name: name.toUpperCase(), color: '#123456' }),
    ]);

    // Assert
    expect(inB.status).toBe(201);
    expect(inB.body).toMatchObject({ name, document_count: 0 });
    expect(inA.status).toBe(409);
    expect(inA.body.error.code).toBe('DUPLICATE_RESOURCE');
    expect((await b.admin.delete(`/api/labels/${inB.body.id}`)).status).toBe(204);
  });

  it("sends A's document_created, document_updated, ocr_progress and queue_status to A's connection and none of them to B's", async () => {
    // Arrange
    const connect = async (client: ApiClient) => {
      const channel = await ChannelClient.authenticated(baseUrl, client.token!);
      opened.push(channel);
      await channel.request({ type: 'subscribe', events: [...SERVER_EVENT_TYPES] });
      return channel;
    };
    const [inA, ...inB] = await Promise.all([connect(a.editor), ...ROLES.map((role) => connect(b[role]))]);
    const about = (type: string, id: string) => (m: ChannelMessage) => m.type === type && m.data.document_id === id;

    // Act: a two-page scan, so that OCR reports progress after its first page, then an edit.
    const id = await a.editor.uploadDocument('two-pages.pdf', textPdf([[`Page one ${A_ONLY_WORD}`], [`Page two ${A_ONLY_WORD}`]]), {
      title: `Watched ${A_ONLY_WORD}`,
    });
    await inA.next((m) => about('ocr_progress', id)(m) && m.data.status === 'completed', 60_000);
    await a.editor.put(`/api/documents/${id}`, { title: `Watched again ${A_ONLY_WORD}` });
    await inA.next(about('document_updated', id));
    // B's own upload, sent after A's events: once B's connections have it, anything of A's would have come too.
    const own = await b.editor.uploadDocument('own.png', pngImage(4, 4), { title: 'Own', ocr_enabled: 'false' });
    await Promise.all(inB.map((channel) => channel.next(about('document_created', own))));
    await new Promise((resolveWait) => setTimeout(resolveWait, 300));

    // Assert
    expect(inA.received.some(about('document_created', id))).toBe(true);
    expect(inA.received.some((m) => m.type === 'ocr_progress' && m.data.document_id === id && m.data.progress < 100)).toBe(true);
    expect(inA.received.some((m) => m.type === 'queue_status')).toBe(true);
    expect(inA.received.some((m) => m.type === 'notification')).toBe(true);
    expect(inA.received.some(about('document_created', own))).toBe(false);
    for (const channel of inB) {
      expect(channel.received.map((m) => m.type)).toEqual(['auth_success', 'subscribed', 'document_created']);
      expect(JSON.stringify(channel.received)).not.toContain(id);
    }
    await b.editor.delete(`/api/documents/${own}`);
  }, 60_000);

  describe('role changes and deletions in a workspace', () => {
    /** A fresh member of B, so that the other tests keep B's three. */
    const member = async (role: Role) => {
      const account = { username: `ws_b_extra_${suffix()}`, email: `ws_b_extra_${suffix()}@example.com`, password: `pw-${suffix()}-secret` };
      const created = await b.admin.post('/api/users', { ...account, role });
      return { id: created.body.id as string, client: await anonymous.login(account.username, account.password) };
    };
    const upload = (client: ApiClient) => client.upload('/api/documents/upload', form({ ocr_enabled: 'false' }, [['file', pngImage(4, 4), 'role.png']]));

    it('refuses a demoted editor’s next upload with 403, and accepts it again once promoted back', async () => {
      // Arrange
      const { id, client } = await member('editor');

      // Act
      const demoted = await b.admin.put(`/api/users/${id}`, { role: 'viewer' });
      const asViewer = await upload(client);
      const promoted = await b.admin.put(`/api/users/${id}`, { role: 'editor' });
      const asEditor = await upload(client);

      // Assert
      expect([demoted.status, promoted.status]).toEqual([200, 200]);
      expect(asViewer.status).toBe(403);
      expect(asViewer.body.error.code).toBe('FORBIDDEN');
      expect(asEditor.status).toBe(201);
      await b.admin.delete(`/api/documents/${asEditor.body.id}`);
    });

    it('lets a viewer promoted to admin manage users on the next request', async () => {
      // Arrange
      const { id, client } = await member('viewer');
      const before = await client.get('/api/users');

      // Act
      await b.admin.put(`/api/users/${id}`, { role: 'admin' });
      const after = await client.get('/api/users');

      // Assert
      expect(before.status).toBe(403);
      expect(after.status).toBe(200);
      expect(after.body.data.map((u: { id: string }) => u.id)).not.toContain(a.ids.admin);
      expect((await b.admin.delete(`/api/users/${id}`)).status).toBe(204);
    });

    it('refuses a deleted user’s token with 401 UNAUTHORIZED on every endpoint', async () => {
      // Arrange
      const { id, client } = await member('editor');

      // Act
      const removal = await b.admin.delete(`/api/users/${id}`);
      const after = await Promise.all([client.get('/api/documents'), client.get('/api/labels'), upload(client), client.get(`/api/search?q=${SHARED_WORD}`)]);

      // Assert
      expect(removal.status).toBe(204);
      expect(after.map((r) => [r.status, r.body.error?.code])).toEqual(Array(4).fill([401, 'UNAUTHORIZED']));
    });
  });
});
