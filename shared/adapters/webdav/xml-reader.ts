/**
 * A strict XML reader for what WebDAV servers answer: elements, attributes, text, CDATA, comments and processing
 * instructions, with namespaces resolved. A multistatus never needs a DTD, so a DOCTYPE is refused (entity
 * expansion has no way in), and so is any entity but XML's five and character references. Anything not
 * well-formed throws {@link MalformedXml}, and so does a document beyond {@link XmlLimits}: nesting is walked
 * with a stack of its own, never the call stack, and the number of elements bounds the tree's memory.
 *
 * {@link XmlStreamReader} takes the text piece by piece, so a caller can read a body as it arrives and hand the
 * event loop back between pieces; with `onRootChild` only one child of the root is held at a time.
 */
import { decodeReferences, NAME, SPACE } from './xml-syntax';

/** One element with its namespace resolved: servers pick any prefix (`D:`, `d:`, `lp1:`) or a default xmlns. */
export interface XmlElement {
  /** The namespace URI; null for a name without one (or with a prefix nobody declared). */
  ns: string | null;
  local: string;
  children: XmlElement[];
  /** The element's own text nodes (CDATA included), each trimmed, joined. */
  text: string;
}

export class MalformedXml extends Error {
  constructor(reason: string, at: number) {
    super(`${reason} at offset ${at}`);
    this.name = 'MalformedXml';
  }
}

const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
/** The longest markup start told apart before dispatching (`<![CDATA[`). */
const LONGEST_OPENER = 9;

/** How deep and how large a document may be; a hostile server cannot make the tree outgrow them. */
export interface XmlLimits {
  /** A multistatus is about 6 levels deep; extension properties add a few. @default 64 */
  maxDepth?: number;
  /** Elements in the whole document: bounds the memory of a tree when all of it is kept. @default 2,000,000 */
  maxElements?: number;
  /**
   * The longest tag, text run, comment or CDATA section of a document given in pieces, in characters: one that
   * waits for its end is read again as more arrives, so this bounds what one piece costs. @default 65,536
   */
  maxTokenLength?: number;
}

export interface XmlStreamOptions extends XmlLimits {
  /**
   * Takes each child of the root once it is closed, in place of keeping it under the root, so only one child's
   * tree is held at a time. `root` is the root as read so far (its own children left out).
   */
  onRootChild?: (child: XmlElement, root: XmlElement) => void;
  /** With `onRootChild`: how many elements one child of the root may hold. @default no limit */
  maxChildElements?: number;
}

interface Open {
  qname: string;
  element: XmlElement;
  scope: ReadonlyMap<string, string>;
  text: string[];
}

/** Thrown inside a step when the text given so far ends before the token does; never leaves the reader. */
const NEED_MORE = Symbol('need more');

const ROOT_SCOPE: ReadonlyMap<string, string> = new Map([['xml', XML_NAMESPACE]]);

/**
 * Reads a document given in pieces ({@link XmlStreamReader.write}, then {@link XmlStreamReader.end}). Each
 * token is read whole or not at all: one cut by the end of a piece waits for the next, so pieces may be cut
 * anywhere. Each write costs about its own length (plus a token waiting for its end, at most `maxTokenLength`).
 */
export class XmlStreamReader {
  private buffer = '';
  private at = 0;
  /** Characters dropped from the buffer's start, for offsets in messages. */
  private consumed = 0;
  private final = false;
  private phase: 'prolog' | 'body' | 'epilog' = 'prolog';
  private root: XmlElement | undefined;
  private readonly stack: Open[] = [];
  private elements = 0;
  private childElements = 0;
  private readonly limits: Required<XmlLimits> & { maxChildElements: number };
  private readonly onRootChild: XmlStreamOptions['onRootChild'];

  constructor(options: XmlStreamOptions = {}) {
    this.limits = {
      maxDepth: options.maxDepth ?? 64,
      maxElements: options.maxElements ?? 2_000_000,
      maxTokenLength: options.maxTokenLength ?? 65_536,
      maxChildElements: options.maxChildElements ?? Infinity,
    };
    this.onRootChild = options.onRootChild;
  }

