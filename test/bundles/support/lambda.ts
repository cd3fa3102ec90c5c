import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { BundledFunction } from './template';

const RUNTIME = join(import.meta.dirname, 'lambda-runtime.mjs');

/** An error the function's handler threw (or its init), as Lambda would report it. */
export class FunctionError extends Error {
  constructor(
    readonly functionName: string,
    readonly errorName: string,
    message: string,
    readonly remoteStack: string | undefined,
  ) {
    super(`${functionName}: ${errorName}: ${message}`);
  }
}

type Reply =
  | { type: 'ready' }
  | { type: 'result'; id: number; result: unknown }
  | { type: 'error'; id: number; error: { name: string; message: string; stack?: string } }
  | { type: 'fatal'; kind: string; error: { name: string; message: string; stack?: string } };

/**
 * One deployed function, run from its bundled asset in a process of its own, with the environment the stack
 * gives it (pointed at the emulators) and nothing from this process's: Lambda's variables, static credentials
 * that only the emulators accept, and the SDK's endpoint variables. The process starts on the first invoke
 * and keeps the module between invokes, as a warm Lambda does.
 */
export class DeployedFunction {
  private child: ChildProcess | undefined;
  private home: string | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  /** Everything the function wrote to stdout and stderr: its logs. */
  logs = '';

  constructor(
    readonly name: string,
    private readonly definition: BundledFunction,
    private readonly extraEnvironment: Record<string, string> = {},
  ) {}

  /** The function as the Api stack deploys it (construct name, e.g. `DocumentsFunction`). */
  static named(name: string, options: { asset?: string; environment?: Record<string, string> } = {}): DeployedFunction {
    const definition = inject('bundles').functions.byName[name];
    if (!definition) throw new Error(`The Api stack has no function ${name}`);
    return new DeployedFunction(name, { ...definition, ...(options.asset ? { runnableAsset: options.asset } : {}) }, options.environment);
  }

  /**
   * Calls the handler with `event`; resolves to what it returned, rejects with what it threw. With `traceHeader`
   * the invocation runs in that X-Ray trace, as Lambda's active tracing gives it (`_X_AMZN_TRACE_ID`).
   */
  invoke<T = unknown>(event: unknown, options: { traceHeader?: string } = {}): Promise<T> {
    return this.send<T>({ type: 'invoke', event, ...options });
  }

  /** Starts the function and waits for its module to load (the cold start); rejects with an init error. */
  async init(): Promise<void> {
    await this.send({ type: 'init' });
  }

  private send<T>(message: { type: string; event?: unknown; traceHeader?: string }): Promise<T> {
    const child = this.start();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ ...message, id });
    });
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child && child.exitCode === null) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    }
    if (this.home) rmSync(this.home, { recursive: true, force: true });
    this.home = undefined;
  }

  private start(): ChildProcess {
    if (this.child) return this.child;
    const bundles = inject('bundles');
    const home = (this.home ??= mkdtempSync(join(tmpdir(), 'bundles-home-')));
    const child = fork(RUNTIME, [this.definition.runnableAsset, this.name, String(this.definition.memorySize), String(this.definition.timeout)], {
      cwd: this.definition.runnableAsset,
      execArgv: [],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        // No shared AWS config or credentials files of whoever runs the tests.
        HOME: home,
        AWS_CONFIG_FILE: join(home, 'config'),
        AWS_SHARED_CREDENTIALS_FILE: join(home, 'credentials'),
        TZ: 'UTC',
        LANG: 'en_US.UTF-8',
        AWS_REGION: 'us-east-1',
        AWS_DEFAULT_REGION: 'us-east-1',
        AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
        AWS_LAMBDA_FUNCTION_NAME: this.name,
        AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
        AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(this.definition.memorySize),
        LAMBDA_TASK_ROOT: this.definition.runnableAsset,
        AWS_ACCESS_KEY_ID: 'S3RVER',
        AWS_SECRET_ACCESS_KEY: 'S3RVER',
        AWS_ENDPOINT_URL_DYNAMODB: bundles.endpoints.dynamodb,
        AWS_ENDPOINT_URL_S3: bundles.endpoints.s3,
        AWS_ENDPOINT_URL_SQS: bundles.endpoints.sqs,
        // What is not emulated is refused at once rather than reached on the internet.
        AWS_ENDPOINT_URL_TEXTRACT: `http://${bundles.unreachable}`,
        AWS_ENDPOINT_URL_SECRETS_MANAGER: `http://${bundles.unreachable}`,
        // s3rver reads no flexible-checksum trailers. (Its endpoint is an IP address, so the S3 client addresses
        // buckets by path without being told: a virtual-host name could not be resolved.)
        AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
        AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
        ...this.definition.environment,
        ...this.extraEnvironment,
      },
    });
    child.stdout?.on('data', (chunk: Buffer) => (this.logs += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.logs += chunk.toString()));
    child.on('message', (reply: Reply) => {
      if (reply.type === 'result') this.settle(reply.id)?.resolve(reply.result);
      if (reply.type === 'error') this.settle(reply.id)?.reject(new FunctionError(this.name, reply.error.name, reply.error.message, reply.error.stack));
      if (reply.type === 'fatal') this.failAll(new FunctionError(this.name, `Runtime.${reply.kind}`, reply.error.message, reply.error.stack));
    });
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = undefined;
      this.failAll(new FunctionError(this.name, 'Runtime.ExitError', `the runtime exited (${code ?? signal})\n${this.logs.slice(-4000)}`, undefined));
    });
    this.child = child;
    return child;
  }

  private settle(id: number) {
    const waiter = this.pending.get(id);
    this.pending.delete(id);
    return waiter;
  }

  private failAll(error: Error): void {
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
  }
}
