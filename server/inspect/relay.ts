/**
 * The inspector relay: nodes send it their actors' inspection messages over a WebSocket
 * (`ws://host:port/publish`, @statelyai/inspect's createWebSocketInspector), viewers connect to
 * `ws://host:port/` and receive them, and its page (`http://host:port/`) shows them in the
 * Stately inspector. A viewer is first sent the actors already running (LiveActors), so one who
 * joins late sees every live game; `?game=<id>` streams that game's actors only.
 *
 * @statelyai/inspect's createInspectorServer replays to a new viewer only the last 200 messages,
 * whatever they were, and has no filter; this relay speaks the same messages.
 */
import type { Logger } from 'pino';
import { loadUws, type WebSocket, type us_listen_socket } from '../uws';
import { bridgePage } from './bridgePage';
import { LiveActors } from './liveActors';

/** Where nodes publish (the rest of the relay's sockets are viewers). */
export const PUBLISH_PATH = '/publish';
/** A message from a node: a machine's definition may be large. */
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** A viewer that falls this far behind is dropped rather than held in memory. */
const MAX_VIEWER_BACKLOG_BYTES = 64 * 1024 * 1024;
const EVERY_GAME = 'all';

export interface RelayOptions {
  host: string;
  /** 0: a free port */
  port: number;
  logger: Logger;
}

export interface Relay {
  /** the page to open in a browser */
  url: string;
  /** where a node's createWebSocketInspector sends */
  publishUrl: string;
  port: number;
  /** the running actors it knows of */
  liveActors(): number;
  /** resolves once a node publishes to it */
  publisherJoined: Promise<void>;
  close(): void;
}

interface Socket {
  publisher: boolean;
  /** a viewer of one game */
  game: string | null;
}

const gameTopic = (gameId: string) => `game/${gameId}`;

export async function startRelay(opts: RelayOptions): Promise<Relay> {
  const uws = loadUws();
  const log = opts.logger;
  const live = new LiveActors();
  const sockets = new Set<WebSocket<Socket>>();
  const page = bridgePage();
  let refused = 0;
  let publisherJoined!: () => void;
  const joined = new Promise<void>((resolve) => (publisherJoined = resolve));
  const app = uws.App();

  function ingest(text: string): void {
    const routed = live.record(text);
    if ('error' in routed) {
      // once, then every thousandth: a wrong client should not fill the log
      if (refused++ % 1000 === 0) log.warn({ reason: routed.error, refused }, 'inspector relay: a message was not an inspection message and was dropped');
      return;
    }
    app.publish(EVERY_GAME, text, false);
    if (routed.gameId !== null) app.publish(gameTopic(routed.gameId), text, false);
  }

  app.ws<Socket>('/*', {
    maxPayloadLength: MAX_MESSAGE_BYTES,
    maxBackpressure: MAX_VIEWER_BACKLOG_BYTES,
    closeOnBackpressureLimit: 1,
    upgrade: (res, req, context) => {
      const game = req.getQuery('game') || null;
      res.upgrade<Socket>(
        { publisher: req.getUrl() === PUBLISH_PATH, game },
        req.getHeader('sec-websocket-key'),
        req.getHeader('sec-websocket-protocol'),
        req.getHeader('sec-websocket-extensions'),
        context,
      );
    },
    open: (ws) => {
      sockets.add(ws);
      const { publisher, game } = ws.getUserData();
      if (publisher) return publisherJoined();
      for (const message of live.catchUp(game)) ws.send(message, false);
      ws.subscribe(game === null ? EVERY_GAME : gameTopic(game));
      log.info({ game, running: live.size }, 'inspector relay: a viewer joined');
    },
    message: (_ws, data) => ingest(Buffer.from(data).toString('utf8')),
    close: (ws) => {
      sockets.delete(ws);
    },
  });
  app.get('/*', (res) => {
    res.writeHeader('Content-Type', 'text/html; charset=utf-8').writeHeader('Cache-Control', 'no-store').end(page);
  });

  const listenSocket = await new Promise<us_listen_socket>((resolve, reject) => {
    app.listen(opts.host, opts.port, (s) => (s ? resolve(s) : reject(new Error(`the inspector relay cannot listen on ${opts.host}:${opts.port}`))));
  });
  const port = uws.us_socket_local_port(listenSocket);
  const shownHost = opts.host === '0.0.0.0' || opts.host === '::' ? '127.0.0.1' : opts.host;
  return {
    url: `http://${shownHost}:${port}/`,
    publishUrl: `ws://${shownHost}:${port}${PUBLISH_PATH}`,
    port,
    liveActors: () => live.size,
    publisherJoined: joined,
    close() {
      uws.us_listen_socket_close(listenSocket);
      for (const ws of sockets) ws.end(1001, 'the inspector relay is stopping');
      sockets.clear();
    },
  };
}
