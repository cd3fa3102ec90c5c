import { deflateSync } from 'node:zlib';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import { CanvasThumbnailRenderer } from '../../../shared/adapters/imaging/canvas-thumbnail-renderer';
import { AppError } from '../../../shared/domain/errors';
import { deflateBomb } from '../../support/hostile-files';
import { bilevelPalettePng, flateScanPdf, jpegScanPdf, scanPdf, type Rgb } from '../../support/scan-pdf';
import { rejectionOf } from '../../support/rejection';

// Pages that are one image (scans) are drawn from the image reduced as it is read, not through pdf.js's full
// render (shared/adapters/imaging/image-only-page.ts); these specify what that path must show and refuse.

const BOX = { width: 256, height: 256 };
const RED: Rgb = [200, 30, 30];
const BLUE: Rgb = [30, 30, 200];
const WHITE: Rgb = [255, 255, 255];

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

/** True when `pixel` is within 40 of `colour` on every channel (JPEG and scaling move colours a little). */
const near = (pixel: number[], colour: Rgb): boolean => pixel.every((value, i) => Math.abs(value - colour[i]!) <= 40);

const failure = (promise: Promise<unknown>): Promise<AppError> => rejectionOf(promise, AppError);

describe('Thumbnails of scanned pages', () => {
  const renderer = new CanvasThumbnailRenderer();

  afterAll(() => renderer.close());

  it('draws a JPEG scan page with its image the right way up, in the page aspect ratio', async () => {
    const file = jpegScanPdf(1275, 1650, RED, BLUE);

    const thumbnail = await renderer.render(file, 'application/pdf', BOX);

    const decoded = await decode(thumbnail.bytes);
    expect({ width: decoded.width, height: decoded.height }).toEqual({ width: 198, height: 256 }); // 612 x 792 pt
    expect(near(decoded.pixelAt(99, 40), RED)).toBe(true);
    expect(near(decoded.pixelAt(99, 216), BLUE)).toBe(true);
  });

  it('draws a Flate scan page stored with the PNG predictor the same way', async () => {
    const file = flateScanPdf(1275, 1650, RED, BLUE);

    const thumbnail = await renderer.render(file, 'application/pdf', BOX);

    const decoded = await decode(thumbnail.bytes);
    expect({ width: decoded.width, height: decoded.height }).toEqual({ width: 198, height: 256 });
    expect(decoded.pixelAt(99, 40)).toEqual([...RED]);
    expect(decoded.pixelAt(99, 216)).toEqual([...BLUE]);
  });

  it.each([
    ['JPEG', jpegScanPdf],
    ['Flate', flateScanPdf],
  ])('turns a %s scan page with /Rotate 90 clockwise: landscape, the image top on the right', async (_kind, make) => {
    const file = make(1275, 1650, RED, BLUE, { rotate: 90 });

    const thumbnail = await renderer.render(file, 'application/pdf', BOX);

    const decoded = await decode(thumbnail.bytes);
    expect({ width: decoded.width, height: decoded.height }).toEqual({ width: 256, height: 198 });
    expect(near(decoded.pixelAt(216, 99), RED)).toBe(true);
    expect(near(decoded.pixelAt(40, 99), BLUE)).toBe(true);
  });

  it('clips the scan to the rectangle the page sets before drawing it', async () => {
    const file = jpegScanPdf(1275, 1650, RED, RED, { before: '0 0 306 792 re W n' }); // the left half of the page

    const thumbnail = await renderer.render(file, 'application/pdf', BOX);

    const decoded = await decode(thumbnail.bytes);
    expect(near(decoded.pixelAt(40, 128), RED)).toBe(true);
    expect(decoded.pixelAt(160, 128)).toEqual([...WHITE]);
  });

  it('draws a scan under an invisible OCR text layer as the scan alone', async () => {
    const layer = 'BT 3 Tr /F1 300 Tf 60 300 Td (MM) Tj ET';
    const file = jpegScanPdf(1275, 1650, RED, BLUE, { extraContent: layer });

    const thumbnail = await renderer.render(file, 'application/pdf', BOX);

    const decoded = await decode(thumbnail.bytes);
    expect(near(decoded.pixelAt(99, 40), RED)).toBe(true);
    expect(near(decoded.pixelAt(99, 216), BLUE)).toBe(true);
  });

  it('draws the text a page writes over its scan (the full render)', async () => {
    const file = jpegScanPdf(600, 800, WHITE, WHITE, { extraContent: 'BT /F1 300 Tf 60 300 Td (MM) Tj ET' });

    const thumbnail = await renderer.render(file, 'application/pdf', BOX);

    expect((await decode(thumbnail.bytes)).darkPixels()).toBeGreaterThan(1000);
  });

  it('draws a 1-bit Flate scan in black and white', async () => {
    const width = 2000;
    const rows = Buffer.alloc((width / 8) * 2000, 0xff); // white
    rows.fill(0x00, 0, rows.length / 2); // the top half black
    const file = scanPdf({ width, height: 2000, entries: '/Filter /FlateDecode /ColorSpace /DeviceGray /BitsPerComponent 1', data: deflateSync(rows) }, { size: [600, 600] });

    const thumbnail = await renderer.render(file, 'application/pdf', BOX);

    const decoded = await decode(thumbnail.bytes);
    expect(decoded.pixelAt(128, 40)).toEqual([0, 0, 0]);
    expect(decoded.pixelAt(128, 216)).toEqual([255, 255, 255]);
  });

  it('draws a 1-bit palette PNG scan in its palette colours, shrunk to the box with its aspect ratio', async () => {
    const file = bilevelPalettePng(2550, 3300, RED, BLUE);

    const thumbnail = await renderer.render(file, 'image/png', BOX);

    const decoded = await decode(thumbnail.bytes);
    expect({ width: decoded.width, height: decoded.height }).toEqual({ width: 198, height: 256 });
    expect(decoded.pixelAt(99, 40)).toEqual([...RED]);
    expect(decoded.pixelAt(99, 216)).toEqual([...BLUE]);
  });

  it('refuses a scan whose image has more pixels than the bound, before decoding it', async () => {
    const strict = new CanvasThumbnailRenderer({ maxPixels: 1_000_000 });
    const file = flateScanPdf(2000, 1000, RED, BLUE);

    const error = await failure(strict.render(file, 'application/pdf', BOX).finally(() => strict.close()));

    expect(error.details).toMatchObject({ field: 'file', reason: expect.stringContaining('2000x1000') });
  });

  it('reads an image stream that inflates to a gigabyte only as far as its declared rows', async () => {
    const file = scanPdf({ width: 1000, height: 1000, entries: '/Filter /FlateDecode /ColorSpace /DeviceGray /BitsPerComponent 8', data: deflateBomb('\x80', 1 << 30) });
    const started = performance.now();

    const thumbnail = await renderer.render(file, 'application/pdf', BOX);

    expect(performance.now() - started).toBeLessThan(4000);
    expect((await decode(thumbnail.bytes)).pixelAt(99, 128)).toEqual([128, 128, 128]);
  });

  it('still renders a Flate scan whose data ends early (the full render repairs it)', async () => {
    const file = scanPdf({ width: 400, height: 800, entries: '/Filter /FlateDecode /ColorSpace /DeviceGray /BitsPerComponent 8', data: deflateSync(Buffer.alloc(400 * 10, 0x40)) });

    const thumbnail = await renderer.render(file, 'application/pdf', BOX);

    expect({ width: thumbnail.width, height: thumbnail.height }).toEqual({ width: 198, height: 256 });
  });
});
