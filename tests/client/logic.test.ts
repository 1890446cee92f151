import { describe, expect, it } from 'vitest';
import {
  aiOutcomeFor, aiReasonLabel, formatWinRate, opponentDisplayName, opponentRecord, outcomeFor, OUTCOME_MESSAGES,
  pickOutcomeMessage, reasonLabel, summarize, type GameResult,
} from '../../machines/client/outcome';
import { ADJECTIVES, generateNickname, guestId, makeGuest, NICKNAME_PATTERN, NOUNS } from '../../machines/client/nickname';
import { defaultUsernameFromEmail, PROFILE_TEXT, profileSubmitDisabled, usernameError } from '../../machines/client/username';
import { currentClocks, formatClock, tickInterval } from '../../machines/client/clock';
import { memoryStore, SafeStorage } from '../../machines/client/storage';
import { RESET_TEXT, resetLinkError } from '../../client/src/screens/auth/resetLink';
import { resolveTypedMove } from '../../machines/client/engine';

const game = (result: GameResult['result'], date: string, opponentId = 'player_a', reason = 'checkmate'): GameResult =>
  ({ id: `${date}-${result}`, date, playerColor: 'white', result, reason, opponentId });

describe('outcomes and stats', () => {
  it('outcome for the local player', () => {
    expect(outcomeFor('white', 'white')).toBe('win');
    expect(outcomeFor('white', 'black')).toBe('loss');
    expect(outcomeFor('draw', 'black')).toBe('draw');
    expect(aiOutcomeFor('white', 'technical_draw', 'black')).toBe('draw');
    expect(aiOutcomeFor('black', 'checkmate', 'black')).toBe('win');
  });

  it('summary: counts, win rate (0 with no games) and newest first', () => {
    expect(summarize([])).toMatchObject({ totalGames: 0, winRate: 0 });
    const s = summarize([game('win', '2026-01-01'), game('loss', '2026-03-01'), game('draw', '2026-02-01'), game('win', '2026-01-15')]);
    expect(s).toMatchObject({ wins: 2, losses: 1, draws: 1, totalGames: 4, winRate: 50 });
    expect(s.gameHistory.map((g) => g.date)).toEqual(['2026-03-01', '2026-02-01', '2026-01-15', '2026-01-01']);
    expect(formatWinRate(summarize([game('win', '2026-01-01'), game('loss', '2026-01-02'), game('loss', '2026-01-03')]).winRate)).toBe('33.3%');
    expect(formatWinRate(0)).toBe('0.0%');
  });

  it('record against one opponent, win percent rounded to 0 decimals', () => {
    const h = [game('win', '2026-01-01', 'p1'), game('win', '2026-01-02', 'p1'), game('loss', '2026-01-03', 'p1'), game('win', '2026-01-04', 'p2')];
    expect(opponentRecord(h, 'p1')).toEqual({ wins: 2, losses: 1, draws: 0, total: 3, winPercent: 67 });
    expect(opponentRecord(h, 'nobody')).toEqual({ wins: 0, losses: 0, draws: 0, total: 0, winPercent: 0 });
  });

  it('reason labels as displayed', () => {
    expect(reasonLabel('timeout')).toBe('Time Out');
    expect(reasonLabel('agreement')).toBe('Draw by Agreement');
    expect(reasonLabel('disconnection')).toBe('Opponent Disconnected');
    expect(reasonLabel('fifty-move rule')).toBe('fifty-move rule');
    expect(aiReasonLabel('fifty-move rule')).toBe('Fifty-move rule');
    expect(aiReasonLabel('technical_draw')).toBe('Technical Draw (AI Error)');
  });

  it('a humorous message per outcome', () => {
    for (const o of ['win', 'loss', 'draw'] as const) {
      expect(OUTCOME_MESSAGES[o]).toContain(pickOutcomeMessage(o, () => 0.99));
    }
  });

  it('opponent display name replaces the player_ prefix', () => {
    expect(opponentDisplayName('player_k3x')).toBe('Player k3x');
    expect(opponentDisplayName('player_k3x', 'Magnus')).toBe('Magnus');
    // a guest's name is theirs to choose (another account's username too): always marked
    expect(opponentDisplayName('player_k3x', 'Magnus', true)).toBe('Magnus (guest)');
    expect(opponentDisplayName('player_k3x', undefined, true)).toBe('Player k3x (guest)');
  });
});

describe('guest nicknames', () => {
  it('30 adjectives, 30 nouns, a number 10..99', () => {
    expect(new Set(ADJECTIVES).size).toBe(30);
    expect(new Set(NOUNS).size).toBe(30);
    expect(generateNickname(() => 0)).toBe(`${ADJECTIVES[0]}${NOUNS[0]}10`);
    expect(generateNickname(() => 0.999999)).toBe(`${ADJECTIVES[29]}${NOUNS[29]}99`);
    for (let i = 0; i < 200; i++) {
      const n = generateNickname();
      expect(n).toMatch(NICKNAME_PATTERN);
      const num = Number(n.slice(-2));
      expect(num).toBeGreaterThanOrEqual(10);
      expect(num).toBeLessThanOrEqual(99);
    }
  });

  it('guest id is anon_ + lowercased username with underscores', () => {
    expect(guestId('Swift Knight 42')).toBe('anon_swift_knight_42');
    expect(makeGuest('BoldRook17')).toEqual({ id: 'anon_boldrook17', username: 'BoldRook17', nickname: 'BoldRook17', isAnonymous: true });
  });
});

