import { MAX_RECEIVES } from '../../manifest';
import type { Clock } from '../clock';
import { fileKeys } from '../files/file-keys';
import type { DocumentContent, FileStore } from '../files/ports';
import type { NotificationRepository } from '../notifications/ports';
import { notifyUser } from '../notifications/notify-user';
import type { SettingsRepository } from '../settings/ports';
import type { BusinessMetrics } from '../metrics/ports';
import type { OcrJob, OcrJobMessage } from './jobs';
import { type BlankPageDetector, type OcrJobQueue, type OcrJobRepository, OcrEngineBusy, OcrFailure, type OcrDocument, type OcrDocuments, type OcrEngine, type OcrOutput, type TextLayerReader } from './ports';
import { combinePages, decidePage, type CombinedText, type PageDecision, type PageLayer, type ReadPage } from './page-texts';
import { storeSearchablePdf, type PageWords, type ReadFile, type SearchablePdfDeps } from './searchable-pdf';
import type { OcrPageText } from './page-texts';
import { deferralDelaySeconds, MAX_DEFERRALS } from './throttling';
import { applyRulesSafely } from '../rules/apply-rules';
import type { RuleApplyDeps } from '../rules/ports';
import { takeOcrPages, type OcrPageQuotaDeps } from '../quotas/ocr-pages';
import { monthOf } from '../usage/usage';

export { TEXT_LAYER } from './page-texts';
/** Text above this goes to the bucket: a table item holds at most 400 KB. */
export const INLINE_TEXT_BYTES = 300_000;

/** What the worker brings beyond the workspace's stores: the engines and how long a silent job is kept. */
export interface OcrWorkerServices {
  engine: OcrEngine;
  textLayer: TextLayerReader;
  /** A processing job whose heartbeat is older than this belongs to a dead worker and may be taken over. */
  staleAfterSeconds: number;
  /** Writes the searchable PDF of a document with OCRed pages once its run completed; none without it. */
  searchablePdf?: SearchablePdfDeps['searchablePdf'];
  /**
   * Finds the scanned blank pages of a PDF, and an image file of blank paper, before the engine is asked, so that
   * none is sent: the cloud's (Textract bills every page it reads). Without it the engine is sent them; the local
   * one finds them in the pages it draws.
   */
  blankPages?: BlankPageDetector;
}

/** The worker applies the workspace's rules on content to each text it reads (RuleApplyDeps). */
export interface OcrWorkerDeps extends OcrWorkerServices, RuleApplyDeps {
  /** The job's workspace: its scope, and the workspace a notification of the run is addressed in. */
  workspaceId: string;
  ocrJobs: OcrJobRepository;
  /** Where a job the engine is throttling is put back, with a delay. */
  ocrQueue: OcrJobQueue;
  documents: OcrDocuments;
  files: Pick<FileStore, 'get' | 'put' | 'bucketKey' | 'deletePrefix'>;
  notifications: NotificationRepository;
  settings: SettingsRepository;
  clock: Clock;
  metrics: BusinessMetrics;
  /** A number in [0, 1) for the jitter of a deferral's delay. */
  random?: () => number;
  /**
   * Whether the job's workspace serves (a suspended or deleting one's jobs wait in the queue) and its plan's OCR
   * pages per month; absent (a test's worker): neither is checked.
   */
  quotas?: OcrPageQuotaDeps & { workspaceStatus: { status(workspaceId: string): Promise<string | null> } };
}

/** A suspended workspace's job is looked at again after this long (and runs once the workspace is resumed). */
export const SUSPENDED_RECHECK_SECONDS = 15;

/**
 * `deferred`: the engine was throttling; the job is queued again with a delay, and the delivery is not an attempt.
 * `superseded`: the document's file was replaced while it was read; a new run of the job reads the new one.
 */
export type OcrJobOutcome = 'completed' | 'failed' | 'cancelled' | 'skipped' | 'deferred' | 'superseded';

/** Thrown between pages when the job was cancelled (or lost) meanwhile. */
class Cancelled extends Error {}

/**
 * Runs one OCR job delivery. Idempotent: a delivery for an old run, a finished job or one a live worker holds
 * does nothing, so a message seen twice does the work once and never regresses a completed document. A file
 * that can never be read ends failed with the engine's reason; any other error releases the job for the
 * queue's redelivery, and on the last attempt ends it failed, so no document stays pending forever; a throttling
 * engine defers the job instead (see {@link defer}). Rethrows only to make the queue retry.
 */
