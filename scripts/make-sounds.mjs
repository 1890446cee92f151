// Writes the game screen's sounds (client/public/sounds/*.wav): short synthesised tones, made by
// this script and licensed with the project. 8-bit mono PCM at 22.05 kHz keeps each file to a
// few kilobytes. Run: node scripts/make-sounds.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const RATE = 22_050;
const OUT = join(import.meta.dirname, '..', 'client', 'public', 'sounds');

/** A tone of `freq` Hz for `ms`, with a fast attack and an exponential decay; `noise` mixes in a click. */
function tone(freq, ms, { gain = 0.6, decay = 30, noise = 0 } = {}) {
  const n = Math.round((RATE * ms) / 1000);
  const out = new Float32Array(n);
  let seed = 12345;
  for (let i = 0; i < n; i++) {
    const t = i / RATE;
    const env = Math.min(1, i / 40) * Math.exp(-decay * t);
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const click = noise * (seed / 0x7fffffff - 0.5) * Math.exp(-400 * t);
    out[i] = gain * env * Math.sin(2 * Math.PI * freq * t) + click;
  }
  return out;
}

const silence = (ms) => new Float32Array(Math.round((RATE * ms) / 1000));

function concat(...parts) {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

function wav(samples) {
  const data = Buffer.alloc(samples.length);
  for (let i = 0; i < samples.length; i++) data[i] = Math.max(0, Math.min(255, Math.round(128 + 127 * samples[i])));
  const head = Buffer.alloc(44);
  head.write('RIFF', 0); head.writeUInt32LE(36 + data.length, 4); head.write('WAVE', 8);
  head.write('fmt ', 12); head.writeUInt32LE(16, 16); head.writeUInt16LE(1, 20); head.writeUInt16LE(1, 22);
  head.writeUInt32LE(RATE, 24); head.writeUInt32LE(RATE, 28); head.writeUInt16LE(1, 32); head.writeUInt16LE(8, 34);
  head.write('data', 36); head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
}

const SOUNDS = {
  move: tone(700, 70, { decay: 60, noise: 0.5 }),
  capture: concat(tone(450, 60, { decay: 50, noise: 0.8 }), tone(350, 80, { decay: 45, noise: 0.6 })),
  check: concat(tone(880, 90, { decay: 20 }), tone(1175, 130, { decay: 20 })),
  start: concat(tone(523, 90, { decay: 12 }), tone(659, 90, { decay: 12 }), tone(784, 160, { decay: 10 })),
  end: concat(tone(784, 110, { decay: 10 }), tone(659, 110, { decay: 10 }), tone(523, 220, { decay: 8 })),
  lowtime: concat(tone(1000, 70, { decay: 15 }), silence(60), tone(1000, 70, { decay: 15 })),
};

mkdirSync(OUT, { recursive: true });
for (const [name, samples] of Object.entries(SOUNDS)) writeFileSync(join(OUT, `${name}.wav`), wav(samples));
console.log(`wrote ${Object.keys(SOUNDS).length} sounds to ${OUT}`);
