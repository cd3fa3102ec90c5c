import { inflateSync, constants as zlibConstants } from 'node:zlib';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream, PDFRef, type PDFObject } from '@cantoo/pdf-lib';
import { FileRefusal } from './jobs';

/** Nested forms, patterns and appearances deeper than this are refused. */
const MAX_DEPTH = 32;
/** Content streams reachable from one page; more is refused rather than walked. */
const MAX_STREAMS = 10_000;
/** Parents walked up the page tree for inherited resources (a loop in the tree ends the walk). */
const MAX_PARENTS = 64;

/** Inflated sizes by object (`"<number> <generation> R"`), kept across the pages of one document so shared forms are inflated once. */
export type SizeCache = Map<string, number>;

/**
 * The objects of a PDF as pdf-lib (MIT) parses them, for looking at a page's streams before pdf.js interprets
 * it: pdf.js exposes pages, text and drawing, not the objects behind them.
 */
export type PdfObjects = PDFDocument;

/** Parses the objects of a PDF; throws when pdf-lib cannot. Encrypted files are parsed too (their streams stay encrypted). */
export const loadObjects = (bytes: Uint8Array): Promise<PdfObjects> =>
  PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false });

/** The pixel sizes of the images a page draws through its resources (XObjects, their masks and soft masks). */
export interface ImageSize {
  width: number;
  height: number;
}

const nameOf = (value: PDFObject | undefined): string | undefined => (value instanceof PDFName ? value.decodeText() : undefined);

const filters = (value: PDFObject | undefined): string[] => {
  if (value instanceof PDFName) return [value.decodeText()];
  if (value instanceof PDFArray) return value.asArray().map(nameOf).filter((name): name is string => name !== undefined);
  return [];
};

/**
 * The size of a stream once its leading FlateDecode filters are undone, measured with zlib under a cap (past
 * `limit` it stops and answers more than `limit`), so a bomb costs at most `limit` bytes and milliseconds. A
 * filter other than Flate ends the measure at the size reached: ASCIIHex and ASCII85 only shrink, and the
 * rare others (LZW, RunLength) are left to the job's time and memory limits.
 */
const inflatedSize = (stream: PDFRawStream, limit: number, lookup: (value: PDFObject | undefined) => PDFObject | undefined): number => {
  let data: Uint8Array = stream.contents;
  for (const filter of filters(lookup(stream.dict.get(PDFName.of('Filter'))))) {
    if (filter !== 'FlateDecode' && filter !== 'Fl') break;
    try {
      data = inflateSync(data, { maxOutputLength: limit + 1, finishFlush: zlibConstants.Z_SYNC_FLUSH });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return limit + 1;
      break; // corrupt data: the interpreter reads what inflates and stops, as zlib did
    }
  }
  return data.length;
};

/**
 * Checks the page pdf.js knows as object `pageRef` before it is interpreted:
 *
 * - Refuses (FileRefusal) a page whose content, inflated, is larger than `maxBytes`: the streams the interpreter
 *   reads for it (page contents, form XObjects, tiling patterns and shadings, soft-mask groups and annotation
 *   appearances, through their resources). Interpreting a FlateDecode bomb (1 MB inflating to 1 GB) would take
 *   minutes and all the memory there is. Images are not counted (their decoding is bounded by their pixels), nor
 *   fonts (left to the memory cap).
 * - Returns the pixel sizes of the image XObjects it met on the way (with their masks), for the renderer to
 *   refuse before anything is decoded. Inline images are part of the content, so within `maxBytes`.
 *
 * Throws a FileRefusal too when the page is not among the objects pdf-lib parsed: pdf.js repaired the file in a
 * way pdf-lib did not, and a page that cannot be checked is not interpreted.
 */
