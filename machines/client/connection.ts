/**
 * The realtime connection lifecycle (docs/product.md, Connection: reconnect after
 * 3000 ms, unlimited retries).
 *
 *   connecting --OPEN--> open --CLOSED--> waiting --3 s--> connecting ...
 *   connecting --CLOSED (or creation failed)--> waiting
 *
 * The socket itself lives in the invoked `socket` callback actor, which the
 * browser build provides with a real WebSocket and tests with a fake one.
 * Every server message is parsed here and emitted as `{type:'message'}`;
 * unparseable ones are logged and ignored (docs/product.md, Connection).
 */
import { assign, emit, enqueueActions, fromCallback, sendTo, setup } from 'xstate';
import type { ClientMessage, ServerMessage } from '../protocol/messages';
import { REPLACED_CLOSE_CODE } from '../protocol/closeCodes';
import { guestProtocols, type GuestCredentials } from '../protocol/guestClaim';

export const RECONNECT_DELAY_MS = 3000;
/** A socket closed with REPLACED_CLOSE_CODE parks until the app says this tab is in use again (RECONNECT). */
export { REPLACED_CLOSE_CODE };

export type SocketIdentity = GuestCredentials;

export interface ConnectionInput {
  /** base socket URL, e.g. ws://host/socket */
  url: string;
  /** a stored guest socket identity to reconnect as the same player */
  identity?: SocketIdentity | null;
}

export interface ConnectionContext {
  url: string;
  identity: SocketIdentity | null;
  connected: boolean;
  count: number | null;
  attempts: number;
}

export type ConnectionEvent =
  | { type: 'OPEN' }
  | { type: 'CLOSED'; code?: number; reason?: string }
  | { type: 'ERROR'; error?: unknown }
  | { type: 'RAW'; data: string }
  | { type: 'SEND'; message: ClientMessage }
  /**
   * drop the current socket and connect again at once (e.g. after sign-out, to shed the account
   * binding); `forgetIdentity`: as a new guest, not the stored one
   */
  | { type: 'RECONNECT'; forgetIdentity?: boolean };

export type ConnectionEmitted =
  | { type: 'message'; message: ServerMessage }
  | { type: 'opened' }
  | { type: 'closed' }
  | { type: 'identity'; identity: SocketIdentity }
  | { type: 'dropped'; message: ClientMessage };

/** The socket's URL (never with the guest's secret in it) and the guest identity to prove on connect. */
export interface SocketActorInput { url: string; identity: SocketIdentity | null }
export type SocketCommand = { type: 'TRANSMIT'; data: string };

/**
 * The browser's WebSocket as a callback actor. The guest identity goes in the upgrade request
 * itself, as the socket's subprotocol (docs/protocol.md, Identity on connect), not in the URL.
 */
export const browserSocket = fromCallback<SocketCommand, SocketActorInput>(({ input, sendBack, receive }) => {
  let ws: WebSocket;
  try {
    ws = new WebSocket(input.url, guestProtocols(input.identity));
  } catch (error) {
    sendBack({ type: 'ERROR', error });
    sendBack({ type: 'CLOSED' });
    return () => {};
  }
  ws.onopen = () => sendBack({ type: 'OPEN' });
  ws.onclose = (e) => sendBack({ type: 'CLOSED', code: e.code, reason: e.reason });
  ws.onerror = (error) => sendBack({ type: 'ERROR', error });
  ws.onmessage = (e) => sendBack({ type: 'RAW', data: typeof e.data === 'string' ? e.data : '' });
  receive((cmd) => {
    if (cmd.type === 'TRANSMIT' && ws.readyState === WebSocket.OPEN) ws.send(cmd.data);
  });
  return () => {
    ws.onopen = ws.onclose = ws.onerror = ws.onmessage = null;
    if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close();
  };
});

function parseServerMessage(data: string): ServerMessage | null {
  try {
    const msg = JSON.parse(data) as unknown;
    if (msg && typeof msg === 'object' && typeof (msg as { type?: unknown }).type === 'string') return msg as ServerMessage;
  } catch {
    /* fall through */
  }
  return null;
}

