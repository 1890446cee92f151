/** PGN export: the seven standard tags (plus any extra), SetUp/FEN for a non-standard start, movetext, result. */

const SEVEN = ['Event', 'Site', 'Date', 'Round', 'White', 'Black', 'Result'] as const;
const DEFAULTS: Record<string, string> = { Event: '?', Site: '?', Date: '????.??.??', Round: '?', White: '?', Black: '?' };

function escapeTag(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/[\r\n]+/g, ' ');
}

export function buildPgn(opts: {
  sans: string[];
  startFen: string;
  standardStart: boolean;
  firstMoveNumber: number;
  blackFirst: boolean;
  result: string;
  tags?: Record<string, string>;
}): string {
  const tags = opts.tags ?? {};
  const result = tags.Result ?? opts.result;
  const lines: string[] = [];
  for (const k of SEVEN) {
    const v = k === 'Result' ? result : tags[k] ?? DEFAULTS[k];
    lines.push(`[${k} "${escapeTag(v)}"]`);
  }
  if (!opts.standardStart) {
    lines.push('[SetUp "1"]');
    lines.push(`[FEN "${escapeTag(opts.startFen)}"]`);
  }
  for (const [k, v] of Object.entries(tags)) {
    if ((SEVEN as readonly string[]).includes(k) || (!opts.standardStart && (k === 'SetUp' || k === 'FEN'))) continue;
    if (!/^[A-Za-z0-9_]+$/.test(k)) continue;
    lines.push(`[${k} "${escapeTag(String(v))}"]`);
  }
  const tokens: string[] = [];
  let num = opts.firstMoveNumber;
  let black = opts.blackFirst;
  opts.sans.forEach((san, i) => {
    if (!black) tokens.push(`${num}.`);
    else if (i === 0) tokens.push(`${num}...`);
    tokens.push(san);
    if (black) num++;
    black = !black;
  });
  tokens.push(result);
  const body: string[] = [];
  let line = '';
  for (const t of tokens) {
    if (line.length > 0 && line.length + 1 + t.length > 79) {
      body.push(line);
      line = t;
    } else {
      line = line ? `${line} ${t}` : t;
    }
  }
  if (line) body.push(line);
  return `${lines.join('\n')}\n\n${body.join('\n')}\n`;
}
