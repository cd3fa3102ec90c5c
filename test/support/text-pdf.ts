import { createHash } from 'node:crypto';

/**
 * PDFs written by hand for the OCR and text-layer tests: pages of Helvetica text (a real text layer), a PDF with
 * no pages, and one encrypted with a user password (RC4, 40-bit, standard security handler revision 2). Every
 * byte is known, so a test failure is never a fixture's doing; `pdfDocument` in fixtures.ts draws one line on
 * one page, these draw several pages of several lines.
 */

/** A page's lines of text, drawn top to bottom in 14 pt Helvetica. */
export type TextPage = readonly string[];

const escapeText = (line: string): string => line.replace(/[()\\]/g, '\\$&');

const contentOf = (lines: TextPage): string =>
  ['BT /F1 14 Tf 18 TL 72 720 Td', ...lines.map((line) => `(${escapeText(line)}) '`), 'ET'].join('\n');

/** The 32 bytes that pad a password (PDF 1.7, 7.6.3.3, algorithm 2). */
const PASSWORD_PAD = Buffer.from(
  '28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a',
  'hex',
);

const padPassword = (password: string): Buffer =>
  Buffer.concat([Buffer.from(password, 'latin1'), PASSWORD_PAD]).subarray(0, 32);

const md5 = (...parts: Buffer[]): Buffer => createHash('md5').update(Buffer.concat(parts)).digest();

/** RC4, written out because OpenSSL 3 keeps it in the legacy provider that Node does not load. */
const rc4 = (key: Buffer, data: Buffer): Buffer => {
  const s = Array.from({ length: 256 }, (_, i) => i);
  let j = 0;
  for (let i = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  let i = 0;
  j = 0;
  for (let n = 0; n < data.length; n++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
};

interface PdfObject {
  /** The dictionary, without the stream. */
  dictionary: string;
  stream?: Buffer;
}

interface Encryption {
  /** The file key of algorithm 2, from which each object's key is derived. */
  key: Buffer;
  dictionary: string;
  id: Buffer;
}

/** Serialises numbered objects (1..n) with an exact cross-reference table; object 1 is the catalog. */
const writePdf = (objects: PdfObject[], encryption?: Encryption): Buffer => {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0]!.length;
  const push = (part: Buffer | string): void => {
    const buffer = typeof part === 'string' ? Buffer.from(part, 'latin1') : part;
    parts.push(buffer);
    length += buffer.length;
  };
  const all = encryption ? [...objects, { dictionary: encryption.dictionary }] : objects;
  const offsets: number[] = [];
  all.forEach((object, index) => {
    const number = index + 1;
    offsets.push(length);
    push(`${number} 0 obj\n`);
    let stream = object.stream;
    if (stream && encryption && index < objects.length) {
      const objectKey = md5(encryption.key, Buffer.from([number & 0xff, (number >> 8) & 0xff, (number >> 16) & 0xff, 0, 0]));
      stream = rc4(objectKey.subarray(0, Math.min(encryption.key.length + 5, 16)), stream);
    }
    if (stream) {
      push(`${object.dictionary.replace(/>>$/, `/Length ${stream.length} >>`)}\nstream\n`);
      push(stream);
      push('\nendstream\nendobj\n');
    } else {
      push(`${object.dictionary}\nendobj\n`);
    }
  });
  const xref = length;
  push(`xref\n0 ${all.length + 1}\n0000000000 65535 f \n`);
  push(offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join(''));
  const extra = encryption
    ? ` /Encrypt ${all.length} 0 R /ID [<${encryption.id.toString('hex')}> <${encryption.id.toString('hex')}>]`
    : '';
  push(`trailer\n<< /Size ${all.length + 1} /Root 1 0 R${extra} >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
};

const documentObjects = (pages: readonly TextPage[]): PdfObject[] => {
  // 1 catalog, 2 page tree, 3 font, then a page and its content stream per page.
  const pageNumber = (i: number): number => 4 + i * 2;
  const objects: PdfObject[] = [
    { dictionary: '<< /Type /Catalog /Pages 2 0 R >>' },
    { dictionary: `<< /Type /Pages /Kids [${pages.map((_, i) => `${pageNumber(i)} 0 R`).join(' ')}] /Count ${pages.length} >>` },
    { dictionary: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>' },
  ];
  pages.forEach((lines, i) => {
    objects.push({
      dictionary: `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${pageNumber(i) + 1} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`,
    });
    objects.push({ dictionary: '<< >>', stream: Buffer.from(contentOf(lines), 'latin1') });
  });
  return objects;
};

/** A US Letter PDF with one page per entry of `pages`, each line drawn as real text (a text layer, no image). */
export function textPdf(pages: readonly TextPage[]): Buffer {
  return writePdf(documentObjects(pages));
}

/** A well-formed PDF whose page tree is empty: `/Count 0`, no kids. */
export function emptyPdf(): Buffer {
  return writePdf([{ dictionary: '<< /Type /Catalog /Pages 2 0 R >>' }, { dictionary: '<< /Type /Pages /Kids [] /Count 0 >>' }]);
}

/**
 * {@link textPdf} encrypted with RC4-40 (standard security handler, revision 2) under a non-empty user password:
 * readers cannot open it without the password.
 */
export function encryptedPdf(pages: readonly TextPage[], userPassword = 'user-secret', ownerPassword = 'owner-secret'): Buffer {
  // Printing and copying allowed, changes denied: readers check the password whatever the permissions.
  const permissions = -44;
  const id = md5(Buffer.from(`docservice-test-${userPassword}`, 'latin1'));
  const ownerKey = md5(padPassword(ownerPassword)).subarray(0, 5);
  const owner = rc4(ownerKey, padPassword(userPassword));
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  const key = md5(padPassword(userPassword), owner, p, id).subarray(0, 5);
  const user = rc4(key, PASSWORD_PAD);
  const dictionary = `<< /Filter /Standard /V 1 /R 2 /Length 40 /O <${owner.toString('hex')}> /U <${user.toString('hex')}> /P ${permissions} >>`;
  return writePdf(documentObjects(pages), { key, dictionary, id });
}
