/** The player count broadcast, with the wall clock stepped under it. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Hub, type SocketData, type WS } from '../../server/realtime/hub';
import type { TemplatedApp } from '../../server/uws';
import type { LagPings } from '../../server/realtime/lagPings';

function hubPublishingTo(counts: number[]): Hub {
  const app = { publish: (_topic: string, text: string) => counts.push(JSON.parse(text).count as number) };
  return new Hub(app as unknown as TemplatedApp, 50, {} as LagPings);
}

function socket(): WS {
  const data = { session: null } as unknown as SocketData;
  return { getUserData: () => data } as unknown as WS;
}

// timers and Date are faked; performance.now is not, as a monotonic clock would not step
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('playerCount broadcasts', () => {
  it('keep coming when the wall clock steps back (NTP, a resumed VM)', () => {
    const counts: number[] = [];
    const hub = hubPublishingTo(counts);
    hub.attach(socket(), 'player_a', 'guest');
    vi.advanceTimersByTime(60);
    expect(counts).toEqual([1]);

    vi.setSystemTime(Date.now() - 3_600_000);
    hub.attach(socket(), 'player_b', 'guest');
    vi.advanceTimersByTime(60);
    expect(counts).toEqual([1, 2]);
    hub.stop();
  });

  it('coalesce a burst into one broadcast of the final count', () => {
    const counts: number[] = [];
    const hub = hubPublishingTo(counts);
    const sockets = [socket(), socket(), socket()];
    sockets.forEach((ws, i) => hub.attach(ws, `player_${i}`, 'guest'));
    hub.detach(sockets[0]);
    vi.advanceTimersByTime(60);
    expect(counts).toEqual([2]);
    hub.stop();
  });
});
