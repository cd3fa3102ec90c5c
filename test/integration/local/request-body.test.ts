import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { createServer, request as httpRequest, type ClientRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BodyAbortedError, BodyTimeoutError, receiveBody, type BodyReaderOptions, type ReceivedBody } from '../../../shared/local/request-body';
import { until } from '../../support/until';

const WINDOW = 64 * 1024;

class TooLarge extends Error {
  constructor(readonly receivedBytes: number) {
    super('too large');
  }
}

/**
 * The gateway's body reader behind a loopback server: each request's body is received with `options` over a
 * spool folder of the test's own, and the outcome (the body, or why it was refused) is handed to the test.
 */
describe('receiveBody', () => {
  let spoolDir: string;
  let server: Server;
  let outcomes: Promise<ReceivedBody | Error>[];

  const listen = async (options: Partial<BodyReaderOptions> = {}): Promise<string> => {
    server = createServer((request, response) => {
      const outcome = receiveBody(request, {
        maxBytes: 8 * WINDOW,
        memoryWindowBytes: WINDOW,
        spoolDir,
        idleMs: 10_000,
        totalMs: 20_000,
        tooLarge: (received) => new TooLarge(received),
        ...options,
      }).catch((error: Error) => error);
      outcomes.push(outcome);
      void outcome.then(() => response.end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  };

  /** A POST whose body the test writes; `contentLength` unset sends it chunked. */
  const post = (url: string, contentLength?: number): ClientRequest => {
    const outgoing = httpRequest(url, { method: 'POST', agent: false, headers: contentLength === undefined ? {} : { 'content-length': contentLength } });
    outgoing.on('error', () => undefined);
    outgoing.on('response', (response) => response.resume());
    outgoing.flushHeaders();
    return outgoing;
  };

  const spooled = () => readdir(spoolDir);

  /** The outcome of the first request the server received. */
  const firstOutcome = async (): Promise<ReceivedBody | Error> => {
    await until(() => outcomes.length === 1, 10_000, 'the outcome of the body');
    return outcomes[0]!;
  };

  beforeEach(async () => {
    spoolDir = await mkdtemp(join(tmpdir(), 'docservice-spool-'));
    outcomes = [];
  });

  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await rm(spoolDir, { recursive: true, force: true });
  });

  it('keeps a body within the memory window in memory, with no spool file', async () => {
    const url = await listen();
    const bytes = Buffer.alloc(WINDOW, 'a');

    post(url, bytes.length).end(bytes);
    const body = (await firstOutcome()) as ReceivedBody;

    expect(body.spoolPath).toBeNull();
    expect((await body.bytes()).equals(bytes)).toBe(true);
    expect(await spooled()).toEqual([]);
  });

  it('spools a body past the memory window to a file only the runtime can read while it arrives', async () => {
    const url = await listen();
    const outgoing = post(url, 4 * WINDOW);

    outgoing.write(Buffer.alloc(2 * WINDOW, 'b'));
    await until(async () => (await spooled()).length === 1, 10_000, 'a spool file');
    const [file] = await spooled();

    expect(file).toMatch(/^request-body-/);
    expect((await stat(join(spoolDir, file!))).mode & 0o777).toBe(0o600);
    outgoing.destroy();
  });

  it('hands over a spooled body whole once it is complete, and removes its file when it is read', async () => {
    const url = await listen();
    const bytes = Buffer.concat([Buffer.alloc(3 * WINDOW, 'c'), Buffer.from('the end')]);

    post(url, bytes.length).end(bytes);
    const body = (await firstOutcome()) as ReceivedBody;
    const read = await body.bytes();

    expect(read.equals(bytes)).toBe(true);
    expect(body.size).toBe(bytes.length);
    expect(body.spoolPath).toBeNull();
    expect(await spooled()).toEqual([]);
  });

  it('removes the spool file of a complete body that is disposed of unread', async () => {
    const url = await listen();

    post(url, 2 * WINDOW).end(Buffer.alloc(2 * WINDOW, 'd'));
    const body = (await firstOutcome()) as ReceivedBody;
    await body.dispose();

    expect(await spooled()).toEqual([]);
  });

  it('rejects as aborted and leaves no spool file when the client goes away mid-body', async () => {
    const url = await listen();
    const outgoing = post(url, 8 * WINDOW);
    outgoing.write(Buffer.alloc(3 * WINDOW, 'e'));
    await until(async () => (await spooled()).length === 1, 10_000, 'a spool file');

    outgoing.destroy();
    const outcome = await firstOutcome();

    expect(outcome).toBeInstanceOf(BodyAbortedError);
    await until(async () => (await spooled()).length === 0, 10_000, 'the spool file removed');
  });

  it('refuses a body declared over the limit at once, with the declared length', async () => {
    const url = await listen();

    post(url, 8 * WINDOW + 1);
    const outcome = await firstOutcome();

    expect(outcome).toBeInstanceOf(TooLarge);
    expect((outcome as TooLarge).receivedBytes).toBe(8 * WINDOW + 1);
  });

  it('refuses a chunked body that grows past the limit and leaves no spool file', async () => {
    const url = await listen();
    const outgoing = post(url);

    outgoing.write(Buffer.alloc(9 * WINDOW, 'f'));
    const outcome = await firstOutcome();

    expect(outcome).toBeInstanceOf(TooLarge);
    await until(async () => (await spooled()).length === 0, 10_000, 'the spool file removed');
    outgoing.destroy();
  });

  it('cuts off a body that sends nothing for the idle timeout, leaving no spool file', async () => {
    const url = await listen({ idleMs: 300 });
    const outgoing = post(url, 8 * WINDOW);

    outgoing.write(Buffer.alloc(2 * WINDOW, 'g'));
    const outcome = await firstOutcome();

    expect(outcome).toBeInstanceOf(BodyTimeoutError);
    expect((outcome as BodyTimeoutError).bound).toBe('idle');
    await until(async () => (await spooled()).length === 0, 10_000, 'the spool file removed');
    outgoing.destroy();
  });

  it('cuts off a body still trickling in when the total timeout is reached', async () => {
    const url = await listen({ idleMs: 5_000, totalMs: 600 });
    const outgoing = post(url, 8 * WINDOW);
    const trickle = setInterval(() => outgoing.write('h'), 50);

    const outcome = await firstOutcome();
    clearInterval(trickle);

    expect(outcome).toBeInstanceOf(BodyTimeoutError);
    expect((outcome as BodyTimeoutError).bound).toBe('total');
    outgoing.destroy();
  });
});
