/**
 * The child processes of the Tesseract engine (pdfinfo, pdftoppm, tesseract): bounded in time, memory and
 * output, and killed with the document they work for. They are started by the process launcher, not forked
 * from the runtime (see process-launcher.ts).
 */
import * as path from 'node:path';
import { OcrFailure } from '../../domain/ocr/ports';
import { ProcessLauncher, type LaunchOutcome } from './process-launcher';

export interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface ProcessLimits {
  timeoutMs: number;
  memoryLimitBytes: number;
  signal: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

/** Output kept per stream (its tail): pdfinfo on a hostile file must not fill the heap. */
const MAX_OUTPUT_CHARS = 1_000_000;
/** One launcher for every command of the process (see ProcessLauncher: forking from the runtime is slow). */
const launcher = new ProcessLauncher(MAX_OUTPUT_CHARS);
/** sh's exit codes for a command not found and one not executable. */
const SHELL_NOT_FOUND = 127;
const SHELL_NOT_EXECUTABLE = 126;

/** The command is missing or cannot be executed: a broken machine (transient for the job), never the file's fault. */
export class CommandUnavailable extends Error {
  constructor(command: string, detail: string) {
    super(`${command} cannot be run: ${detail}`);
    this.name = 'CommandUnavailable';
  }
}

/**
 * The file and arguments that run `command args` with an address-space cap, when there is one: `sh -c 'ulimit -v
 * KB; exec "$@"' sh KB command args...`. The arguments travel as an array (nothing is interpolated into the
 * script), and `exec` makes the command itself the process that a kill reaches. sh exits with 126 when the cap
 * cannot be set and 127 when the command is missing.
 */
export const cappedCommand = (command: string, args: readonly string[], memoryLimitBytes: number): [string, string[]] =>
  memoryLimitBytes > 0
    ? ['sh', ['-c', 'ulimit -v "$1" || exit 126; shift; exec "$@"', 'sh', String(Math.ceil(memoryLimitBytes / 1024)), command, ...args]]
    : [command, [...args]];

/**
 * Runs `command args` and resolves with how it ended, whatever the exit code, under {@link cappedCommand}. A timeout
 * rejects with OcrFailure `timeout`, an abort with the signal's reason; both only once the process has exited, so
 * the caller may delete the files it had open.
 */
export const runProcess = (command: string, args: readonly string[], limits: ProcessLimits): Promise<ProcessResult> => {
  const { timeoutMs, memoryLimitBytes, signal, env } = limits;
  signal.throwIfAborted();
  const viaShell = memoryLimitBytes > 0;
  const [file, argv] = cappedCommand(command, args, memoryLimitBytes);
  return new Promise<ProcessResult>((resolve, reject) => {
    const started = launcher.start(file, argv, env ?? process.env);
    let failure: Error | undefined;
    const kill = (error: Error): void => {
      failure ??= error;
      started.kill();
    };
    const onAbort = (): void => kill(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    const timer = setTimeout(() => {
      const name = path.basename(command);
      kill(new OcrFailure('timeout', `Reading the file took too long (${name} ran longer than ${Math.round(timeoutMs / 1000)} s)`));
    }, timeoutMs);
    signal.addEventListener('abort', onAbort, { once: true });

    void started.ended.then((outcome) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      const unstarted = launchFailure(command, outcome, viaShell);
      if (failure && !('error' in outcome)) reject(failure);
      else if (unstarted) reject(unstarted);
      else resolve(outcome as ProcessResult);
    });
  });
};

/**
 * Why a command did not run at all, if it did not: it could not be started (missing or not executable: {@link
 * CommandUnavailable}; anything else: an Error), or, started through sh (`viaShell`, see {@link cappedCommand}),
 * sh could not find or execute it. Undefined when the command ran, whatever its exit code.
 */
export function launchFailure(command: string, outcome: LaunchOutcome, viaShell: boolean): Error | undefined {
  if ('error' in outcome) {
    const unavailable = outcome.error.code === 'ENOENT' || outcome.error.code === 'EACCES';
    return unavailable ? new CommandUnavailable(command, outcome.error.message) : new Error(outcome.error.message);
  }
  if (viaShell && (outcome.code === SHELL_NOT_FOUND || outcome.code === SHELL_NOT_EXECUTABLE)) {
    return new CommandUnavailable(command, outcome.stderr.trim().split('\n').pop() || `exit code ${outcome.code}`);
  }
  return undefined;
}

/** True when a process died for want of memory: killed by a signal (abort on bad_alloc) or said so. */
export const ranOutOfMemory = (result: ProcessResult): boolean =>
  result.signal !== null || /bad_alloc|malloc fail|out of memory|cannot allocate/i.test(result.stderr);
