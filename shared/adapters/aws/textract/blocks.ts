import type { Block, DocumentMetadata } from '@aws-sdk/client-textract';
import type { OcrPageText, OcrWord } from '../../../domain/ocr/page-texts';
import type { OcrOutput } from '../../../domain/ocr/ports';

const meanConfidence = (blocks: readonly Block[]): { confidence: number; words: number } => {
  const confidences = blocks.flatMap((block) => (block.BlockType === 'WORD' && typeof block.Confidence === 'number' ? [block.Confidence] : []));
  const mean = confidences.length ? confidences.reduce((sum, value) => sum + value, 0) / confidences.length : 0;
  return { confidence: Math.min(1, Math.max(0, mean / 100)), words: confidences.length };
};

/** Each page's text: its LINE blocks in reading order, one line each; by page number, ascending. */
const pageTextsOf = (blocks: readonly Block[]): Map<number, string> => {
  const byId = new Map(blocks.flatMap((block) => (block.Id ? [[block.Id, block] as const] : [])));
  const pageBlocks = new Map<number, Block>();
  const lines = new Map<number, Block[]>();
  for (const block of blocks) {
    const page = block.Page ?? 1;
    if (block.BlockType === 'PAGE') pageBlocks.set(page, block);
    if (block.BlockType === 'LINE') {
      const pageLines = lines.get(page) ?? [];
      pageLines.push(block);
      lines.set(page, pageLines);
    }
  }
  const pageNumbers = [...new Set([...pageBlocks.keys(), ...lines.keys()])].sort((a, b) => a - b);
  return new Map(
    pageNumbers.map((page) => {
      // The PAGE block lists its lines in reading order; the order of the response is the fallback.
      const ordered = (pageBlocks.get(page)?.Relationships ?? [])
        .filter((relationship) => relationship.Type === 'CHILD')
        .flatMap((relationship) => relationship.Ids ?? [])
        .flatMap((id) => {
          const child = byId.get(id);
          return child?.BlockType === 'LINE' ? [child] : [];
        });
      const listed = new Set(ordered);
      const rest = (lines.get(page) ?? []).filter((line) => !listed.has(line));
      return [page, [...ordered, ...rest].map((line) => line.Text ?? '').join('\n')];
    }),
  );
};

const clamp = (value: number): number => Math.min(1, Math.max(0, value));

/** The WORD blocks with text and a box, in the order Textract gives them (line by line), as fractions of the page. */
const wordBoxes = (blocks: readonly Block[]): OcrWord[] =>
  blocks.flatMap((block) => {
    const box = block.Geometry?.BoundingBox;
    const text = block.Text?.trim();
    if (block.BlockType !== 'WORD' || !text || !box) return [];
    const left = clamp(box.Left ?? 0);
    const top = clamp(box.Top ?? 0);
    return [{ text, left, top, width: clamp(Math.min(box.Width ?? 0, 1 - left)), height: clamp(Math.min(box.Height ?? 0, 1 - top)) }];
  });

/**
 * Each page's text, mean WORD confidence and words, and its words' boxes (Textract's geometry is already a
 * fraction of the page), by page number (a page Textract returned nothing of is absent).
 */
export const textractPages = (blocks: readonly Block[]): Map<number, OcrPageText> => {
  const texts = pageTextsOf(blocks);
  return new Map(
    [...texts].map(([page, text]) => {
      const onPage = blocks.filter((block) => (block.Page ?? 1) === page);
      return [page, { text, ...meanConfidence(onPage), boxes: wordBoxes(onPage) }];
    }),
  );
};

/** LINE blocks in reading order, one page after another; confidence from the WORD blocks; each page with its words. */
export const textractOutput = (blocks: readonly Block[], metadata: DocumentMetadata | undefined): OcrOutput => {
  const texts = pageTextsOf(blocks);
  const pages = metadata?.Pages ?? Math.max(texts.size, 1);
  const read = textractPages(blocks);
  return {
    text: [...texts.values()].join('\n\n'),
    confidence: meanConfidence(blocks).confidence,
    pages,
    pageTexts: Array.from({ length: pages }, (_, i) => read.get(i + 1) ?? { text: '', confidence: 0, words: 0, boxes: [] }),
  };
};
