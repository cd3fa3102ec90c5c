import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import encodeWebp, { init as initWebpEncoder } from '@jsquash/webp/encode.js';
import { createCanvas, loadImage, type Canvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasThumbnailRenderer } from '../../../../shared/adapters/imaging/canvas-thumbnail-renderer';
import { AppError } from '../../../../shared/domain/errors';
import { rejectionOf } from '../../../support/rejection';
import { deflateSync } from 'node:zlib';
import { deflateBomb } from '../../../support/hostile-files';
import { bilevelPalettePng, flateScanPdf, jpegScanPdf, scanPdf, type Rgb } from '../../../support/scan-pdf';
import { jpxScanPdf } from '../../../support/jpx-scan-pdf';

const CORPUS = new URL('../../../../../shared/corpus/ocrmypdf/', import.meta.url);
const corpus = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(name, CORPUS)));
const BOX = { width: 200, height: 200 };
const RED = [200, 30, 30] as const;
/** A render time limit far above any render of these files, however loaded the machine. */
const PATIENT_MS = 50_000;

// ---- fixtures made in code -------------------------------------------------------------------------------

/** A width x height canvas filled with RED. */
const redCanvas = (width: number, height: number): Canvas => {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = `rgb(${RED.join(',')})`;
  context.fillRect(0, 0, width, height);
  return canvas;
};

const png = (width: number, height: number): Uint8Array => new Uint8Array(redCanvas(width, height).encodeSync('png'));
const jpeg = (width: number, height: number): Uint8Array => new Uint8Array(redCanvas(width, height).encodeSync('jpeg', 90));

/** An uncompressed little-endian RGB TIFF with one strip (the canvas writes no TIFF). */
const tiff = (width: number, height: number): Uint8Array => {
  const entries: [tag: number, type: 3 | 4, value: number][] = [
    [256, 4, width],
    [257, 4, height],
    [258, 3, 0], // BitsPerSample: 3 values, at BPS_AT
    [259, 3, 1],
    [262, 3, 2],
    [273, 4, 0], // StripOffsets: DATA_AT
    [277, 3, 3],
    [278, 4, height],
    [279, 4, width * height * 3],
    [284, 3, 1],
  ];
  const BPS_AT = 8 + 2 + entries.length * 12 + 4;
  const DATA_AT = BPS_AT + 6;
  const bytes = new Uint8Array(DATA_AT + width * height * 3);
  const view = new DataView(bytes.buffer);
  bytes.set([0x49, 0x49, 42, 0, 8, 0, 0, 0]);
  view.setUint16(8, entries.length, true);
  entries.forEach(([tag, type, value], i) => {
    const at = 10 + i * 12;
    view.setUint16(at, tag, true);
    view.setUint16(at + 2, type, true);
    view.setUint32(at + 4, tag === 258 ? 3 : 1, true);
    const actual = tag === 258 ? BPS_AT : tag === 273 ? DATA_AT : value;
    if (type === 3 && tag !== 258) view.setUint16(at + 8, actual, true);
    else view.setUint32(at + 8, actual, true);
  });
  [0, 2, 4].forEach((offset) => view.setUint16(BPS_AT + offset, 8, true));
  for (let i = DATA_AT; i < bytes.length; i += 3) bytes.set(RED, i);
  return bytes;
};

/** A lossless WebP, RED where `opaque` says so and fully transparent elsewhere. */
const webp = async (width: number, height: number, opaque = (_x: number, _y: number) => true): Promise<Uint8Array> => {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set([...RED, opaque(x, y) ? 255 : 0], (y * width + x) * 4);
  }
  return new Uint8Array(await encodeWebp({ data, width, height, colorSpace: 'srgb' } as never, { lossless: 1 }));
};

// ---- reading the output back -----------------------------------------------------------------------------

const decode = async (bytes: Uint8Array) => {
  const image = await loadImage(Buffer.from(bytes));
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const { data } = context.getImageData(0, 0, image.width, image.height);
  const pixelAt = (x: number, y: number): number[] => [...data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 3)];
  const darkPixels = (): number => {
    let dark = 0;
    for (let at = 0; at < data.length; at += 4) if (data[at]! + data[at + 1]! + data[at + 2]! < 300) dark++;
    return dark;
  };
  return { width: image.width, height: image.height, pixelAt, darkPixels };
};

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_MAGIC = [0xff, 0xd8, 0xff];

