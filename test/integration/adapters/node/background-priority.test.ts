import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { PdfTextLayerReader } from '../../../../shared/adapters/imaging/pdf-text-layer-reader';
import { ImagingPool } from '../../../../shared/adapters/imaging/worker-pool';
import { runProcess } from '../../../../shared/adapters/local/tesseract-processes';
import { BACKGROUND_NICENESS } from '../../../../shared/adapters/node/background-priority';
import { textPdf } from '../../../support/text-pdf';

/** The nice value of a thread or process, from its /proc stat line (field 19). */
const niceOf = (statPath: string): number => {
  const stat = readFileSync(statPath, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
};

/** The processes whose parent is `pid`, from their /proc stat lines (field 4). */
const childrenOf = (pid: number): number[] =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);

/** Work on untrusted files yields the cores to the thread that answers requests. */
describe('background priority', () => {
  const pools: ImagingPool[] = [];

  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pool) => pool.close()));
  });

  it('runs the imaging worker processes below the calling thread', async () => {
    const pool = new ImagingPool({ size: 1 });
    pools.push(pool);

    await new PdfTextLayerReader({ pool }).read(textPdf([['A page with a text layer, long enough to count as text.']]));
    const children = childrenOf(process.pid);

    expect(children.map((pid) => niceOf(`/proc/${pid}/stat`))).toContain(BACKGROUND_NICENESS);
  });

  it('runs the OCR engine processes below the calling thread', async () => {
    const result = await runProcess('sh', ['-c', 'sleep 0.3; cut -d" " -f19 /proc/$$/stat'], {
      timeoutMs: 10_000,
      memoryLimitBytes: 0,
      signal: new AbortController().signal,
    });

    expect(Number(result.stdout.trim())).toBe(BACKGROUND_NICENESS);
  });
});
