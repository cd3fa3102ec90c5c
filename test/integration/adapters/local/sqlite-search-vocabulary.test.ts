import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_PREFIX_COMPLETIONS, SqliteVocabulary } from '../../../../shared/adapters/local/sqlite-search-vocabulary';

describe('SqliteVocabulary completions', () => {
  let vocabulary: SqliteVocabulary;

  beforeEach(() => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE words (slot INTEGER NOT NULL, len INTEGER NOT NULL, word TEXT NOT NULL, PRIMARY KEY (slot, len, word)) WITHOUT ROWID');
    vocabulary = new SqliteVocabulary(db);
  });

  it("gives the workspace's words that start with the prefix, of every length, and no other", () => {
    // Arrange
    vocabulary.add(1, 'the thesis and its theses, thespians, a theme');

    // Act
    const words = vocabulary.completions(1, 'thes');

    // Assert
    expect(words?.sort()).toEqual(['theses', 'thesis', 'thespians']);
  });

  it('reads the prefix as the vocabulary writes words: without case or diacritics', () => {
    vocabulary.add(1, 'Thésis');

    expect(vocabulary.completions(1, 'THÉS')).toEqual(['thesis']);
  });

  it("never gives another workspace's words", () => {
    vocabulary.add(2, 'thesis');

    expect(vocabulary.completions(1, 'thes')).toEqual([]);
  });

  it.each([
    ['of three letters', 'the', ['the', 'thesis']],
    ['without a letter', '2024', ['20240115']],
  ])('completes a prefix %s from every token of the text, short words and numbers too', (_why, prefix, expected) => {
    vocabulary.add(1, 'the thesis 20240115 invoice');

    expect(vocabulary.completions(1, prefix)?.sort()).toEqual(expected);
  });

  it('leaves a prefix with a separator to FTS5 (null)', () => {
    vocabulary.add(1, 'thesis 20240115 invoice');

    expect(vocabulary.completions(1, 'in-vo')).toBeNull();
  });

  it(`leaves a prefix that stands for more than ${MAX_PREFIX_COMPLETIONS} words to FTS5 (null), and one that stands for exactly that many to its words`, () => {
    // Arrange: words "wordaaa", "wordaab", ... as many as the bound, then one more.
    const word = (n: number) => `word${n.toString(26).padStart(3, '0').replace(/[0-9a-p]/g, (c) => String.fromCharCode(97 + parseInt(c, 26)))}`;
    vocabulary.add(1, Array.from({ length: MAX_PREFIX_COMPLETIONS }, (_, n) => word(n)).join(' '));
    const atTheBound = vocabulary.completions(1, 'word');

    // Act
    vocabulary.add(1, word(MAX_PREFIX_COMPLETIONS));
    const beyond = vocabulary.completions(1, 'word');

    // Assert
    expect(atTheBound).toHaveLength(MAX_PREFIX_COMPLETIONS);
    expect(beyond).toBeNull();
  });

  describe('prefixTerms', () => {
    it("searches FTS5's own prefix where the stemmer keeps it, plus one word per stem it does not cover", () => {
      // Arrange: "consulting" stems to "consult", shorter than the prefix; "consultis" stems to itself.
      vocabulary.add(1, 'consulting consultis consultings');

      // Act
      const terms = vocabulary.prefixTerms(1, 'consulti');

      // Assert
      expect(terms).toEqual({ prefix: 'consulti', words: ['consulting'] });
    });

    it('searches only the words where the stemmer changes the prefix: "thes" is not searched as "the"', () => {
      vocabulary.add(1, 'the thesis and its theses');

      const terms = vocabulary.prefixTerms(1, 'thes');

      expect(terms?.prefix).toBeNull();
      expect(terms?.words.sort()).toEqual(['theses', 'thesis']);
    });

    it(`searches a prefix of more than ${MAX_PREFIX_COMPLETIONS} words that the stemmer keeps as FTS5's own prefix match`, () => {
      // Arrange: many words starting with "invo", which the stemmer keeps; "invoicing" is stemmed "invoic".
      vocabulary.add(1, [...Array.from({ length: MAX_PREFIX_COMPLETIONS + 10 }, (_, n) => `invo${n.toString(26).replace(/[0-9]/g, (d) => 'qrstuvwxyz'[Number(d)]!)}x`), 'invoicing'].join(' '));

      // Act
      const terms = vocabulary.prefixTerms(1, 'invo');

      // Assert
      expect(terms?.prefix).toBe('invo');
      expect(terms?.words).toHaveLength(0);
    });
  });
});
