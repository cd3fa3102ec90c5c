import * as z from 'zod';
import { displayNameField, emailField, passwordField, usernameField } from '../../shared/http/fields';

export const registerBody = z.strictObject({
  username: usernameField,
  email: emailField,
  password: passwordField,
  display_name: displayNameField.optional(),
});

/** Login checks only shape and size: the rules of today must not lock out accounts made under older ones. */
export const loginBody = z.strictObject({
  username: z.string().min(1).max(256),
  password: z.string().min(1).max(256),
});

/**
 * What the identity provider appends to the redirect URI: a code and state, or an error. Providers add
 * parameters of their own (`session_state`, Google's `scope`, `authuser`, `hd`, `prompt`), and the browser
 * merely relays them, so unknown parameters are ignored here rather than refused.
 */
export const oidcCallbackQuery = z.object({
  code: z.string().min(1).max(4096).optional(),
  state: z.string().min(1).max(512).optional(),
  iss: z.string().min(1).max(2048).optional(),
  error: z.string().min(1).max(256).optional(),
  error_description: z.string().max(1024).optional(),
});
