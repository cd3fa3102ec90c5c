import * as mupdf from 'mupdf';
import { checkPageContent } from './content-budget';
import { MUPDF_MAGIC, webpDimensions, type ImageFormat } from './formats';
import { FileRefusal, type RenderJob, type RenderOutput } from './jobs';

/** Decodes a WebP file to straight (not premultiplied) RGBA. */
export type WebpDecoder = (bytes: Uint8Array) => Promise<{ data: Uint8ClampedArray; width: number; height: number }>;

interface Size {
  width: number;
  height: number;
}

/**
 * The largest integer size with the aspect ratio of `natural` that fits in `box`. Raster sources are never
 * enlarged beyond their own pixel size (`upscale: false`); vector pages are scaled to the box.
 */
export const fitInBox = (natural: Size, box: Size, upscale: boolean): Size => {
  let scale = Math.min(box.width / natural.width, box.height / natural.height);
  if (!upscale) scale = Math.min(scale, 1);
  return {
    width: Math.max(1, Math.min(box.width, Math.round(natural.width * scale))),
    height: Math.max(1, Math.min(box.height, Math.round(natural.height * scale))),
  };
};

const checkPixels = (width: number, height: number, maxPixels: number): void => {
  if (!(width > 0 && height > 0)) throw new FileRefusal('the image has no pixels');
  if (width * height > maxPixels) {
    throw new FileRefusal(
      `the image is ${width}x${height} pixels, more than the ${Math.round(maxPixels / 1e6)} megapixels a thumbnail may decode`,
    );
  }
};

/** Frees MuPDF objects now rather than at garbage collection: the WASM heap is what bounds the worker. */
const using = <T>(owned: { destroy(): void }[], value: T & { destroy(): void }): T => {
  owned.push(value);
  return value;
};

const encode = (pixmap: mupdf.Pixmap, job: RenderJob): RenderOutput => {
  const bytes = job.output === 'jpeg' ? pixmap.asJPEG(job.jpegQuality, false) : pixmap.asPNG();
  return {
    bytes: bytes.slice(),
    mimeType: job.output === 'jpeg' ? 'image/jpeg' : 'image/png',
    width: pixmap.getWidth(),
    height: pixmap.getHeight(),
  };
};

const whitePixmap = (owned: { destroy(): void }[], size: Size): mupdf.Pixmap => {
  const pixmap = using(owned, new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, size.width, size.height], false));
  pixmap.clear(255);
  return pixmap;
};

/**
 * The pixel sizes of every image a page would draw (images, image masks, soft masks), collected by running
 * its display list through a device that decodes nothing: MuPDF reads image dimensions from the headers.
 */
const imagesOf = (list: mupdf.DisplayList): Size[] => {
  const sizes: Size[] = [];
  const add = (image: mupdf.Image): void => {
    sizes.push({ width: image.getWidth(), height: image.getHeight() });
    const mask = image.getMask();
    if (mask) {
      sizes.push({ width: mask.getWidth(), height: mask.getHeight() });
      mask.destroy();
    }
  };
  const device = new mupdf.Device({
    fillImage: (image) => add(image),
    fillImageMask: (image) => add(image),
    clipImageMask: (image) => add(image),
  });
  try {
    list.run(device, mupdf.Matrix.identity);
    device.close();
  } finally {
    device.destroy();
  }
  return sizes;
};

