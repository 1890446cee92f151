/**
 * The game screen's sounds (files made by scripts/make-sounds.mjs, licensed with the project).
 * Silent while the player has muted them; a browser that refuses to play before the first user
 * gesture is not an error.
 */
import { getPreferences } from './preferences';

export type SoundName = 'move' | 'capture' | 'check' | 'start' | 'end' | 'lowtime';

const cache = new Map<SoundName, HTMLAudioElement>();

export function playSound(name: SoundName): void {
  if (getPreferences().muted || typeof Audio === 'undefined') return;
  let audio = cache.get(name);
  if (!audio) {
    audio = new Audio(`/sounds/${name}.wav`);
    audio.preload = 'auto';
    cache.set(name, audio);
  }
  const sound = audio;
  // after the next frame: starting audio must not delay drawing the move that caused it
  requestAnimationFrame(() => setTimeout(() => {
    sound.currentTime = 0;
    sound.play().catch(() => { /* autoplay refused until the player interacts: nothing to do */ });
  }, 0));
}

/** The sound for a move given in SAN: check (and mate) over capture over a plain move. */
export function soundForSan(san: string): SoundName {
  if (san.includes('+') || san.includes('#')) return 'check';
  return san.includes('x') ? 'capture' : 'move';
}
