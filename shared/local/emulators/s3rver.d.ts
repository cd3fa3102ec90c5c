declare module '@20minutes/s3rver' {
  import type { IncomingMessage } from 'node:http';

  interface S3rverOptions {
    address?: string;
    port?: number;
    directory?: string;
    silent?: boolean;
    allowMismatchedSignatures?: boolean;
    configureBuckets?: { name: string; configs?: Buffer[] }[];
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<{ address: string; port: number; family: string }>;
    close(): Promise<void>;
    on(event: 'event', listener: (event: { Records: unknown[] }) => void): this;
    /** Where objects live: files under the directory, a key's slashes as folders. */
    store: {
      getResourcePath(bucket: string, key: string, resource: 'object' | 'object.md5' | 'metadata.json'): string;
      deleteObject(bucket: string, key: string): Promise<void>;
    };
    /** Koa's middleware chain (S3rver extends Koa), composed when run() starts the server. */
    middleware: ((
      ctx: { req: IncomingMessage; status: number; type: string; body: unknown },
      next: () => Promise<void>,
    ) => Promise<void> | void)[];
  }
}
