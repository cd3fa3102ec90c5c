/**
 * The per-page rule's cost and verdicts (issue 39): each PDF of the corpus and a few generated ones read by the
 * text-layer job in this thread (as the imaging worker runs it), every page's decision (`decidePage`), the time
 * of the read, and apart the time of the blank check alone (pdf.js's operator list of a page without text, the
 * only extra work the rule asks of the reader).
 *
 *   npx tsx bench/page-decisions.ts [--repeat=5]
 */
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { readTextLayer } from '../shared/adapters/imaging/text-layer';
import { openPdf } from '../shared/adapters/imaging/pdf-engine';
import { decidePage } from '../shared/domain/ocr/page-texts';
import { textPdf } from '../test/support/text-pdf';
import { jpegScanPdf } from '../test/support/scan-pdf';

const CORPUS = '/work/shared/corpus/ocrmypdf';
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
];

const rows: string[] = [];
for (const [name, bytes] of files) {
  const times: number[] = [];
  let decisions = '';
  try {
    for (let i = 0; i < repeat; i++) {
      const start = performance.now();
      const output = await readTextLayer({ bytes, maxPages: 2000, maxCharsPerPage: 200_000, maxContentBytes: 32 * MiB });
      times.push(performance.now() - start);
      decisions = output ? output.pages.map(decidePage).join(' ') : 'null (OCR whole)';
    }
  } catch (error) {
    decisions = `refused: ${(error as Error).message}`;
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
  rows.push(`| ${name} | ${decisions} | ${median(times).toFixed(1)} | ${checks.length ? median(checks).toFixed(2) : 'n/a'} |`);
}
console.log(`Per-page decisions, median of ${repeat} reads (ms), blank check per page (ms, median over pages):\n`);
console.log(['| file | pages | read (ms) | blank check per page (ms) |', '| --- | --- | --- | --- |', ...rows].join('\n'));
