/**
 * The peer for the benchmark: a bare uWebSockets.js server that echoes every text message.
 * Same native binary and loader as the real server. Prints {"port":N} on stdout when listening.
 * ECHO_RELAY=1: also sends each message to one other client (1 receive + 2 sends, what relaying
 * a move costs in I/O alone, with no validation, game or clock): the I/O floor of a relayed move.
 */
import { loadUws } from '../../server/uws';

const uws = loadUws();
const relay = process.env.ECHO_RELAY === '1';
const clients: unknown[] = [];
const port = Number(process.env.PORT ?? 0);
uws
  .App()
  .ws('/socket', {
    maxPayloadLength: 8 * 1024,
    idleTimeout: 60,
    sendPingsAutomatically: true,
    open: (ws) => {
      (ws.getUserData() as { i: number }).i = clients.length;
      clients.push(ws);
      ws.send('{"type":"hello"}', false);
    },
    message: (ws, message, isBinary) => {
      ws.send(message, isBinary);
      if (relay) {
        const i = (ws.getUserData() as { i: number }).i;
        (clients[(i + 1) % clients.length] as typeof ws).send(message, isBinary);
      }
    },
  })
  .listen('127.0.0.1', port, (s) => {
    if (!s) {
      process.stderr.write('echo server: cannot listen\n');
      process.exit(1);
    }
    process.stdout.write(JSON.stringify({ port: uws.us_socket_local_port(s as never) }) + '\n');
  });
process.on('SIGTERM', () => process.exit(0));
