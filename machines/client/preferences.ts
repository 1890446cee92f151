/**
 * The player's choices for the game screen, remembered per device: board colours, piece set,
 * sound on or off. Anything unknown read back from storage falls back to the default.
 */
export const BOARD_THEMES = ['brown', 'blue', 'green'] as const;
export const PIECE_SETS = ['cburnett', 'glyph'] as const;

export type BoardTheme = (typeof BOARD_THEMES)[number];
export type PieceSet = (typeof PIECE_SETS)[number];

export interface PlayPreferences {
  board: BoardTheme;
  pieces: PieceSet;
  muted: boolean;
}

export const DEFAULT_PREFERENCES: PlayPreferences = { board: 'brown', pieces: 'cburnett', muted: false };

const isOneOf = <T extends string>(list: readonly T[], v: unknown): v is T => typeof v === 'string' && (list as readonly string[]).includes(v);

/** Stored preferences with every field checked; bad or missing fields take the default. */
export function readPreferences(stored: unknown): PlayPreferences {
  const o = (stored && typeof stored === 'object' ? stored : {}) as Record<string, unknown>;
  return {
    board: isOneOf(BOARD_THEMES, o.board) ? o.board : DEFAULT_PREFERENCES.board,
    pieces: isOneOf(PIECE_SETS, o.pieces) ? o.pieces : DEFAULT_PREFERENCES.pieces,
    muted: typeof o.muted === 'boolean' ? o.muted : DEFAULT_PREFERENCES.muted,
  };
}
