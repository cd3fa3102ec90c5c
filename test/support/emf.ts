import { vi } from 'vitest';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- EMF JSON, read by the assertions
export type Emf = any;

/** The JSON lines written to stdout while `work` runs: the EMF blobs Powertools published. */
export async function emfOf(work: () => unknown): Promise<Emf[]> {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  });
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return lines.map((line) => JSON.parse(line) as Emf);
}

/** The values of `metric` in an EMF blob, however Powertools grouped them. */
export const total = (blob: Emf, metric: string): number => [blob[metric]].flat().reduce((sum: number, value: number) => sum + value, 0);
