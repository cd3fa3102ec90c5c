// Starts the OCR engine's commands on behalf of the runtime (see process-launcher.ts). A fork copies the page
// tables of the process that forks: this small process forks quickly where the runtime, with its heap and
// threads, would block its main thread for each command. Plain JavaScript started by node itself, so it
// starts the same under tsx, vitest and node.
//
// argv: the nice value for the commands (they inherit this process's), and the output kept per stream (its tail).
// Messages in: {id, file, args, env} to start a command, {kill: id} to SIGKILL it. Out, once per id:
// {id, code, signal, stdout, stderr} when it ended, or {id, error: {code, message}} when it could not start.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import process from 'node:process';

const niceness = Number(process.argv[2]);
const maxOutputChars = Number(process.argv[3]);
try {
  setPriority(0, niceness);
} catch {
  // A platform that refuses: the commands run at normal priority, only less politely.
}

const running = new Map();

const keepTail = (text, chunk) => {
  const next = text + chunk.toString('utf8');
  return next.length > maxOutputChars ? next.slice(-maxOutputChars) : next;
};

function start({ id, file, args, env }) {
  let answered = false;
  const answer = (message) => {
    if (answered) return;
    answered = true;
    running.delete(id);
    process.send?.({ id, ...message });
  };
  let child;
  try {
    child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    answer({ error: { code: error.code, message: error.message } });
    return;
  }
  running.set(id, child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout = keepTail(stdout, chunk)));
  child.stderr.on('data', (chunk) => (stderr = keepTail(stderr, chunk)));
  child.once('error', (error) => answer({ error: { code: error.code, message: error.message } }));
  child.once('close', (code, signal) => answer({ code, signal, stdout, stderr }));
}

process.on('message', (message) => {
  if (message.kill !== undefined) running.get(message.kill)?.kill('SIGKILL');
  else start(message);
});

// The runtime is gone (ended, or killed): so are the commands it was waiting for.
process.on('disconnect', () => {
  for (const child of running.values()) child.kill('SIGKILL');
  process.exit(0);
});
