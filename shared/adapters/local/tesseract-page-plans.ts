/**
 * What the Tesseract engine reads of a file, page by page, after every check that can be made without decoding a
 * page: the page count (`pdfinfo`, TIFF directories) and each page's pixels. PDF pages are rasterised with
 * pdftoppm just before they are read; a PDF page too large for `dpi` within `maxPagePixels` is rasterised at a
 * lower resolution, down to `minDpi`, then left out (or refused when no page is left).
 */
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { OcrFailure } from '../../domain/ocr/ports';
import { webpDimensions, type ImageFormat } from '../imaging/formats';
import { jpegSize, pngSize, tiffLayout, tiffPage, type Size } from '../image-headers';
import type { PagePool } from './tesseract-page-pool';
import { ranOutOfMemory, runProcess, type ProcessLimits } from './tesseract-processes';

/** One page to read: how to get its image into the temp dir, and at which resolution it is. */
export interface PagePlan {
  /** Writes or renders the page's image; returns its path. */
  prepare: (directory: string, signal: AbortSignal) => Promise<string>;
  /** For rasters without resolution information (pdftoppm's PGM). */
  dpi?: number;
  /** Set when the page is too large to read: it is left out (empty text) if other pages can be read. */
  tooLarge?: string;
}

interface PdfInfo {
  pages: number;
  sizes: Size[];
}

/** The engine's bounds and tools that planning uses (see TesseractOcrEngineOptions). */
export interface PlannerSettings {
  dpi: number;
  minDpi: number;
  maxPagePixels: number;
  maxPages: number;
  pdfinfo: string;
  pdftoppm: string;
  /** pdfinfo takes a slot of the engine's pool, as every page process does. */
  pool: PagePool;
  limits: (signal: AbortSignal) => ProcessLimits;
}

export class PagePlanner {
  constructor(private readonly settings: PlannerSettings) {}

  /**
   * What to read, page by page, after every check that can be made without decoding a page. `pages` (1-based,
   * PDFs only) names the pages to read when not all of them need OCR: the others are neither drawn nor read.
   */
  async plan(bytes: Uint8Array, format: ImageFormat, directory: string, signal: AbortSignal, turn: object, pages?: readonly number[]): Promise<PagePlan[]> {
    if (format === 'pdf') return this.planPdf(bytes, directory, signal, turn, pages);
    if (format === 'tiff') return this.planTiff(bytes);
    const size = format === 'png' ? pngSize(bytes) : format === 'jpeg' ? jpegSize(bytes) : webpDimensions(bytes);
    if (!size) throw new OcrFailure('unreadable_file', `The ${format.toUpperCase()} header is malformed`);
    this.checkPixels(size, 1);
    return [{ prepare: (dir) => writeInput(dir, `page-1.${format}`, bytes) }];
  }

  /** `reading`: the pages that will be read, when fewer than all; the bound is on those. */
  private checkPageCount(pages: number, reading = pages): void {
    if (pages < 1) throw new OcrFailure('no_pages', 'The document has no pages');
    if (reading > this.settings.maxPages) {
      throw new OcrFailure('too_large', `The document has more than ${this.settings.maxPages} pages`);
    }
  }

  private checkPixels(size: Size, page: number): void {
    if (!(size.width > 0 && size.height > 0)) throw new OcrFailure('unreadable_file', `Page ${page} has no pixels`);
    if (size.width * size.height > this.settings.maxPagePixels) {
      throw new OcrFailure(
        'too_large',
        `Page ${page} is ${size.width}x${size.height} pixels, more than the ${Math.round(this.settings.maxPagePixels / 1e6)} megapixels a page may have`,
      );
    }
  }

  private planTiff(bytes: Uint8Array): PagePlan[] {
    const layout = tiffLayout(bytes, this.settings.maxPages);
    if (!layout) throw new OcrFailure('unreadable_file', 'The TIFF file is malformed');
    this.checkPageCount(layout.sizes.length);
    layout.sizes.forEach((size, i) => this.checkPixels(size, i + 1));
    if (layout.ifds.length === 1) return [{ prepare: (dir) => writeInput(dir, 'page-1.tiff', bytes) }];
    // Each page's file is written just before it is read and removed after: at most `concurrency` copies at once.
    return layout.ifds.map((_, i) => ({ prepare: (dir) => writeInput(dir, `page-${i + 1}.tiff`, tiffPage(bytes, layout, i)) }));
  }

