import * as z from '../../../shared/zod';
import { ROLES } from '../../../shared/domain/principal';
import { pageOf } from './common';
import { id, shape, timestamp } from './registry';

/** A user without secrets (shared/domain/users/user.ts `toPublicUser`): what register, profile and user management answer. */
export const User = shape(
  'User',
  'A member of a workspace, without secrets.',
  z.strictObject({
    id: id(),
    workspace_id: id().check(z.describe('The one workspace the user belongs to; the role holds in it.')),
    username: z.string(),
    email: z.string(),
    role: z.enum(ROLES),
    display_name: z.nullable(z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  }),
);

/** One page of a workspace's users. */
export const UserPage = shape('UserPage', "A page of the workspace's users, oldest first.", pageOf(User));
