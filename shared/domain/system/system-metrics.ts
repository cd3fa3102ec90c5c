import type { ConnectionRepository } from '../connections/ports';
import type { HostProbe } from './ports';

/** The P body of `GET /api/metrics/system`. */
export interface SystemMetrics {
  cpu_usage: number;
  memory_usage: number;
  disk_usage: number;
  active_connections: number;
  uptime_seconds: number;
}

const oneDecimal = (value: number): number => Math.round(value * 10) / 10;

/**
 * The answering instance's CPU, memory and disk use and uptime, and the deployment's authenticated WebSocket
 * connections of every workspace (the table's record of them, so the same number whichever instance answers).
 */
export async function systemMetrics(deps: { host: HostProbe; connections: ConnectionRepository }): Promise<SystemMetrics> {
  const [cpu, disk, connections] = await Promise.all([
    deps.host.cpuUsage(),
    deps.host.diskUsage(),
    deps.connections.listAuthenticated('all'),
  ]);
  return {
    cpu_usage: oneDecimal(cpu),
    memory_usage: oneDecimal(deps.host.memoryUsage()),
    disk_usage: oneDecimal(disk),
    active_connections: connections.length,
    uptime_seconds: Math.floor(deps.host.uptimeSeconds()),
  };
}
