import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pdfDocument, pngImage } from './fixtures';
import { textPdf } from './text-pdf';
import { basicAuth, type RunningDav } from './webdav-servers';

const CORPUS = resolve(import.meta.dirname, '../../../shared/corpus/ocrmypdf');

/** One file of the fixture tree. */
export interface SourceTreeFile {
  /** Relative to the root, with forward slashes, not percent-encoded. */
  path: string;
  size: number;
  /** Whether a source with the globs ["*.pdf", "*.png"] should make a document of it. */
  becomes_document: boolean;
  /** Why it does or does not. */
  reason: 'document' | 'excluded by the globs' | 'not the type its name says' | 'empty';
  /** A phrase of its text (text layer or OCR) that search should find, for the files that become documents. */
  text?: string;
}

export interface SourceTree {
  files: SourceTreeFile[];
  /** The directories, relative, each ending in a slash: what a Depth: 1 walk has to visit. */
  directories: string[];
}

/** Random bytes that start like nothing a sniffer knows (no %PDF-, no PNG signature). */
const notAPdf = (): Buffer => Buffer.concat([Buffer.from('\x00\x01garbage'), randomBytes(512)]);

const FILES: { path: string; bytes: () => Buffer; reason: SourceTreeFile['reason']; text?: string }[] = [
  { path: 'inbox/invoice-1001.pdf', bytes: () => pdfDocument('Invoice 1001 from Acme Tools'), reason: 'document', text: 'Acme Tools' },
  { path: 'inbox/Quittung März 2024.pdf', bytes: () => pdfDocument('Quittung Baeckerei Schmidt'), reason: 'document', text: 'Baeckerei Schmidt' },
  { path: 'inbox/notes.txt', bytes: () => Buffer.from('not a document\n'), reason: 'excluded by the globs' },
  { path: 'inbox/.DS_Store', bytes: () => Buffer.from('\x00\x00\x00\x01Bud1', 'latin1'), reason: 'excluded by the globs' },
  { path: 'scans/2024/linn.png', bytes: () => readFileSync(join(CORPUS, 'linn.png')), reason: 'document', text: 'LinnSequencer' },
  { path: 'scans/2024/swatch.png', bytes: () => pngImage(16, 16), reason: 'document' },
  { path: 'scans/2024/fake.pdf', bytes: notAPdf, reason: 'not the type its name says' },
  { path: 'scans/2025/empty.pdf', bytes: () => Buffer.alloc(0), reason: 'empty' },
  {
    path: 'scans/2025/deep/contract.pdf',
    bytes: () => textPdf([['Rental contract', 'Tenant Jane Doe'], ['Page two of the contract']]),
    reason: 'document',
    text: 'Rental contract',
  },
];

/**
 * Writes the fixture tree of the WebDAV source tests under `root` (which must exist): nested folders, real small
 * PDFs and PNGs (one PNG with OCR-able text), files the globs ["*.pdf", "*.png"] exclude, a .pdf that is not a
 * PDF, an empty .pdf and a name with a space and a non-ASCII letter. Write it before starting a server on
 * `root` (startApacheDav hands the tree to its user).
 */
export async function writeSourceTree(root: string): Promise<SourceTree> {
  const files: SourceTreeFile[] = [];
  const directories = new Set<string>();
  for (const file of FILES) {
    const bytes = file.bytes();
    await mkdir(dirname(join(root, file.path)), { recursive: true });
    await writeFile(join(root, file.path), bytes);
    const parts = file.path.split('/').slice(0, -1);
    parts.forEach((_, i) => directories.add(`${parts.slice(0, i + 1).join('/')}/`));
    files.push({
      path: file.path,
      size: bytes.length,
      becomes_document: file.reason === 'document',
      reason: file.reason,
      ...(file.text ? { text: file.text } : {}),
    });
  }
  return { files, directories: [...directories].sort() };
}

/** The URL of a path under the server's collection, each segment percent-encoded. */
export const davUrl = (dav: Pick<RunningDav, 'url'>, path: string): string =>
  new URL(path.split('/').map(encodeURIComponent).join('/'), dav.url).toString();

const send = async (dav: RunningDav, method: string, path: string, body?: Uint8Array): Promise<number> => {
  const response = await fetch(davUrl(dav, path), { method, headers: { authorization: basicAuth(dav) }, ...(body ? { body } : {}) });
  await response.arrayBuffer();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status}`);
  return response.status;
};

/**
 * Writes a file the way a WebDAV client does: PUT through the server, with the server's credentials, after
 * MKCOL for each missing parent collection. Resolves with the PUT's status (201 created; 204 or 201 replaced).
 */
export async function putFile(dav: RunningDav, path: string, bytes: Uint8Array): Promise<number> {
  const parents = path.split('/').slice(0, -1);
  for (let i = 1; i <= parents.length; i++) {
    const collection = `${parents.slice(0, i).join('/')}/`;
    const response = await fetch(davUrl(dav, collection), { method: 'MKCOL', headers: { authorization: basicAuth(dav) } });
    await response.arrayBuffer();
    // 405: it exists already.
    if (response.status !== 201 && response.status !== 405) throw new Error(`MKCOL ${collection}: ${response.status}`);
  }
  return send(dav, 'PUT', path, bytes);
}

/** Deletes a file (or a collection, with everything in it) through the server, as a WebDAV client does. */
export async function deleteFile(dav: RunningDav, path: string): Promise<void> {
  await send(dav, 'DELETE', path);
}
