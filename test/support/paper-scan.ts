import { createCanvas } from '@napi-rs/canvas';

/**
 * A PNG scan of paper of one grey level with scanner-like noise of +-3 levels, and on it, when given, a line of
 * dark text (`mark.size` pixels high, e.g. a page number at the foot of the page): blank paper, or all but.
 */
export async function paperPng(width: number, height: number, grey: number, mark?: { text: string; size: number }): Promise<Uint8Array> {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  const image = context.createImageData(width, height);
  for (let i = 0; i < width * height; i++) {
    const value = grey + ((i * 7919) % 7) - 3;
    image.data.set([value, value, value, 255], i * 4);
  }
  context.putImageData(image, 0, 0);
  if (mark) {
    context.fillStyle = '#282828';
    context.font = `${mark.size}px sans-serif`;
    context.fillText(mark.text, width / 2, height - height / 20);
  }
  return new Uint8Array(await canvas.encode('png'));
}
