import { createHash } from 'node:crypto';
import {
  type Block,
  DetectDocumentTextCommand,
  GetDocumentTextDetectionCommand,
  StartDocumentTextDetectionCommand,
  type TextractClient,
} from '@aws-sdk/client-textract';
import type { BusinessMetrics } from '../../../domain/metrics/ports';
import { type OcrEngine, OcrEngineBusy, OcrFailure, type OcrInput, type OcrOutput } from '../../../domain/ocr/ports';
import type { OcrPageText } from '../../../domain/ocr/page-texts';
import { textractOutput, textractPages } from './blocks';
import { countPages, encryptedPdf } from './file-inspection';
import { TEXTRACT_LANGUAGES } from './languages';

/**
 * Textract's synchronous limit, for bytes and S3 objects alike ("10 MB in memory", set quotas of the Textract
 * developer guide). Counted in decimal megabytes so that a file near the limit is never sent where it may not fit.
 */
const SYNC_MAX_BYTES = 10_000_000;

/** The languages DetectDocumentText reads without being told (printed text), as Tesseract-style codes. */
const LANGUAGES = TEXTRACT_LANGUAGES;

/** Formats Textract accepts. WebP is not among them. */
const SUPPORTED_TYPES = new Set(['image/png', 'image/jpeg', 'image/tiff', 'application/pdf']);

/** Errors that mean "slow down": retried here with backoff, then left to the queue. */
const THROTTLING_ERRORS = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'LimitExceededException',
]);

/**
 * Errors that a moment later may not recur: Textract's own (5xx) and the connection's. The SDK's standard retry
 * policy retries these; the client here has no retries of its own (see {@link TextractOcrEngineOptions.client}),
 * so this loop does, within the same attempts as throttling.
 */
const TRANSIENT_ERRORS = new Set(['InternalServerError', 'ServiceUnavailable', 'TimeoutError', 'RequestTimeout', 'RequestTimeoutException']);
const TRANSIENT_STATUS_CODES = new Set([500, 502, 503, 504]);
const TRANSIENT_NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT']);

const THROTTLE_BASE_MS = 250;
const THROTTLE_MAX_MS = 8_000;
const MAX_POLL_INTERVAL_MS = 15_000;

/** What a {@link TextractOcrEngine} needs. Only `client` and `bucket` are required. */
export interface TextractOcrEngineOptions {
  /**
   * A client without retries of its own (`maxAttempts: 1`, as `createTextractClient` makes it): the engine's
   * loop is the one retry policy. With the SDK's default of 3 attempts under each of the engine's, a throttled
   * call would be sent up to 15 times.
   */
  client: TextractClient;
  /** The bucket that holds the documents; Textract reads large and multi-page files from it. */
  bucket: string;
  /** The first wait before polling an asynchronous job; it doubles after each poll, up to 15 s. Default 1 s. */
  pollIntervalMs?: number | undefined;
  /** How long one asynchronous job may run before the document fails with `timeout`. Default 10 minutes. */
  maxWaitMs?: number | undefined;
  /** Calls per request when Textract throttles or fails transiently, the first included. Default 5. */
  maxAttempts?: number | undefined;
  /** Waits; tests inject one that returns at once and moves their clock. */
  sleep?: ((ms: number) => Promise<void>) | undefined;
  /** Milliseconds since the epoch; read to bound the polling. */
  now?: (() => number) | undefined;
  /** A number in [0, 1) for the jitter of the throttling backoff. */
  random?: (() => number) | undefined;
  /** Counts each throttled call (`TextractThrottles`). */
  metrics?: BusinessMetrics | undefined;
  /**
   * Pages `pages` (1-based) of a PDF each as a one-page PDF, made in the imaging workers from one parse of the file:
   * when only some pages need OCR (`OcrInput.pages`), each is sent alone to `DetectDocumentText`, so Textract reads
   * and bills those pages only. Without it (or for a page above the synchronous limit) the document is read whole
   * and the pages picked.
   */
  pagePdfs?: ((bytes: Uint8Array, pages: readonly number[]) => Promise<Uint8Array[]>) | undefined;
  /**
   * More pages than this to OCR beside pages with text are read by one asynchronous job on the whole document
   * (every page billed), not one by one: each page alone is a synchronous call of a second or more and a copy of
   * the PDF's page, which for hundreds of pages would not fit in the worker's 15 minutes. Default 20.
   */
  maxPagesOneByOne?: number | undefined;
}

