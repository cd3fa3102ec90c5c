import type Database from 'better-sqlite3';
import { fuzzyDistance, maxEdits, withinEdits } from '../../domain/search/text';
import { lengthKey, MAX_TOKEN_LENGTH, tokens } from './sqlite-search-schema';

/** Fuzzy alternatives of one word, at most: the closest are kept, so a query's work stays bounded. */
const MAX_FUZZY_ALTERNATIVES = 20;
/** Words a prefix may stand for, at most; a broader prefix is left to FTS5's own prefix match (see completions). */
export const MAX_PREFIX_COMPLETIONS = 256;
/** Words of a prefix whose stems are looked at, at most: most are then covered by FTS5's own prefix match. */
const MAX_STEMMED_COMPLETIONS = 4096;
/** The words a typo or a prefix stands for: 4 to 40 characters with a letter (the vocabulary holds every token). */
const MIN_WORD_LENGTH = 4;
const MAX_WORD_LENGTH = 40;
const isWord = (token: string) => token.length >= MIN_WORD_LENGTH && token.length <= MAX_WORD_LENGTH && /\p{L}/u.test(token);

const normalize = (word: string) => word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * Each workspace's tokens (the `words` table, by slot), for fuzzy and prefix queries: a query word becomes itself
 * OR its close spellings, and a prefix the words that start with it, among the words its own workspace's
 * documents hold, never another's. The same tokens, by trigram, answer substrings (sqlite-search-substrings.ts).
 */
export class SqliteVocabulary {
  /** Each workspace's vocabulary in memory (by slot), read from the table at its first use. */
  private readonly known = new Map<number, SlotWords>();
  private readonly statements;

  private readonly stemmer: SqliteStemmer;

  constructor(db: Database.Database) {
    this.stemmer = new SqliteStemmer(db);
    this.statements = {
      insertWord: db.prepare('INSERT OR IGNORE INTO words (slot, len, word) VALUES (?, ?, ?)'),
      wordsOf: db.prepare<[number], { len: number; word: string }>('SELECT len, word FROM words WHERE slot = ?'),
      // One length at a time: each is a range of the primary key (slot, len, word).
      wordsStartingWith: db
        .prepare<[number, number, string, string, number], string>('SELECT word FROM words WHERE slot = ? AND len = ? AND word >= ? AND word < ? LIMIT ?')
        .pluck(),
    };
  }

  /**
   * Adds the tokens of a document's indexed text to its workspace's vocabulary (inside the caller's write) and
   * returns those the vocabulary did not hold yet.
   */
  add(slot: number, text: string): string[] {
    const known = this.wordsOf(slot);
    const added: string[] = [];
    for (const token of tokens(text)) {
      if (known.all.has(token)) continue;
      known.all.add(token);
      if (isWord(token)) known.byLength.add(token);
      if (this.statements.insertWord.run(slot, lengthKey(token), token).changes) added.push(token);
    }
    return added;
  }

  private wordsOf(slot: number): SlotWords {
    let known = this.known.get(slot);
    if (!known) {
      known = { all: new Set(), byLength: new WordsByLength() };
      for (const { word } of this.statements.wordsOf.iterate(slot)) {
        known.all.add(word);
        if (isWord(word)) known.byLength.add(word);
      }
      this.known.set(slot, known);
    }
    return known;
  }

  /** Forgets what it knew of a slot's words (its rows were deleted: a workspace's erasure). */
  forget(slot: number): void {
    this.known.delete(slot);
  }

  /** The workspace's words within the word's edit distance, closest first, at most {@link MAX_FUZZY_ALTERNATIVES}. */
  alternatives(slot: number, word: string): string[] {
    const normalized = normalize(word);
    const edits = maxEdits(normalized.length);
    if (!edits || !/^[\p{L}\p{N}]+$/u.test(normalized)) return [];
    const candidates = this.wordsOf(slot).byLength.near(normalized, edits);
    return candidates
      .filter((candidate) => candidate !== normalized && withinEdits(normalized, candidate, edits))
      .map((candidate) => ({ candidate, distance: fuzzyDistance(normalized, candidate) }))
      .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
      .slice(0, MAX_FUZZY_ALTERNATIVES)
      .map(({ candidate }) => candidate);
  }

  /**
   * The workspace's words that start with the prefix, for `prefix*`: FTS5 would run the porter stemmer over the
   * prefix itself (`thes*` searched as `the*`) and match it against stems (`runn*` missing "running", stemmed
   * "run"), so a prefix becomes the tokens it stands for, each then stemmed as a word. Null where the vocabulary
   * cannot say: a prefix with a separator in it, or one that stands for more than {@link MAX_PREFIX_COMPLETIONS}
   * tokens (FTS5's own prefix match, to keep the query's work bounded).
   */
  completions(slot: number, prefix: string, limit = MAX_PREFIX_COMPLETIONS): string[] | null {
    const normalized = normalize(prefix);
    if (!/^[\p{L}\p{N}]+$/u.test(normalized)) return null;
    // Every word that starts with the prefix sorts below the prefix with its last character raised by one.
    const end = normalized.slice(0, -1) + String.fromCodePoint(normalized.codePointAt(normalized.length - 1)! + 1);
    const words: string[] = [];
    // A prefix with a letter completes to words only; one of digits to numbers and words.
    const signs = /\p{L}/u.test(normalized) ? [1] : [-1, 1];
    for (const sign of signs) {
      for (let length = normalized.length; length <= MAX_TOKEN_LENGTH; length++) {
        words.push(...this.statements.wordsStartingWith.all(slot, sign * length, normalized, end, limit + 1 - words.length));
        if (words.length > limit) return null;
      }
    }
    return words;
  }

