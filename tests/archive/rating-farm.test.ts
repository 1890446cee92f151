/**
 * The rating farm reported against the site, played through the real server with two real
 * accounts (real supabase-js sign-ups, real sockets, the archive on PGlite): rated rematches
 * resigned after two plies, then after ten, then drawn. None of it may lift a rating beyond what
 * docs/ratings.md allows (the leaderboard's own rules are in store.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { RATING_RULES } from '../../server/archive/ratingRules';
import { profileSchema, type Profile } from '../../machines/protocol/archive';
import { ROOM_FOR_PROBES, TestClient, playMoves, type Pair } from '../server/helpers';
import { startAccountsSite, type AccountsSite } from './accountsSite';
import { TEN_PLIES } from './ratedMoves';


let site: AccountsSite;
let server: RunningServer;

interface Player {
  username: string;
  socket: TestClient;
}

async function signedIn(username: string): Promise<Player> {
  return { username, socket: await site.signedIn(username) };
}

/** The two through the pool into their first game; `a` searched first, so `a` is white. */
async function paired(a: Player, b: Player): Promise<Pair> {
  a.socket.send('findGame', { username: a.username });
  await a.socket.next('matchmakingStatus', (m) => m.status === 'queued');
  b.socket.send('findGame', { username: b.username });
  const [sa, sb] = await Promise.all([a.socket.next('gameStart'), b.socket.next('gameStart')]);
  expect(sa.gameId).toBe(sb.gameId);
  return sa.color === 'white' ? { white: a.socket, black: b.socket, gameId: sa.gameId as string } : { white: b.socket, black: a.socket, gameId: sa.gameId as string };
}

/** Both offer a rematch of the ended game: the next game, colours swapped. */
async function rematch(p: Pair): Promise<Pair> {
  p.white.send('offerRematch', { gameId: p.gameId });
  await p.black.next('rematchOffer', (m) => m.gameId === p.gameId);
  p.black.send('offerRematch', { gameId: p.gameId });
  const [w, b] = await Promise.all([p.white.next('gameStart'), p.black.next('gameStart')]);
  expect(w.gameId).toBe(b.gameId);
  return { white: p.black, black: p.white, gameId: w.gameId as string };
}

/** `loser` resigns after `moves`; or, with no loser, a draw is agreed. */
async function finish(p: Pair, moves: string[], loser: TestClient | null): Promise<void> {
  await playMoves(p, moves);
  if (loser) {
    loser.send('resign', { gameId: p.gameId });
  } else {
    p.white.send('offerDraw', { gameId: p.gameId });
    await p.black.next('drawOffer', (m) => m.gameId === p.gameId);
    p.black.send('acceptDraw', { gameId: p.gameId });
  }
  await Promise.all([p.white.next('gameEnd', (m) => m.gameId === p.gameId), p.black.next('gameEnd', (m) => m.gameId === p.gameId)]);
}

/** A chain of `games` games through rematches, each ended the same way, as the farm played them. */
async function farm(first: Pair, games: number, moves: string[], loserOf: (p: Pair) => TestClient | null): Promise<void> {
  let p = first;
  for (let i = 0; i < games; i++) {
    if (i > 0) p = await rematch(p);
    await finish(p, moves, loserOf(p));
  }
}

async function profile(username: string): Promise<Profile> {
  return profileSchema.parse(await (await fetch(`${server.url}/api/players/${username}`)).json());
}

/** The profile once the archive holds `games` of the player's games (it stores each end a moment later). */
async function profileAfter(username: string, games: number): Promise<Profile> {
  await expect.poll(async () => (await profile(username)).record.games, { timeout: 20_000 }).toBe(games);
  return profile(username);
}

async function ratedGames(username: string): Promise<boolean[]> {
  const page = (await (await fetch(`${server.url}/api/players/${username}/games`)).json()) as { rated: boolean }[];
  return page.map((g) => g.rated).reverse();
}

beforeAll(async () => {
  site = await startAccountsSite('rating-farm-', ROOM_FOR_PROBES);
  server = site.server;
}, 120_000);

afterAll(async () => site?.close());

describe('a two-account rating farm on the real server', () => {
  it('rematches resigned after two plies rate nothing', async () => {
    const farmer = await signedIn('farm_two_w');
    const feeder = await signedIn('farm_two_l');
    await farm(await paired(farmer, feeder), 20, TEN_PLIES.slice(0, 2), (p) => (p.white === feeder.socket ? p.white : p.black));
    const won = await profileAfter('farm_two_w', 20);
    expect(won.record).toMatchObject({ wins: 20, losses: 0 });
    expect(won.ratings).toEqual([]);
    expect(await ratedGames('farm_two_w')).toEqual(Array(20).fill(false));
    await Promise.all([farmer.socket.close(), feeder.socket.close()]);
  });

  it('of rematches resigned after ten plies only the first is rated: the ratings are then too far apart', async () => {
    const farmer = await signedIn('farm_ten_w');
    const feeder = await signedIn('farm_ten_l');
    await farm(await paired(farmer, feeder), 8, TEN_PLIES, (p) => (p.white === feeder.socket ? p.white : p.black));
    const won = await profileAfter('farm_ten_w', 8);
    expect(won.record).toMatchObject({ wins: 8, losses: 0 });
    expect(await ratedGames('farm_ten_w')).toEqual([true, ...Array(7).fill(false)]);
    // one win from 1500 against 1500 (lichess: about +160 for a new player), not eight
    expect(won.ratings[0]!.rating).toBeLessThan(1700);
    expect(won.ratings[0]!.history).toHaveLength(2);
    await Promise.all([farmer.socket.close(), feeder.socket.close()]);
  });

  it('drawn rematches (which settle a new rating) are rated five times a day, then no more', async () => {
    const a = await signedIn('farm_draw_a');
    const b = await signedIn('farm_draw_b');
    await farm(await paired(a, b), 8, TEN_PLIES, () => null);
    const drew = await profileAfter('farm_draw_a', 8);
    expect(drew.record).toMatchObject({ draws: 8 });
    expect(await ratedGames('farm_draw_a')).toEqual([...Array(RATING_RULES.pairRatedGames).fill(true), ...Array(8 - RATING_RULES.pairRatedGames).fill(false)]);
    expect(drew.ratings[0]!.games).toBe(RATING_RULES.pairRatedGames);
    expect(drew.ratings[0]!.provisional).toBe(true);
    await Promise.all([a.socket.close(), b.socket.close()]);
  });
});
