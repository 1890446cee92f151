/**
 * Custom games in the archive, through the real server and the real accounts module: a rated
 * challenge between two signed-in players shows both ratings in the challenge's speed and is
 * rated when it ends; a casual custom game from the lobby, between the same two, is stored and
 * never rated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicGameSchema, type PublicGame } from '../../machines/protocol/archive';
import type { Challenge } from '../../machines/protocol/messages';
import { lobbyUntil, playMoves, watchLobby, type Msg, type Pair, type TestClient } from '../server/helpers';
import { startAccountsSite, type AccountsSite } from './accountsSite';
import { LEGALS_MATE } from './ratedMoves';

const BLITZ = { initial: 180, increment: 2 };
let site: AccountsSite;

async function archived(gameId: string): Promise<PublicGame> {
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${site.server.url}/api/games/${gameId}`);
    if (res.status === 200) return publicGameSchema.parse(await res.json());
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`game ${gameId} was not archived`);
}

/** Plays Légal's mate to its end (the creator is white); the game as archived. */
async function mate(creator: TestClient, other: TestClient, starts: [Msg, Msg]): Promise<PublicGame> {
  const pair: Pair = { white: creator, black: other, gameId: starts[0].gameId as string };
  await playMoves(pair, LEGALS_MATE);
  await Promise.all([creator.next('gameEnd'), other.next('gameEnd')]);
  return archived(pair.gameId);
}

beforeAll(async () => {
  site = await startAccountsSite('custom-games-');
}, 120_000);
afterAll(async () => site?.close());

describe('custom games in the archive', () => {
  it('rates a rated challenge in its speed, and never a casual game from the lobby', async () => {
    const ann = await site.signedIn('cg_ann');
    const ben = await site.signedIn('cg_ben');
    ann.send('createChallenge', { options: { timeControl: BLITZ, rated: true, color: 'white' }, to: 'cg_ben' });
    const c = (await ben.next('challenge')).challenge as Challenge;
    expect(c.by).toMatchObject({ name: 'cg_ann', guest: false, rating: { rating: 1500, provisional: true } });
    ben.send('acceptChallenge', { challengeId: c.id });
    const rated = (await Promise.all([ann.next('gameStart'), ben.next('gameStart')])) as [Msg, Msg];
    const initial = { rating: 1500, provisional: true };
    expect(rated[0]).toMatchObject({ color: 'white', timeControl: BLITZ, ratings: { white: initial, black: initial } });
    const game = await mate(ann, ben, rated);
    expect(game).toMatchObject({ rated: true });
    await Promise.all([ann.next('ratingChange'), ben.next('ratingChange')]);

    await watchLobby(ben);
    ann.send('postHook', { options: { timeControl: BLITZ, rated: false, color: 'white' } });
    const [hook] = await lobbyUntil(ben, 'Ann\'s game', (h) => h.length === 1);
    ben.send('joinHook', { hookId: hook.id });
    const casual = (await Promise.all([ann.next('gameStart'), ben.next('gameStart')])) as [Msg, Msg];
    expect(await mate(ann, ben, casual)).toMatchObject({ rated: false });
    expect(await ann.gets('ratingChange', 500)).toBe(false);
    await Promise.all([ann.close(), ben.close()]);
  });
});
