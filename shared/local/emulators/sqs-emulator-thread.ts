/** The SQS emulator's own thread (see `startSqsEmulator`). */
import { workerData } from 'node:worker_threads';
import { buildApp } from 'fauxqs';
import { admitOwnUserOnly } from '../loopback-peer';
import { serveOnThisThread } from './emulator-thread';

const settings = workerData as { port: number };

await serveOnThisThread(async () => {
  const app = buildApp({ logger: false });
  admitOwnUserOnly(app.server);
  await app.listen({ port: settings.port, host: '127.0.0.1' });
  const address = app.server.address();
  return { port: typeof address === 'object' && address ? address.port : 0, close: () => app.close() };
});
