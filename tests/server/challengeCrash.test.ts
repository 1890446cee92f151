/**
 * kill -9 of the real server process just after players were told of their challenges: every
 * challenge its creator saw created is there after the restart, and can be accepted. (A graceful
 * restart is tests/server/challenges.test.ts's; this is the crash.)
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Challenge } from '../../machines/protocol/messages';
import { TestClient, type Msg } from './helpers';
import { killProcess, startProcess } from './serverProcess';

const OPTIONS = { timeControl: { initial: 300, increment: 3 }, rated: false, color: 'white' } as const;
const CREATORS = 8;

const challengeOf = (m: Msg) => m.challenge as Challenge;

describe('challenges through a crash (kill -9)', () => {
  it('keeps every challenge its creator was told of', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'challenge-crash-'));
    let server = await startProcess({ DATA_DIR: dataDir });
    onTestFinished(() => killProcess(server));
    const creators = await Promise.all(Array.from({ length: CREATORS }, () => TestClient.connect(server.url)));
    const seen = creators.map((c) => c.next('challenge', (m) => challengeOf(m).status === 'created').then(challengeOf));
    for (const [i, c] of creators.entries()) c.send('createChallenge', { options: OPTIONS, username: `Creator${i}` });
    // the moment the last creator sees theirs, the server dies
    const told = await Promise.all(seen);
    await killProcess(server);

    server = await startProcess({ DATA_DIR: dataDir });
    for (const [i, c] of told.entries()) {
      const watcher = await TestClient.connect(server.url);
      watcher.send('watchChallenge', { challengeId: c.id });
      const answer = await Promise.race([watcher.next('challenge'), watcher.next('error')]);
      expect(answer.type, `challenge ${i} after the crash`).toBe('challenge');
      expect(challengeOf(answer)).toMatchObject({ id: c.id, status: 'created', by: { name: `Creator${i}` } });
    }
  }, 60_000);
});
