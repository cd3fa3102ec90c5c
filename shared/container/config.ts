import * as z from 'zod';
import { parseCorsOrigins } from '../http/cors';

/** A boolean environment variable: true/false, 1/0, yes/no. */
export const envBoolean = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => ['true', '1', 'yes'].includes(value));

/** Settings read by both runtimes, with their defaults. */
export const commonEnvSchema = z.object({
  JWT_ISSUER: z.string().min(1).default('docservice'),
  JWT_AUDIENCE: z.string().min(1).default('docservice-api'),
  JWT_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
  JWT_REFRESH_GRACE_SECONDS: z.coerce.number().int().min(0).max(30 * 86_400).default(7 * 86_400),
  REGISTRATION_OPEN: envBoolean.default(true),
  CORS_ORIGINS: z.string().default('*').transform(parseCorsOrigins),
  /** A WebSocket client has this long after connecting to send its auth message. */
  WS_AUTH_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(10),
});

export type CommonEnv = z.output<typeof commonEnvSchema>;

/**
 * Parses the environment once, at init. A bad or missing variable stops the process right away with the
 * variable's name, rather than failing a request later.
 */
export function parseEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
  throw new Error(`Invalid configuration: ${problems}`);
}

/**
 * CORS_ORIGINS alone: what the fallback function needs. It lives here rather than in the AWS composition root
 * so that the fallback bundle carries no SDK client.
 */
export const corsOriginsFromEnv = (env: NodeJS.ProcessEnv = process.env): CommonEnv['CORS_ORIGINS'] =>
  parseEnv(z.object({ CORS_ORIGINS: commonEnvSchema.shape.CORS_ORIGINS }), env).CORS_ORIGINS;
