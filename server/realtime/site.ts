/**
 * What the socket layer asks of the site its node is part of. A single node answers everything
 * at once (ONE_NODE); several nodes answer through Redis (server/cluster/siteSockets.ts).
 */
import type { HeldMessage, PlayerSession, SocketData, WS } from './hub';

export interface SocketSite {
  /**
   * The socket opened: the site learns of it. Its messages are held meanwhile (SocketData.held);
   * `release` handles them, in order, once the site has answered.
   */
  opened(ws: WS, data: SocketData, release: (held: HeldMessage[]) => void): void;
  /** The socket now speaks for `account`: null when nothing is left to learn, else settles once the site has answered. */
  accountBound(ws: WS, data: SocketData, account: PlayerSession): Promise<void> | null;
  /** The player's socket here closed. */
  closed(session: PlayerSession): void;
  /** Why no new game may start here now, or null. */
  newGamesRefused(): string | null;
}

export const ONE_NODE: SocketSite = {
  opened: () => {},
  accountBound: () => null,
  closed: () => {},
  newGamesRefused: () => null,
};
