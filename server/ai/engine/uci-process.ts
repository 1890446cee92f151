/**
 * One Stockfish child process driven over UCI (stdin/stdout, one command per line).
 *
 * The process serves one search at a time (the pool guarantees that). A search sets the
 * options it needs, sends `ucinewgame` (engines are shared between games, so no hash or
 * history carries over), the position and a bounded `go`, then collects `info` lines until
 * `bestmove`. Exit of the process fails whatever is pending with an EngineError.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { EngineSpec } from './locate';

export type EngineErrorCode = 'start' | 'crash' | 'timeout' | 'closed' | 'unavailable' | 'bad_output' | 'aborted';

/** The error of a search its caller gave up (its AbortSignal fired). */
export function searchAborted(): EngineError {
  return new EngineError('aborted', 'the search was given up');
}

export class EngineError extends Error {
  constructor(
    readonly code: EngineErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

export interface SearchRequest {
  /** start position; omitted = the standard start position */
  fen?: string;
  /** moves from that position, UCI */
  moves: string[];
  /** Stockfish `Skill Level` 0..20 */
  skill: number;
  /** `go depth` */
  depth: number;
  /** `go movetime` in ms */
  movetimeMs: number;
  /** `MultiPV` (lines reported); default 1 */
  multiPv?: number;
}

export interface PvLine {
  multipv: number;
  /** first move of the line */
  move: string;
  depth: number;
  /** centipawns from the side to move; undefined when a mate score is given */
  scoreCp?: number;
  /** mate in N (negative: being mated) */
  mate?: number;
}

export interface SearchResult {
  bestmove: string;
  /** last reported line per multipv index, best first */
  lines: PvLine[];
  /** wall time from `go` to `bestmove` */
  engineMs: number;
}

type LineListener = (line: string) => void;

const UCI_MOVE = /^[a-h][1-8][a-h][1-8][qrbn]?$/;

export function parseInfoLine(line: string): PvLine | null {
  if (!line.startsWith('info ') || !line.includes(' pv ')) return null;
  const tokens = line.split(/\s+/);
  let multipv = 1;
  let depth = 0;
  let scoreCp: number | undefined;
  let mate: number | undefined;
  let move: string | undefined;
  for (let i = 1; i < tokens.length; i++) {
    const t = tokens[i];
    if (t === 'multipv') multipv = Number(tokens[++i]);
    else if (t === 'depth') depth = Number(tokens[++i]);
    else if (t === 'score') {
      const kind = tokens[++i];
      const value = Number(tokens[++i]);
      if (kind === 'cp') scoreCp = value;
      else if (kind === 'mate') mate = value;
    } else if (t === 'pv') {
      move = tokens[i + 1];
      break;
    }
  }
  if (!move || !UCI_MOVE.test(move) || !Number.isFinite(multipv)) return null;
  return { multipv, move, depth, scoreCp, mate };
}

/** How long an engine may take to start and answer `uciok` and `readyok`. */
export const ENGINE_START_TIMEOUT_MS = 15_000;

export class UciProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private listeners = new Set<LineListener>();
  private exitWaiters = new Set<(err: EngineError) => void>();
  private exited = false;
  private exitInfo = '';
  private stderrTail = '';
  readonly exitPromise: Promise<void>;

  private constructor(readonly spec: EngineSpec) {
    this.child = spawn(spec.command, spec.args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const rl = createInterface({ input: this.child.stdout });
    rl.on('line', (line) => {
      for (const l of [...this.listeners]) l(line.trim());
    });
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-500);
    });
    // Writing to a dead engine must not throw asynchronously.
    this.child.stdin.on('error', () => {});
    this.exitPromise = new Promise((resolve) => {
      const onGone = (desc: string) => {
        if (this.exited) return;
        this.exited = true;
        this.exitInfo = desc;
        const err = new EngineError('crash', `engine process exited (${desc})${this.stderrTail ? `: ${this.stderrTail.trim()}` : ''}`);
        for (const w of [...this.exitWaiters]) w(err);
        this.exitWaiters.clear();
        resolve();
      };
      this.child.on('exit', (code, signal) => onGone(signal ? `signal ${signal}` : `code ${code}`));
      this.child.on('error', (e) => onGone(`spawn error: ${e.message}`));
    });
  }

  /** Spawns the engine and waits for `uciok` + `readyok`. */
  static async start(spec: EngineSpec, timeoutMs = ENGINE_START_TIMEOUT_MS): Promise<UciProcess> {
    const p = new UciProcess(spec);
    try {
      p.send('uci');
      await p.waitFor((l) => l === 'uciok', timeoutMs, 'uciok');
      p.send('setoption name Threads value 1');
      p.send('setoption name Hash value 16');
      p.send('isready');
      await p.waitFor((l) => l === 'readyok', timeoutMs, 'readyok');
      return p;
    } catch (e) {
      p.kill();
      const msg = e instanceof Error ? e.message : String(e);
      throw new EngineError('start', `could not start ${spec.label}: ${msg}`);
    }
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return !this.exited;
  }

  get exitDescription(): string {
    return this.exitInfo;
  }

  send(cmd: string): void {
    if (this.exited) return;
    this.child.stdin.write(cmd + '\n');
  }

  /** Resolves with the first line matching `pred`; rejects on exit or timeout. */
  private waitFor(pred: (line: string) => boolean, timeoutMs: number, what: string, onLine?: LineListener): Promise<string> {
    return new Promise((resolve, reject) => {
      if (this.exited) {
        reject(new EngineError('crash', `engine process exited (${this.exitInfo})`));
        return;
      }
      const cleanup = () => {
        clearTimeout(timer);
        this.listeners.delete(listener);
        this.exitWaiters.delete(onExit);
      };
      const listener: LineListener = (line) => {
        onLine?.(line);
        if (pred(line)) {
          cleanup();
          resolve(line);
        }
      };
      const onExit = (err: EngineError) => {
        cleanup();
        reject(err);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new EngineError('timeout', `no ${what} from the engine within ${timeoutMs} ms`));
      }, timeoutMs);
      this.listeners.add(listener);
      this.exitWaiters.add(onExit);
    });
  }

  /**
   * Runs one bounded search. `timeoutMs` is a watchdog on top of the engine's own limits:
   * when it fires the promise rejects with code 'timeout' (the caller kills the process).
   * When `signal` fires the engine is told to `stop`; it answers with its best move so far, and
   * the promise rejects with code 'aborted' once it has, with the engine ready for the next
   * search.
   */
  async search(req: SearchRequest, timeoutMs: number, signal?: AbortSignal): Promise<SearchResult> {
    const deadline = performance.now() + timeoutMs;
    const remaining = () => Math.max(1, deadline - performance.now());
    const multiPv = Math.max(1, Math.min(req.multiPv ?? 1, 256));
    this.send(`setoption name Skill Level value ${Math.max(0, Math.min(20, Math.round(req.skill)))}`);
    this.send(`setoption name MultiPV value ${multiPv}`);
    this.send('ucinewgame');
    this.send('isready');
    await this.waitFor((l) => l === 'readyok', remaining(), 'readyok');
    if (signal?.aborted) throw searchAborted();
    const base = req.fen ? `position fen ${req.fen}` : 'position startpos';
    this.send(req.moves.length ? `${base} moves ${req.moves.join(' ')}` : base);
    const lines = new Map<number, PvLine>();
    const started = performance.now();
    this.send(`go depth ${Math.max(1, Math.round(req.depth))} movetime ${Math.max(1, Math.round(req.movetimeMs))}`);
    const stop = () => this.send('stop');
    signal?.addEventListener('abort', stop, { once: true });
    let last: string;
    try {
      last = await this.waitFor((l) => l.startsWith('bestmove'), remaining(), 'bestmove', (line) => {
        const info = parseInfoLine(line);
        if (info) lines.set(info.multipv, info);
      });
    } finally {
      signal?.removeEventListener('abort', stop);
    }
    if (signal?.aborted) throw searchAborted();
    const engineMs = Math.round(performance.now() - started);
    const bestmove = last.split(/\s+/)[1] ?? '';
    if (!UCI_MOVE.test(bestmove)) {
      throw new EngineError('bad_output', `engine answered "${last}"`);
    }
    return { bestmove, lines: [...lines.values()].sort((a, b) => a.multipv - b.multipv), engineMs };
  }

  /** Hard kill (used for hung engines and shutdown). */
  kill(): void {
    if (!this.exited) this.child.kill('SIGKILL');
  }

  /** Polite shutdown: `quit`, then kill if it lingers. */
  async quit(graceMs = 500): Promise<void> {
    if (this.exited) return;
    this.send('quit');
    const t = setTimeout(() => this.kill(), graceMs);
    await this.exitPromise;
    clearTimeout(t);
  }
}
