/** Parser for EPD perft files: `<FEN> ;D1 20 ;D2 400 ...` (blank lines and '#' comments skipped). */

export interface EpdEntry {
  line: number;
  fen: string;
  depths: [number, number][];
  error?: string;
}

export function parseEpd(text: string): EpdEntry[] {
  const out: EpdEntry[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const [fenPart, ...ops] = line.split(';');
    const entry: EpdEntry = { line: i + 1, fen: fenPart.trim(), depths: [] };
    for (const op of ops) {
      const m = /^\s*D(\d+)\s+(\d+)\s*$/.exec(op);
      if (!m) {
        entry.error = `cannot read '${op.trim()}' (expected 'D<depth> <nodes>')`;
        break;
      }
      entry.depths.push([Number(m[1]), Number(m[2])]);
    }
    out.push(entry);
  });
  return out;
}
