/**
 * What one player can check of the server's clock from its own side of the wire, with its own
 * watch: that the server charged each of its moves what it really thought, give or take the
 * network and the lag credit, and that a flag fell when its clock ran out, neither before nor
 * long after. The server decides every clock (docs/protocol.md); this only audits it.
 *
 * A move's charge is the drop of the mover's clock between the reading that began its turn (the
 * opponent's `gameMove`) and the reading of its own move's broadcast, plus the increment. The
 * server measured from sending the opponent's move to receiving ours, so
 *
 *   charge = think + (leg to us) + (leg back) - lag credit,
 *
 * with the credit at most the per-move cap (DEFAULT_LAG.perMoveCapMs). Hence:
 *   - think - charge can never exceed the cap: more would be time the server gave away;
 *   - charge - think can never exceed the two legs, which the move's relay time stands for
 *     (sent -> broadcast received is two legs as well): more would be time the server took.
 */
import { DEFAULT_LAG, MAX_FLAG_GRACE_MS, UNTIMED_PLIES } from '../../../machines/game/defaults.ts';
import type { ClocksMs, Color } from '../../../machines/protocol/messages.ts';

export type ClockFault = 'overcredited' | 'overcharged' | 'early_flag' | 'late_flag';

/** One timed move of ours as the server charged it. */
export interface ChargedMove {
  thinkMs: number;
  chargedMs: number;
  relayMs: number;
  /** the fault, if the charge is outside what the network and the lag credit explain */
  fault: ClockFault | null;
}

export class ClockWatch {
  /** our clock and our watch's time when our current turn began; null while it is not our turn */
  private turn: { clockMs: number; at: number } | null = null;
  private sent: { at: number; ply: number } | null = null;

  constructor(
    private readonly color: Color,
    private readonly incrementMs: number,
    /** slack for the two network legs and the generator's own timer lag */
    private readonly toleranceMs: number,
  ) {}

  /** Our turn began: the opponent's move arrived at `at` with these clocks. */
  turnBegan(clocks: ClocksMs | undefined, at: number): void {
    this.turn = clocks ? { clockMs: clocks[this.color], at } : null;
  }

  /** We sent a move at `at`, the game's `ply`th (0-based). */
  moveSent(at: number, ply: number): void {
    this.sent = { at, ply };
  }

  /** Our own move's broadcast arrived at `at`: what the server charged for it, or null when untimed or unknown. */
  moveCharged(clocks: ClocksMs | undefined, at: number): ChargedMove | null {
    const turn = this.turn;
    const sent = this.sent;
    this.turn = null;
    this.sent = null;
    if (!turn || !sent || !clocks || sent.ply < UNTIMED_PLIES) return null;
    const thinkMs = sent.at - turn.at;
    const chargedMs = turn.clockMs - clocks[this.color] + this.incrementMs;
    const relayMs = at - sent.at;
    let fault: ClockFault | null = null;
    if (thinkMs - chargedMs > DEFAULT_LAG.perMoveCapMs + this.toleranceMs) fault = 'overcredited';
    else if (chargedMs - thinkMs > 2 * relayMs + this.toleranceMs) fault = 'overcharged';
    return { thinkMs, chargedMs, relayMs, fault };
  }

  /** Our clock by our watch at `at`, or null when it is not our turn (or unknown). */
  remainingAt(at: number): number | null {
    return this.turn ? this.turn.clockMs - (at - this.turn.at) : null;
  }

  /**
   * We lost on time (gameEnd at `at`): 'early_flag' when our watch still showed more on our
   * clock than the network could explain.
   */
  flagFell(at: number): ClockFault | null {
    const left = this.remainingAt(at);
    return left !== null && left > this.toleranceMs ? 'early_flag' : null;
  }

  /**
   * How long after `at` a flag must have fallen if we do not move: our clock, the flag grace the
   * server may wait (MAX_FLAG_GRACE_MS), and the network. Null when it is not our turn.
   */
  flagDueIn(at: number): number | null {
    const left = this.remainingAt(at);
    return left === null ? null : Math.max(0, left) + MAX_FLAG_GRACE_MS + this.toleranceMs;
  }
}
