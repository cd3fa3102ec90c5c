import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { eventually } from '../support/until';
import { ApiClient } from '../support/api-client';
import { pngImage } from '../support/fixtures';
import { typedClient } from '../support/typed-client';
import { E2E_ADMIN } from './global-setup';

describe('labels', () => {
  const anonymous = new ApiClient(inject('baseUrl'));
  let editor: ApiClient;
  const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;

  const uploadDocument = () => editor.uploadDocument('doc.png', pngImage(4, 4));
  const countOf = async (id: string) =>
    (await editor.get('/api/labels')).body.labels.find((l: { id: string }) => l.id === id)?.document_count;

  beforeAll(async () => {
    editor = await anonymous.login(E2E_ADMIN.username, E2E_ADMIN.password);
  });

  it('creates a label and lists it with a document count', async () => {
    // Through the client generated from the API contract (client/).
    const api = typedClient(editor.baseUrl, editor.token);
    const name = unique('Invoices');

    const created = await api.POST('/api/labels', { body: { name, color: '#FF0000', description: 'Bills to pay' } });

    expect(created.response.status).toBe(201);
    expect(created.data).toMatchObject({ name, color: '#ff0000', description: 'Bills to pay', document_count: 0, created_by: E2E_ADMIN.username });
    const listed = (await api.GET('/api/labels')).data?.labels;
    expect(listed).toEqual(expect.arrayContaining([expect.objectContaining({ id: created.data?.id, document_count: 0 })]));
  });

  it('refuses a name that another label has, whatever its case', async () => {
    const api = typedClient(editor.baseUrl, editor.token);
    const name = unique('Receipts');
    await api.POST('/api/labels', { body: { name, color: '#00ff00' } });

    const again = await api.POST('/api/labels', { body: { name: name.toUpperCase(), color: '#00ff00' } });

    expect(again.response.status).toBe(409);
    expect(again.error?.error).toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { field: 'name' } });
  });

  it.each(['red', '#fff', '#GGGGGG', '00ff00'])('refuses the colour %s', async (color) => {
    const response = await editor.post('/api/labels', { name: unique('bad'), color });

    expect(response.status).toBe(400);
    expect(response.body.error.details.field).toBe('color');
  });

  it('changes only the given fields, and refuses a rename to a taken name', async () => {
    const taken = unique('taken');
    await editor.post('/api/labels', { name: taken, color: '#000000' });
    const label = (await editor.post('/api/labels', { name: unique('old'), color: '#111111', description: 'kept' })).body;

    const renamed = await editor.put(`/api/labels/${label.id}`, { name: unique('new') });
    const clash = await editor.put(`/api/labels/${label.id}`, { name: taken });

    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ color: '#111111', description: 'kept' });
    expect(clash.status).toBe(409);
  });

  it('frees the old name after a rename', async () => {
    const original = unique('first');
    const label = (await editor.post('/api/labels', { name: original, color: '#111111' })).body;
    await editor.put(`/api/labels/${label.id}`, { name: unique('second') });

    expect((await editor.post('/api/labels', { name: original, color: '#222222' })).status).toBe(201);
  });

  it('assigns to documents, reporting unknown ids and documents that had it already', async () => {
    const api = typedClient(editor.baseUrl, editor.token);
    const label = (await editor.post('/api/labels', { name: unique('assign'), color: '#123456' })).body.id;
    const [first, second] = [await uploadDocument(), await uploadDocument()];
    const unknown = crypto.randomUUID();
    const assign = (document_ids: string[]) => api.POST('/api/labels/{id}/assign', { params: { path: { id: label } }, body: { document_ids } });
    await assign([first]);

    const response = await assign([first, second, unknown]);

    expect(response.response.status).toBe(200);
    expect(response.data).toEqual({ assigned: [second], already_assigned: [first], not_found: [unknown] });
    expect(await countOf(label)).toBe(2);
  });

  it('keeps document_count exact under concurrent assigns and deletes', async () => {
    const label = (await editor.post('/api/labels', { name: unique('race'), color: '#654321' })).body.id;
    const documents = await Promise.all(Array.from({ length: 6 }, uploadDocument));

    await Promise.all([
      ...documents.map((id) => editor.post(`/api/labels/${label}/assign`, { document_ids: [id] })),
      ...documents.map((id) => editor.post(`/api/labels/${label}/assign`, { document_ids: documents.slice(0, 3).concat(id) })),
      editor.delete(`/api/documents/${documents[5]}`),
    ]);
    await editor.delete(`/api/documents/${documents[4]}`);

    // The label's count is the table's; the listing by label follows the table's stream.
    const count = await countOf(label);
    const carrying = await eventually(() => editor.get(`/api/documents?label_ids=${label}`), (page) => page.body.pagination.total === count);
    expect(count).toBe(carrying.body.pagination.total);
    expect(carrying.body.pagination.total).toBe(4);
  });

  it('takes a deleted label off its documents', async () => {
    const label = (await editor.post('/api/labels', { name: unique('doomed'), color: '#abcdef' })).body.id;
    const document = await uploadDocument();
    await editor.post(`/api/labels/${label}/assign`, { document_ids: [document] });

    const deleted = await editor.delete(`/api/labels/${label}`);

    expect(deleted.status).toBe(204);
    expect((await editor.get(`/api/documents/${document}`)).body.labels).toEqual([]);
    expect((await editor.delete(`/api/labels/${label}`)).status).toBe(404);
    expect((await editor.post(`/api/labels/${label}/assign`, { document_ids: [document] })).status).toBe(404);
  });

  it('lets a viewer list labels but not change them', async () => {
    const { client } = await editor.addMember('viewer', 'labelviewer');

    expect((await client.get('/api/labels')).status).toBe(200);
    expect((await client.post('/api/labels', { name: unique('nope'), color: '#000000' })).status).toBe(403);
  });
});
