import { inflateSync, constants as zlibConstants } from 'node:zlib';
import type * as mupdf from 'mupdf';
import { FileRefusal } from './jobs';

/** Nested forms, patterns and appearances deeper than this are refused (MuPDF itself stops at a similar depth). */
const MAX_DEPTH = 32;
/** Content streams reachable from one page; more is refused rather than walked. */
const MAX_STREAMS = 10_000;

/** Inflated sizes by object number, kept across the pages of one document so shared forms are inflated once. */
export type SizeCache = Map<number, number>;

/** `resolve()` throws on MuPDF's shared null object (what a missing key gives). */
const deref = (value: mupdf.PDFObject): mupdf.PDFObject => (value.isNull() ? value : value.resolve());

const names = (filter: mupdf.PDFObject): string[] => {
  if (filter.isName()) return [filter.asName()];
  const list: string[] = [];
  if (filter.isArray()) filter.forEach((item) => item.isName() && list.push(item.asName()));
  return list;
};

/**
 * The size of a stream once its leading FlateDecode filters are undone, measured with zlib under a cap (past
 * `limit` it stops and answers more than `limit`), so a bomb costs at most `limit` bytes and milliseconds. A
 * filter other than Flate ends the measure at the size reached: ASCIIHex and ASCII85 only shrink, and the
 * rare others (LZW, RunLength) are left to the job's time and memory limits.
 */
const inflatedSize = (stream: mupdf.PDFObject, limit: number): number => {
  let data: Uint8Array = stream.readRawStream().asUint8Array().slice();
  for (const filter of names(stream.get('Filter'))) {
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
 * Refuses (FileRefusal) a page whose content, inflated, is larger than `maxBytes`: the streams the interpreter
 * reads for it (page contents, form XObjects, tiling patterns and shadings, soft-mask groups and annotation
 * appearances, through their resources). Checked before the page is interpreted, because interpreting a
 * FlateDecode bomb (1 MB inflating to 1 GB) takes minutes and a display list of it all the memory there is.
 * Images are not counted: their decoding is bounded by their declared pixels. Fonts are left to the memory cap.
 */
export const checkPageContent = (page: mupdf.PDFPage, pageNumber: number, maxBytes: number, sizes: SizeCache): void => {
  const seen = new Set<number>();
  let total = 0;
  let streams = 0;
  const refuse = (): never => {
    throw new FileRefusal(`the content of page ${pageNumber} inflates to more than ${Math.round(maxBytes / 2 ** 20)} MiB`);
  };

  /** The object behind `value`, or undefined when it was seen already (shared, or a loop). */
  const visit = (value: mupdf.PDFObject): mupdf.PDFObject | undefined => {
    if (value.isIndirect()) {
      const number = value.asIndirect();
      if (seen.has(number)) return undefined;
      seen.add(number);
    }
    return deref(value);
  };

  // MuPDF answers isStream() on the reference only (a stream is always an indirect object), not on its dictionary.
  const stream = (value: mupdf.PDFObject, depth: number): void => {
    if (!value.isStream()) return;
    const number = value.asIndirect();
    if (!visit(value)) return;
    if (depth > MAX_DEPTH || ++streams > MAX_STREAMS) throw new FileRefusal('the page nests too many forms or patterns');
    const size = sizes.get(number) ?? inflatedSize(value, maxBytes);
    if (size <= maxBytes) sizes.set(number, size);
    total += size;
    if (total > maxBytes) refuse();
    resources(value.get('Resources'), depth + 1);
  };

  const eachValue = (value: mupdf.PDFObject, fn: (item: mupdf.PDFObject) => void): void => {
    const object = deref(value);
    if (object.isDictionary() || object.isArray()) object.forEach((item) => fn(item));
  };

  const resources = (value: mupdf.PDFObject, depth: number): void => {
    const dictionary = visit(value);
    if (!dictionary?.isDictionary()) return;
    eachValue(dictionary.get('XObject'), (item) => {
      const subtype = deref(item).get('Subtype');
      if (subtype.isName() && subtype.asName() === 'Form') stream(item, depth);
    });
    eachValue(dictionary.get('Pattern'), (item) => {
      stream(item, depth);
      const shading = deref(item).get('Shading');
      if (!shading.isNull()) stream(shading, depth);
    });
    eachValue(dictionary.get('Shading'), (item) => stream(item, depth));
    eachValue(dictionary.get('ExtGState'), (item) => {
      const mask = deref(item).get('SMask');
      if (mask.isDictionary()) stream(mask.get('G'), depth);
    });
  };

  const object = page.getObject();
  const contents = object.get('Contents');
  if (deref(contents).isArray()) eachValue(contents, (item) => stream(item, 0));
  else stream(contents, 0);
  resources(object.getInheritable('Resources'), 0);
  eachValue(object.get('Annots'), (annotation) => {
    const normal = deref(annotation).get('AP').get('N');
    if (normal.isStream()) stream(normal, 0);
    else eachValue(normal, (state) => stream(state, 0));
  });
};
