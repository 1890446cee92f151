/**
 * Three server processes behind HAProxy (deploy/haproxy.cfg), as an operator runs them: players
 * spread over the nodes by the balancer are paired across nodes and play to the end; a node
 * killed with SIGKILL mid-game has its games taken over by the others, whose players resume them
 * with the same moves and play to the end.
 */
import type { GuestCredentials } from '../../machines/protocol/guestClaim';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient, type Msg, type Pair } from '../server/helpers';
import { startBalancedSite, type BalancedSite } from './balancedSite';
import { LEASE_MS } from '../../server/cluster/membership';

let site: BalancedSite | null = null;
const clients: TestClient[] = [];

afterEach(async (ctx) => {
  // a failure shows what the nodes said about the site and the games
  if (ctx.task.result?.state === 'fail' && site) {
    for (const [i, n] of site.nodes.entries()) console.log(`node${i + 1}:\n` + n.lines.filter((l) => !/"socket closed"|"msg":"game started"/.test(l)).join('\n'));
  }
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await site?.stop();
  site = null;
});

async function connect(url: string, guest: GuestCredentials | null = null): Promise<TestClient> {
  const c = await TestClient.connect(url, guest);
  clients.push(c);
  return c;
}

/** `count` players through the balancer, paired two by two in the order they search. */
async function pairedGames(url: string, games: number): Promise<Pair[]> {
  const players: TestClient[] = [];
  for (let i = 0; i < games * 2; i++) players.push(await connect(url));
  const pairs: Pair[] = [];
  for (let i = 0; i < players.length; i += 2) {
    const [a, b] = [players[i], players[i + 1]];
    a.send('findGame', { username: `P${i}` });
    await a.next('matchmakingStatus', (m) => m.status === 'queued');
    b.send('findGame', { username: `P${i + 1}` });
    const [sa, sb] = await Promise.all([a.next('gameStart'), b.next('gameStart')]);
    expect(sa.gameId).toBe(sb.gameId);
    const white = sa.color === 'white' ? a : b;
    pairs.push({ white, black: white === a ? b : a, gameId: sa.gameId as string });
  }
  return pairs;
}

async function move(p: Pair, mover: TestClient, uci: string): Promise<Msg> {
  mover.send('gameMove', { gameId: p.gameId, move: { from: uci.slice(0, 2), to: uci.slice(2, 4) } });
  const seen = (m: Msg) => (m.move as { to: string }).to === uci.slice(2, 4);
  const [m] = await Promise.all([p.white.next('gameMove', seen, 10_000), p.black.next('gameMove', seen, 10_000)]);
  return m;
}

async function foolsMate(p: Pair, from = 0): Promise<void> {
  const moves = ['f2f3', 'e7e5', 'g2g4'];
  for (let i = from; i < moves.length; i++) await move(p, i % 2 === 0 ? p.white : p.black, moves[i]);
  p.black.send('gameMove', { gameId: p.gameId, move: { from: 'd8', to: 'h4' } });
  const ends = await Promise.all([p.white.next('gameEnd', () => true, 10_000), p.black.next('gameEnd', () => true, 10_000)]);
  for (const e of ends) expect(e).toMatchObject({ gameId: p.gameId, winner: 'black', reason: 'checkmate' });
}

/**
 * A player whose socket went down with its node comes back through the balancer with the same
 * identity, as the browser does; either way the player asks for the game until it is back.
 */
async function backInGame(p: Pair, color: 'white' | 'black', until: number): Promise<TestClient> {
  let c = p[color];
  for (;;) {
    // the balancer closes the socket of a dead node's player a little after the node died; until
    // it has marked the node down, a new socket may be refused (503), and the client tries again
    if (c.closeCode !== null) {
      try {
        c = await connect(siteUrl(), { playerId: c.playerId, secret: c.secret });
      } catch (err) {
        if (performance.now() > until) throw err;
        continue;
      }
    }
    c.send('rejoinGame', { gameId: p.gameId });
    try {
      await c.next('gameStart', (m) => m.gameId === p.gameId, 500);
      return c;
    } catch {
      if (performance.now() > until) throw new Error(`${color} of ${p.gameId} did not get the game back`);
    }
  }
}

