import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { OcrFailure, type OcrEngine, type OcrOutput, type OcrPageProgress } from '../../shared/domain/ocr/ports';
import { characterErrorRate } from '../support/text-metrics';
import { emptyPdf, encryptedPdf } from '../support/text-pdf';
import { fileInput } from '../support/ocr-input';

/** One file the contract reads. `file` is a corpus file name, or `generated:<name>` for a file made in code. */
export interface OcrContractCase {
  name: string;
  file: string;
  mimeType: string;
  language: string;
}

/** The OCRmyPDF test corpus, in the `shared` folder beside the repository (where CI puts it). */
export const OCR_CORPUS_DIR = path.resolve(import.meta.dirname, '..', '..', '../shared/corpus/ocrmypdf');

const PNG = 'image/png';
const PDF = 'application/pdf';

const CASES = [
  { name: 'linn', file: 'linn.png', mimeType: PNG, language: 'eng' },
  { name: 'typewriter', file: 'typewriter.png', mimeType: PNG, language: 'eng' },
  { name: 'skew', file: 'skew.pdf', mimeType: PDF, language: 'eng' },
  { name: 'rotated-skew', file: 'rotated_skew.pdf', mimeType: PDF, language: 'eng' },
  { name: 'multipage', file: 'multipage.pdf', mimeType: PDF, language: 'eng' },
  { name: 'two-languages', file: 'typewriter.png', mimeType: PNG, language: 'eng+deu' },
  { name: 'invalid', file: 'invalid.pdf', mimeType: PDF, language: 'eng' },
  { name: 'decompression-bomb', file: 'hugemono.pdf', mimeType: PDF, language: 'eng' },
  { name: 'truncated-png', file: 'generated:truncated-linn.png', mimeType: PNG, language: 'eng' },
  { name: 'encrypted', file: 'generated:encrypted.pdf', mimeType: PDF, language: 'eng' },
  { name: 'no-pages', file: 'generated:no-pages.pdf', mimeType: PDF, language: 'eng' },
] as const satisfies readonly OcrContractCase[];

type CaseName = (typeof CASES)[number]['name'];

/**
 * Every file the contract reads, as data: an adapter that replays recorded responses (Textract) keys them by
 * the object key `contract/<file>`. Cases that read the same file with another language share that key.
 */
export const OCR_CONTRACT_CASES: readonly OcrContractCase[] = CASES;

/** The object key a case's file is read under. */
export const contractObjectKey = (contractCase: OcrContractCase): string => `contract/${contractCase.file}`;

const corpusFile = async (name: string): Promise<Uint8Array> => new Uint8Array(await readFile(path.join(OCR_CORPUS_DIR, name)));

/** The bytes of a case's file: read from the corpus or made in code. */
export async function contractCaseBytes(contractCase: OcrContractCase): Promise<Uint8Array> {
  switch (contractCase.file) {
    case 'generated:truncated-linn.png': {
      const linn = await corpusFile('linn.png');
      return linn.slice(0, Math.floor(linn.length / 2));
    }
    case 'generated:encrypted.pdf':
      return encryptedPdf([['This document is encrypted with a user password.', 'Nobody reads it without it.']]);
    case 'generated:no-pages.pdf':
      return emptyPdf();
    default:
      if (contractCase.file.startsWith('generated:')) throw new Error(`No generator for ${contractCase.file}`);
      return corpusFile(contractCase.file);
  }
}

/** Mean word confidence is a fraction: above this for a clean scan. */
const MIN_CLEAN_CONFIDENCE = 0.5;
const MAX_LINN_CER = 0.015;
const MULTIPAGE_PAGES = 6;

/** Words that really are on each page, read by eye from the scans. */
const EXPECTED_WORDS = {
  typewriter: ['Linzensoep', 'Waterman', 'linzen', 'kerrie', 'soep'],
  brochure: ['LinnSequencer', 'MIDI', 'Sequence', 'Recorder', 'composition', 'performance'],
  multipage: ['widow', 'garden', 'branches'],
} as const;

const caseNamed = (name: CaseName): OcrContractCase => CASES.find((c) => c.name === name)!;

interface Outcome {
  output: OcrOutput;
  progress: OcrPageProgress[];
  elapsedMs: number;
}

/**
 * Registers the contract every {@link OcrEngine} must pass: text quality on real scans, orientation, page count
 * and progress, language combinations, and a clean {@link OcrFailure} with the right reason for each bad file.
 * Assertions are on what was read, never on how. `objectKey` passed to recognize is `contract/<case.file>`.
 */
