import { createHash } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import {
  type Block,
  DetectDocumentTextCommand,
  type DocumentMetadata,
  GetDocumentTextDetectionCommand,
  StartDocumentTextDetectionCommand,
  type TextractClient,
} from '@aws-sdk/client-textract';
import type { BusinessMetrics } from '../../domain/metrics/ports';
import { type OcrEngine, OcrEngineBusy, OcrFailure, type OcrInput, type OcrOutput } from '../../domain/ocr/ports';
import { TEXTRACT_LANGUAGES } from './textract-languages';

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

const THROTTLE_BASE_MS = 250;
const THROTTLE_MAX_MS = 8_000;
const MAX_POLL_INTERVAL_MS = 15_000;

/** Bounds the inflated size of one PDF object stream while counting pages, so a deflate bomb cannot hurt. */
const MAX_OBJECT_STREAM_BYTES = 16 * 1024 * 1024;

/** What a {@link TextractOcrEngine} needs. Only `client` and `bucket` are required. */
export interface TextractOcrEngineOptions {
  client: TextractClient;
  /** The bucket that holds the documents; Textract reads large and multi-page files from it. */
  bucket: string;
  /** The first wait before polling an asynchronous job; it doubles after each poll, up to 15 s. Default 1 s. */
  pollIntervalMs?: number | undefined;
  /** How long one asynchronous job may run before the document fails with `timeout`. Default 10 minutes. */
  maxWaitMs?: number | undefined;
  /** Calls per request when Textract throttles, the first included. Default 5. */
  maxAttempts?: number | undefined;
  /** Waits; tests inject one that returns at once and moves their clock. */
  sleep?: ((ms: number) => Promise<void>) | undefined;
  /** Milliseconds since the epoch; read to bound the polling. */
  now?: (() => number) | undefined;
  /** A number in [0, 1) for the jitter of the throttling backoff. */
  random?: (() => number) | undefined;
  /** Counts each throttled call (`TextractThrottles`). */
  metrics?: BusinessMetrics | undefined;
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
 * - Throttling is retried with exponential backoff and full jitter, on top of the SDK's own retries; when it
 *   persists it is thrown as {@link OcrEngineBusy} (transient), and the worker has the queue redeliver the job
 *   after a growing delay.
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

  /** `bytes` inline when the file was read (small enough), else the S3 object. */
  private async readSync(input: OcrInput, bytes: Uint8Array | null): Promise<OcrOutput> {
    const response = await this.send(() =>
      this.client.send(
        new DetectDocumentTextCommand({
          Document: bytes ? { Bytes: bytes } : { S3Object: { Bucket: this.bucket, Name: input.objectKey } },
        }),
      ),
    );
    return toOutput(response.Blocks ?? [], response.DocumentMetadata);
  }

