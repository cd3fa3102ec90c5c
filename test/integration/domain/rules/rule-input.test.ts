import { beforeAll, describe, expect, it } from 'vitest';
import { requireRuleLabels, requireValidPattern } from '../../../../shared/domain/rules/rule-input';
import { refusalOf } from '../workspace-stores';
import { newLabel, ruleStores } from './rule-setup';

describe('requireValidPattern', () => {
  let rules: Awaited<ReturnType<typeof ruleStores>>;

  beforeAll(async () => {
    rules = await ruleStores();
  });

  it("refuses a regex RE2 cannot compile on match.pattern, with the engine's reason", async () => {
    // Act
    const refused = await refusalOf(requireValidPattern(rules.workspace(), { field: 'content', algorithm: 'regex', pattern: 'a(b', case_sensitive: false }));

    // Assert
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'match.pattern', reason: expect.stringMatching(/^is not a valid regular expression: .+/) } });
  });

  it('refuses backreferences, which RE2 does not run', async () => {
    // Act
    const refused = await refusalOf(requireValidPattern(rules.workspace(), { field: 'content', algorithm: 'regex', pattern: '(a)\\1', case_sensitive: false }));

    // Assert
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'match.pattern' } });
  });

  it('does not compile the pattern of a rule that is not a regex', async () => {
    // Act
    const outcome = await refusalOf(requireValidPattern(rules.workspace(), { field: 'content', algorithm: 'any', pattern: 'a(b', case_sensitive: false }));

    // Assert
    expect(outcome).toBeNull();
  });
});

describe('requireRuleLabels', () => {
  let rules: Awaited<ReturnType<typeof ruleStores>>;

  beforeAll(async () => {
    rules = await ruleStores();
  });

  it('refuses unknown labels on add_labels, naming them', async () => {
    // Arrange
    const w = rules.workspace();
    const known = await newLabel(w);
    const ghost = crypto.randomUUID();

    // Act
    const refused = await refusalOf(requireRuleLabels(w, [known, ghost]));

    // Assert
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'add_labels', unknown_label_ids: [ghost] } });
  });

  it('lets labels of the workspace through', async () => {
    // Arrange
    const w = rules.workspace();
    const known = await newLabel(w);

    // Act
    const outcome = await refusalOf(requireRuleLabels(w, [known]));

    // Assert
    expect(outcome).toBeNull();
  });
});
