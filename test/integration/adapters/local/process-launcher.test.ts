import { describe, expect, it } from 'vitest';
import { ProcessLauncher } from '../../../../shared/adapters/local/process-launcher';

const MAX_OUTPUT = 1000;

/** The pid of the process that started `sh`, read from its /proc stat line (field 4). */
const PARENT_PID = ['-c', 'cut -d" " -f4 /proc/$$/stat'];

describe('the process launcher', () => {
  it('runs a command and hands back its exit code and output', async () => {
    const launcher = new ProcessLauncher(MAX_OUTPUT);

    const outcome = await launcher.start('sh', ['-c', 'echo out; echo err >&2; exit 3'], process.env).ended;

    expect(outcome).toEqual({ code: 3, signal: null, stdout: 'out\n', stderr: 'err\n' });
  });

  it('starts commands from its helper process, not from the calling process', async () => {
    const launcher = new ProcessLauncher(MAX_OUTPUT);

    const outcome = await launcher.start('sh', PARENT_PID, process.env).ended;

    expect('stdout' in outcome && Number(outcome.stdout.trim())).not.toBe(process.pid);
    expect('stdout' in outcome && Number(outcome.stdout.trim())).toBeGreaterThan(0);
  });

  it('keeps only the tail of an output longer than its limit', async () => {
    const launcher = new ProcessLauncher(MAX_OUTPUT);

    const outcome = await launcher.start('sh', ['-c', 'head -c 5000 /dev/zero | tr "\\0" a; printf END'], process.env).ended;

    expect('stdout' in outcome && outcome.stdout.length).toBe(MAX_OUTPUT);
    expect('stdout' in outcome && outcome.stdout.endsWith('aaaEND')).toBe(true);
  });

  it('reports a command that does not exist as not started, with the system code', async () => {
    const launcher = new ProcessLauncher(MAX_OUTPUT);

    const outcome = await launcher.start('/nonexistent/tesseract', [], process.env).ended;

    expect(outcome).toMatchObject({ error: { code: 'ENOENT' } });
  });

  it('kills a command when asked, and settles once it has exited', async () => {
    const launcher = new ProcessLauncher(MAX_OUTPUT);
    const started = launcher.start('sleep', ['30'], process.env);

    started.kill();

    expect(await started.ended).toMatchObject({ code: null, signal: 'SIGKILL' });
  });

  it('fails the commands of a helper that died, and runs the next command in a new helper', async () => {
    const launcher = new ProcessLauncher(MAX_OUTPUT);
    const helperPid = Number(await launcher.start('sh', PARENT_PID, process.env).ended.then((o) => ('stdout' in o ? o.stdout : '')));
    const cut = launcher.start('sleep', ['3'], process.env);

    process.kill(helperPid, 'SIGKILL');

    expect(await cut.ended).toMatchObject({ error: { message: expect.stringContaining('exited') } });
    const next = await launcher.start('sh', PARENT_PID, process.env).ended;
    expect('stdout' in next && Number(next.stdout)).not.toBe(helperPid);
  });
});
