/**
 * Stockfish in a Web Worker: the npm package's lite single-threaded WASM build (no
 * SharedArrayBuffer, so no cross-origin isolation headers), served by Vite as two static assets.
 * The build reads its .wasm address from the worker URL's hash. Searches run one at a time; an
 * aborted search is skipped if still queued, or stopped (UCI `stop`) if running, and resolves
 * with the last line it had.
 */
import engineScript from 'stockfish/bin/stockfish-19-lite-single.js?url';
import engineWasm from 'stockfish/bin/stockfish-19-lite-single.wasm?url';
import { parseInfo, type EngineInfo } from '../../../../../machines/client/analysis';

export class BrowserEngine {
  private readonly worker: Worker;
  private readonly listeners = new Set<(line: string) => void>();
  private queue: Promise<unknown>;

  constructor() {
    const wasm = new URL(engineWasm, location.href).href;
    this.worker = new Worker(`${engineScript}#${encodeURIComponent(wasm)}`);
    this.worker.onmessage = (e: MessageEvent) => {
      if (typeof e.data !== 'string') return;
      for (const listener of this.listeners) listener(e.data);
    };
    this.queue = this.exchange(['uci'], 'uciok').then(() => this.exchange(['isready'], 'readyok'));
  }

  /** Searches `fen` to `depth`; every exact line goes to `onInfo`; resolves with the last one. */
  search(fen: string, depth: number, onInfo: (info: EngineInfo) => void = () => undefined, signal?: AbortSignal): Promise<EngineInfo | null> {
    const run = async (): Promise<EngineInfo | null> => {
      if (signal?.aborted) return null;
      let last: EngineInfo | null = null;
      const stop = () => this.worker.postMessage('stop');
      signal?.addEventListener('abort', stop);
      await this.exchange([`position fen ${fen}`, `go depth ${depth}`], 'bestmove', (line) => {
        const info = parseInfo(line);
        if (info && !signal?.aborted) {
          last = info;
          onInfo(info);
        }
      });
      signal?.removeEventListener('abort', stop);
      return last;
    };
    const result = this.queue.then(run);
    this.queue = result.catch(() => null);
    return result;
  }

  terminate(): void {
    this.worker.terminate();
    this.listeners.clear();
  }

  /** Sends commands and waits for the line that starts with `until`. */
  private exchange(commands: string[], until: string, onLine?: (line: string) => void): Promise<void> {
    return new Promise((resolve) => {
      const listener = (line: string) => {
        if (line.startsWith(until)) {
          this.listeners.delete(listener);
          resolve();
        } else onLine?.(line);
      };
      this.listeners.add(listener);
      for (const c of commands) this.worker.postMessage(c);
    });
  }
}
