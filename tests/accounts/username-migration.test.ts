/**
 * Migration 0005 on a database that already holds usernames differing only in case: the oldest
 * holder keeps the name, later ones get a suffix, and from then on case-only twins are refused.
 */
import { rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { expect, test } from 'vitest';
import { openDb } from '../../server/accounts/db';
import { migrate, readMigrations } from '../../server/accounts/migrate';
import { freshDataDir } from '../support/pgliteTemplate';

test('existing case-only duplicates are renamed (oldest keeps the name), then the index refuses new ones', async () => {
  const dir = await freshDataDir('username-migration-');
  const db = await openDb({ dataDir: dir });
  try {
    const all = readMigrations();
    await migrate(db, all.filter((m) => m.version < '0005'));
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    for (const [i, id] of ids.entries()) {
      await db.query(`INSERT INTO users (id, email, encrypted_password) VALUES ($1, $2, 'x')`, [id, `u${i}@example.com`]);
    }
    const rows: [string, string, string][] = [
      [ids[0], 'Alpha_Player', '2020-01-01'],
      [ids[1], 'ALPHA_PLAYER', '2021-01-01'],
      [ids[2], 'beta', '2021-01-01'],
    ];
    for (const [id, username, created] of rows) {
      await db.query('INSERT INTO profiles (id, username, created_at) VALUES ($1, $2, $3)', [id, username, created]);
    }
    expect(await migrate(db, all)).toContain('0005');
    const after = await db.query<{ id: string; username: string }>('SELECT id, username FROM profiles ORDER BY created_at, username');
    expect(after[0]).toEqual({ id: ids[0], username: 'Alpha_Player' });
    expect(after.find((r) => r.id === ids[1])?.username).toMatch(/^ALPHA_PLAYE_[0-9a-f]{8}$/);
    expect(after.find((r) => r.id === ids[2])?.username).toBe('beta');
    await expect(db.query('UPDATE profiles SET username = $2 WHERE id = $1', [ids[2], 'alpha_player'])).rejects.toMatchObject({ code: '23505' });
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
