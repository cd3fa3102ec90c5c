import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { createCanvas } from '@napi-rs/canvas';
import { scanPdf } from './scan-pdf';

const run = promisify(execFile);

/** Letter at 200 dpi: large enough for Tesseract to read 28-pixel text, small enough to encode in a second. */
const WIDTH = 1700;
const HEIGHT = 2200;

/**
 * A scanned page whose image is JPEG 2000 (`/JPXDecode`), as some scanners and archiving tools write them: lines of
 * dark text on light paper drawn by the canvas, kept as grey, encoded losslessly by OpenJPEG's `opj_compress`
 * (Debian's libopenjp2-tools, BSD-2-Clause) into a JP2 file, which a PDF embeds as it is. Returns the PDF and the
 * JP2 stream it holds.
 */
export async function jpxScanPdf(lines: readonly string[]): Promise<{ pdf: Uint8Array; jp2: Uint8Array }> {
  const canvas = createCanvas(WIDTH, HEIGHT);
  const context = canvas.getContext('2d');
  context.fillStyle = '#f4f4f4';
  context.fillRect(0, 0, WIDTH, HEIGHT);
  context.fillStyle = '#202020';
  context.font = '56px sans-serif';
  lines.forEach((line, i) => context.fillText(line, 160, 300 + i * 120));
  const rgba = context.getImageData(0, 0, WIDTH, HEIGHT).data;
  const grey = Buffer.alloc(WIDTH * HEIGHT);
  for (let i = 0; i < grey.length; i++) grey[i] = rgba[i * 4]!;

  const directory = await mkdtemp(path.join(os.tmpdir(), 'jpx-scan-'));
  try {
    const pgm = path.join(directory, 'page.pgm');
    const jp2Path = path.join(directory, 'page.jp2');
    await writeFile(pgm, Buffer.concat([Buffer.from(`P5\n${WIDTH} ${HEIGHT}\n255\n`, 'latin1'), grey]));
    await run('opj_compress', ['-i', pgm, '-o', jp2Path]);
    const jp2 = await readFile(jp2Path);
    // A JPXDecode image names no colour space nor depth: the JP2 file carries both.
    const pdf = scanPdf({ width: WIDTH, height: HEIGHT, entries: '/Filter /JPXDecode', data: jp2 });
    return { pdf: new Uint8Array(pdf), jp2: new Uint8Array(jp2) };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
