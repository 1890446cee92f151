/**
 * kill -9 while games are being played, with the real server process in its default journal
 * mode (GAME_JOURNAL_SYNC=interval: a plain write before the moves go out, the sync off the move
 * path). 24 games play random legal moves as fast as their players answer (many moves in flight,
 * several in each batch); the server is killed with SIGKILL at an arbitrary moment, three times.
 * After each restart every move any player received (its own move's echo is its
 * acknowledgement) is in the resumed game, in order, and the games play on.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ChessGame } from '../../machines/chess';
import type { CurrentState } from '../../machines/protocol/messages';
import { seeded } from '../../server/seeded';
import { TestClient, pairPlayers, type Msg } from './helpers';
import { killProcess, startProcess } from './serverProcess';

const GAMES = 24;
const KILLS = 3;

const uciOf = (m: { from: string; to: string; promotion?: string }) => m.from + m.to + (m.promotion ?? '');

/** One player of one game: the moves it was told of, and its answer whenever it is its turn. */
class Player {
  /** every move this player received, in order (its own included: their echo acknowledges them) */
  told: string[] = [];
  client!: TestClient;
  over = false;

  constructor(
    readonly gameId: string,
    readonly color: 'white' | 'black',
    readonly id: { playerId: string; secret: string },
    private readonly pick: () => number,
  ) {}

  /** Plays on from `moves` through `client` until the socket closes or the game ends. */
  seat(client: TestClient, moves: string[]): void {
    this.client = client;
    this.told = [...moves];
    client.ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as Msg;
      if (m.gameId !== this.gameId) return;
      if (m.type === 'gameEnd') this.over = true;
      if (m.type !== 'gameMove') return;
      this.told.push(uciOf(m.move as { from: string; to: string; promotion?: string }));
      this.answer();
    });
    this.answer();
  }

  private answer(): void {
    const game = new ChessGame();
    for (const uci of this.told) game.play(uci);
    if (this.over || game.outcome() !== null || game.turn() !== this.color) return;
    const legal = game.legalMoves();
    const uci = legal[Math.floor(this.pick() * legal.length)];
    // a human-like pause, so that the games last through the kills
    const client = this.client;
    setTimeout(() => client.send('gameMove', { gameId: this.gameId, move: { from: uci.slice(0, 2), to: uci.slice(2, 4), ...(uci.length > 4 ? { promotion: uci[4] } : {}) } }), 10 + Math.floor(this.pick() * 40));
  }
}

describe('kill -9 while games are played (default journal mode)', () => {
  it(`keeps every move any player was told of, through ${KILLS} kills with ${GAMES} games moving`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'crash-'));
    // seeded, so a failure replays the same games
    const pick = seeded(20261127);
    let server = await startProcess({ DATA_DIR: dataDir });
    // a failed expectation must not leave the server running
    onTestFinished(() => killProcess(server));
    const players: Player[] = [];
    for (let i = 0; i < GAMES; i++) {
      const p = await pairPlayers(server.url, [`W${i}`, `B${i}`]);
      for (const [color, c] of [['white', p.white], ['black', p.black]] as const) {
        const player = new Player(p.gameId, color, { playerId: c.playerId, secret: c.secret }, pick);
        players.push(player);
        player.seat(c, []);
      }
    }
    let told = 0;
    for (let kill = 1; kill <= KILLS; kill++) {
      // play a while, then kill the process at an arbitrary moment
      await new Promise((r) => setTimeout(r, 700 + Math.floor(pick() * 800)));
      await killProcess(server);
      const sawMoves = players.reduce((n, p) => n + p.told.length, 0);
      expect(sawMoves, `moves were played before kill ${kill}`).toBeGreaterThan(told + GAMES);
      told = sawMoves;

      server = await startProcess({ DATA_DIR: dataDir });
      let resumedSeats = 0;
      for (const p of players) {
        const client = await TestClient.connect(server.url, p.id);
        client.send('rejoinGame', { gameId: p.gameId });
        const start = await Promise.race([client.next('gameStart', () => true, 15_000), client.next('error', () => true, 15_000)]);
        if (start.type === 'error') {
          // a game that ended before the kill (by a move of a batch the kill left unsent, or told):
          // the restart archived it and it is live no more
          expect(start.code).toBe('unknown_game');
          continue;
        }
        const resumed = (start.currentState as CurrentState).moves.map(uciOf);
        // everything this player was told of is in the resumed game, in order
        expect(resumed.slice(0, p.told.length), `${p.gameId} (${p.color}) after kill ${kill}`).toEqual(p.told);
        p.seat(client, resumed);
        resumedSeats++;
      }
      expect(resumedSeats, `players back in their games after kill ${kill}`).toBeGreaterThan(players.length / 2);
    }
  }, 180_000);
});
