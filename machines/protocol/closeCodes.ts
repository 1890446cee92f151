/**
 * WebSocket close codes the server ends a game socket with, shared by the server (which sends
 * them) and the client (which reacts to them). docs/protocol.md and docs/server.md describe them.
 */

/** The server is shutting down (RFC 6455 "going away"); reconnect after the usual delay. */
export const SHUTDOWN_CLOSE_CODE = 1001;
/** The socket sent more messages than the rate limit allows (RFC 6455 "policy violation"). */
export const RATE_LIMIT_CLOSE_CODE = 1008;
/** A frame larger than the server accepts (RFC 6455 "message too big"). */
export const TOO_LARGE_CLOSE_CODE = 1009;
/**
 * Several nodes: the address opened more sockets than the site lets it (RFC 6455 "try again
 * later"); the close reason says so. Reconnect after the usual delay.
 */
export const TRY_AGAIN_LATER_CLOSE_CODE = 1013;
/**
 * A newer socket of the same player took the seat. Reconnecting at once would take it back and
 * start a tug of war between two tabs, so the client waits until it is used again.
 */
export const REPLACED_CLOSE_CODE = 4001;
