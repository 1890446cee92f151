/**
 * The zod schema is the definition of a gameMove payload. A move frame is read either by
 * parseClientMessage (JSON.parse and the schemas) or, when written exactly as clients write it,
 * straight from its bytes (readMoveFrame). For any payload both must answer as the schema does.
 */
import { describe, expect, it } from 'vitest';
import { readMoveFrame } from '../../server/realtime/moveFrame';
import { parseClientMessage } from '../../machines/protocol/parse';
import { clientPayloadSchemas as payloadSchemas } from '../../machines/protocol/schemas';

const gameIds: unknown[] = ['game_abc', 'g', 'x'.repeat(64), 'x'.repeat(65), '', 7, null, undefined, ['game_abc'], 'ünïcødé_id'];
const squares: unknown[] = ['e2', 'a1', 'h8', 'i1', 'a9', 'a0', 'E2', 'e22', 'e', '', 5, null, undefined, 'e2\n'];
const pieces: unknown[] = [undefined, 'p', 'knight', 'ninechars', 3, null];
const promotions: unknown[] = [undefined, 'q', 'r', 'b', 'n', 'k', 'Q', '', null, 1];

function* payloads(): Generator<unknown> {
  for (const gameId of gameIds) yield { gameId, move: { from: 'e2', to: 'e4' } };
  for (const from of squares) for (const to of ['e4', 'h9', undefined]) yield { gameId: 'g1', move: { from, to } };
  for (const piece of pieces) for (const promotion of promotions) yield { gameId: 'g1', move: { from: 'e7', to: 'e8', piece, promotion } };
  yield { gameId: 'g1', move: { from: 'e2', to: 'e4', extra: 1 }, nextTurn: 'black' };
  yield { gameId: 'g1', move: ['e2', 'e4'] };
  yield { gameId: 'g1', move: null };
  yield { gameId: 'g1' };
  yield ['g1', { from: 'e2', to: 'e4' }];
  yield null;
  yield undefined;
  yield 'gameMove';
}

describe('gameMove payload', () => {
  it('parseClientMessage and the byte reader agree with the zod schema on every payload, output included', () => {
    let accepted = 0;
    let refused = 0;
    let readFromBytes = 0;
    for (const payload of payloads()) {
      // as it arrives: through JSON (undefined fields vanish)
      const text = JSON.stringify({ type: 'gameMove', payload });
      const wire = JSON.parse(text).payload;
      const byZod = payloadSchemas.gameMove.safeParse(wire);
      const full = parseClientMessage(text);
      const fromBytes = readMoveFrame(new TextEncoder().encode(text).buffer as ArrayBuffer);
      if (byZod.success) {
        expect(full, text).toStrictEqual({ ok: true, msg: { type: 'gameMove', payload: byZod.data } });
        // the byte reader may leave a valid frame to the full parser, never read it differently
        if (fromBytes) {
          expect(fromBytes, text).toStrictEqual({ type: 'gameMove', payload: byZod.data });
          readFromBytes++;
        }
        accepted++;
      } else {
        expect(full.ok, text).toBe(false);
        expect(fromBytes, text).toBeNull();
        refused++;
      }
    }
    expect(accepted).toBeGreaterThan(10);
    expect(refused).toBeGreaterThan(30);
    expect(readFromBytes).toBeGreaterThan(10);
  });

  it('a refused payload still gets the schema’s error text', () => {
    const r = parseClientMessage(JSON.stringify({ type: 'gameMove', payload: { gameId: 'g1', move: { from: 'e2', to: 'z9' } } }));
    expect(r).toMatchObject({ ok: false, reason: 'invalid_payload', type: 'gameMove' });
    expect(r.ok ? '' : r.detail).toMatch(/^gameMove: payload\.move\.to square must be a1\.\.h8/);
  });

  it('an accepted move comes out as the schema would give it', () => {
    const r = parseClientMessage('{"type":"gameMove","payload":{"gameId":"g1","move":{"from":"e7","to":"e8","promotion":"n"},"nextTurn":"black"},"x":1}');
    expect(r).toStrictEqual({ ok: true, msg: { type: 'gameMove', payload: { gameId: 'g1', move: { from: 'e7', to: 'e8', promotion: 'n' } } } });
  });
});
