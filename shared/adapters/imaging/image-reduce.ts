import { createInflate, constants as zlibConstants } from 'node:zlib';

/** Pixel layouts the reducer reads: 1-bit grey (a set bit is white), 8-bit grey, RGB and RGBA. */
export type PixelLayout = 'grey1' | 'grey8' | 'rgb8' | 'rgba8';

const CHANNELS: Record<PixelLayout, number> = { grey1: 1, grey8: 1, rgb8: 3, rgba8: 4 };

/** Bytes of one row of `width` pixels in `layout`, as stored (1-bit rows end on a byte boundary). */
export const rowBytes = (layout: PixelLayout, width: number): number => (layout === 'grey1' ? Math.ceil(width / 8) : width * CHANNELS[layout]);

/** An image reduced to RGBA, ready for a canvas's ImageData. */
export interface ReducedImage {
  width: number;
  height: number;
  rgba: Uint8ClampedArray;
}

/**
 * Reduces an image by whole factors with a box filter (each output pixel is the mean of the `factorX` x
 * `factorY` source pixels it covers), reading the source one row at a time: a 9000x9000 scan is reduced while
 * it is inflated, never held whole. The canvas then scales the small image the rest of the way.
 */
export class BoxReducer {
  readonly width: number;
  readonly height: number;
  private readonly channels: number;
  private readonly sums: Float64Array;
  private readonly rgba: Uint8ClampedArray;
  private readonly bits: boolean;
  private row = 0;

  constructor(
    layout: PixelLayout,
    private readonly sourceWidth: number,
    private readonly sourceHeight: number,
    private readonly factorX: number,
    private readonly factorY: number,
  ) {
    // The last box takes the columns and rows left over, so every source pixel counts once.
    this.width = Math.max(1, Math.floor(sourceWidth / factorX));
    this.height = Math.max(1, Math.floor(sourceHeight / factorY));
    this.channels = CHANNELS[layout];
    this.sums = new Float64Array(this.width * this.channels);
    this.rgba = new Uint8ClampedArray(this.width * this.height * 4);
    this.bits = layout === 'grey1';
  }

  /** True once every source row was read. */
  get done(): boolean {
    return this.row >= this.sourceHeight;
  }

  /** Adds the next source row (`rowBytes(layout, sourceWidth)` bytes from `at`). */
  addRow(data: Uint8Array, at: number): void {
    if (this.done) return;
    const { sums, width, channels, factorX, sourceWidth, bits } = this;
    // Box by box with the sums in locals: one write per box and channel rather than one per source byte.
    for (let box = 0, x = 0; box < width; box++) {
      const end = box === width - 1 ? sourceWidth : x + factorX;
      const o = box * channels;
      if (bits) {
        let white = 0;
        for (; x < end; x++) white += (data[at + (x >> 3)]! >> (7 - (x & 7))) & 1;
        sums[o]! += white * 255;
      } else if (channels === 1) {
        let grey = 0;
        for (let i = at + x, last = at + end; i < last; i++) grey += data[i]!;
        sums[o]! += grey;
        x = end;
      } else {
        let r = 0;
        let g = 0;
        let b = 0;
        let a = 0;
        for (let i = at + x * channels, last = at + end * channels; i < last; i += channels) {
          r += data[i]!;
          g += data[i + 1]!;
          b += data[i + 2]!;
          if (channels === 4) a += data[i + 3]!;
        }
        sums[o]! += r;
        sums[o + 1]! += g;
        sums[o + 2]! += b;
        if (channels === 4) sums[o + 3]! += a;
        x = end;
      }
    }
    this.row++;
    const outRow = Math.min(this.height - 1, Math.floor((this.row - 1) / this.factorY));
    const lastOfBox = this.row === this.sourceHeight || (outRow < this.height - 1 && this.row % this.factorY === 0);
    if (lastOfBox) this.flush(outRow, this.row - outRow * this.factorY);
  }

  /** The reduced image; rows never read (a short stream) stay white. */
  result(): ReducedImage {
    for (let row = this.row === 0 ? 0 : Math.min(this.height, Math.floor((this.row - 1) / this.factorY) + 1); row < this.height; row++) {
      this.rgba.fill(255, row * this.width * 4, (row + 1) * this.width * 4);
    }
    return { width: this.width, height: this.height, rgba: this.rgba };
  }

