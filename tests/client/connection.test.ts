import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import { connectionMachine, RECONNECT_DELAY_MS, type SocketActorInput, type SocketCommand, type SocketIdentity } from '../../machines/client/connection';
import type { ServerMessage } from '../../machines/protocol/messages';
import { guestProtocol } from '../../machines/protocol/guestClaim';

/** A scripted socket standing in for the browser's WebSocket (fake timers cannot drive a real one). */
interface FakeSocket { url: string; identity: SocketIdentity | null; sent: string[]; open(): void; close(): void; receive(data: string): void; closed: boolean }

function harness() {
  const sockets: FakeSocket[] = [];
  const socket = fromCallback<SocketCommand, SocketActorInput>(({ input, sendBack, receive }) => {
    const s: FakeSocket = {
      url: input.url, identity: input.identity, sent: [], closed: false,
      open: () => sendBack({ type: 'OPEN' }),
      close: () => sendBack({ type: 'CLOSED' }),
      receive: (data) => sendBack({ type: 'RAW', data }),
    };
    receive((cmd) => s.sent.push(cmd.data));
    sockets.push(s);
    return () => { s.closed = true; };
  });
  const actor = createActor(connectionMachine.provide({ actors: { socket } }), { input: { url: 'ws://host/socket' } });
  const messages: ServerMessage[] = [];
  actor.on('message', (e) => messages.push(e.message));
  return { actor, sockets, messages };
}

describe('connection machine', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('is connected once the socket opens and not before', () => {
    const { actor, sockets } = harness();
    actor.start();
    expect(actor.getSnapshot().context.connected).toBe(false);
    sockets[0].open();
    expect(actor.getSnapshot().context.connected).toBe(true);
  });

  it('retries exactly 3 s after a close, again and again', () => {
    const { actor, sockets } = harness();
    actor.start();
    for (let attempt = 1; attempt <= 6; attempt++) {
      expect(sockets).toHaveLength(attempt);
      sockets[attempt - 1].close();
      expect(actor.getSnapshot().context.connected).toBe(false);
      expect(sockets[attempt - 1].closed).toBe(true);
      vi.advanceTimersByTime(RECONNECT_DELAY_MS - 1);
      expect(sockets).toHaveLength(attempt);
      vi.advanceTimersByTime(1);
    }
    expect(sockets).toHaveLength(7);
    expect(RECONNECT_DELAY_MS).toBe(3000);
  });

  it('reconnects after an open socket drops', () => {
    const { actor, sockets } = harness();
    actor.start();
    sockets[0].open();
    sockets[0].close();
    expect(actor.getSnapshot().context.connected).toBe(false);
    vi.advanceTimersByTime(3000);
    sockets[1].open();
    expect(actor.getSnapshot().context.connected).toBe(true);
  });

  it('an error sets the status to false and is logged', () => {
    const { actor, sockets } = harness();
    actor.start();
    sockets[0].open();
    actor.send({ type: 'ERROR', error: new Error('boom') });
    expect(actor.getSnapshot().context.connected).toBe(false);
    expect(console.error).toHaveBeenCalled();
  });

  it('sends only while open; otherwise warns and drops', () => {
    const { actor, sockets } = harness();
    actor.start();
    actor.send({ type: 'SEND', message: { type: 'cancelMatchmaking' } });
    expect(console.warn).toHaveBeenCalled();
    sockets[0].open();
    actor.send({ type: 'SEND', message: { type: 'findGame', payload: { username: 'Ann' } } });
    expect(sockets[0].sent.map((s) => JSON.parse(s))).toEqual([{ type: 'findGame', payload: { username: 'Ann' } }]);
  });

  it('parses messages, ignores garbage, keeps the count and the guest identity for the next connect', () => {
    const { actor, sockets, messages } = harness();
    actor.start();
    sockets[0].open();
    sockets[0].receive('not json');
    sockets[0].receive(JSON.stringify({ type: 'connectionAck', playerId: 'player_abc', count: 3, secret: 's3cret' }));
    sockets[0].receive(JSON.stringify({ type: 'playerCount', count: 5 }));
    expect(messages.map((m) => m.type)).toEqual(['connectionAck', 'playerCount']);
    expect(actor.getSnapshot().context.count).toBe(5);
    sockets[0].close();
    vi.advanceTimersByTime(3000);
    // the identity goes with the next socket, never in its URL (docs/protocol.md)
    expect(sockets[0].identity).toBeNull();
    expect(sockets[1].url).toBe('ws://host/socket');
    expect(sockets[1].identity).toEqual({ playerId: 'player_abc', secret: 's3cret' });
  });
});

