import { validationError, type AppError } from '../errors';
import { SEARCH_FIELDS, type QueryNode, type SearchField } from './ports';

/** Longer queries are refused: every word costs an index lookup. */
export const MAX_QUERY_LENGTH = 1000;
/** Words, phrases and prefixes in one query, at most. */
export const MAX_QUERY_TERMS = 32;

type Token =
  | { type: 'word'; text: string; field: SearchField }
  | { type: 'phrase'; text: string; field: SearchField }
  | { type: 'and' | 'or' | 'not' | 'open' | 'close' | 'require' };

const OPERATORS: Record<string, 'and' | 'or' | 'not'> = { AND: 'and', OR: 'or', NOT: 'not', '&&': 'and', '||': 'or' };

/**
 * Separators between words: white space and control characters, as the index's tokenizers see them. (NUL is
 * refused by the HTTP layer; here it also only separates, so it can never reach an FTS5 query string.)
 */
const SEPARATOR = /[\s\p{Cc}]/u;
const SEPARATORS = /[\s\p{Cc}]+/gu;

/** A word or phrase has something to search for only when it holds a letter or a digit. */
const SEARCHABLE = /[\p{L}\p{N}]/u;

const invalid = (reason: string, field = 'q'): AppError => validationError(`The search query is not valid: ${reason}`, [{ field, reason }]);

/**
 * Parses the search box syntax into a QueryNode:
 * - words are AND-ed (`invoice 2024`), matched by stem;
 * - `"quoted phrases"` match words in that order; `prefix*` matches words starting with `prefix`;
 * - `AND`, `OR`, `NOT` (upper case; `&&`, `||` too), `+word` (required) and `-word` (excluded), `( )` to group;
 *   OR binds looser than AND, so `a b OR c` is `(a AND b) OR c`;
 * - `field:value` limits a word or phrase to one of title, filename, content, labels, metadata (`all` is the
 *   default); an unknown `name:` is taken as part of the word (`12:30`, `http://x`).
 * Anything that cannot be searched is a VALIDATION_ERROR naming the problem (field `q`): an empty query, one
 * that only excludes, an excluded alternative, unbalanced quotes or parentheses, too long or too many words.
 */
export function parseSearchQuery(input: string): QueryNode {
  if (input.length > MAX_QUERY_LENGTH) throw invalid(`must be at most ${MAX_QUERY_LENGTH} characters`);
  const tokens = tokenize(input);
  const terms = tokens.filter((t) => t.type === 'word' || t.type === 'phrase').length;
  if (terms === 0) throw invalid('has no words to search for');
  if (terms > MAX_QUERY_TERMS) throw invalid(`may hold at most ${MAX_QUERY_TERMS} words and phrases`);
  const parser = new Parser(tokens);
  const node = parser.parseOr();
  if (!parser.done()) throw invalid('has a closing parenthesis without an opening one');
  if (!node) throw invalid('has no words to search for');
  assertSearchable(node);
  return node;
}

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const char = input[i]!;
    if (SEPARATOR.test(char)) {
      i++;
    } else if (char === '(' || char === ')') {
      tokens.push({ type: char === '(' ? 'open' : 'close' });
      i++;
    } else if (char === '"') {
      const end = input.indexOf('"', i + 1);
      if (end < 0) throw invalid('has a quote that is not closed');
      pushPhrase(tokens, input.slice(i + 1, end), 'all');
      i = end + 1;
    } else {
      let end = i;
      while (end < input.length && !SEPARATOR.test(input[end]!) && !'()"'.includes(input[end]!)) end++;
      const raw = input.slice(i, end);
      i = end;
      const operator = OPERATORS[raw];
      if (operator) {
        tokens.push({ type: operator });
        continue;
      }
      const sign = raw[0] === '-' || raw[0] === '+' ? raw[0] : '';
      const word = raw.slice(sign.length);
      if (sign === '-') tokens.push({ type: 'not' });
      if (sign === '+') tokens.push({ type: 'require' });
      const fielded = /^([a-z_]+):(.*)$/i.exec(word);
      const field = fielded && (SEARCH_FIELDS as readonly string[]).includes(fielded[1]!.toLowerCase()) ? (fielded[1]!.toLowerCase() as SearchField) : null;
      if (field && fielded![2] === '' && input[i] === '"') {
        const close = input.indexOf('"', i + 1);
        if (close < 0) throw invalid('has a quote that is not closed');
        pushPhrase(tokens, input.slice(i + 1, close), field);
        i = close + 1;
      } else {
        tokens.push({ type: 'word', text: field ? fielded![2]! : word, field: field ?? 'all' });
      }
    }
  }
  return tokens.filter((token, index) => {
    // Signs and words without anything searchable (a lone "-", "&") are dropped, with the sign they carry.
    if (token.type === 'word') return SEARCHABLE.test(token.text);
    if (token.type === 'not' || token.type === 'require') {
      const next = tokens[index + 1];
      return !next || next.type !== 'word' || SEARCHABLE.test(next.text);
    }
    return true;
  });
}