  private async planPdf(bytes: Uint8Array, directory: string, signal: AbortSignal, turn: object, only?: readonly number[]): Promise<PagePlan[]> {
    const file = await writeInput(directory, 'input.pdf', bytes);
    const info = await this.settings.pool.run(() => this.pdfInfo(file, signal, only), signal, 'normal', turn);
    this.checkPageCount(info.pages, only?.length);
    if (only?.some((page) => !(Number.isInteger(page) && page >= 1 && page <= info.pages))) {
      throw new OcrFailure('unreadable_file', 'The PDF has fewer pages than its text layer');
    }
    const { dpi: maxDpi, minDpi, maxPagePixels } = this.settings;
    const plans = (only ?? info.sizes.map((_, i) => i + 1)).map((page) => {
      const points = info.sizes[page - 1]!;
      const area = (points.width / 72) * (points.height / 72); // square inches
      if (!(area > 0)) throw new OcrFailure('unreadable_file', `Page ${page} has no area`);
      const dpi = Math.min(maxDpi, Math.floor(Math.sqrt(maxPagePixels / area)));
      const plan: PagePlan = { dpi, prepare: (dir, pageSignal) => this.rasterise(file, page, dpi, dir, pageSignal) };
      if (dpi < minDpi) {
        plan.tooLarge = `Page ${page} is ${Math.round(points.width)}x${Math.round(points.height)} pt, too large to read at ${minDpi} dpi or more within ${Math.round(maxPagePixels / 1e6)} megapixels`;
      }
      return plan;
    });
    // An oversized page among readable ones is left out rather than failing the whole document.
    const refused = plans.find((plan) => plan.tooLarge);
    if (refused && plans.every((plan) => plan.tooLarge)) throw new OcrFailure('too_large', refused.tooLarge!);
    return plans;
  }

  private async pdfInfo(file: string, signal: AbortSignal, only?: readonly number[]): Promise<PdfInfo> {
    // One call gives the page count, the encryption and the size of the pages up to the bound (pdfinfo clamps -l);
    // with only some pages to read, up to the last of them (their number is bounded, not the document's).
    const last = only?.length ? Math.max(...only) : this.settings.maxPages;
    const result = await runProcess(this.settings.pdfinfo, ['-f', '1', '-l', String(last), file], this.settings.limits(signal));
    if (/incorrect password/i.test(result.stderr)) {
      throw new OcrFailure('encrypted', 'The PDF is encrypted with a password');
    }
    const pagesMatch = /^Pages:\s+(\d+)/m.exec(result.stdout);
    if (/invalid page count 0/i.test(result.stderr) || pagesMatch?.[1] === '0') {
      throw new OcrFailure('no_pages', 'The document has no pages');
    }
    if (result.code !== 0 || !pagesMatch) {
      if (result.code !== 0 && ranOutOfMemory(result)) throw new OcrFailure('too_large', 'The PDF needs more memory to open than allowed');
      throw new OcrFailure('unreadable_file', 'The PDF is corrupt or not a PDF');
    }
    const pages = Number(pagesMatch[1]);
    // A document above the bound is refused by its count; with pages chosen, the sizes up to the last of them do.
    if (!only && pages > last) return { pages, sizes: [] };
    const listed = Math.min(pages, last);
    const sizes: Size[] = [];
    for (const [, page, width, height] of result.stdout.matchAll(/^Page\s+(\d+) size:\s+([\d.]+) x ([\d.]+) pts/gm)) {
      sizes[Number(page) - 1] = { width: Number(width), height: Number(height) };
    }
    if (sizes.length !== listed || sizes.some((size) => size === undefined)) {
      throw new OcrFailure('unreadable_file', 'The PDF page tree is corrupt');
    }
    return { pages, sizes };
  }

  private async rasterise(file: string, page: number, dpi: number, directory: string, signal: AbortSignal): Promise<string> {
    const root = path.join(directory, `page-${page}`);
    // PGM rather than PNG: pdftoppm writes it without compressing, and it is removed right after reading.
    const args = ['-r', String(dpi), '-gray', '-f', String(page), '-l', String(page), '-singlefile', file, root];
    const result = await runProcess(this.settings.pdftoppm, args, this.settings.limits(signal));
    if (result.code !== 0) {
      if (ranOutOfMemory(result)) throw new OcrFailure('too_large', `Page ${page} needs more memory to draw than allowed`);
      throw new OcrFailure('unreadable_file', `Page ${page} of the PDF cannot be drawn`);
    }
    return `${root}.pgm`;
  }
}

/** Writes `bytes` as `name` in `directory`; returns its path. */
export const writeInput = async (directory: string, name: string, bytes: Uint8Array): Promise<string> => {
  const file = path.join(directory, name);
  await writeFile(file, bytes);
  return file;
};