describe('connection machine: RECONNECT', () => {
  it('drops the socket and opens a new one at once, with the stored guest identity', () => {
    const { actor, sockets } = harness();
    actor.start();
    sockets[0].open();
    sockets[0].receive(JSON.stringify({ type: 'connectionAck', playerId: 'player_q', count: 1, secret: 'k' }));
    actor.send({ type: 'RECONNECT' });
    expect(sockets[0].closed).toBe(true);
    expect(sockets).toHaveLength(2);
    expect(sockets[1].url).toBe('ws://host/socket');
    expect(sockets[1].identity).toEqual({ playerId: 'player_q', secret: 'k' });
    expect(actor.getSnapshot().context.connected).toBe(false);
    sockets[1].open();
    expect(actor.getSnapshot().context.connected).toBe(true);
  });
});

describe('connection machine: RECONNECT as a new guest', () => {
  it('forgets the stored guest identity: the next socket claims none', () => {
    const { actor, sockets } = harness();
    actor.start();
    sockets[0].open();
    sockets[0].receive(JSON.stringify({ type: 'connectionAck', playerId: 'player_q', count: 1, secret: 'k' }));
    actor.send({ type: 'RECONNECT', forgetIdentity: true });
    expect(sockets).toHaveLength(2);
    expect(sockets[1].identity).toBeNull();
    expect(actor.getSnapshot().context.identity).toBeNull();
  });
});

describe('connection machine: seat taken by another tab', () => {
  it('parks instead of retrying every 3 s, and comes back on RECONNECT', async () => {
    vi.useFakeTimers();
    const { actor, sockets } = harness();
    actor.start();
    sockets[0].open();
    // what the server sends when a newer socket of the same player took the seat
    actor.send({ type: 'CLOSED', code: 4001, reason: 'replaced by a newer connection' });
    expect(actor.getSnapshot().value).toBe('parked');
    expect(actor.getSnapshot().context.connected).toBe(false);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    actor.send({ type: 'RECONNECT' });
    expect(sockets).toHaveLength(2);
    // an ordinary close still retries after 3 s
    sockets[1].open();
    sockets[1].close();
    vi.advanceTimersByTime(3000);
    expect(sockets).toHaveLength(3);
    vi.useRealTimers();
  });
});

describe("the browser's socket", () => {
  /** The sockets the page opened: the address and the subprotocols of each upgrade request. */
  function fakeBrowserSockets(): { url: string; protocols: string[] }[] {
    const opened: { url: string; protocols: string[] }[] = [];
    vi.stubGlobal('WebSocket', class {
      static readonly CONNECTING = 0;
      static readonly OPEN = 1;
      readonly readyState = 0;
      constructor(url: string, protocols: string[]) { opened.push({ url, protocols }); }
      close() {}
    });
    return opened;
  }
  afterEach(() => vi.unstubAllGlobals());

  // Chromium can send a socket's request opened just after a document.cookie write without the
  // cookie: the reload comes back as a new guest, and the game it held stays with the old id
  it('offers the stored guest identity in its own upgrade request, as the subprotocol', () => {
    const opened = fakeBrowserSockets();
    const identity = { playerId: 'player_abc12345', secret: 's3cret' };
    const actor = createActor(connectionMachine, { input: { url: 'ws://host/socket', identity } }).start();
    expect(opened).toEqual([{ url: 'ws://host/socket', protocols: [guestProtocol(identity)] }]);
    actor.stop();
  });

  it('offers none as a new guest', () => {
    const opened = fakeBrowserSockets();
    const actor = createActor(connectionMachine, { input: { url: 'ws://host/socket', identity: null } }).start();
    expect(opened).toEqual([{ url: 'ws://host/socket', protocols: [] }]);
    actor.stop();
  });
});
