/** Which game TV shows: the best of the list, kept until it ends, then the best one still played. */
import { expect, it } from 'vitest';
import type { LiveGameSummary } from '../../machines/protocol/messages';
import { tvGame } from '../../machines/client/tv';

const listed = (gameId: string): LiveGameSummary => ({
  gameId, white: { name: 'a', guest: true, rating: null }, black: { name: 'b', guest: true, rating: null },
  timeControl: { initial: 60, increment: 0 }, moves: 0, fen: 'x', spectators: 0,
});

it('starts on the first game, stays on it while a better one appears, and moves on past the ended ones', () => {
  expect(tvGame([], null, new Set())).toBeNull();
  expect(tvGame([listed('a'), listed('b')], null, new Set())).toBe('a');
  // a better game came first in the list: TV stays on its game until it ends
  expect(tvGame([listed('c'), listed('a'), listed('b')], 'a', new Set())).toBe('a');
  // 'a' ended (the list may still hold it for a moment): the best one still played
  expect(tvGame([listed('a'), listed('c'), listed('b')], 'a', new Set(['a']))).toBe('c');
  expect(tvGame([listed('a')], 'a', new Set(['a']))).toBeNull();
});
