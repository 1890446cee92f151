/**
 * Pairings across two nodes, hundreds of them, while games play and each node in turn is held up
 * past its lease (as a loaded machine holds a process up): the other node sees it dead, takes
 * the matchmaking pool over when it ran it, and sees it come back. Every player who searches is
 * paired and shown their game, whichever node their socket is on and however long they waited in
 * the pool of the other node; every game reaches its end on both sides.
 */
import { describe, expect, it } from 'vitest';
import type { Msg, Pair, TestClient } from '../server/helpers';
import { useProcessSite, type ProcessNode as Node } from './processSite';
import { until } from './site';

/** rounds of pairings; in each, one player waits in the pool through a beat of its node */
const ROUNDS = 10;
const PAIRS_PER_ROUND = 20;

const sites = useProcessSite();

describe('pairings across two nodes, each held up past its lease in turn', () => {
  it('pairs every player and shows each their game, hundreds of times', async () => {
    const site = await sites.start(2);
    const { keys, redis: r, nodes: started, connect, closeClients } = site;
    const byName = (name: string | null) => started.find((n) => n.name === name);
    const pool = async () => byName(await r.get(keys.matchmaker));
    const healthy = async (n: Node) => (await fetch(n.proc.url + '/healthz')).ok;

    /** A beat of `node` went by: its last-seen time moved on. */
    const beatOf = async (node: Node) => {
      const before = await r.hget(keys.seen, node.name);
      await until(`a beat of ${node.name}`, async () => (await r.hget(keys.seen, node.name)) !== before, 5000);
    };

    /**
     * Holds `node` up (SIGSTOP) until the other node has seen its lease expire (and, if it ran
     * the pool, taken the pool over), then lets it go on and waits until it plays again.
     */
    const holdUp = async (node: Node) => {
      const ranPool = (await pool()) === node;
      node.proc.child.kill('SIGSTOP');
      try {
        // the other node took its games over and forgot it (it had none), and the pool moved
        await until('the other node to see the held-up node dead', async () => !(await r.sismember(keys.nodes, node.name)));
        if (ranPool) await until('the pool to move', async () => (await pool()) !== node && (await pool()) !== undefined);
      } finally {
        node.proc.child.kill('SIGCONT');
      }
      await until('the held-up node to play again', async () => (await healthy(node)) && (await r.sismember(keys.nodes, node.name)) === 1);
    };

    /**
     * One pairing across nodes: `waiter` (not on the pool's node) searches first, then `joiner`
     * (on the pool's node); with `waitForBeat` the waiter stays in the pool through a beat of the
     * pool's node before the joiner comes.
     */
    const cross = async (waiter: TestClient, joiner: TestClient, poolNode: Node, waitForBeat: boolean): Promise<Pair> => {
      waiter.send('findGame', { username: 'Waiter' });
      await waiter.next('matchmakingStatus', (m) => m.status === 'queued');
      if (waitForBeat) await beatOf(poolNode);
      joiner.send('findGame', { username: 'Joiner' });
      const [sw, sj] = await Promise.all([waiter.next('gameStart'), joiner.next('gameStart')]);
      expect(sw.gameId).toBe(sj.gameId);
      const white = sw.color === 'white' ? waiter : joiner;
      return { white, black: white === waiter ? joiner : waiter, gameId: sw.gameId as string };
    };

    /** Two plies, then white resigns: both sides see each move and the end. */
    const playOut = async (p: Pair) => {
      for (const [mover, from, to] of [[p.white, 'e2', 'e4'], [p.black, 'e7', 'e5']] as const) {
        mover.send('gameMove', { gameId: p.gameId, move: { from, to } });
        const pred = (m: Msg) => (m.move as { to: string }).to === to;
        await Promise.all([p.white.next('gameMove', pred), p.black.next('gameMove', pred)]);
      }
      p.white.send('resign', { gameId: p.gameId });
      const ends = await Promise.all([p.white.next('gameEnd'), p.black.next('gameEnd')]);
      for (const e of ends) expect(e).toMatchObject({ gameId: p.gameId, winner: 'black', reason: 'resignation' });
    };

    let pairings = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // the node without the pool is held up before the first round, the pool's node halfway
      const poolNode = (await pool())!;
      if (round === 0) await holdUp(started.find((n) => n !== poolNode)!);
      if (round === ROUNDS / 2) await holdUp(poolNode);
      const host = (await pool())!;
      const other = started.find((n) => n !== host)!;
      // each round's games play on while the next pairings are made
      const games: Promise<void>[] = [];
      for (let i = 0; i < PAIRS_PER_ROUND; i++) {
        const p = await cross(await connect(other), await connect(host), host, i === 0);
        games.push(playOut(p));
        pairings++;
      }
      await Promise.all(games);
      await closeClients();
    }
    expect(pairings).toBe(ROUNDS * PAIRS_PER_ROUND);
  }, 180_000);
});
