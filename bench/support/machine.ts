/**
 * What else the machine was doing during a measurement (Linux /proc): CPU time of the whole machine against CPU
 * time of one process tree, so a benchmark can say how much of the cores other work took while it ran, and the
 * resident memory of a process tree.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as os from 'node:os';

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on every Linux that Node supports). */
const TICKS = 100;

interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime + cutime + cstime: the process and its children it has waited for, in seconds. */
  cpuSeconds: number;
}

const statOf = (pid: number): ProcStat | undefined => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const at = (field: number): number => Number(fields[field - 3]);
    return { pid, ppid: at(4), cpuSeconds: (at(14) + at(15) + at(16) + at(17)) / TICKS };
  } catch {
    return undefined; // gone meanwhile
  }
};

const allProcesses = (): ProcStat[] =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => statOf(Number(name)))
    .filter((stat): stat is ProcStat => stat !== undefined);

/**
 * CPU seconds of a service process by part: its own (`utime + stime`: the Node event loop, emulators in
 * process, SQLite), its children by command name (live ones, e.g. DynamoDB Local's `java`, the process
 * launcher's `node`, and `tesseract` still running), and `reaped children`: the children of any of them already
 * ended (tesseract, pdftoppm, sh, started by the process launcher).
 */
export function cpuByPart(pid: number): Record<string, number> {
  const parts: Record<string, number> = {};
  const own = ownCpu(pid);
  if (own) {
    parts['self'] = own.self;
    parts['reaped children'] = own.reaped;
  }
  for (const child of processTree(pid).slice(1)) {
    const stat = ownCpu(child);
    if (!stat) continue;
    parts[stat.name] = (parts[stat.name] ?? 0) + stat.self;
    parts['reaped children'] = (parts['reaped children'] ?? 0) + stat.reaped;
  }
  return parts;
}

const ownCpu = (pid: number): { name: string; self: number; reaped: number } | undefined => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const name = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const at = (field: number): number => Number(fields[field - 3]);
    return { name, self: (at(14) + at(15)) / TICKS, reaped: (at(16) + at(17)) / TICKS };
  } catch {
    return undefined;
  }
};

/** `root` and every live descendant. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const { pid, ppid } of allProcesses()) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const tree: number[] = [];
  const visit = (pid: number): void => {
    tree.push(pid);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(root);
  return tree;
}

/** CPU seconds of `root`'s tree: live processes, plus what the children already reaped had used. */
export const treeCpuSeconds = (root: number): number =>
  processTree(root).reduce((sum, pid) => sum + (statOf(pid)?.cpuSeconds ?? 0), 0);

/** Busy CPU seconds of the whole machine since boot, over all cores (everything but idle and iowait). */
export function machineBusySeconds(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const [, user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(0, 9).map(Number);
  return (user! + nice! + system! + irq! + softirq! + steal!) / TICKS;
}

/** Resident set size of one process, in MB (0 once it is gone). */
export function rssMb(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Summed resident set size of `root`'s tree, in MB. */
export const treeRssMb = (root: number): number => processTree(root).reduce((sum, pid) => sum + rssMb(pid), 0);

export interface Noise {
  /** The 1-minute load average when the run started. */
  loadAtStart: number;
  /** Cores' worth of CPU that processes outside the measured tree used during the run (0..cores). */
  otherCores: number;
}

/**
 * Starts watching: `stop()` tells how busy the rest of the machine was meanwhile. `ownRoot` is the process tree
 * whose CPU is the measurement's own (by default this process: its children and their children count too).
 */
export function watchNoise(ownRoot = process.pid): { stop(): Noise } {
  const loadAtStart = os.loadavg()[0]!;
  const started = performance.now();
  const busy = machineBusySeconds();
  const own = treeCpuSeconds(ownRoot);
  return {
    stop() {
      const wall = (performance.now() - started) / 1000;
      const others = machineBusySeconds() - busy - (treeCpuSeconds(ownRoot) - own);
      return { loadAtStart, otherCores: Math.max(0, others / wall) };
    },
  };
}
