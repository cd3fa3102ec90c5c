import { describe, expect, it } from 'vitest';
import { StreamedPages } from '../../../../shared/adapters/local/tesseract-stream-output';

const HEADER = 'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n';
const pageRow = (page: number): string => `1\t${page}\t0\t0\t0\t0\t0\t0\t2000\t700\t-1\t\n`;
const wordRow = (page: number, confidence: number, word: string): string => `5\t${page}\t1\t1\t1\t1\t100\t97\t167\t57\t${confidence}\t${word}\n`;
/** Where wordRow's word is on pageRow's page of 2000 x 700 pixels, as fractions of it. */
const box = (text: string) => ({ text, left: 100 / 2000, top: 97 / 700, width: 167 / 2000, height: 57 / 700 });

describe('StreamedPages', () => {
  it('completes a page when the first row of the next page arrives, with its text and word confidences', () => {
    const pages = new StreamedPages();

    const before = pages.push(HEADER + pageRow(1) + wordRow(1, 96.5, 'Invoice') + wordRow(1, 91, '4711') + 'Invoice 4711\n\n');
    const after = pages.push(pageRow(2));

    expect(before).toEqual([]);
    expect(after).toEqual([{ page: 1, text: 'Invoice 4711', confidences: [96.5, 91], boxes: [box('Invoice'), box('4711')] }]);
  });

  it('gives no word a box when the page row that sizes the page is missing', () => {
    const pages = new StreamedPages();

    const completed = pages.push(HEADER + wordRow(1, 90, 'orphan') + 'orphan\n' + pageRow(2));

    expect(completed).toEqual([{ page: 1, text: 'orphan', confidences: [90], boxes: [] }]);
  });

  it('drops the form feed that begins the text and the first row of every later page', () => {
    const pages = new StreamedPages();

    const completed = pages.push(
      HEADER + pageRow(1) + 'first\n' + pageRow(2) + wordRow(2, 90, 'second') + '\fsecond page\nline two\n' + '\f' + pageRow(3),
    );

    expect(completed.map((page) => page.text)).toEqual(['first', 'second page\nline two']);
  });

  it('reads a page whose output arrives in pieces cut anywhere, even inside a line', () => {
    const pages = new StreamedPages();
    const output = HEADER + pageRow(1) + wordRow(1, 88, 'garden') + 'garden furniture\n' + pageRow(2);

    const completed = [...output].flatMap((character) => pages.push(character));

    expect(completed).toEqual([{ page: 1, text: 'garden furniture', confidences: [88], boxes: [box('garden')] }]);
  });

  it('gives a blank page an empty text and no confidences', () => {
    const pages = new StreamedPages();

    const completed = pages.push(HEADER + pageRow(1) + '\f' + pageRow(2) + '\f' + pageRow(3));

    expect(completed).toEqual([
      { page: 1, text: '', confidences: [], boxes: [] },
      { page: 2, text: '', confidences: [], boxes: [] },
    ]);
  });

  it('keeps the end of a text that had no line break before the next page row', () => {
    const pages = new StreamedPages();

    const completed = pages.push(HEADER + pageRow(1) + 'last words' + pageRow(2));

    expect(completed).toEqual([{ page: 1, text: 'last words', confidences: [], boxes: [] }]);
  });
});