export async function processOcrJob(deps: OcrWorkerDeps, message: OcrJobMessage): Promise<OcrJobOutcome> {
  const status = deps.quotas ? await deps.quotas.workspaceStatus.status(deps.workspaceId) : null;
  // A workspace being deleted runs nothing more (the eraser removes its jobs).
  if (status === 'deleting') return 'skipped';
  if (status === 'suspended') {
    // Not lost: the job stays queued, and its message comes back until the workspace is resumed.
    await deps.ocrQueue.enqueue({ documentId: message.documentId, run: message.run, priority: message.priority, deferrals: message.deferrals ?? 0 }, { delaySeconds: SUSPENDED_RECHECK_SECONDS });
    return 'deferred';
  }
  const now = () => deps.clock.now().toISOString();
  const staleBefore = new Date(deps.clock.now().getTime() - deps.staleAfterSeconds * 1000).toISOString();
  const job = await deps.ocrJobs.claim(message, now(), staleBefore);
  if (!job) return 'skipped';
  const document = await deps.documents.get(job.document_id);
  if (!document) {
    await deps.ocrJobs.fail(job.document_id, job.run, 'the document was deleted', now(), 'cancelled');
    return 'cancelled';
  }
  try {
    const file = originalFile(deps, document);
    const output = await read(deps, job, document, file);
    return await finish(deps, job, document, output, file);
  } catch (error) {
    if (error instanceof Cancelled) return end(deps, job, document, 'cancelled', 'cancelled');
    if (error instanceof OcrFailure) return end(deps, job, document, 'failed', error.message);
    if (error instanceof OcrEngineBusy && (message.deferrals ?? 0) < MAX_DEFERRALS) return defer(deps, job, message);
    if (job.attempts >= MAX_RECEIVES) {
      return end(deps, job, document, 'failed', `OCR failed ${MAX_RECEIVES} times on an internal error`);
    }
    await deps.ocrJobs.release(job.document_id, job.run, now());
    throw error;
  }
}

/**
 * Throttling is the engine's state, not the job's fault: the job goes back to the queue with a growing delay
 * (see {@link deferralDelaySeconds}) without spending one of its attempts, and the delivery ends as handled, so
 * the message's receives do not count towards its queue's dead-letter limit either.
 */
async function defer(deps: OcrWorkerDeps, job: OcrJob, message: OcrJobMessage): Promise<OcrJobOutcome> {
  const deferrals = (message.deferrals ?? 0) + 1;
  const delaySeconds = deferralDelaySeconds(deferrals, deps.random);
  const now = deps.clock.now();
  const until = new Date(now.getTime() + delaySeconds * 1000).toISOString();
  if (!(await deps.ocrJobs.defer(job.document_id, job.run, now.toISOString(), until))) return 'skipped';
  await deps.ocrQueue.enqueue({ documentId: job.document_id, run: job.run, priority: job.priority, deferrals }, { delaySeconds });
  return 'deferred';
}

/** What was read, and by what (the usage counts pages by engine), with the OCRed pages' words for the searchable PDF. */
type ReadText = CombinedText & { pageWords: PageWords };

/** The OCRed pages' words by page, null for the others; undefined when an OCRed page came without positions. */
const wordsOf = (pages: readonly (OcrPageText | null)[]): PageWords =>
  pages.some((page) => page !== null && !page.boxes) ? undefined : pages.map((page) => (page ? page.boxes! : null));

/**
 * Reads a document by the per-page rule (page-texts.ts): a PDF within the reader's bound is read page by page,
 * its pages with a usable text layer keep it, its blank pages are read by nobody, and only the rest go to the
 * engine (`pages`); any other file, or a PDF the reader cannot parse, goes to the engine whole.
 */
