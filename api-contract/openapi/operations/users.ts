import type { routes } from '../../../functions/users/schemas';
import type { GroupDocs } from '../operation-docs';
import { PasswordChanged } from '../shapes/auth';
import { ApiTokenList, CreatedApiToken } from '../shapes/tokens';
import { UsageReport, WorkspaceUsage } from '../shapes/usage';
import { User, UserPage } from '../shapes/users';

const workspaceId = '5d2c1b0a-9e8f-4a7b-9c6d-3e2f1a0b9c8d';

const admin = {
  id: '0b7e3c52-9d1a-4f6e-8c2b-5a4d3e2f1a0b',
  workspace_id: workspaceId,
  username: 'alice',
  email: 'alice@example.com',
  role: 'admin',
  display_name: 'Alice',
  created_at: '2026-11-02T09:30:00.000Z',
  updated_at: '2026-11-02T09:30:00.000Z',
};

const member = {
  ...admin,
  id: '7c3e9a14-2b5d-4f8e-a1c6-9d0b3e7f5a21',
  username: 'bob',
  email: 'bob@example.com',
  role: 'editor',
  display_name: null,
  created_at: '2026-11-03T14:05:00.000Z',
  updated_at: '2026-11-03T14:05:00.000Z',
};

const usage = {
  workspace_id: workspaceId,
  name: "alice's workspace",
  month: '2026-11',
  documents_stored: 412,
  bytes_stored: 1288490188,
  documents_uploaded: 57,
  documents_deleted: 3,
  bytes_uploaded: 183500800,
  bytes_deleted: 2097152,
  pages_ocred: 140,
  pages_ocred_by_engine: { tesseract: 121, text_layer: 19 },
  search_requests: 230,
  api_requests: 4810,
};

/** Both usage routes read the same counters; what they mean is said once. */
const USAGE_COUNTING =
  'A document\'s upload and deletion (with its original file\'s bytes, not thumbnails or extracted text) count in the month they happened; `documents_stored` and `bytes_stored` are the uploads less the deletions of every month up to the end of this one (now, for the current month), documents adopted from before workspaces counting as uploads of the month they were created. Pages: each completed OCR run, under the engine that read it (`text_layer`: a PDF\'s own text); a run done again counts again. `search_requests`: each search that ran; `api_requests`: each authenticated HTTP request, including those refused with 429.';

const LAST_ADMIN_AND_OPERATOR =
  'A workspace always keeps an admin: removing its last one is 409 with `details.reason = "last_admin"`, enforced in the same transaction as the change, so two admins demoting each other at once cannot both succeed. The operator (the bootstrap admin, `ADMIN_USERNAME`) stays an admin: 409 with `details.reason = "operator"`.';

const SAME_AS_UNKNOWN = 'A user id of another workspace is 404 exactly like an unknown one.';

const apiToken = {
  id: '3f1c2b7a-8d4e-4a6b-9c0d-1e2f3a4b5c6d',
  user_id: member.id,
  name: 'scanner in the office',
  prefix: 'dst_csKL',
  scopes: ['write'],
  created_at: '2026-11-05T10:00:00.000Z',
  last_used_at: '2026-11-06T07:42:00.000Z',
  expires_at: '2027-11-05T10:00:00.000Z',
};

/** What every token operation says of tokens, once. */
const TOKENS =
  'A personal API token acts for its user, sent as `Authorization: Bearer dst_...` wherever a session\'s token is accepted (and in the WebSocket `auth` message). At every request it may do what both its scopes and its user\'s role then allow: `read` what a viewer may, `write` what an editor may, `admin` what an admin may; so a demoted user\'s tokens lose the power at once and a deleted user\'s are 401. Its requests count against its user\'s rate limits. Managing tokens, users and the password, and logging out, need a session: with a token they are 403 `FORBIDDEN` with `details.reason = "session_required"`.';

