import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { countPdfPages, countTiffPages, encryptedPdf } from '../../../../../shared/adapters/aws/textract/file-inspection';
import { ascii, minimalPdf, PNG } from '../../../../support/minimal-files';

describe('countPdfPages', () => {
  it('counts page objects, not the page tree nodes', () => {
    expect(countPdfPages(minimalPdf(3))).toBe(3);
  });

  it('counts pages kept in compressed object streams', () => {
    const objects = '<</Type /Page /Parent 2 0 R>> <</Type/Page/Parent 2 0 R>> <</Type /Pages /Count 2>>';
    const stream = deflateSync(Buffer.from(objects, 'latin1'));
    const bytes = Buffer.concat([
      Buffer.from(
        `%PDF-1.7\n5 0 obj\n<</Type /ObjStm /N 3 /First 0 /Filter /FlateDecode /Length ${stream.length}>>\nstream\n`,
        'latin1',
      ),
      stream,
      Buffer.from('\nendstream\nendobj\n%%EOF\n', 'latin1'),
    ]);

    expect(countPdfPages(bytes)).toBe(2);
  });

  it('answers 0 for a page tree without pages and null for bytes without a page tree', () => {
    expect(countPdfPages(minimalPdf(0))).toBe(0);
    expect(countPdfPages(ascii('%PDF-1.3\nThis is not a valid PDF file\n%%EOF\n'))).toBeNull();
  });
});

describe('countTiffPages', () => {
  /** A little-endian TIFF with `pages` empty IFDs chained one after the other. */
  const tiff = (pages: number) => {
    const bytes = new Uint8Array(8 + pages * 6);
    const view = new DataView(bytes.buffer);
    bytes.set([0x49, 0x49, 42, 0]);
    view.setUint32(4, 8, true);
    for (let i = 0; i < pages; i++) {
      const offset = 8 + i * 6;
      view.setUint16(offset, 0, true);
      view.setUint32(offset + 2, i + 1 < pages ? offset + 6 : 0, true);
    }
    return bytes;
  };

  it('follows the chain of image directories', () => {
    expect(countTiffPages(tiff(1))).toBe(1);
    expect(countTiffPages(tiff(4))).toBe(4);
  });

  it('answers null for bytes that are not a TIFF', () => {
    expect(countTiffPages(PNG)).toBeNull();
  });
});

describe('encryptedPdf', () => {
  it('finds the /Encrypt entry of a trailer at the end of a PDF too large to read whole', () => {
    const body = new Uint8Array(1024 * 1024).fill(0x20);
    const bytes = Buffer.concat([ascii('%PDF-1.4\n'), body, minimalPdf(1, ' /Encrypt 9 0 R')]);

    expect(encryptedPdf('application/pdf', bytes)).toBe(true);
  });

  it('judges a PDF without an /Encrypt entry readable', () => {
    expect(encryptedPdf('application/pdf', minimalPdf(2))).toBe(false);
  });

  it('judges only PDFs', () => {
    expect(encryptedPdf('image/png', ascii('/Encrypt'))).toBe(false);
  });
});
