/** Hooks shared by the game screens (multiplayer, AI and local). */
import { useCallback, useEffect, useRef, useState } from 'react';
import { START_FEN } from '../../../../machines/chess/index';
import { isPromotionMove, type TypedMove } from '../../../../machines/client/engine';
import { extendPlies, type Ply } from '../../../../machines/client/moveHistory';
import { moveAnnouncement } from '../../../../machines/client/speech';
import type { Color, PromotionPiece } from '../../../../machines/protocol/messages';
import { playSound, soundForSan } from '../../app/sounds';
import type { Announcement } from '../../components/PlayLayout';

export interface ViewedPosition {
  plies: Ply[];
  sans: string[];
  /** the ply looked at (-1: the start), or null to follow the game */
  viewPly: number | null;
  setViewPly: (ply: number | null) => void;
  fen: string;
  lastMove: [string, string] | null;
}

/** The position the board shows: the game's, or an earlier one the player is looking back at. */
export function useViewedPosition(moves: string[], fen: string, lastMove: [string, string] | null): ViewedPosition {
  const cache = useRef<{ moves: string[]; plies: Ply[] }>({ moves: [], plies: [] });
  if (cache.current.moves !== moves) cache.current = { moves, plies: extendPlies(cache.current.plies, cache.current.moves, moves) };
  const plies = cache.current.plies;
  const [viewPly, setViewPly] = useState<number | null>(null);
  // a shorter game (a new one, or a move taken back) ends any look back past its end
  const shown = viewPly !== null && viewPly < plies.length - 1 ? viewPly : null;
  const ply = shown === null ? null : shown >= 0 ? plies[shown] : undefined;
  return {
    plies,
    sans: plies.map((p) => p.san),
    viewPly: shown,
    setViewPly,
    fen: shown === null ? fen : ply ? ply.fen : START_FEN,
    lastMove: shown === null ? lastMove : ply ? [ply.from, ply.to] : null,
  };
}

/** Start, move/capture/check and end sounds, for what happened since the last render. */
export function useGameSounds(gameKey: unknown, plies: Ply[], over: boolean): void {
  const seen = useRef({ gameKey, plies: plies.length, over });
  useEffect(() => {
    const before = seen.current;
    seen.current = { gameKey, plies: plies.length, over };
    if (over && !before.over) playSound('end');
    else if (gameKey !== before.gameKey && gameKey !== null && plies.length === 0) playSound('start');
    else if (plies.length === before.plies + 1) playSound(soundForSan(plies[plies.length - 1].san));
  }, [gameKey, plies, over]);
}

/** The tab's title says "Your turn" while the player is to move, so a player in another tab sees it. */
export function useTurnTitle(myTurn: boolean): void {
  useEffect(() => {
    const base = document.title.replace(/^Your turn · /, '');
    document.title = myTurn ? `Your turn · ${base}` : base;
    return () => { document.title = base; };
  }, [myTurn]);
}

/** How many lines the live region keeps (older ones were read already). */
const KEPT_ANNOUNCEMENTS = 5;

/**
 * What the screen's live region says (docs/client.md, Playing without a mouse): the opponent's
 * move as it comes ("Black: knight f6."), the result once the game is over, and whatever else
 * the screen announces (`announce`, e.g. low time). Moves the player made are not repeated, and
 * a game loaded with its moves (a rejoin) announces none of them.
 */
export function useAnnouncements(plies: Ply[], myColor: Color, endText: string | null): { announcements: Announcement[]; announce: (text: string) => void } {
  const [announcements, setAnnouncements] = useState<Announcement[]>([]);
  const announce = useCallback((text: string) => {
    setAnnouncements((said) => [...said.slice(-(KEPT_ANNOUNCEMENTS - 1)), { id: (said.at(-1)?.id ?? 0) + 1, text }]);
  }, []);
  const seen = useRef({ plies: plies.length, endText });
  useEffect(() => {
    const before = seen.current;
    seen.current = { plies: plies.length, endText };
    if (endText !== null && endText !== before.endText) announce(endText);
    else if (plies.length === before.plies + 1) {
      const by: Color = plies.length % 2 === 1 ? 'white' : 'black';
      if (by !== myColor) announce(moveAnnouncement(by, plies[plies.length - 1].san));
    }
  }, [plies, myColor, endText, announce]);
  return { announcements, announce };
}

/**
 * When a game starts (its key changes to a new game), the focus goes where the player acts: the
 * move field with a keyboard and a fine pointer, the board on a touch screen (where focusing a
 * text field would open the on-screen keyboard over the board).
 */
export function useFocusAtStart(gameKey: string | null): void {
  useEffect(() => {
    if (gameKey === null) return;
    const touch = window.matchMedia?.('(pointer: coarse)').matches ?? false;
    const target = touch ? document.querySelector<HTMLElement>('[data-testid="board"]') : document.getElementById('keyboard-move-input');
    target?.focus();
  }, [gameKey]);
}

export interface PromotionChoice {
  /** A move made on the board; a pawn onto the last rank waits for the piece to be chosen. */
  onBoardMove: (from: string, to: string) => void;
  /** The pawn move waiting for its piece (the promotion dialog is open), or null. */
  asking: { from: string; to: string } | null;
  choose: (piece: PromotionPiece) => void;
  /** Closes the dialog without moving; the board is redrawn, so the pawn goes back. */
  cancel: () => void;
  /** Counts the cancelled promotions: added to the board's version, it redraws the board. */
  redraw: number;
}

/** The board's moves, with the promotion piece asked for first when a pawn reaches the last rank. */
export function usePromotionChoice(fen: string, move: (m: TypedMove) => void): PromotionChoice {
  const [asking, setAsking] = useState<{ from: string; to: string } | null>(null);
  const [redraw, setRedraw] = useState(0);
  return {
    onBoardMove: (from, to) => {
      if (isPromotionMove(fen, from, to)) setAsking({ from, to });
      else move({ from, to });
    },
    asking,
    choose: (piece) => {
      if (asking) move({ ...asking, promotion: piece });
      setAsking(null);
    },
    cancel: () => {
      setAsking(null);
      setRedraw((n) => n + 1);
    },
    redraw,
  };
}