  private flush(outRow: number, rows: number): void {
    const { width, channels, sums, rgba, factorX, sourceWidth } = this;
    for (let x = 0; x < width; x++) {
      const columns = x === width - 1 ? sourceWidth - x * factorX : factorX;
      const count = columns * rows;
      const o = (outRow * width + x) * 4;
      const s = x * channels;
      if (channels === 1) {
        rgba[o] = rgba[o + 1] = rgba[o + 2] = sums[s]! / count;
        rgba[o + 3] = 255;
      } else {
        rgba[o] = sums[s]! / count;
        rgba[o + 1] = sums[s + 1]! / count;
        rgba[o + 2] = sums[s + 2]! / count;
        rgba[o + 3] = channels === 4 ? sums[s + 3]! / count : 255;
      }
    }
    sums.fill(0);
  }
}

/** The whole reduction factor that leaves an image of `side` pixels at least twice `target` (or as it is). */
export const reductionFactor = (side: number, target: number): number => Math.max(1, Math.floor(side / Math.max(1, 2 * target)));

/** Undoes one PNG row filter (PDF's /Predictor 10-15) in place; `previous` is the row above, unfiltered. */
const unfilterRow = (filter: number, row: Uint8Array, previous: Uint8Array, bpp: number): void => {
  const length = row.length;
  switch (filter) {
    case 0:
      return;
    case 1:
      for (let i = bpp; i < length; i++) row[i] = (row[i]! + row[i - bpp]!) & 0xff;
      return;
    case 2:
      for (let i = 0; i < length; i++) row[i] = (row[i]! + previous[i]!) & 0xff;
      return;
    case 3:
      for (let i = 0; i < length; i++) row[i] = (row[i]! + (((i >= bpp ? row[i - bpp]! : 0) + previous[i]!) >> 1)) & 0xff;
      return;
    case 4:
      for (let i = 0; i < length; i++) {
        const a = i >= bpp ? row[i - bpp]! : 0;
        const b = previous[i]!;
        const c = i >= bpp ? previous[i - bpp]! : 0;
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        row[i] = (row[i]! + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 0xff;
      }
      return;
    default:
      throw new Error(`unknown PNG row filter ${filter}`);
  }
};

/** How a FlateDecode image's rows are laid out once inflated. */
export interface FlateRows {
  layout: Exclude<PixelLayout, 'rgba8'>;
  width: number;
  height: number;
  /** True for /Predictor 10-15: each row starts with a PNG filter byte. */
  pngPredictor: boolean;
}

/**
 * Inflates a FlateDecode image stream and feeds its rows to `reducer` as they come, stopping at the last row the
 * image declares: memory stays at one row and one chunk, whatever the stream inflates to. Throws on corrupt or
 * short data (the caller falls back to the full renderer, which has its own repairs).
 */
export const reduceFlateRows = async (data: Uint8Array, rows: FlateRows, reducer: BoxReducer): Promise<void> => {
  const stride = rowBytes(rows.layout, rows.width);
  const bpp = rows.layout === 'rgb8' ? 3 : 1;
  const record = stride + (rows.pngPredictor ? 1 : 0);
  const pending = new Uint8Array(record);
  let filled = 0;
  let current = new Uint8Array(stride);
  let previous = new Uint8Array(stride);
  const inflater = createInflate({ chunkSize: 1 << 18, finishFlush: zlibConstants.Z_SYNC_FLUSH });
  inflater.end(data);
  for await (const chunk of inflater as AsyncIterable<Buffer>) {
    let at = 0;
    while (at < chunk.length && !reducer.done) {
      if (filled === 0 && chunk.length - at >= record && !rows.pngPredictor) {
        reducer.addRow(chunk, at); // a whole row in the chunk: read it where it is
        at += record;
        continue;
      }
      const take = Math.min(record - filled, chunk.length - at);
      pending.set(chunk.subarray(at, at + take), filled);
      filled += take;
      at += take;
      if (filled < record) break;
      filled = 0;
      if (rows.pngPredictor) {
        current.set(pending.subarray(1));
        unfilterRow(pending[0]!, current, previous, bpp);
        reducer.addRow(current, 0);
        [previous, current] = [current, previous];
      } else reducer.addRow(pending, 0);
    }
    if (reducer.done) break;
  }
  inflater.destroy();
  if (!reducer.done) throw new Error('the image data ends before its last row');
};
