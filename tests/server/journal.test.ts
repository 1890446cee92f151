/**
 * The game journal read back (server/game/journalRecovery.ts) and a log moved to a new time base
 * (machines/game shiftLog): what a restarted server resumes, reports and drops.
 */
import { describe, expect, it } from 'vitest';
import { clocksAt, newGameLog, replay, shiftLog, type GameInput, type GameLog } from '../../machines/game';
import { encodeRecord, type JournalRecord } from '../../server/game/journalRecords';
import { readJournal } from '../../server/game/journalRecovery';

const input = (gameId: string, startedAt = 1000): GameInput => ({
  gameId,
  white: { id: 'player_whitewhite', name: 'W' },
  black: { id: 'player_blackblack', name: 'B' },
  startedAt,
});

const move = (playerId: string, uci: string, at: number) => ({ type: 'MOVE' as const, playerId, move: { from: uci.slice(0, 2), to: uci.slice(2, 4) }, at });

/** A game whose clocks run: four plies, a second apart. */
function fourPlies(gameId: string): GameLog {
  const log = newGameLog(input(gameId));
  ['e2e4', 'e7e5', 'g1f3', 'b8c6'].forEach((uci, i) => log.entries.push(move(i % 2 ? 'player_blackblack' : 'player_whitewhite', uci, 2000 + i * 1000)));
  return log;
}

function journalOf(...logs: GameLog[]): string {
  const records: JournalRecord[] = [];
  for (const l of logs) {
    records.push({ k: 'start', input: l.input });
    l.entries.forEach((e, i) => records.push({ k: 'cmd', g: l.input.gameId, n: i + 1, e }));
  }
  return records.map(encodeRecord).join('');
}

/** Two live games' journals, their records interleaved (as two games played at once write them), and the lines of it. */
function interleaved(): { a: GameLog; b: GameLog; lines: string[] } {
  const a = fourPlies('game_aaaaaaaa');
  const b = fourPlies('game_bbbbbbbb');
  const la = journalOf(a).trimEnd().split('\n');
  const lb = journalOf(b).trimEnd().split('\n');
  return { a, b, lines: la.flatMap((l, i) => [l, lb[i]]) };
}
const textOf = (lines: string[]) => lines.join('\n') + '\n';

