/**
 * The searchable PDF of a document (issue 39): after a run completes, its original pages with the words OCR read
 * laid on them as invisible text, stored beside the original (`fileKeys.searchablePdf`) and counted in the
 * workspace's stored bytes. Only documents with OCRed pages get one; a document whose PDF cannot be written stays
 * `completed`, with the reason recorded for `GET /api/documents/{id}/searchable-pdf` to give.
 */
import type { Clock } from '../clock';
import { fileKeys } from '../files/file-keys';
import { isQuotaExceeded } from '../quotas/quota-errors';
import type { FileStore } from '../files/ports';
import type { OcrWord } from './page-texts';
import { SearchablePdfRefused, type OcrJobRepository, type SearchablePdfState, type SearchablePdfWriter } from './ports';

/** Each page's words for OCRed pages, null for the others (kept their layer, blank); undefined: some have no positions. */
export type PageWords = (readonly OcrWord[] | null)[] | undefined;

/** What writing a searchable PDF takes; without a writer, none is written (nor any reason recorded). */
export interface SearchablePdfDeps {
  searchablePdf?: (SearchablePdfWriter & { readonly maxInputBytes: number }) | undefined;
  files: Pick<FileStore, 'put' | 'deletePrefix'>;
  ocrJobs: Pick<OcrJobRepository, 'recordSearchablePdf'>;
  clock: Clock;
}

/** The original file as a run read it: its size, type and bytes (read once, shared with the engine). */
export interface ReadFile {
  size: number;
  sha256: string;
  mimeType: string;
  readBytes(): Promise<Uint8Array>;
}

const MiB = 1024 * 1024;

/** Writes (or explains the absence of) the document's searchable PDF; never throws for the file's sake. */
export async function storeSearchablePdf(deps: SearchablePdfDeps, documentId: string, file: ReadFile, pages: PageWords): Promise<SearchablePdfState | null> {
  const writer = deps.searchablePdf;
  if (!writer) return null;
  const key = fileKeys.searchablePdf(documentId);
  const state = await write(deps, writer, key, file, pages);
  try {
    return await record(deps, documentId, key, file, state);
  } catch (error) {
    if (!isQuotaExceeded(error)) throw error;
    // The workspace's plan has no room for it: not kept, and the document says why (a retry once there is room).
    return record(deps, documentId, key, file, { reason: 'not_written', message: "The workspace's storage quota has no room for it; retrying OCR writes it once there is" });
  }
}

async function record(deps: SearchablePdfDeps, documentId: string, key: string, file: ReadFile, state: SearchablePdfState): Promise<SearchablePdfState> {
  // A PDF of the file's previous reading would otherwise outlive it, uncounted.
  if (!('size' in state)) await deps.files.deletePrefix(key);
  await deps.ocrJobs.recordSearchablePdf(documentId, file.sha256, state, deps.clock.now().toISOString());
  return state;
}

async function write(deps: SearchablePdfDeps, writer: NonNullable<SearchablePdfDeps['searchablePdf']>, key: string, file: ReadFile, pages: PageWords): Promise<SearchablePdfState> {
  if (!pages) return { reason: 'no_word_positions', message: 'The OCR engine gave no word positions for some page' };
  if (!pages.some((words) => words !== null)) return { reason: 'no_ocred_pages', message: 'No page needed OCR: every page kept its own text layer or was blank' };
  if (file.size > writer.maxInputBytes) {
    return { reason: 'not_written', message: `The file is larger than the ${Math.floor(writer.maxInputBytes / MiB)} MiB a searchable PDF is written for` };
  }
  try {
    const bytes = await writer.write({ bytes: await file.readBytes(), mimeType: file.mimeType }, pages);
    await deps.files.put(key, bytes, 'application/pdf');
    return { size: bytes.byteLength };
  } catch (error) {
    if (error instanceof SearchablePdfRefused) return { reason: 'not_written', message: error.message };
    // The machine's fault (storage, a broken worker): said as such, without its internals; a retry writes it.
    return { reason: 'not_written', message: 'An internal error stopped it; retrying OCR writes it again' };
  }
}
