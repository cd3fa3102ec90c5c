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
