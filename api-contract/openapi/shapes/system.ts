import * as z from '../../../shared/zod';
import { shape } from './registry';

// The probe clamps each figure to 0..100 (shared/adapters/node/host-probe.ts), then rounds it to one decimal.
const percent = () => z.number().check(z.gte(0), z.lte(100));

/** The answering instance's load and the deployment's connections. */
export const SystemMetrics = shape(
  'SystemMetrics',
  'CPU, memory and disk use (percentages) and uptime of the instance that answered, and the authenticated WebSocket connections of the whole deployment.',
  z.strictObject({
    cpu_usage: percent(),
    memory_usage: percent(),
    disk_usage: percent(),
    active_connections: z.int().check(z.gte(0)),
    uptime_seconds: z.int().check(z.gte(0)),
  }),
);
