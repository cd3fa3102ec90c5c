/**
 * One glob compiled to a Thompson NFA and run as a Pike VM: every state the pattern can be in steps over the
 * text together, so a match costs at most the text's length times the program's, however the wildcards nest
 * (a backtracking RegExp takes exponential time on `*a*a*a…b`). The syntax is the one of ./file-patterns.ts.
 * No library: re2js would push the sources and source-sync bundles past their 600 KB target; RE2 is native.
 */

export class PatternError extends Error {}

/** What a pattern's bounds are checked on. */
export interface GlobShape {
  /** `*`, `**` and `?`, each counted once (escaped or in a class, they are literal). */
  wildcards: number;
  /** How deep `{}` nest (0: none). */
  braceDepth: number;
  /** The alternatives of all the pattern's `{}` together. */
  alternatives: number;
}

export interface Glob {
  shape: GlobShape;
  /** Whether the whole text matches, case-insensitively. */
  matches(text: string): boolean;
}

type GlobNode =
  | { kind: 'char'; folded: number }
  /** `?`: one character but '/'; `*` any run of them; `**` anything; `**\/` whole directories. */
  | { kind: 'one' | 'star' | 'any' | 'directories' }
  /** `[...]` as [low, high] pairs. */
  | { kind: 'class'; negated: boolean; ranges: number[] }
  | { kind: 'alternatives'; options: GlobNode[][] };

const SLASH = 0x2f;

/** Parses and compiles a pattern; a malformed one throws a PatternError saying what is wrong. */
export function compileGlob(pattern: string): Glob {
  const parser = new GlobParser(Array.from(pattern));
  const nodes = parser.sequence();
  return new GlobProgram(nodes, { wildcards: parser.wildcards, braceDepth: parser.maxDepth, alternatives: parser.alternatives });
}

class GlobParser {
  wildcards = 0;
  maxDepth = 0;
  alternatives = 0;
  private at = 0;
  private depth = 0;

  /** The pattern by code point, as `?` counts characters. */
  constructor(private readonly chars: string[]) {}

  /** Nodes up to the end, or within braces up to their next `,` or `}` (outside braces both are literal). */
  sequence(): GlobNode[] {
    const nodes: GlobNode[] = [];
    while (this.at < this.chars.length) {
      const char = this.chars[this.at]!;
      if (this.depth > 0 && (char === ',' || char === '}')) break;
      this.at++;
      if (char === '*') nodes.push(this.star());
      else if (char === '?') {
        this.wildcards++;
        nodes.push({ kind: 'one' });
      } else if (char === '[') nodes.push(this.characterClass());
      else if (char === '{') nodes.push(this.braces());
      else if (char === '\\') {
        const next = this.chars[this.at++];
        if (next === undefined) throw new PatternError('ends with a lone \\');
        nodes.push(literal(next));
      } else nodes.push(literal(char));
    }
    return nodes;
  }

  private star(): GlobNode {
    this.wildcards++;
    if (this.chars[this.at] !== '*') return { kind: 'star' };
    this.at++;
    // `**/` stands for zero or more whole directories; `**` elsewhere for anything, slashes included.
    if (this.chars[this.at] !== '/') return { kind: 'any' };
    this.at++;
    return { kind: 'directories' };
  }

  private characterClass(): GlobNode {
    // The first character may be a `]` of the class itself, as in `[]a]`.
    const end = this.chars.indexOf(']', this.at + 1);
    if (end === -1) throw new PatternError('has a [ without its ]');
    let body = this.chars.slice(this.at, end);
    this.at = end + 1;
    const negated = body[0] === '!' || body[0] === '^';
    if (negated) body = body.slice(1);
    if (!body.length) throw new PatternError('has an empty [] class');
    const ranges: number[] = [];
    for (let i = 0; i < body.length; i++) {
      const low = body[i]!.codePointAt(0)!;
      if (body[i + 1] !== '-' || i + 2 >= body.length) {
        ranges.push(low, low);
        continue;
      }
      const high = body[i + 2]!.codePointAt(0)!;
      if (high < low) throw new PatternError(`has a range out of order: ${body[i]}-${body[i + 2]}`);
      ranges.push(low, high);
      i += 2;
    }
    return { kind: 'class', negated, ranges };
  }

  private braces(): GlobNode {
    this.maxDepth = Math.max(this.maxDepth, ++this.depth);
    const options = [this.sequence()];
    while (this.chars[this.at] === ',') {
      this.at++;
      options.push(this.sequence());
    }
    if (this.chars[this.at] !== '}') throw new PatternError('has a { without its }');
    this.at++;
    this.depth--;
    this.alternatives += options.length;
    return { kind: 'alternatives', options };
  }
}

const literal = (char: string): GlobNode => ({ kind: 'char', folded: fold(char.codePointAt(0)!) });

/** The one code point a case mapping gives, or `fallback` when it gives several (`ß` upper-cases to `SS`). */
const single = (mapped: string, fallback: number): number => {
  const point = mapped.codePointAt(0)!;
  return mapped.length === (point > 0xffff ? 2 : 1) ? point : fallback;
};
const upper = (point: number): number => single(String.fromCodePoint(point).toUpperCase(), point);
const lower = (point: number): number => single(String.fromCodePoint(point).toLowerCase(), point);

