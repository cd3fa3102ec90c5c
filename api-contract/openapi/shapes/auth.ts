import * as z from '../../../shared/zod';
import { ROLES } from '../../../shared/domain/principal';
import { id, shape, timestamp } from './registry';

/** Who a session belongs to: the user as the token was issued (shared/domain/auth/session.ts). */
export const SessionUser = shape(
  'SessionUser',
  'The signed-in user, as a session names them.',
  z.strictObject({ id: id(), username: z.string(), email: z.string(), role: z.enum(ROLES) }),
);

const sessionFields = {
  token: z.string().check(z.describe('The access token (a JWT), sent as `Authorization: Bearer <token>`.')),
  expires_at: timestamp().check(z.describe('When the token expires; it can still be refreshed for a while after.')),
  user: SessionUser,
};

/** What login, refresh and the OIDC callback answer: a token, its expiry and its user. */
export const Session = shape('Session', 'A fresh access token, when it expires and whose it is.', z.strictObject(sessionFields));

/** What a password change answers: the session that replaces every token issued before. */
export const PasswordChanged = shape(
  'PasswordChanged',
  'The password was changed; every earlier token is void, so a new session comes with the answer.',
  z.strictObject({ message: z.string(), ...sessionFields }),
);
