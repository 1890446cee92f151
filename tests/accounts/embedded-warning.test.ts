/**
 * An operator who runs a public site (PUBLIC_URL) on the embedded database is warned at each
 * start that a crash of the machine may lose accounts (PGlite never syncs its files to the disk);
 * the same site on PostgreSQL is not.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EMBEDDED_DURABILITY_WARNING } from '../../server/accounts/index';
import { capturedLog } from '../support/capturedLog';
import { BACKENDS, startAccountsServer, type Backend, type TestServer } from './harness';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.destroy();
  server = null;
});

/** The warnings an accounts server started on `backend` (with a public address) logged. */
async function warningsOn(backend: Backend): Promise<string[]> {
  const { logger, lines } = capturedLog();
  server = await startAccountsServer({ backend, logger });
  return lines.filter((l) => l.level === 40).map((l) => l.msg);
}

describe('the embedded database behind a public address', () => {
  it('is named at start as lasting through a crash of the process, not of the machine', async () => {
    expect(await warningsOn('pglite')).toContain(EMBEDDED_DURABILITY_WARNING);
  });

  it.runIf(BACKENDS.includes('postgres'))('is not, on PostgreSQL', async () => {
    expect(await warningsOn('postgres')).not.toContain(EMBEDDED_DURABILITY_WARNING);
  });
});
