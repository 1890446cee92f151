/**
 * The records of the game journal (server/game/journal.ts) and their line format. One record per
 * line: the CRC-32 of the JSON as 8 hex digits, a space, the JSON, a newline. The checksum covers
 * the whole record, its game id and its place in the game (`n`) included, and tells a damaged
 * record from a good one; the game id is read from a damaged record when it can be, so that the
 * damage is reported against its game. Each record of a game carries its place in the game's log
 * (the start is 0, the commands 1, 2, …, then the end), so a record that is missing, or that
 * belongs to another game, leaves a hole that reading the journal back finds
 * (journalRecovery.ts).
 */
import { crc32 } from 'node:zlib';
import type { GameInput, GameResult, TimedCommand } from '../../machines/game';
import type { Color } from '../../machines/protocol/messages';

/**
 * A game against the AI as journals written before such games were ordinary games kept it: who
 * plays it, at which level, and its moves (no clock, no times). Only read, never written: reading
 * the journal turns it into an ordinary game log (journalRecovery.ts).
 */
export interface OldAiGame {
  gameId: string;
  playerId: string;
  playerColor: Color;
  difficulty: number;
  /** UCI, both sides, in order */
  moves: string[];
}

export type JournalRecord =
  /** a game began (its log's input; the game id is input.gameId) */
  | { k: 'start'; input: GameInput }
  /** one entry of a game's log, the `n`th (journals written before `n` existed lack it) */
  | { k: 'cmd'; g: string; n?: number; e: TimedCommand }
  /** a game is over (its log is complete); `n` follows its last entry's */
  | { k: 'end'; g: string; n?: number; at: number; result: GameResult }
  /** an ended game's archive row (and rating) is committed: the journal no longer keeps it */
  | { k: 'archived'; g: string }
  /** older journals only (read, never written): a game against the AI began */
  | { k: 'ai'; g: string; playerId: string; playerColor: Color; difficulty: number }
  /** older journals only: a move of a game against the AI (the player's or the AI's), UCI */
  | { k: 'aimove'; g: string; uci: string }
  /** older journals only: a game against the AI is over */
  | { k: 'aiend'; g: string }
  /** the node was alive at `at` (its last sign of life bounds the time it was away) */
  | { k: 'alive'; at: number };

export function encodeRecord(record: JournalRecord): string {
  const json = JSON.stringify(record);
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
}

export type DecodedLine = { ok: true; record: JournalRecord } | { ok: false; gameId: string | null; reason: string };

const GAME_ID_IN_DAMAGED = /"(?:g|gameId)":"((?:game|ai)_[A-Za-z0-9_-]{1,64})"/;

/** One line (without its newline) back into a record, or why not and whose game it was. */
export function decodeLine(line: string): DecodedLine {
  const damaged = (reason: string): DecodedLine => ({ ok: false, gameId: GAME_ID_IN_DAMAGED.exec(line)?.[1] ?? null, reason });
  const m = /^([0-9a-f]{8}) (.*)$/s.exec(line);
  if (!m) return damaged('not a journal record');
  if (crc32(m[2]).toString(16).padStart(8, '0') !== m[1]) return damaged('checksum mismatch');
  let record: unknown;
  try {
    record = JSON.parse(m[2]);
  } catch {
    return damaged('not JSON');
  }
  return isRecord(record) ? { ok: true, record } : damaged('unknown record kind');
}

/** A record's place in its game: a whole number when present (absent in journals older than it). */
function hasPlace(r: object): boolean {
  return !('n' in r) || (typeof r.n === 'number' && Number.isInteger(r.n) && r.n > 0);
}

function isRecord(r: unknown): r is JournalRecord {
  if (typeof r !== 'object' || r === null || !('k' in r)) return false;
  switch (r.k) {
    case 'start':
      return 'input' in r && typeof r.input === 'object' && r.input !== null && 'gameId' in r.input && typeof r.input.gameId === 'string';
    case 'cmd':
      return 'g' in r && typeof r.g === 'string' && hasPlace(r) && 'e' in r && typeof r.e === 'object' && r.e !== null;
    case 'end':
      return 'g' in r && typeof r.g === 'string' && hasPlace(r) && 'at' in r && typeof r.at === 'number';
    case 'alive':
      return 'at' in r && typeof r.at === 'number';
    case 'archived':
      return 'g' in r && typeof r.g === 'string';
    case 'ai':
      return 'g' in r && typeof r.g === 'string' && 'playerId' in r && typeof r.playerId === 'string' && 'playerColor' in r && (r.playerColor === 'white' || r.playerColor === 'black') && 'difficulty' in r && typeof r.difficulty === 'number';
    case 'aimove':
      return 'g' in r && typeof r.g === 'string' && 'uci' in r && typeof r.uci === 'string';
    case 'aiend':
      return 'g' in r && typeof r.g === 'string';
    default:
      return false;
  }
}
