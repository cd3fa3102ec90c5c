/**
 * The per-page rule's cost and verdicts (issue 39): each PDF of the corpus and a few generated ones read by the
 * text-layer job in this thread (as the imaging worker runs it), every page's decision (`decidePage`), the time
 * of the read, and apart the time of the blank check alone (pdf.js's operator list of a page without text, the
 * only extra work the rule asks of the reader), and of the scan blank check the cloud's worker makes before
 * Textract is sent a page (a page without text that draws images, drawn at 72 dpi: `blankPages`), with its verdicts.
 *
 *   npx tsx bench/page-decisions.ts [--repeat=5]
 */
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTextLayer } from '../shared/adapters/imaging/text-layer';
import { openPdf } from '../shared/adapters/imaging/pdf-engine';
import { blankPages } from '../shared/adapters/imaging/blank-pages';
import { decidePage } from '../shared/domain/ocr/page-texts';
import { textPdf } from '../test/support/text-pdf';
import { jpegScanPdf } from '../test/support/scan-pdf';
import { mixedPdf } from '../test/support/mixed-pdf';
import { paperPng } from '../test/support/paper-scan';

const CORPUS = path.resolve(fileURLToPath(new URL('..', import.meta.url)), '../shared/corpus/ocrmypdf');
const repeat = Number(process.argv.find((arg) => arg.startsWith('--repeat='))?.split('=')[1] ?? 5);
const MiB = 1024 * 1024;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const files: [string, Uint8Array][] = [
  ...readdirSync(CORPUS)
    .filter((file) => file.endsWith('.pdf') && file !== 'enormous.pdf')
    .sort()
    .map((file) => [file, new Uint8Array(readFileSync(path.join(CORPUS, file)))] as [string, Uint8Array]),
  ['generated: text, blank, page number', new Uint8Array(textPdf([['Alpha alphaxpkcbgsjl and the rest of a line of text'], [], ['3']]))],
  ['generated: scan', new Uint8Array(jpegScanPdf(1240, 1754, [255, 255, 255], [30, 30, 30]))],
  ['generated: scan of blank paper (PNG, 150 dpi)', new Uint8Array(await mixedPdf([{ png: await paperPng(1275, 1650, 246), dpi: 150 }]))],
];

const rows: string[] = [];
for (const [name, bytes] of files) {
  const times: number[] = [];
  let decisions = '';
  let scans: number[] = [];
  try {
    for (let i = 0; i < repeat; i++) {
      const start = performance.now();
      const output = await readTextLayer({ bytes, maxPages: 2000, maxCharsPerPage: 200_000, maxContentBytes: 32 * MiB });
      times.push(performance.now() - start);
      decisions = output ? output.pages.map(decidePage).join(' ') : 'null (OCR whole)';
      scans = output?.pages.flatMap((page, n) => (decidePage(page) === 'ocr' && page.text === '' && page.drawsImages ? [n + 1] : [])) ?? [];
    }
  } catch (error) {
    decisions = `refused: ${(error as Error).message}`;
  }
  // The scan blank check, page by page, within the reader's defaults (at most 20 pages, 40 megapixels a page): the median time and the verdicts.
  const scanChecks: number[] = [];
  const verdicts: string[] = [];
  for (const page of scans.slice(0, 20)) {
    const runs: number[] = [];
    let blank = false;
    for (let i = 0; i < repeat; i++) {
      const start = performance.now();
      [blank = false] = await blankPages({ bytes, pages: [page], dpi: 72, maxPixels: 40_000_000, maxContentBytes: 32 * MiB });
      runs.push(performance.now() - start);
    }
    scanChecks.push(median(runs));
    verdicts.push(blank ? 'blank' : 'ink');
  }
  // The blank check alone: the operator list of each page (what a page without text costs on top of its read).
  const checks: number[] = [];
  try {
    const document = await openPdf(bytes, 1);
    for (let page = 1; page <= Math.min(document.numPages, 20); page++) {
      const proxy = await document.getPage(page);
      const start = performance.now();
      await proxy.getOperatorList({ intent: 'display' });
      checks.push(performance.now() - start);
      proxy.cleanup();
    }
    await document.destroy();
  } catch {
    // not a PDF pdf.js opens
  }
  const scanColumn = scanChecks.length ? `${median(scanChecks).toFixed(0)} (${Math.min(...scanChecks).toFixed(0)}-${Math.max(...scanChecks).toFixed(0)}): ${verdicts.join(' ')}` : 'n/a';
  rows.push(`| ${name} | ${decisions} | ${median(times).toFixed(1)} | ${checks.length ? median(checks).toFixed(2) : 'n/a'} | ${scanColumn} |`);
}
console.log(`Per-page decisions, median of ${repeat} reads (ms), blank check per page (ms, median over pages), scan blank check at 72 dpi per page (ms, median over pages (range), each the median of ${repeat}):\n`);
console.log(['| file | pages | read (ms) | blank check per page (ms) | scan blank check per page (ms): verdicts |', '| --- | --- | --- | --- | --- |', ...rows].join('\n'));