  /** Reads what `text` completes. @throws MalformedXml, or whatever `onRootChild` throws. */
  write(text: string): void {
    if (this.final) throw new Error('write after end');
    this.buffer = this.at < this.buffer.length ? this.buffer.slice(this.at) + text : text;
    this.consumed += this.at;
    this.at = 0;
    this.pump();
    if (this.buffer.length - this.at > this.limits.maxTokenLength) {
      this.fail(`a tag, text or comment longer than ${this.limits.maxTokenLength} characters`);
    }
  }

  /** Reads `text` (if any) and the end of the document; answers the root element. @throws MalformedXml */
  end(text = ''): XmlElement {
    this.buffer = this.buffer.slice(this.at) + text;
    this.consumed += this.at;
    this.at = 0;
    this.final = true;
    this.pump();
    if (this.at < this.buffer.length) this.fail('content after the root element');
    return this.root!;
  }

  private pump(): void {
    for (;;) {
      const start = this.at;
      try {
        if (!this.step()) return;
      } catch (error) {
        if (error !== NEED_MORE) throw error;
        this.at = start;
        return;
      }
    }
  }

  /** Reads one token of the current phase; false when the document is over. */
  private step(): boolean {
    if (this.phase === 'body') {
      this.bodyToken();
      if (this.stack.length === 0) this.phase = 'epilog';
      return true;
    }
    if (this.phase === 'prolog' && this.consumed + this.at === 0 && this.buffer.charCodeAt(0) === 0xfeff) this.at = 1;
    if (this.misc()) return true;
    if (this.phase === 'epilog') {
      if (this.at < this.buffer.length) this.fail('content after the root element');
      return false;
    }
    if (this.buffer.startsWith('<!', this.at)) this.fail('a DTD or declaration, which a WebDAV answer never needs');
    if (this.buffer[this.at] !== '<') this.fail('markup was expected');
    this.phase = 'body';
    return true;
  }

  /** Space, comments and processing instructions outside the root; false at anything else (or the end). */
  private misc(): boolean {
    this.skipSpace();
    if (this.at >= this.buffer.length) {
      if (!this.final) throw NEED_MORE;
      return false;
    }
    this.need(4);
    if (this.buffer.startsWith('<?', this.at)) {
      this.at += 2;
      this.skipPast('?>', 'processing instruction');
    } else if (this.buffer.startsWith('<!--', this.at)) {
      this.at += 4;
      this.skipPast('-->', 'comment');
    } else return false;
    return true;
  }

  private bodyToken(): void {
    const source = this.buffer;
    if (source[this.at] !== '<') {
      // Text up to the next markup.
      const next = source.indexOf('<', this.at);
      if (next < 0 && !this.final) throw NEED_MORE;
      if (next < 0) this.fail('an element that is not closed');
      const text = this.decode(source.slice(this.at, next)).trim();
      if (text) this.stack.at(-1)?.text.push(text);
      this.at = next;
      return;
    }
    this.need(LONGEST_OPENER);
    if (source.startsWith('</', this.at)) {
      this.at += 2;
      const qname = this.name();
      this.skipSpace();
      this.need(1);
      if (source[this.at] !== '>') this.fail('a malformed end tag');
      this.at += 1;
      const open = this.stack.pop();
      if (open?.qname !== qname) this.fail(`</${qname}> closes <${open?.qname ?? 'nothing'}>`);
      open!.element.text = open!.text.join('');
      if (this.stack.length === 1) this.onRootChild?.(open!.element, this.root!);
    } else if (source.startsWith('<!--', this.at)) {
      this.at += 4;
      this.skipPast('-->', 'comment');
    } else if (source.startsWith('<![CDATA[', this.at)) {
      this.at += 9;
      const text = this.skipPast(']]>', 'CDATA section').trim();
      if (text) this.stack.at(-1)?.text.push(text);
    } else if (source.startsWith('<?', this.at)) {
      this.at += 2;
      this.skipPast('?>', 'processing instruction');
    } else if (source.startsWith('<!', this.at)) {
      this.fail('a declaration inside the document');
    } else this.startTag();
  }

