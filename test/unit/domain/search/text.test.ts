import { describe, expect, it } from 'vitest';
import { escapeHtml, fuzzyDistance, MARK_CLOSE, MARK_OPEN, markedToHtml, maxEdits, stripMarkers, withinEdits } from '../../../../shared/domain/search/text';

describe('markedToHtml', () => {
  it('wraps the marked matches in <mark> and escapes everything else', () => {
    // Act
    const html = markedToHtml(`<b>${MARK_OPEN}invoice${MARK_CLOSE}</b> & "co"`);

    // Assert
    expect(html).toBe('&lt;b&gt;<mark>invoice</mark>&lt;/b&gt; &amp; &quot;co&quot;');
  });

  it('lets no document text open a tag', () => {
    // Act
    const html = markedToHtml(`<script>alert('x')</script>`);

    // Assert
    expect(html).toBe('&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;');
  });
});

describe('stripMarkers', () => {
  it('removes highlight markers from a text, so that a stored text never holds one', () => {
    // Act
    const stripped = stripMarkers(`a${MARK_OPEN}b${MARK_CLOSE}c`);

    // Assert
    expect(stripped).toBe('abc');
  });
});

describe('escapeHtml', () => {
  it('escapes the five HTML-significant characters', () => {
    // Act
    const escaped = escapeHtml(`&<>"'`);

    // Assert
    expect(escaped).toBe('&amp;&lt;&gt;&quot;&#39;');
  });
});

describe('maxEdits', () => {
  it('allows no typo below 4 letters, one from 4, two from 8', () => {
    // Act
    const edits = [3, 4, 7, 8, 20].map(maxEdits);

    // Assert
    expect(edits).toEqual([0, 1, 1, 2, 2]);
  });
});

describe('fuzzyDistance', () => {
  it('counts an adjacent transposition as one edit', () => {
    // Act
    const distance = fuzzyDistance('recieve', 'receive');

    // Assert
    expect(distance).toBe(1);
  });

  it('counts insertions, deletions and substitutions', () => {
    // Act
    const distances = [fuzzyDistance('kitten', 'sitting'), fuzzyDistance('', 'abc'), fuzzyDistance('same', 'same')];

    // Assert
    expect(distances).toEqual([3, 3, 0]);
  });
});

describe('withinEdits', () => {
  it('agrees with the full distance on words near and far', () => {
    // Arrange
    const pairs: [string, string, number][] = [
      ['invoice', 'invoise', 1],
      ['invoice', 'inovice', 1],
      ['invoice', 'invoices', 1],
      ['invoice', 'involve', 1],
      ['contract', 'contrcat', 1],
      ['abc', 'abcdef', 2],
    ];

    // Act
    const answers = pairs.map(([a, b, edits]) => withinEdits(a, b, edits));

    // Assert
    expect(answers).toEqual(pairs.map(([a, b, edits]) => fuzzyDistance(a, b) <= edits));
  });
});
