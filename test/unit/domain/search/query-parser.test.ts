import { describe, expect, it } from 'vitest';
import { MAX_QUERY_LENGTH, parseSearchQuery } from '../../../../shared/domain/search/query-parser';
import type { QueryNode, SearchField } from '../../../../shared/domain/search/ports';

const term = (value: string, field: SearchField = 'all'): QueryNode => ({ kind: 'term', field, value });

describe('parseSearchQuery', () => {
  it('takes a single word as a term over all fields', () => {
    // Arrange
    const input = 'invoice';

    // Act
    const node = parseSearchQuery(input);

    // Assert
    expect(node).toEqual(term('invoice'));
  });

  it('ANDs words by default', () => {
    // Arrange
    const input = 'annual  report';

    // Act
    const node = parseSearchQuery(input);

    // Assert
    expect(node).toEqual({ kind: 'and', children: [term('annual'), term('report')] });
  });

  it('reads a quoted phrase as one phrase', () => {
    // Arrange
    const input = '"annual   report"';

    // Act
    const node = parseSearchQuery(input);

    // Assert
    expect(node).toEqual({ kind: 'phrase', field: 'all', value: 'annual report' });
  });

  it('reads a trailing star as a prefix', () => {
    // Arrange
    const input = 'consult*';

    // Act
    const node = parseSearchQuery(input);

    // Assert
    expect(node).toEqual({ kind: 'term', field: 'all', value: 'consult', prefix: true });
  });

  it('binds OR looser than AND', () => {
    // Arrange
    const input = 'a b OR c';

    // Act
    const node = parseSearchQuery(input);

    // Assert
    expect(node).toEqual({ kind: 'or', children: [{ kind: 'and', children: [term('a'), term('b')] }, term('c')] });
  });

  it('groups with parentheses', () => {
    // Arrange
    const input = 'a AND (b OR c)';

    // Act
    const node = parseSearchQuery(input);

    // Assert
    expect(node).toEqual({ kind: 'and', children: [term('a'), { kind: 'or', children: [term('b'), term('c')] }] });
  });

  it('reads NOT and -word as exclusions', () => {
    // Arrange
    const input = 'invoice NOT draft -void';

    // Act
    const node = parseSearchQuery(input);

    // Assert
    expect(node).toEqual({
      kind: 'and',
      children: [term('invoice'), { kind: 'not', child: term('draft') }, { kind: 'not', child: term('void') }],
    });
  });

  it('reads +word as a required word', () => {
    // Arrange
    const input = '+invoice +paid';

    // Act
    const node = parseSearchQuery(input);

    // Assert
    expect(node).toEqual({ kind: 'and', children: [term('invoice'), term('paid')] });
  });

  it('takes lower-case and, or, not as words', () => {
    // Arrange
    const input = 'terms and conditions';

    // Act
    const node = parseSearchQuery(input);

    // Assert
    expect(node).toEqual({ kind: 'and', children: [term('terms'), term('and'), term('conditions')] });
  });

  it('limits a word or a phrase to a field with field:value', () => {
    // Arrange
    const input = 'title:invoice content:"due within"';

    // Act
    const node = parseSearchQuery(input);

    // Assert
    expect(node).toEqual({
      kind: 'and',
      children: [term('invoice', 'title'), { kind: 'phrase', field: 'content', value: 'due within' }],
    });
  });

  it('keeps an unknown name: prefix as part of the word', () => {
    // Arrange
    const input = 'meeting 12:30';

    // Act
    const node = parseSearchQuery(input);

    // Assert
    expect(node).toEqual({ kind: 'and', children: [term('meeting'), term('12:30')] });
  });

  it.each([
    ['a NUL', 'annual\u0000report'],
    ['a tab and a bell', 'annual\t\u0007report'],
  ])('takes %s between words as a separator', (_, input) => {
    // Act
    const node = parseSearchQuery(input);

    // Assert
    expect(node).toEqual({ kind: 'and', children: [term('annual'), term('report')] });
  });

  it('takes control characters inside a phrase as spaces', () => {
    // Act
    const node = parseSearchQuery('"annual\u0000\u001freport"');

    // Assert
    expect(node).toEqual({ kind: 'phrase', field: 'all', value: 'annual report' });
  });

  it('keeps a hyphenated code as one word', () => {
    // Arrange
    const input = 'INV-2024-004711';

    // Act
    const node = parseSearchQuery(input);

    // Assert
    expect(node).toEqual(term('INV-2024-004711'));
  });

  it('drops words without letters or digits', () => {
    // Arrange
    const input = 'invoice & - paid';

    // Act
    const node = parseSearchQuery(input);

    // Assert
    expect(node).toEqual({ kind: 'and', children: [term('invoice'), term('paid')] });
  });

  it.each([
    ['', 'has no words to search for'],
    ['   ', 'has no words to search for'],
    ['&& ||', 'has no words to search for'],
    ['"unclosed phrase', 'has a quote that is not closed'],
    ['(a OR b', 'has an opening parenthesis without a closing one'],
    ['a OR b)', 'has a closing parenthesis without an opening one'],
    ['-draft', 'needs at least one word that is not excluded'],
    ['NOT draft NOT void', 'needs at least one word that is not excluded'],
    ['invoice OR -draft', 'an excluded word cannot be an alternative (OR NOT)'],
  ])('refuses %j because it %s', (input, reason) => {
    // Arrange
    const parse = () => parseSearchQuery(input);

    // Act
    const attempt = () => parse();

    // Assert
    expect(attempt).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR', details: expect.objectContaining({ field: 'q', reason }) }));
  });

  it('refuses a query longer than the limit', () => {
    // Arrange
    const input = 'a'.repeat(MAX_QUERY_LENGTH + 1);

    // Act
    const attempt = () => parseSearchQuery(input);

    // Assert
    expect(attempt).toThrow(expect.objectContaining({ details: expect.objectContaining({ field: 'q', reason: `must be at most ${MAX_QUERY_LENGTH} characters` }) }));
  });

  it('refuses more than 32 words', () => {
    // Arrange
    const input = Array.from({ length: 33 }, (_, i) => `w${i}`).join(' ');

    // Act
    const attempt = () => parseSearchQuery(input);

    // Assert
    expect(attempt).toThrow(expect.objectContaining({ details: expect.objectContaining({ reason: 'may hold at most 32 words and phrases' }) }));
  });
});
