/**
 * The protocol's fixed values that code needs at run time. Kept apart from the zod schemas so
 * the browser bundle can use them without carrying zod.
 */

/** Texts the original client shows as they are. */
export const TEXT = {
  activeGameRefusal: 'Cannot search for a new game while in an active game',
  anonymousName: 'Anonymous Player',
  aiOpponentName: 'Stockfish AI',
} as const;

/**
 * What a player is told of the opponent's socket (`opponentDisconnected` with the grace in whole
 * seconds, `opponentReconnected`).
 */
export const PRESENCE_TEXT = {
  left: (seconds: number) => `Your opponent disconnected. They have ${seconds} seconds to come back before you win by disconnection.`,
  back: 'Your opponent reconnected.',
} as const;

/** The socket path on the server. */
export const SOCKET_PATH = '/socket';

/** The AI levels a client may ask for in startAIGame, and the one the client starts on. */
export const AI_DIFFICULTY = { min: 1, max: 10, default: 5 } as const;

/**
 * Answered only by a server in development mode, with `{ "inspector": true }`: the page may
 * connect its machines to the XState inspector (`?inspect`, docs/inspector.md).
 */
export const DEV_INSPECTOR_PATH = '/dev/inspector';

/**
 * What a time control may be (seconds): lichess's custom-game range, from ¼ minute to 180
 * minutes of initial time and up to 180 s of increment.
 */
export const TIME_CONTROL_LIMITS = { initial: { min: 15, max: 180 * 60 }, increment: { min: 0, max: 180 } } as const;

/**
 * Game chat (docs/product.md, "Chat"): a line is plain text of at most `maxLength` characters
 * once trimmed (lichess's length); a player may send at most `lines` lines in any `windowMs`.
 */
export const CHAT = { maxLength: 140, lines: 4, windowMs: 10_000 } as const;

/**
 * The speeds a time control falls into, fastest first (lichess's, without correspondence); each
 * has its own rating. Which speed a time control is: machines/game/timeControl.ts `speedOf`.
 */
export const SPEEDS = ['ultraBullet', 'bullet', 'blitz', 'rapid', 'classical'] as const;
