/**
 * The server's one configuration: every setting of the realtime server, the games, the accounts
 * and the AI, read from environment variables and validated together, so that a bad start names
 * every bad value at once (one line per problem). Every variable is optional; the defaults run
 * the site on http://localhost:3000. The settings' shapes and defaults live beside this file
 * (server.ts, accounts.ts, ai.ts; the game rules' own defaults in machines/game/defaults.ts); it
 * is read once, by main.ts, and each part is handed its section.
 */
import { z } from 'zod';
import { DEFAULT_CLOCK_MS, DEFAULT_CLOCK_REPORT_MS, DEFAULT_FIRST_MOVE_DEADLINE_MS, DEFAULT_GRACE_MS } from '../../machines/game/defaults';
import {
  ACCOUNTS_DEFAULTS,
  ConfigError,
  defaultDevInbox,
  stripSlash,
  type AccountsConfig,
  type DevInbox,
} from './accounts';
import {
  DEFAULT_MAX_GAMES,
  DEFAULT_MAX_GAMES_PER_ADDRESS,
  DEFAULT_REPLY_DELAY_MS,
  defaultPoolSize,
  type AiEnvConfig,
} from './ai';
import {
  COMMIT_WINDOW_MS,
  JOURNAL_SYNC,
  JOURNAL_SYNC_MODES,
  SYNC_INTERVAL_MS,
  type JournalSync,
  DEFAULT_ADMISSION_LIMITS,
  DEFAULT_IDENTIFICATION_LIMITS,
  SERVER_DEFAULTS,
  type AdmissionLimits,
  type IdentificationLimits,
  type InspectTarget,
  type WatchLimits,
  type ChatSettings,
} from './server';
import { proxyEntryProblem } from '../http/clientAddress';

export { ConfigError, SERVER_DEFAULTS };

export const MODES = ['development', 'production', 'test'] as const;
/** What NODE_ENV selects; unset means production (the safe choice for a public server). */
export type Mode = (typeof MODES)[number];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** How log lines look: JSON lines (a collector's), or readable lines (a terminal's). */
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
/** LOG_FORMAT's values: a format, or 'auto' to choose one at start (server/logger.ts). */
const LOG_FORMAT_SETTINGS = ['auto', ...LOG_FORMATS] as const;

/** An optional string with surrounding blanks removed; blank counts as unset. */
const text = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const optionalIntIn = (name: string, min: number, max: number) =>
  text.transform((v, ctx) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) {
      ctx.addIssue({ code: 'custom', message: `${name} must be a whole number from ${min} to ${max} (got "${v}")` });
      return z.NEVER;
    }
    return n;
  });

const intIn = (name: string, min: number, max: number, def: number) => optionalIntIn(name, min, max).transform((n) => n ?? def);

const oneOf = <T extends string>(name: string, values: readonly T[], def: T) =>
  text.transform((v, ctx): T => {
    if (v === undefined) return def;
    const found = values.find((x) => x === v);
    if (found === undefined) {
      ctx.addIssue({ code: 'custom', message: `${name} must be one of ${values.join(', ')} (got "${v}")` });
      return z.NEVER;
    }
    return found;
  });

const boolOf = (name: string) =>
  text.transform((v, ctx) => {
    if (v === undefined) return undefined;
    if (/^(1|true|yes|on)$/i.test(v)) return true;
    if (/^(0|false|no|off)$/i.test(v)) return false;
    ctx.addIssue({ code: 'custom', message: `${name} must be true or false (got "${v}")` });
    return z.NEVER;
  });

const httpUrlOf = (name: string) =>
  text.transform((v, ctx) => {
    if (v === undefined) return undefined;
    if (!isHttpUrl(v)) {
      ctx.addIssue({ code: 'custom', message: `${name} must be an http(s) URL (got "${v}")` });
      return z.NEVER;
    }
    return stripSlash(v);
  });

const matching = (name: string, re: RegExp, what: string) =>
  text.transform((v, ctx) => {
    if (v === undefined || re.test(v)) return v;
    ctx.addIssue({ code: 'custom', message: `${name} ${what}` });
    return z.NEVER;
  });