describe('username rules', () => {
  it('required, 3-20 letters/digits/underscore', () => {
    expect(usernameError('')).toBe(PROFILE_TEXT.required);
    expect(usernameError('ab')).toBe(PROFILE_TEXT.pattern);
    expect(usernameError('a'.repeat(21))).toBe(PROFILE_TEXT.pattern);
    expect(usernameError('bad-name')).toBe(PROFILE_TEXT.pattern);
    expect(usernameError('good_Name_1')).toBeNull();
    expect(usernameError('a'.repeat(20))).toBeNull();
  });

  it('default username from the email', () => {
    expect(defaultUsernameFromEmail('John.Doe+chess@example.com')).toBe('johndoechess');
    expect(defaultUsernameFromEmail('a.b@example.com', () => 0.4242)).toBe('user_4242');
    expect(defaultUsernameFromEmail(undefined, () => 0)).toBe('user_0');
  });

  it('submit is disabled while invalid, busy, taken or checking', () => {
    const ok = { username: 'ann_1', firstName: 'Ann', lastName: 'Lee' };
    expect(profileSubmitDisabled(ok, false, 'available')).toBe(false);
    expect(profileSubmitDisabled(ok, true, 'available')).toBe(true);
    expect(profileSubmitDisabled(ok, false, 'taken')).toBe(true);
    expect(profileSubmitDisabled(ok, false, 'checking')).toBe(true);
    expect(profileSubmitDisabled({ ...ok, lastName: ' ' }, false, 'available')).toBe(true);
  });
});

describe('clocks', () => {
  it('mm:ss', () => {
    expect(formatClock(600_000)).toBe('10:00');
    expect(formatClock(59_001)).toBe('01:00');
    expect(formatClock(9_500)).toBe('00:10');
    expect(formatClock(-5)).toBe('00:00');
  });
  it('ticks locally and faster under 10 s', () => {
    expect(currentClocks({ clocks: { white: 5000, black: 7000 }, syncedAt: 100, running: 'black' }, 1100)).toEqual({ white: 5000, black: 6000 });
    expect(currentClocks({ clocks: { white: 5000, black: 7000 }, syncedAt: 100, running: null }, 1100)).toEqual({ white: 5000, black: 7000 });
    expect(tickInterval(9_999)).toBe(100);
    expect(tickInterval(10_000)).toBe(500);
  });
});

describe('storage failures are only logged', () => {
  it('falls back on read errors and reports write errors as false', () => {
    const errors: unknown[] = [];
    const broken = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('full'); }, removeItem: () => {} };
    const s = new SafeStorage(() => broken, { warn: () => {}, error: (...a: unknown[]) => void errors.push(a) });
    expect(s.readJson('k', 7)).toBe(7);
    expect(s.writeJson('k', 1)).toBe(false);
    expect(errors).toHaveLength(2);
    const good = new SafeStorage(() => memoryStore({ k: '"x"', bad: '{' }), { warn: () => {}, error: () => {} });
    expect(good.readJson('k', '')).toBe('x');
    expect(good.readJson('bad', 'fallback')).toBe('fallback');
  });
});

describe('reset link errors', () => {
  it('expired, described, invalid', () => {
    expect(resetLinkError('#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired'))
      .toEqual({ message: RESET_TEXT.expired, expired: true });
    expect(resetLinkError('#error=server_error&error_description=Something%20broke')?.message).toBe('Something broke');
    expect(resetLinkError('#error=server_error')?.message).toBe(RESET_TEXT.invalid);
    expect(resetLinkError('#access_token=x&type=recovery')).toBeNull();
  });
});

describe('resolveTypedMove (the keyboard alternative to the board)', () => {
  const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
  it('reads SAN, lower-case piece letters and squares, and only legal moves', () => {
    expect(resolveTypedMove(START, 'e4')).toEqual({ from: 'e2', to: 'e4' });
    expect(resolveTypedMove(START, 'Nf3')).toEqual({ from: 'g1', to: 'f3' });
    expect(resolveTypedMove(START, 'nf3')).toEqual({ from: 'g1', to: 'f3' });
    expect(resolveTypedMove(START, ' e2-e4 ')).toEqual({ from: 'e2', to: 'e4' });
    expect(resolveTypedMove(START, 'g1f3')).toEqual({ from: 'g1', to: 'f3' });
    expect(resolveTypedMove(START, 'e5')).toBeNull(); // a pawn cannot go there
    expect(resolveTypedMove(START, 'Ke2')).toBeNull(); // occupied
    expect(resolveTypedMove(START, 'hello')).toBeNull();
    expect(resolveTypedMove(START, '')).toBeNull();
  });

  it('handles castling, promotion and ambiguity', () => {
    const castle = 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1';
    expect(resolveTypedMove(castle, 'O-O')).toEqual({ from: 'e1', to: 'g1' });
    expect(resolveTypedMove(castle, '0-0-0')).toEqual({ from: 'e1', to: 'c1' });
    const promo = '8/4P1k1/8/8/8/8/8/4K3 w - - 0 1';
    expect(resolveTypedMove(promo, 'e8=N')).toEqual({ from: 'e7', to: 'e8', promotion: 'n' });
    expect(resolveTypedMove(promo, 'e7e8q')).toEqual({ from: 'e7', to: 'e8', promotion: 'q' });
    const knights = '7k/8/8/8/8/8/8/1N1NK3 w - - 0 1';
    expect(resolveTypedMove(knights, 'Nc3')).toBeNull(); // two knights can go there
    expect(resolveTypedMove(knights, 'Nbc3')).toEqual({ from: 'b1', to: 'c3' });
  });
});
