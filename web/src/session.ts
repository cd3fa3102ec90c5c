/**
 * The signed-in session, kept in memory only (never localStorage or a cookie): a page reload signs out. The
 * token is refreshed through POST /api/auth/refresh a minute before it expires, and once more when a request
 * is refused 401 (a refresh accepts an expired token, within the server's grace period).
 */
import type { Schema } from '../../client/src';

export type SessionUser = Schema<'SessionUser'>;

export interface Session {
  token: string;
  expiresAt: number;
  user: SessionUser;
}

type Listener = (session: Session | null) => void;

let current: Session | null = null;
const listeners = new Set<Listener>();
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
let refresher: (() => Promise<boolean>) | undefined;

/** How long before expiry the token is traded for a fresh one. */
const REFRESH_AHEAD_MS = 60_000;

export const session = (): Session | null => current;

/** Subscribes to sign-in, refresh and sign-out; returns the unsubscribe. */
export function onSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Registers how a refresh is done (api.ts), so that this module needs no API call of its own. */
export function setRefresher(refresh: () => Promise<boolean>): void {
  refresher = refresh;
}

export function setSession(next: Session | null): void {
  current = next;
  clearTimeout(refreshTimer);
  if (next && refresher) {
    const refresh = refresher;
    const wait = Math.max(5_000, next.expiresAt - Date.now() - REFRESH_AHEAD_MS);
    refreshTimer = setTimeout(() => void refresh(), wait);
  }
  for (const listener of listeners) listener(next);
}

export const can = {
  edit: (user: SessionUser | undefined): boolean => user?.role === 'editor' || user?.role === 'admin',
  admin: (user: SessionUser | undefined): boolean => user?.role === 'admin',
};
