import type { routes } from '../../../functions/auth/schemas';
import type { GroupDocs } from '../operation-docs';
import { Message } from '../shapes/common';
import { Session } from '../shapes/auth';
import { User } from '../shapes/users';

const session = {
  token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIwYjdlM2M1MiJ9.c2lnbmF0dXJl',
  expires_at: '2026-11-02T10:30:00.000Z',
  user: { id: '0b7e3c52-9d1a-4f6e-8c2b-5a4d3e2f1a0b', username: 'alice', email: 'alice@example.com', role: 'admin' },
};

/** Both OIDC routes answer so while no provider is configured. */
const oidcNotConfigured = {
  code: 'NOT_FOUND',
  when: 'single sign-on is not configured on this service (`details.feature = "oidc"`, `details.configured = false`)',
} as const;

export const authDocs: GroupDocs<typeof routes> = {
  register: {
    summary: 'Sign up',
    description: [
      'Self-service sign-up. Usernames are 3-64 characters (letters, digits, `.`, `_`, `-`, starting with a letter or digit), passwords 8-256. Usernames and emails are unique across the deployment without regard to case (login is by username alone).',
      'What a sign-up gets follows `REGISTRATION_MODE`: `workspace` (the default) creates a new, empty workspace named `<username>\'s workspace` in the same transaction as the user, with the user as its admin; `closed` refuses every sign-up. The answer is the user, never a password hash; it carries no token: log in next.',
    ].join('\n\n'),
    requestExample: { username: 'alice', email: 'alice@example.com', password: 'correct horse battery', display_name: 'Alice' },
    responses: {
      201: {
        description: 'The user created, admin of their new workspace.',
        schema: User,
        example: {
          id: '0b7e3c52-9d1a-4f6e-8c2b-5a4d3e2f1a0b',
          workspace_id: '5d2c1b0a-9e8f-4a7b-9c6d-3e2f1a0b9c8d',
          username: 'alice',
          email: 'alice@example.com',
          role: 'admin',
          display_name: 'Alice',
          created_at: '2026-11-02T09:30:00.000Z',
          updated_at: '2026-11-02T09:30:00.000Z',
        },
      },
    },
    errors: [
      { code: 'FORBIDDEN', when: 'registration is closed on this service (`REGISTRATION_MODE=closed`; `details.registration = "closed"`)' },
      { code: 'DUPLICATE_RESOURCE', when: 'the username or the email is taken, in any case; `details.field` names which' },
    ],
  },
  login: {
    summary: 'Log in',
    description: [
      'Exchanges a username (matched without regard to case) and password for a token. An unknown user and a wrong password get the same 401, with the same message, after the same work.',
      '**Failed logins** are counted per username (without regard to case), whether the name exists or not: 5 at once, then one more every 30 s (2 a minute). Past that, a login for the name is 429 `RATE_LIMITED` with `Retry-After` before any password is checked, so a guesser learns nothing and is held to 2 guesses a minute per name, while the real user waits at most 30 s and is never locked out. A successful login does not reset the count (it would let a guesser who knows one password reset another\'s).',
    ].join('\n\n'),
    requestExample: { username: 'alice', password: 'correct horse battery' },
    responses: { 200: { description: 'The session.', schema: Session, example: session } },
    errors: [
      { code: 'UNAUTHORIZED', when: 'the username is unknown or the password wrong (one message for both)' },
      { code: 'RATE_LIMITED', when: 'the username\'s failed logins are used up (5 at once, then one every 30 s); `Retry-After` says when to try again' },
    ],
  },
  logout: {
    summary: 'Log out',
    description:
      'Revokes the presented token: neither it nor a refresh of it is accepted afterwards. The WebSocket connections authenticated with it get `UNAUTHORIZED` (`details.reason = "logged_out"`) and are closed; the user\'s other tokens and their connections go on.',
    responses: { 200: { description: 'The token is revoked.', schema: Message, example: { message: 'Logged out' } } },
  },
  refreshToken: {
    summary: 'Refresh a token',
    description:
      'Trades the bearer token, expired or not, for a fresh one, answered like login. The token is accepted up to `JWT_REFRESH_GRACE_SECONDS` (default 7 days) after its expiry, and is revoked in the same step: a token can be refreshed once (of two concurrent refreshes, one wins). WebSocket connections authenticated with the old token carry on with the new one.',
    responses: { 200: { description: 'The new session.', schema: Session, example: session } },
    errors: [
      {
        code: 'UNAUTHORIZED',
        when: 'no bearer token, or one that is not genuine, expired longer ago than the grace, revoked (logged out or already refreshed), issued before the user\'s last password change, or whose user is gone',
      },
    ],
  },
  startOidcLogin: {
    summary: 'Start single sign-on',
    description:
      'Sends the browser to the configured OpenID Connect provider (authorization code flow) with a fresh `state`, `nonce` and PKCE S256 challenge, remembered for 10 minutes. The provider\'s discovery document is kept once fetched and fetched again after a failure.',
    responses: {
      302: {
        description: "To the provider's authorization endpoint.",
        headers: {
          Location: "The provider's authorization URL, with `state`, `nonce` and `code_challenge`.",
          'Cache-Control': '`no-store`: the redirect carries a one-time state.',
        },
      },
    },
    errors: [
      oidcNotConfigured,
      { code: 'SERVICE_UNAVAILABLE', when: 'the identity provider cannot be reached (`details.feature = "oidc"`)' },
    ],
  },
  completeOidcLogin: {
    summary: 'Complete single sign-on',
    description: [
      'Where the provider sends the browser back. The state is taken once, whatever the outcome; the code is exchanged with the PKCE verifier, and the ID token\'s signature (the provider\'s JWKS), issuer, audience, nonce and expiry are checked (openid-client); the profile is completed from the UserInfo endpoint for the same subject. Parameters the provider adds (`session_state`, `scope`, ...) are ignored, not refused.',
      'Users are linked by (issuer, subject). The first login creates one with the provider\'s email and name, a username from `preferred_username` or the email\'s local part made to fit the register rules (`-2`, `-3`, ... when taken), and no usable password, in `OIDC_WORKSPACE_ID` (default: the first workspace, the operator\'s) with the role the claims map to (`OIDC_ROLE_CLAIM`, `OIDC_ROLE_MAP`) or `OIDC_DEFAULT_ROLE`; a workspace id that names no workspace makes that login a 500 whose log names the variable. The provider must share an email, and not mark it `email_verified: false`. An account that already has the email is not taken over (linking is not offered yet). Role changes at the provider are not carried over after the first login.',
      'The answer is login\'s session, or, with `OIDC_FRONTEND_URL` set, a 302 there with the token in the fragment.',
    ].join('\n\n'),
    responses: {
      200: {
        description: 'The session (without `OIDC_FRONTEND_URL`).',
        schema: Session,
        example: { ...session, user: { ...session.user, username: 'alice.smith', role: 'viewer' } },
        headers: { 'Cache-Control': '`no-store`: the body carries a token.' },
      },
      302: {
        description: 'With `OIDC_FRONTEND_URL`: the browser sent to the front end with the session in the fragment.',
        headers: {
          Location: '`<OIDC_FRONTEND_URL>#token=<token>&expires_at=<ISO 8601>`',
          'Cache-Control': '`no-store`: the redirect carries a token.',
        },
      },
    },
    errors: [
      { code: 'VALIDATION_ERROR', when: 'the callback carries no `error` and lacks `code` or `state`; `details.field` names it' },
      {
        code: 'UNAUTHORIZED',
        when: 'the provider sent an `error` (`details.provider_error`), refused the code (`details.provider_error`) or answered with an ID token that does not hold (`details.reason`); the state is unknown, expired or already used (`details.field = "state"`); or a first login\'s identity has no email or an unverified one (`details.claim`)',
      },
      {
        code: 'DUPLICATE_RESOURCE',
        when: 'a first login\'s email belongs to an account not linked to this sign-in (`details.field = "email"`), or no free username was found',
      },
      oidcNotConfigured,
      { code: 'SERVICE_UNAVAILABLE', when: 'the identity provider cannot be reached (`details.feature = "oidc"`)' },
    ],
  },
};
