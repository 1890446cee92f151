/**
 * The round (server/round): the one place that seats players and tells their games they left or
 * came back, run on the real game manager and hub without a socket (a player "elsewhere" is one
 * whose socket is on another node).
 */
import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { GameManager, type LiveGame } from '../../server/game/games';
import { Hub, type PlayerSession } from '../../server/realtime/hub';
import type { LagPings } from '../../server/realtime/lagPings';
import type { TemplatedApp } from '../../server/uws';
import { ServerMetrics } from '../../server/http/metrics';
import { Heartbeat } from '../../server/heartbeat';
import { DEFAULT_LAG } from '../../machines/game/defaults';
import { Presence } from '../../server/round/presence';
import { endedElsewhere, forgetElsewhere, playedHere, playElsewhere, sit, socketOn, stand } from '../../server/round/seats';
import { isGameCommand, parseClientMessage } from '../../machines/protocol/parse';
import { readBusMessage } from '../../server/cluster/messages';

interface Table {
  hub: Hub;
  games: GameManager;
  presence: Presence;
  /** frames the hub handed to other nodes, per player */
  remote: Map<string, string[]>;
}

const tables: Table[] = [];
afterEach(() => {
  for (const t of tables.splice(0)) {
    t.games.stopAll();
    t.hub.stop();
  }
});

function table(): Table {
  const app = { publish: () => true } as unknown as TemplatedApp;
  const hub = new Hub(app, 1_000, {} as LagPings);
  const remote = new Map<string, string[]>();
  hub.remote = {
    sendText: (_node, playerId, text) => remote.set(playerId, [...(remote.get(playerId) ?? []), text]),
    elsewhereOnline: 0,
  };
  const metrics = new ServerMetrics({ connections: () => 0, playersOnline: () => 0, queueLength: () => 0, liveGames: () => 0, aiGames: () => 0, archivePending: () => 0 });
  let presence: Presence | undefined;
  const games = new GameManager(
    hub,
    metrics,
    pino({ level: 'silent' }),
    { clockMs: 600_000, clockReportMs: 0, firstMoveMs: 30_000, graceMs: { guest: 10_000, account: 10_000 }, lag: DEFAULT_LAG, presence: { begun: (g) => presence!.begun(g) } },
    new Heartbeat(50),
  );
  presence = new Presence(hub, games);
  const t = { hub, games, presence, remote };
  tables.push(t);
  return t;
}

/** Two players whose sockets are on node n2, in a game played here. */
function gameAcross(t: Table): { game: LiveGame; white: PlayerSession; black: PlayerSession } {
  const white = t.hub.seat('guest_w', 'guest');
  const black = t.hub.seat('guest_b', 'guest');
  socketOn(white, 'n2');
  socketOn(black, 'n2');
  const game = t.games.start(white, black)!;
  return { game, white, black };
}

const away = (game: LiveGame) => game.actor.getSnapshot().context.away;
const types = (t: Table, id: string) => (t.remote.get(id) ?? []).map((text) => (JSON.parse(text) as { type: string }).type);

describe('seats', () => {
  it('are taken and left only for the game that holds them', () => {
    const t = table();
    const { game, white } = gameAcross(t);
    expect(white.game).toBe(game);
    const other = { ...game, id: 'game_other' };
    expect(stand(white, other)).toBe(false);
    expect(white.game).toBe(game);
    expect(stand(white, game)).toBe(true);
    expect(white.game).toBeNull();
    sit(white, game);
    expect(white.game).toBe(game);
  });

  it('elsewhere: a game on another node is remembered for rematches after it ends, and dropped when it is played here', () => {
    const t = table();
    const s = t.hub.seat('guest_x', 'guest');
    playElsewhere(s, { id: 'game_1', owner: 'n3' });
    endedElsewhere(s, 'game_2');
    expect(s.remoteGame?.id).toBe('game_1');
    endedElsewhere(s, 'game_1');
    expect(s.remoteGame).toBeNull();
    expect(s.lastRemoteGame?.id).toBe('game_1');
    playedHere(s, 'game_1');
    expect(s.lastRemoteGame).toBeNull();
    playElsewhere(s, { id: 'game_3', owner: 'n3' });
    forgetElsewhere(s);
    expect([s.remoteGame, s.lastRemoteGame]).toEqual([null, null]);
  });
});

describe('presence', () => {
  it('a game that begins with a player already gone counts their grace; a player found again sees the game', () => {
    const t = table();
    const white = t.hub.seat('guest_w', 'guest');
    const black = t.hub.seat('guest_b', 'guest');
    socketOn(black, 'n2');
    const game = t.games.start(white, black)!;
    expect(away(game)).toEqual({ white: true, black: false });

    t.presence.arrived(white, 'n2');
    expect(away(game).white).toBe(false);
    expect(white.node).toBe('n2');
    expect(types(t, 'guest_w')).toContain('gameStart');
  });

  it('a socket elsewhere that closes starts the grace only when it was the player\'s current one', () => {
    const t = table();
    const { game, white, black } = gameAcross(t);
    expect(t.presence.left(white, 'n3')).toBe(false);
    expect(away(game).white).toBe(false);
    expect(t.presence.left(white, 'n2')).toBe(true);
    expect(white.node).toBeNull();
    expect(away(game).white).toBe(true);
    expect(types(t, black.id)).toContain('opponentDisconnected');

    t.presence.arrived(white, 'n2');
    expect(away(game).white).toBe(false);
    expect(types(t, black.id)).toContain('opponentReconnected');
  });

  it('a newer socket here that replaced an older one is no reconnection; a socket after none is', () => {
    const t = table();
    const { game, white, black } = gameAcross(t);
    t.presence.here(white, true);
    expect(types(t, black.id)).not.toContain('opponentReconnected');
    t.presence.gone(white);
    expect(away(game).white).toBe(true);
    t.presence.here(white, false);
    expect(away(game).white).toBe(false);
    expect(white.node).toBeNull();
  });

  it('a player whose newer socket is on another node plays their games there', () => {
    const t = table();
    const s = t.hub.seat('guest_x', 'guest');
    playElsewhere(s, { id: 'game_1', owner: 'n3' });
    t.presence.movedTo(s, 'n2');
    expect([s.node, s.remoteGame, s.lastRemoteGame]).toEqual(['n2', null, null]);
  });
});

describe('game messages between nodes', () => {
  it('are the game messages, and travel to another node in the shape they were parsed in, checked again there', () => {
    const move = parseClientMessage(JSON.stringify({ type: 'gameMove', payload: { gameId: 'game_1', move: { from: 'e2', to: 'e4' } } }));
    const find = parseClientMessage(JSON.stringify({ type: 'findGame', payload: { username: 'A' } }));
    const check = parseClientMessage(JSON.stringify({ type: 'checkActiveGame' }));
    if (!move.ok || !find.ok || !check.ok) throw new Error('not parsed');
    expect(isGameCommand(move.msg)).toBe(true);
    expect(isGameCommand(check.msg)).toBe(true);
    expect(isGameCommand(find.msg)).toBe(false);
    const bus = (c: unknown) => readBusMessage(JSON.stringify({ k: 'cmd', n: 'n1', p: 'guest_x', c }));
    expect(bus(move.msg)).toEqual({ k: 'cmd', n: 'n1', p: 'guest_x', c: move.msg });
    expect(bus({ type: 'gameMove', payload: { gameId: 'game_1', move: { from: 'e9', to: 'e4' } } })).toBeNull();
    expect(bus(find.msg)).toBeNull();
    // no JSON inside JSON: a command as text is no command
    expect(bus(JSON.stringify(move.msg))).toBeNull();
  });
});