  /**
   * What `prefix*` is searched as: FTS5's own prefix match where the stemmer leaves the prefix as it is (it then
   * matches every stem that starts with it: one merged doclist instead of an OR of every word), and one word for
   * each stem of the prefix's words that this does not cover (a stem shorter than the prefix: "consulti*"
   * finds "consulting", stemmed "consult"). Where the stemmer changes the prefix ("thes" → "the"), only the
   * words. Null (FTS5's prefix match, bounded work) for a prefix of more than {@link MAX_STEMMED_COMPLETIONS}
   * words, or one that needs more than {@link MAX_PREFIX_COMPLETIONS} words to be searched.
   */
  prefixTerms(slot: number, prefix: string): { prefix: string | null; words: string[] } | null {
    const words = this.completions(slot, prefix, MAX_STEMMED_COMPLETIONS);
    if (!words) return null;
    const normalized = normalize(prefix);
    const [own, ...stems] = this.stemmer.stems([normalized, ...words]);
    const native = own === normalized ? normalized : null;
    const byStem = new Map<string, string>();
    words.forEach((word, i) => {
      const stem = stems[i]!;
      if (!(native && stem.startsWith(native)) && !byStem.has(stem)) byStem.set(stem, word);
    });
    if (byStem.size > MAX_PREFIX_COMPLETIONS) return null;
    return { prefix: native, words: [...byStem.values()] };
  }

  /** Forgets what was written (after the table was emptied). */
  clear(): void {
    this.known.clear();
  }
}

/** A workspace's vocabulary in memory: every token (to write each once), and its words by length for typos. */
interface SlotWords {
  all: Set<string>;
  byLength: WordsByLength;
}

/** Which of 32 letter classes a word holds (a character's code modulo 32), one bit each. */
function letterMask(word: string): number {
  let mask = 0;
  for (let i = 0; i < word.length; i++) mask |= 1 << (word.charCodeAt(i) & 31);
  return mask;
}

function bits(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * Words grouped by length, each with its letter mask. An edit brings in at most one letter class and takes out
 * at most one (a transposition neither), so a word whose mask differs from the query's by more than `edits`
 * classes either way cannot be within `edits`: most of the vocabulary is passed over with two bit operations
 * before any edit distance is computed.
 */
class WordsByLength {
  private readonly lengths = new Map<number, { words: string[]; masks: number[] }>();

  add(word: string): void {
    let group = this.lengths.get(word.length);
    if (!group) this.lengths.set(word.length, (group = { words: [], masks: [] }));
    group.words.push(word);
    group.masks.push(letterMask(word));
  }

  /** The words whose length and letters allow them to be within `edits` of `word`. */
  near(word: string, edits: number): string[] {
    const mask = letterMask(word);
    const found: string[] = [];
    for (let length = word.length - edits; length <= word.length + edits; length++) {
      const group = this.lengths.get(length);
      if (!group) continue;
      const { words, masks } = group;
      for (let i = 0; i < words.length; i++) {
        const other = masks[i]!;
        if (bits(mask & ~other) <= edits && bits(other & ~mask) <= edits) found.push(words[i]!);
      }
    }
    return found;
  }
}

/**
 * Words stemmed by FTS5's own porter tokenizer (the one `fts_N` uses), through a temporary FTS5 table of this
 * connection and its `fts5vocab` view: JavaScript has no stemmer that is sure to agree with it.
 */
export class SqliteStemmer {
  private readonly statements;

  constructor(private readonly db: Database.Database) {
    db.exec(`
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.stemmer USING fts5(word, tokenize = 'porter unicode61 remove_diacritics 2');
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.stemmer_terms USING fts5vocab(temp, stemmer, 'instance');
    `);
    this.statements = {
      insert: db.prepare<[number, string]>('INSERT INTO temp.stemmer (rowid, word) VALUES (?, ?)'),
      read: db.prepare<[], { doc: number; term: string }>('SELECT doc, term FROM temp.stemmer_terms'),
      clear: db.prepare('DELETE FROM temp.stemmer'),
    };
  }

  /** The stem of each word (a word of one token, as the vocabulary holds them). */
  stems(words: string[]): string[] {
    const stems = [...words];
    this.db.transaction(() => {
      words.forEach((word, i) => this.statements.insert.run(i + 1, word));
      for (const { doc, term } of this.statements.read.all()) stems[doc - 1] = term;
      this.statements.clear.run();
    })();
    return stems;
  }
}
