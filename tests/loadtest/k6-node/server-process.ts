/**
 * The server that load runs drive: the production entry in its own process (tests/server/
 * serverProcess.ts), so a run measures a server with its own event loop, as in production,
 * taking every simulated player from this one machine.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AdmissionLimits } from '../../../server/config/server';
import { startProcess, type Proc } from '../../server/serverProcess';

/**
 * Every simulated player connects from this one machine: a server under load test from it
 * takes any number of sockets from one address (the defaults suit a household behind one NAT).
 */
export const ONE_MACHINE_ADMISSION: AdmissionLimits = { maxSockets: 0, socketsPerAddress: 0, connectRate: null };

/**
 * Starts the server for a load run (AI on, journal in a fresh data directory,
 * ONE_MACHINE_ADMISSION), with `env` on top.
 */
export function startLoadServer(env: Record<string, string>): Promise<Proc> {
  return startProcess({
    DATA_DIR: mkdtempSync(join(tmpdir(), 'k6-node-data-')),
    AI_ENABLED: undefined,
    // ONE_MACHINE_ADMISSION, and AI games to match
    MAX_SOCKETS_PER_ADDRESS: String(ONE_MACHINE_ADMISSION.socketsPerAddress),
    CONNECTS_PER_ADDRESS_PER_SECOND: '0',
    AI_GAMES_PER_ADDRESS: '1000',
    ...env,
  });
}
