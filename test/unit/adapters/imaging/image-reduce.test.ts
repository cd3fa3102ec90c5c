import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BoxReducer, reduceFlateRows, reductionFactor } from '../../../../shared/adapters/imaging/image-reduce';
import { deflateBomb } from '../../../support/hostile-files';
import { pngPredicted, twoBandPixels } from '../../../support/scan-pdf';

const pixel = (rgba: Uint8ClampedArray, width: number, x: number, y: number): number[] => [...rgba.subarray((y * width + x) * 4, (y * width + x) * 4 + 4)];

describe('BoxReducer', () => {
  it('averages each box of source pixels into one output pixel', () => {
    const reducer = new BoxReducer('grey8', 4, 2, 2, 2);

    reducer.addRow(Uint8Array.from([0, 100, 200, 200]), 0);
    reducer.addRow(Uint8Array.from([100, 200, 200, 200]), 0);

    const { width, height, rgba } = reducer.result();
    expect({ width, height }).toEqual({ width: 2, height: 1 });
    expect(pixel(rgba, 2, 0, 0)).toEqual([100, 100, 100, 255]);
    expect(pixel(rgba, 2, 1, 0)).toEqual([200, 200, 200, 255]);
  });

  it('folds the columns and rows left over into the last box', () => {
    const reducer = new BoxReducer('grey8', 3, 3, 2, 2);

    for (const row of [[0, 0, 90], [0, 0, 90], [30, 30, 30]]) reducer.addRow(Uint8Array.from(row), 0);

    const { width, height, rgba } = reducer.result();
    expect({ width, height }).toEqual({ width: 1, height: 1 });
    expect(pixel(rgba, 1, 0, 0)[0]).toBe(30); // (90 + 90 + 30 * 3) / 9
  });

  it('reads 1-bit rows with a set bit as white', () => {
    const reducer = new BoxReducer('grey1', 16, 1, 8, 1);

    reducer.addRow(Uint8Array.from([0x00, 0xf0]), 0);

    expect(pixel(reducer.result().rgba, 2, 0, 0)).toEqual([0, 0, 0, 255]);
    expect(pixel(reducer.result().rgba, 2, 1, 0)[0]).toBe(128); // half of the box white
  });

  it('keeps an image at least twice the target size', () => {
    expect(reductionFactor(9000, 256)).toBe(17);
    expect(reductionFactor(300, 256)).toBe(1);
  });
});

describe('reduceFlateRows', () => {
  it('undoes the PNG predictor while it reads the rows', async () => {
    const pixels = twoBandPixels(64, 64, [200, 30, 30], [30, 30, 200]);
    const reducer = new BoxReducer('rgb8', 64, 64, 32, 32);

    await reduceFlateRows(pngPredicted(pixels, 64), { layout: 'rgb8', width: 64, height: 64, pngPredictor: true }, reducer);

    const { rgba } = reducer.result();
    expect(pixel(rgba, 2, 1, 0)).toEqual([200, 30, 30, 255]);
    expect(pixel(rgba, 2, 0, 1)).toEqual([30, 30, 200, 255]);
  });

  it('stops inflating at the last declared row of a stream that would inflate to a gigabyte', async () => {
    const reducer = new BoxReducer('grey8', 1000, 1000, 10, 10);
    const bomb = deflateBomb('\x40', 1 << 30);
    const cpuBefore = process.cpuUsage();

    await reduceFlateRows(bomb, { layout: 'grey8', width: 1000, height: 1000, pngPredictor: false }, reducer);

    // CPU time, which a loaded machine does not stretch as it does the clock: the 1 MB of rows inflate in a few ms,
    // the whole gigabyte takes about a quarter of a second of a core (zlib's threads count in the process's time).
    const cpu = process.cpuUsage(cpuBefore);
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(100);
    expect(reducer.done).toBe(true);
  });

  it('fails on data that ends before the last row', async () => {
    const reducer = new BoxReducer('grey8', 100, 100, 10, 10);

    const outcome = reduceFlateRows(deflateSync(Buffer.alloc(100 * 50)), { layout: 'grey8', width: 100, height: 100, pngPredictor: false }, reducer);

    await expect(outcome).rejects.toThrow('ends before its last row');
  });
});
