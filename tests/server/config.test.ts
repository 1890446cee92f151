/**
 * The one configuration (server/config/): every setting of the server, the accounts and the AI
 * is read and validated in one pass, a bad start names every bad value at once, and the mode
 * (NODE_ENV) has one source that the accounts follow.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, SERVER_DEFAULTS, loadConfig } from '../../server/config';
import { DEFAULT_CLOCK_MS, DEFAULT_CLOCK_REPORT_MS, DEFAULT_FIRST_MOVE_DEADLINE_MS, DEFAULT_GRACE_MS } from '../../machines/game/defaults';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message.split('\n').slice(1);
  }
  return [];
}

describe('one configuration', () => {
  it('reports a bad value of the server, the accounts and the AI together, one line each', () => {
    const lines = problemsOf({ PORT: 'abc', SMTP_PORT: 'x', AI_POOL_SIZE: '0', SITE_URL: 'ftp://x', AI_ENABLED: 'perhaps', AI_REPLY_DELAY_MS: '900-100' });
    expect(lines).toHaveLength(6);
    for (const name of ['PORT', 'SMTP_PORT', 'AI_POOL_SIZE', 'SITE_URL', 'AI_ENABLED', 'AI_REPLY_DELAY_MS']) {
      expect(lines.filter((l) => l.includes(name)), name).not.toHaveLength(0);
    }
  });

  it('without NODE_ENV the whole server, accounts included, runs as production', () => {
    const cfg = loadConfig({});
    expect(cfg.nodeEnv).toBe('production');
    expect(cfg.accounts.nodeEnv).toBe('production');
    expect(loadConfig({ NODE_ENV: 'development' }).accounts.nodeEnv).toBe('development');
  });

  it('takes the game defaults from the game rules and hands every part its settings', () => {
    const cfg = loadConfig({ DATABASE_URL: 'postgres://db/chess', PUBLIC_URL: 'https://chess.example.org/', AI_MAX_GAMES: '7', DB_QUERY_TIMEOUT_MS: '1500' });
    expect(cfg.clockMs).toBe(DEFAULT_CLOCK_MS);
    expect(cfg.clockReportMs).toBe(DEFAULT_CLOCK_REPORT_MS);
    expect(cfg.firstMoveMs).toBe(DEFAULT_FIRST_MOVE_DEADLINE_MS);
    expect(cfg.graceMs).toEqual(DEFAULT_GRACE_MS);
    expect(cfg.accounts).toMatchObject({ databaseUrl: 'postgres://db/chess', publicUrl: 'https://chess.example.org', dbTimeouts: { queryMs: 1500 } });
    expect(cfg.ai.maxGames).toBe(7);
  });

  it('refuses TRUST_PROXY=true: forwarded addresses are believed only from listed proxies', () => {
    expect(problemsOf({ TRUST_PROXY: 'true' }).join('\n')).toMatch(/TRUST_PROXY.*list the addresses/);
    expect(problemsOf({ TRUST_PROXY: '10.0.0.0/40,nonsense' })).toHaveLength(2);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' }).accounts.trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8']);
  });

  it('reads the spectator limits, with their defaults from SERVER_DEFAULTS, and names a bad one', () => {
    expect(loadConfig({}).watch).toEqual(SERVER_DEFAULTS.watch);
    expect(loadConfig({ WATCH_GAMES_PER_SOCKET: '1', WATCHERS_PER_GAME: '50', WATCHERS_MAX: '0' }).watch).toEqual({ gamesPerSocket: 1, watchersPerGame: 50, watchersTotal: 0 });
    const lines = problemsOf({ WATCH_GAMES_PER_SOCKET: '-1', WATCHERS_PER_GAME: 'many', WATCHERS_MAX: '1.5' });
    expect(lines).toHaveLength(3);
    for (const name of ['WATCH_GAMES_PER_SOCKET', 'WATCHERS_PER_GAME', 'WATCHERS_MAX']) expect(lines.filter((l) => l.includes(name)), name).toHaveLength(1);
  });

  it('lets guests chat unless GUEST_CHAT is off, and names a bad value', () => {
    expect(loadConfig({}).chat).toEqual({ guests: true });
    expect(loadConfig({ GUEST_CHAT: 'off' }).chat).toEqual({ guests: false });
    expect(problemsOf({ GUEST_CHAT: 'sometimes' }).join('\n')).toMatch(/GUEST_CHAT must be true or false/);
  });

  it('reads the clock report interval in seconds, 0 for none, and names a bad one', () => {
    expect(loadConfig({ CLOCK_REPORT_SECONDS: '1' }).clockReportMs).toBe(1000);
    expect(loadConfig({ CLOCK_REPORT_SECONDS: '0' }).clockReportMs).toBe(0);
    expect(problemsOf({ CLOCK_REPORT_SECONDS: '-1' })).toEqual([expect.stringMatching(/CLOCK_REPORT_SECONDS must be a whole number from 0 to 3600/)]);
  });

  it('reads the log format: chosen at start when unset, json or pretty when set, and names a bad one', () => {
    expect(loadConfig({}).logFormat).toBe('auto');
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(problemsOf({ LOG_FORMAT: 'text' })).toEqual([expect.stringMatching(/LOG_FORMAT must be one of auto, json, pretty \(got "text"\)/)]);
  });

  it("reads the game journal's level and sync interval, interval every 100 ms by default, and names a bad one", () => {
    expect(loadConfig({})).toMatchObject({ journalSync: 'interval', journalSyncIntervalMs: 100 });
    expect(loadConfig({ GAME_JOURNAL_SYNC: 'always', GAME_JOURNAL_SYNC_INTERVAL_MS: '1000' })).toMatchObject({ journalSync: 'always', journalSyncIntervalMs: 1000 });
    expect(problemsOf({ GAME_JOURNAL_SYNC: 'everysec', GAME_JOURNAL_SYNC_INTERVAL_MS: '0' })).toEqual([
      expect.stringMatching(/GAME_JOURNAL_SYNC must be one of interval, always \(got "everysec"\)/),
      expect.stringMatching(/GAME_JOURNAL_SYNC_INTERVAL_MS must be a whole number from 1 to 10000/),
    ]);
  });
});
