/**
 * The phrase index: each workspace's `pairs_N` holds, at every word position of its documents, one token standing
 * for that word and the next when both are common words (`of the` is the token `of0the`), else a filler token.
 * Each of its rows thus has exactly as many tokens per column as the same row of `fts_N`, so FTS5's BM25 over it
 * (the row count, each row's length, the average length, the documents holding a term, each column's instances)
 * computes the very score the phrase gets in `fts_N`, from one doclist instead of two position lists.
 */
import type Database from 'better-sqlite3';
import { COLUMNS, LIVE_TEXT, pairsTableSql, rowidRange, workspaceTables, type Column } from './sqlite-search-schema';
import { SqliteStemmer } from './sqlite-search-vocabulary';

/**
 * Common words of English: a phrase made only of these reads, in `fts_N`, position lists of words that most
 * documents hold many times over (`of the`: two doclists of nearly every document). Their adjacent pairs get a
 * term each. Other phrases keep to `fts_N`: one of their words is rarer, and its doclist bounds the work.
 */
const COMMON_WORDS = `
a about above after again against all also am an and any are as at back be because been before being below between
both but by can could did do does doing down during each even first few for from further get give go good had has have
having he her here hers herself him himself his how i if in into is it its itself just know like make me more most
much must my myself new no nor not now of off on once one only or other our ours ourselves out over own people
same say see she should so some such take than that the their theirs them themselves then there these they this those
through time to too two under until up upon us use very was way we well were what when where which while who whom
whose why will with within without work would year you your yours yourself yourselves s t d ll m re ve
`
  .split(/\s+/)
  .filter(Boolean);

/** Stands at a position whose word and the next are not both common: every position holds one token. */
const FILLER = '0';
/**
 * Porter strips at most this many characters from a word (sses, ing, ational, ative, ement, e together): a token
 * longer than the longest common stem by more cannot stem to a common word.
 */
const MAX_STRIPPED = 20;
/** Words whose stem is remembered, at most: OCR text brings words without end, and a forgotten one is stemmed again. */
const MAX_REMEMBERED = 200_000;

/**
 * Turns a document's columns into the pair table's text, and a phrase into the pair table's terms. Words are
 * stemmed by FTS5's own porter tokenizer (the one `fts_N` uses). An ASCII text is split into words here (the
 * unicode61 tokenizer splits ASCII at every character that is not a letter or a digit, so the positions agree);
 * any other text is tokenized by FTS5 itself, through a temporary table, so that no character class or folding
 * can differ.
 */
export class PairText {
  private readonly stemmer: SqliteStemmer;
  private readonly common: Set<string>;
  /** The common stems, sorted and joined: what the pair tables of a file were written with. */
  readonly commonKey: string;
  private readonly longestToken: number;
  /** Lower-case ASCII words and their stems if common, else null (a word's stem never changes). */
  private readonly commonOf = new Map<string, string | null>();
  private readonly statements;

  constructor(private readonly db: Database.Database) {
    this.stemmer = new SqliteStemmer(db);
    this.common = new Set(this.stemmer.stems(COMMON_WORDS));
    this.commonKey = [...this.common].sort().join(' ');
    this.longestToken = Math.max(...[...this.common].map((stem) => stem.length)) + MAX_STRIPPED;
    db.exec(`
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.pair_source USING fts5(${COLUMNS.join(', ')}, tokenize = 'porter unicode61 remove_diacritics 2');
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.pair_source_terms USING fts5vocab(temp, pair_source, 'instance');
    `);
    this.statements = {
      insert: db.prepare<string[]>(`INSERT INTO temp.pair_source (rowid, ${COLUMNS.join(', ')}) VALUES (1, ?, ?, ?, ?, ?)`),
      read: db.prepare<[], { term: string; col: Column; offset: number }>('SELECT term, col, offset FROM temp.pair_source_terms'),
      clear: db.prepare('DELETE FROM temp.pair_source'),
    };
  }

  /** The pair table's text of a document's columns (in {@link COLUMNS} order). */
  columns(values: string[]): string[] {
    // eslint-disable-next-line no-control-regex
    const ascii = values.every((value) => !/[^\x00-\x7f]/.test(value));
    const words = ascii ? values.map((value) => this.commonStems(value.toLowerCase().match(/[a-z0-9]+/g) ?? [])) : this.tokenized(values);
    return words.map(pairTokens);
  }

  /**
   * The pair table's terms of a quoted phrase, in order (`of the` → [`of0the`]; `out of the` → [`out0of`,
   * `of0the`], a phrase of them), or null when the phrase has fewer than two words or a word that is not common.
   * The phrase is tokenized by FTS5, as `fts_N`'s query parser tokenizes it.
   */
  phraseTerms(phrase: string): string[] | null {
    const stems = this.tokenized([phrase.replace(/\0/g, ' '), '', '', '', ''])[0]!;
    if (stems.length < 2 || stems.some((stem) => stem === null)) return null;
    return stems.slice(1).map((stem, i) => `${stems[i]}${FILLER}${stem}`);
  }

