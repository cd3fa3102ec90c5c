import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, Worker } from 'node:worker_threads';
import { logger } from '../../observability/logger';
import type { RunningEmulator } from './dynamodb-local';

/** What an emulator's thread tells its parent: its port once listening, its own messages, and that it closed. */
export type EmulatorThreadMessage = { type: 'listening'; port: number } | { type: 'stopped' } | { type: 'event'; event: unknown };

/** tsx's ESM API, which the thread registers so that it can load the emulator's TypeScript source. */
const tsxEsmApiUrl = (): string => {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import?: { default?: string } }> };
  return pathToFileURL(join(dirname(manifest), exports['./esm/api']?.import?.default ?? 'dist/esm/api/index.mjs')).href;
};

/**
 * Runs the emulator module `source` (a `*-thread.ts` beside this one, which calls {@link serveOnThisThread}) on a
 * thread of its own, with `settings` as its `workerData`. An emulator's request takes many turns of an event
 * loop (routing, file-system callbacks, hashing bodies, reading the kernel's socket table for each connection);
 * on the thread that answers the API every turn waited behind the API's own work, so under load a health probe
 * of a healthy emulator took over 2 s. A thread ends with the process, so it can never be left running.
 */
export async function startEmulatorThread(options: {
  name: string;
  source: URL;
  settings: unknown;
  onEvent?: (event: unknown) => void;
}): Promise<RunningEmulator> {
  const worker = new Worker(
    `import(${JSON.stringify(tsxEsmApiUrl())}).then((tsx) => { tsx.register(); return import(${JSON.stringify(options.source.href)}); });`,
    { eval: true, workerData: options.settings },
  );
  // The thread alone must not keep the process alive: its owner stops it on shutdown.
  worker.unref();
  let running = true;
  let stopping: Promise<void> | undefined;
  worker.once('exit', (code) => {
    running = false;
    // /api/health then reports the dependency unavailable; the log says why.
    if (!stopping) logger.error(`the ${options.name} stopped`, { exit_code: code });
  });
  const exited = new Promise<never>((_, reject) => {
    worker.once('error', (error) => {
      // Logged here too: after the start nobody awaits this promise, and the exit alone does not say why.
      if (!stopping) logger.error(`the ${options.name} failed`, { error });
      reject(new Error(`the ${options.name} failed: ${error.message}`));
    });
    worker.once('exit', (code) => reject(new Error(`the ${options.name}'s thread exited with code ${code}`)));
  });
  exited.catch(() => undefined);
  const listening = new Promise<number>((resolve) => {
    worker.on('message', (message: EmulatorThreadMessage) => {
      if (message.type === 'listening') resolve(message.port);
      else if (message.type === 'event') options.onEvent?.(message.event);
      else if (message.type === 'stopped') void worker.terminate();
    });
  });
  const stop = (): Promise<void> =>
    (stopping ??= new Promise<void>((resolve) => {
      if (!running) return resolve();
      worker.once('exit', () => resolve());
      worker.postMessage({ type: 'stop' });
      // A server that cannot close its connections in time is ended with its thread.
      setTimeout(() => void worker.terminate(), 5000).unref();
    }));
  try {
    const port = await Promise.race([listening, exited]);
    return { endpoint: `http://127.0.0.1:${port}`, stop };
  } catch (error) {
    stopping = Promise.resolve();
    await worker.terminate();
    throw error;
  }
}

/**
 * The thread's side of {@link startEmulatorThread}: starts the server, reports its port, closes it when asked.
 * `post` sends the emulator's own messages (such as S3's object events) to the parent.
 */
export async function serveOnThisThread(
  start: (post: (message: EmulatorThreadMessage) => void) => Promise<{ port: number; close: () => Promise<unknown> }>,
): Promise<void> {
  const port = parentPort!;
  const post = (message: EmulatorThreadMessage) => port.postMessage(message);
  // A request that fails outside the server's own handling (a file stream erroring after its response began,
  // a client gone mid-body) must not end the emulator for every other request: it is logged and the server goes on.
  process.on('uncaughtException', (error) => logger.error('emulator: an error outside a request handler', { error }));
  const server = await start(post);
  port.on('message', (message: { type: string }) => {
    if (message.type !== 'stop') return;
    void server.close().finally(() => {
      post({ type: 'stopped' });
      port.close();
    });
  });
  post({ type: 'listening', port: server.port });
}