export const connectionMachine = setup({
  types: {
    context: {} as ConnectionContext,
    events: {} as ConnectionEvent,
    input: {} as ConnectionInput,
    emitted: {} as ConnectionEmitted,
  },
  actors: { socket: browserSocket },
  actions: {
    logError: (_, params: { error: unknown }) => console.error('socket error', params.error),
    warnDropped: (_, params: { message: ClientMessage }) =>
      console.warn(`socket not open; dropped "${params.message.type}"`),
    logBadMessage: (_, params: { data: string }) => console.warn('ignored unparseable socket message', params.data.slice(0, 200)),
  },
  delays: { reconnectDelay: RECONNECT_DELAY_MS },
}).createMachine({
  id: 'connection',
  context: ({ input }) => ({ url: input.url, identity: input.identity ?? null, connected: false, count: null, attempts: 0 }),
  initial: 'online',
  on: {
    RECONNECT: {
      target: '.online',
      reenter: true,
      actions: assign({ identity: ({ context, event }) => (event.forgetIdentity ? null : context.identity) }),
    },
    ERROR: {
      actions: [assign({ connected: false }), { type: 'logError', params: ({ event }) => ({ error: event.error }) }],
    },
  },
  states: {
    online: {
      entry: assign({ attempts: ({ context }) => context.attempts + 1 }),
      // one socket per attempt, alive in both sub-states
      invoke: { id: 'socket', src: 'socket', input: ({ context }) => ({ url: context.url, identity: context.identity }) },
      on: {
        CLOSED: [
          { guard: ({ event }) => event.code === REPLACED_CLOSE_CODE, target: 'parked' },
          { target: 'waiting' },
        ],
      },
      initial: 'connecting',
      states: {
        connecting: {
          on: {
            OPEN: 'open',
            SEND: { actions: { type: 'warnDropped', params: ({ event }) => ({ message: event.message }) } },
          },
        },
        open: {
          entry: [assign({ connected: true }), emit({ type: 'opened' })],
          exit: [assign({ connected: false }), emit({ type: 'closed' })],
          on: {
            SEND: { actions: sendTo('socket', ({ event }) => ({ type: 'TRANSMIT', data: JSON.stringify(event.message) })) },
            RAW: [
              {
                guard: ({ event }) => parseServerMessage(event.data) === null,
                actions: { type: 'logBadMessage', params: ({ event }) => ({ data: event.data }) },
              },
              {
                guard: ({ event }) => parseServerMessage(event.data)?.type === 'connectionAck',
                actions: [
                  assign(({ context, event }) => {
                    const msg = parseServerMessage(event.data) as Extract<ServerMessage, { type: 'connectionAck' }>;
                    return {
                      count: msg.count,
                      identity: msg.secret ? { playerId: msg.playerId, secret: msg.secret } : context.identity,
                    };
                  }),
                  enqueueActions(({ context, enqueue }) => {
                    if (context.identity) enqueue.emit({ type: 'identity', identity: context.identity });
                  }),
                  emit(({ event }) => ({ type: 'message' as const, message: parseServerMessage(event.data) as ServerMessage })),
                ],
              },
              {
                actions: [
                  assign(({ event }) => {
                    const msg = parseServerMessage(event.data) as ServerMessage;
                    return msg.type === 'playerCount' ? { count: msg.count } : {};
                  }),
                  emit(({ event }) => ({ type: 'message' as const, message: parseServerMessage(event.data) as ServerMessage })),
                ],
              },
            ],
          },
        },
      },
    },
    parked: {
      on: {
        SEND: { actions: { type: 'warnDropped', params: ({ event }) => ({ message: event.message }) } },
      },
    },
    waiting: {
      after: { reconnectDelay: 'online' },
      on: {
        SEND: { actions: { type: 'warnDropped', params: ({ event }) => ({ message: event.message }) } },
      },
    },
  },
});
