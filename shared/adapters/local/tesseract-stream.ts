/**
 * One long-lived tesseract process that reads page after page: `tesseract - - ... -c stream_filelist=true txt
 * tsv` takes image paths on its standard input, one a line, and writes each page's TSV and text to its standard
 * output as soon as the page is read. A tesseract process spends CPU starting (loading its language data)
 * before it reads anything, a large share of the work for a one-page scan. Each page is followed
 * by a blank marker page, whose first TSV row says at once that the page before it is complete
 * (tesseract-stream-output.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { BACKGROUND_NICENESS } from '../node/background-priority';
import { StreamedPages, type StreamedPage } from './tesseract-stream-output';
import { cappedCommand, type ProcessResult } from './tesseract-processes';

/** What a stream reads with: every page of one stream shares them. */
export interface StreamSettings {
  tesseract: string;
  /** Languages as tesseract takes them (`eng+deu`). */
  languages: string;
  /** For rasters without resolution information (pdftoppm's PGM); undefined lets tesseract read or guess it. */
  dpi: number | undefined;
  memoryLimitBytes: number;
  env: NodeJS.ProcessEnv;
}

/** The process ended (or could not start) before the page being read was complete. */
export class StreamEnded extends Error {
  constructor(
    readonly result: ProcessResult,
    /** Why it could not be started (`ENOENT`...), when it could not. */
    readonly startError?: { code?: string; message: string },
  ) {
    super(startError ? `tesseract could not be started: ${startError.message}` : `tesseract ended (${result.signal ?? `code ${result.code}`})`);
    this.name = 'StreamEnded';
  }
}

/** The tail of tesseract's standard error that is kept, to say why it ended. */
const KEPT_STDERR_CHARS = 64 * 1024;

/** The file name the engine gives its copy of {@link MARKER_PAGE}. */
export const MARKER_FILE = 'end-of-page.pgm';

/** A blank 32x32 grey image (PGM): tesseract reads it in about a millisecond and writes one TSV row for it. */
export const MARKER_PAGE = new Uint8Array([...Buffer.from('P5\n32 32\n255\n'), ...new Uint8Array(32 * 32).fill(255)]);

/** The arguments of a stream with these settings, page segmentation 3 (no orientation detection). */
const streamArgs = ({ languages, dpi }: StreamSettings): string[] => [
  '-',
  '-',
  '-l',
  languages,
  '--psm',
  '3',
  ...(dpi ? ['--dpi', String(dpi)] : []),
  '-c',
  'stream_filelist=true',
  'txt',
  'tsv',
];

/**
 * A tesseract process reading one page at a time. It runs at the background nice value, with the address-space
 * cap of the settings; it neither keeps this process alive nor outlives it for long (its standard input closes
 * when this process ends, and it exits after the page it was reading). It runs in a process group of its own, so
 * that a signal to this process's group (Ctrl-C in a terminal) leaves it reading its page while this process
 * stops in order, finishing the jobs in progress, instead of failing that page as unreadable.
 */
export class TesseractStream {
  /** Settles once the process has exited, with how it ended. */
  readonly ended: Promise<ProcessResult>;
  /** Pages read to the end so far. */
  pagesRead = 0;
  private readonly child: ChildProcess;
  private readonly output = new StreamedPages();
  private written = 0;
  private stderr = '';
  private exited = false;
  private waiting: { page: number; resolve: (page: StreamedPage) => void; reject: (error: Error) => void } | undefined;

  constructor(settings: StreamSettings) {
    const [file, args] = cappedCommand(settings.tesseract, streamArgs(settings), settings.memoryLimitBytes);
    this.child = spawn(file, args, { env: settings.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const [stdin, stdout, stderr] = [this.child.stdin!, this.child.stdout!, this.child.stderr!];
    if (this.child.pid !== undefined) {
      try {
        setPriority(this.child.pid, BACKGROUND_NICENESS);
      } catch {
        // A platform that refuses: the pages are read at normal priority, only less politely.
      }
    }
    stdout.setEncoding('utf8');
    stdout.on('data', (chunk: string) => this.received(chunk));
    stderr.setEncoding('utf8');
    stderr.on('data', (chunk: string) => (this.stderr = (this.stderr + chunk).slice(-KEPT_STDERR_CHARS)));
    // A process that died leaves a closed pipe behind: the write fails with EPIPE, and `ended` says why.
    stdin.on('error', () => undefined);
    let startError: { code?: string; message: string } | undefined;
    this.ended = new Promise<ProcessResult>((resolve) => {
      const finish = (code: number | null, signal: NodeJS.Signals | null): void => {
        if (this.exited) return;
        this.exited = true;
        const result = { code, signal, stdout: '', stderr: this.stderr };
        this.waiting?.reject(new StreamEnded(result, startError));
        this.waiting = undefined;
        resolve(result);
      };
      this.child.once('error', (error: NodeJS.ErrnoException) => {
        startError = { ...(error.code ? { code: error.code } : {}), message: error.message };
        // A command that could not be started never closes.
        if (this.child.pid === undefined) finish(null, null);
      });
      this.child.once('close', finish);
    });
    this.child.unref();
    for (const pipe of [stdin, stdout, stderr] as (Readable | Writable)[]) (pipe as unknown as { unref?: () => void }).unref?.();
  }

  /** False once the process has exited (or is being killed). */
  get usable(): boolean {
    return !this.exited && !this.child.killed && this.waiting === undefined;
  }

  /**
   * Reads the image at `image` (a path without line breaks); `marker` is the path of {@link MARKER_PAGE}. Resolves
   * with what was read, or rejects with {@link StreamEnded} when the process ends first. One page at a time.
   */
  read(image: string, marker: string): Promise<StreamedPage> {
    if (this.waiting) throw new Error('a tesseract stream reads one page at a time');
    if (/[\r\n]/.test(image) || /[\r\n]/.test(marker)) throw new Error('a page path must not contain a line break');
    if (this.exited) return Promise.reject(new Error('the tesseract stream has ended'));
    const page = this.written + 1;
    this.written += 2;
    const read = new Promise<StreamedPage>((resolve, reject) => (this.waiting = { page, resolve, reject }));
    this.child.stdin!.write(`${image}\n${marker}\n`);
    return read;
  }

  /** Ends the process at once (SIGKILL): a page it was reading rejects once it has exited. */
  kill(): void {
    this.child.kill('SIGKILL');
  }

  /** Lets the process exit once it has read what it was given. */
  close(): void {
    this.child.stdin!.end();
  }

  private received(chunk: string): void {
    for (const page of this.output.push(chunk)) {
      if (page.page !== this.waiting?.page) continue;
      const { resolve } = this.waiting;
      this.waiting = undefined;
      this.pagesRead++;
      resolve(page);
    }
  }
}
