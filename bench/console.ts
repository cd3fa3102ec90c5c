/**
 * The web console's budgets (issue 38), against the local runtime started as a child process on a free port and
 * a temp DATA_DIR, in Debian's Chromium driven by playwright-core:
 *
 * - the JavaScript of the first page, gzipped (budget: under 150 KB), and its stylesheet;
 * - first contentful paint of `/` with an empty cache (budget: under 1 s), median of several loads;
 * - the documents list with 10,000 documents: time from sign-in to the first page drawn, and from a click on
 *   "Next" (or a jump to the last page, or a new sort) to the new page drawn, medians.
 *
 *   npx tsx bench/console.ts              (or: npm run bench:console)
 *   npx tsx bench/console.ts --quick      500 documents, fewer samples: a smoke run of the bench itself
 *   npx tsx bench/console.ts --docs=N     N documents instead of 10,000
 *
 * Documents are seeded through `POST /api/documents/upload` (small PDFs, `ocr_enabled=false`, eight at a time).
 * Results: bench/results/console.json (console.quick.json with --quick). The bench reports; it exits non-zero only
 * when it crashes itself.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { buildConsole } from '../web/build';
import { ApiClient } from '../test/support/api-client';
import { launchChromium, openConsole, signIn } from '../test/support/console-browser';
import { pdfDocument } from '../test/support/fixtures';
import { removeMadeDataDirs, startRuntimeProcess } from '../test/support/runtime-process';
import { percentile, round } from './support/stats';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const QUICK = process.argv.includes('--quick');
const DOCS = Number(process.argv.find((arg) => arg.startsWith('--docs='))?.slice(7) ?? (QUICK ? 500 : 10_000));
const SAMPLES = QUICK ? 3 : 9;
const ADMIN = { username: 'bench-admin', password: 'bench-admin-password' };
const BUDGETS = { firstPageJsGzipKb: 150, fcpMs: 1000 };
const TIMEOUT_MS = 120_000;

const median = (values: number[]) => round(percentile(values, 50), 0);

async function seed(api: ApiClient, count: number): Promise<number> {
  const started = performance.now();
  const bytes = pdfDocument('Bench document');
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      await api.uploadDocument(`bench-${String(index).padStart(5, '0')}.pdf`, bytes, { ocr_enabled: 'false', title: `Bench document ${index}` });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return round((performance.now() - started) / 1000, 1);
}

/** Milliseconds from `act` to the table showing a first row other than `before`'s. */
async function timeToNewPage(page: Page, act: () => Promise<unknown>): Promise<number> {
  const first = page.locator('table.documents tbody tr').first();
  const before = await first.getAttribute('data-document-id');
  const started = performance.now();
  await act();
  // A string, evaluated in the page (this file is typed for Node, without the DOM).
  await page.waitForFunction(
    `(() => {
      const row = document.querySelector('table.documents tbody tr');
      const table = document.querySelector('table.documents');
      return row && row.getAttribute('data-document-id') !== ${JSON.stringify(before)} && table.getAttribute('aria-busy') !== 'true';
    })()`,
    undefined,
    { timeout: TIMEOUT_MS },
  );
  return performance.now() - started;
}

async function main(): Promise<void> {
  const build = buildConsole();
  const script = readFileSync(path.join(build.outDir, build.script));
  const stylesheet = readFileSync(path.join(build.outDir, build.stylesheet));
  const runtime = await startRuntimeProcess({ env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password } });
  const browser = await launchChromium(TIMEOUT_MS);
  try {
    const api = await new ApiClient(runtime.baseUrl).login(ADMIN.username, ADMIN.password);
    console.log(`seeding ${DOCS} documents`);
    const seedSeconds = await seed(api, DOCS);

    const fcp: number[] = [];
    for (let sample = 0; sample < SAMPLES; sample++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(runtime.baseUrl, { waitUntil: 'load' });
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      fcp.push(Number(await page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN")));
      await context.close();
    }

    const consolePage = await openConsole(browser, runtime.baseUrl, { timeoutMs: TIMEOUT_MS });
    const { page } = consolePage;
    const signInStarted = performance.now();
    await signIn(consolePage, ADMIN.username, ADMIN.password);
    await page.locator('table.documents tbody tr').first().waitFor();
    const firstListMs = performance.now() - signInStarted;
    const next: number[] = [];
    for (let sample = 0; sample < SAMPLES; sample++) next.push(await timeToNewPage(page, () => page.getByRole('button', { name: 'Next' }).click()));
    const lastPage = Math.ceil(DOCS / 20);
    const jump: number[] = [];
    for (let sample = 0; sample < SAMPLES; sample++) {
      await page.evaluate("location.hash = '#/documents'");
      await page.locator('table.documents tbody tr').first().waitFor();
      jump.push(await timeToNewPage(page, () => page.evaluate(`location.hash = '#/documents?page=${lastPage - sample}'`)));
    }
    await page.evaluate("location.hash = '#/documents'");
    await page.locator('table.documents tbody tr').first().waitFor();
    const sort = await timeToNewPage(page, () => page.getByLabel('Sort by').selectOption('title'));
    await consolePage.context.close();

    const report = {
      date: new Date().toISOString(),
      documents: DOCS,
      seed_seconds: seedSeconds,
      first_page_js_bytes: script.length,
      first_page_js_gzip_kb: round(gzipSync(script, { level: 9 }).length / 1024, 1),
      stylesheet_gzip_kb: round(gzipSync(stylesheet, { level: 9 }).length / 1024, 1),
      fcp_ms_median: median(fcp),
      fcp_ms_samples: fcp.map((value) => round(value, 0)),
      list_first_page_after_sign_in_ms: round(firstListMs, 0),
      list_next_page_ms_median: median(next),
      list_jump_to_last_pages_ms_median: median(jump),
      list_sort_by_title_ms: round(sort, 0),
      budgets: BUDGETS,
    };
    const within = {
      js: report.first_page_js_gzip_kb < BUDGETS.firstPageJsGzipKb,
      fcp: report.fcp_ms_median < BUDGETS.fcpMs,
    };
    console.log(JSON.stringify({ ...report, within }, null, 2));
    await mkdir(path.join(REPO_ROOT, 'bench', 'results'), { recursive: true });
    await writeFile(path.join(REPO_ROOT, 'bench', 'results', QUICK ? 'console.quick.json' : 'console.json'), `${JSON.stringify({ ...report, within }, null, 2)}\n`);
  } finally {
    await browser.close();
    await runtime.stop();
    await removeMadeDataDirs();
  }
}

await main();
