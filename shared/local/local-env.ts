import * as z from '../zod';
import { commonEnvSchema, envText } from '../container/kit/config';

/** The local runtime contract (PORT, DATA_DIR, ADMIN_USERNAME, ADMIN_PASSWORD) plus the shared settings. */
export const localEnvSchema = z.extend(commonEnvSchema, {
  PORT: z._default(z.coerce.number().check(z.int(), z.gte(0), z.lte(65_535)), 8080),
  HOST: z._default(envText, '127.0.0.1'),
  DATA_DIR: z._default(envText, './.data'),
  ADMIN_USERNAME: z._default(z.string().check(z.minLength(3)), 'admin'),
  ADMIN_PASSWORD: z.optional(z.string().check(z.minLength(8))),
  ADMIN_EMAIL: z.optional(z.email()),
  /**
   * 'sdk' pushes each event through the cloud's @connections adapter and SDK client to this gateway, as the
   * cloud does; 'direct' hands it to the gateway in process, which 500 clients need to get an event within
   * 100 ms on two cores (bench/README.md).
   */
  LOCAL_EVENT_DELIVERY: z._default(z.enum(['sdk', 'direct']), 'direct'),
  /** P's maximum request size, in MiB: a larger body is 413 (a multipart upload's names the presigned upload). */
  MAX_REQUEST_SIZE_MB: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(1024)), 100),
  /** A request body that sends nothing for this long is cut off with 408, so that a held upload ends. */
  REQUEST_BODY_IDLE_TIMEOUT_SECONDS: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(3600)), 30),
  /** A source on the LAN (a NAS) is the common case locally. */
  SOURCES_ALLOW_PRIVATE_NETWORKS: z._default(z.stringbool(), true),
  /** A receiver on the LAN or this machine is as common locally as a NAS. */
  WEBHOOKS_ALLOW_PRIVATE_NETWORKS: z._default(z.stringbool(), true),
});

export type LocalEnv = z.output<typeof localEnvSchema>;
