import type { SourceRepository } from './ports';
import { toSourceView, type SourceView } from './source';

/** The workspace's sources, oldest first, each with the exact count of its documents. */
export async function listSources(deps: { sources: SourceRepository }): Promise<{ sources: SourceView[] }> {
  const sources = await deps.sources.list();
  const counts = await deps.sources.documentCounts(sources.map((source) => source.id));
  return { sources: sources.map((source) => toSourceView(source, counts.get(source.id) ?? 0)) };
}
