/**
 * INSPECT=ws://host:port: the server's matchmaking and game actors stream to a WebSocket
 * inspector. A real `ws` server stands in for the inspector and must receive the events of a
 * game being played.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { AddressInfo } from 'node:net';
import { createWebSocketInspector } from '@statelyai/inspect';
import { loadConfig } from '../../server/config';
import { pairPlayers, playMoves, startTestServer } from './helpers';
import type { RunningServer } from '../../server/app';

let server: RunningServer | undefined;
let receiver: WebSocketServer | undefined;
afterEach(async () => {
  await server?.close();
  await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
  server = undefined;
  receiver = undefined;
});

describe('XState inspector', () => {
  it('reads INSPECT as a WebSocket URL and refuses anything else', () => {
    expect(loadConfig({ INSPECT: 'ws://127.0.0.1:9000' }).inspect).toBe('ws://127.0.0.1:9000');
    expect(loadConfig({ INSPECT: '1' }).inspect).toBe('ws://localhost:8080');
    expect(loadConfig({}).inspect).toBeNull();
    expect(() => loadConfig({ INSPECT: 'http://example.org' })).toThrow(/INSPECT must be a ws/);
  });

  it('streams the matchmaking and game actors of a played game to the inspector', async () => {
    receiver = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((r) => receiver!.once('listening', r));
    const events: { type: string; sessionId?: string; event?: { type?: string } }[] = [];
    receiver.on('connection', (sock) =>
      sock.on('message', (data) => {
        try {
          events.push(JSON.parse(data.toString()));
        } catch {
          /* superjson frames that are not plain JSON are ignored here */
        }
      }),
    );
    const url = `ws://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    const inspector = createWebSocketInspector({ url });
    server = await startTestServer({ inspect: inspector.inspect });
    const pair = await pairPlayers(server.url);
    await playMoves(pair, ['e2e4']);
    await expect
      .poll(() => events.filter((e) => e.type === '@xstate.event').map((e) => e.event?.type), { timeout: 5000 })
      .toEqual(expect.arrayContaining(['JOIN', 'MOVE']));
    inspector.stop();
  });
});