const listOf = (name: string, problem: (entry: string) => string | null) =>
  text.transform((v, ctx) => {
    const entries = (v ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    for (const e of entries) {
      const p = problem(e);
      if (p) ctx.addIssue({ code: 'custom', message: `${name}: ${p}` });
    }
    return entries;
  });

function isHttpUrl(v: string): boolean {
  try {
    return /^https?:$/.test(new URL(v).protocol);
  } catch {
    return false;
  }
}

const envSchema = z.object({
  // the realtime server and the games
  PORT: intIn('PORT', 0, 65535, SERVER_DEFAULTS.port),
  HOST: text,
  NODE_ENV: text.transform((v, ctx) => {
    if (v === undefined) return 'production' as Mode;
    if (!(MODES as readonly string[]).includes(v)) {
      ctx.addIssue({ code: 'custom', message: `NODE_ENV must be one of ${MODES.join(', ')} (got "${v}")` });
      return z.NEVER;
    }
    return v as Mode;
  }),
  LOG_LEVEL: text.transform((v, ctx) => {
    const lvl = v ?? 'info';
    if (!(LOG_LEVELS as readonly string[]).includes(lvl)) {
      ctx.addIssue({ code: 'custom', message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${v}")` });
      return z.NEVER;
    }
    return lvl as (typeof LOG_LEVELS)[number];
  }),
  // unset: readable lines on a terminal (or with NODE_ENV=development), JSON lines otherwise
  LOG_FORMAT: oneOf('LOG_FORMAT', LOG_FORMAT_SETTINGS, 'auto'),
  CLOCK_SECONDS: intIn('CLOCK_SECONDS', 1, 24 * 3600, DEFAULT_CLOCK_MS / 1000),
  // 0: no clock reports at all (clients count down from the clocks every move carries)
  CLOCK_REPORT_SECONDS: intIn('CLOCK_REPORT_SECONDS', 0, 3600, DEFAULT_CLOCK_REPORT_MS / 1000),
  FIRST_MOVE_SECONDS: intIn('FIRST_MOVE_SECONDS', 1, 3600, DEFAULT_FIRST_MOVE_DEADLINE_MS / 1000),
  GRACE_GUEST_SECONDS: intIn('GRACE_GUEST_SECONDS', 1, 3600, DEFAULT_GRACE_MS.guest / 1000),
  GRACE_ACCOUNT_SECONDS: intIn('GRACE_ACCOUNT_SECONDS', 1, 3600, DEFAULT_GRACE_MS.account / 1000),
  RATE_LIMIT_MESSAGES: intIn('RATE_LIMIT_MESSAGES', 1, 1_000_000, SERVER_DEFAULTS.rateLimit.messages),
  RATE_LIMIT_WINDOW_SECONDS: intIn('RATE_LIMIT_WINDOW_SECONDS', 1, 3600, SERVER_DEFAULTS.rateLimit.windowMs / 1000),
  MAX_PAYLOAD_BYTES: intIn('MAX_PAYLOAD_BYTES', 256, 1024 * 1024, SERVER_DEFAULTS.maxPayloadBytes),
  IDLE_TIMEOUT_SECONDS: intIn('IDLE_TIMEOUT_SECONDS', 8, 960, SERVER_DEFAULTS.idleTimeoutSeconds),
  SHUTDOWN_TIMEOUT_MS: intIn('SHUTDOWN_TIMEOUT_MS', 0, 60_000, SERVER_DEFAULTS.shutdownTimeoutMs),
  // per client address (an IPv6 client by its /64); docs/operations.md, "Security"
  MAX_SOCKETS: intIn('MAX_SOCKETS', 0, 10_000_000, DEFAULT_ADMISSION_LIMITS.maxSockets),
  MAX_SOCKETS_PER_ADDRESS: intIn('MAX_SOCKETS_PER_ADDRESS', 0, 1_000_000, DEFAULT_ADMISSION_LIMITS.socketsPerAddress),
  CONNECTS_PER_ADDRESS_PER_SECOND: intIn('CONNECTS_PER_ADDRESS_PER_SECOND', 0, 1_000_000, DEFAULT_ADMISSION_LIMITS.connectRate?.perSecond ?? 0),
  CONNECTS_PER_ADDRESS_BURST: intIn('CONNECTS_PER_ADDRESS_BURST', 1, 1_000_000, DEFAULT_ADMISSION_LIMITS.connectRate?.burst ?? 1),
  IDENTIFY_PER_ADDRESS_PER_SECOND: intIn('IDENTIFY_PER_ADDRESS_PER_SECOND', 1, 1_000_000, DEFAULT_IDENTIFICATION_LIMITS.perAddress.perSecond),
  IDENTIFY_PER_ADDRESS_BURST: intIn('IDENTIFY_PER_ADDRESS_BURST', 1, 1_000_000, DEFAULT_IDENTIFICATION_LIMITS.perAddress.burst),
  IDENTIFY_PER_SECOND: intIn('IDENTIFY_PER_SECOND', 1, 1_000_000, DEFAULT_IDENTIFICATION_LIMITS.global.perSecond),
  IDENTIFY_BURST: intIn('IDENTIFY_BURST', 1, 1_000_000, DEFAULT_IDENTIFICATION_LIMITS.global.burst),
  // spectators of live games (docs/protocol.md, "Spectators")
  WATCH_GAMES_PER_SOCKET: intIn('WATCH_GAMES_PER_SOCKET', 0, 100, SERVER_DEFAULTS.watch.gamesPerSocket),
  WATCHERS_PER_GAME: intIn('WATCHERS_PER_GAME', 0, 10_000_000, SERVER_DEFAULTS.watch.watchersPerGame),
  WATCHERS_MAX: intIn('WATCHERS_MAX', 0, 10_000_000, SERVER_DEFAULTS.watch.watchersTotal),
  // game chat: off = guests may read the chat but not write in it
  GUEST_CHAT: boolOf('GUEST_CHAT'),
  // the XState inspector (docs/inspector.md): 1 starts a relay on this node and streams the
  // server's actors to it; ws://host:port/publish streams them to a relay elsewhere; unset/0 is off
  INSPECT: text.transform((v, ctx): 'relay' | string | null => {
    if (v === undefined || /^(0|false|no|off)$/i.test(v)) return null;
    if (/^(1|true|yes|on)$/i.test(v)) return 'relay';
    if (!/^wss?:\/\/[^\s/]+/.test(v)) {
      ctx.addIssue({ code: 'custom', message: `INSPECT must be 1 (a relay on this node) or the ws:// or wss:// URL of a relay (got "${v}")` });
      return z.NEVER;
    }
    return v;
  }),
  INSPECT_HOST: text,
  INSPECT_PORT: intIn('INSPECT_PORT', 0, 65535, SERVER_DEFAULTS.inspectRelay.port),
  SERVER_SECRET: text.refine((v) => v === undefined || v.length >= 32, 'SERVER_SECRET must be at least 32 characters'),
  DATA_DIR: text,
  DURABLE_GAMES: boolOf('DURABLE_GAMES'),
  GAME_JOURNAL_SYNC: oneOf('GAME_JOURNAL_SYNC', JOURNAL_SYNC_MODES, JOURNAL_SYNC),
  GAME_JOURNAL_SYNC_INTERVAL_MS: intIn('GAME_JOURNAL_SYNC_INTERVAL_MS', 1, 10_000, SYNC_INTERVAL_MS),
  GAME_JOURNAL_COMMIT_WINDOW_MS: intIn('GAME_JOURNAL_COMMIT_WINDOW_MS', 0, 1000, COMMIT_WINDOW_MS),
  STATIC_DIR: text,
  PUBLIC_URL: httpUrlOf('PUBLIC_URL'),
  SITE_URL: httpUrlOf('SITE_URL'),
  AI_ENABLED: boolOf('AI_ENABLED'),
  ACCOUNTS_ENABLED: boolOf('ACCOUNTS_ENABLED'),
  TRUST_PROXY: listOf('TRUST_PROXY', (e) =>
    /^(1|true|yes|on)$/i.test(e)
      ? 'list the addresses of your reverse proxies (e.g. 127.0.0.1,10.0.0.0/8) instead of "true": a forwarded address is believed only from them'
      : proxyEntryProblem(e),
  ),
  // several nodes
  REDIS_URL: matching('REDIS_URL', /^rediss?:\/\//, 'must start with redis:// or rediss://'),
  REDIS_PREFIX: matching('REDIS_PREFIX', /^[A-Za-z0-9_.:-]{1,64}$/, 'must be 1-64 letters, digits or _.:-'),
  METRICS_TOKEN: text.refine((v) => v === undefined || v.length >= 16, 'METRICS_TOKEN must be at least 16 characters'),
  // accounts
  DATABASE_URL: matching('DATABASE_URL', /^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://'),
  DATABASE_SCHEMA: matching('DATABASE_SCHEMA', /^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL name'),
  DB_QUERY_TIMEOUT_MS: intIn('DB_QUERY_TIMEOUT_MS', 100, 600_000, ACCOUNTS_DEFAULTS.dbTimeouts.queryMs),
  DB_CONNECT_TIMEOUT_MS: intIn('DB_CONNECT_TIMEOUT_MS', 100, 600_000, ACCOUNTS_DEFAULTS.dbTimeouts.connectMs),
  SMTP_HOST: text,
  SMTP_PORT: intIn('SMTP_PORT', 1, 65535, ACCOUNTS_DEFAULTS.smtpPort),
  SMTP_USER: text,
  SMTP_PASS: text,
  SMTP_FROM: text.refine((v) => v === undefined || v.length >= 3, 'SMTP_FROM must be an e-mail address'),
  AUTH_AUTOCONFIRM: boolOf('AUTH_AUTOCONFIRM'),
  JWT_PRIVATE_KEY: text,
  ANON_KEY: text,
  SUPABASE_URL: httpUrlOf('SUPABASE_URL'),
  SUPABASE_ANON_KEY: text,
  SUPABASE_JWT_SECRET: text.refine((v) => v === undefined || v.length >= 32, 'SUPABASE_JWT_SECRET must be at least 32 characters'),
  ADDITIONAL_REDIRECT_URLS: listOf('ADDITIONAL_REDIRECT_URLS', (u) =>
    isHttpUrl(u.endsWith('/**') ? u.slice(0, -3) : u) ? null : `"${u}" is not an http(s) URL`,
  ),
  DEV_INBOX: text.transform((v, ctx): DevInbox | undefined => {
    if (v === undefined) return undefined;
    if (/^(1|true|yes|on)$/i.test(v)) return 'on';
    if (/^(0|false|no|off)$/i.test(v)) return 'off';
    if (v === 'loopback') return 'loopback';
    ctx.addIssue({ code: 'custom', message: `DEV_INBOX must be true, false or loopback (got "${v}")` });
    return z.NEVER;
  }),
  /** GoTrue's SMTP_MAX_FREQUENCY: least time between two e-mails to one user */
  AUTH_EMAIL_MAX_FREQUENCY_SECONDS: intIn('AUTH_EMAIL_MAX_FREQUENCY_SECONDS', 0, 86_400, ACCOUNTS_DEFAULTS.rateLimits.emailIntervalSeconds),
  AUTH_LOCKOUT_FREE_FAILURES: intIn('AUTH_LOCKOUT_FREE_FAILURES', 1, 1000, ACCOUNTS_DEFAULTS.loginBackoff.freeFailures),
  AUTH_LOCKOUT_MAX_SECONDS: intIn('AUTH_LOCKOUT_MAX_SECONDS', 1, 86_400, ACCOUNTS_DEFAULTS.loginBackoff.maxLockMs / 1000),
  // AI
  AI_POOL_SIZE: optionalIntIn('AI_POOL_SIZE', 1, 1024),
  AI_MAX_GAMES: intIn('AI_MAX_GAMES', 1, 1_000_000, DEFAULT_MAX_GAMES),
  AI_GAMES_PER_ADDRESS: intIn('AI_GAMES_PER_ADDRESS', 1, 1_000_000, DEFAULT_MAX_GAMES_PER_ADDRESS),
  AI_REPLY_DELAY_MS: text.transform((v, ctx): [number, number] => {
    if (v === undefined) return DEFAULT_REPLY_DELAY_MS;
    const m = /^(\d+)\s*(?:-\s*(\d+))?$/.exec(v);
    const lo = Number(m?.[1]);
    const hi = m?.[2] === undefined ? lo : Number(m[2]);
    if (!m || hi < lo) {
      ctx.addIssue({ code: 'custom', message: `AI_REPLY_DELAY_MS must look like "300-1200" (ms, minimum first) (got "${v}")` });
      return z.NEVER;
    }
    return [lo, hi];
  }),
  AI_MAX_MOVETIME_MS: optionalIntIn('AI_MAX_MOVETIME_MS', 1, 3600_000),
  AI_ENGINE: matching('AI_ENGINE', /^(wasm|native)$/i, 'must be wasm or native'),
  STOCKFISH_PATH: text,
});

type Env = z.infer<typeof envSchema>;

export interface ServerConfig {
  port: number;
  host: string;
  /** The one mode of the whole server (NODE_ENV; unset = production). */
  nodeEnv: Mode;
  logLevel: (typeof LOG_LEVELS)[number];
  /** LOG_FORMAT; 'auto': server/logger.ts, chooseLogFormat */
  logFormat: LogFormat | 'auto';
  clockMs: number;
  /** how often a running clock without a move is reported (timerUpdate), ms; 0 = never */
  clockReportMs: number;
  firstMoveMs: number;
  graceMs: { guest: number; account: number };
  rateLimit: { messages: number; windowMs: number };
  maxPayloadBytes: number;
  idleTimeoutSeconds: number;
  /** per-address socket cap and connect rate */
  admission: AdmissionLimits;
  /** identifyUser's budget and cache */
  identification: IdentificationLimits;
  /** how many may watch live games (0 = watching is off) */
  watch: WatchLimits;
  /** game chat: whether guests may chat */
  chat: ChatSettings;
  shutdownTimeoutMs: number;
  /** where the server's actors stream for the XState inspector, or null when off */
  inspect: InspectTarget | null;
  serverSecret?: string;
  dataDir: string;
  /** live games journaled under dataDir and resumed after a restart (default on) */
  durableGames: boolean;
  /** how far a batch of the game journal goes before the players are told of it: the page cache (interval) or the disk (always) */
  journalSync: JournalSync;
  /** the interval mode's fdatasync interval, ms */
  journalSyncIntervalMs: number;
  /** how long the `always` mode gathers records before one synced write, ms */
  journalCommitWindowMs: number;
  staticDir: string;
  publicUrl?: string;
  siteUrl: string;
  databaseUrl?: string;
  aiEnabled: boolean;
  accountsEnabled: boolean;
  /** Reverse proxies (IPs or CIDR ranges) whose X-Forwarded-For is believed. */
  trustProxy: string[];
  /** several nodes: the site's Redis and key prefix (unset: a single node) */
  redis?: { url: string; prefix: string };
  /** When set, GET /metrics needs "Authorization: Bearer <token>"; unset in production, only this machine may read it. */
  metricsToken?: string;
  accounts: AccountsConfig;
  ai: AiEnvConfig;
}

/** Every setting from `env`; throws ConfigError naming every bad value, one line each. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const parsed = envSchema.safeParse(pick(env));
  const problems = parsed.success ? crossProblems(parsed.data) : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  if (!parsed.success || problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
  const e = parsed.data;
  const siteUrl = e.SITE_URL ?? e.PUBLIC_URL ?? `http://localhost:${e.PORT}`;
  const dataDir = e.DATA_DIR ?? SERVER_DEFAULTS.dataDir;
  return {
    port: e.PORT,
    host: e.HOST ?? SERVER_DEFAULTS.host,
    nodeEnv: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    clockMs: e.CLOCK_SECONDS * 1000,
    clockReportMs: e.CLOCK_REPORT_SECONDS * 1000,
    firstMoveMs: e.FIRST_MOVE_SECONDS * 1000,
    graceMs: { guest: e.GRACE_GUEST_SECONDS * 1000, account: e.GRACE_ACCOUNT_SECONDS * 1000 },
    rateLimit: { messages: e.RATE_LIMIT_MESSAGES, windowMs: e.RATE_LIMIT_WINDOW_SECONDS * 1000 },
    maxPayloadBytes: e.MAX_PAYLOAD_BYTES,
    idleTimeoutSeconds: e.IDLE_TIMEOUT_SECONDS,
    admission: {
      maxSockets: e.MAX_SOCKETS,
      socketsPerAddress: e.MAX_SOCKETS_PER_ADDRESS,
      connectRate: e.CONNECTS_PER_ADDRESS_PER_SECOND > 0 ? { perSecond: e.CONNECTS_PER_ADDRESS_PER_SECOND, burst: e.CONNECTS_PER_ADDRESS_BURST } : null,
    },
    identification: {
      ...DEFAULT_IDENTIFICATION_LIMITS,
      perAddress: { perSecond: e.IDENTIFY_PER_ADDRESS_PER_SECOND, burst: e.IDENTIFY_PER_ADDRESS_BURST },
      global: { perSecond: e.IDENTIFY_PER_SECOND, burst: e.IDENTIFY_BURST },
    },
    watch: { gamesPerSocket: e.WATCH_GAMES_PER_SOCKET, watchersPerGame: e.WATCHERS_PER_GAME, watchersTotal: e.WATCHERS_MAX },
    chat: { guests: e.GUEST_CHAT ?? SERVER_DEFAULTS.chat.guests },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    inspect: inspectTarget(e),
    serverSecret: e.SERVER_SECRET,
    dataDir,
    durableGames: e.DURABLE_GAMES ?? true,
    journalSync: e.GAME_JOURNAL_SYNC,
    journalSyncIntervalMs: e.GAME_JOURNAL_SYNC_INTERVAL_MS,
    journalCommitWindowMs: e.GAME_JOURNAL_COMMIT_WINDOW_MS,
    staticDir: e.STATIC_DIR ?? SERVER_DEFAULTS.staticDir,
    publicUrl: e.PUBLIC_URL,
    siteUrl,
    databaseUrl: e.DATABASE_URL,
    aiEnabled: e.AI_ENABLED ?? true,
    accountsEnabled: e.ACCOUNTS_ENABLED ?? true,
    trustProxy: e.TRUST_PROXY,
    metricsToken: e.METRICS_TOKEN,
    ...(e.REDIS_URL ? { redis: { url: e.REDIS_URL, prefix: e.REDIS_PREFIX ?? SERVER_DEFAULTS.redisPrefix } } : {}),
    accounts: accountsSettings(e, siteUrl, dataDir),
    ai: aiSettings(e),
  };
}

function inspectTarget(e: Env): InspectTarget | null {
  if (e.INSPECT === null) return null;
  if (e.INSPECT !== 'relay') return { url: e.INSPECT };
  return { relay: { host: e.INSPECT_HOST ?? SERVER_DEFAULTS.inspectRelay.host, port: e.INSPECT_PORT } };
}

/**
 * The settings startServer takes as they are (server/app.ts), under the configuration's own names
 * and types: main.ts hands them over with serverSettings(), not one by one.
 */
const SERVER_SETTING_KEYS = [
  'port',
  'host',
  'clockMs',
  'clockReportMs',
  'firstMoveMs',
  'graceMs',
  'staticDir',
  'rateLimit',
  'maxPayloadBytes',
  'idleTimeoutSeconds',
  'admission',
  'identification',
  'watch',
  'chat',
  'trustProxy',
  'journalSync',
  'journalSyncIntervalMs',
  'journalCommitWindowMs',
] as const satisfies readonly (keyof ServerConfig)[];

export type ServerSettings = Pick<ServerConfig, (typeof SERVER_SETTING_KEYS)[number]>;

/** The realtime server's section of the configuration. */
export function serverSettings(cfg: ServerConfig): ServerSettings {
  return Object.fromEntries(SERVER_SETTING_KEYS.map((k) => [k, cfg[k]])) as ServerSettings;
}

/** The settings with nothing set: what a part uses when it is created without the server's (tests, benches). */
export function defaultSettings(): ServerConfig {
  return loadConfig({});
}

/** Problems that involve more than one variable. */
function crossProblems(e: Env): string[] {
  const out: string[] = [];
  if (Boolean(e.SUPABASE_URL) !== Boolean(e.SUPABASE_ANON_KEY)) {
    out.push('SUPABASE_URL and SUPABASE_ANON_KEY must be set together (hosted mode) or both left unset');
  }
  if (e.REDIS_URL) out.push(...severalNodesProblems(e));
  return out;
}

/** Several nodes (REDIS_URL) share what a single node keeps in its data directory. */
function severalNodesProblems(e: Env): string[] {
  const out: string[] = [];
  if (!e.DATABASE_URL) {
    out.push('REDIS_URL (several nodes) needs DATABASE_URL (PostgreSQL): the embedded database has a single writer and cannot be shared by nodes');
  }
  if (!e.SERVER_SECRET) {
    out.push('REDIS_URL (several nodes) needs SERVER_SECRET, the same on every node, so that a guest identity made on one node is valid on all');
  }
  if (e.ACCOUNTS_ENABLED !== false && !e.SUPABASE_URL && !e.JWT_PRIVATE_KEY) {
    out.push('REDIS_URL (several nodes) needs JWT_PRIVATE_KEY, the same on every node, so that an access token signed by one node is valid on all');
  }
  return out;
}

function accountsSettings(e: Env, siteUrl: string, dataDir: string): AccountsConfig {
  const publicUrl = e.PUBLIC_URL ?? siteUrl;
  const smtp = e.SMTP_HOST
    ? { host: e.SMTP_HOST, port: e.SMTP_PORT, user: e.SMTP_USER, pass: e.SMTP_PASS, from: e.SMTP_FROM ?? `no-reply@${new URL(siteUrl).hostname}` }
    : undefined;
  return {
    mode: e.SUPABASE_URL ? 'hosted' : 'embedded',
    siteUrl,
    publicUrl,
    publicUrlExplicit: e.PUBLIC_URL !== undefined,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    dbSchema: e.DATABASE_SCHEMA ?? ACCOUNTS_DEFAULTS.dbSchema,
    dbTimeouts: { queryMs: e.DB_QUERY_TIMEOUT_MS, connectMs: e.DB_CONNECT_TIMEOUT_MS },
    smtp,
    autoconfirm: e.AUTH_AUTOCONFIRM ?? false,
    jwtPrivateKey: e.JWT_PRIVATE_KEY,
    anonKey: e.ANON_KEY,
    supabaseUrl: e.SUPABASE_URL,
    supabaseAnonKey: e.SUPABASE_ANON_KEY,
    supabaseJwtSecret: e.SUPABASE_JWT_SECRET,
    additionalRedirectUrls: e.ADDITIONAL_REDIRECT_URLS,
    devInbox: e.DEV_INBOX ?? defaultDevInbox(e.NODE_ENV, Boolean(smtp), publicUrl),
    trustProxy: e.TRUST_PROXY,
    bodyLimitBytes: ACCOUNTS_DEFAULTS.bodyLimitBytes,
    userMetadataMaxBytes: ACCOUNTS_DEFAULTS.userMetadataMaxBytes,
    accessTokenTtlSeconds: ACCOUNTS_DEFAULTS.accessTokenTtlSeconds,
    refreshReuseIntervalSeconds: ACCOUNTS_DEFAULTS.refreshReuseIntervalSeconds,
    rateLimits: { ...ACCOUNTS_DEFAULTS.rateLimits, emailIntervalSeconds: e.AUTH_EMAIL_MAX_FREQUENCY_SECONDS },
    loginBackoff: {
      ...ACCOUNTS_DEFAULTS.loginBackoff,
      freeFailures: e.AUTH_LOCKOUT_FREE_FAILURES,
      maxLockMs: e.AUTH_LOCKOUT_MAX_SECONDS * 1000,
    },
    argon2: { ...ACCOUNTS_DEFAULTS.argon2 },
    nodeEnv: e.NODE_ENV,
  };
}

function aiSettings(e: Env): AiEnvConfig {
  return {
    poolSize: e.AI_POOL_SIZE ?? defaultPoolSize(),
    maxGames: e.AI_MAX_GAMES,
    maxGamesPerAddress: e.AI_GAMES_PER_ADDRESS,
    replyDelayMs: e.AI_REPLY_DELAY_MS,
    maxMovetimeMs: e.AI_MAX_MOVETIME_MS,
    enginePath: e.STOCKFISH_PATH ?? (e.AI_ENGINE?.toLowerCase() === 'wasm' ? 'wasm' : undefined),
  };
}

/** Only the variables the schema knows (the rest of the environment is not ours to judge). */
function pick(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const key of Object.keys(envSchema.shape)) out[key] = env[key];
  return out;
}
