import { lazyOpenIdClient } from '../adapters/oidc/lazy-openid-client';
import type { AppContainer } from './app-container';
import { awsAppContainer } from './aws';

/*
 * The single sign-on part of the cloud composition root, apart from aws.ts so that only the auth function,
 * which serves the OIDC routes, bundles openid-client (and loads it on the first OIDC request only).
 */

/** The auth endpoints: the app container and, when OIDC_* is set, the OIDC relying party. */
export function awsAuthContainer(env: NodeJS.ProcessEnv = process.env): AppContainer {
  return awsAppContainer(env, { oidcClient: lazyOpenIdClient });
}
