import { buildApp } from 'fauxqs';
import { admitOwnUserOnly } from '../loopback-peer';
import type { RunningEmulator } from './dynamodb-local';

/**
 * Starts an SQS-protocol server (JSON protocol, visibility timeouts, long polling, redrive to a DLQ) in this
 * process, on loopback only, for this OS user only (it checks no signature). Queues live in memory: documents
 * still pending are queued again on start.
 */
export async function startSqsEmulator(options: { port?: number } = {}): Promise<RunningEmulator> {
  const app = buildApp({ logger: false });
  admitOwnUserOnly(app.server);
  await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => app.close() };
}
