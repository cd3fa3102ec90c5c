import { describe, expect, it } from 'vitest';
import { snippetRuns } from '../../../../web/src/highlight';

describe('snippetRuns', () => {
  it('turns the server’s <mark> pairs into marked runs and the rest into text', () => {
    expect(snippetRuns('the <mark>invoice</mark> of May')).toEqual([
      { text: 'the ', marked: false },
      { text: 'invoice', marked: true },
      { text: ' of May', marked: false },
    ]);
  });

  it('keeps any other tag of the text as text, unescaped for display, never as markup', () => {
    const runs = snippetRuns('&lt;img src=x onerror=alert(1)&gt; <mark>scan</mark>');

    expect(runs).toEqual([
      { text: '<img src=x onerror=alert(1)> ', marked: false },
      { text: 'scan', marked: true },
    ]);
  });

  it('shows a raw tag the server did not escape as text too', () => {
    expect(snippetRuns('<script>x</script>')).toEqual([{ text: '<script>x</script>', marked: false }]);
  });
});
