import { marshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { auditEntryOf } from '../../../../../shared/adapters/aws/dynamodb/audit-records';
import type { ActorStamp } from '../../../../../shared/adapters/aws/dynamodb/actor-stamp';

const WS = '11111111-1111-4111-8111-111111111111';
const stamp = (overrides: Partial<ActorStamp> = {}): ActorStamp => ({
  user_id: '22222222-2222-4222-8222-222222222222',
  token_id: null,
  workspace_id: WS,
  ip: '198.51.100.4',
  user_agent: 'test',
  request_id: 'req-1',
  write_id: crypto.randomUUID(),
  at: '2026-11-29T08:00:00.000Z',
  ...overrides,
});
const image = (item: Record<string, unknown> | null) => (item ? (marshall(item, { removeUndefinedValues: true }) as Record<string, AttributeValue>) : undefined);
const record = (event: 'INSERT' | 'MODIFY' | 'REMOVE', keys: { pk: string; sk: string }, before: Record<string, unknown> | null, after: Record<string, unknown> | null): DynamoDBRecord => ({
  eventID: crypto.randomUUID(),
  eventName: event,
  dynamodb: {
    Keys: image(keys),
    ...(before ? { OldImage: image({ ...keys, ...before }) } : {}),
    ...(after ? { NewImage: image({ ...keys, ...after }) } : {}),
    SequenceNumber: '1',
    ApproximateCreationDateTime: 1_795_000_000,
  },
});

const docKeys = { pk: `WS#${WS}#DOC#d1`, sk: 'META' };

describe('audit entries from stream records', () => {
  it('names the user whose request inserted an item, at the time of the write', () => {
    const who = stamp({ token_id: 'tok-1' });

    const entry = auditEntryOf(record('INSERT', docKeys, null, { id: 'd1', filename: 'a.pdf', _actor: who }));

    expect(entry).toMatchObject({ workspace_id: WS, action: 'document.created', at: who.at, actor: { user_id: who.user_id, token_id: 'tok-1', ip: who.ip }, target: { type: 'document', id: 'd1', name: 'a.pdf' } });
  });

  it('records nothing for an update that wrote no new stamp (a worker)', () => {
    const who = stamp();

    const entry = auditEntryOf(record('MODIFY', docKeys, { id: 'd1', status: 'pending', _actor: who }, { id: 'd1', status: 'completed', _actor: who }));

    expect(entry).toBeNull();
  });

  it('records nothing for a change of the stamp alone (the mark before a delete)', () => {
    const entry = auditEntryOf(record('MODIFY', docKeys, { id: 'd1', _actor: stamp() }, { id: 'd1', _actor: stamp({ op: 'delete' }) }));

    expect(entry).toBeNull();
  });

  it('names the deleter from the delete stamp, and no one for a delete without it (an expiry, an erasure)', () => {
    const deleter = stamp({ op: 'delete', user_id: '33333333-3333-4333-8333-333333333333' });

    const marked = auditEntryOf(record('REMOVE', docKeys, { id: 'd1', _actor: deleter }, null));
    const unmarked = auditEntryOf(record('REMOVE', docKeys, { id: 'd1', _actor: stamp() }, null));

    expect(marked).toMatchObject({ action: 'document.deleted', actor: { user_id: deleter.user_id } });
    expect(unmarked).toBeNull();
  });

  it("says a member's role changed, from and to, and names the changed fields only", () => {
    const keys = { pk: 'USER#u1', sk: 'PROFILE' };

    const entry = auditEntryOf(record('MODIFY', keys, { id: 'u1', workspace_id: WS, username: 'bob', role: 'viewer', password_hash: 'x', _actor: stamp() }, { id: 'u1', workspace_id: WS, username: 'bob', role: 'editor', password_hash: 'x', _actor: stamp() }));

    expect(entry).toMatchObject({ action: 'user.role_changed', target: { type: 'user', id: 'u1', name: 'bob' }, details: { role: { from: 'viewer', to: 'editor' }, fields: ['role'] } });
  });

  it("files a token under the workspace its item names, and a user's settings under the actor's", () => {
    const token = auditEntryOf(record('INSERT', { pk: 'APITOKEN#abc', sk: 'TOKEN' }, null, { id: 't1', workspace_id: WS, name: 'ci', _actor: stamp() }));
    const settings = auditEntryOf(record('INSERT', { pk: 'USER#u1', sk: 'SETTINGS' }, null, { theme: 'dark', _actor: stamp() }));

    expect(token).toMatchObject({ workspace_id: WS, action: 'token.created', target: { type: 'token', id: 't1', name: 'ci' } });
    expect(settings).toMatchObject({ workspace_id: WS, action: 'settings.created', target: { type: 'settings', id: 'u1' } });
  });

  it('records a scheduled sync and an erasure completed as the system', () => {
    const sync = auditEntryOf(record('INSERT', { pk: `WS#${WS}#SOURCE#s1#JOBS`, sk: 'job-1' }, null, { id: 'job-1' }));
    const erased = auditEntryOf(record('MODIFY', { pk: `ERASURE#${WS}`, sk: 'RECORD' }, { status: 'erasing' }, { status: 'completed', workspace_name: 'Acme' }));

    expect(sync).toMatchObject({ action: 'source.sync_started', actor: { user_id: null }, target: { type: 'source', id: 's1' } });
    expect(erased).toMatchObject({ workspace_id: WS, action: 'workspace.erased', actor: { user_id: null }, target: { name: 'Acme' } });
  });

  it('ignores items the log does not follow', () => {
    const entry = auditEntryOf(record('INSERT', { pk: `WS#${WS}#USAGE`, sk: '2026-11' }, null, { api_requests: 1, _actor: stamp() }));

    expect(entry).toBeNull();
  });
});
