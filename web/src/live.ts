/**
 * The live channel: one WebSocket to `/ws` while signed in, authenticated with the session's token, its events
 * handed to subscribers. It reconnects after a drop (backing off) and closes on sign-out.
 */
import { webSocketUrl } from './api';
import { onSession, session } from './session';

export interface LiveEvent {
  type: string;
  data: Record<string, unknown>;
}

type Listener = (event: LiveEvent) => void;

const listeners = new Set<Listener>();
let socket: WebSocket | null = null;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let backoffMs = 1_000;
let connectedToken: string | null = null;

/** Subscribes to every server event; returns the unsubscribe. */
export function onLive(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function connect(): void {
  const token = session()?.token;
  if (!token || socket) return;
  const ws = new WebSocket(webSocketUrl());
  socket = ws;
  connectedToken = token;
  ws.onopen = () => ws.send(JSON.stringify({ type: 'auth', token }));
  ws.onmessage = (message) => {
    let event: LiveEvent;
    try {
      event = JSON.parse(String(message.data)) as LiveEvent;
    } catch {
      return;
    }
    if (event.type === 'auth_success') backoffMs = 1_000;
    for (const listener of listeners) listener(event);
  };
  ws.onclose = () => {
    if (socket !== ws) return;
    socket = null;
    if (!session()) return;
    retryTimer = setTimeout(connect, backoffMs);
    backoffMs = Math.min(backoffMs * 2, 30_000);
  };
}

function disconnect(): void {
  clearTimeout(retryTimer);
  const ws = socket;
  socket = null;
  connectedToken = null;
  ws?.close();
}

onSession((next) => {
  if (!next) disconnect();
  // A refreshed token carries the open connection on (the server moves it); only a first sign-in connects.
  else if (!socket || !connectedToken) connect();
});

/** Whether the live channel is open (for the status shown in the header). */
export const liveOpen = (): boolean => socket?.readyState === WebSocket.OPEN;
