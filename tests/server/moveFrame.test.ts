/**
 * readMoveFrame reads the gameMove frame clients write straight from the bytes. Whatever it
 * accepts must be exactly what parseClientMessage makes of the same text; everything else it
 * must leave to parseClientMessage (null).
 */
import { describe, expect, it } from 'vitest';
import { readMoveFrame } from '../../server/realtime/moveFrame';
import { parseClientMessage } from '../../machines/protocol/parse';
import { seeded } from '../../server/seeded';

const bytes = (text: string) => {
  const u8 = new TextEncoder().encode(text);
  return u8.buffer.slice(u8.byteOffset, u8.byteOffset + u8.byteLength) as ArrayBuffer;
};

/** How the clients write moves: JSON.stringify of the payload in their key order. */
const canonical = [
  { gameId: 'game_AbC-12_xyz', move: { from: 'e2', to: 'e4' } },
  { gameId: 'g', move: { from: 'a7', to: 'a8', promotion: 'n' } },
  { gameId: 'game_x', move: { from: 'g1', to: 'f3', piece: 'n' } },
  { gameId: 'game_x', move: { from: 'h7', to: 'h8', piece: 'p', promotion: 'q' } },
  { gameId: 'game_x', move: { from: 'e2', to: 'e4', piece: '' } },
  { gameId: 'x'.repeat(64), move: { from: 'h8', to: 'a1' } },
].map((payload) => JSON.stringify({ type: 'gameMove', payload }));

describe('readMoveFrame', () => {
  it('reads the frames clients write, exactly as parseClientMessage does', () => {
    for (const text of canonical) {
      const full = parseClientMessage(text);
      expect(full.ok, text).toBe(true);
      expect(readMoveFrame(bytes(text)), text).toStrictEqual(full.ok ? full.msg : null);
    }
  });

  it('never accepts a frame parseClientMessage would read differently (random edits of client frames)', () => {
    const rnd = seeded(99);
    const alphabet = ['"', '{', '}', ',', ':', ' ', '\\', 'a', 'e', '9', '8', 'é', 'q', 'k', 'x', '\u0000'];
    let accepted = 0;
    let tried = 0;
    for (let i = 0; i < 20_000; i++) {
      let text = canonical[Math.floor(rnd() * canonical.length)];
      const edits = 1 + Math.floor(rnd() * 3);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(rnd() * (text.length + 1));
        const r = rnd();
        const ch = alphabet[Math.floor(rnd() * alphabet.length)];
        if (r < 0.4) text = text.slice(0, at) + ch + text.slice(at); // insert
        else if (r < 0.7) text = text.slice(0, at) + text.slice(at + 1); // delete
        else text = text.slice(0, at) + ch + text.slice(at + 1); // replace
      }
      tried++;
      const fast = readMoveFrame(bytes(text));
      if (fast === null) continue;
      accepted++;
      const full = parseClientMessage(text);
      expect(full.ok ? full.msg : full, text).toStrictEqual(fast);
    }
    // some edits keep a valid frame (another square, another id letter); most do not
    expect(accepted).toBeGreaterThan(100);
    expect(accepted).toBeLessThan(tried / 2);
  });

  it('leaves other forms of a valid move to the full parser', () => {
    for (const text of [
      '{"payload":{"gameId":"g1","move":{"from":"e2","to":"e4"}},"type":"gameMove"}', // other key order
      '{"type":"gameMove","payload":{"gameId":"g1","move":{"to":"e4","from":"e2"}}}',
      '{"type": "gameMove","payload":{"gameId":"g1","move":{"from":"e2","to":"e4"}}}', // spaces
      '{"type":"gameMove","payload":{"gameId":"g\\u0031","move":{"from":"e2","to":"e4"}}}', // an escape
      '{"type":"gameMove","payload":{"gameId":"g1","move":{"from":"e2","to":"e4","promotion":"q","piece":"p"}}}',
    ]) {
      expect(readMoveFrame(bytes(text)), text).toBeNull();
      expect(parseClientMessage(text).ok, text).toBe(true);
    }
  });

  it('refuses what the schema refuses', () => {
    for (const text of [
      '{"type":"gameMove","payload":{"gameId":"","move":{"from":"e2","to":"e4"}}}',
      `{"type":"gameMove","payload":{"gameId":"${'x'.repeat(65)}","move":{"from":"e2","to":"e4"}}}`,
      '{"type":"gameMove","payload":{"gameId":"g1","move":{"from":"e9","to":"e4"}}}',
      '{"type":"gameMove","payload":{"gameId":"g1","move":{"from":"e2","to":"e4","promotion":"k"}}}',
      '{"type":"gameMove","payload":{"gameId":"g1","move":{"from":"e2","to":"e4","piece":"ninechars"}}}',
      '{"type":"gameMove","payload":{"gameId":"g1","move":{"from":"e2","to":"e4"}}}x',
    ]) {
      expect(readMoveFrame(bytes(text)), text).toBeNull();
    }
  });
});