export function describeOcrEngineContract(
  engineName: string,
  makeEngine: () => OcrEngine | Promise<OcrEngine>,
  options: { timeoutMs?: number } = {},
): void {
  const timeoutMs = options.timeoutMs ?? 120_000;

  describe(`OcrEngine contract: ${engineName}`, () => {
    let engine: OcrEngine;
    // Each file is read once and its outcome shared by the tests that look at it.
    const outcomes = new Map<CaseName, Promise<Outcome>>();

    const recognize = (name: CaseName): Promise<Outcome> => {
      let outcome = outcomes.get(name);
      if (!outcome) {
        outcome = (async () => {
          const contractCase = caseNamed(name);
          const bytes = await contractCaseBytes(contractCase);
          const progress: OcrPageProgress[] = [];
          const started = performance.now();
          const output = await engine.recognize({
            ...fileInput(bytes),
            mimeType: contractCase.mimeType,
            language: contractCase.language,
            objectKey: contractObjectKey(contractCase),
            onProgress: (event) => {
              progress.push({ ...event });
            },
          });
          return { output, progress, elapsedMs: performance.now() - started };
        })();
        outcomes.set(name, outcome);
      }
      return outcome;
    };

    const failureOf = async (name: CaseName): Promise<{ error: unknown; elapsedMs: number }> => {
      const started = performance.now();
      try {
        await recognize(name);
      } catch (error) {
        return { error, elapsedMs: performance.now() - started };
      }
      throw new Error(`${name} was read, but it should have failed`);
    };

    beforeAll(async () => {
      engine = await makeEngine();
    });

    describe('reading scans', () => {
      it('reads linn.png with a character error rate of at most 1.5 % against its ground truth', { timeout: timeoutMs }, async () => {
        const truth = await readFile(path.join(OCR_CORPUS_DIR, 'linn.txt'), 'utf8');

        const { output } = await recognize('linn');

        expect(characterErrorRate(truth, output.text)).toBeLessThanOrEqual(MAX_LINN_CER);
      });

      it('reports a confidence above 0.5 and at most 1 for linn.png', { timeout: timeoutMs }, async () => {
        const { output } = await recognize('linn');

        expect(output.confidence).toBeGreaterThan(MIN_CLEAN_CONFIDENCE);
        expect(output.confidence).toBeLessThanOrEqual(1);
      });

      it('counts one page for a single image', { timeout: timeoutMs }, async () => {
        const { output } = await recognize('linn');

        expect(output.pages).toBe(1);
      });

      it('reads the words of the typewritten recipe in typewriter.png', { timeout: timeoutMs }, async () => {
        const { output } = await recognize('typewriter');

        for (const word of EXPECTED_WORDS.typewriter) expect(output.text).toContain(word);
      });

      it('reads the words of the skewed brochure in skew.pdf', { timeout: timeoutMs }, async () => {
        const { output } = await recognize('skew');

        for (const word of EXPECTED_WORDS.brochure) expect(output.text).toContain(word);
      });

      it('reads the same words from the brochure turned by 90 degrees in rotated_skew.pdf', { timeout: timeoutMs }, async () => {
        const { output } = await recognize('rotated-skew');

        for (const word of EXPECTED_WORDS.brochure) expect(output.text).toContain(word);
      });

      it('reads a file with two languages joined by a plus sign', { timeout: timeoutMs }, async () => {
        const { output } = await recognize('two-languages');

        for (const word of EXPECTED_WORDS.typewriter) expect(output.text).toContain(word);
      });
    });

    describe('multi-page documents', () => {
      it('reports the real page count of multipage.pdf', { timeout: timeoutMs }, async () => {
        const { output } = await recognize('multipage');

        expect(output.pages).toBe(MULTIPAGE_PAGES);
      });

      it('reports progress after each page with done counting from 1 to the page count', { timeout: timeoutMs }, async () => {
        const { progress } = await recognize('multipage');

        expect(progress).toEqual(Array.from({ length: MULTIPAGE_PAGES }, (_, i) => ({ done: i + 1, total: MULTIPAGE_PAGES })));
      });

      it('reads the text of the first page of multipage.pdf', { timeout: timeoutMs }, async () => {
        const { output } = await recognize('multipage');

        for (const word of EXPECTED_WORDS.multipage) expect(output.text).toContain(word);
      });
    });

    describe('files that cannot be read', () => {
      it('fails with unreadable_file for a PDF with nothing after its header', { timeout: timeoutMs }, async () => {
        const { error } = await failureOf('invalid');

        expect(error).toBeInstanceOf(OcrFailure);
        expect(error).toMatchObject({ reason: 'unreadable_file' });
      });

      it('fails cleanly and within the time limit for a 35000x35000 pixel decompression bomb', { timeout: timeoutMs }, async () => {
        const { error, elapsedMs } = await failureOf('decompression-bomb');

        expect(error).toBeInstanceOf(OcrFailure);
        expect(elapsedMs).toBeLessThan(timeoutMs);
      });

      it('fails with unreadable_file for a PNG cut in half', { timeout: timeoutMs }, async () => {
        const { error } = await failureOf('truncated-png');

        expect(error).toBeInstanceOf(OcrFailure);
        expect(error).toMatchObject({ reason: 'unreadable_file' });
      });

      it('fails with encrypted for a PDF that needs a user password', { timeout: timeoutMs }, async () => {
        const { error } = await failureOf('encrypted');

        expect(error).toBeInstanceOf(OcrFailure);
        expect(error).toMatchObject({ reason: 'encrypted' });
      });

      it('fails with no_pages for a PDF whose page tree is empty', { timeout: timeoutMs }, async () => {
        const { error } = await failureOf('no-pages');

        expect(error).toBeInstanceOf(OcrFailure);
        expect(error).toMatchObject({ reason: 'no_pages' });
      });
    });

    describe('languages', () => {
      it('lists English and German among the languages it reads', { timeout: timeoutMs }, async () => {
        const languages = await engine.languages();

        expect(languages).toEqual(expect.arrayContaining(['eng', 'deu']));
      });
    });
  });
}
