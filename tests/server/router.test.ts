/** The socket router's answers to messages that do not parse: each as the client expects it. */
import { describe, expect, it } from 'vitest';
import { parseClientMessage } from '../../machines/protocol/parse';
import { refusalOf } from '../../server/realtime/router';

const refused = (text: string) => {
  const parsed = parseClientMessage(text);
  if (parsed.ok) throw new Error('parsed');
  return refusalOf(parsed);
};

describe('refusals of messages that do not parse', () => {
  it('a bad move is a refused move (the board takes it back), in a game against a player or the AI', () => {
    for (const type of ['gameMove', 'playerMoveAI']) {
      const r = refused(JSON.stringify({ type, payload: { gameId: 'g', move: { from: 'e9', to: 'e4' } } }));
      expect(r.reason).toBe('invalid_payload');
      expect(r.answer).toEqual({ type: 'moveRejected', message: r.detail });
      expect(r.detail).toMatch(/^.+: payload\.move\.from/);
    }
  });

  it("bad AI game options name the option at fault", () => {
    const r = refused(JSON.stringify({ type: 'startAIGame', payload: { options: { difficulty: 11 } } }));
    expect(r).toMatchObject({ reason: 'invalid_options', answer: { type: 'error', code: 'invalid_options' } });
    expect(r.detail).toMatch(/^Invalid AI game options: .*difficulty/);
  });

  it('anything else is an error with the parser\'s reason', () => {
    expect(refused('{oops')).toMatchObject({ reason: 'malformed_json', answer: { type: 'error', code: 'malformed_json' } });
    expect(refused(JSON.stringify({ type: 'nope' }))).toMatchObject({ reason: 'unknown_type', answer: { type: 'error', code: 'unknown_type' } });
    expect(refused(JSON.stringify({ type: 'resign', payload: {} }))).toMatchObject({ reason: 'invalid_payload', answer: { type: 'error', code: 'invalid_payload' } });
  });
});
