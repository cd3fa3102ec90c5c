import { statfs } from 'node:fs/promises';
import { cpus, freemem, totalmem } from 'node:os';
import type { HostProbe } from '../../domain/system/ports';

/** Long enough for the cores' time counters (10 ms ticks) to move, short enough for a request. */
const CPU_SAMPLE_MS = 200;

const clampPercent = (value: number): number => Math.min(100, Math.max(0, value));

const cpuTimes = () =>
  cpus().reduce(
    (sum, cpu) => {
      const { user, nice, sys, irq, idle } = cpu.times;
      return { busy: sum.busy + user + nice + sys + irq, total: sum.total + user + nice + sys + irq + idle };
    },
    { busy: 0, total: 0 },
  );

/** {@link HostProbe} from Node's view of the machine: `os` counters and `statfs` of the data path. */
export class NodeHostProbe implements HostProbe {
  constructor(
    private readonly options: {
      /** A path on the filesystem to report (DATA_DIR locally, /tmp in Lambda). */
      dataPath: string;
      /** In Lambda, the function's configured memory: usage is this process's RSS against it. */
      memoryLimitBytes?: number;
    },
  ) {}

  async cpuUsage(): Promise<number> {
    const before = cpuTimes();
    await new Promise((resolve) => setTimeout(resolve, CPU_SAMPLE_MS));
    const after = cpuTimes();
    const total = after.total - before.total;
    return total > 0 ? clampPercent(((after.busy - before.busy) / total) * 100) : 0;
  }

  memoryUsage(): number {
    const { memoryLimitBytes } = this.options;
    if (memoryLimitBytes) return clampPercent((process.memoryUsage.rss() / memoryLimitBytes) * 100);
    return clampPercent(((totalmem() - freemem()) / totalmem()) * 100);
  }

  async diskUsage(): Promise<number> {
    const stats = await statfs(this.options.dataPath);
    const total = stats.blocks * stats.bsize;
    // What a user can still write (bavail), not what root could: `df` reports usage the same way.
    const used = (stats.blocks - stats.bfree) * stats.bsize;
    const usable = used + stats.bavail * stats.bsize;
    return total > 0 && usable > 0 ? clampPercent((used / usable) * 100) : 0;
  }

  uptimeSeconds(): number {
    return process.uptime();
  }
}
