import { afterEach, describe, expect, it, vi } from 'vitest';
import { lambdaEntry } from '../../../shared/adapters/powertools/lambda-handler';
import { createPowertoolsLogger, writeThroughPowertools } from '../../../shared/adapters/powertools/powertools-logger';
import { createLogger, logWriterFor, logger as serviceLogger, useLogWriter } from '../../../shared/observability/logger';
import { withLogContext } from '../../../shared/observability/log-context';
import { textLogLine } from '../../../shared/observability/log-lines';

/** Everything written to stdout and stderr while `work` runs, one entry per line. */
function outputOf(work: () => void): string[] {
  const lines: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  };
  const spies = [vi.spyOn(process.stdout, 'write').mockImplementation(capture), vi.spyOn(process.stderr, 'write').mockImplementation(capture)];
  try {
    work();
  } finally {
    spies.forEach((spy) => spy.mockRestore());
  }
  return lines;
}

/** What console.log and console.error were given while `work` runs. */
function consoleOf(work: () => void): { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void out.push(line));
  const error = vi.spyOn(console, 'error').mockImplementation((line: string) => void err.push(line));
  try {
    work();
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
  return { out, err };
}

const at = (hours: number, minutes: number, seconds: number, ms: number) => new Date(2026, 10, 26, hours, minutes, seconds, ms);

afterEach(() => vi.restoreAllMocks());

describe('the readable log line of the local runtime', () => {
  it('writes the time, the level, the message and each field as key=value', () => {
    // Arrange
    const entry = { level: 'info' as const, message: 'ocr-worker: job done', fields: { document_id: 'd-1', ms: 812 }, time: at(3, 45, 12, 123) };

    // Act
    const line = textLogLine(entry);

    // Assert
    expect(line).toBe('03:45:12.123 INFO  ocr-worker: job done document_id=d-1 ms=812');
  });

  it('quotes a value with spaces and writes objects as compact JSON, so the pairs stay apart', () => {
    // Arrange
    const entry = { level: 'warn' as const, message: 'sync', fields: { reason: 'not found', counts: { new: 2 }, skipped: undefined }, time: at(9, 5, 1, 7) };

    // Act
    const line = textLogLine(entry);

    // Assert
    expect(line).toBe('09:05:01.007 WARN  sync reason="not found" counts={"new":2}');
  });

  it('follows an error entry with the stack of the error it carries', () => {
    // Arrange
    const error = new Error('disk full');

    // Act
    const text = textLogLine({ level: 'error', message: 'unhandled error', fields: { error }, time: at(1, 2, 3, 4) });

    // Assert
    const [line, ...stack] = text.split('\n');
    expect(line).toBe('01:02:03.004 ERROR unhandled error error="Error: disk full"');
    expect(stack[0]).toMatch(/^\s+at /);
  });
});

describe('the logger outside Lambda', () => {
  it('writes readable lines that carry the log context of the call', () => {
    // Arrange
    const logger = createLogger(() => logWriterFor({}));

    // Act
    const { out } = consoleOf(() => withLogContext({ request_id: 'req-1' }, () => logger.info('document created', { document_id: 'd-1' })));

    // Assert
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}document created document_id=d-1 request_id=req-1$/);
  });

  it('writes JSON lines with LOG_FORMAT=json, for the tools that parse them', () => {
    // Arrange
    const logger = createLogger(() => logWriterFor({ LOG_FORMAT: 'json', LOG_LEVEL: 'debug' }));

    // Act
    const { out } = consoleOf(() => withLogContext({ request_id: 'req-2' }, () => logger.debug('ocr-worker: timings', { handler_ms: 5 })));

    // Assert
    expect(JSON.parse(out[0]!)).toEqual({ level: 'debug', time: expect.any(String), message: 'ocr-worker: timings', request_id: 'req-2', handler_ms: 5 });
  });

  it('writes warnings and errors to stderr and leaves out entries below LOG_LEVEL', () => {
    // Arrange
    const logger = createLogger(() => logWriterFor({ LOG_LEVEL: 'warn' }));

    // Act
    const { out, err } = consoleOf(() => {
      logger.info('chatter');
      logger.warn('careful');
    });

    // Assert
    expect(out).toEqual([]);
    expect(err).toEqual([expect.stringContaining('WARN  careful')]);
  });

  it('lets a field of the call win over the same field of the context', () => {
    // Arrange
    const logger = createLogger(() => logWriterFor({ LOG_FORMAT: 'json' }));

    // Act
    const { out } = consoleOf(() => withLogContext({ request_id: 'outer' }, () => logger.info('x', { request_id: 'given' })));

    // Assert
    expect(JSON.parse(out[0]!).request_id).toBe('given');
  });
});

describe('the logger in Lambda', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    useLogWriter(logWriterFor());
  });

  it('writes Powertools JSON with the service, the level and the request id of the context', () => {
    // Arrange
    const powertools = createPowertoolsLogger({ POWERTOOLS_SERVICE_NAME: 'docservice-test', LOG_LEVEL: 'info' });
    const logger = createLogger(() => (level, message, fields) => writeThroughPowertools(powertools, level, message, fields));

    // Act
    const lines = outputOf(() => withLogContext({ request_id: 'req-3', message_id: 'm-1' }, () => logger.info('ocr-worker: job done', { document_id: 'd-1' })));

    // Assert
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 'INFO',
      message: 'ocr-worker: job done',
      service: 'docservice-test',
      timestamp: expect.any(String),
      request_id: 'req-3',
      message_id: 'm-1',
      document_id: 'd-1',
    });
  });

  it('writes an error field as its name, message and stack', () => {
    // Arrange
    const powertools = createPowertoolsLogger({});

    // Act
    const lines = outputOf(() => writeThroughPowertools(powertools, 'error', 'unhandled error', { error: new TypeError('no such thing') }));

    // Assert
    expect(JSON.parse(lines[0]!).error).toMatchObject({ name: 'TypeError', message: 'no such thing', stack: expect.stringContaining('TypeError') });
  });

  it('leaves out entries below LOG_LEVEL', () => {
    // Arrange
    const powertools = createPowertoolsLogger({ LOG_LEVEL: 'warn' });

    // Act
    const lines = outputOf(() => writeThroughPowertools(powertools, 'info', 'chatter', {}));

    // Assert
    expect(lines).toEqual([]);
  });

  it("is what the service's logger writes through once the Lambda entry wrapped a handler where AWS_LAMBDA_FUNCTION_NAME is set", () => {
    // Arrange
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'docservice-documents');
    lambdaEntry(async () => undefined);

    // Act
    const lines = outputOf(() => serviceLogger.info('hello'));

    // Assert
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'INFO', message: 'hello', service: expect.any(String) });
  });
});
