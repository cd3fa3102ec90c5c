import type Database from 'better-sqlite3';
import { fuzzyDistance, maxEdits, withinEdits } from '../../domain/search/text';
import { MAX_TOKEN_LENGTH, tokens } from './sqlite-search-schema';

/** Fuzzy alternatives of one word, at most: the closest are kept, so a query's work stays bounded. */
const MAX_FUZZY_ALTERNATIVES = 20;
/** Words a prefix may stand for, at most; a broader prefix is left to FTS5's own prefix match (see completions). */
export const MAX_PREFIX_COMPLETIONS = 256;
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
  /** Words already in each workspace's vocabulary (by slot): written once per process. */
  private readonly known = new Map<number, Set<string>>();
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      insertWord: db.prepare('INSERT OR IGNORE INTO words (slot, len, word) VALUES (?, ?, ?)'),
      wordsOfLength: db.prepare<[number, number, number], string>('SELECT word FROM words WHERE slot = ? AND len BETWEEN ? AND ?').pluck(),
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
    let known = this.known.get(slot);
    if (!known) this.known.set(slot, (known = new Set()));
    const added: string[] = [];
    for (const token of tokens(text)) {
      if (known.has(token)) continue;
      known.add(token);
      if (this.statements.insertWord.run(slot, token.length, token).changes) added.push(token);
    }
    return added;
  }

  /** The workspace's words within the word's edit distance, closest first, at most {@link MAX_FUZZY_ALTERNATIVES}. */
  alternatives(slot: number, word: string): string[] {
    const normalized = normalize(word);
    const edits = maxEdits(normalized.length);
    if (!edits || !/^[\p{L}\p{N}]+$/u.test(normalized)) return [];
    const candidates = this.statements.wordsOfLength.all(slot, normalized.length - edits, normalized.length + edits);
    return candidates
      .filter((candidate) => candidate !== normalized && isWord(candidate) && withinEdits(normalized, candidate, edits))
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
  completions(slot: number, prefix: string): string[] | null {
    const normalized = normalize(prefix);
    if (!/^[\p{L}\p{N}]+$/u.test(normalized)) return null;
    // Every word that starts with the prefix sorts below the prefix with its last character raised by one.
    const end = normalized.slice(0, -1) + String.fromCodePoint(normalized.codePointAt(normalized.length - 1)! + 1);
    const words: string[] = [];
    for (let length = normalized.length; length <= MAX_TOKEN_LENGTH; length++) {
      words.push(...this.statements.wordsStartingWith.all(slot, length, normalized, end, MAX_PREFIX_COMPLETIONS + 1 - words.length));
      if (words.length > MAX_PREFIX_COMPLETIONS) return null;
    }
    return words;
  }

  /** Forgets what was written (after the table was emptied). */
  clear(): void {
    this.known.clear();
  }
}
