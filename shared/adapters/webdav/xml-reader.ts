/**
 * A strict XML reader for what WebDAV servers answer: elements, attributes, text, CDATA, comments and processing
 * instructions, with namespaces resolved. A multistatus never needs a DTD, so a DOCTYPE is refused (entity
 * expansion has no way in), and so is any entity but XML's five and character references. Anything not
 * well-formed throws {@link MalformedXml}, and so does a document beyond {@link XmlLimits}: nesting is walked
 * with a stack of its own, never the call stack, and the number of elements bounds the tree's memory.
 */

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
/** An XML Name, a little wider than the spec's character classes (any non-ASCII letter is taken). */
const NAME = /[A-Za-z_:\u00C0-\uFFFF][-A-Za-z0-9._:\u00B7\u00C0-\uFFFF]*/y;
const SPACE = /[ \t\r\n]*/y;
const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** A character reference's code point, if XML allows that character. */
const isXmlChar = (code: number): boolean =>
  code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);

/** How deep and how large a document may be; a hostile server cannot make the tree outgrow them. */
export interface XmlLimits {
  /** A multistatus is about 6 levels deep; extension properties add a few. @default 64 */
  maxDepth?: number;
  /**
   * About what the 64 MB a listing may take holds when it is real (some 130,000 responses of ~13 elements); a
   * tree of this many takes about 250 MB. @default 2,000,000
   */
  maxElements?: number;
}

interface Open {
  qname: string;
  element: XmlElement;
  scope: ReadonlyMap<string, string>;
  text: string[];
}

/** Reads `source` and answers its root element. */
export function readXml(source: string, { maxDepth = 64, maxElements = 2_000_000 }: XmlLimits = {}): XmlElement {
  let at = source.charCodeAt(0) === 0xfeff ? 1 : 0;
  const fail = (reason: string): never => {
    throw new MalformedXml(reason, at);
  };
  const skipSpace = (): void => {
    SPACE.lastIndex = at;
    SPACE.exec(source);
    at = SPACE.lastIndex;
  };
  const name = (): string => {
    NAME.lastIndex = at;
    const match = NAME.exec(source);
    if (!match) return fail('a name was expected');
    at = NAME.lastIndex;
    return match[0];
  };
  const skipPast = (end: string, what: string): string => {
    const stop = source.indexOf(end, at);
    if (stop < 0) fail(`an unterminated ${what}`);
    const inner = source.slice(at, stop);
    at = stop + end.length;
    return inner;
  };
  const decode = (raw: string): string => {
    if (!raw.includes('&')) return raw;
    return raw.replace(/&([^;&<]*);?/g, (whole, entity: string) => {
      if (!whole.endsWith(';')) return fail('an unterminated entity reference');
      const predefined = PREDEFINED[entity];
      if (predefined !== undefined) return predefined;
      const numeric = /^#(?:x([0-9a-fA-F]{1,6})|([0-9]{1,7}))$/.exec(entity);
      const code = numeric ? parseInt(numeric[1] ?? numeric[2] ?? '', numeric[1] ? 16 : 10) : NaN;
      if (!isXmlChar(code)) return fail(`an undefined entity or character reference &${entity};`);
      return String.fromCodePoint(code);
    });
  };
  /** Comments, processing instructions and space between markup outside the root; false at anything else. */
  const skipMisc = (): boolean => {
    skipSpace();
    if (source.startsWith('<?', at)) {
      at += 2;
      skipPast('?>', 'processing instruction');
    } else if (source.startsWith('<!--', at)) {
      at += 4;
      skipPast('-->', 'comment');
    } else return false;
    return true;
  };

  while (skipMisc());
  if (source.startsWith('<!', at)) fail('a DTD or declaration, which a WebDAV answer never needs');
  if (source[at] !== '<') fail('markup was expected');

  let root: XmlElement | undefined;
  let elements = 0;
  const stack: Open[] = [];
  const rootScope: ReadonlyMap<string, string> = new Map([['xml', XML_NAMESPACE]]);
  do {
    if (source[at] !== '<') {
      // Text up to the next markup.
      const next = source.indexOf('<', at);
      if (next < 0) fail('an element that is not closed');
      const text = decode(source.slice(at, next)).trim();
      if (text) stack.at(-1)?.text.push(text);
      at = next;
    } else if (source.startsWith('</', at)) {
      at += 2;
      const qname = name();
      skipSpace();
      if (source[at] !== '>') fail('a malformed end tag');
      at += 1;
      const open = stack.pop();
      if (open?.qname !== qname) fail(`</${qname}> closes <${open?.qname ?? 'nothing'}>`);
      open!.element.text = open!.text.join('');
    } else if (source.startsWith('<!--', at)) {
      at += 4;
      skipPast('-->', 'comment');
    } else if (source.startsWith('<![CDATA[', at)) {
      at += 9;
      const text = skipPast(']]>', 'CDATA section').trim();
      if (text) stack.at(-1)?.text.push(text);
    } else if (source.startsWith('<?', at)) {
      at += 2;
      skipPast('?>', 'processing instruction');
    } else if (source.startsWith('<!', at)) {
      fail('a declaration inside the document');
    } else {
      at += 1;
      const qname = name();
      const attributes = new Map<string, string>();
      for (;;) {
        const before = at;
        skipSpace();
        if (source.startsWith('/>', at) || source[at] === '>') break;
        if (at === before) fail('attributes must be separated by space');
        const attribute = name();
        skipSpace();
        if (source[at] !== '=') fail(`attribute ${attribute} has no value`);
        at += 1;
        skipSpace();
        const quote = source[at];
        if (quote !== '"' && quote !== "'") fail(`attribute ${attribute}'s value is not quoted`);
        at += 1;
        const value = skipPast(quote!, 'attribute value');
        if (value.includes('<')) fail(`attribute ${attribute}'s value contains "<"`);
        if (attributes.has(attribute)) fail(`attribute ${attribute} appears twice`);
        attributes.set(attribute, decode(value));
      }
      if ((elements += 1) > maxElements) fail(`more than ${maxElements} elements`);
      const parent = stack.at(-1);
      let scope = parent?.scope ?? rootScope;
      for (const [attribute, value] of attributes) {
        if (attribute !== 'xmlns' && !attribute.startsWith('xmlns:')) continue;
        if (scope === (parent?.scope ?? rootScope)) scope = new Map(scope);
        (scope as Map<string, string>).set(attribute === 'xmlns' ? '' : attribute.slice(6), value);
      }
      const colon = qname.indexOf(':');
      const element: XmlElement = {
        ns: scope.get(colon >= 0 ? qname.slice(0, colon) : '') || null,
        local: colon >= 0 ? qname.slice(colon + 1) : qname,
        children: [],
        text: '',
      };
      if (parent) parent.element.children.push(element);
      else if (root) fail('a second root element');
      else root = element;
      if (source.startsWith('/>', at)) at += 2;
      else {
        at += 1;
        if (stack.length >= maxDepth) fail(`elements nested deeper than ${maxDepth} levels`);
        stack.push({ qname, element, scope, text: [] });
      }
    }
  } while (stack.length > 0);

  while (skipMisc());
  if (at < source.length) fail('content after the root element');
  return root!;
}
