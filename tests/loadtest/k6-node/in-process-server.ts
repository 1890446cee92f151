/**
 * The server the scenario tests run k6 scripts against when they check behaviour, not speed:
 * in this test process, on a free local port, without the client's files, and taking every
 * simulated player from this one machine (ONE_MACHINE_ADMISSION).
 */
import { join } from 'node:path';
import { startServer, type RunningServer, type StartServerOptions } from '../../../server/app';
import { ROOT } from '../../support/root';
import { ONE_MACHINE_ADMISSION } from './server-process';

/** Starts it, with `opts` on top (a rate limit, a clock, an AI service). */
export function startScenarioServer(opts: StartServerOptions = {}): Promise<RunningServer> {
  return startServer({
    port: 0,
    host: '127.0.0.1',
    staticDir: join(ROOT, 'node_modules/.cache/no-client'),
    admission: ONE_MACHINE_ADMISSION,
    ...opts,
  });
}
