import type Database from 'better-sqlite3';
import { fuzzyDistance, maxEdits, withinEdits } from '../../domain/search/text';
import { vocabulary } from './sqlite-search-schema';

/** Fuzzy alternatives of one word, at most: the closest are kept, so a query's work stays bounded. */
const MAX_FUZZY_ALTERNATIVES = 20;

/**
 * Each workspace's words (the `words` table, by slot), for fuzzy queries: a query word becomes itself OR its
 * close spellings among the words its own workspace's documents hold, never another's.
 */
export class SqliteVocabulary {
  /** Words already in each workspace's vocabulary (by slot): written once per process. */
  private readonly known = new Map<number, Set<string>>();
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      insertWord: db.prepare('INSERT OR IGNORE INTO words (slot, len, word) VALUES (?, ?, ?)'),
      wordsOfLength: db.prepare<[number, number, number], string>('SELECT word FROM words WHERE slot = ? AND len BETWEEN ? AND ?').pluck(),
    };
  }

  /** Adds the words of a document's indexed text to its workspace's vocabulary (inside the caller's write). */
  add(slot: number, text: string): void {
    let known = this.known.get(slot);
    if (!known) this.known.set(slot, (known = new Set()));
    for (const word of vocabulary(text)) {
      if (known.has(word)) continue;
      known.add(word);
      this.statements.insertWord.run(slot, word.length, word);
    }
  }

  /** The workspace's words within the word's edit distance, closest first, at most {@link MAX_FUZZY_ALTERNATIVES}. */
  alternatives(slot: number, word: string): string[] {
    const normalized = word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
    const edits = maxEdits(normalized.length);
    if (!edits || !/^[\p{L}\p{N}]+$/u.test(normalized)) return [];
    const candidates = this.statements.wordsOfLength.all(slot, normalized.length - edits, normalized.length + edits);
    return candidates
      .filter((candidate) => candidate !== normalized && withinEdits(normalized, candidate, edits))
      .map((candidate) => ({ candidate, distance: fuzzyDistance(normalized, candidate) }))
      .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
      .slice(0, MAX_FUZZY_ALTERNATIVES)
      .map(({ candidate }) => candidate);
  }

  /** Forgets what was written (after the table was emptied). */
  clear(): void {
    this.known.clear();
  }
}
