/**
 * The archive's public read API (docs/archive.md): games, profiles and the leaderboard. Public
 * by design, as on lichess: no e-mail, account id or guest id ever leaves here.
 */
import type { GameSummary, Leaderboard, OwnProfile, Profile, PublicGame, PublicPlayer, SpeedRating } from '../../machines/protocol/archive';
import { speedSchema } from '../../machines/protocol/schemas';
import { SPEEDS, type Speed } from '../../machines/game/timeControl';
import { bearerToken, json, type Handler, type Reply, type Req } from '../accounts/http';
import type { Queryable } from '../accounts/db';
import { isProvisional } from './ratingRules';
import {
  accountByUsername,
  accountGames,
  accountRecord,
  currentRatings,
  getGame,
  leaderboard,
  ratingHistory,
  usernamesOf,
  type ArchivedGame,
  type ArchivedPlayer,
} from './store';

/** Checks a bearer token: its account id when valid, else null. */
export type TokenCheck = (token: string) => Promise<{ sub: string } | null>;

const GAME_ID = /^[A-Za-z0-9_-]{8,64}$/;
const USERNAME = /^[A-Za-z0-9_]{3,20}$/;
const CACHE = { 'Cache-Control': 'no-cache' };

const notFound = (what: string): Reply => json(404, { error: 'not_found', message: `${what} not found` });

function publicPlayer(p: ArchivedPlayer, usernames: Map<string, string>, rating: PublicPlayer['rating']): PublicPlayer {
  return { name: p.name, username: p.accountId ? (usernames.get(p.accountId) ?? null) : null, guest: p.guestId !== null && p.accountId === null, rating };
}

function summary(g: ArchivedGame, usernames: Map<string, string>): GameSummary {
  return {
    id: g.id,
    kind: g.kind,
    white: publicPlayer(g.white, usernames, g.ratings?.white ?? null),
    black: publicPlayer(g.black, usernames, g.ratings?.black ?? null),
    winner: g.winner,
    reason: g.reason,
    rated: g.rated,
    clockMs: g.clockMs,
    incrementMs: g.incrementMs,
    speed: g.speed,
    startedAt: g.startedAt.toISOString(),
    endedAt: g.endedAt.toISOString(),
    plies: g.moves.length,
  };
}

const accountsOf = (games: ArchivedGame[]): string[] =>
  games.flatMap((g) => [g.white.accountId, g.black.accountId]).filter((id): id is string => id !== null);

async function gameReply(db: Queryable, id: string): Promise<Reply> {
  if (!GAME_ID.test(id)) return notFound('game');
  const g = await getGame(db, id);
  if (!g) return notFound('game');
  const usernames = await usernamesOf(db, accountsOf([g]));
  const body: PublicGame = { ...summary(g, usernames), moves: [...g.moves], clocksMs: [...g.clocksMs], pgn: g.pgn };
  return json(200, body, CACHE);
}

/** An account's ratings in the speeds it has played, each with its history. */
async function speedRatings(db: Queryable, accountId: string): Promise<SpeedRating[]> {
  const ratings = await currentRatings(db, accountId);
  return Promise.all(
    ratings.map(async ({ speed, rating, deviation, games }) => ({
      speed,
      rating,
      deviation,
      provisional: isProvisional(deviation),
      games,
      history: (await ratingHistory(db, accountId, speed)).map((p) => ({ at: p.at.toISOString(), rating: p.rating })),
    })),
  );
}

/** An account's public profile: a rating and its history per speed played, record, ten most recent games. */
async function profileOf(db: Queryable, accountId: string): Promise<Omit<Profile, 'username'>> {
  const [ratings, record, recent] = await Promise.all([
    speedRatings(db, accountId),
    accountRecord(db, accountId),
    accountGames(db, accountId, { limit: 10 }),
  ]);
  const usernames = await usernamesOf(db, accountsOf(recent));
  return { ratings, record, recent: recent.map((g) => summary(g, usernames)) };
}

