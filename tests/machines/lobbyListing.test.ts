/** The lobby's list of custom games as its watchers hold it: its order, and its changes, which applied to the old list give the new one. */
import { expect, it } from 'vitest';
import type { Hook } from '../../machines/protocol/messages';
import { applyLobbyChange, lobbyChange, lobbyOrder } from '../../machines/lobby/listing';
import { seeded } from '../../server/seeded';

const hook = (id: string, createdAt: number, initial = 300): Hook => ({
  id, by: { id: 'p_' + id, name: id, guest: true }, timeControl: { initial, increment: 0 }, rated: false, color: 'white', createdAt,
});

it('lists the oldest first; of two posted in the same millisecond, the smaller id first, so every node and browser orders alike', () => {
  const list = [hook('c', 30), hook('b', 10), hook('a', 30)];
  expect(lobbyOrder(list).map((h) => h.id)).toEqual(['b', 'a', 'c']);
  expect(list.map((h) => h.id)).toEqual(['c', 'b', 'a']);
});

it('finds the games posted and the ids of those gone; applied to the old list, the change gives the new one', () => {
  const before = lobbyOrder([hook('a', 1), hook('b', 2), hook('c', 3)]);
  const after = lobbyOrder([hook('a', 1), hook('c', 3), hook('d', 4), hook('e', 0)]);
  const change = lobbyChange(before, after);
  expect(change).toEqual({ updated: [hook('e', 0), hook('d', 4)], removed: ['b'] });
  expect(applyLobbyChange(before, change)).toEqual(after);
  expect(lobbyChange(after, after)).toEqual({ updated: [], removed: [] });
  expect(lobbyChange([], after)).toEqual({ updated: after, removed: [] });
  expect(applyLobbyChange(after, lobbyChange(after, []))).toEqual([]);
});

it('counts a game read back different under the same id as changed: sent again, and applied in its place', () => {
  const before = [hook('a', 1), hook('b', 2)];
  const after = [hook('a', 1), hook('b', 2, 600)];
  const change = lobbyChange(before, after);
  expect(change).toEqual({ updated: [hook('b', 2, 600)], removed: [] });
  expect(applyLobbyChange(before, change)).toEqual(after);
});

it('applies a change of a list kept through many at random as the full list would be sent', () => {
  const random = seeded(7);
  let held: Hook[] = [];
  let truth: Hook[] = [];
  for (let step = 0; step < 200; step++) {
    const next = truth.filter(() => random() > 0.3);
    for (let i = Math.floor(random() * 4); i > 0; i--) next.push(hook(`h${step}_${i}`, Math.floor(random() * 50)));
    const sorted = lobbyOrder(next);
    held = applyLobbyChange(held, lobbyChange(truth, sorted));
    truth = sorted;
    expect(held).toEqual(truth);
  }
});
