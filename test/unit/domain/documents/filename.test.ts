import { describe, expect, it } from 'vitest';
import { MAX_FILENAME_BYTES, safeFilename } from '../../../../shared/domain/documents/filename';

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('safeFilename', () => {
  it('keeps an ordinary name as given', () => {
    expect(safeFilename('Invoice 2026-11 (final).pdf')).toBe('Invoice 2026-11 (final).pdf');
  });

  it('keeps only the last path segment', () => {
    expect(safeFilename('C:\\Users\\me\\../scans/page.tif')).toBe('page.tif');
  });

  it('removes C0, DEL and C1 control characters', () => {
    expect(safeFilename('x\u0085y\u009b\u0007z\u007f.pdf')).toBe('xyz.pdf');
  });

  it('removes bidirectional formatting, so no name can show a fake extension', () => {
    expect(safeFilename('invoice\u202efdp.png')).toBe('invoicefdp.png');
    expect(safeFilename('a\u2066b\u2069c\u200e\u200f\u061c.pdf')).toBe('abc.pdf');
  });

  it('cuts a long name before a character that does not fit, never inside it, and keeps its extension', () => {
    const name = safeFilename(`${'a'.repeat(254)}😀.pdf`);

    expect(name).toBe(`${'a'.repeat(MAX_FILENAME_BYTES - 4)}.pdf`);
    expect(utf8Bytes(name)).toBeLessThanOrEqual(MAX_FILENAME_BYTES);
  });

  it('measures the limit in UTF-8 bytes, keeping whole characters', () => {
    const name = safeFilename(`${'ü'.repeat(200)}.pdf`);

    expect(utf8Bytes(name)).toBeLessThanOrEqual(MAX_FILENAME_BYTES);
    expect(name).toBe(`${'ü'.repeat(125)}.pdf`);
  });

  it('never splits a grapheme made of several code points', () => {
    const family = '👩‍👩‍👧';
    const name = safeFilename(`${'a'.repeat(240)}${family.repeat(3)}.pdf`);

    expect(name.startsWith('a'.repeat(240))).toBe(true);
    expect(name.slice(240, -4).length % family.length).toBe(0);
    expect(utf8Bytes(name)).toBeLessThanOrEqual(MAX_FILENAME_BYTES);
  });

  it('cuts a name whose extension is long as one name', () => {
    const name = safeFilename(`report.${'x'.repeat(300)}`);

    expect(utf8Bytes(name)).toBe(MAX_FILENAME_BYTES);
    expect(name.startsWith('report.xxx')).toBe(true);
  });

  it('replaces an unpaired surrogate with U+FFFD', () => {
    expect(safeFilename('half\ud83d.pdf')).toBe('half\ufffd.pdf');
  });

  it('names a file that is left with nothing "document"', () => {
    expect(safeFilename('\u202e\u0085...')).toBe('document');
  });
});