async function profileReply(db: Queryable, name: string): Promise<Reply> {
  const account = USERNAME.test(name) ? await accountByUsername(db, name) : null;
  if (!account) return notFound('player');
  const body: Profile = { username: account.username, ...(await profileOf(db, account.id)) };
  return json(200, body, CACHE);
}

/** The signed-in player's own profile, whether or not it has chosen a username. */
async function ownProfileReply(db: Queryable, checkToken: TokenCheck, req: Req): Promise<Reply> {
  const token = bearerToken(req.headers);
  const who = token ? await checkToken(token) : null;
  if (!who) return json(401, { error: 'unauthorized', message: 'Sign in to see your own games.' }, { 'Cache-Control': 'no-store' });
  const usernames = await usernamesOf(db, [who.sub]);
  const body: OwnProfile = { username: usernames.get(who.sub) ?? null, ...(await profileOf(db, who.sub)) };
  return json(200, body, { 'Cache-Control': 'no-store' });
}

/**
 * A page cursor: an ISO 8601 instant with a four-digit year (as the API writes `endedAt`). A
 * year outside 0001-9999 is a valid JavaScript date that the database cannot hold.
 */
const CURSOR = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** The `before` cursor as a date; null when it is not one (undefined when absent). */
function pageCursor(text: string | null): Date | null | undefined {
  if (text === null || text === '') return undefined;
  if (!CURSOR.test(text)) return null;
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? null : at;
}

async function playerGamesReply(db: Queryable, name: string, beforeText: string | null): Promise<Reply> {
  const before = pageCursor(beforeText);
  if (before === null) return json(400, { error: 'bad_request', message: 'before must be an ISO 8601 time such as 2026-01-31T12:00:00Z' });
  const account = USERNAME.test(name) ? await accountByUsername(db, name) : null;
  if (!account) return notFound('player');
  const games = await accountGames(db, account.id, { limit: 20, ...(before ? { before } : {}) });
  const usernames = await usernamesOf(db, accountsOf(games));
  const body: GameSummary[] = games.map((g) => summary(g, usernames));
  return json(200, body, CACHE);
}

/** The leaderboard shown when no speed is asked for: Rapid, the speed of the site's default 10+0 pool. */
export const DEFAULT_LEADERBOARD_SPEED: Speed = 'rapid';

async function leaderboardReply(db: Queryable, speedText: string | null): Promise<Reply> {
  const speed = speedText === null ? DEFAULT_LEADERBOARD_SPEED : speedSchema.safeParse(speedText).data;
  if (!speed) return json(400, { error: 'bad_request', message: `speed must be one of ${SPEEDS.join(', ')}` });
  const body: Leaderboard = (await leaderboard(db, speed)).map(({ username, rating, deviation, games }) => ({ username, rating, deviation, games }));
  return json(200, body, CACHE);
}

/** GET /api/games/:id, /api/players/:username, /api/players/:username/games, /api/leaderboard[?speed=], /api/me. */
export function createArchiveHandler(db: Queryable, checkToken: TokenCheck): Handler {
  return (req) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(405, { error: 'method_not_allowed', message: 'read-only' }, { Allow: 'GET, HEAD' });
    const parts = req.path.split('/').slice(1).map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return '\u0000';
      }
    });
    const [api, kind, name, sub] = parts;
    if (api !== 'api') return notFound('page');
    if (kind === 'games' && name !== undefined && parts.length === 3) return gameReply(db, name);
    if (kind === 'players' && name !== undefined && parts.length === 3) return profileReply(db, name);
    if (kind === 'players' && name !== undefined && sub === 'games' && parts.length === 4) return playerGamesReply(db, name, req.query.get('before'));
    if (kind === 'leaderboard' && parts.length === 2) return leaderboardReply(db, req.query.get('speed'));
    if (kind === 'me' && parts.length === 2) return ownProfileReply(db, checkToken, req);
    return notFound('page');
  };
}
