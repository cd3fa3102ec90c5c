import S3rver from 's3rver';
import type { RunningEmulator } from './dynamodb-local';

/** Starts an S3-protocol server in this process, storing buckets and objects as files under `directory`. */
export async function startS3Emulator(options: { directory: string; port?: number }): Promise<RunningEmulator> {
  const server = new S3rver({ address: '127.0.0.1', port: options.port ?? 0, directory: options.directory, silent: true });
  const { port } = (await server.run()) as { port: number };
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => server.close() };
}
