/**
 * Sign-up with the accounts database's disk full, on a real full disk: the embedded database's
 * data directory lives on a small tmpfs that the test fills (mounting needs root, as CI runs).
 * A sign-up the database cannot write is refused with 503 and creates nothing; once the disk
 * has room the same address signs up and its confirmation goes out.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, openSync, closeSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ACCOUNTS_CANNOT_SAVE_TEXT } from '../../server/accounts';
import { freshDataDir } from '../support/pgliteTemplate';
import { lastMailTo, startAccountsServer, uniqueEmail, type TestServer } from './harness';

/** Writes zeros into `path` until the file system is full. */
function fill(path: string): void {
  const fd = openSync(path, 'w');
  const block = Buffer.alloc(1 << 20);
  try {
    for (;;) writeSync(fd, block);
  } catch (err) {
    if ((err as { code?: string }).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
}

describe('sign-up with the disk full', () => {
  let mount: string;
  let s: TestServer;
  beforeAll(async () => {
    mount = mkdtempSync(join(tmpdir(), 'accounts-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=96m', 'tmpfs', mount]);
    const template = await freshDataDir('accounts-full-data-');
    cpSync(template, join(mount, 'data'), { recursive: true });
    rmSync(template, { recursive: true, force: true });
    s = await startAccountsServer({ reuse: { dataDir: join(mount, 'data') } });
  }, 180_000);
  afterAll(async () => {
    await s?.stop();
    if (mount) {
      execFileSync('umount', [mount]);
      rmSync(mount, { recursive: true, force: true });
    }
  });

  async function signUp(email: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${s.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: s.anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: 'secret123' }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  test('refuses with 503 and creates nothing; with room again the same address signs up', async () => {
    const email = uniqueEmail('full');
    fill(join(mount, 'filler'));
    const refused = await signUp(email);
    expect(refused).toMatchObject({ status: 503, body: { error_code: 'service_unavailable', msg: ACCOUNTS_CANNOT_SAVE_TEXT } });

    rmSync(join(mount, 'filler'));
    const accepted = await signUp(email);
    expect(accepted.status).toBe(200);
    // nothing was created by the refused one: this is a new account, whose confirmation goes out
    const mail = await lastMailTo(s, email);
    expect(mail.links.some((l) => l.includes('type=signup'))).toBe(true);
  }, 60_000);
});
