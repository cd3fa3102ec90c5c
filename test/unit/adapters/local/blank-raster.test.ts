import { describe, expect, it } from 'vitest';
import { BLANK_MAX_INK_SHARE, blankPgm, parsePgm } from '../../../../shared/adapters/local/blank-raster';

const pgm = (width: number, height: number, fill: number, marks: Array<[number, number, number]> = [], header = `P5\n${width} ${height}\n255\n`): Uint8Array => {
  const pixels = new Uint8Array(width * height).fill(fill);
  for (const [x, y, value] of marks) pixels[y * width + x] = value;
  return new Uint8Array(Buffer.concat([Buffer.from(header, 'latin1'), pixels]));
};

/** `count` pixels of `value`, spread over the page. */
const spread = (width: number, height: number, count: number, value: number): Array<[number, number, number]> =>
  Array.from({ length: count }, (_, i) => [(i * 37) % width, Math.floor((i * 37) / width) % height, value]);

describe('blankPgm', () => {
  it('calls a page of paper only blank, white or tinted', () => {
    expect(blankPgm(pgm(400, 500, 255))).toBe(true);
    expect(blankPgm(pgm(400, 500, 200))).toBe(true);
  });

  it('calls a page with a few specks blank, up to the share', () => {
    const allowed = Math.floor(400 * 500 * BLANK_MAX_INK_SHARE);
    expect(blankPgm(pgm(400, 500, 255, spread(400, 500, allowed, 0)))).toBe(true);
    expect(blankPgm(pgm(400, 500, 255, spread(400, 500, allowed + 1, 0)))).toBe(false);
  });

  it('counts light grey marks on white as ink, and paper noise within 1/8 of the range as paper', () => {
    expect(blankPgm(pgm(400, 500, 255, spread(400, 500, 500, 180)))).toBe(false);
    expect(blankPgm(pgm(400, 500, 255, spread(400, 500, 5000, 240)))).toBe(true);
  });

  it('calls nothing blank that it cannot read as a greyscale PGM', () => {
    expect(blankPgm(new Uint8Array(Buffer.from('P6\n2 2\n255\n............')))).toBe(false);
    expect(blankPgm(pgm(10, 10, 255).subarray(0, 50))).toBe(false);
  });
});

describe('parsePgm', () => {
  it('reads the header with comments and any whitespace', () => {
    const image = parsePgm(pgm(3, 2, 7, [], 'P5 # pdftoppm\n3\t2\r\n255\n'));

    expect(image).toMatchObject({ width: 3, height: 2, maxval: 255 });
    expect([...image!.pixels]).toEqual([7, 7, 7, 7, 7, 7]);
  });
});
