import { describe, expect, it } from 'vitest';
import { loadObjects } from '../../../../shared/adapters/imaging/content-budget';
import { pageImages } from '../../../../shared/adapters/imaging/page-images';
import { flateScanPdf, jpegScanPdf, scanPdf, twoBandJpeg } from '../../../support/scan-pdf';

const RED = [200, 30, 30] as const;
const BLUE = [30, 30, 200] as const;
/** Object 3 is the page in every scan-pdf.ts file. */
const PAGE = { num: 3, gen: 0 };

const analyse = async (file: Buffer) => pageImages(await loadObjects(new Uint8Array(file)), PAGE);

describe('pageImages', () => {
  it('finds the one image of a scan page, placed over the whole page, decodable as a JPEG', async () => {
    const result = await analyse(jpegScanPdf(100, 200, RED, BLUE));

    expect(result).toMatchObject({ kind: 'images', images: [{ ctm: [612, 0, 0, 792, 0, 0], width: 100, height: 200, direct: { kind: 'jpeg' } }] });
  });

  it('reads a Flate image with the PNG predictor as rows it can reduce', async () => {
    const result = await analyse(flateScanPdf(100, 200, RED, BLUE));

    expect(result).toMatchObject({ kind: 'images', images: [{ direct: { kind: 'flate', rows: { layout: 'rgb8', width: 100, height: 200, pngPredictor: true } } }] });
  });

  it('keeps the clipping rectangle a page sets before its image', async () => {
    const result = await analyse(jpegScanPdf(100, 200, RED, BLUE, { before: '0 0 300 400 re W n' }));

    expect(result).toMatchObject({ kind: 'images', images: [{ clips: [{ ctm: [1, 0, 0, 1, 0, 0], rect: [0, 0, 300, 400] }] }] });
  });

  it('says a page that fills a path needs the full render', async () => {
    const result = await analyse(jpegScanPdf(100, 200, RED, BLUE, { before: '0 0 300 400 re f' }));

    expect(result).toEqual({ kind: 'other' });
  });

  it('says a page that also writes text needs the full render', async () => {
    const result = await analyse(jpegScanPdf(100, 200, RED, BLUE, { extraContent: 'BT /F1 12 Tf 72 700 Td (Hello) Tj ET' }));

    expect(result).toEqual({ kind: 'other' });
  });

  it('takes a scan with an invisible OCR text layer (rendering mode 3) as the scan alone', async () => {
    const layer = 'BT 3 Tr /F1 12 Tf 1 0 0 1 72 700 Tm (Hello \\(world\\)) Tj [(Wo) -20 (rld)] TJ <48656c6c6f> Tj ET';

    const result = await analyse(jpegScanPdf(100, 200, RED, BLUE, { extraContent: layer }));

    expect(result).toMatchObject({ kind: 'images', images: [{ direct: { kind: 'jpeg' } }] });
  });

  it('says text shown after a q/Q that restored a visible rendering mode needs the full render', async () => {
    const layer = 'q BT 3 Tr /F1 12 Tf (hidden) Tj ET Q BT /F1 12 Tf (shown) Tj ET';

    const result = await analyse(jpegScanPdf(100, 200, RED, BLUE, { extraContent: layer }));

    expect(result).toEqual({ kind: 'other' });
  });

  it('leaves a JBIG2 image to pdf.js', async () => {
    const file = scanPdf({ width: 100, height: 100, entries: '/Filter /JBIG2Decode /ColorSpace /DeviceGray /BitsPerComponent 1', data: Buffer.alloc(10) });

    const result = await analyse(file);

    expect(result).toMatchObject({ kind: 'images', images: [{ direct: undefined }] });
  });

  it('leaves a CMYK JPEG to pdf.js', async () => {
    const file = scanPdf({ width: 100, height: 200, entries: '/Filter /DCTDecode /ColorSpace /DeviceCMYK /BitsPerComponent 8', data: twoBandJpeg(100, 200, RED, BLUE) });

    const result = await analyse(file);

    expect(result).toMatchObject({ kind: 'images', images: [{ direct: undefined }] });
  });
});
