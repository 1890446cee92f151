/** Game outcomes, stats, reason labels and end-of-game messages (docs/product.md). */
import type { Color, Winner } from '../protocol/messages';
import { REASON_LABELS, reasonLabel } from '../game/display';
import { shownPlayerName } from './playerName';

export type Outcome = 'win' | 'loss' | 'draw';

export interface GameResult {
  id: string;
  date: string; // ISO
  playerColor: Color;
  result: Outcome;
  reason: string;
  opponentId: string;
}

export interface StatsSummary {
  wins: number;
  losses: number;
  draws: number;
  totalGames: number;
  winRate: number;
  gameHistory: GameResult[];
}

/** Multiplayer outcome for the local player. */
export function outcomeFor(winner: Winner, playerColor: Color): Outcome {
  if (winner === 'draw') return 'draw';
  return winner === playerColor ? 'win' : 'loss';
}

/** AI outcome: a draw if the winner is draw or the reason is technical_draw. */
export function aiOutcomeFor(winner: Winner | undefined, reason: string, playerColor: Color): Outcome {
  if (winner === 'draw' || reason === 'technical_draw' || !winner) return 'draw';
  return winner === playerColor ? 'win' : 'loss';
}

export function summarize(history: GameResult[]): StatsSummary {
  let wins = 0, losses = 0, draws = 0;
  for (const g of history) {
    if (g.result === 'win') wins++;
    else if (g.result === 'loss') losses++;
    else draws++;
  }
  const totalGames = history.length;
  const gameHistory = [...history].sort((a, b) => Date.parse(b.date) - Date.parse(a.date));
  return { wins, losses, draws, totalGames, winRate: totalGames ? (wins / totalGames) * 100 : 0, gameHistory };
}

/** "42.9%" — stats win rate to one decimal. */
export function formatWinRate(rate: number): string {
  return `${rate.toFixed(1)}%`;
}

export interface OpponentRecord { wins: number; losses: number; draws: number; total: number; winPercent: number }

/** The record against one opponent from local history; win percent rounded to 0 decimals. */
export function opponentRecord(history: GameResult[], opponentId: string): OpponentRecord {
  const games = history.filter((g) => g.opponentId === opponentId);
  const s = summarize(games);
  return { wins: s.wins, losses: s.losses, draws: s.draws, total: s.totalGames, winPercent: Math.round(s.winRate) };
}

// The reason labels (docs/product.md) live once, beside the game machine; the multiplayer dialog shows unknown
// reasons as given.
export { REASON_LABELS, reasonLabel } from '../game/display';

const SCORE: Record<Winner, string> = { white: '1-0', black: '0-1', draw: '½-½' };

/** A finished game's result as the game page reads it: "1-0 · Resignation", or "Aborted". */
export function resultLine(winner: Winner, reason: string): string {
  return reason === 'aborted' ? 'Aborted' : `${SCORE[winner]} · ${reasonLabel(reason)}`;
}

/** AI dialog: unknown reasons are capitalised. */
export function aiReasonLabel(reason: string): string {
  return REASON_LABELS[reason] ?? (reason ? reason.charAt(0).toUpperCase() + reason.slice(1) : reason);
}

export const OUTCOME_TITLES: Record<Outcome, string> = { win: 'Victory!', loss: 'Defeat!', draw: 'Draw!' };

export const OUTCOME_MESSAGES: Record<Outcome, readonly string[]> = {
  win: [
    'Your pieces are throwing a parade in your honour.',
    'Magnus just checked his rating nervously.',
    'The pawns will sing of this day.',
    'Checkmate delivered, no signature required.',
    'Your opponent is now reconsidering their life choices.',
  ],
  loss: [
    'Even grandmasters leave their queen hanging sometimes. Sometimes.',
    'The king has requested a quieter kingdom.',
    'Think of it as a very expensive lesson that cost nothing.',
    'Your pieces have filed a complaint with management.',
    'Every loss is just a win that took a wrong turn.',
  ],
  draw: [
    'A handshake worthy of a peace treaty.',
    'Nobody won, nobody lost, everybody had tea.',
    'Perfectly balanced, as all things should be.',
    'The board declares a truce.',
    'Two great minds, one shared half point.',
  ],
};

export function pickOutcomeMessage(outcome: Outcome, random: () => number = Math.random): string {
  const list = OUTCOME_MESSAGES[outcome];
  return list[Math.min(list.length - 1, Math.floor(random() * list.length))];
}

/** The opponent's name, marked when a guest's; the "player_" prefix replaced by "Player " when the server gives no name. */
export function opponentDisplayName(opponentId: string, opponentName?: string, guest = false): string {
  if (opponentName) return shownPlayerName(opponentName, guest);
  return shownPlayerName(opponentId.startsWith('player_') ? `Player ${opponentId.slice('player_'.length)}` : opponentId, guest);
}
