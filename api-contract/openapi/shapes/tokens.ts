import * as z from '../../../shared/zod';
import { TOKEN_SCOPES } from '../../../shared/domain/tokens/ports';
import { id, shape, timestamp } from './registry';

const tokenFields = () => ({
  id: id(),
  user_id: id().check(z.describe('The user the token acts for.')),
  name: z.string(),
  prefix: z.string().check(z.describe('The token\'s first characters (`dst_` and four more), to tell it apart; never the secret.')),
  scopes: z.array(z.enum(TOKEN_SCOPES)),
  created_at: timestamp(),
  last_used_at: z.nullable(timestamp()).check(z.describe('Its last request, to within a minute; null before the first.')),
  expires_at: timestamp(),
});

/** A personal API token as listed (shared/domain/tokens/ports.ts `toPublicToken`): never the secret. */
export const ApiToken = shape('ApiToken', 'A personal API token, without its secret.', z.strictObject(tokenFields()));

/** The answer to a token's creation: the only time its secret is shown. */
export const CreatedApiToken = shape(
  'CreatedApiToken',
  'A personal API token just made, with its secret: shown this once, stored only as a hash.',
  z.strictObject({
    ...tokenFields(),
    token: z.string().check(z.describe('The secret: `dst_`, 43 base62 characters of randomness (256 bits) and a 6-character CRC32 of them. Send it as `Authorization: Bearer <token>`.')),
  }),
);

/** `GET /api/tokens`. */
export const ApiTokenList = shape('ApiTokenList', 'API tokens, oldest first.', z.strictObject({ tokens: z.array(ApiToken) }));
