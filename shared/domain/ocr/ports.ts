import type { DocumentContent } from '../files/ports';
import type { Page } from '../pagination';
import type { OcrPriority, OcrJob, OcrJobMessage, OcrResult, OcrQueueCounters, OcrTotals, OcrDailyTotals, OcrJobFilter, CancelOutcome } from './jobs';
import type { OcrPageText, OcrWord, PageLayer } from './page-texts';

/** How far an engine has got with one document: `done` of `total` pages read. */
export interface OcrPageProgress {
  done: number;
  total: number;
}

/**
 * What the worker reads of the document a job is for: the documents' repository returns more. OCR sits below
 * documents (an upload queues its job), so it names what it needs here instead of importing the record.
 */
export interface OcrDocument {
  id: string;
  title: string;
  /** Who is notified when the read completes or fails. */
  created_by: string;
  /** The rules on content read these, with its text, once it is read. */
  filename: string;
  source_id: string | null;
  mime_type: string;
  size: number;
  sha256: string;
}

/** Where the worker finds the document of a job; null when it was deleted meanwhile. */
export interface OcrDocuments {
  get(id: string): Promise<OcrDocument | null>;
}

/** One document to read. */
export interface OcrInput {
  /** The original file's size in bytes, as stored. */
  size: number;
  /** The original file's SHA-256 (hex), recorded at upload: names its content without reading it. */
  sha256: string;
  /**
   * Reads the original file whole. An engine that reads from object storage itself (Textract) calls it only for
   * files small enough to hold in memory; a missing file is an {@link OcrFailure} (`unreadable_file`).
   */
  readBytes(): Promise<Uint8Array>;
  /** The MIME type detected from the bytes at upload: application/pdf, image/png, image/jpeg, image/tiff, image/webp. */
  mimeType: string;
  /** Tesseract-style language codes joined with +, e.g. `eng` or `eng+deu`. */
  language: string;
  /** Where the file lives in the bucket; engines that read from object storage (Textract's async API) use it. */
  objectKey: string;
  /** The job's priority: an engine that queues pages may let a high-priority document's pages go first. */
  priority?: 'normal' | 'high' | undefined;
  /** Called after each page; awaited, so a slow listener slows the engine rather than piling up. */
  onProgress?: ((progress: OcrPageProgress) => Promise<void> | void) | undefined;
  /**
   * A PDF's pages to read (1-based, ascending), when only some need OCR (the others kept their text layer or are
   * blank): the engine reads those alone and answers `pageTexts`, one per page given, in this order.
   */
  pages?: readonly number[] | undefined;
}

/** The text an engine read from a document. */
export interface OcrOutput {
  text: string;
  /** Mean word confidence as a fraction 0..1 (engines report 0..100); 1 when the text came from a text layer. */
  confidence: number;
  /** Pages read: those of `OcrInput.pages` when given, else every page of the file. */
  pages: number;
  /** Each page read, in order; required when `OcrInput.pages` was given. */
  pageTexts?: OcrPageText[] | undefined;
}

/**
 * Reads the text of a document. Implementations: Tesseract (local) and Textract (cloud); both pass the same
 * contract suite. A file that cannot be read (corrupt, encrypted, too large, no pages) is an {@link OcrFailure},
 * never a crash; anything else thrown is treated as transient and the job is retried.
 */
export interface OcrEngine {
  /** What the workspace's usage counts the engine's pages under (`tesseract`, `textract`). */
  readonly name?: string;
  recognize(input: OcrInput): Promise<OcrOutput>;
  /** The language codes this engine reads (single codes, not joined), for validating requests up front. */
  languages(): Promise<readonly string[]>;
}

/**
 * Reads a PDF's own text layer, page by page: the worker decides per page whether the layer is kept, the page is
 * blank, or it is OCRed (`decidePage` in page-texts.ts).
 */
