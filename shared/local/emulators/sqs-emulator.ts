import type { RunningEmulator } from './dynamodb-local';
import { startEmulatorThread } from './emulator-thread';

/**
 * Starts an SQS-protocol server (JSON protocol, visibility timeouts, long polling, redrive to a DLQ) on a thread
 * of its own (see `startEmulatorThread`), on loopback only, for this OS user only (it checks no signature).
 * Queues live in memory: documents still pending are queued again on start.
 */
export function startSqsEmulator(options: { port?: number } = {}): Promise<RunningEmulator> {
  return startEmulatorThread({
    name: 'SQS emulator',
    source: new URL('./sqs-emulator-thread.ts', import.meta.url),
    settings: { port: options.port ?? 0 },
  });
}