/**
 * Amazon Textract behind the {@link OcrEngine} port (`DetectDocumentText`: printed text, no form analysis).
 *
 * - Only files up to 10 MB are read into memory (`readBytes`); a larger one is only ever named by its S3 object,
 *   so a 500 MB upload costs the worker no memory.
 * - PNG, JPEG, and one-page PDFs and TIFFs up to 10 MB: the synchronous API. The bytes are sent inline; images
 *   above 10 MB are named by their S3 object instead, so the request stays small and Textract itself judges the
 *   size (it answers `DocumentTooLargeException`, which ends as `too_large`).
 * - PDFs and TIFFs with more than one page, or above 10 MB: `StartDocumentTextDetection` on the S3 object, then
 *   `GetDocumentTextDetection` polled with a doubling interval until the job ends or `maxWaitMs` passes. Polling
 *   keeps the adapter self-contained; an SNS completion topic would save the polls but needs a second Lambda and
 *   state between them. A job that times out cannot be cancelled (Textract has no API for it); it ends on its
 *   own. The start carries a `ClientRequestToken` derived from the object and its content hash, so a redelivered
 *   message picks up the job already running instead of paying for a second one.
 * - Pages are counted from the bytes before choosing (see {@link countPdfPages}); a PDF whose page tree is
 *   empty fails with `no_pages` without a call.
 * - Throttling and transient errors (5xx, a dropped connection) are retried here, with exponential backoff and
 *   full jitter, up to `maxAttempts` calls per request; the client itself sends each call once. Throttling that
 *   persists is thrown as {@link OcrEngineBusy}, and the worker defers the job without spending one of its
 *   attempts; a transient error that persists is thrown as it is, and the queue delivers the job again.
 */
export class TextractOcrEngine implements OcrEngine {
  readonly name = 'textract';
  private readonly client: TextractClient;
  private readonly bucket: string;
  private readonly pollIntervalMs: number;
  private readonly maxWaitMs: number;
  private readonly maxAttempts: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly metrics: BusinessMetrics | undefined;
  private readonly pagePdfs: TextractOcrEngineOptions['pagePdfs'];
  private readonly maxPagesOneByOne: number;