export const checkPageContent = (
  objects: PdfObjects,
  pageRef: { num: number; gen: number } | null,
  pageNumber: number,
  maxBytes: number,
  sizes: SizeCache,
): ImageSize[] => {
  const { context } = objects;
  const lookup = (value: PDFObject | undefined): PDFObject | undefined => (value instanceof PDFRef ? context.lookup(value) : value);
  const page = pageRef ? context.lookup(PDFRef.of(pageRef.num, pageRef.gen)) : undefined;
  if (!(page instanceof PDFDict)) throw new FileRefusal(`page ${pageNumber} cannot be checked before it is drawn`);

  const seen = new Set<string>();
  const images: ImageSize[] = [];
  let total = 0;
  let streams = 0;
  const refuse = (): never => {
    throw new FileRefusal(`the content of page ${pageNumber} inflates to more than ${Math.round(maxBytes / 2 ** 20)} MiB`);
  };

  /** The object behind `value`, or undefined when it was seen already (shared, or a loop). */
  const visit = (value: PDFObject | undefined): PDFObject | undefined => {
    if (value instanceof PDFRef) {
      const key = value.toString();
      if (seen.has(key)) return undefined;
      seen.add(key);
    }
    return lookup(value);
  };

  const dictOf = (value: PDFObject | undefined): PDFDict | undefined => {
    const object = lookup(value);
    if (object instanceof PDFRawStream) return object.dict;
    return object instanceof PDFDict ? object : undefined;
  };

  const number = (dict: PDFDict, key: string): number => {
    const value = lookup(dict.get(PDFName.of(key)));
    return value instanceof PDFNumber ? value.asNumber() : 0;
  };

  const image = (value: PDFObject | undefined, depth: number): void => {
    const object = visit(value);
    if (!(object instanceof PDFRawStream) || depth > 2) return;
    images.push({ width: number(object.dict, 'Width'), height: number(object.dict, 'Height') });
    image(object.dict.get(PDFName.of('SMask')), depth + 1);
    image(object.dict.get(PDFName.of('Mask')), depth + 1); // a stencil mask; a colour-key array is skipped
  };

  const stream = (value: PDFObject | undefined, depth: number): void => {
    const key = value instanceof PDFRef ? value.toString() : undefined;
    const object = visit(value);
    if (!(object instanceof PDFRawStream)) return;
    if (depth > MAX_DEPTH || ++streams > MAX_STREAMS) throw new FileRefusal('the page nests too many forms or patterns');
    const size = (key === undefined ? undefined : sizes.get(key)) ?? inflatedSize(object, maxBytes, lookup);
    if (key !== undefined && size <= maxBytes) sizes.set(key, size);
    total += size;
    if (total > maxBytes) refuse();
    resources(object.dict.get(PDFName.of('Resources')), depth + 1);
  };

  const eachValue = (value: PDFObject | undefined, fn: (item: PDFObject) => void): void => {
    const object = lookup(value);
    if (object instanceof PDFDict) for (const item of object.values()) fn(item);
    else if (object instanceof PDFArray) for (const item of object.asArray()) fn(item);
  };

  const resources = (value: PDFObject | undefined, depth: number): void => {
    const dictionary = visit(value);
    if (!(dictionary instanceof PDFDict)) return;
    eachValue(dictionary.get(PDFName.of('XObject')), (item) => {
      const subtype = nameOf(dictOf(item)?.get(PDFName.of('Subtype')));
      if (subtype === 'Form') stream(item, depth);
      else if (subtype === 'Image') image(item, 0);
    });
    eachValue(dictionary.get(PDFName.of('Pattern')), (item) => {
      const shading = dictOf(item)?.get(PDFName.of('Shading'));
      stream(item, depth);
      if (shading) stream(shading, depth);
    });
    eachValue(dictionary.get(PDFName.of('Shading')), (item) => stream(item, depth));
    eachValue(dictionary.get(PDFName.of('ExtGState')), (item) => {
      const mask = lookup(dictOf(item)?.get(PDFName.of('SMask')));
      if (mask instanceof PDFDict) stream(mask.get(PDFName.of('G')), depth);
    });
  };

  /** The page's Resources, or the nearest ancestor's (they are inheritable). */
  const inheritedResources = (): PDFObject | undefined => {
    let node: PDFDict | undefined = page;
    const parents = new Set<PDFDict>();
    for (let level = 0; node && level < MAX_PARENTS && !parents.has(node); level++) {
      parents.add(node);
      const own = node.get(PDFName.of('Resources'));
      if (own) return own;
      node = dictOf(node.get(PDFName.of('Parent')));
    }
    return undefined;
  };

  const contents = page.get(PDFName.of('Contents'));
  if (lookup(contents) instanceof PDFArray) eachValue(contents, (item) => stream(item, 0));
  else stream(contents, 0);
  resources(inheritedResources(), 0);
  eachValue(page.get(PDFName.of('Annots')), (annotation) => {
    const normal = dictOf(dictOf(annotation)?.get(PDFName.of('AP')))?.get(PDFName.of('N'));
    if (lookup(normal) instanceof PDFRawStream) stream(normal, 0);
    else eachValue(normal, (state) => stream(state, 0));
  });
  return images;
};

/** An inline image (`BI` ... `ID`) as a token sequence of content; strings are not told apart (a false hit only sends the page to OCR). */
const INLINE_IMAGE = /(?:^|[\s\]>)])BI[\s/][\s\S]*?[\s]ID[\s]/;

/**
 * Whether the page's own content streams draw an inline image (`BI` ... `ID` ... `EI`). The streams were measured
 * by {@link checkPageContent} first, so inflating them is bounded; one that cannot be inflated here (another
 * filter, corrupt data) counts as drawing one, which only sends the page to OCR.
 */
export const pageHasInlineImage = (objects: PdfObjects, pageRef: { num: number; gen: number } | null): boolean => {
  const { context } = objects;
  const lookup = (value: PDFObject | undefined): PDFObject | undefined => (value instanceof PDFRef ? context.lookup(value) : value);
  const page = pageRef ? lookup(PDFRef.of(pageRef.num, pageRef.gen)) : undefined;
  if (!(page instanceof PDFDict)) return true;
  const contents = lookup(page.get(PDFName.of('Contents')));
  const parts = contents instanceof PDFArray ? contents.asArray().map(lookup) : contents === undefined ? [] : [contents];
  return parts.some((part) => {
    if (!(part instanceof PDFRawStream)) return true;
    let data: Uint8Array = part.contents;
    for (const filter of filters(lookup(part.dict.get(PDFName.of('Filter'))))) {
      if (filter !== 'FlateDecode' && filter !== 'Fl') return true;
      try {
        data = inflateSync(data, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
      } catch {
        return true;
      }
    }
    return INLINE_IMAGE.test(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1'));
  });
};