async function read(deps: OcrWorkerDeps, job: OcrJob, document: OcrDocument, file: ReadFile): Promise<ReadText> {
  const engineName = deps.engine.name ?? 'ocr';
  // A PDF above the reader's bound goes to the engine unread: in the cloud Textract reads it from the bucket.
  const layer =
    document.mime_type === 'application/pdf' && document.size <= deps.textLayer.maxInputBytes ? await deps.textLayer.read(await file.readBytes()) : null;
  const blankImage = layer ? null : await blankImageFile(deps, document, file, engineName);
  if (blankImage) return blankImage;
  const decisions = layer && (await withScannedBlanks(deps, file, layer.pages, layer.pages.map(decidePage)));
  if (layer && decisions && !decisions.includes('ocr')) {
    const combined = combinePages(
      layer.pages.map((page, i): ReadPage => (decisions[i] === 'blank' ? { by: 'blank' } : { by: 'text_layer', text: page.text })),
      engineName,
    );
    return { ...combined, pageWords: layer.pages.map(() => null) };
  }
  const toOcr = decisions?.flatMap((decision, i) => (decision === 'ocr' ? [i + 1] : []));
  // Every page needing OCR: the engine reads the file whole, as it would without a layer (Textract's one call).
  const selected = layer && toOcr && toOcr.length < layer.pages.length ? toOcr : undefined;
  const output = await recognize(deps, job, document, file, selected);
  const blanks = output.pageTexts?.filter((page) => page.blank).length ?? 0;
  deps.metrics.count('PagesOcred', output.pages - blanks);
  if (!layer || !decisions || !selected) {
    // Read whole: the engine's text and confidence as they are; pages it found blank are counted under none.
    const read = output.pages - blanks;
    const confidence = read > 0 ? output.confidence : 1;
    const pageWords = output.pageTexts?.length === output.pages ? wordsOf(output.pageTexts.map((page) => (page.blank ? null : page))) : undefined;
    return { text: output.text, confidence, pages: output.pages, pagesByEngine: read > 0 ? { [engineName]: read } : {}, pageWords };
  }
  const read = output.pageTexts ?? [];
  if (read.length !== selected.length) throw new Error(`The OCR engine read ${read.length} pages of the ${selected.length} asked for`);
  const byPage = new Map(selected.map((page, i) => [page, read[i]!]));
  const pageWords = wordsOf(layer.pages.map((_, i) => byPage.get(i + 1) ?? null).map((page) => (page?.blank ? null : page)));
  const combined = combinePages(
    layer.pages.map((page, i): ReadPage => {
      const ocred = byPage.get(i + 1);
      if (ocred) return ocred.blank ? { by: 'blank' } : { by: 'ocr', ...ocred };
      return decisions[i] === 'blank' ? { by: 'blank' } : { by: 'text_layer', text: page.text };
    }),
    engineName,
  );
  return { ...combined, pageWords };
}

/**
 * The decisions with the scanned blank pages found (`deps.blankPages`): a page without text that draws images is
 * a scan, and its pixels tell whether it is blank paper. Best effort: when the check fails, the pages are read.
 */
async function withScannedBlanks(deps: OcrWorkerDeps, file: ReadFile, pages: readonly PageLayer[], decisions: PageDecision[]): Promise<PageDecision[]> {
  const scans = decisions.flatMap((decision, i) => (decision === 'ocr' && pages[i]!.text === '' && pages[i]!.drawsImages ? [i] : []));
  if (!deps.blankPages || scans.length === 0) return decisions;
  const blank = await deps.blankPages.blankPages(await file.readBytes(), scans.map((i) => i + 1)).catch(() => scans.map(() => false));
  const found = new Set(scans.filter((_, k) => blank[k] === true));
  return decisions.map((decision, i) => (found.has(i) ? 'blank' : decision));
}

/**
 * An image file of blank paper, read by nobody (`deps.blankPages`): every page blank, as the engine would have
 * found it, so no page is counted. A multi-page TIFF is sent whole unless every page is blank (the engine reads an
 * image's pages all together). Null when some page is not blank or the check failed: the engine reads the file.
 */
async function blankImageFile(deps: OcrWorkerDeps, document: OcrDocument, file: ReadFile, engineName: string): Promise<ReadText | null> {
  if (!deps.blankPages || !document.mime_type.startsWith('image/')) return null;
  const detector = deps.blankPages;
  const blank = await file
    .readBytes()
    .then((bytes) => detector.blankImagePages(bytes))
    .catch((): boolean[] => []);
  if (blank.length === 0 || !blank.every((page) => page)) return null;
  return { ...combinePages(blank.map((): ReadPage => ({ by: 'blank' })), engineName), pageWords: blank.map(() => null) };
}

async function recognize(
  deps: OcrWorkerDeps,
  job: OcrJob,
  document: OcrDocument,
  file: ReadFile,
  pages: readonly number[] | undefined,
): Promise<OcrOutput> {
  const installed = await deps.engine.languages();
  const missing = job.language.split('+').filter((code) => !installed.includes(code));
  if (missing.length) throw new OcrFailure('unsupported_language', `OCR language not available: ${missing.join(', ')}`);
  return deps.engine.recognize({
    size: file.size,
    sha256: file.sha256,
    readBytes: file.readBytes,
    mimeType: document.mime_type,
    language: job.language,
    priority: job.priority,
    objectKey: deps.files.bucketKey(fileKeys.original(document.id)),
    ...(pages ? { pages } : {}),
    onProgress: async ({ done, total }) => {
      // After the last page the job's completion and progress events follow at once: no heartbeat needed.
      if (done === total) return;
      const percent = Math.min(99, Math.round((done / total) * 100));
      const { cancelRequested } = await deps.ocrJobs.heartbeat(job.document_id, job.run, percent, total, deps.clock.now().toISOString());
      if (cancelRequested) throw new Cancelled();
    },
  });
}

