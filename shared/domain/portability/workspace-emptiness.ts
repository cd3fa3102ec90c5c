import type { DocumentRepository } from '../documents/ports';
import type { LabelRepository } from '../labels/ports';
import type { RuleRepository } from '../rules/ports';
import type { SourceRepository } from '../sources/ports';

/** The stores that tell whether a workspace holds anything an import would write. */
export interface EmptinessDeps {
  documents: Pick<DocumentRepository, 'list'>;
  labels: Pick<LabelRepository, 'list'>;
  sources: Pick<SourceRepository, 'list'>;
  rules: Pick<RuleRepository, 'list'>;
}

/** Whether the workspace holds no document, label, source or rule (its members and tokens do not count). */
export async function isWorkspaceEmpty(deps: EmptinessDeps): Promise<boolean> {
  const [documents, labels, sources, rules] = await Promise.all([
    deps.documents.list({ page: 1, perPage: 1, sort: 'created_at', order: 'desc' }),
    deps.labels.list(),
    deps.sources.list(),
    deps.rules.list(),
  ]);
  return documents.data.length === 0 && labels.length === 0 && sources.length === 0 && rules.length === 0;
}