const failure = (promise: Promise<unknown>): Promise<AppError> => rejectionOf(promise, AppError);

// ---- specification ---------------------------------------------------------------------------------------

describe('CanvasThumbnailRenderer', () => {
  // Renders here are stopped only after a limit no loaded machine reaches: these tests specify what is rendered
  // and refused, not how fast. The default limit (8 s) against enormous.pdf is a target of bench/imaging.ts.
  const renderer = new CanvasThumbnailRenderer({ timeoutMs: PATIENT_MS });

  beforeAll(async () => {
    const require = createRequire(import.meta.url);
    const wasm = readFileSync(require.resolve('@jsquash/webp/codec/enc/webp_enc_simd.wasm'));
    await initWebpEncoder({ wasmBinary: new Uint8Array(wasm).buffer });
  });

  afterAll(() => renderer.close());

  it('renders the first page of a PDF as a PNG that fits the box', async () => {
    const file = corpus('multipage.pdf');

    const thumbnail = await renderer.render(file, 'application/pdf', BOX);

    expect(thumbnail.mimeType).toBe('image/png');
    expect([...thumbnail.bytes.subarray(0, 8)]).toEqual(PNG_MAGIC);
    const decoded = await decode(thumbnail.bytes);
    expect({ width: decoded.width, height: decoded.height }).toEqual({ width: thumbnail.width, height: thumbnail.height });
    expect(thumbnail.height).toBe(200);
    expect(thumbnail.width).toBeLessThanOrEqual(200);
  });

  it('keeps the aspect ratio of the page', async () => {
    const file = corpus('multipage.pdf'); // 384 x 470.88 pt

    const thumbnail = await renderer.render(file, 'application/pdf', { width: 300, height: 100 });

    expect(thumbnail.height).toBe(100);
    expect(thumbnail.width / thumbnail.height).toBeCloseTo(384 / 470.88, 1);
  });

  it('scales a PDF page up to the box when the page is smaller than the box', async () => {
    const file = corpus('trivial.pdf'); // 300 x 300 pt

    const thumbnail = await renderer.render(file, 'application/pdf', { width: 400, height: 400 });

    expect({ width: thumbnail.width, height: thumbnail.height }).toEqual({ width: 400, height: 400 });
  });

  it.each([
    'linn.png',
    'typewriter.png',
    'baiona.png',
    'cardinal.pdf',
    'skew.pdf',
    'c02-22.pdf',
    'ccitt.pdf',
    'jbig2.pdf',
    'trivial.pdf',
    'blank.pdf',
  ])('renders the corpus file %s to an image that fills the box on one side', async (name) => {
    const file = corpus(name);

    const thumbnail = await renderer.render(file, 'application/octet-stream', BOX);

    const decoded = await decode(thumbnail.bytes);
    expect(decoded.width).toBe(thumbnail.width);
    expect(decoded.height).toBe(thumbnail.height);
    expect(Math.max(decoded.width, decoded.height)).toBe(200);
   }, 60_000);

  it('renders enormous.pdf, one 9000 x 9000 RGB scan, to a picture of it that fills the box', async () => {
    const file = corpus('enormous.pdf'); // 2160 x 2160 pt

    const thumbnail = await renderer.render(file, 'application/pdf', BOX);

    const decoded = await decode(thumbnail.bytes);
    expect({ width: decoded.width, height: decoded.height }).toEqual({ width: 200, height: 200 });
  }, 60_000);

  it.each([
    ['PNG', 'image/png', async () => png(300, 150)],
    ['JPEG', 'image/jpeg', async () => jpeg(300, 150)],
    ['TIFF', 'image/tiff', async () => tiff(300, 150)],
    ['WebP', 'image/webp', async () => webp(300, 150)],
  ])('renders a %s image to a picture of it that fits the box with its aspect ratio', async (_format, mimeType, make) => {
    const file = await make();

    const thumbnail = await renderer.render(file, mimeType, BOX);

    const decoded = await decode(thumbnail.bytes);
    expect({ width: decoded.width, height: decoded.height }).toEqual({ width: 200, height: 100 });
    const [r = 0, g = 0, b = 0] = decoded.pixelAt(100, 50);
    expect(r).toBeGreaterThan(150);
    expect(Math.max(g, b)).toBeLessThan(80);
  });

  it('never enlarges a raster image beyond its own pixel size', async () => {
    const file = png(40, 20);

    const thumbnail = await renderer.render(file, 'image/png', BOX);

    expect({ width: thumbnail.width, height: thumbnail.height }).toEqual({ width: 40, height: 20 });
  });

  it('shows transparent pixels as white', async () => {
    const file = await webp(100, 100, (x) => x < 50);

    const thumbnail = await renderer.render(file, 'image/webp', BOX);

    const decoded = await decode(thumbnail.bytes);
    expect(decoded.pixelAt(75, 50)).toEqual([255, 255, 255]);
  });

  it('recognises the format by its content, not by the declared MIME type', async () => {
    const file = png(60, 30);

    const thumbnail = await renderer.render(file, 'application/pdf', BOX);

    expect({ width: thumbnail.width, height: thumbnail.height }).toEqual({ width: 60, height: 30 });
  });

  it('answers a JPEG when configured for JPEG output', async () => {
    const jpegRenderer = new CanvasThumbnailRenderer({ output: 'jpeg', timeoutMs: PATIENT_MS });

    const thumbnail = await jpegRenderer.render(corpus('linn.png'), 'image/png', BOX).finally(() => jpegRenderer.close());

    expect(thumbnail.mimeType).toBe('image/jpeg');
    expect([...thumbnail.bytes.subarray(0, 3)]).toEqual(JPEG_MAGIC);
    expect((await decode(thumbnail.bytes)).height).toBe(200);
  });

  it('refuses the 35000 x 35000 px decompression bomb hugemono.pdf before decoding it', async () => {
    const file = corpus('hugemono.pdf');

    const error = await failure(renderer.render(file, 'application/pdf', BOX));

    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details).toMatchObject({ field: 'file', reason: expect.stringContaining('35000x35000') });
  });

  it('refuses an image with more pixels than the configured limit', async () => {
    const strict = new CanvasThumbnailRenderer({ maxPixels: 5_000, timeoutMs: PATIENT_MS });

    const error = await failure(strict.render(png(100, 100), 'image/png', BOX).finally(() => strict.close()));

    expect(error.code).toBe('VALIDATION_ERROR');
  });

  it('refuses a WebP whose header declares more pixels than the limit', async () => {
    const strict = new CanvasThumbnailRenderer({ maxPixels: 5_000, timeoutMs: PATIENT_MS });
    const file = await webp(100, 100);

    const error = await failure(strict.render(file, 'image/webp', BOX).finally(() => strict.close()));

    expect(error.details).toMatchObject({ reason: expect.stringContaining('100x100') });
  });

  it('refuses invalid.pdf, a PDF header followed by nothing', async () => {
    const file = corpus('invalid.pdf');

    const error = await failure(renderer.render(file, 'application/pdf', BOX));

    expect(error.code).toBe('VALIDATION_ERROR');
  });

  it('refuses a truncated PNG', async () => {
    const whole = corpus('linn.png');
    const file = whole.subarray(0, whole.length / 2);

    const error = await failure(renderer.render(file, 'image/png', BOX));

    expect(error.code).toBe('VALIDATION_ERROR');
  });

  it('refuses an empty file', async () => {
    const file = new Uint8Array(0);

    const error = await failure(renderer.render(file, 'application/pdf', BOX));

    expect(error.code).toBe('VALIDATION_ERROR');
  });

  it.each(['application/pdf', 'image/png'])('refuses random bytes declared as %s', async (mimeType) => {
    const file = new Uint8Array(4096).map((_, i) => (Math.imul(i + 1, 2654435761) >>> 24) & 0xff);

    const error = await failure(renderer.render(file, mimeType, BOX));

    expect(error.code).toBe('VALIDATION_ERROR');
  });

  it.each([
    ['width', { width: 0, height: 200 }],
    ['height', { width: 200, height: 1025 }],
    ['width', { width: 10.5, height: 200 }],
  ])('refuses a box whose %s is outside 1..1024', async (field, box) => {
    const file = png(10, 10);

    const error = await failure(renderer.render(file, 'image/png', box));

    expect(error.details).toMatchObject({ field });
  });

  it('stops a render that takes longer than the time limit', async () => {
    const hurried = new CanvasThumbnailRenderer({ timeoutMs: 20 });

    const error = await failure(hurried.render(corpus('enormous.pdf'), 'application/pdf', BOX).finally(() => hurried.close()));

    expect(error.details).toMatchObject({ reason: expect.stringContaining('longer than 20 ms') });
  });

  it('renders the next file after one was refused', async () => {
    await failure(renderer.render(corpus('invalid.pdf'), 'application/pdf', BOX));

    const thumbnail = await renderer.render(corpus('trivial.pdf'), 'application/pdf', BOX);

    expect(thumbnail.width).toBe(200);
  });
});

