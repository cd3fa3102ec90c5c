import { describe, expect, it } from 'vitest';
import { turnWord, uprightTurn } from '../../../../shared/adapters/pdf/text-direction';
import type { PlacedWord } from '../../../../shared/adapters/imaging/jobs';

/** A line of `count` words of 0.08 x 0.02 of the page, read left to right from (0.1, 0.1), with small gaps. */
const line = (count: number): PlacedWord[] =>
  Array.from({ length: count }, (_, i) => ({ text: `word${i}`, left: 0.1 + i * 0.09, top: 0.1, width: 0.08, height: 0.02 }));

/** The same words as they lie on a page turned clockwise by `degrees` (the inverse of the turn that shows it upright). */
const lying = (words: PlacedWord[], degrees: 90 | 180 | 270): PlacedWord[] =>
  words.map((word) => turnWord(word, degrees));

describe('uprightTurn', () => {
  it('leaves a page whose words run left to right as it is', () => {
    expect(uprightTurn(line(8))).toBe(0);
  });

  it.each([
    [90, 270],
    [180, 180],
    [270, 90],
  ] as const)('turns a page lying turned by %i degrees by %i, which shows it upright', (lies, turn) => {
    expect(uprightTurn(lying(line(8), lies))).toBe(turn);
  });

  it('turns nothing on the word of two that tell no direction', () => {
    expect(uprightTurn(lying(line(2), 180))).toBe(0);
  });

  it('turns nothing when the words do not agree on a direction', () => {
    const mixed = [...line(4), ...lying(line(4), 180).map((word) => ({ ...word, top: word.top + 0.5 }))];

    expect(uprightTurn(mixed)).toBe(0);
  });
});

describe('turnWord', () => {
  it('brings every word of a page lying turned back to its upright box when turned by uprightTurn', () => {
    const upright = line(8);
    for (const lies of [90, 180, 270] as const) {
      const found = lying(upright, lies);

      const back = found.map((word) => turnWord(word, uprightTurn(found)));

      back.forEach((word, i) => {
        for (const side of ['left', 'top', 'width', 'height'] as const) expect(word[side]).toBeCloseTo(upright[i]![side], 10);
      });
    }
  });
});
