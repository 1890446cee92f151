/**
 * The matchmaker role moving between two node processes never pairs a player twice: a former
 * holder that has not heard yet that the role moved pairs nobody (its pairing is refused in Redis
 * before anyone hears of it, and its players search on with the new holder), and hundreds of
 * pairings made while the role is moved from node to node every 1.5 s put each player in one
 * game, with nobody left searching.
 */
import { describe, expect, it } from 'vitest';
import { LEASE_MS } from '../../server/cluster/membership';
import type { Msg, TestClient } from '../server/helpers';
import { useProcessSite, type ProcessNode as Node, type ProcessSite } from './processSite';
import { until } from './site';

/** the stress: this many moves of the role, each with this many pairings made while it moves */
const MOVES = 20;
const PAIRS_PER_MOVE = 15;
const MOVE_EVERY_MS = 1500;

const sites = useProcessSite();

interface Roles {
  site: ProcessSite;
  /** the node holding the matchmaker role first, and the other */
  holder: Node;
  other: Node;
}

/** Two node processes of one site; resolves once one of them holds the matchmaker role. */
async function twoNodes(): Promise<Roles> {
  const s = await sites.start(2);
  await until('a node to hold the matchmaker role', async () => (await s.redis.get(s.keys.matchmaker)) !== null);
  const holderName = await s.redis.get(s.keys.matchmaker);
  const holder = s.nodes.find((n) => n.name === holderName)!;
  return { site: s, holder, other: s.nodes.find((n) => n !== holder)! };
}

/** The role moves to `to` as when its holder lapsed and `to` took it: a new holder, a new term. */
async function moveRole(s: ProcessSite, to: Node): Promise<void> {
  await s.redis.multi().set(s.keys.matchmaker, to.name, 'PX', LEASE_MS).incr(s.keys.matchmakerTerm).exec();
}

function jsonLine(line: string): Record<string, unknown> | null {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
}

const starts = (c: TestClient): Msg[] => c.received.filter((m) => m.type === 'gameStart');
/** How often a pool told the player it searches. */
const searches = (c: TestClient): number => c.received.filter((m) => m.type === 'matchmakingStatus' && m.status === 'queued').length;

/** A node's `chess_pairings_total` by outcome. */
async function pairingsOf(node: Node): Promise<Record<string, number>> {
  const text = await (await fetch(node.proc.url + '/metrics')).text();
  const counts: Record<string, number> = {};
  for (const [, outcome, n] of text.matchAll(/^chess_pairings_total\{outcome="(\w+)"\} (\d+)$/gm)) counts[outcome!] = Number(n);
  return counts;
}

describe('the matchmaker role moving between nodes', () => {
  it('a former holder that has not heard the role moved pairs nobody: its pairing is dropped and its players search on', async () => {
    const { site: s, holder: a, other: b } = await twoNodes();
    const { connect, redis: r, keys } = s;
    // p's socket is on b: its search waits in a's pool
    const p = await connect(b);
    const q = await connect(a);
    const other = await connect(b);
    const late = await connect(b);
    p.send('findGame', { username: 'P' });
    await p.next('matchmakingStatus', (m) => m.status === 'queued');
    p.drain();
    // a has just renewed its lease: held up now, it still may play when it goes on
    const seen = await r.hget(keys.seen, a.name);
    await until(`a beat of ${a.name}`, async () => (await r.hget(keys.seen, a.name)) !== seen, 5000);
    a.proc.child.kill('SIGSTOP');
    try {
      await moveRole(s, b);
      // b took the pool at its beat: p searches again there, and b pairs p with another player
      await p.next('matchmakingStatus', (m) => m.status === 'queued', 3000);
      other.send('findGame', { username: 'Other' });
      const [po, op] = await Promise.all([p.next('gameStart'), other.next('gameStart')]);
      expect(po.gameId).toBe(op.gameId);
      // q's search waits in a's socket: a reads it before its next beat tells it the role moved
      q.send('findGame', { username: 'Q' });
    } finally {
      a.proc.child.kill('SIGCONT');
    }
    late.send('findGame', { username: 'Late' });
    // a paired q with p from the pool it no longer ran: that pairing started nothing, q searched on
    const qs = await q.next('gameStart', () => true, 10_000);
    expect(qs.opponentId).toBe(late.playerId);
    expect((await late.next('gameStart')).opponentId).toBe(q.playerId);
    expect(starts(p)).toHaveLength(1);
    expect((await pairingsOf(a)).role_lost).toBe(1);
    const dropped = a.proc.lines.map(jsonLine).find((l) => l?.msg === 'pairing dropped before its game started');
    expect(dropped).toMatchObject({ reason: 'role_lost', holder: b.name });
    expect(new Set([dropped?.white, dropped?.black])).toEqual(new Set([p.playerId, q.playerId]));
  }, 60_000);

  it(`pairs ${MOVES * PAIRS_PER_MOVE} pairs once each while the role moves every ${MOVE_EVERY_MS / 1000} s`, async () => {
    const { site: s, holder, other } = await twoNodes();
    const nodes = [holder, other];
    const everyone: TestClient[] = [];
    const stranded: string[] = [];
    for (let move = 0; move < MOVES; move++) {
      // the role goes from `from` to `to`; the players are half on each node
      const [from, to] = [nodes[move % 2]!, nodes[(move + 1) % 2]!];
      const batch: TestClient[] = [];
      for (let i = 0; i < 2 * PAIRS_PER_MOVE; i++) batch.push(await s.connect(i % 2 === 0 ? to : from));
      // one player of `to` waits in the pool of `from` when the role moves
      const [waiter, ...others] = batch as [TestClient, ...TestClient[]];
      waiter.send('findGame', { username: 'Waiter' });
      await waiter.next('matchmakingStatus', (m) => m.status === 'queued');
      const movedAt = performance.now();
      await moveRole(s, to);
      // `to` took the pool at its beat (the waiter searches again there); the others search
      // while `from` may not have heard yet, until its own beat
      await until(`${to.name} to take the pool`, async () => searches(waiter) > 1 || starts(waiter).length > 0, 3000);
      for (const c of others) c.send('findGame', { username: 'Player' });
      await Promise.all(batch.map((c) => c.next('gameStart', () => true, 10_000).catch(() => stranded.push(c.playerId))));
      everyone.push(...batch);
      // the role's next move, MOVE_EVERY_MS after this one (the nodes' beats take their real time)
      const rest = MOVE_EVERY_MS - (performance.now() - movedAt);
      if (rest > 0) await new Promise((done) => setTimeout(done, rest));
    }
    const twice = everyone.filter((c) => starts(c).length > 1).map((c) => c.playerId);
    // every game has two players, each told the other is their opponent
    const games = new Map<string, { player: string; opponent: unknown }[]>();
    for (const c of everyone) for (const m of starts(c)) games.set(m.gameId as string, [...(games.get(m.gameId as string) ?? []), { player: c.playerId, opponent: m.opponentId }]);
    const unmatched = [...games.entries()].filter(([, seats]) => seats.length !== 2 || seats[0]!.opponent !== seats[1]!.player || seats[1]!.opponent !== seats[0]!.player);
    const counts = await Promise.all(nodes.map(pairingsOf));
    const committed = counts.reduce((sum, c) => sum + (c.committed ?? 0), 0);
    expect({ stranded, twice, unmatched, games: games.size, committed }).toEqual({ stranded: [], twice: [], unmatched: [], games: MOVES * PAIRS_PER_MOVE, committed: MOVES * PAIRS_PER_MOVE });
  }, 120_000);
});
