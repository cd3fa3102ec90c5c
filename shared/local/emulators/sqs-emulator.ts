import { buildApp } from 'fauxqs';
import type { RunningEmulator } from './dynamodb-local';

/**
 * Starts an SQS-protocol server (JSON protocol, visibility timeouts, long polling, redrive to a DLQ) in this
 * process, on loopback only. Queues live in memory: documents still pending are queued again on start.
 */
export async function startSqsEmulator(options: { port?: number } = {}): Promise<RunningEmulator> {
  const app = buildApp({ logger: false });
  await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => app.close() };
}