describe('game journal', () => {
  it('gives back every live game with its entries, and finished games with their results', () => {
    const a = fourPlies('game_aaaaaaaa');
    const b = fourPlies('game_bbbbbbbb');
    const text = journalOf(a, b) + encodeRecord({ k: 'end', g: 'game_bbbbbbbb', n: 5, at: 9000, result: { winner: 'white', reason: 'resignation' } }) + encodeRecord({ k: 'alive', at: 9500 });
    const found = readJournal(text);
    expect(found.live).toEqual([a]);
    expect(found.unarchived).toEqual([{ log: b, result: { winner: 'white', reason: 'resignation' }, at: 9000 }]);
    expect(found.damaged).toEqual([]);
    expect(found.tornTail).toBeNull();
    expect(found.lastAliveAt).toBe(9500);
  });

  it('reports a damaged record against its game, which alone is left out', () => {
    const a = fourPlies('game_aaaaaaaa');
    const b = fourPlies('game_bbbbbbbb');
    const lines = journalOf(a, b).split('\n');
    const i = lines.findIndex((l) => l.includes('game_bbbbbbbb') && l.includes('"from":"g1"'));
    lines[i] = lines[i].replace('g1', 'h1'); // one flipped character: the checksum no longer matches
    const found = readJournal(lines.join('\n'));
    expect(found.live.map((l) => l.input.gameId)).toEqual(['game_aaaaaaaa']);
    expect(found.damaged).toEqual([expect.objectContaining({ gameId: 'game_bbbbbbbb', reason: expect.stringContaining('checksum'), white: b.input.white, black: b.input.black })]);
  });

  it("ends a game as damaged when one of its records is missing, or replaced by another game's whole record, instead of resuming it with a hole", () => {
    const { a, b, lines } = interleaved();
    const third = lines.findIndex((l) => l.includes('game_aaaaaaaa') && l.includes('"n":3'));
    const missing = readJournal(textOf(lines.filter((_, i) => i !== third)));
    expect(missing.live).toEqual([b]);
    expect(missing.damaged).toEqual([expect.objectContaining({ gameId: 'game_aaaaaaaa', reason: expect.stringMatching(/record 4 of the game where 3 was due/), white: a.input.white })]);

    // b's third record copied over a's (a whole record, checksum and all)
    const foreign = [...lines];
    foreign[third] = lines.find((l) => l.includes('game_bbbbbbbb') && l.includes('"n":3'))!;
    const found = readJournal(textOf(foreign));
    expect(found.damaged.map((d) => d.gameId).sort()).toEqual(['game_aaaaaaaa', 'game_bbbbbbbb']);
    expect(found.live).toEqual([]);
  });

  it('ends a game whose record was replaced by garbage, and does not end a game that never existed when a damaged record names one', () => {
    const { b, lines } = interleaved();
    const third = lines.findIndex((l) => l.includes('game_aaaaaaaa') && l.includes('"n":3'));
    const garbage = [...lines];
    garbage[third] = 'x'.repeat(lines[third].length);
    const found = readJournal(textOf(garbage));
    expect(found.live).toEqual([b]);
    expect(found.damaged.map((d) => d.gameId)).toEqual(['game_aaaaaaaa']);
    expect(found.unreadable).toEqual([{ line: third + 1, reason: 'not a journal record' }]);

    // the game id inside a's third record corrupted: the checksum fails, and the id it names is no game
    const renamed = [...lines];
    renamed[third] = lines[third].replace('game_aaaaaaaa', 'game_aaaaaaaz');
    const named = readJournal(textOf(renamed));
    expect(named.damaged.map((d) => d.gameId)).toEqual(['game_aaaaaaaa']);
    expect(named.unreadable).toEqual([{ line: third + 1, reason: expect.stringMatching(/checksum mismatch.*game_aaaaaaaz, which no whole record names/) }]);
    expect(named.live).toEqual([b]);
  });

  it('reads journals written before records carried their place in the game', () => {
    const a = fourPlies('game_aaaaaaaa');
    const old = [{ k: 'start' as const, input: a.input }, ...a.entries.map((e) => ({ k: 'cmd' as const, g: 'game_aaaaaaaa', e }))];
    expect(readJournal(old.map(encodeRecord).join('')).live).toEqual([a]);
  });

  it('keeps an ended game until its archived record, and then forgets it', () => {
    const b = fourPlies('game_bbbbbbbb');
    const ended = journalOf(b) + encodeRecord({ k: 'end', g: 'game_bbbbbbbb', n: 5, at: 9000, result: { winner: 'black', reason: 'timeout' } });
    expect(readJournal(ended).unarchived.map((e) => e.log.input.gameId)).toEqual(['game_bbbbbbbb']);
    const archived = readJournal(ended + encodeRecord({ k: 'archived', g: 'game_bbbbbbbb' }));
    expect(archived).toMatchObject({ unarchived: [], live: [], damaged: [], unreadable: [] });
  });

  it('drops a last record cut short by a crash (never acknowledged) and keeps the game', () => {
    const a = fourPlies('game_aaaaaaaa');
    const whole = journalOf(a);
    const extra = encodeRecord({ k: 'cmd', g: 'game_aaaaaaaa', n: 5, e: move('player_whitewhite', 'f1c4', 6000) });
    const found = readJournal(whole + extra.slice(0, 50));
    expect(found.live).toEqual([a]);
    expect(found.damaged).toEqual([]);
    expect(found.tornTail).toEqual({ gameId: 'game_aaaaaaaa' });
  });

  it('reads the records up to the zeros written ahead of them, a write cut short among the zeros included', () => {
    const a = fourPlies('game_aaaaaaaa');
    const whole = journalOf(a);
    expect(readJournal(whole + '\0'.repeat(4096))).toMatchObject({ live: [a], tornTail: null, unreadable: [] });
    const extra = encodeRecord({ k: 'cmd', g: 'game_aaaaaaaa', n: 5, e: move('player_whitewhite', 'f1c4', 6000) });
    // a crash that wrote the batch's start and a later sector, but not the one between
    const found = readJournal(whole + extra.slice(0, 50) + '\0'.repeat(512) + extra.slice(562 % extra.length) + '\0'.repeat(4096));
    expect(found.live).toEqual([a]);
    expect(found.unreadable).toEqual([]);
    expect(found.tornTail).toEqual({ gameId: 'game_aaaaaaaa' });
  });

  it('reports a log that does not replay, and records naming no game', () => {
    const bad = newGameLog(input('game_cccccccc'));
    bad.entries.push(move('player_whitewhite', 'e2e4', Number.NaN));
    const found = readJournal(journalOf(bad).replace('null', '"x"') + 'garbage\n');
    expect(found.unreadable).toEqual([{ line: 3, reason: 'not a journal record' }]);
    expect(found.live).toEqual([]);
    expect(found.damaged.map((d) => d.gameId)).toEqual(['game_cccccccc']);
  });

  it('gives back the live games against the AI of an older journal as ordinary logs with their moves, and not the ended ones', () => {
    const seat = { playerId: 'player_aiplayer1', playerColor: 'black' as const, difficulty: 3 };
    const records: JournalRecord[] = [
      { k: 'ai', g: 'ai_one', ...seat },
      { k: 'aimove', g: 'ai_one', uci: 'e2e4' },
      { k: 'ai', g: 'ai_two', ...seat },
      { k: 'aimove', g: 'ai_one', uci: 'c7c5' },
      { k: 'aiend', g: 'ai_two' },
    ];
    const found = readJournal(records.map(encodeRecord).join(''));
    expect(found.damaged).toEqual([]);
    expect(found.live.map((l) => l.input.gameId)).toEqual(['ai_one']);
    const game = replay(found.live[0]);
    expect(game.moves).toEqual(['e2e4', 'c7c5']);
    expect(game.black.id).toBe(seat.playerId);
    expect(game.white.engine).toEqual({ level: 3 });
    expect(game.settings.untimed).toBe(true);
  });

  it('moves a log to another time base: the same game, and no clock charged for the gap', () => {
    const log = fourPlies('game_aaaaaaaa');
    const before = replay(log);
    const moved = shiftLog(log, -1_234_567.5);
    const after = replay(moved);
    expect(after.moves).toEqual(before.moves);
    expect(after.fen).toBe(before.fen);
    // five seconds into white's turn, in either time base, white has spent the same time
    expect(clocksAt(after, after.turnStartedAt + 5000)).toEqual(clocksAt(before, before.turnStartedAt + 5000));
    expect(JSON.parse(JSON.stringify(moved))).toEqual(moved);
    expect(() => shiftLog(log, Number.NaN)).toThrow(/cannot shift/);
  });
});