/** A code point's case-insensitive form: lower case of upper case, so `ς`, `σ` and `Σ` are one. */
function fold(point: number): number {
  if (point < 0x80) return point >= 0x41 && point <= 0x5a ? point + 0x20 : point;
  return lower(upper(point));
}

// The program's instructions: each is an opcode and up to two arguments.
const CHAR = 0;
const ONE = 1;
const ANY = 2;
const CLASS = 3;
const SPLIT = 4;
const JUMP = 5;
const MATCH = 6;

class GlobProgram implements Glob {
  private readonly ops: number[] = [];
  private readonly first: number[] = [];
  private readonly second: number[] = [];
  private readonly classes: Array<{ negated: boolean; ranges: number[] }> = [];
  // The thread lists and marks of a run, kept between runs (a run is synchronous, so never shared by two).
  private current = new Int32Array(0);
  private next = new Int32Array(0);
  private stack = new Int32Array(0);
  private marks = new Uint32Array(0);
  private generation = 0;

  constructor(
    nodes: GlobNode[],
    readonly shape: GlobShape,
  ) {
    this.emitSequence(nodes);
    this.emit(MATCH);
  }

  matches(text: string): boolean {
    const size = this.ops.length;
    if (this.marks.length !== size) {
      [this.current, this.next, this.marks] = [new Int32Array(size), new Int32Array(size), new Uint32Array(size)];
      this.stack = new Int32Array(2 * size + 1);
    }
    let count = this.follow(this.current, 0, this.nextGeneration(), 0);
    for (const char of text) {
      if (count === 0) return false;
      const point = char.codePointAt(0)!;
      const folded = fold(point);
      const generation = this.nextGeneration();
      let nextCount = 0;
      for (let i = 0; i < count; i++) {
        const pc = this.current[i]!;
        if (this.consumes(pc, point, folded)) nextCount = this.follow(this.next, nextCount, generation, pc + 1);
      }
      [this.current, this.next] = [this.next, this.current];
      count = nextCount;
    }
    for (let i = 0; i < count; i++) if (this.ops[this.current[i]!] === MATCH) return true;
    return false;
  }

  private consumes(pc: number, point: number, folded: number): boolean {
    switch (this.ops[pc]) {
      case CHAR:
        return this.first[pc] === folded;
      case ONE:
        return point !== SLASH;
      case ANY:
        return true;
      case CLASS: {
        const { negated, ranges } = this.classes[this.first[pc]!]!;
        // Case-insensitive as a RegExp's /i is: any case of the character in the class will do.
        const inClass = inRanges(ranges, point) || inRanges(ranges, folded) || inRanges(ranges, upper(point));
        return negated ? !inClass && point !== SLASH : inClass;
      }
      default:
        return false;
    }
  }

  /** Adds `start` and what it reaches without reading a character to `list`, each state once per step. */
  private follow(list: Int32Array, count: number, generation: number, start: number): number {
    let top = 0;
    this.stack[top++] = start;
    while (top > 0) {
      const pc = this.stack[--top]!;
      if (this.marks[pc] === generation) continue;
      this.marks[pc] = generation;
      const op = this.ops[pc];
      if (op === JUMP) this.stack[top++] = this.first[pc]!;
      else if (op === SPLIT) {
        this.stack[top++] = this.second[pc]!;
        this.stack[top++] = this.first[pc]!;
      } else list[count++] = pc;
    }
    return count;
  }

  private nextGeneration(): number {
    if (++this.generation === 0xffffffff) {
      this.marks.fill(0);
      this.generation = 1;
    }
    return this.generation;
  }

  private emit(op: number, first = 0, second = 0): number {
    this.ops.push(op);
    this.first.push(first);
    this.second.push(second);
    return this.ops.length - 1;
  }

  /** A loop over `body`, taken zero or more times. */
  private repeat(body: () => void): void {
    const split = this.emit(SPLIT, this.ops.length + 1);
    body();
    this.emit(JUMP, split);
    this.second[split] = this.ops.length;
  }

  private emitSequence(nodes: GlobNode[]): void {
    for (const node of nodes) {
      switch (node.kind) {
        case 'char':
          this.emit(CHAR, node.folded);
          break;
        case 'one':
          this.emit(ONE);
          break;
        case 'star':
          this.repeat(() => this.emit(ONE));
          break;
        case 'any':
          this.repeat(() => this.emit(ANY));
          break;
        case 'directories':
          this.repeat(() => {
            this.repeat(() => this.emit(ONE));
            this.emit(CHAR, SLASH);
          });
          break;
        case 'class':
          this.emit(CLASS, this.classes.push({ negated: node.negated, ranges: node.ranges }) - 1);
          break;
        case 'alternatives':
          this.emitAlternatives(node.options);
      }
    }
  }

  private emitAlternatives(options: GlobNode[][]): void {
    const jumps: number[] = [];
    options.forEach((option, index) => {
      const last = index === options.length - 1;
      const split = last ? -1 : this.emit(SPLIT, this.ops.length + 1);
      this.emitSequence(option);
      if (last) return;
      jumps.push(this.emit(JUMP));
      this.second[split] = this.ops.length;
    });
    for (const jump of jumps) this.first[jump] = this.ops.length;
  }
}

function inRanges(ranges: number[], point: number): boolean {
  for (let i = 0; i < ranges.length; i += 2) if (point >= ranges[i]! && point <= ranges[i + 1]!) return true;
  return false;
}
