import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import WebSocket from 'ws';
import { ApiClient } from '../support/api-client';
import { assertInAsyncApi } from '../support/asyncapi-validator';

const baseUrl = inject('baseUrl');
const wsUrl = `${baseUrl.replace(/^http/, 'ws')}/ws`;

/** Opens /ws, sends one message and resolves with the first reply, which must keep the AsyncAPI document. */
async function exchange(message: string): Promise<{ type: string; data: Record<string, unknown> }> {
  const socket = new WebSocket(wsUrl);
  try {
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const reply = new Promise<string>((resolve) => socket.once('message', (data) => resolve(data.toString())));
    socket.send(message);
    const answer = JSON.parse(await reply) as { type: string; data: Record<string, unknown> };
    assertInAsyncApi([answer]);
    return answer;
  } finally {
    socket.close();
  }
}

describe('the /ws channel', () => {
  it('accepts a valid token in an auth message', async () => {
    const { client } = await new ApiClient(baseUrl).signUp('socket');
    const token = client.token!;

    const reply = await exchange(JSON.stringify({ type: 'auth', token }));

    expect(reply.type).toBe('auth_success');
    expect(reply.data.username).toMatch(/^socket_/);
  });

  it('answers a bad token with an UNAUTHORIZED error message', async () => {
    const reply = await exchange(JSON.stringify({ type: 'auth', token: 'not-a-token' }));

    expect(reply).toMatchObject({ type: 'error', data: { code: 'UNAUTHORIZED' } });
  });

  it('answers malformed JSON with an error message and stays usable', async () => {
    const reply = await exchange('{"type": ');

    expect(reply).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR' } });
  });

  it('answers an unknown message type with an error naming it', async () => {
    const reply = await exchange(JSON.stringify({ type: 'shout' }));

    expect(reply).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR', details: { type: 'shout' } } });
  });

  it('answers a message with a field it does not have with an error naming its type', async () => {
    const reply = await exchange(JSON.stringify({ type: 'ping', pad: 'x' }));

    expect(reply).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR', details: { type: 'ping', accepted_types: ['auth', 'subscribe', 'ping'] } } });
  });

  it('answers a message over 16 KB with a VALIDATION_ERROR message', async () => {
    const reply = await exchange(JSON.stringify({ type: 'subscribe', events: ['x'.repeat(17 * 1024)] }));

    expect(reply).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR' } });
    expect(reply.data.message).toContain('16384 bytes');
  });

  it('refuses a WebSocket upgrade on another path', async () => {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/elsewhere`);

    const outcome = await new Promise<string>((resolve) => {
      socket.once('open', () => resolve('open'));
      socket.once('error', () => resolve('refused'));
    });

    expect(outcome).toBe('refused');
  });
});
