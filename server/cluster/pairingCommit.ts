/**
 * A pairing of the site's pool is committed in Redis before its game starts, in one step: only
 * while the node that paired still holds the matchmaker role under the term it paired in, and
 * only while neither player has a seat (a live game, or a pairing committed a moment ago); the
 * commit then seats both in the game to come. So a pool that lost the role (its holder had not
 * heard yet, or was held up) and a search that reached two pools pair a player once: the second
 * pairing is refused here, and no player hears of it. (The script builds key names from a
 * prefix: one Redis, not a Redis Cluster.)
 */
import { execOrThrow, type RedisLink } from './redis';
import type { ClusterKeys } from './keys';
import { DELETE_IF } from './ownership';

/**
 * How long a committed pairing's seats hold before its game starts (the game's start seats the
 * players for its whole length): the seats of a game that never started are free again after it.
 */
export const PAIRING_SEAT_MS = 30_000;

/**
 * KEYS: the matchmaker role, its term, the owner keys' prefix, the two players' seats.
 * ARGV: the node, the term it paired in, the game's id, PAIRING_SEAT_MS.
 * A seat counts while its game has an owner, or while it is a pairing's seat whose game has not
 * started yet (no longer than PAIRING_SEAT_MS to live); a seat left by a game that ended without
 * clearing it does not.
 */
const COMMIT = `
local holder = redis.call('GET', KEYS[1]) or ''
local term = redis.call('GET', KEYS[2]) or ''
if holder ~= ARGV[1] or term ~= ARGV[2] then return {'role_lost', holder, term} end
local seated = {}
for i = 4, 5 do
  local game = redis.call('GET', KEYS[i])
  local live = game and (redis.call('EXISTS', KEYS[3] .. game) == 1 or redis.call('PTTL', KEYS[i]) <= tonumber(ARGV[4]))
  seated[#seated + 1] = live and 1 or 0
end
if seated[1] == 1 or seated[2] == 1 then return {'player_seated', seated[1], seated[2]} end
redis.call('SET', KEYS[4], ARGV[3], 'PX', ARGV[4])
redis.call('SET', KEYS[5], ARGV[3], 'PX', ARGV[4])
return {'committed'}`;

/** What Redis said of a pairing. */
export type PairingVerdict =
  | { outcome: 'committed' }
  /** the role is `holder`'s now (none: ''), under `term` */
  | { outcome: 'role_lost'; holder: string; term: string }
  /** which of the two players (white, black) has a seat already */
  | { outcome: 'player_seated'; seated: [boolean, boolean] };

export class PairingCommit {
  constructor(
    private readonly node: string,
    private readonly redis: RedisLink,
    private readonly keys: ClusterKeys,
  ) {}

  /** Commits the pairing of `white` and `black` into game `gameId`, made under the role's `term`. */
  async commit(gameId: string, term: string, white: string, black: string): Promise<PairingVerdict> {
    const keys = [this.keys.matchmaker, this.keys.matchmakerTerm, this.keys.owner(''), this.keys.seat(white), this.keys.seat(black)];
    const reply = (await this.redis.cmd.eval(COMMIT, keys.length, ...keys, this.node, term, gameId, PAIRING_SEAT_MS)) as [string, ...(string | number)[]];
    switch (reply[0]) {
      case 'committed':
        return { outcome: 'committed' };
      case 'role_lost':
        return { outcome: 'role_lost', holder: String(reply[1]), term: String(reply[2]) };
      default:
        return { outcome: 'player_seated', seated: [reply[1] === 1, reply[2] === 1] };
    }
  }

  /** The seats of a committed pairing whose game did not start are free again (a newer seat is left alone). */
  async release(gameId: string, players: string[]): Promise<void> {
    const pipe = this.redis.cmd.pipeline();
    for (const p of players) pipe.eval(DELETE_IF, 1, this.keys.seat(p), gameId);
    execOrThrow(await pipe.exec());
  }
}
