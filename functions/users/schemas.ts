import * as z from 'zod';
import { displayNameField, emailField, passwordField } from '../../shared/http/fields';

export const updateProfileBody = z
  .strictObject({ email: emailField.optional(), display_name: displayNameField.optional() })
  .refine((body) => body.email !== undefined || body.display_name !== undefined, {
    message: 'give at least one of email, display_name',
  });

export const changePasswordBody = z.strictObject({
  current_password: z.string().min(1).max(256),
  new_password: passwordField,
});
