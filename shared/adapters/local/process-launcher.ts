import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BACKGROUND_NICENESS } from '../node/background-priority';

/** How a command ended (its output is the tail of each stream), or why it could not be started. */
export type LaunchOutcome =
  | { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }
  | { error: { code?: string; message: string } };

/** A command started by the launcher. `kill` sends it SIGKILL; `ended` settles once it has exited. */
export interface LaunchedCommand {
  ended: Promise<LaunchOutcome>;
  kill(): void;
}

const CHILD_SCRIPT = fileURLToPath(new URL('./process-launcher-child.mjs', import.meta.url));

/**
 * Starts commands from a small helper process (process-launcher-child.mjs) instead of the runtime itself: a
 * fork copies the forking process's page tables, which for a process of the runtime's size blocks its main
 * thread for a noticeable time, once per page read. The helper runs at the background nice value, which its
 * commands inherit. It is started on first use, does not keep its parent alive, kills its commands and exits
 * when its parent goes, and is started again if it dies (the commands it was running fail). It and its commands
 * run in a process group of their own: a signal to the parent's group (Ctrl-C) must not end a page being read
 * while the parent stops in order.
 */
export class ProcessLauncher {
  private helper: ChildProcess | undefined;
  private nextId = 0;
  private readonly waiting = new Map<number, { helper: ChildProcess; resolve: (outcome: LaunchOutcome) => void }>();

  constructor(private readonly maxOutputChars: number) {}

  start(file: string, args: readonly string[], env: NodeJS.ProcessEnv): LaunchedCommand {
    const helper = this.running();
    const id = this.nextId++;
    const ended = new Promise<LaunchOutcome>((resolve) => this.waiting.set(id, { helper, resolve }));
    helper.send({ id, file, args, env });
    return { ended, kill: () => helper.connected && helper.send({ kill: id }) };
  }

  private running(): ChildProcess {
    if (this.helper?.connected) return this.helper;
    const helper = spawn(process.execPath, [CHILD_SCRIPT, String(BACKGROUND_NICENESS), String(this.maxOutputChars)], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      detached: true,
    });
    helper.on('message', (message: LaunchOutcome & { id: number }) => {
      const { id, ...outcome } = message;
      this.waiting.get(id)?.resolve(outcome as LaunchOutcome);
      this.waiting.delete(id);
    });
    const gone = (why: string) => {
      if (this.helper === helper) this.helper = undefined;
      for (const [id, entry] of this.waiting) {
        if (entry.helper !== helper) continue;
        entry.resolve({ error: { message: `the process launcher ${why}` } });
        this.waiting.delete(id);
      }
    };
    helper.once('exit', (code, signal) => gone(`exited (${signal ?? `code ${code}`})`));
    helper.once('error', (error) => gone(`failed: ${error.message}`));
    helper.unref();
    helper.channel?.unref();
    this.helper = helper;
    return helper;
  }
}