  private async readAsync(input: OcrInput, bytes: Uint8Array | null): Promise<OcrOutput> {
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
          encryptedPdf(input, bytes) ? 'encrypted' : 'unreadable_file',
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
      return toOutput(blocks, first.DocumentMetadata);
    }
  }

  /** One Textract call, retried while Textract throttles. */
  private async send<T>(call: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        const name = errorName(error);
        if (!THROTTLING_ERRORS.has(name)) throw error;
        this.metrics?.count('TextractThrottles');
        if (attempt >= this.maxAttempts) {
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
        const encrypted = encryptedPdf(input, bytes) || /encrypt|password/i.test(error instanceof Error ? error.message : '');
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

/** Stable per object and content (the hash recorded at upload): Textract returns the same JobId for a repeated token. */
const requestToken = (input: OcrInput): string =>
  createHash('sha256').update(input.objectKey).update('\0').update(input.sha256).digest('hex');

/**
 * Whether a PDF names an /Encrypt dictionary. The trailer (or cross-reference stream) that does is at the end of
 * the file, or also at the start when the file is linearized; the middle is not read, so that a 500 MB file
 * costs no more than a small one.
 */
const encryptedPdf = (input: OcrInput, bytes: Uint8Array | null): boolean => {
  // A file too large to read here is judged by Textract's message alone.
  if (input.mimeType !== 'application/pdf' || !bytes) return false;
  const edge = 64 * 1024;
  const ends =
    bytes.byteLength <= 2 * edge ? [bytes] : [bytes.subarray(0, edge), bytes.subarray(bytes.byteLength - edge)];
  return ends.some((part) => /\/Encrypt\b/.test(latin1(part)));
};

const latin1 = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

/** LINE blocks in reading order, one page after another; confidence from the WORD blocks. */
const toOutput = (blocks: readonly Block[], metadata: DocumentMetadata | undefined): OcrOutput => {
  const byId = new Map(blocks.flatMap((block) => (block.Id ? [[block.Id, block] as const] : [])));
  const pageBlocks = new Map<number, Block>();
  const lines = new Map<number, Block[]>();
  for (const block of blocks) {
    const page = block.Page ?? 1;
    if (block.BlockType === 'PAGE') pageBlocks.set(page, block);
    if (block.BlockType === 'LINE') {
      const pageLines = lines.get(page) ?? [];
      pageLines.push(block);
      lines.set(page, pageLines);
    }
  }
  const pageNumbers = new Set([...pageBlocks.keys(), ...lines.keys()]);

  const pageTexts = [...pageNumbers]
    .sort((a, b) => a - b)
    .map((page) => {
      // The PAGE block lists its lines in reading order; the order of the response is the fallback.
      const ordered = (pageBlocks.get(page)?.Relationships ?? [])
        .filter((relationship) => relationship.Type === 'CHILD')
        .flatMap((relationship) => relationship.Ids ?? [])
        .flatMap((id) => {
          const child = byId.get(id);
          return child?.BlockType === 'LINE' ? [child] : [];
        });
      const listed = new Set(ordered);
      const rest = (lines.get(page) ?? []).filter((line) => !listed.has(line));
      return [...ordered, ...rest].map((line) => line.Text ?? '').join('\n');
    });

  const confidences = blocks.flatMap((block) =>
    block.BlockType === 'WORD' && typeof block.Confidence === 'number' ? [block.Confidence] : [],
  );
  const mean = confidences.length ? confidences.reduce((sum, value) => sum + value, 0) / confidences.length : 0;

  return {
    text: pageTexts.join('\n\n'),
    confidence: Math.min(1, Math.max(0, mean / 100)),
    pages: metadata?.Pages ?? Math.max(pageNumbers.size, 1),
  };
};

const countPages = (bytes: Uint8Array, mimeType: string): number | null =>
  mimeType === 'application/pdf' ? countPdfPages(bytes) : countTiffPages(bytes);

/**
 * The number of page objects in a PDF, read from the bytes without rendering: `/Type /Page` dictionaries (not
 * `/Pages`), both in the file body and inside compressed object streams (PDF 1.5+ keeps most dictionaries
 * there, e.g. every page of the multi-page corpus file). Old revisions left by incremental updates may be
 * counted too; overcounting only sends a one-page PDF to the asynchronous API, which reads it as well.
 *
 * Returns 0 when a page tree is found with no page in it, and null when the bytes show no page tree at all
 * (not a PDF, or one whose objects are encrypted): Textract then decides.
 */
export const countPdfPages = (bytes: Uint8Array): number | null => {
  const texts = [latin1(bytes)];
  const objectStream = /\/Type\s*\/ObjStm\b/g;
  const body = texts[0] ?? '';
  for (let match = objectStream.exec(body); match; match = objectStream.exec(body)) {
    const inflated = inflateObjectStream(bytes, body, match.index);
    if (inflated) texts.push(inflated);
  }

  let pages = 0;
  let pageTree = false;
  for (const text of texts) {
    pages += text.match(/\/Type\s*\/Page(?![A-Za-z])/g)?.length ?? 0;
    pageTree ||= /\/Type\s*\/Pages\b/.test(text);
  }
  return pages > 0 ? pages : pageTree ? 0 : null;
};

/** The content of the FlateDecode stream whose dictionary contains `at`, or null. */
const inflateObjectStream = (bytes: Uint8Array, text: string, at: number): string | null => {
  const streamKeyword = text.indexOf('stream', at);
  const dictionaryEnd = text.lastIndexOf('>>', streamKeyword);
  if (streamKeyword < 0 || dictionaryEnd < at) return null;
  if (!/\/FlateDecode\b/.test(text.slice(text.lastIndexOf('<<', at), dictionaryEnd))) return null;
  let start = streamKeyword + 'stream'.length;
  if (text[start] === '\r') start++;
  if (text[start] === '\n') start++;
  const end = text.indexOf('endstream', start);
  if (end < 0) return null;
  try {
    return latin1(inflateSync(bytes.subarray(start, end), { maxOutputLength: MAX_OBJECT_STREAM_BYTES }));
  } catch {
    // Truncated, encrypted or oversized streams are simply not counted.
    return null;
  }
};

/** The number of images (IFDs) in a TIFF, following the chain of IFD offsets; null when it is not a TIFF. */
export const countTiffPages = (bytes: Uint8Array): number | null => {
  if (bytes.byteLength < 8) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const order = view.getUint16(0);
  const little = order === 0x4949;
  if ((order !== 0x4949 && order !== 0x4d4d) || view.getUint16(2, little) !== 42) return null;

  const seen = new Set<number>();
  let offset = view.getUint32(4, little);
  while (offset !== 0) {
    // A loop in the chain or an offset past the end is a broken file: stop at what was read.
    if (seen.has(offset) || offset + 2 > bytes.byteLength) break;
    seen.add(offset);
    const entries = view.getUint16(offset, little);
    const next = offset + 2 + entries * 12;
    if (next + 4 > bytes.byteLength) break;
    offset = view.getUint32(next, little);
  }
  return seen.size;
};
