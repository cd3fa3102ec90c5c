/**
 * The machine (or Lambda instance) that answers a request, as far as `GET /api/metrics/system` reports it.
 * Every figure is a percentage from 0 to 100.
 */
export interface HostProbe {
  /** CPU time used over a short sample, across all cores the process can see. */
  cpuUsage(): Promise<number>;
  /** Memory in use: of the host locally; of the function's configured memory in Lambda. */
  memoryUsage(): number;
  /** Space used on the filesystem that holds the service's writable data (DATA_DIR locally, /tmp in Lambda). */
  diskUsage(): Promise<number>;
  /** Seconds since this process (the runtime, or the Lambda instance) started. */
  uptimeSeconds(): number;
}