export const usersDocs: GroupDocs<typeof routes> = {
  listUsers: {
    summary: "List the workspace's users",
    description: "The users of the caller's workspace only, oldest first, in the P list body.",
    responses: {
      200: {
        description: 'One page of users.',
        schema: UserPage,
        example: {
          data: [admin, member],
          pagination: { page: 1, per_page: 20, total: 2, total_pages: 1, has_next: false, has_prev: false },
        },
      },
    },
  },
  createUser: {
    summary: 'Add a user to the workspace',
    description:
      "Creates a user in the caller's workspace, with any role. Usernames and emails are unique across the deployment without regard to case, as at registration.",
    requestExample: { username: 'bob', email: 'bob@example.com', password: 'a long passphrase', role: 'editor' },
    responses: { 201: { description: 'The user created.', schema: User, example: member } },
    errors: [{ code: 'DUPLICATE_RESOURCE', when: 'the username or the email is taken, in any case; `details.field` names which' }],
  },
  updateUser: {
    summary: "Change a user's role, email or name",
    description: [
      'Give at least one of `role`, `email`, `display_name` (`display_name: null` clears it). A new role holds from the member\'s next request (authentication reads the stored role, not the token\'s).',
      `${LAST_ADMIN_AND_OPERATOR} ${SAME_AS_UNKNOWN}`,
    ].join('\n\n'),
    requestExample: { role: 'viewer' },
    responses: {
      200: {
        description: 'The user as changed.',
        schema: User,
        example: { ...member, role: 'viewer', updated_at: '2026-11-04T08:00:00.000Z' },
      },
    },
    errors: [
      {
        code: 'DUPLICATE_RESOURCE',
        when: 'the new email is taken (`details.field = "email"`), or the change would demote the workspace\'s last admin (`details.reason = "last_admin"`) or the operator (`details.reason = "operator"`)',
      },
    ],
  },
  deleteUser: {
    summary: 'Remove a user from the workspace',
    description: [
      'The user\'s username and email are free again, their settings go, every token of theirs is refused (401) from the next request and their personal API tokens are deleted, and their WebSocket connections get `UNAUTHORIZED` (`details.reason = "user_deleted"`) and are closed. Their documents stay with the workspace.',
      `${LAST_ADMIN_AND_OPERATOR} An admin may delete themselves otherwise; their token then stops working like any deleted user's. ${SAME_AS_UNKNOWN}`,
    ].join('\n\n'),
    responses: { 204: { description: 'Removed.' } },
    errors: [
      {
        code: 'DUPLICATE_RESOURCE',
        when: 'the user is the workspace\'s last admin (`details.reason = "last_admin"`) or the operator (`details.reason = "operator"`)',
      },
    ],
  },
  getProfile: {
    summary: 'Get your profile',
    description: "The caller's own user record.",
    responses: { 200: { description: 'The caller.', schema: User, example: admin } },
  },
  updateProfile: {
    summary: 'Change your email or display name',
    description: 'Give at least one of `email`, `display_name` (`display_name: null` clears it). Answers with the profile.',
    requestExample: { display_name: 'Alice Smith' },
    responses: {
      200: {
        description: 'The profile as changed.',
        schema: User,
        example: { ...admin, display_name: 'Alice Smith', updated_at: '2026-11-04T08:00:00.000Z' },
      },
    },
    errors: [{ code: 'DUPLICATE_RESOURCE', when: 'another user has the email, in any case (`details.field = "email"`)' }],
  },
  changePassword: {
    summary: 'Change your password',
    description:
      'Checks the current password, then sets the new one. Every token issued before stops working, the caller\'s too, so the answer carries a fresh session; the user\'s WebSocket connections opened with the old tokens get `UNAUTHORIZED` (`details.reason = "password_changed"`) and are closed.',
    requestExample: { current_password: 'correct horse battery', new_password: 'a new long passphrase' },
    responses: {
      200: {
        description: 'The password is changed; the new session replaces every earlier token.',
        schema: PasswordChanged,
        example: {
          message: 'Password changed; tokens issued before now no longer work',
          token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIwYjdlM2M1MiJ9.bmV3c2lnbmF0dXJl',
          expires_at: '2026-11-04T09:00:00.000Z',
          user: { id: admin.id, username: admin.username, email: admin.email, role: 'admin' },
        },
      },
    },
    errors: [
      {
        code: 'VALIDATION_ERROR',
        when: 'the current password is wrong (`details.field = "current_password"`) or the new one equals it (`details.field = "new_password"`)',
      },
    ],
  },
  listTokens: {
    summary: 'List your API tokens',
    description: [
      "The caller's own tokens, oldest first; with `all=true` every token of the caller's workspace (its admins only: 403 otherwise), `user_id` naming whose. Never the secrets. Expired tokens are listed until deleted. The listing follows a token's creation or deletion within a moment (it is read from an index).",
      TOKENS,
    ].join('\n\n'),
    responses: { 200: { description: 'The tokens.', schema: ApiTokenList, example: { tokens: [apiToken] } } },
    errors: [{ code: 'FORBIDDEN', when: '`all=true` by a caller who is not an admin of the workspace (`details.required_role = "admin"`)' }],
  },
  createToken: {
    summary: 'Make a personal API token',
    description: [
      '`scopes`: one or more of `read`, `write`, `admin` (the highest counts; it may exceed the caller\'s role today, but never acts above the role the user has at each request). `expires_at`: when it stops working, in the future and at most `API_TOKEN_MAX_DAYS` (365 by default) away; without it the token lives that long. The answer carries the secret as `token`, **this once**: only its SHA-256 is stored. A user holds at most 50 tokens, expired ones included (409, `details.reason = "token_limit"`): delete one first.',
      TOKENS,
    ].join('\n\n'),
    requestExample: { name: 'scanner in the office', scopes: ['write'], expires_at: '2027-11-05T10:00:00.000Z' },
    responses: {
      201: {
        description: 'The token, with its secret.',
        schema: CreatedApiToken,
        example: { ...apiToken, last_used_at: null, token: 'dst_csKLbRm5xpYpeCIVSEA6jN35ECsth3P94PMWPfZSwDS0riCCX' },
      },
    },
    errors: [
      { code: 'VALIDATION_ERROR', when: '`expires_at` is not in the future or further away than `API_TOKEN_MAX_DAYS` (`details.field = "expires_at"`)' },
      { code: 'DUPLICATE_RESOURCE', when: 'the caller already holds 50 tokens (`details.reason = "token_limit"`, `details.limit`)' },
    ],
  },
  deleteToken: {
    summary: 'Revoke an API token',
    description: [
      "Deletes one of the caller's tokens, or as a workspace admin any token of the workspace. The next request with it is 401; the WebSocket connections it authenticated get `UNAUTHORIZED` and are closed. Another member's token (for a non-admin) or another workspace's is 404 like an unknown id.",
      TOKENS,
    ].join('\n\n'),
    responses: { 204: { description: 'Revoked.' } },
  },
  getUsage: {
    summary: "Get the workspace's usage",
    description: [
      "What the caller's workspace used in `month` (`YYYY-MM`, UTC; default: the current month), for billing. The workspace is always the caller's. Every workspace's: `listWorkspaceUsage`.",
      USAGE_COUNTING,
    ].join('\n\n'),
    responses: { 200: { description: "The workspace's counters for the month.", schema: WorkspaceUsage, example: usage } },
  },
  listWorkspaceUsage: {
    summary: "List every workspace's usage",
    description: [
      "Every workspace's usage in `month` (`YYYY-MM`, UTC; default: the current month), oldest workspace first, each as `getUsage` answers it. `npm run usage -- --month YYYY-MM` prints the same as CSV.",
      USAGE_COUNTING,
    ].join('\n\n'),
    responses: {
      200: {
        description: "Each workspace's counters for the month.",
        schema: UsageReport,
        example: {
          month: '2026-11',
          workspaces: [
            { ...usage, workspace_id: '00000000-0000-4000-8000-000000000000', name: 'Default workspace', pages_ocred: 0, pages_ocred_by_engine: {} },
            usage,
          ],
        },
      },
    },
  },
};
