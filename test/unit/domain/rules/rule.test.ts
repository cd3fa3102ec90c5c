import { describe, expect, it } from 'vitest';
import { byOrder, ruleApplies, type Rule, type RuleDocument } from '../../../../shared/domain/rules/rule';

const aRule = (overrides: Partial<Rule> = {}): Rule => ({
  id: 'r-1',
  name: 'rule',
  match: { field: 'title', algorithm: 'any', pattern: 'invoice', case_sensitive: false },
  when: {},
  add_labels: ['l-1'],
  order: 0,
  created_by: 'alice',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  apply: null,
  ...overrides,
});

const aDocument = (overrides: Partial<RuleDocument> = {}): RuleDocument => ({
  id: 'd-1',
  title: 'Invoice',
  filename: 'invoice.pdf',
  mime_type: 'application/pdf',
  source_id: null,
  ...overrides,
});

describe('ruleApplies', () => {
  it('lets every document through a rule without conditions', () => {
    // Act
    const applies = ruleApplies(aRule(), aDocument({ mime_type: 'image/png', source_id: 's-1' }));

    // Assert
    expect(applies).toBe(true);
  });

  it('lets through only documents of the listed types', () => {
    // Arrange
    const rule = aRule({ when: { mime_types: ['image/png', 'image/jpeg'] } });

    // Act
    const outcomes = [ruleApplies(rule, aDocument({ mime_type: 'image/png' })), ruleApplies(rule, aDocument({ mime_type: 'application/pdf' }))];

    // Assert
    expect(outcomes).toEqual([true, false]);
  });

  it('lets through only documents of the named source', () => {
    // Arrange
    const rule = aRule({ when: { source_id: 's-1' } });

    // Act
    const outcomes = [ruleApplies(rule, aDocument({ source_id: 's-1' })), ruleApplies(rule, aDocument({ source_id: 's-2' })), ruleApplies(rule, aDocument())];

    // Assert
    expect(outcomes).toEqual([true, false, false]);
  });

  it('takes a source of null as "uploaded, from no source"', () => {
    // Arrange
    const rule = aRule({ when: { source_id: null } });

    // Act
    const outcomes = [ruleApplies(rule, aDocument({ source_id: null })), ruleApplies(rule, aDocument({ source_id: 's-1' }))];

    // Assert
    expect(outcomes).toEqual([true, false]);
  });

  it('treats an empty list of types as no condition', () => {
    // Act
    const applies = ruleApplies(aRule({ when: { mime_types: [] } }), aDocument({ mime_type: 'image/webp' }));

    // Assert
    expect(applies).toBe(true);
  });
});

describe('byOrder', () => {
  it('sorts rules by order, then by creation, then by id', () => {
    // Arrange
    const rules = [
      aRule({ id: 'c', order: 2 }),
      aRule({ id: 'b', order: 1, created_at: '2026-01-02T00:00:00.000Z' }),
      aRule({ id: 'z', order: 1, created_at: '2026-01-01T00:00:00.000Z' }),
      aRule({ id: 'a', order: 1, created_at: '2026-01-01T00:00:00.000Z' }),
    ];

    // Act
    const sorted = [...rules].sort(byOrder).map((rule) => rule.id);

    // Assert
    expect(sorted).toEqual(['a', 'z', 'b', 'c']);
  });
});
