/** One dependency the service needs to answer requests (a table, a bucket, a queue, an engine). */
export interface HealthProbe {
  name: string;
  /** Resolves when the dependency answers; rejects otherwise. */
  check(): Promise<void>;
}
