/**
 * The per-page rule (issue 39): each page of a PDF is read by what suits it. A page with a usable text layer keeps
 * it (exact, confidence 1); a blank page is read by nobody; only the other pages are rendered and OCRed. The
 * document's text joins the pages in order with {@link PAGE_SEPARATOR}; its confidence is that of the OCRed pages.
 */

/** Between the text of two pages: a form feed on a line of its own, as the text layer and Tesseract join theirs. */
export const PAGE_SEPARATOR = '\n\f\n';

/** The engine name of pages whose text came from the PDF's own text layer, not from OCR. */
export const TEXT_LAYER = 'text_layer';

/** What the text-layer reader saw of one page. */
export interface PageLayer {
  /** The page's text layer, trimmed ('' when it has none). */
  text: string;
  /** The page draws (or its resources name) an image: a scan or a figure whose words only OCR can read. */
  drawsImages: boolean;
  /** The page paints something besides images: visible text, filled or stroked paths, shadings. */
  drawsOther: boolean;
}

/** `text_layer`: keep the layer; `blank`: nothing to read; `ocr`: render and OCR the page. */
export type PageDecision = 'text_layer' | 'blank' | 'ocr';

/** A page's text layer with at least this many letters and digits is usable whatever else the page draws. */
export const MIN_LAYER_CHARS = 20;
/** At least this share of a layer's non-whitespace characters must be letters or digits (else: a garbage encoding). */
export const MIN_WORD_CHAR_SHARE = 0.5;

const WORD_CHAR = /[\p{L}\p{N}]/u;
/** What a font without a usable encoding maps its glyphs to: U+FFFD, controls, private use. */
const GARBAGE_CHAR = /[\uFFFD\p{Cc}\p{Co}]/u;

/** The non-whitespace characters of a text, counted: all, letters and digits, and garbage. */
export const characterCounts = (text: string): { visible: number; word: number; garbage: number } => {
  let visible = 0;
  let word = 0;
  let garbage = 0;
  for (const char of text) {
    if (/\s/u.test(char)) continue;
    visible++;
    if (WORD_CHAR.test(char)) word++;
    else if (GARBAGE_CHAR.test(char)) garbage++;
  }
  return { visible, word, garbage };
};

/**
 * Whether a text layer reads as text: some letters or digits, no more than a trace (2 %) of garbage (U+FFFD,
 * controls, private use), and, once it is {@link MIN_LAYER_CHARS} characters or longer, mostly letters and digits
 * (a font without a Unicode map gives runs of symbols). A short layer ("- 2 -") is judged by the first two alone.
 */
export const readableLayer = (text: string): boolean => {
  const { visible, word, garbage } = characterCounts(text);
  return word > 0 && garbage <= visible * 0.02 && (visible < MIN_LAYER_CHARS || word >= visible * MIN_WORD_CHAR_SHARE);
};

/**
 * What reads a page:
 *
 * - `text_layer` when its layer is readable ({@link readableLayer}) and either long enough (at least
 *   {@link MIN_LAYER_CHARS} letters and digits: the page is text, a figure beside it is not OCRed) or the page draws
 *   no image (everything on it is vector drawing and the text it shows: a page number alone, a title page; OCR
 *   could only read the same words less exactly);
 * - `blank` when it has no text at all and draws nothing: no image, no path, no shading;
 * - `ocr` otherwise: a scan (images and no or little text), a layer that is garbage (a font without a Unicode
 *   map), or a page drawn only as paths (text converted to outlines).
 */
export const decidePage = (page: PageLayer): PageDecision => {
  const { word } = characterCounts(page.text);
  if (readableLayer(page.text) && (word >= MIN_LAYER_CHARS || !page.drawsImages)) return 'text_layer';
  if (page.text === '' && !page.drawsImages && !page.drawsOther) return 'blank';
  return 'ocr';
};