/**
 * The surviving nodes' "game taken over" lines, once there are `count` (their stdout is read
 * apart from the players' sockets, so a line may come in just after the game it tells of).
 */
async function loggedTakeovers(count: number): Promise<{ awayMs: number; gameId: string }[]> {
  const until = performance.now() + 5_000;
  for (;;) {
    const lines = site!.nodes
      .flatMap((n) => n.lines)
      .map((l) => JSON.parse(l) as { msg: string; awayMs: number; gameId: string })
      .filter((l) => l.msg === 'game taken over');
    if (lines.length >= count || performance.now() > until) {
      expect(lines).toHaveLength(count);
      return lines;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

function siteUrl(): string {
  return site!.url;
}

describe('three nodes behind HAProxy', () => {
  it('spreads players over the nodes, pairs them across nodes and plays every game to the end', async () => {
    site = await startBalancedSite(3);
    const pairs = await pairedGames(site.url, 3);
    const health = await site.health();
    // the balancer gave every node some of the six sockets
    expect(health.every((h) => h.connections > 0)).toBe(true);
    expect(health.reduce((n, h) => n + h.games, 0)).toBe(3);
    await Promise.all(pairs.map((p) => foolsMate(p)));
    // a player comes back with their identity and leaves: the balancer logs the session (when it
    // ends), with the socket's path but never its query, which carries the player's secret
    const { white } = pairs[0];
    const again = await connect(site.url, { playerId: white.playerId, secret: white.secret });
    await again.close();
    await expect.poll(() => site!.balancerLog().split('\n').filter((l) => l.includes('"GET /socket')).length).toBeGreaterThanOrEqual(2);
    expect(site.balancerLog()).not.toContain(white.secret);
    expect(site.balancerLog()).not.toContain('secret=');
  }, 60_000);

  for (const [signal, withinMs] of [
    // the lease runs out after 3 s; the next beat of a live node takes the games
    ['SIGKILL', 5_000],
    // a drained node gives its lease up at once: its games move at the others' next beat
    ['SIGTERM', 2_500],
  ] as const) {
    it(`resumes the games of a node stopped mid-game (${signal}) on the others, with every move, and plays them to the end`, async () => {
      site = await startBalancedSite(3);
      const pairs = await pairedGames(site.url, 4);
      await Promise.all(
        pairs.map(async (p) => {
          await move(p, p.white, 'f2f3');
          await move(p, p.black, 'e7e5');
        }),
      );
      const health = await site.health();
      const victim = health.findIndex((h) => h.games > 0);
      // A node judges others dead only once it has held its own lease for LEASE_MS (one just
      // started, or back from an outage, may not know yet who is alive). A drained node's games
      // move at the others' next beat only once the others are past that; the nodes start in
      // about a second each, so a site this young waits for it, in real time as leases run.
      if (signal === 'SIGTERM') await new Promise((r) => setTimeout(r, Math.max(0, site!.listeningAt + LEASE_MS - performance.now())));
      site.nodes[victim].child.kill(signal);
      const stoppedAt = performance.now();
      await site.nodes[victim].exit;
      const back = await Promise.all(
        pairs.map(async (p) => {
          const [white, black] = await Promise.all([backInGame(p, 'white', stoppedAt + 15_000), backInGame(p, 'black', stoppedAt + 15_000)]);
          return { white, black, gameId: p.gameId };
        }),
      );
      // the takeover itself, as the taking nodes log it: from the dead node's last renewal of its
      // lease to the game playing again (the players' reconnections come on top, and the test
      // machine may be loaded: they are only bounded above)
      const takeovers = await loggedTakeovers(health[victim].games);
      for (const t of takeovers) expect(t.awayMs).toBeLessThan(withinMs);
      const after = await site.health();
      expect(after[victim].ok).toBe(false);
      expect(after.reduce((n, h) => n + h.games, 0)).toBe(4);
      // every game goes on from the two moves played before, to its end
      await Promise.all(back.map((p) => foolsMate(p, 2)));
    }, 60_000);
  }
});
