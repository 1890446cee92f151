/**
 * Finished games reach the archive through the real server: two signed-in players (real
 * supabase-js sign-up, real access tokens over real sockets) and two guests play on a
 * uWebSockets.js port with the real accounts module; their games are then read through the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileSchema, publicGameSchema, type PublicGame } from '../../machines/protocol/archive';
import { TEXT, type RatingChangeMsg } from '../../machines/protocol/messages';
import type { RunningServer } from '../../server/app';
import { TestClient, pairPlayers, playMoves, type Pair } from '../server/helpers';
import { startAccountsSite, type AccountsSite } from './accountsSite';
import { LEGALS_MATE } from './ratedMoves';

const FOOLS_MATE = ['f2f3', 'e7e5', 'g2g4', 'd8h4'];

let site: AccountsSite;
let server: RunningServer;
const signedInClient = (username: string | null): Promise<TestClient> => site.signedIn(username);

async function archived(gameId: string): Promise<PublicGame> {
  // the archive write follows the game's end on the server; poll until it is there
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${server.url}/api/games/${gameId}`);
    if (res.status === 200) return publicGameSchema.parse(await res.json());
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`game ${gameId} was not archived`);
}

beforeAll(async () => {
  site = await startAccountsSite('archive-games-');
  server = site.server;
}, 120_000);

afterAll(async () => site?.close());

describe('finished games in the archive', () => {
  it('stores a game between two accounts with its moves, clocks and PGN, rated once', async () => {
    const a = await signedInClient('fin_alpha');
    const b = await signedInClient('fin_beta');
    a.send('findGame', { username: 'fin_alpha' });
    await a.next('matchmakingStatus', (m) => m.status === 'queued');
    b.send('findGame', { username: 'fin_beta' });
    const [sa, sb] = await Promise.all([a.next('gameStart'), b.next('gameStart')]);
    const white = sa.color === 'white' ? a : b;
    const pair: Pair = { white, black: white === a ? b : a, gameId: sa.gameId as string };
    expect(sb.gameId).toBe(pair.gameId);
    // both new accounts: the initial rating, provisional
    const initial = { rating: 1500, provisional: true };
    expect(sa.ratings).toEqual({ white: initial, black: initial });
    expect(sb.ratings).toEqual(sa.ratings);
    await playMoves(pair, LEGALS_MATE);
    const end = await pair.white.next('gameEnd');
    expect(end).toMatchObject({ winner: 'white', reason: 'checkmate' });
    // each player is told both rating changes once the archive has scored the game
    const [ca, cb] = (await Promise.all([a.next('ratingChange'), b.next('ratingChange')])) as RatingChangeMsg[];
    expect(ca).toEqual(cb);
    expect(ca.gameId).toBe(pair.gameId);
    expect(ca.white.after).toBeGreaterThan(ca.white.before);
    expect(ca.black.after).toBeLessThan(ca.black.before);

    const game = await archived(pair.gameId);
    expect(game).toMatchObject({ kind: 'pool', rated: true, winner: 'white', reason: 'checkmate', moves: LEGALS_MATE, plies: 13 });
    expect(game.clocksMs).toHaveLength(13);
    expect(game.clocksMs.every((ms) => ms > 590_000 && ms <= 600_000)).toBe(true);
    expect(game.pgn).toContain('Nd5#');
    expect(game.pgn).toContain('1-0');
    const winner = game.white.username!;
    expect(game.white.rating).toEqual(ca.white);
    expect(game.black.rating).toEqual(ca.black);
    const profile = profileSchema.parse(await (await fetch(`${server.url}/api/players/${winner}`)).json());
    expect(profile.record).toMatchObject({ games: 1, wins: 1 });
    expect(profile.ratings.map((r) => [r.speed, r.games])).toEqual([['rapid', 1]]);
    await Promise.all([a.close(), b.close()]);
  });

  it('stores a guest game unrated, and a game aborted by resignation before the second move as aborted', async () => {
    const p = await pairPlayers(server.url, ['Guest A', 'Guest B']);
    await playMoves(p, ['e2e4']);
    p.white.send('resign', { gameId: p.gameId });
    expect(await p.black.next('gameEnd')).toMatchObject({ reason: 'aborted' });
    const game = await archived(p.gameId);
    expect(game).toMatchObject({ rated: false, reason: 'aborted', winner: 'draw', moves: ['e2e4'] });
    expect(game.white).toEqual({ name: 'Guest A', username: null, guest: true, rating: null });
    expect(JSON.stringify(game)).not.toContain(p.white.playerId);
    await Promise.all([p.white.close(), p.black.close()]);
  });

  it('gives a new account the games its device played as a guest, unrated, on proof of the guest secret', async () => {
    const p = await pairPlayers(server.url, ['Soon Signed', 'Other Guest']);
    await playMoves(p, FOOLS_MATE);
    await p.black.next('gameEnd');
    await archived(p.gameId);
    const guest = p.white;
    guest.send('claimGuestGames', { guestId: guest.playerId, secret: guest.secret });
    expect((await guest.next('error')).code).toBe('not_signed_in');

    const account = await signedInClient('fin_gamma');
    account.send('claimGuestGames', { guestId: guest.playerId, secret: p.black.secret });
    expect((await account.next('error')).code).toBe('identity_rejected');
    account.send('claimGuestGames', { guestId: guest.playerId, secret: guest.secret });
    expect(await account.next('guestGamesClaimed')).toMatchObject({ guestId: guest.playerId, count: 1 });
    const game = await archived(p.gameId);
    expect(game.white).toEqual({ name: 'Soon Signed', username: 'fin_gamma', guest: false, rating: null });
    expect(game.rated).toBe(false);
    const profile = profileSchema.parse(await (await fetch(`${server.url}/api/players/fin_gamma`)).json());
    expect(profile.record).toMatchObject({ games: 1, losses: 1 });
    expect(profile.ratings).toEqual([]);
    account.send('claimGuestGames', { guestId: guest.playerId, secret: guest.secret });
    expect((await account.next('guestGamesClaimed')).count).toBe(0);
    await Promise.all([p.white.close(), p.black.close(), account.close()]);
  });

  it("a guest who calls itself an account's username is shown as a guest to its opponent, to spectators and in the archive; an account plays under its own username", async () => {
    const account = await signedInClient('fin_magnus');
    const impostor = await TestClient.connect(server.url);
    impostor.send('findGame', { username: 'fin_magnus' });
    await impostor.next('matchmakingStatus', (m) => m.status === 'queued');
    // whatever name the account's client sends, it plays under its username
    account.send('findGame', { username: 'somebody_else' });
    const [mine, theirs] = await Promise.all([account.next('gameStart'), impostor.next('gameStart')]);
    expect(mine).toMatchObject({ opponentName: 'fin_magnus', opponentGuest: true });
    expect(theirs).toMatchObject({ opponentName: 'fin_magnus', opponentGuest: false });
    const gameId = mine.gameId as string;
    const guestColor = theirs.color as 'white' | 'black';
    const accountColor = guestColor === 'white' ? 'black' : 'white';

    const spectator = await TestClient.connect(server.url);
    spectator.send('watchGame', { gameId });
    const watched = await spectator.next('watchStart');
    expect(watched[guestColor]).toEqual({ name: 'fin_magnus', guest: true });
    expect(watched[accountColor]).toEqual({ name: 'fin_magnus', guest: false });

    impostor.send('resign', { gameId });
    await account.next('gameEnd');
    const game = await archived(gameId);
    expect(game[guestColor]).toMatchObject({ name: 'fin_magnus', username: null, guest: true });
    expect(game[accountColor]).toMatchObject({ name: 'fin_magnus', username: 'fin_magnus', guest: false });
    await Promise.all([account.close(), impostor.close(), spectator.close()]);
  });

  it('an account that has not chosen a username yet plays as "Anonymous Player", whatever name its client sends, in a pool and in a chat', async () => {
    const named = await signedInClient('fin_carlsen');
    const unnamed = await signedInClient(null);
    unnamed.send('findGame', { username: 'fin_carlsen' });
    await unnamed.next('matchmakingStatus', (m) => m.status === 'queued');
    named.send('findGame', {});
    const [seen] = await Promise.all([named.next('gameStart'), unnamed.next('gameStart')]);
    expect(seen).toMatchObject({ opponentName: TEXT.anonymousName, opponentGuest: false });
    const gameId = seen.gameId as string;
    unnamed.send('chatSend', { gameId, room: 'player', text: 'hello' });
    expect(await named.next('chatMessage')).toMatchObject({ name: TEXT.anonymousName, text: 'hello' });
    unnamed.send('resign', { gameId });
    await named.next('gameEnd');
    await Promise.all([named.close(), unnamed.close()]);
  });
});
