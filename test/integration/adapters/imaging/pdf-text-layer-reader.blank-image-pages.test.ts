import { createCanvas } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import { PdfTextLayerReader } from '../../../../shared/adapters/imaging/pdf-text-layer-reader';
import { paperPng } from '../../../support/paper-scan';

const WIDTH = 1275;
const HEIGHT = 1650;

/** A page of 8-bit grey paper with scanner-like noise, and a dark block of `ink` pixels on it when given (a word). */
const greyPage = (ink?: { width: number; height: number }): Uint8Array => {
  const pixels = new Uint8Array(WIDTH * HEIGHT);
  for (let i = 0; i < pixels.length; i++) pixels[i] = 246 + ((i * 7919) % 7) - 3;
  for (let y = 0; y < (ink?.height ?? 0); y++) pixels.fill(30, (HEIGHT / 2 + y) * WIDTH + 200, (HEIGHT / 2 + y) * WIDTH + 200 + ink!.width);
  return pixels;
};

/** An uncompressed little-endian grey TIFF of these pages, each a strip of its own followed by its directory. */
const tiffOf = (pages: readonly Uint8Array[]): Uint8Array => {
  const entries = (offset: number): [number, number, number][] => [
    [256, 3, WIDTH],
    [257, 3, HEIGHT],
    [258, 3, 8],
    [259, 3, 1],
    [262, 3, 1],
    [273, 4, offset],
    [277, 3, 1],
    [278, 3, HEIGHT],
    [279, 4, WIDTH * HEIGHT],
  ];
  const ifdSize = 2 + entries(0).length * 12 + 4;
  const pageSize = WIDTH * HEIGHT + ifdSize;
  const bytes = Buffer.alloc(8 + pages.length * pageSize);
  bytes.write('II', 0, 'ascii');
  bytes.writeUInt16LE(42, 2);
  bytes.writeUInt32LE(8 + WIDTH * HEIGHT, 4);
  pages.forEach((pixels, p) => {
    const strip = 8 + p * pageSize;
    const ifd = strip + WIDTH * HEIGHT;
    bytes.set(pixels, strip);
    const list = entries(strip);
    bytes.writeUInt16LE(list.length, ifd);
    list.forEach(([tag, type, value], i) => {
      const at = ifd + 2 + i * 12;
      bytes.writeUInt16LE(tag, at);
      bytes.writeUInt16LE(type, at + 2);
      bytes.writeUInt32LE(1, at + 4);
      if (type === 3) bytes.writeUInt16LE(value, at + 8);
      else bytes.writeUInt32LE(value, at + 8);
    });
    bytes.writeUInt32LE(p + 1 < pages.length ? 8 + (p + 1) * pageSize + WIDTH * HEIGHT : 0, ifd + 2 + list.length * 12);
  });
  return new Uint8Array(bytes);
};

describe('PdfTextLayerReader.blankImagePages', () => {
  const reader = new PdfTextLayerReader({ poolOptions: { size: 1 } });
  afterAll(() => reader.close());

  it('tells each page of a TIFF apart: blank paper, and paper with a word on it', async () => {
    const tiff = tiffOf([greyPage(), greyPage({ width: 120, height: 30 }), greyPage()]);

    expect(await reader.blankImagePages(tiff)).toEqual([true, false, true]);
  }, 60_000);

  it('finds a JPEG of blank paper blank', async () => {
    const canvas = createCanvas(WIDTH, HEIGHT);
    const context = canvas.getContext('2d');
    context.fillStyle = 'rgb(244, 244, 240)';
    context.fillRect(0, 0, WIDTH, HEIGHT);
    const jpeg = new Uint8Array(await canvas.encode('jpeg', 80));

    expect(await reader.blankImagePages(jpeg)).toEqual([true]);
  }, 60_000);

  it('never calls an image with transparency blank: rows a decoder could not read are left transparent', async () => {
    const canvas = createCanvas(WIDTH, HEIGHT);
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, WIDTH, HEIGHT / 2);
    const png = new Uint8Array(await canvas.encode('png'));

    expect(await reader.blankImagePages(png)).toEqual([false]);
  }, 60_000);

  it('checks no image above the pixel bound, and says so with no answer', async () => {
    const bounded = new PdfTextLayerReader({ poolOptions: { size: 1 }, maxBlankCheckPixels: 1_000_000 });

    const answer = await bounded.blankImagePages(await paperPng(WIDTH, HEIGHT, 246));
    await bounded.close();

    expect(answer).toEqual([]);
  }, 60_000);

  it('decodes no page of a TIFF with more pages than it checks, and answers each not blank', async () => {
    const bounded = new PdfTextLayerReader({ poolOptions: { size: 1 }, maxBlankCheckPages: 2 });

    const answer = await bounded.blankImagePages(tiffOf([greyPage(), greyPage(), greyPage()]));
    await bounded.close();

    expect(answer).toEqual([false, false, false]);
  }, 60_000);

  it('answers a PDF with no answer: its pages are checked by blankPages', async () => {
    expect(await reader.blankImagePages(new TextEncoder().encode('%PDF-1.4\n%%EOF\n'))).toEqual([]);
  });
});
