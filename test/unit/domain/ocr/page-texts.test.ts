import { describe, expect, it } from 'vitest';
import { combinePages, decidePage, PAGE_SEPARATOR, readableLayer, type PageLayer } from '../../../../shared/domain/ocr/page-texts';

const page = (text: string, drawsImages = false, drawsOther = text !== ''): PageLayer => ({ text, drawsImages, drawsOther });

describe('decidePage', () => {
  it('keeps a layer of 20 letters and digits or more, whatever else the page draws', () => {
    expect(decidePage(page('Quarterly report of the allotment society'))).toBe('text_layer');
    expect(decidePage(page('Quarterly report of the allotment society', true))).toBe('text_layer');
  });

  it('keeps a short layer on a page that draws no image: a page number, a title', () => {
    expect(decidePage(page('- 2 -'))).toBe('text_layer');
    expect(decidePage(page('3'))).toBe('text_layer');
    expect(decidePage(page('Alpha alphaxpkcbgsjl'))).toBe('text_layer');
  });

  it('OCRs a page with an image and little or no text: a scan, a scan with a page number', () => {
    expect(decidePage(page('', true))).toBe('ocr');
    expect(decidePage(page('12', true))).toBe('ocr');
  });

  it('calls a page blank only when it has no text and draws nothing', () => {
    expect(decidePage(page(''))).toBe('blank');
    expect(decidePage(page('', false, true))).toBe('ocr');
    expect(decidePage(page('', true, false))).toBe('ocr');
  });

  it('OCRs a page whose layer is garbage: symbols from a font without a Unicode map, replacement characters', () => {
    expect(decidePage(page('!#$%&()*+,-./:;<=>?@[]^_{|}~!#$%&()*+ ab'))).toBe('ocr');
    expect(decidePage(page('\uFFFD\uFFFD\uFFFD\uFFFD text \uFFFD\uFFFD\uFFFD\uFFFD'))).toBe('ocr');
    expect(decidePage(page('\uE000\uE001\uE002'))).toBe('ocr');
  });
});

describe('readableLayer', () => {
  it('takes text in any script, digits included', () => {
    expect(readableLayer('Größe 12,5 € — Ελληνικά, 日本語のテキスト')).toBe(true);
    expect(readableLayer('---')).toBe(false);
    expect(readableLayer('')).toBe(false);
  });
});

describe('combinePages', () => {
  it('joins the pages in order with the separator, a blank page as an empty one', () => {
    const combined = combinePages(
      [
        { by: 'text_layer', text: 'one' },
        { by: 'blank' },
        { by: 'ocr', text: 'three', confidence: 0.8, words: 1 },
      ],
      'tesseract',
    );

    expect(combined.text).toBe(['one', '', 'three'].join(PAGE_SEPARATOR));
    expect(combined.pages).toBe(3);
  });

  it('counts each page under what read it, a blank one under none', () => {
    const combined = combinePages(
      [
        { by: 'text_layer', text: 'one' },
        { by: 'text_layer', text: 'two' },
        { by: 'blank' },
        { by: 'ocr', text: 'four', confidence: 0.8, words: 1 },
      ],
      'textract',
    );

    expect(combined.pagesByEngine).toEqual({ text_layer: 2, textract: 1 });
  });

  it('takes the confidence of the OCRed pages only, weighed by their words', () => {
    const combined = combinePages(
      [
        { by: 'text_layer', text: 'exact' },
        { by: 'ocr', text: 'a b c', confidence: 0.9, words: 3 },
        { by: 'ocr', text: 'd', confidence: 0.5, words: 1 },
      ],
      'tesseract',
    );

    expect(combined.confidence).toBeCloseTo(0.8, 10);
  });

  it('keeps confidence 1 when no page was OCRed', () => {
    const combined = combinePages([{ by: 'text_layer', text: 'exact' }, { by: 'blank' }], 'tesseract');

    expect(combined).toEqual({ text: `exact${PAGE_SEPARATOR}`, confidence: 1, pages: 2, pagesByEngine: { text_layer: 1 } });
  });

  it('gives confidence 0 when the OCRed pages read no word', () => {
    const combined = combinePages([{ by: 'text_layer', text: 'exact' }, { by: 'ocr', text: '', confidence: 0, words: 0 }], 'tesseract');

    expect(combined.confidence).toBe(0);
    expect(combined.pagesByEngine).toEqual({ text_layer: 1, tesseract: 1 });
  });
});
