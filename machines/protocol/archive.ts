/**
 * The archive's read API (`/api/...`, docs/archive.md): what the server answers and the client
 * reads, as zod schemas with the types inferred from them.
 */
import { z } from 'zod';
import { gameEndReasonSchema, ratingChangeSchema, speedSchema, winnerSchema } from './schemas';

export const publicPlayerSchema = z.object({
  /** the name shown in the game */
  name: z.string(),
  /** the account's username, for a signed-in player; null for a guest or the AI */
  username: z.string().nullable(),
  /** a guest played this side (the name is the guest's own choice, shown marked) */
  guest: z.boolean(),
  /** the rating in the game's speed before and after, for a rated game */
  rating: ratingChangeSchema.nullable(),
});

export const gameSummarySchema = z.object({
  id: z.string(),
  kind: z.enum(['pool', 'ai', 'imported']),
  white: publicPlayerSchema,
  black: publicPlayerSchema,
  winner: winnerSchema,
  reason: gameEndReasonSchema,
  rated: z.boolean(),
  clockMs: z.number(),
  /** the Fischer increment per move */
  incrementMs: z.number(),
  /** the speed of its time control (a rated game moved that speed's ratings); null without a clock, or for an unrated game archived before speeds were kept */
  speed: speedSchema.nullable(),
  startedAt: z.string(),
  endedAt: z.string(),
  plies: z.number(),
});

export const publicGameSchema = gameSummarySchema.extend({
  /** moves in UCI */
  moves: z.array(z.string()),
  /** the mover's clock in ms after each move */
  clocksMs: z.array(z.number()),
  pgn: z.string(),
});

/** A player's rating in one speed, with its history: the rating its first rated game of the speed started from, then the one after each. */
export const speedRatingSchema = z.object({
  speed: speedSchema,
  rating: z.number(),
  deviation: z.number(),
  provisional: z.boolean(),
  /** rated games played in this speed */
  games: z.number(),
  history: z.array(z.object({ at: z.string(), rating: z.number() })),
});

export const profileSchema = z.object({
  username: z.string(),
  /** one per speed the player has played rated games in, fastest first; empty before any */
  ratings: z.array(speedRatingSchema),
  record: z.object({ games: z.number(), wins: z.number(), losses: z.number(), draws: z.number(), aborted: z.number() }),
  recent: z.array(gameSummarySchema),
});

/** GET /api/me (signed in): the player's own record and games, whether or not it has a username yet. */
export const ownProfileSchema = profileSchema.extend({ username: z.string().nullable() });

export const leaderboardSchema = z.array(
  z.object({ username: z.string(), rating: z.number(), deviation: z.number(), games: z.number() }),
);

export type PublicPlayer = z.infer<typeof publicPlayerSchema>;
export type SpeedRating = z.infer<typeof speedRatingSchema>;
export type GameSummary = z.infer<typeof gameSummarySchema>;
export type PublicGame = z.infer<typeof publicGameSchema>;
export type Profile = z.infer<typeof profileSchema>;
export type OwnProfile = z.infer<typeof ownProfileSchema>;
export type Leaderboard = z.infer<typeof leaderboardSchema>;

/** The archive API's paths (the server mounts them, the client fetches them). */
export const ARCHIVE_API = {
  game: (id: string) => `/api/games/${encodeURIComponent(id)}`,
  profile: (username: string) => `/api/players/${encodeURIComponent(username)}`,
  playerGames: (username: string, before?: string) =>
    `/api/players/${encodeURIComponent(username)}/games${before ? `?before=${encodeURIComponent(before)}` : ''}`,
  /** one speed's leaderboard (without a speed: Rapid's) */
  leaderboard: (speed?: z.infer<typeof speedSchema>) => `/api/leaderboard${speed ? `?speed=${speed}` : ''}`,
  /** the signed-in player's own profile; send the access token as a bearer token */
  me: '/api/me',
} as const;
