/**
 * A search snippet as text and marked runs. The server wraps matches in `<mark>` and `</mark>`; nothing else of
 * a snippet is markup, so everything else (including any other tag in the document's text) stays text. The
 * view renders the runs as text nodes and `<mark>` elements: no HTML is ever parsed.
 */
export interface Run {
  text: string;
  marked: boolean;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#x27;': "'" };

/** Undoes the escaping a server may have applied around the marks (the text is shown as text either way). */
const unescape = (text: string): string => text.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (entity) => ENTITIES[entity] ?? entity);

export function snippetRuns(snippet: string): Run[] {
  const runs: Run[] = [];
  let marked = false;
  for (const part of snippet.split(/(<\/?mark>)/i)) {
    if (/^<mark>$/i.test(part)) marked = true;
    else if (/^<\/mark>$/i.test(part)) marked = false;
    else if (part) runs.push({ text: unescape(part), marked });
  }
  return runs;
}
