import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Reads a secret kept in a file under DATA_DIR, creating it with `generate()` on first use (mode 0600).
 * `created` tells the caller whether this start made it, e.g. to print a generated password once.
 */
export async function fileSecret(path: string, generate: () => string): Promise<{ value: string; created: boolean }> {
  try {
    return { value: (await readFile(path, 'utf8')).trim(), created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const value = generate();
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(path, `${value}\n`, { mode: 0o600, flag: 'wx' });
  return { value, created: true };
}

export const randomSecret = (bytes: number): string => randomBytes(bytes).toString('base64url');
