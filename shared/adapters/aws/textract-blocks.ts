import type { Block, DocumentMetadata } from '@aws-sdk/client-textract';
import type { OcrPageText } from '../../domain/ocr/page-texts';
import type { OcrOutput } from '../../domain/ocr/ports';

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

/** Each page's text, mean WORD confidence and words, by page number (a page Textract returned nothing of is absent). */
export const textractPages = (blocks: readonly Block[]): Map<number, OcrPageText> => {
  const texts = pageTextsOf(blocks);
  return new Map(
    [...texts].map(([page, text]) => [page, { text, ...meanConfidence(blocks.filter((block) => (block.Page ?? 1) === page)) }]),
  );
};

/** LINE blocks in reading order, one page after another; confidence from the WORD blocks. */
export const textractOutput = (blocks: readonly Block[], metadata: DocumentMetadata | undefined): OcrOutput => {
  const texts = pageTextsOf(blocks);
  return {
    text: [...texts.values()].join('\n\n'),
    confidence: meanConfidence(blocks).confidence,
    pages: metadata?.Pages ?? Math.max(texts.size, 1),
  };
};