// Pages that are one image (scans) are drawn from the image reduced as it is read, not through pdf.js's full
// render (shared/adapters/imaging/image-only-page.ts); these specify what that path must show and refuse.

const SCAN_BOX = { width: 256, height: 256 };
const SCAN_RED: Rgb = [200, 30, 30];
const BLUE: Rgb = [30, 30, 200];
const WHITE: Rgb = [255, 255, 255];

/** True when `pixel` is within 40 of `colour` on every channel (JPEG and scaling move colours a little). */
const near = (pixel: number[], colour: Rgb): boolean => pixel.every((value, i) => Math.abs(value - colour[i]!) <= 40);

describe('Thumbnails of scanned pages', () => {
  const renderer = new CanvasThumbnailRenderer({ timeoutMs: PATIENT_MS });

  afterAll(() => renderer.close());

  it('draws a JPEG scan page with its image the right way up, in the page aspect ratio', async () => {
    const file = jpegScanPdf(1275, 1650, SCAN_RED, BLUE);

    const thumbnail = await renderer.render(file, 'application/pdf', SCAN_BOX);

    const decoded = await decode(thumbnail.bytes);
    expect({ width: decoded.width, height: decoded.height }).toEqual({ width: 198, height: 256 }); // 612 x 792 pt
    expect(near(decoded.pixelAt(99, 40), SCAN_RED)).toBe(true);
    expect(near(decoded.pixelAt(99, 216), BLUE)).toBe(true);
  });

  it('draws a Flate scan page stored with the PNG predictor the same way', async () => {
    const file = flateScanPdf(1275, 1650, SCAN_RED, BLUE);

    const thumbnail = await renderer.render(file, 'application/pdf', SCAN_BOX);

    const decoded = await decode(thumbnail.bytes);
    expect({ width: decoded.width, height: decoded.height }).toEqual({ width: 198, height: 256 });
    expect(decoded.pixelAt(99, 40)).toEqual([...RED]);
    expect(decoded.pixelAt(99, 216)).toEqual([...BLUE]);
  });

  it.each([
    ['JPEG', jpegScanPdf],
    ['Flate', flateScanPdf],
  ])('turns a %s scan page with /Rotate 90 clockwise: landscape, the image top on the right', async (_kind, make) => {
    const file = make(1275, 1650, SCAN_RED, BLUE, { rotate: 90 });

    const thumbnail = await renderer.render(file, 'application/pdf', SCAN_BOX);

    const decoded = await decode(thumbnail.bytes);
    expect({ width: decoded.width, height: decoded.height }).toEqual({ width: 256, height: 198 });
    expect(near(decoded.pixelAt(216, 99), SCAN_RED)).toBe(true);
    expect(near(decoded.pixelAt(40, 99), BLUE)).toBe(true);
  });

  it('clips the scan to the rectangle the page sets before drawing it', async () => {
    const file = jpegScanPdf(1275, 1650, SCAN_RED, SCAN_RED, { before: '0 0 306 792 re W n' }); // the left half of the page

    const thumbnail = await renderer.render(file, 'application/pdf', SCAN_BOX);

    const decoded = await decode(thumbnail.bytes);
    expect(near(decoded.pixelAt(40, 128), SCAN_RED)).toBe(true);
    expect(decoded.pixelAt(160, 128)).toEqual([...WHITE]);
  });

  it('draws a scan under an invisible OCR text layer as the scan alone', async () => {
    const layer = 'BT 3 Tr /F1 300 Tf 60 300 Td (MM) Tj ET';
    const file = jpegScanPdf(1275, 1650, SCAN_RED, BLUE, { extraContent: layer });

    const thumbnail = await renderer.render(file, 'application/pdf', SCAN_BOX);

    const decoded = await decode(thumbnail.bytes);
    expect(near(decoded.pixelAt(99, 40), SCAN_RED)).toBe(true);
    expect(near(decoded.pixelAt(99, 216), BLUE)).toBe(true);
  });

  it('draws the text a page writes over its scan (the full render)', async () => {
    const file = jpegScanPdf(600, 800, WHITE, WHITE, { extraContent: 'BT /F1 300 Tf 60 300 Td (MM) Tj ET' });

    const thumbnail = await renderer.render(file, 'application/pdf', SCAN_BOX);

    expect((await decode(thumbnail.bytes)).darkPixels()).toBeGreaterThan(1000);
  });

  it('draws a JPEG 2000 scan page (pdf.js\'s JPX decoder): its text shows dark on the paper', async () => {
    const { pdf } = await jpxScanPdf(['Minutes of the allotment society', 'held in the shed on the ninth of May']);

    const thumbnail = await renderer.render(pdf, 'application/pdf', SCAN_BOX);

    const decoded = await decode(thumbnail.bytes);
    expect({ width: decoded.width, height: decoded.height }).toEqual({ width: 198, height: 256 });
    expect(decoded.darkPixels()).toBeGreaterThan(100);
    expect(near(decoded.pixelAt(99, 200), WHITE)).toBe(true);
  });

  it('draws a 1-bit Flate scan in black and white', async () => {
    const width = 2000;
    const rows = Buffer.alloc((width / 8) * 2000, 0xff); // white
    rows.fill(0x00, 0, rows.length / 2); // the top half black
    const file = scanPdf({ width, height: 2000, entries: '/Filter /FlateDecode /ColorSpace /DeviceGray /BitsPerComponent 1', data: deflateSync(rows) }, { size: [600, 600] });

    const thumbnail = await renderer.render(file, 'application/pdf', SCAN_BOX);

    const decoded = await decode(thumbnail.bytes);
    expect(decoded.pixelAt(128, 40)).toEqual([0, 0, 0]);
    expect(decoded.pixelAt(128, 216)).toEqual([255, 255, 255]);
  });

  it('draws a 1-bit palette PNG scan in its palette colours, shrunk to the box with its aspect ratio', async () => {
    const file = bilevelPalettePng(2550, 3300, SCAN_RED, BLUE);

    const thumbnail = await renderer.render(file, 'image/png', SCAN_BOX);

    const decoded = await decode(thumbnail.bytes);
    expect({ width: decoded.width, height: decoded.height }).toEqual({ width: 198, height: 256 });
    expect(decoded.pixelAt(99, 40)).toEqual([...RED]);
    expect(decoded.pixelAt(99, 216)).toEqual([...BLUE]);
  });

  it('refuses a scan whose image has more pixels than the bound, before decoding it', async () => {
    const strict = new CanvasThumbnailRenderer({ maxPixels: 1_000_000, timeoutMs: PATIENT_MS });
    const file = flateScanPdf(2000, 1000, SCAN_RED, BLUE);

    const error = await failure(strict.render(file, 'application/pdf', SCAN_BOX).finally(() => strict.close()));

    expect(error.details).toMatchObject({ field: 'file', reason: expect.stringContaining('2000x1000') });
  });

  it('reads an image stream that inflates to a gigabyte only as far as its declared rows', async () => {
    // That the rows after the last are never inflated is measured in CPU time by the reducer's unit test
    // (test/unit/adapters/imaging/image-reduce.test.ts); the render runs in a worker process, out of this one's sight.
    const file = scanPdf({ width: 1000, height: 1000, entries: '/Filter /FlateDecode /ColorSpace /DeviceGray /BitsPerComponent 8', data: deflateBomb('\x80', 1 << 30) });

    const thumbnail = await renderer.render(file, 'application/pdf', SCAN_BOX);

    expect((await decode(thumbnail.bytes)).pixelAt(99, 128)).toEqual([128, 128, 128]);
  });

  it('still renders a Flate scan whose data ends early (the full render repairs it)', async () => {
    const file = scanPdf({ width: 400, height: 800, entries: '/Filter /FlateDecode /ColorSpace /DeviceGray /BitsPerComponent 8', data: deflateSync(Buffer.alloc(400 * 10, 0x40)) });

    const thumbnail = await renderer.render(file, 'application/pdf', SCAN_BOX);

    expect({ width: thumbnail.width, height: thumbnail.height }).toEqual({ width: 198, height: 256 });
  });
});
