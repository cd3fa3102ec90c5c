import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** util-linux's `setpriv` (Essential on Debian) can set the parent-death signal before it runs a program. */
let setprivAvailable: boolean | undefined;
const canTieToParent = (): boolean =>
  (setprivAvailable ??= process.platform === 'linux' && spawnSync('setpriv', ['--help'], { stdio: 'ignore' }).status === 0);

/**
 * Spawns a helper program that cannot outlive this process: on Linux the kernel sends it SIGTERM when this
 * process ends for any reason, a SIGKILL or a crash included (PR_SET_PDEATHSIG through `setpriv`, which then
 * execs the program, so the child's pid is the program's). Elsewhere it is a plain spawn, and
 * {@link stopLeftoverProcesses} on the next start is the only safety net.
 *
 * Where it is tied, it also runs in a process group of its own, so that a signal sent to this process's group
 * (Ctrl-C in a terminal, `kill -- -pgid`, a service manager) reaches only this process, which stops the helper
 * itself once nothing uses it any more; in the group, it would end first, under the work still using it.
 */
export function spawnTiedToParent(command: string, args: string[], options: SpawnOptions): ChildProcess {
  if (canTieToParent()) return spawn('setpriv', ['--pdeathsig', 'TERM', command, ...args], { ...options, detached: true });
  return spawn(command, args, options);
}

/** The argument vectors of this machine's processes by pid, read from /proc (empty where there is none). */
export function processArgs(): Map<number, string[]> {
  const found = new Map<number, string[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'latin1').split('\0').filter(Boolean);
      if (argv.length) found.set(pid, argv);
    } catch {
      // The process ended while we looked, or it is not ours to read.
    }
  }
  return found;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Ends the processes whose command line `matches` (SIGTERM, then SIGKILL after `graceMs`) and returns their
 * pids: a helper left running by a run that crashed before the kernel could end it, and that would otherwise
 * run twice on the same files.
 */
export async function stopLeftoverProcesses(matches: (argv: string[]) => boolean, graceMs = 5000): Promise<number[]> {
  const pids = [...processArgs()].filter(([, argv]) => matches(argv)).map(([pid]) => pid);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // Gone already, or not ours: nothing to stop.
    }
  }
  const deadline = Date.now() + graceMs;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  for (const pid of pids.filter(alive)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Ended between the check and the kill.
    }
  }
  return pids;
}
