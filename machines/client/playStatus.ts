/**
 * The one status line of a game screen: whose turn it is while the game runs, the result once
 * it is over. A finished game never shows "White's turn." (one line, not a second banner).
 */
import type { Color } from '../protocol/messages';
import { positionOf, statusText } from './engine';

export type StatusTone = 'mine' | 'theirs' | 'check' | 'over';

export interface PlayStatusInput {
  fen: string;
  playerColor: Color;
  /** null while the game runs */
  end: { title: string; reasonLabel: string; aborted: boolean; draw: boolean } | null;
  /** what the opponent's turn is called: "Opponent's Turn", "AI Thinking..." */
  theirTurn: string;
}

export function playStatus({ fen, playerColor, end, theirTurn }: PlayStatusInput): { text: string; tone: StatusTone } {
  if (end) {
    if (end.aborted) return { text: 'Game aborted', tone: 'over' };
    const st = positionOf(fen).status();
    // the board says it all: "Checkmate! Black wins." / "Stalemate! Game is a draw."
    if (st.checkmate || st.stalemate) return { text: statusText(fen, end.draw), tone: 'over' };
    return { text: `Game over: ${end.title} (${end.reasonLabel})`, tone: 'over' };
  }
  const game = positionOf(fen);
  const mine = game.turn() === playerColor;
  const check = game.checkedKingSquare() !== null;
  const turn = mine ? 'Your Turn' : theirTurn;
  return { text: check ? `Check! ${turn}` : turn, tone: check ? 'check' : mine ? 'mine' : 'theirs' };
}
