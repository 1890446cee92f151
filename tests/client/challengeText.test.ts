/** What the custom-game screens say, from the records: the game's line, the viewer's colour, a creator, what became of a challenge. */
import { describe, expect, it } from 'vitest';
import type { Challenge } from '../../machines/protocol/messages';
import { challengeOutcome, creatorText, customGameLine, viewerColorText } from '../../machines/client/challengeText';

const c: Challenge = { id: 'c', by: { id: 'a', name: 'Ann', guest: true }, timeControl: { initial: 15, increment: 0 }, rated: false, color: 'white', status: 'created', createdAt: 0 };

describe('challenge texts', () => {
  it('writes the game as lichess does, the colour for each side, a guest marked and a rating with its question mark', () => {
    expect(customGameLine(c)).toBe('¼+0 UltraBullet · Casual');
    expect(customGameLine({ timeControl: { initial: 300, increment: 3 }, rated: true })).toBe('5+3 Blitz · Rated');
    expect(viewerColorText('white', true)).toBe('You play white');
    expect(viewerColorText('white', false)).toBe('You play black');
    expect(viewerColorText('random', false)).toBe('Random colour');
    expect(creatorText(c.by)).toBe('Ann (guest)');
    expect(creatorText({ id: 'b', name: 'ben', guest: false, rating: { rating: 1523.4, provisional: true } })).toBe('ben (1523?)');
  });

  it('says what became of a challenge, a decline with its reason', () => {
    expect(challengeOutcome(c)).toBeNull();
    expect(challengeOutcome({ ...c, status: 'declined', declineReason: 'tooFast' })).toBe('Challenge declined. This time control is too fast for them.');
    expect(challengeOutcome({ ...c, status: 'expired' })).toMatch(/expired/);
  });
});
