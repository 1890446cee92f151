/**
 * The app's long-lived actors: the realtime connection and the identity.
 * Created once at start-up (after the optional inspector) and shared by the screens.
 */
import { createActor, type ActorRefFrom } from 'xstate';
import { connectionMachine, type ConnectionEmitted } from '../../../machines/client/connection';
import { identityMachine } from '../../../machines/client/identity';
import type { ClientMessage, ServerMessage, ServerMessageType } from '../../../machines/protocol/messages';
import { SOCKET_PATH } from '../../../machines/protocol/messages';
import { getInspect } from './inspector';
import { clearGuest, loadGuest, loadSocketIdentity, saveGuest, saveSocketIdentity } from './storage';

export type ConnectionActor = ActorRefFrom<typeof connectionMachine>;
export type IdentityActor = ActorRefFrom<typeof identityMachine>;

let connection: ConnectionActor | null = null;
let identity: IdentityActor | null = null;
let playerId: string | null = null;

type Handler<T extends ServerMessageType> = (msg: Extract<ServerMessage, { type: T }>) => void;
const handlers = new Map<ServerMessageType, Set<(msg: ServerMessage) => void>>();
/** The last message of each type, for a lazily loaded screen that starts listening late. */
const latest = new Map<ServerMessageType, { msg: ServerMessage; seq: number }>();
let received = 0;

export function socketBaseUrl(): string {
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${proto}://${location.host}${SOCKET_PATH}`;
}

export function startServices(): void {
  if (connection) return;
  const inspect = getInspect();
  identity = createActor(
    identityMachine.provide({
      actions: {
        saveGuest: (_, params) => void saveGuest(params.guest),
        clearGuest: () => clearGuest(),
      },
    }),
    { input: { storedGuest: loadGuest() }, inspect },
  );
  identity.start();

  connection = createActor(connectionMachine, { input: { url: socketBaseUrl(), identity: loadSocketIdentity() }, inspect });
  connection.on('identity', (e: Extract<ConnectionEmitted, { type: 'identity' }>) => {
    playerId = e.identity.playerId;
    saveSocketIdentity(e.identity);
  });
  connection.on('message', ({ message }) => dispatch(message));
  connection.start();

  // identifyUser after connect and whenever the account or its token changes
  let lastIdentified = '';
  const identify = () => {
    const ctx = identity!.getSnapshot().context;
    if (!connection!.getSnapshot().context.connected || !ctx.user || !ctx.accessToken) return;
    const key = `${ctx.user.id}:${ctx.accessToken}`;
    if (key === lastIdentified) return;
    lastIdentified = key;
    send({ type: 'identifyUser', payload: { userId: ctx.user.id, accessToken: ctx.accessToken } });
  };
  onMessage('connectionAck', (msg) => {
    playerId = msg.playerId;
    lastIdentified = '';
    identify();
  });
  onMessage('identified', (msg) => { playerId = msg.playerId; });
  identity.subscribe(() => identify());

  // a tab whose seat was taken by another tab of the same player takes it back when used again
  const resume = () => {
    if (document.visibilityState === 'visible' && connection!.getSnapshot().matches('parked')) connection!.send({ type: 'RECONNECT' });
  };
  window.addEventListener('focus', resume);
  document.addEventListener('visibilitychange', resume);
}

function dispatch(message: ServerMessage): void {
  latest.set(message.type, { msg: message, seq: ++received });
  const set = handlers.get(message.type);
  if (!set || set.size === 0) {
    if (message.type !== 'playerCount' && message.type !== 'connectionAck' && message.type !== 'identified') {
      console.debug('unhandled socket message', message.type);
    }
    return;
  }
  for (const h of [...set]) {
    try {
      h(message);
    } catch (err) {
      console.error(`handling "${message.type}" failed`, err);
    }
  }
}

/** Subscribe to one server message type; returns the unsubscribe function. */
export function onMessage<T extends ServerMessageType>(type: T, handler: Handler<T>): () => void {
  let set = handlers.get(type);
  if (!set) handlers.set(type, (set = new Set()));
  const h = handler as (msg: ServerMessage) => void;
  set.add(h);
  return () => set!.delete(h);
}

/**
 * The last message of `type` received so far and its arrival number (later messages have
 * higher numbers), or null. A message that arrived before its screen was loaded is found here.
 */
export function lastMessage<T extends ServerMessageType>(type: T): { msg: Extract<ServerMessage, { type: T }>; seq: number } | null {
  const hit = latest.get(type);
  return hit ? { msg: hit.msg as Extract<ServerMessage, { type: T }>, seq: hit.seq } : null;
}

/** Sends only while the socket is open; otherwise the machine warns and drops. */
export function send(message: ClientMessage): void {
  connection?.send({ type: 'SEND', message });
}

/** Whether the socket is open now (a message sent now reaches the server, barring a drop in flight). */
export function isOpen(): boolean {
  return connection?.getSnapshot().matches({ online: 'open' }) ?? false;
}

/** Sends when the socket is open and says whether it did; nothing is logged when it is not. */
export function trySend(message: ClientMessage): boolean {
  if (!isOpen()) return false;
  send(message);
  return true;
}

export function getConnection(): ConnectionActor {
  if (!connection) throw new Error('services not started');
  return connection;
}
export function getIdentity(): IdentityActor {
  if (!identity) throw new Error('services not started');
  return identity;
}
export function getPlayerId(): string | null {
  return playerId;
}
