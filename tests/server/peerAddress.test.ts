/**
 * What uWS really reports as the peer of a socket listening on "::" (HOST=::), and that the
 * server's address functions make of it what they make of the same client on an IPv4 socket.
 */
import uWS from 'uWebSockets.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrustedProxies, clientAddress, isLoopbackAddress } from '../../server/http/clientAddress';
import { addressKey } from '../../server/realtime/admission';

let listen: uWS.us_listen_socket | null = null;
let port = 0;

beforeAll(async () => {
  const app = uWS.App().get('/*', (res) => {
    res.end(Buffer.from(res.getRemoteAddressAsText()).toString());
  });
  await new Promise<void>((resolve, reject) =>
    app.listen('::', 0, (socket) => {
      if (!socket) return reject(new Error('cannot listen on ::'));
      listen = socket;
      port = uWS.us_socket_local_port(socket);
      resolve();
    }),
  );
});

afterAll(() => {
  if (listen) uWS.us_listen_socket_close(listen);
});

/** The peer address uWS gives for a request from `host`. */
async function peerFrom(host: string): Promise<string> {
  return (await fetch(`http://${host}:${port}/`)).text();
}

describe('a server listening on ::', () => {
  it('reports an IPv4 client mapped into IPv6, which counts as the IPv4 address', async () => {
    const peer = await peerFrom('127.0.0.1');
    expect(peer).not.toBe('127.0.0.1'); // the spelling that made the limits and proxy lists miss
    const none = new TrustedProxies([]);
    expect(clientAddress(peer, undefined, none)).toBe('127.0.0.1');
    expect(addressKey(clientAddress(peer, undefined, none))).toBe('127.0.0.1');
    expect(isLoopbackAddress(peer)).toBe(true);
    // TRUST_PROXY=127.0.0.1 trusts it, so its X-Forwarded-For is read
    expect(clientAddress(peer, '198.51.100.7', new TrustedProxies(['127.0.0.1']))).toBe('198.51.100.7');
  });

  it('reports an IPv6 loopback client that is loopback', async () => {
    const peer = await peerFrom('[::1]');
    expect(clientAddress(peer, undefined, new TrustedProxies([]))).toBe('::1');
    expect(isLoopbackAddress(peer)).toBe(true);
  });
});
