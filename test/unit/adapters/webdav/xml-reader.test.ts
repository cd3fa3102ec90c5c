import { describe, expect, it } from 'vitest';
import { MalformedXml, readXml, XmlStreamReader, type XmlElement } from '../../../../shared/adapters/webdav/xml-reader';

/** The element's tree as `{namespace}local` names with their text, for comparing shapes. */
const shape = (element: XmlElement): unknown => ({
  name: `{${element.ns ?? ''}}${element.local}`,
  ...(element.text ? { text: element.text } : {}),
  ...(element.children.length ? { children: element.children.map(shape) } : {}),
});

describe('readXml', () => {
  it('resolves prefixes, the default namespace and a prefix redeclared inside a child', () => {
    // Act
    const root = readXml(
      '<?xml version="1.0"?><D:a xmlns:D="DAV:" xmlns="urn:default"><b/><D:c xmlns:D="urn:other"><D:d/></D:c><x:e/></D:a>',
    );

    // Assert
    expect(shape(root)).toEqual({
      name: '{DAV:}a',
      children: [{ name: '{urn:default}b' }, { name: '{urn:other}c', children: [{ name: '{urn:other}d' }] }, { name: '{}e' }],
    });
  });

  it('decodes the five predefined entities and character references in text and attribute values', () => {
    // Act
    const root = readXml('<a xmlns="urn:&amp;x">&lt;caf&#233; &#x1F600; &quot;&apos;&gt;&amp;</a>');

    // Assert
    expect(root).toMatchObject({ ns: 'urn:&x', text: '<café 😀 "\'>&' });
  });

  it('reads CDATA as text and leaves comments and processing instructions out', () => {
    // Act
    const root = readXml('<!-- before --><a><!-- <b/> --><?pi data?><![CDATA[ <not-markup> & ]]></a><!-- after -->');

    // Assert
    expect(root).toEqual({ ns: null, local: 'a', children: [], text: '<not-markup> &' });
  });

  it('gives an element its own text nodes, each trimmed, not its children’s', () => {
    // Act
    const root = readXml('<status>\n  HTTP/1.1 200 OK\n  <child>inner</child>\n</status>');

    // Assert
    expect(root.text).toBe('HTTP/1.1 200 OK');
    expect(root.children[0]?.text).toBe('inner');
  });

  it('reads a quoted ">" in an attribute value and a byte order mark before the prolog', () => {
    // Act
    const root = readXml("\uFEFF<a title='x > y' other=\"it's\"/>");

    // Assert
    expect(root.local).toBe('a');
  });

  it('reads elements nested as deep as its limit', () => {
    // Arrange
    const depth = 64;
    const body = '<a>'.repeat(depth) + '</a>'.repeat(depth);

    // Act
    let element: XmlElement | undefined = readXml(body, { maxDepth: depth });
    let levels = 0;
    while (element) {
      levels += 1;
      element = element.children[0];
    }

    // Assert
    expect(levels).toBe(depth);
  });

  it('refuses elements nested deeper than its limit, however deep, without exhausting the call stack', () => {
    // Arrange
    const body = '<a>'.repeat(1_000_000);

    // Act
    const reading = () => readXml(body);

    // Assert
    expect(reading).toThrow(/nested deeper than 64 levels/);
  });

  it('refuses more elements than its limit, before building them', () => {
    // Arrange
    const body = `<a>${'<b/>'.repeat(1_001)}</a>`;

    // Act
    const reading = () => readXml(body, { maxElements: 1_000 });

    // Assert
    expect(reading).toThrow(/more than 1000 elements/);
  });

  it.each([
    ['an end tag that closes another element', '<a><b></a></b>'],
    ['an element left open', '<a><b></b>'],
    ['a second root element', '<a/><b/>'],
    ['text before the root', 'hello <a/>'],
    ['text after the root', '<a/> trailing'],
    ['a DOCTYPE', '<!DOCTYPE a [<!ENTITY x "xxxx">]><a>&x;</a>'],
    ['a declaration inside the document', '<a><!ENTITY x "y"></a>'],
    ['an entity XML does not define', '<a>&nbsp;</a>'],
    ['an ampersand that starts no reference', '<a>fish & chips</a>'],
    ['a character reference to a character XML forbids', '<a>&#0;</a>'],
    ['an attribute without quotes', '<a b=c/>'],
    ['an attribute given twice', '<a b="1" b="2"/>'],
    ['"<" inside an attribute value', '<a b="<"/>'],
    ['attributes with no space between them', '<a b="1"c="2"/>'],
    ['an unterminated comment', '<a><!-- never closed</a>'],
    ['an empty body', ''],
  ])('refuses %s', (_case, body) => {
    // Act
    const reading = () => readXml(body);

    // Assert
    expect(reading).toThrow(MalformedXml);
  });
});