  /** Each token's stem if it is a common word, else null. */
  private commonStems(tokens: string[]): (string | null)[] {
    const stems: (string | null)[] = new Array(tokens.length);
    let unknown: number[] | null = null;
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      const known = this.commonOf.get(token);
      if (known !== undefined) stems[i] = known;
      else if (this.mayBeCommon(token)) (unknown ??= []).push(i);
      else stems[i] = null;
    }
    if (unknown) {
      if (this.commonOf.size > MAX_REMEMBERED) this.commonOf.clear();
      const distinct = [...new Set(unknown.map((i) => tokens[i]!))];
      this.stemmer.stems(distinct).forEach((stem, i) => this.commonOf.set(distinct[i]!, this.common.has(stem) ? stem : null));
      for (const i of unknown) stems[i] = this.commonOf.get(tokens[i]!)!;
    }
    return stems;
  }

  /** Porter strips suffixes of letters: a token with a digit, or too long, never stems to a common word. */
  private mayBeCommon(token: string): boolean {
    return token.length <= this.longestToken && /^[a-z]+$/.test(token);
  }

  /** The columns' words as FTS5 tokenizes them: each position's stem if it is a common word, else null. */
  private tokenized(values: string[]): (string | null)[][] {
    const words = COLUMNS.map((): (string | null)[] => []);
    this.db.transaction(() => {
      this.statements.insert.run(...values);
      for (const { term, col, offset } of this.statements.read.iterate()) {
        const column = words[COLUMNS.indexOf(col)]!;
        while (column.length <= offset) column.push(null);
        if (this.common.has(term)) column[offset] = term;
      }
      this.statements.clear.run();
    })();
    return words;
  }
}

/** One token per position: the pair of this word and the next when both are common, else the filler. */
function pairTokens(stems: (string | null)[]): string {
  const out: string[] = new Array(stems.length);
  for (let i = 0; i < stems.length; i++) {
    const here = stems[i];
    const next = stems[i + 1];
    out[i] = here !== null && here !== undefined && next !== null && next !== undefined ? `${here}${FILLER}${next}` : FILLER;
  }
  return out.join(' ');
}

/**
 * Adopts a file written before the pair tables, or with another list of common words (its pair tables are
 * dropped: a row is taken out of a pair table by its pair text, which the list decides): each workspace with
 * documents gets its pair table, filled from the text in `docs`, one transaction per workspace (a crash leaves
 * the rest to the next start).
 */
export function adoptPairTables(db: Database.Database, pairText: PairText): void {
  db.exec('CREATE TABLE IF NOT EXISTS pair_words (words TEXT NOT NULL)');
  if (db.prepare<[], string>('SELECT words FROM pair_words').pluck().get() !== pairText.commonKey) {
    db.transaction(() => {
      const tables = db
        .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'pairs_[0-9]*' AND sql LIKE 'CREATE VIRTUAL TABLE%'")
        .pluck()
        .all();
      for (const table of tables) db.exec(`DROP TABLE ${table}`);
      db.exec('DELETE FROM pair_words');
      db.prepare('INSERT INTO pair_words (words) VALUES (?)').run(pairText.commonKey);
    })();
  }
  const exists = db.prepare<[string], number>('SELECT count(*) FROM sqlite_master WHERE name = ?').pluck();
  const slots = db.prepare<[], number>('SELECT DISTINCT slot FROM docs WHERE deleted = 0 ORDER BY slot').pluck().all();
  for (const slot of slots.filter((slot) => exists.get(workspaceTables(slot).pairs) === 0)) {
    db.transaction(() => {
      const { pairs } = workspaceTables(slot);
      db.exec(pairsTableSql(slot));
      const insert = db.prepare<[number, ...string[]]>(`INSERT INTO ${pairs} (rowid, ${COLUMNS.join(', ')}) VALUES (?, ?, ?, ?, ?, ?)`);
      const { first, last } = rowidRange(slot);
      // A page at a time: the connection cannot write while it steps through a read.
      const page = db.prepare<[number, number], { rid: number } & Record<Column, string>>(`${LIVE_TEXT} LIMIT 1000`);
      for (let rows = page.all(first, last); rows.length; rows = page.all(rows[rows.length - 1]!.rid + 1, last)) {
        for (const row of rows) insert.run(row.rid, ...pairText.columns(COLUMNS.map((column) => row[column])));
      }
    })();
  }
}