/** The original file, read from the bucket at most once, and only by whoever needs its bytes. */
function originalFile(deps: OcrWorkerDeps, document: OcrDocument): ReadFile {
  let bytes: Promise<Uint8Array> | undefined;
  return {
    size: document.size,
    sha256: document.sha256,
    mimeType: document.mime_type,
    readBytes: () =>
      (bytes ??= deps.files.get(fileKeys.original(document.id)).then((found) => {
        if (!found) throw new OcrFailure('unreadable_file', 'The original file is missing from storage');
        return found;
      })),
  };
}

async function finish(deps: OcrWorkerDeps, job: OcrJob, document: OcrDocument, output: ReadText, file: ReadFile): Promise<OcrJobOutcome> {
  const finishedAt = deps.clock.now();
  const processingTime = Math.max(0, (finishedAt.getTime() - Date.parse(job.started_at!)) / 1000);
  const pages = deps.quotas ? await takeOcrPages(deps.quotas, deps.workspaceId, monthOf(finishedAt), Object.values(output.pagesByEngine).reduce((sum, n) => sum + n, 0)) : null;
  if (pages && !pages.taken) {
    return end(deps, job, document, 'failed', `quota_exceeded: this run would pass the workspace's OCR pages this month (${pages.used} of ${pages.limit} used); retry once the month resets or the plan grows`);
  }
  const content = await storeText(deps, document.id, output.text);
  const confidence = Math.round(Math.min(1, Math.max(0, output.confidence)) * 10_000) / 10_000;
  // One write ends the run; it also checks for a cancel asked for since the last page.
  const outcome = await deps.ocrJobs.complete(
    job.document_id,
    job.run,
    { text: output.text, confidence, pages: output.pages, processingTime, pagesByEngine: output.pagesByEngine, content, readSha256: document.sha256 },
    finishedAt.toISOString(),
  );
  if (outcome !== 'completed' && pages?.taken) await pages.give();
  if (outcome === 'cancel_requested') return end(deps, job, document, 'cancelled', 'cancelled');
  if (outcome === 'not_held') return 'skipped';
  if (outcome === 'file_replaced') return handOn(deps, job);
  await bestEffort(() => storeSearchablePdf(deps, document.id, file, output.pageWords));
  await applyRulesSafely(deps, document, 'text', output.text);
  await bestEffort(() =>
    notifyUser(deps, document.created_by, {
      type: 'ocr_completed',
      title: 'OCR completed',
      message: `"${document.title}" is searchable: ${output.pages} page${output.pages === 1 ? '' : 's'}, ${Math.round(confidence * 100)}% confidence`,
      data: { document_id: document.id },
    }),
  );
  return 'completed';
}

/**
 * A sync replaced the document's file while this run read the old one: its text would be stale for good (the
 * sync found the run busy and queued none), so the job goes to a new run that reads the new file.
 */
async function handOn(deps: OcrWorkerDeps, job: OcrJob): Promise<OcrJobOutcome> {
  const now = deps.clock.now().toISOString();
  const next = await deps.ocrJobs.restart(job.document_id, { language: job.language, priority: job.priority, by: job.created_by, now, heldRun: job.run });
  if (!next || next === 'busy') return 'skipped';
  // A lost send is resent by the sweep, as for any queued run.
  await deps.ocrQueue.enqueue({ documentId: next.document_id, run: next.run, priority: next.priority }).catch(() => undefined);
  return 'superseded';
}

async function end(
  deps: OcrWorkerDeps,
  job: OcrJob,
  document: OcrDocument,
  status: 'failed' | 'cancelled',
  reason: string,
): Promise<OcrJobOutcome> {
  const won = await deps.ocrJobs.fail(job.document_id, job.run, reason, deps.clock.now().toISOString(), status);
  if (!won) return 'skipped';
  if (status === 'failed') {
    deps.metrics.count('OcrFailures');
    await bestEffort(() =>
      notifyUser(deps, document.created_by, {
        type: 'ocr_failed',
        title: 'OCR failed',
        message: `"${document.title}" could not be read: ${reason}`,
        data: { document_id: document.id },
      }),
    );
  }
  return status;
}

async function storeText(deps: OcrWorkerDeps, documentId: string, text: string): Promise<DocumentContent> {
  const bytes = new TextEncoder().encode(text);
  if (bytes.byteLength <= INLINE_TEXT_BYTES) return { text };
  const key = fileKeys.text(documentId);
  await deps.files.put(key, bytes, 'text/plain; charset=utf-8');
  return { text_object: key };
}

/** Side effects after the job's outcome is stored: none of them may undo or fail it. */
async function bestEffort(action: () => Promise<unknown>): Promise<void> {
  try {
    await action();
  } catch {
    // The outcome is already stored; the adapters log their own failures.
  }
}