  constructor(options: TextractOcrEngineOptions) {
    this.client = options.client;
    this.bucket = options.bucket;
    this.pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.maxWaitMs = options.maxWaitMs ?? 10 * 60_000;
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 5);
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.metrics = options.metrics;
    this.pagePdfs = options.pagePdfs;
    this.maxPagesOneByOne = options.maxPagesOneByOne ?? 20;
  }

  languages(): Promise<readonly string[]> {
    return Promise.resolve([...LANGUAGES]);
  }

  async recognize(input: OcrInput): Promise<OcrOutput> {
    const unknown = input.language.split('+').filter((code) => !(LANGUAGES as readonly string[]).includes(code));
    if (unknown.length) {
      throw new OcrFailure('unsupported_language', `Textract does not read ${unknown.join(', ')}.`);
    }
    if (!SUPPORTED_TYPES.has(input.mimeType)) {
      throw new OcrFailure('unsupported_type', `Textract does not read ${input.mimeType} files.`);
    }

    if (input.pages && input.mimeType === 'application/pdf') return this.readSomePages(input, input.pages);

    const paged = input.mimeType === 'application/pdf' || input.mimeType === 'image/tiff';
    // A large file is never read here: Textract takes it from the bucket, so the worker's memory stays small.
    const bytes = input.size <= SYNC_MAX_BYTES ? await input.readBytes() : null;
    // Counting is only needed to choose the API, and a large file goes asynchronously whatever its page count.
    const pages = paged && bytes ? countPages(bytes, input.mimeType) : null;
    if (pages === 0) throw new OcrFailure('no_pages', 'The document has no pages.');

    let result: OcrOutput;
    try {
      result = paged && (!bytes || (pages ?? 1) > 1) ? await this.readAsync(input, bytes) : await this.readSync(input, bytes);
    } catch (error) {
      throw this.permanentFailure(error, input, bytes) ?? error;
    }
    // Textract hands back every page at once, so progress is reported page by page only once the text is in.
    for (let done = 1; done <= result.pages; done++) await input.onProgress?.({ done, total: result.pages });
    return result;
  }

  /**
   * Only `pages` of a PDF: each page as a one-page PDF through `DetectDocumentText` (one call, one page billed).
   * A page whose one-page PDF is above the synchronous limit, more pages than `maxPagesOneByOne`, or an engine
   * without `pagePdfs`, reads the document whole (asynchronously, every page billed) and keeps the pages asked for.
   */
  private async readSomePages(input: OcrInput, pages: readonly number[]): Promise<OcrOutput> {
    const bytes = await input.readBytes();
    const read: OcrPageText[] = [];
    let whole: Map<number, OcrPageText> | undefined;
    const oneByOne = pages.length <= this.maxPagesOneByOne;
    try {
      // All copied from one parse of the file: at most `maxPagesOneByOne` pages, each smaller than the file.
      const singles = this.pagePdfs && oneByOne ? await this.pagePdfs(bytes, pages) : undefined;
      for (const [k, page] of pages.entries()) {
        const single = singles?.[k];
        if (single && single.byteLength <= SYNC_MAX_BYTES) {
          const response = await this.send(() => this.client.send(new DetectDocumentTextCommand({ Document: { Bytes: single } })));
          read.push(textractPages(response.Blocks ?? []).get(1) ?? { text: '', confidence: 0, words: 0 });
        } else {
          whole ??= await this.readWhole(input, bytes);
          read.push(whole.get(page) ?? { text: '', confidence: 0, words: 0 });
        }
        await input.onProgress?.({ done: read.length, total: pages.length });
      }
    } catch (error) {
      throw this.permanentFailure(error, input, bytes) ?? error;
    }
    const words = read.reduce((sum, page) => sum + page.words, 0);
    return {
      text: read.map((page) => page.text).join('\n\n'),
      confidence: words ? read.reduce((sum, page) => sum + page.confidence * page.words, 0) / words : 0,
      pages: read.length,
      pageTexts: read,
    };
  }

  /** Every page of a PDF by the asynchronous API, by page number. */
  private async readWhole(input: OcrInput, bytes: Uint8Array): Promise<Map<number, OcrPageText>> {
    const blocks: Block[] = [];
    await this.readAsync(input, bytes, blocks);
    return textractPages(blocks);
  }

  /** `bytes` inline when the file was read (small enough), else the S3 object. */
  private async readSync(input: OcrInput, bytes: Uint8Array | null): Promise<OcrOutput> {
    const response = await this.send(() =>
      this.client.send(
        new DetectDocumentTextCommand({
          Document: bytes ? { Bytes: bytes } : { S3Object: { Bucket: this.bucket, Name: input.objectKey } },
        }),
      ),
    );
    return textractOutput(response.Blocks ?? [], response.DocumentMetadata);
  }

  /** `collect`, when given, receives every block read (the pages of a document read whole for some of them). */
  private async readAsync(input: OcrInput, bytes: Uint8Array | null, collect?: Block[]): Promise<OcrOutput> {
    const deadline = this.now() + this.maxWaitMs;
    const { JobId } = await this.send(() =>
      this.client.send(
        new StartDocumentTextDetectionCommand({
          DocumentLocation: { S3Object: { Bucket: this.bucket, Name: input.objectKey } },
          ClientRequestToken: requestToken(input),
        }),
      ),
    );
    if (!JobId) throw new Error('Textract started a text detection job without a JobId.');

    let interval = this.pollIntervalMs;
    for (;;) {
      const remaining = deadline - this.now();
      if (remaining <= 0) {
        throw new OcrFailure('timeout', `Textract did not finish reading the document within ${this.maxWaitMs} ms.`);
      }
      await this.sleep(Math.min(interval, remaining));
      interval = Math.min(interval * 2, MAX_POLL_INTERVAL_MS);

      const first = await this.send(() => this.client.send(new GetDocumentTextDetectionCommand({ JobId })));
      if (first.JobStatus === 'IN_PROGRESS') continue;
      if (first.JobStatus === 'FAILED') {
        throw new OcrFailure(
          encryptedPdf(input.mimeType, bytes) ? 'encrypted' : 'unreadable_file',
          `Textract could not read the document: ${first.StatusMessage ?? 'no reason given'}.`,
        );
      }

      // SUCCEEDED or PARTIAL_SUCCESS (some pages unreadable): the blocks come in pages of up to 1000.
      const blocks = [...(first.Blocks ?? [])];
      let token = first.NextToken;
      while (token) {
        const nextToken = token;
        const page = await this.send(() =>
          this.client.send(new GetDocumentTextDetectionCommand({ JobId, NextToken: nextToken })),
        );
        blocks.push(...(page.Blocks ?? []));
        token = page.NextToken;
      }
      collect?.push(...blocks);
      return textractOutput(blocks, first.DocumentMetadata);
    }
  }

  /** One Textract call, retried while Textract throttles or fails transiently. */
  private async send<T>(call: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        const name = errorName(error);
        const throttled = THROTTLING_ERRORS.has(name);
        if (!throttled && !transient(error)) throw error;
        if (throttled) this.metrics?.count('TextractThrottles');
        if (attempt >= this.maxAttempts) {
          if (!throttled) throw error;
          throw new OcrEngineBusy(`Textract is throttling (${name}) after ${attempt} attempts; try again later.`, {
            cause: error,
          });
        }
        const ceiling = Math.min(THROTTLE_MAX_MS, THROTTLE_BASE_MS * 2 ** (attempt - 1));
        await this.sleep(Math.floor(this.random() * ceiling));
      }
    }
  }

  /** The {@link OcrFailure} a Textract error stands for, or null when it is transient (retry the job). */
  private permanentFailure(error: unknown, input: OcrInput, bytes: Uint8Array | null): OcrFailure | null {
    if (error instanceof OcrFailure) return error;
    const name = errorName(error);
    const detail = error instanceof Error && error.message ? ` (${error.message})` : '';
    switch (name) {
      case 'UnsupportedDocumentException':
      case 'BadDocumentException': {
        // Textract answers the same for an encrypted PDF as for a corrupt one; the bytes tell them apart.
        const encrypted = encryptedPdf(input.mimeType, bytes) || /encrypt|password/i.test(error instanceof Error ? error.message : '');
        return encrypted
          ? new OcrFailure('encrypted', 'The document is encrypted or password protected.')
          : new OcrFailure('unreadable_file', `Textract could not read the document${detail}.`);
      }
      case 'DocumentTooLargeException':
        return new OcrFailure('too_large', `The document is too large for Textract${detail}.`);
      case 'InvalidParameterException':
        return new OcrFailure('unreadable_file', `Textract rejected the document${detail}.`);
      case 'InvalidS3ObjectException':
        // The object is gone or unreadable: a later attempt would find the same.
        return new OcrFailure('unreadable_file', `Textract could not read the stored file${detail}.`);
      default:
        return null;
    }
  }
}

const errorName = (error: unknown): string =>
  typeof error === 'object' && error !== null && 'name' in error && typeof error.name === 'string' ? error.name : '';

/** Whether an error is one the SDK's standard policy would retry besides throttling (see TRANSIENT_ERRORS). */
const transient = (error: unknown): boolean => {
  if (typeof error !== 'object' || error === null) return false;
  const { $retryable, $metadata, code } = error as { $retryable?: unknown; $metadata?: { httpStatusCode?: number }; code?: unknown };
  return (
    $retryable !== undefined ||
    TRANSIENT_ERRORS.has(errorName(error)) ||
    TRANSIENT_STATUS_CODES.has($metadata?.httpStatusCode ?? 0) ||
    (typeof code === 'string' && TRANSIENT_NETWORK_CODES.has(code))
  );
};

/** Stable per object and content (the hash recorded at upload): Textract returns the same JobId for a repeated token. */
const requestToken = (input: OcrInput): string =>
  createHash('sha256').update(input.objectKey).update('\0').update(input.sha256).digest('hex');
