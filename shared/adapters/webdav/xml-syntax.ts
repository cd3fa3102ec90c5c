/** The lexical pieces of XML that the reader (xml-reader.ts) matches: names, space and references. */

/** An XML Name, a little wider than the spec's character classes (any non-ASCII letter is taken). Sticky. */
export const NAME = /[A-Za-z_:\u00C0-\uFFFF][-A-Za-z0-9._:\u00B7\u00C0-\uFFFF]*/y;
/** XML's space, none or more. Sticky. */
export const SPACE = /[ \t\r\n]*/y;

const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** A character reference's code point, if XML allows that character. */
const isXmlChar = (code: number): boolean =>
  code === 0x9 ||
  code === 0xa ||
  code === 0xd ||
  (code >= 0x20 && code <= 0xd7ff) ||
  (code >= 0xe000 && code <= 0xfffd) ||
  (code >= 0x10000 && code <= 0x10ffff);

/**
 * Replaces XML's five predefined entities and character references in text or an attribute value. Any other
 * entity (no DTD can define one here), an unterminated reference or a character XML forbids goes to `refuse`.
 */
export function decodeReferences(raw: string, refuse: (reason: string) => never): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&([^;&<]*);?/g, (whole, entity: string) => {
    if (!whole.endsWith(';')) return refuse('an unterminated entity reference');
    const predefined = PREDEFINED[entity];
    if (predefined !== undefined) return predefined;
    const numeric = /^#(?:x([0-9a-fA-F]{1,6})|([0-9]{1,7}))$/.exec(entity);
    const code = numeric ? parseInt(numeric[1] ?? numeric[2] ?? '', numeric[1] ? 16 : 10) : NaN;
    if (!isXmlChar(code)) return refuse(`an undefined entity or character reference &${entity};`);
    return String.fromCodePoint(code);
  });
}