const renderDocument = (job: RenderJob & { format: Exclude<ImageFormat, 'webp'> }, owned: { destroy(): void }[]) => {
  const doc = using(owned, mupdf.Document.openDocument(job.bytes, MUPDF_MAGIC[job.format]));
  if (doc.needsPassword()) throw new FileRefusal('the document is encrypted');
  if (doc.countPages() < 1) throw new FileRefusal('the document has no pages');
  const page = using(owned, doc.loadPage(0));
  if (page instanceof mupdf.PDFPage) checkPageContent(page, 1, job.maxContentBytes, new Map());
  const list = using(owned, page.toDisplayList(true));

  const images = imagesOf(list);
  const total = images.reduce((sum, { width, height }) => sum + width * height, 0);
  for (const image of images) checkPixels(image.width, image.height, job.maxPixels);
  if (total > job.maxPixels) {
    throw new FileRefusal(`the page draws ${images.length} images of ${(total / 1e6).toFixed(0)} megapixels together, too many to decode`);
  }

  const [x0, y0, x1, y1] = page.getBounds();
  const pageSize = { width: x1 - x0, height: y1 - y0 };
  if (!(pageSize.width > 0 && pageSize.height > 0 && Number.isFinite(pageSize.width * pageSize.height))) {
    throw new FileRefusal('the page has no area');
  }
  // An image file is one image on one page: its pixels, not its page size in points, are its natural size.
  const [onlyImage] = images;
  const natural = job.format !== 'pdf' && images.length === 1 && onlyImage ? onlyImage : pageSize;
  const size = fitInBox(natural, job.box, job.format === 'pdf');
  const pixmap = whitePixmap(owned, size);
  const toBox = mupdf.Matrix.concat(mupdf.Matrix.translate(-x0, -y0), mupdf.Matrix.scale(size.width / pageSize.width, size.height / pageSize.height));
  const device = using(owned, new mupdf.DrawDevice(toBox, pixmap));
  list.run(device, mupdf.Matrix.identity);
  device.close();
  return encode(pixmap, job);
};

const renderWebp = async (job: RenderJob, decodeWebp: WebpDecoder, owned: { destroy(): void }[]) => {
  const header = webpDimensions(job.bytes);
  if (!header) throw new FileRefusal('the WebP header is malformed');
  checkPixels(header.width, header.height, job.maxPixels);
  const rgba = await decodeWebp(job.bytes);
  checkPixels(rgba.width, rgba.height, job.maxPixels);

  const source = using(owned, new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, rgba.width, rgba.height], false));
  const rgb = source.getPixels();
  if (rgb.length !== rgba.width * rgba.height * 3) throw new FileRefusal('the WebP image has an unexpected layout');
  // Straight alpha composited on white, as a page would show it.
  for (let i = 0, o = 0; i < rgba.data.length; i += 4, o += 3) {
    const alpha = rgba.data[i + 3] ?? 255;
    const white = 255 - alpha;
    rgb[o] = ((rgba.data[i] ?? 0) * alpha) / 255 + white;
    rgb[o + 1] = ((rgba.data[i + 1] ?? 0) * alpha) / 255 + white;
    rgb[o + 2] = ((rgba.data[i + 2] ?? 0) * alpha) / 255 + white;
  }
  const image = using(owned, new mupdf.Image(source));
  const size = fitInBox(rgba, job.box, false);
  const pixmap = whitePixmap(owned, size);
  const device = using(owned, new mupdf.DrawDevice(mupdf.Matrix.identity, pixmap));
  device.fillImage(image, [size.width, 0, 0, size.height, 0, 0], 1);
  device.close();
  return encode(pixmap, job);
};

/**
 * Renders the first page of a PDF, or an image file (PNG, JPEG, TIFF: MuPDF; WebP: `decodeWebp`), to a
 * thumbnail that fits in `job.box`. Throws {@link FileRefusal} when the file cannot or may not be decoded;
 * MuPDF's own errors (corrupt files) come through as they are and the caller treats them alike.
 */
export const renderThumbnail = async (job: RenderJob, decodeWebp: WebpDecoder): Promise<RenderOutput> => {
  const owned: { destroy(): void }[] = [];
  try {
    if (job.format === 'webp') return await renderWebp(job, decodeWebp, owned);
    return renderDocument({ ...job, format: job.format }, owned);
  } finally {
    for (const object of owned.reverse()) object.destroy();
    mupdf.emptyStore();
  }
};
