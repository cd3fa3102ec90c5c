/**
 * Reads the standard output of one `tesseract - - ... -c stream_filelist=true txt tsv` process, which reads page
 * after page (image paths on its standard input) and writes, for each page in turn, its TSV rows and then its
 * text. The text of every page after the first begins with a form feed; TSV rows carry their page's number and
 * eleven tabs, which a line of text never has. So a page's output is known complete when a row of a later page
 * arrives: the caller follows each page with a blank marker page to learn at once that a page is done.
 */
import type { OcrWord } from '../../domain/ocr/page-texts';
import { rowConfidence, rowPageSize, rowWord, wordsOnPage, type PixelWord } from './tesseract-tsv';

/** What tesseract read on one page of the stream. */
export interface StreamedPage {
  /** The page's number in the stream, from 1. */
  page: number;
  /** The text tesseract wrote for it (its `txt` renderer), trimmed. */
  text: string;
  /** Confidences (0..100) of the words read on it. */
  confidences: number[];
  /** The words read on it and where, as fractions of the page. */
  boxes: OcrWord[];
}

/** The rows of the page being read so far. */
interface PageRows {
  page: number;
  lines: string[];
  confidences: number[];
  words: PixelWord[];
  size?: { width: number; height: number } | undefined;
}

/** A TSV row, possibly after the end of a page's text that had no newline: its page number is the 2nd column. */
const TSV_ROW = /(\d)\t(\d+)\t\d+\t\d+\t\d+\t\d+\t-?\d+\t-?\d+\t-?\d+\t-?\d+\t-?[\d.]+\t[^\t]*$/;
const TSV_HEADER = 'level\tpage_num\t';
const PAGE_BREAK = /^\f+/;

/**
 * Splits the output into pages as it arrives. `push` takes chunks of the decoded output and returns the pages
 * completed by them, in order.
 */
export class StreamedPages {
  private pending = '';
  private current: PageRows | undefined;

  push(chunk: string): StreamedPage[] {
    const lines = (this.pending + chunk).split('\n');
    this.pending = lines.pop()!;
    const completed: StreamedPage[] = [];
    for (const line of lines) {
      const done = this.line(line.replace(PAGE_BREAK, ''));
      if (done) completed.push(done);
    }
    return completed;
  }

  private line(line: string): StreamedPage | undefined {
    if (line.startsWith(TSV_HEADER)) return undefined;
    const row = TSV_ROW.exec(line);
    if (!row) {
      this.current?.lines.push(line);
      return undefined;
    }
    if (row.index > 0) this.current?.lines.push(line.slice(0, row.index));
    const page = Number(row[2]);
    let completed: StreamedPage | undefined;
    if (this.current?.page !== page) {
      completed = this.current && this.finish(this.current);
      this.current = { page, lines: [], confidences: [], words: [] };
    }
    const confidence = rowConfidence(row[0]);
    if (confidence !== undefined) this.current.confidences.push(confidence);
    const word = rowWord(row[0]);
    if (word) this.current.words.push(word);
    this.current.size ??= rowPageSize(row[0]);
    return completed;
  }

  private finish({ page, lines, confidences, words, size }: PageRows): StreamedPage {
    return { page, text: lines.join('\n').trim(), confidences, boxes: wordsOnPage(words, size) };
  }
}
