/**
 * Time controls: what a game's clocks start from, how a time control is written ("5+3",
 * "½+0"), which speed it is (its ratings are kept per speed), and the pools players pick from.
 * Every rule here is lichess's (scalachess Clock.Config and Speed), read from its source.
 */
import type { TimeControl } from '../protocol/messages';
import { DEFAULT_CLOCK_MS } from './defaults';
import { SPEEDS, TIME_CONTROL_LIMITS } from '../protocol/constants';

export type { TimeControl };

/** The time control of a game given none: today's 10-minute game, 10+0. */
export const DEFAULT_TIME_CONTROL: TimeControl = { initial: DEFAULT_CLOCK_MS / 1000, increment: 0 };

/**
 * The pools of the multiplayer screen: lichess's eleven quick pairings, with 10+0, the site's
 * default (and the spec's 10-minute game), first.
 */
export const POOLS: readonly TimeControl[] = [
  { initial: 600, increment: 0 },
  { initial: 60, increment: 0 },
  { initial: 120, increment: 1 },
  { initial: 180, increment: 0 },
  { initial: 180, increment: 2 },
  { initial: 300, increment: 0 },
  { initial: 300, increment: 3 },
  { initial: 600, increment: 5 },
  { initial: 900, increment: 10 },
  { initial: 1800, increment: 0 },
  { initial: 1800, increment: 20 },
];

export { SPEEDS };
export type Speed = (typeof SPEEDS)[number];

/** The names players know the speeds by. */
export const SPEED_NAMES: Record<Speed, string> = {
  ultraBullet: 'UltraBullet',
  bullet: 'Bullet',
  blitz: 'Blitz',
  rapid: 'Rapid',
  classical: 'Classical',
};

/** A game's expected length in seconds, as lichess estimates it: initial + 40 x increment. */
export function estimatedSeconds(tc: TimeControl): number {
  return tc.initial + 40 * tc.increment;
}

/** The speed of a time control by its estimated length (lichess Speed: under 30 s, 180 s, 480 s, 1,500 s). */
export function speedOf(tc: TimeControl): Speed {
  const seconds = estimatedSeconds(tc);
  if (seconds < 30) return 'ultraBullet';
  if (seconds < 180) return 'bullet';
  if (seconds < 480) return 'blitz';
  if (seconds < 1500) return 'rapid';
  return 'classical';
}

/** The initial time as lichess writes it: whole minutes, ¼ ½ ¾ of one, 1.5, else minutes to two places. */
/** The fractions of a minute lichess writes as glyphs, by their seconds. */
const MINUTE_GLYPHS: Record<number, string> = { 15: '¼', 30: '½', 45: '¾' };

function minutesText(initialSeconds: number): string {
  if (initialSeconds % 60 === 0) return String(initialSeconds / 60);
  return MINUTE_GLYPHS[initialSeconds] ?? String(Math.round((initialSeconds / 60) * 100) / 100);
}

/** "5+3", "½+0": minutes and increment seconds, as lichess shows a time control. */
export function timeControlText(tc: TimeControl): string {
  return `${minutesText(tc.initial)}+${tc.increment}`;
}

/** A time control as players name it: "3+2 Blitz". */
export function timeControlName(tc: TimeControl): string {
  return `${timeControlText(tc)} ${SPEED_NAMES[speedOf(tc)]}`;
}

/** A stable key of a time control (pools and lobby lists are keyed by it): "300+3". */
export function timeControlKey(tc: TimeControl): string {
  return `${tc.initial}+${tc.increment}`;
}

/** Whether two time controls are the same. */
export function sameTimeControl(a: TimeControl, b: TimeControl): boolean {
  return a.initial === b.initial && a.increment === b.increment;
}

/** The game input's clock fields for a time control. */
export function clockOf(tc: TimeControl): { clockMs: number; incrementMs: number } {
  return { clockMs: tc.initial * 1000, incrementMs: tc.increment * 1000 };
}

/** The time control a game was created with (its input's or settings' clock and increment, in seconds). */
export function timeControlOf(clock: { clockMs?: number; incrementMs?: number }): TimeControl {
  return { initial: (clock.clockMs ?? DEFAULT_CLOCK_MS) / 1000, increment: (clock.incrementMs ?? 0) / 1000 };
}

/** A game's time control, or null when it has no clock (GameInput.untimed: its clock is a limit per move). */
export function gameTimeControl(input: { clockMs?: number; incrementMs?: number; untimed?: boolean }): TimeControl | null {
  return input.untimed ? null : timeControlOf(input);
}

/** Whether a player may ask for this time control: lichess's custom-game range, whole seconds (the protocol's TIME_CONTROL_LIMITS). */
export function isRequestable(tc: TimeControl): boolean {
  const { initial, increment } = TIME_CONTROL_LIMITS;
  const within = (v: number, r: { min: number; max: number }) => Number.isInteger(v) && v >= r.min && v <= r.max;
  return within(tc.initial, initial) && within(tc.increment, increment);
}

/** Reads a time control as players write it ("5+3", "½+0", "0.5+0", "1.5+1"), or null when it is not one. */
export function parseTimeControl(text: string): TimeControl | null {
  const m = /^\s*(¼|½|¾|\d+(?:\.\d+)?)\s*\+\s*(\d+)\s*$/.exec(text);
  if (!m) return null;
  const glyph = Object.entries(MINUTE_GLYPHS).find(([, g]) => g === m[1]);
  const initial = glyph ? Number(glyph[0]) : Math.round(Number(m[1]) * 60);
  return { initial, increment: Number(m[2]) };
}

/** The initial times (seconds) a custom game offers, as lichess's setup: ¼ ½ ¾ 1 1½, 2 to 20, then by 5 to 45, then by 15 to 180 minutes. */
export const CUSTOM_INITIAL_SECONDS: readonly number[] = [
  15, 30, 45, 60, 90,
  ...Array.from({ length: 19 }, (_, i) => (i + 2) * 60),
  ...[25, 30, 35, 40, 45].map((m) => m * 60),
  ...Array.from({ length: 9 }, (_, i) => (60 + i * 15) * 60),
];

/** The increments (seconds) a custom game offers, as lichess's setup: 0 to 20, then by 5 to 45, then 60 to 180 by 30. */
export const CUSTOM_INCREMENT_SECONDS: readonly number[] = [
  ...Array.from({ length: 21 }, (_, i) => i),
  25, 30, 35, 40, 45, 60, 90, 120, 150, 180,
];