/**
 * Share of a drawn page's pixels that may stand apart from its paper for the page to be blank: about 170 pixels of
 * a 300-dpi Letter page, where one 12-pt word draws about a thousand.
 */
export const BLANK_MAX_INK_SHARE = 0.00002;

/**
 * Whether a drawn page is blank paper, from its grey pixels (0..`maxval`): the check a scanned blank page needs,
 * since it draws an image and only the pixels tell that the image is empty paper. Blank when at most
 * {@link BLANK_MAX_INK_SHARE} of the pixels differ by more than 1/8 of the grey range from the page's most common
 * value (its paper, whatever its shade). Light grey text on white differs by more and counts as ink; scanner
 * speckle above the share makes the page read (and give no text).
 */
export const blankPixels = (pixels: ArrayLike<number>, maxval: number): boolean => {
  const histogram = new Uint32Array(Math.max(256, maxval + 1));
  for (let i = 0; i < pixels.length; i++) histogram[pixels[i]!]!++;
  let paper = 0;
  for (let value = 1; value <= maxval; value++) if (histogram[value]! > histogram[paper]!) paper = value;
  const tolerance = maxval / 8;
  let ink = 0;
  for (let value = 0; value <= maxval; value++) if (Math.abs(value - paper) > tolerance) ink += histogram[value]!;
  return ink <= pixels.length * BLANK_MAX_INK_SHARE;
};

/**
 * Where an engine saw one word: its box as fractions (0..1) of the upright page it read (origin top left), as a
 * searchable PDF places the word's invisible text.
 */
export interface OcrWord {
  text: string;
  left: number;
  top: number;
  width: number;
  height: number;
}

/** What an OCR engine read of one page. */
export interface OcrPageText {
  text: string;
  /** Mean word confidence of the page as a fraction 0..1 (0 when no word was read). */
  confidence: number;
  /** Words the confidence is the mean of: a document's confidence weighs each page by them. */
  words: number;
  /** The engine found the rendered page blank (uniform pixels) and read nothing: counted as a blank page. */
  blank?: boolean | undefined;
  /** Each word read and where, in reading order, when the engine reports positions (both engines here do). */
  boxes?: OcrWord[] | undefined;
}

/** One page of a document once read, by whatever read it. */
export type ReadPage =
  | { by: typeof TEXT_LAYER; text: string }
  | { by: 'blank' }
  | ({ by: 'ocr' } & OcrPageText);

/** The document's text, confidence and page counts from its pages, in order. */
export interface CombinedText {
  text: string;
  /** The OCRed pages' mean word confidence (weighed by words); 1 when no page was OCRed. */
  confidence: number;
  pages: number;
  /** Pages by what read them: `text_layer` and the engine's name; blank pages are counted under none. */
  pagesByEngine: Record<string, number>;
}

/** Combines the pages of a document; `engine` names what read the `ocr` pages (`tesseract`, `textract`). */
export const combinePages = (pages: readonly ReadPage[], engine: string): CombinedText => {
  const pagesByEngine: Record<string, number> = {};
  let ocred = 0;
  let words = 0;
  let weighed = 0;
  let unweighed = 0;
  const texts = pages.map((page) => {
    if (page.by === 'blank') return '';
    const name = page.by === 'ocr' ? engine : TEXT_LAYER;
    pagesByEngine[name] = (pagesByEngine[name] ?? 0) + 1;
    if (page.by === 'ocr') {
      ocred++;
      words += page.words;
      weighed += page.confidence * page.words;
      unweighed += page.confidence;
    }
    return page.text;
  });
  // Pages that report no word counts (an engine's whole-document confidence) are averaged as they are.
  const confidence = ocred === 0 ? 1 : words > 0 ? weighed / words : unweighed / ocred;
  return { text: texts.join(PAGE_SEPARATOR), confidence: Math.min(1, Math.max(0, confidence)), pages: pages.length, pagesByEngine };
};
