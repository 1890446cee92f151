/**
 * The one seeded random source (mulberry32), so that benchmark runs, fuzz tests and scripted
 * test games replay the same way for the same seed. Returns numbers in [0, 1), like Math.random.
 * No Node APIs: server code (the AI benchmark) and tests import it alike.
 */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