function pushPhrase(tokens: Token[], text: string, field: SearchField): void {
  const words = text.replace(SEPARATORS, ' ').trim();
  if (SEARCHABLE.test(words)) tokens.push({ type: 'phrase', text: words, field });
}

class Parser {
  private position = 0;

  constructor(private readonly tokens: Token[]) {}

  done(): boolean {
    return this.position >= this.tokens.length;
  }

  parseOr(): QueryNode | null {
    const children: QueryNode[] = [];
    let child = this.parseAnd();
    if (child) children.push(child);
    while (this.peek()?.type === 'or') {
      this.position++;
      child = this.parseAnd();
      if (child) children.push(child);
    }
    return combine('or', children);
  }

  private parseAnd(): QueryNode | null {
    const children: QueryNode[] = [];
    for (;;) {
      const next = this.peek();
      if (!next || next.type === 'or' || next.type === 'close') break;
      if (next.type === 'and') {
        this.position++;
        continue;
      }
      const child = this.parseUnary();
      if (child) children.push(child);
    }
    return combine('and', children);
  }

  /** One word, phrase or group with its signs; null when an operator has nothing to apply to ("a NOT"). */
  private parseUnary(): QueryNode | null {
    const token = this.peek();
    if (!token || token.type === 'or' || token.type === 'close' || token.type === 'and') return null;
    this.position++;
    switch (token.type) {
      case 'not': {
        const child = this.parseUnary();
        return child ? { kind: 'not', child } : null;
      }
      case 'require':
        return this.parseUnary();
      case 'open': {
        const inner = this.parseOr();
        if (this.peek()?.type !== 'close') throw invalid('has an opening parenthesis without a closing one');
        this.position++;
        return inner;
      }
      case 'word': {
        const value = token.text.replace(/\*+$/u, '');
        return value.length < token.text.length ? { kind: 'term', field: token.field, value, prefix: true } : { kind: 'term', field: token.field, value };
      }
      case 'phrase':
        return { kind: 'phrase', field: token.field, value: token.text };
    }
  }

  private peek(): Token | undefined {
    return this.tokens[this.position];
  }
}

function combine(kind: 'and' | 'or', children: QueryNode[]): QueryNode | null {
  const flat = children.flatMap((child) => (child.kind === kind ? child.children : [child]));
  if (flat.length === 0) return null;
  if (flat.length === 1) return flat[0]!;
  return { kind, children: flat };
}

/**
 * An index answers "documents with X", never "every document without X": each `not` must sit in an `and`
 * beside something positive, and a query must have something positive at its top.
 */
function assertSearchable(node: QueryNode): void {
  const check = (current: QueryNode, parent: QueryNode | null): void => {
    if (current.kind === 'not') {
      if (parent?.kind !== 'and') {
        throw invalid(parent?.kind === 'or' ? 'an excluded word cannot be an alternative (OR NOT)' : 'needs at least one word that is not excluded');
      }
      check(current.child, current);
    } else if (current.kind === 'and' || current.kind === 'or') {
      if (current.kind === 'and' && current.children.every((child) => child.kind === 'not')) {
        throw invalid('needs at least one word that is not excluded');
      }
      for (const child of current.children) check(child, current);
    }
  };
  check(node, null);
}

/** Whether a tree can be answered by an index (the same rule the parser enforces), for built trees. */
export function assertSearchableQuery(node: QueryNode, field = 'query'): void {
  try {
    assertSearchable(node);
  } catch {
    throw invalid('needs at least one condition that is not excluded (must or should)', field);
  }
}

/** `contains` needs three characters: both indexes find substrings through their three-letter pieces. */
export const MIN_CONTAINS_LENGTH = 3;