/** A document with every construct the reader knows, for reading it in pieces. */
const EVERYTHING =
  '\uFEFF<?xml version="1.0"?>\n<!-- before --><D:multistatus xmlns:D="DAV:" xmlns="urn:default">' +
  '<D:response title=\'x > y\' other="it&apos;s"><D:href>/dav/caf&#233; &amp; &#x1F600;.pdf</D:href>' +
  '<![CDATA[ <not-markup> & ]]><?pi data?><!-- <b/> --><plain/></D:response>\n  <D:response><D:href>b</D:href></D:response>' +
  '</D:multistatus><!-- after -->\n';

/** Reads `pieces` one after the other; `end` gets the last. */
const readInPieces = (pieces: string[], options: ConstructorParameters<typeof XmlStreamReader>[0] = {}): XmlElement => {
  const reader = new XmlStreamReader(options);
  for (const piece of pieces.slice(0, -1)) reader.write(piece);
  return reader.end(pieces.at(-1));
};

describe('XmlStreamReader', () => {
  it('reads the same tree from a document cut anywhere into two pieces', () => {
    // Arrange
    const whole = shape(readXml(EVERYTHING));

    // Act
    const cuts = Array.from({ length: EVERYTHING.length + 1 }, (_, at) => shape(readInPieces([EVERYTHING.slice(0, at), EVERYTHING.slice(at)])));

    // Assert
    for (const tree of cuts) expect(tree).toEqual(whole);
  });

  it('reads the same tree from a document given one character at a time', () => {
    // Act
    const tree = readInPieces([...EVERYTHING, '']);

    // Assert
    expect(shape(tree)).toEqual(shape(readXml(EVERYTHING)));
  });

  it.each([
    ['an end tag that closes another element', '<a><b></a></b>'],
    ['an element left open', '<a><b></b>'],
    ['text after the root', '<a/> trailing'],
    ['a DOCTYPE', '<!DOCTYPE a [<!ENTITY x "xxxx">]><a>&x;</a>'],
    ['an unterminated comment', '<a><!-- never closed</a>'],
  ])('refuses %s given one character at a time, as it does whole', (_case, body) => {
    // Act
    const reading = () => readInPieces([...body, '']);

    // Assert
    expect(reading).toThrow(MalformedXml);
  });

  it('hands each child of the root to onRootChild once it is closed, and keeps none of them under the root', () => {
    // Arrange
    const children: string[] = [];

    // Act
    const root = readInPieces(['<r><a><x/></a><b', '/><c>text</c></r>'], {
      onRootChild: (child) => children.push(`${child.local}:${child.children.length}:${child.text}`),
    });

    // Assert
    expect(children).toEqual(['a:1:', 'b:0:', 'c:0:text']);
    expect(root.children).toEqual([]);
  });

  it('refuses a child of the root holding more elements than maxChildElements', () => {
    // Arrange
    const body = `<r><a>${'<b/>'.repeat(10)}</a></r>`;

    // Act
    const reading = () => readInPieces([body, ''], { onRootChild: () => undefined, maxChildElements: 10 });

    // Assert
    expect(reading).toThrow(/more than 10 elements in one child of the root/);
  });

  it('refuses a comment still open after more characters than maxTokenLength', () => {
    // Arrange
    const reader = new XmlStreamReader({ maxTokenLength: 64 });
    reader.write('<a><!-- ');

    // Act
    const writing = () => reader.write('x'.repeat(64));

    // Assert
    expect(writing).toThrow(/longer than 64 characters/);
  });

  it('reads a piece that ends inside a tag shorter than maxTokenLength', () => {
    // Arrange
    const reader = new XmlStreamReader({ maxTokenLength: 64 });

    // Act
    reader.write('<a><b attribute="a value that is not yet clo');
    const root = reader.end('sed"/></a>');

    // Assert
    expect(root.children[0]?.local).toBe('b');
  });
});
