/**
 * Several nodes: the ended games of the shared game log that have no archive row yet (their node
 * died, or the database was away, before the archive committed them) are archived by any node,
 * at its start and every sweep interval after. An ended game is left to its own node for one
 * interval first. The archive is idempotent per game id (its row and rating in one transaction),
 * so nodes sweeping at once, or a sweep beside the game's own node, store and rate a game once.
 */
import type { Logger } from 'pino';
import { replay } from '../../machines/game';
import type { Queryable } from '../accounts/db';
import type { EndedGame } from '../game/games';
import { loadGameLogs } from './sharedLog';

/** How often a node looks for ended games without an archive row, and how long it leaves a fresh one to its own node. */
export const UNARCHIVED_SWEEP_MS = 60_000;
/** How many such games one sweep takes at most (the next sweep takes the rest). */
const SWEEP_BATCH = 200;

/** Ended multiplayer games (an `end` row) older than $1 (wall-clock ms) with no row in the archive's games table. */
const UNARCHIVED_SQL = `
SELECT l.game_id FROM game_log l
WHERE l.body ? 'end' AND l.origin + (l.body->>'at')::float8 < $1
  AND NOT EXISTS (SELECT 1 FROM games g WHERE g.id = l.game_id)
LIMIT $2`;

export class UnarchivedSweep {
  private timer: NodeJS.Timeout | null = null;
  private sweeping = false;

  constructor(
    private readonly db: Queryable,
    /** the archive's onEnded (archiveFinishedGames): tried until stored */
    private readonly onEnded: (ended: EndedGame) => void,
    private readonly logger: Logger,
    private readonly everyMs = UNARCHIVED_SWEEP_MS,
  ) {}

  start(): void {
    void this.sweep();
    this.timer = setInterval(() => void this.sweep(), this.everyMs);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      const rows = await this.db.query<{ game_id: string }>(UNARCHIVED_SQL, [Date.now() - this.everyMs, SWEEP_BATCH]);
      if (rows.length === 0) return;
      const loaded = await loadGameLogs(this.db, rows.map((r) => r.game_id), 0);
      let handed = 0;
      for (const game of loaded) {
        if (!game || game instanceof Error || !game.result) continue;
        this.onEnded({ log: game.log, state: replay(game.log), result: game.result, at: game.endedAt ?? performance.now() });
        handed++;
      }
      this.logger.info({ games: handed }, 'ended games without an archive row found in the game log; archiving them');
    } catch (err) {
      this.logger.warn({ err }, 'could not look for ended games without an archive row; trying again at the next sweep');
    } finally {
      this.sweeping = false;
    }
  }
}
