type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

const threshold = (): number => ORDER[(process.env['LOG_LEVEL'] as Level | undefined) ?? 'info'] ?? ORDER.info;

const serialize = (value: unknown): unknown =>
  value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;

/**
 * One JSON line per entry on stdout/stderr: CloudWatch and a terminal both read it, and a log query can
 * filter on any field (request_id above all).
 */
function write(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  if (ORDER[level] < threshold()) return;
  const entry = Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, serialize(value)]));
  const line = JSON.stringify({ level, time: new Date().toISOString(), message, ...entry });
  if (level === 'error' || level === 'warn') console.error(line);
  else console.log(line);
}

export const logger = {
  debug: (message: string, fields?: Record<string, unknown>) => write('debug', message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write('info', message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write('warn', message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write('error', message, fields),
};
