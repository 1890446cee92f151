/**
 * The bullet scenario's audit of the server's clock (loadtest/k6/lib/clock-watch.ts): a charge
 * the network and the lag credit explain passes; time given away or taken, and a flag before the
 * clock ran out, are faults.
 */
import { describe, expect, it } from 'vitest';
import { ClockWatch } from '../../loadtest/k6/lib/clock-watch';
import { DEFAULT_LAG, MAX_FLAG_GRACE_MS } from '../../machines/game/defaults';

const TOLERANCE = 50;
/** White's second move (the first timed one): its turn began at 1 000 with 60 s on the clock. */
function whiteThought(thinkMs: number, relayMs: number, clockAfter: number, incrementMs = 0) {
  const watch = new ClockWatch('white', incrementMs, TOLERANCE);
  watch.turnBegan({ white: 60_000, black: 60_000 }, 1_000);
  watch.moveSent(1_000 + thinkMs, 2);
  return watch.moveCharged({ white: clockAfter, black: 60_000 }, 1_000 + thinkMs + relayMs);
}

describe('the clock audit of a player', () => {
  it('passes a charge of the think time plus the network, or less by the lag credit', () => {
    expect(whiteThought(800, 20, 60_000 - 820)).toMatchObject({ thinkMs: 800, chargedMs: 820, fault: null });
    expect(whiteThought(800, 20, 60_000 - 800 + DEFAULT_LAG.perMoveCapMs)?.fault).toBeNull();
  });

  it('counts the increment back before comparing', () => {
    expect(whiteThought(800, 20, 60_000 - 800 + 2_000, 2_000)).toMatchObject({ chargedMs: 800, fault: null });
  });

  it('calls more credit than the per-move cap time given away', () => {
    expect(whiteThought(3_000, 20, 60_000 - 3_000 + DEFAULT_LAG.perMoveCapMs + TOLERANCE + 1)?.fault).toBe('overcredited');
  });

  it('calls a charge beyond the think time and two network legs time taken', () => {
    expect(whiteThought(800, 20, 60_000 - 800 - 40 - TOLERANCE - 1)?.fault).toBe('overcharged');
  });

  it('does not audit the untimed first move of each side', () => {
    const watch = new ClockWatch('black', 0, TOLERANCE);
    watch.turnBegan({ white: 60_000, black: 60_000 }, 0);
    watch.moveSent(5_000, 1);
    expect(watch.moveCharged({ white: 60_000, black: 60_000 }, 5_010)).toBeNull();
  });

  it('calls a flag early while our watch still shows time, and gives a flag its grace before calling it late', () => {
    const watch = new ClockWatch('black', 0, TOLERANCE);
    watch.turnBegan({ white: 50_000, black: 10_000 }, 100_000);
    expect(watch.flagFell(100_000 + 9_000)).toBe('early_flag');
    expect(watch.flagFell(100_000 + 10_000 - TOLERANCE)).toBeNull();
    expect(watch.flagDueIn(100_000 + 4_000)).toBe(6_000 + MAX_FLAG_GRACE_MS + TOLERANCE);
  });
});
