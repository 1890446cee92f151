/**
 * The AI game machine on its own, provided the way the browser's AI screen provides it: the
 * AI's moves come from outside (here: a script standing in for the server's moveMade
 * messages), the player's moves are checked by machines/chess.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise } from 'xstate';
import { aiGameMachine, type AiGameEmitted, type AiMoveInput, type AiMoveOutput } from '../../machines/ai/index';

/** A client-style move source: resolves each request with the next scripted move. */
function scripted(moves: string[], seen: AiMoveInput[] = []) {
  return fromPromise<AiMoveOutput, AiMoveInput>(async ({ input }) => {
    seen.push(input);
    const uci = moves.shift();
    if (!uci) throw new Error('server connection lost');
    return { uci };
  });
}

function run(opts: { playerColor: 'white' | 'black'; aiMoves: string[]; moves?: string[]; maxPlies?: number; seen?: AiMoveInput[] }) {
  const machine = aiGameMachine.provide({ actors: { aiMove: scripted(opts.aiMoves, opts.seen) } });
  const actor = createActor(machine, {
    input: { gameId: 'g1', playerColor: opts.playerColor, difficulty: 5, moves: opts.moves, maxPlies: opts.maxPlies },
  });
  const events: AiGameEmitted[] = [];
  for (const t of ['playerMoved', 'aiMoved', 'rejected', 'engineError', 'ended'] as const) actor.on(t, (e) => events.push(e as AiGameEmitted));
  actor.start();
  return { actor, events };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('aiGameMachine', () => {
  it('checks player moves, waits for the AI, and ends on checkmate (fool\'s mate)', async () => {
    const { actor, events } = run({ playerColor: 'white', aiMoves: ['e7e5', 'd8h4'] });
    expect(actor.getSnapshot().value).toBe('playerTurn');
    actor.send({ type: 'PLAYER_MOVE', move: { from: 'f2', to: 'f4' } });
    expect(actor.getSnapshot().value).toBe('aiThinking');
    actor.send({ type: 'PLAYER_MOVE', move: 'g2g4' }); // not now
    await tick();
    await tick();
    expect(actor.getSnapshot().value).toBe('playerTurn');
    actor.send({ type: 'PLAYER_MOVE', move: { from: 'g2', to: 'g4' } });
    const result = await toPromise(actor);
    expect(result).toEqual({ winner: 'black', reason: 'checkmate' });
    expect(events.map((e) => e.type)).toEqual(['playerMoved', 'rejected', 'aiMoved', 'playerMoved', 'aiMoved', 'ended']);
    expect(events[1]).toMatchObject({ reason: 'Not your turn' });
    expect(events[4]).toMatchObject({ type: 'aiMoved', uci: 'd8h4', san: 'Qh4#', gameOver: true, move: { from: 'd8', to: 'h4' } });
    expect(actor.getSnapshot().context.moves).toEqual(['f2f4', 'e7e5', 'g2g4', 'd8h4']);
  });

  it('rejects illegal and malformed moves and keeps the position', () => {
    const { actor, events } = run({ playerColor: 'white', aiMoves: [] });
    const fen = actor.getSnapshot().context.fen;
    actor.send({ type: 'PLAYER_MOVE', move: { from: 'e2', to: 'e5' } });
    actor.send({ type: 'PLAYER_MOVE', move: { from: 'z9', to: 'e4' } });
    actor.send({ type: 'PLAYER_MOVE', move: { from: 'e7', to: 'e5' } });
    actor.send({ type: 'PLAYER_MOVE', move: { from: 'e2', to: 'e4', promotion: 'k' } as never });
    expect(events.map((e) => (e.type === 'rejected' ? e.reason : e.type))).toEqual([
      'Illegal move: e2e5',
      'Illegal move: {"from":"z9","to":"e4"}',
      'Illegal move: e7e5',
      'Illegal move: {"from":"e2","to":"e4","promotion":"k"}',
    ]);
    expect(actor.getSnapshot().context.fen).toBe(fen);
    expect(actor.getSnapshot().value).toBe('playerTurn');
  });

  it('lets the AI open when the player has black, and passes it the position', async () => {
    const seen: AiMoveInput[] = [];
    const { actor, events } = run({ playerColor: 'black', aiMoves: ['d2d4'], seen });
    expect(actor.getSnapshot().value).toBe('aiThinking');
    await tick();
    await tick();
    expect(events[0]).toMatchObject({ type: 'aiMoved', uci: 'd2d4', gameOver: false });
    expect(seen[0]).toMatchObject({ gameId: 'g1', difficulty: 5, aiColor: 'white', moves: [] });
    expect(actor.getSnapshot().value).toBe('playerTurn');
  });

  it('ends as a technical draw when the move source fails or gives an illegal move', async () => {
    const failed = run({ playerColor: 'black', aiMoves: [] });
    expect(await toPromise(failed.actor)).toEqual({ winner: 'draw', reason: 'technical_draw' });
    expect(failed.events).toEqual([
      { type: 'engineError', message: 'AI engine failure: server connection lost' },
      { type: 'ended', winner: 'draw', reason: 'technical_draw' },
    ]);
    const illegal = run({ playerColor: 'black', aiMoves: ['e2e5'] });
    expect(await toPromise(illegal.actor)).toEqual({ winner: 'draw', reason: 'technical_draw' });
    expect(illegal.events[0]).toMatchObject({ type: 'engineError', message: expect.stringContaining('illegal move (e2e5)') });
  });

  it('resigns, takes the server\'s verdict, and reports engine errors from the server', async () => {
    const a = run({ playerColor: 'white', aiMoves: [] });
    a.actor.send({ type: 'RESIGN' });
    expect(await toPromise(a.actor)).toEqual({ winner: 'black', reason: 'resignation' });

    const b = run({ playerColor: 'black', aiMoves: ['e2e4'] });
    await tick();
    b.actor.send({ type: 'SERVER_GAME_OVER', winner: 'white', reason: 'disconnection' });
    expect(await toPromise(b.actor)).toEqual({ winner: 'white', reason: 'disconnection' });

    const c = run({ playerColor: 'white', aiMoves: [] });
    c.actor.send({ type: 'ENGINE_ERROR', message: 'Stockfish crashed' });
    expect(await toPromise(c.actor)).toEqual({ winner: 'draw', reason: 'technical_draw' });
    expect(c.events[0]).toEqual({ type: 'engineError', message: 'Stockfish crashed' });
  });

  it('detects stalemate and the ply cap, and resumes from a move list', async () => {
    // 10-move stalemate (Sam Loyd): after 10. Qe6 black is stalemated.
    const loyd = ['e2e3', 'a7a5', 'd1h5', 'a8a6', 'h5a5', 'h7h5', 'h2h4', 'a6h6', 'a5c7', 'f7f6', 'c7d7', 'e8f7', 'd7b7', 'd8d3', 'b7b8', 'd3h7', 'b8c8', 'f7g6'];
    const s = run({ playerColor: 'white', aiMoves: [], moves: loyd });
    expect(s.actor.getSnapshot().value).toBe('playerTurn');
    s.actor.send({ type: 'PLAYER_MOVE', move: 'c8e6' });
    expect(await toPromise(s.actor)).toEqual({ winner: 'draw', reason: 'stalemate' });
    expect(s.events[0]).toMatchObject({ type: 'playerMoved', gameOver: true });

    const capped = run({ playerColor: 'white', aiMoves: ['g8f6'], maxPlies: 2 });
    capped.actor.send({ type: 'PLAYER_MOVE', move: 'g1f3' });
    expect(await toPromise(capped.actor)).toEqual({ winner: 'draw', reason: 'max plies' });

    const resumed = run({ playerColor: 'black', aiMoves: ['g1f3'], moves: ['e2e4', 'e7e5'] });
    await tick();
    await tick();
    expect(resumed.actor.getSnapshot().context.moves).toEqual(['e2e4', 'e7e5', 'g1f3']);
  });

  it('waits the provided reply pause before playing the AI move', async () => {
    const machine = aiGameMachine.provide({
      actors: { aiMove: fromPromise<AiMoveOutput, AiMoveInput>(async () => ({ uci: 'e7e5', pauseMs: 150 })) },
    });
    const actor = createActor(machine, { input: { gameId: 'g', playerColor: 'white', difficulty: 1 } }).start();
    const t0 = performance.now();
    const moved = new Promise<number>((resolve) => actor.on('aiMoved', () => resolve(performance.now())));
    actor.send({ type: 'PLAYER_MOVE', move: 'e2e4' });
    await tick();
    expect(actor.getSnapshot().value).toBe('aiPausing');
    expect((await moved) - t0).toBeGreaterThanOrEqual(140);
    expect(actor.getSnapshot().value).toBe('playerTurn');
  });
});
