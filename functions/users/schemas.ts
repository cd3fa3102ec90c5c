import * as z from '../../shared/zod';
import { MONTH_PATTERN } from '../../shared/domain/usage/usage';
import { ROLES } from '../../shared/domain/principal';
import { displayNameField, emailField, passwordField, usernameField } from '../../shared/http/fields';

// Each route's schema is built when the route is first used (z.lazy): a cold start builds only its route's.

export const updateProfileBody = z.lazy(() =>
  z.strictObject({ email: z.optional(emailField()), display_name: z.optional(displayNameField()) }).check(
    z.refine((body) => body.email !== undefined || body.display_name !== undefined, {
      message: 'give at least one of email, display_name',
    }),
  ),
);

export const changePasswordBody = z.lazy(() =>
  z.strictObject({
    current_password: z.string().check(z.minLength(1), z.maxLength(256)),
    new_password: passwordField(),
  }),
);

export const userIdParams = z.lazy(() => z.strictObject({ id: z.uuid('must be a user id (UUID)') }));

const roleField = () => z.enum(ROLES, 'must be one of admin, editor, viewer');

export const createUserBody = z.lazy(() =>
  z.strictObject({
    username: usernameField(),
    email: emailField(),
    password: passwordField(),
    role: roleField(),
    display_name: z.optional(displayNameField()),
  }),
);

export const updateUserBody = z.lazy(() =>
  z
    .strictObject({
      role: z.optional(roleField()),
      email: z.optional(emailField()),
      display_name: z.optional(displayNameField()),
    })
    .check(
      z.refine((body) => body.role !== undefined || body.email !== undefined || body.display_name !== undefined, {
        message: 'give at least one of role, email, display_name',
      }),
    ),
);

/** `?month=YYYY-MM` (a calendar month, UTC); absent: the current month. */
export const usageQuery = z.lazy(() =>
  z.strictObject({
    month: z.optional(z.string().check(z.regex(MONTH_PATTERN, 'must be a month as YYYY-MM'))),
  }),
);
