/**
 * The protocol's schemas at run time: every example message passes, the server's parser refuses
 * what the contract does not allow with a reason and the field at fault, and a server message
 * outside the contract is caught by the check every test client runs.
 */
import { describe, expect, it } from 'vitest';
import { parseClientMessage } from '../../machines/protocol/parse';
import { clientPayloadSchemas, serverMessageSchema } from '../../machines/protocol/schemas';
import { checkServerMessage } from '../support/protocol';
import { CLIENT_SAMPLES, SERVER_SAMPLES } from './samples';

describe('protocol examples', () => {
  it('every server message example passes the server message schema unchanged', () => {
    for (const sample of Object.values(SERVER_SAMPLES)) {
      expect(serverMessageSchema.parse(sample), sample.type).toStrictEqual(sample);
    }
  });

  it('every client message example is accepted by the parser the server runs', () => {
    for (const sample of Object.values(CLIENT_SAMPLES)) {
      const r = parseClientMessage(JSON.stringify(sample));
      expect(r, sample.type).toMatchObject({ ok: true, msg: { type: sample.type } });
    }
    expect(Object.keys(CLIENT_SAMPLES).sort()).toEqual(Object.keys(clientPayloadSchemas).sort());
  });
});

describe('parseClientMessage', () => {
  const refusal = (text: string) => {
    const r = parseClientMessage(text);
    if (r.ok) throw new Error(`accepted ${text}`);
    return r;
  };

  it('names one of four reasons for a refusal', () => {
    expect(refusal('{"type":').reason).toBe('malformed_json');
    expect(refusal('[1,2]').reason).toBe('not_an_object');
    expect(refusal('{"type":7}').reason).toBe('not_an_object');
    expect(refusal('{"type":"move"}')).toMatchObject({ reason: 'unknown_type', detail: 'unknown message type "move"' });
    expect(refusal('{"type":"resign","payload":{}}')).toMatchObject({ reason: 'invalid_payload', type: 'resign' });
  });

  it('startAIGame accepts only { options: { difficulty 1..10, playerColor } }, with the field at fault', () => {
    const ai = (payload: unknown) => parseClientMessage(JSON.stringify({ type: 'startAIGame', payload }));
    expect(ai({ options: { difficulty: 9, playerColor: 'black' } })).toStrictEqual({
      ok: true,
      msg: { type: 'startAIGame', payload: { options: { difficulty: 9, playerColor: 'black' } } },
    });
    // extra keys are dropped, never passed on
    expect(ai({ options: { difficulty: 1, playerColor: 'random', depth: 30 }, x: 1 })).toMatchObject({
      ok: true,
      msg: { payload: { options: { difficulty: 1, playerColor: 'random' } } },
    });
    const cases: [unknown, string][] = [
      [{ options: { difficulty: 11, playerColor: 'white' } }, 'payload.options.difficulty must be between 1 and 10'],
      [{ options: { difficulty: 0, playerColor: 'white' } }, 'payload.options.difficulty must be between 1 and 10'],
      [{ options: { difficulty: 2.5, playerColor: 'white' } }, 'payload.options.difficulty must be a whole number'],
      [{ options: { difficulty: '5', playerColor: 'white' } }, 'payload.options.difficulty must be a number'],
      [{ options: { difficulty: 5, playerColor: 'green' } }, 'payload.options.playerColor must be "white", "black" or "random"'],
      [{ options: { difficulty: 5 } }, 'payload.options.playerColor must be "white", "black" or "random"'],
      // the inner options alone, or nothing, are not the documented payload
      [{ difficulty: 5, playerColor: 'white' }, 'payload.options'],
      [undefined, 'payload'],
      ['white', 'payload'],
    ];
    for (const [payload, issue] of cases) {
      const r = ai(payload);
      expect(r, JSON.stringify(payload)).toMatchObject({ ok: false, reason: 'invalid_payload', type: 'startAIGame' });
      expect(r.ok ? '' : r.issue, JSON.stringify(payload)).toMatch(new RegExp(`^${issue.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    }
  });
});

describe('the check on server messages in tests', () => {
  it('passes a message of the contract and returns it as received', () => {
    const text = JSON.stringify(SERVER_SAMPLES.gameMove);
    expect(checkServerMessage(text)).toStrictEqual(SERVER_SAMPLES.gameMove);
  });

  it('fails on a field outside the contract, a wrong value or an unknown type, naming the field', () => {
    expect(() => checkServerMessage('{"type":"drawOffer","gameId":"g","by":"white"}')).toThrow(/drawOffer/);
    expect(() => checkServerMessage('{"type":"gameMove","gameId":"g","move":{"from":"e2","to":"e4"},"nextTurn":"w"}')).toThrow(
      /at nextTurn/,
    );
    expect(() => checkServerMessage('{"type":"welcome"}')).toThrow(/at type/);
  });
});