  /** A start tag, read whole before anything of it is kept. */
  private startTag(): void {
    const source = this.buffer;
    this.at += 1;
    const qname = this.name();
    const attributes = new Map<string, string>();
    for (;;) {
      const before = this.at;
      this.skipSpace();
      this.need(2);
      if (source.startsWith('/>', this.at) || source[this.at] === '>') break;
      if (this.at === before) this.fail('attributes must be separated by space');
      const attribute = this.name();
      this.skipSpace();
      this.need(1);
      if (source[this.at] !== '=') this.fail(`attribute ${attribute} has no value`);
      this.at += 1;
      this.skipSpace();
      this.need(1);
      const quote = source[this.at];
      if (quote !== '"' && quote !== "'") this.fail(`attribute ${attribute}'s value is not quoted`);
      this.at += 1;
      const value = this.skipPast(quote!, 'attribute value');
      if (value.includes('<')) this.fail(`attribute ${attribute}'s value contains "<"`);
      if (attributes.has(attribute)) this.fail(`attribute ${attribute} appears twice`);
      attributes.set(attribute, this.decode(value));
    }
    const { maxElements, maxChildElements, maxDepth } = this.limits;
    if ((this.elements += 1) > maxElements) this.fail(`more than ${maxElements} elements`);
    const parent = this.stack.at(-1);
    // Counted from each child of the root on, when those are handed out rather than kept.
    const counted = this.onRootChild !== undefined && this.stack.length >= 1;
    if (counted && this.stack.length === 1) this.childElements = 0;
    if (counted && (this.childElements += 1) > maxChildElements) this.fail(`more than ${maxChildElements} elements in one child of the root`);
    let scope = parent?.scope ?? ROOT_SCOPE;
    for (const [attribute, value] of attributes) {
      if (attribute !== 'xmlns' && !attribute.startsWith('xmlns:')) continue;
      if (scope === (parent?.scope ?? ROOT_SCOPE)) scope = new Map(scope);
      (scope as Map<string, string>).set(attribute === 'xmlns' ? '' : attribute.slice(6), value);
    }
    const colon = qname.indexOf(':');
    const element: XmlElement = {
      ns: scope.get(colon >= 0 ? qname.slice(0, colon) : '') || null,
      local: colon >= 0 ? qname.slice(colon + 1) : qname,
      children: [],
      text: '',
    };
    if (!parent) {
      if (this.root) this.fail('a second root element');
      this.root = element;
    } else if (!(this.onRootChild && this.stack.length === 1)) parent.element.children.push(element);
    if (source.startsWith('/>', this.at)) {
      this.at += 2;
      if (parent && this.stack.length === 1) this.onRootChild?.(element, this.root!);
    } else {
      this.at += 1;
      if (this.stack.length >= maxDepth) this.fail(`elements nested deeper than ${maxDepth} levels`);
      this.stack.push({ qname, element, scope, text: [] });
    }
  }

  private fail(reason: string): never {
    throw new MalformedXml(reason, this.consumed + this.at);
  }

  /** Waits for more text unless `count` characters are there or the document is complete. */
  private need(count: number): void {
    if (!this.final && this.at + count > this.buffer.length) throw NEED_MORE;
  }

  private skipSpace(): void {
    SPACE.lastIndex = this.at;
    SPACE.exec(this.buffer);
    this.at = SPACE.lastIndex;
  }

  private name(): string {
    NAME.lastIndex = this.at;
    const match = NAME.exec(this.buffer);
    // A name that runs to the end of the text so far may go on in the next piece.
    if (!this.final && (match ? NAME.lastIndex >= this.buffer.length : this.at >= this.buffer.length)) throw NEED_MORE;
    if (!match) return this.fail('a name was expected');
    this.at = NAME.lastIndex;
    return match[0];
  }

  private skipPast(end: string, what: string): string {
    const stop = this.buffer.indexOf(end, this.at);
    if (stop < 0 && !this.final) throw NEED_MORE;
    if (stop < 0) this.fail(`an unterminated ${what}`);
    const inner = this.buffer.slice(this.at, stop);
    this.at = stop + end.length;
    return inner;
  }

  private decode(raw: string): string {
    return decodeReferences(raw, (reason) => this.fail(reason));
  }
}

/** Reads `source`, a whole document, and answers its root element. @throws MalformedXml */
export function readXml(source: string, limits: XmlLimits = {}): XmlElement {
  return new XmlStreamReader(limits).end(source);
}