export interface TextLayerReader {
  /** Larger files are not read (the OCR engine gets them): the worker does not even fetch them from the bucket. */
  readonly maxInputBytes: number;
  /**
   * What each page holds (its text layer, whether it draws images or anything else), or null when the file
   * cannot be parsed or has more pages than the reader reads: OCR then reads it whole. Throws an {@link OcrFailure} when the file exceeds a bound of the
   * reader (`too_large`, `timeout`, `unreadable_file`): such a file is hostile and the job ends failed, not
   * retried. Anything else thrown (every worker busy) is transient and the job is retried.
   */
  read(bytes: Uint8Array): Promise<{ pages: PageLayer[] } | null>;
}

/**
 * Tells which pages of a PDF or an image file are blank paper from their pixels, drawn small (`blankPixels` in page-texts.ts): a
 * scanned blank page draws an image, and only its pixels tell that the image is empty. For an engine that is paid
 * for every page it is sent and does not draw them itself (Textract); the local engine checks the pages it draws.
 */
export interface BlankPageDetector {
  /**
   * For each of `pages` (1-based), whether it is blank. A page it does not draw (over a bound, more pages than it
   * checks) is answered false: the engine reads it.
   */
  blankPages(bytes: Uint8Array, pages: readonly number[]): Promise<boolean[]>;
  /**
   * For each page of an image file (PNG, JPEG, WebP: one; TIFF: each), in order, whether it is blank paper, drawn
   * as the page of its stated resolution (300 dpi when none). Empty when the file was not checked (a bound, not an
   * image it decodes): the engine reads it.
   */
  blankImagePages(bytes: Uint8Array): Promise<boolean[]>;
}

/**
 * Writes a document's searchable PDF: its original pages with the words OCR read laid on them as invisible text.
 * Implementations bound the work (pages, pixels, time, memory) as for every file.
 */
export interface SearchablePdfWriter {
  /**
   * The file as a PDF with each page's words at their places (null: the page is copied as it is, e.g. one that
   * kept its text layer). Throws {@link SearchablePdfRefused} when this file cannot be written within bounds;
   * anything else thrown is the machine's fault.
   */
  write(file: { bytes: Uint8Array; mimeType: string }, pages: (readonly OcrWord[] | null)[]): Promise<Uint8Array>;
}

/** The file cannot be written as a searchable PDF; `message` is safe to show to the user. */
export class SearchablePdfRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SearchablePdfRefused';
  }
}

/**
 * What a completed run left of the searchable PDF: its size once stored, or why there is none (a reason code
 * and a message for the user).
 */
export type SearchablePdfState = { size: number } | { reason: 'no_ocred_pages' | 'no_word_positions' | 'not_written'; message: string };

/** The reasons a file can never be read; the document ends failed with one of these and the job is not retried. */
export type OcrFailureReason =
  | 'unreadable_file'
  | 'encrypted'
  | 'too_large'
  | 'no_pages'
  | 'unsupported_type'
  | 'unsupported_language'
  | 'timeout';

/** A permanent failure to read a file: retrying will not help. `message` is safe to show to the user. */
export class OcrFailure extends Error {
  constructor(
    readonly reason: OcrFailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'OcrFailure';
  }
}

/**
 * The engine refuses work for now (a rate or quota, e.g. Textract throttling): not the file's fault, so the job
 * is tried again later, and the worker gives the message back to the queue after a growing delay rather than
 * holding it for the queue's whole visibility timeout.
 */
export class OcrEngineBusy extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OcrEngineBusy';
  }
}

/**
 * OCR jobs with their documents' status and the counters: every transition moves the job, the document's
 * status and the counters in one transaction, conditioned on the job's current state, so that two workers (a
 * message delivered twice) can never both win and counters never drift.
 */
