/**
 * The player's settings (docs/product.md, Settings): board colours, piece set, sound, premoves,
 * move confirmation on a phone, zen mode, and the game chat folded away or the opponent muted. Remembered per device and, signed in, in the account
 * (user_metadata.preferences). Anything unknown read back falls back to the default.
 */
export const BOARD_THEMES = ['brown', 'blue', 'green'] as const;
export const PIECE_SETS = ['cburnett', 'glyph'] as const;

export type BoardTheme = (typeof BOARD_THEMES)[number];
export type PieceSet = (typeof PIECE_SETS)[number];

export interface PlayPreferences {
  board: BoardTheme;
  pieces: PieceSet;
  muted: boolean;
  /** queue a move while the opponent thinks */
  premoves: boolean;
  /** on a phone, a move made on the board waits for Confirm (a slip of the finger is not played) */
  confirmMovesOnPhone: boolean;
  /** the game screen shows the board, the clocks and the moves only: no names, ratings or site header */
  zen: boolean;
  /** a game's chat is folded away (it can be opened again) */
  chatHidden: boolean;
  /** the opponent's lines in the player room are not shown */
  chatMuteOpponent: boolean;
}

export const DEFAULT_PREFERENCES: PlayPreferences = {
  board: 'brown', pieces: 'cburnett', muted: false, premoves: true, confirmMovesOnPhone: false, zen: false, chatHidden: false, chatMuteOpponent: false,
};

const FLAGS = ['muted', 'premoves', 'confirmMovesOnPhone', 'zen', 'chatHidden', 'chatMuteOpponent'] as const;

const isOneOf = <T extends string>(list: readonly T[], v: unknown): v is T => typeof v === 'string' && (list as readonly string[]).includes(v);

/** Stored preferences with every field checked; bad or missing fields take the default. */
export function readPreferences(stored: unknown): PlayPreferences {
  const o = (stored && typeof stored === 'object' ? stored : {}) as Record<string, unknown>;
  const flag = (k: (typeof FLAGS)[number]) => (typeof o[k] === 'boolean' ? o[k] : DEFAULT_PREFERENCES[k]);
  return {
    board: isOneOf(BOARD_THEMES, o.board) ? o.board : DEFAULT_PREFERENCES.board,
    pieces: isOneOf(PIECE_SETS, o.pieces) ? o.pieces : DEFAULT_PREFERENCES.pieces,
    muted: flag('muted'),
    premoves: flag('premoves'),
    confirmMovesOnPhone: flag('confirmMovesOnPhone'),
    zen: flag('zen'),
    chatHidden: flag('chatHidden'),
    chatMuteOpponent: flag('chatMuteOpponent'),
  };
}

/** Whether two sets of preferences say the same. */
export function samePreferences(a: PlayPreferences, b: PlayPreferences): boolean {
  return a.board === b.board && a.pieces === b.pieces && FLAGS.every((k) => a[k] === b[k]);
}
