import { AppError, validationError } from '../errors';
import { requireLabels } from '../labels/require-labels';
import type { RuleDeps } from './ports';
import type { RuleMatch } from './rule';

/** Refuses a regex rule whose pattern RE2 cannot compile, naming the field and the engine's reason. */
export async function requireValidPattern(deps: Pick<RuleDeps, 'regex'>, match: RuleMatch): Promise<void> {
  if (match.algorithm !== 'regex') return;
  const reason = await deps.regex.check(match.pattern);
  if (reason) throw validationError('The pattern is not a valid regular expression', [{ field: 'match.pattern', reason: `is not a valid regular expression: ${reason}` }]);
}

/** Refuses label ids that name no label, as the label endpoints do, on `add_labels`. */
export async function requireRuleLabels(deps: Pick<RuleDeps, 'labels'>, ids: string[]): Promise<void> {
  try {
    await requireLabels(deps.labels, ids);
  } catch (error) {
    if (error instanceof AppError) throw new AppError(error.code, error.message, { ...error.details, field: 'add_labels' });
    throw error;
  }
}