export interface OcrJobRepository {
  get(documentId: string): Promise<OcrJob | null>;
  list(filter: OcrJobFilter): Promise<Page<OcrJob>>;
  /**
   * Starts a new run for an existing document whose job is not queued or processing: the job is queued and
   * the document pending. Returns the job, or null when the document has no job to restart (does not exist),
   * or 'busy' when a run is already queued or processing (unless it is `heldRun`, processing: the worker that
   * holds it hands the job on to a new run).
   */
  restart(documentId: string, options: { language: string; priority: OcrPriority; by: string; now: string; heldRun?: number }): Promise<OcrJob | 'busy' | null>;
  /**
   * Takes the job for this run: queued → processing, or processing whose heartbeat is older than `staleBefore`
   * (its worker died). Null when the run is stale, finished, cancelled, or held by a live worker.
   */
  claim(message: OcrJobMessage, now: string, staleBefore: string): Promise<OcrJob | null>;
  /** Renews the heartbeat and progress; tells whether a cancel was asked for meanwhile. */
  heartbeat(documentId: string, run: number, progress: number, pages: number, now: string): Promise<{ cancelRequested: boolean }>;
  /**
   * processing → completed with the text stored and the document completed: 'completed'. Nothing is written when
   * a cancel was asked for meanwhile ('cancel_requested'), the run no longer holds the job ('not_held'), or the
   * document's file is no longer the one the run read, `readSha256` ('file_replaced': a sync replaced it).
   */
  complete(
    documentId: string,
    run: number,
    result: OcrResult & { content: DocumentContent; readSha256: string },
    now: string,
  ): Promise<'completed' | 'cancel_requested' | 'not_held' | 'file_replaced'>;
  /**
   * Records on the document what its run left of the searchable PDF, and moves the workspace's stored bytes by
   * the difference with the one it replaces (in the usage and in the plan's storage ledger); nothing is written
   * (false) when the document is gone or its file is no longer the one the run read (`readSha256`). A PDF larger
   * than the one it replaces that the plan's `bytes_stored` has no room for is refused (403 `quota_exceeded`).
   */
  recordSearchablePdf(documentId: string, readSha256: string, state: SearchablePdfState, now: string): Promise<boolean>;
  /** processing or queued → failed (or cancelled) with the reason on job and document. */
  fail(documentId: string, run: number, reason: string, now: string, status?: 'failed' | 'cancelled'): Promise<boolean>;
  /**
   * processing → queued because the engine was throttling: the delivery does not count as an attempt, and the
   * job is not stuck before `until` (its message comes back then). False when the run no longer holds the job.
   */
  defer(documentId: string, run: number, now: string, until: string): Promise<boolean>;
  /** processing → queued after a transient error, so the redelivered message can claim it again. */
  release(documentId: string, run: number, now: string): Promise<void>;
  /** Cancels a queued job at once, or asks the worker of a processing one to stop. */
  cancel(documentId: string, now: string): Promise<CancelOutcome>;
  /** Changes the priority of a queued job; 'not_queued' once it started or finished. */
  setPriority(documentId: string, priority: OcrPriority): Promise<OcrJob | 'not_queued' | null>;
  /**
   * Jobs queued before `queuedBefore` (a deferred one: deferred until before it) or processing with a heartbeat
   * before `heartbeatBefore`.
   */
  stuck(queuedBefore: string, heartbeatBefore: string): Promise<OcrJob[]>;
  counters(): Promise<OcrQueueCounters>;
  totals(): Promise<OcrTotals>;
  /** Daily totals from `fromDate` to `toDate` (YYYY-MM-DD, inclusive), oldest first; days without runs omitted. */
  daily(fromDate: string, toDate: string): Promise<OcrDailyTotals[]>;
}

/** Puts one workspace's OCR jobs on the queue of their priority. */
export interface OcrJobQueue {
  /** `delaySeconds` (0..{@link MAX_QUEUE_DELAY_SECONDS}) keeps the message invisible that long before its first delivery. */
  enqueue(message: OcrJobMessage, options?: { delaySeconds?: number }): Promise<void>;
}

/** The OCR queues of every workspace; use cases get one workspace's, whose messages carry its id to the worker. */
export interface OcrJobQueues {
  forWorkspace(workspaceId: string): OcrJobQueue;
}
