import { AsyncLocalStorage } from 'node:async_hooks';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger } from '../observability/logger';

/**
 * Where the time of each OCR job delivery goes in the local runtime, logged at debug level (`LOG_LEVEL=debug`):
 * one `ocr-worker: timings` line per delivery with the wait on the queue (sent to received), the whole handler
 * call, and the time spent in each port call the worker made (`ocrJobs.claim`, `files.get`, `engine.recognize`,
 * `search.reindex`, `events.publish`, ...), summed per call name with the number of calls. Calls made side by
 * side (the record and the file are fetched together) each count their own time. bench/ocr-batch.ts reads these
 * lines for its table of one document's time.
 */

interface Timings {
  calls: Map<string, { ms: number; count: number }>;
}

const current = new AsyncLocalStorage<Timings>();

const record = (name: string, ms: number): void => {
  const timings = current.getStore();
  if (!timings) return;
  const entry = timings.calls.get(name) ?? { ms: 0, count: 0 };
  entry.ms += ms;
  entry.count++;
  timings.calls.set(name, entry);
};

/** `port` with every method timed under `name.method` while a delivery is being timed; as is otherwise. */
function timedPort<T extends object>(name: string, port: T): T {
  return new Proxy(port, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      return (...args: unknown[]) => {
        const result: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (!current.getStore() || !(result instanceof Promise)) return result;
        const started = performance.now();
        return result.finally(() => record(`${name}.${property}`, performance.now() - started));
      };
    },
  });
}

/** The ports the OCR worker calls; each one present in `deps` is timed. */
const PORTS = ['ocrJobs', 'documents', 'files', 'engine', 'textLayer', 'notifications', 'settings', 'events', 'search'] as const;

/** A copy of `deps` with each of the worker's ports in it timed. */
function timedPorts(deps: object): Record<string, unknown> {
  const timed = { ...deps } as Record<string, unknown>;
  for (const port of PORTS) {
    const value = timed[port];
    if (value && typeof value === 'object') timed[port] = timedPort(port, value);
  }
  return timed;
}

/**
 * `deps` with the worker's ports timed, and `handler` made to log where each delivery's time went. Only when
 * debug logging is on: otherwise both are returned as they are, so nothing is added to the work.
 */
export function timeOcrWorker<D extends object>(
  deps: D,
  makeHandler: (deps: D) => (event: SQSEvent) => Promise<SQSBatchResponse | void>,
): (event: SQSEvent) => Promise<SQSBatchResponse | void> {
  if (process.env['LOG_LEVEL'] !== 'debug') return makeHandler(deps);
  const timed = timedPorts(deps);
  // The stores of the job's workspace come from `forWorkspace`: their calls are timed as well.
  const forWorkspace = (deps as { forWorkspace?: unknown }).forWorkspace;
  if (typeof forWorkspace === 'function') {
    timed['forWorkspace'] = (workspaceId: string) => timedPorts((forWorkspace as (id: string) => object).call(deps, workspaceId));
  }
  const handler = makeHandler(timed as D);
  return async (event) => {
    const timings: Timings = { calls: new Map() };
    const received = Date.now();
    const started = performance.now();
    try {
      return await current.run(timings, () => handler(event));
    } finally {
      const sent = Number(event.Records[0]?.attributes.SentTimestamp ?? received);
      logger.debug('ocr-worker: timings', {
        message_ids: event.Records.map((r) => r.messageId),
        body: event.Records[0]?.body,
        queue_wait_ms: Math.max(0, received - sent),
        handler_ms: Math.round(performance.now() - started),
        calls: Object.fromEntries([...timings.calls].map(([name, { ms, count }]) => [name, { ms: Math.round(ms * 10) / 10, count }])),
      });
    }
  };
}
