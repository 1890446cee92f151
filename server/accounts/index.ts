/**
 * Accounts: Supabase-compatible auth (/auth/v1) and the profiles table (/rest/v1/profiles) served
 * by our own uWebSockets.js app on PGlite or PostgreSQL (embedded mode), or only token verification
 * and username look-ups against a hosted Supabase project (hosted mode: SUPABASE_URL + SUPABASE_ANON_KEY).
 */
import type { RequestLimits } from './rate-limit';
import { mkdirSync } from 'node:fs';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { Logger } from 'pino';
import type { TemplatedApp } from 'uWebSockets.js';
import { TrustedProxies, fromThisMachine } from '../http/clientAddress';
import { createAuthHandler } from './auth-api';
import { API_VERSION, API_VERSION_HEADER, authErrorReply, errors } from './auth-errors';
import { defaultSettings } from '../config';
import { withOverrides, type AccountsConfig, type AccountsConfigOverrides } from '../config/accounts';
import { DatabaseUnavailableError, databaseAnswers, isDbUnavailable, isStorageFull, openDb, type Db } from './db';
import { json, serve, type Handler, type Reply, type Req } from './http';
import { loadAnonKey, loadSigningKeys, type SigningKeys } from './keys';
import { createMailer, renderInboxHtml, type Mailer } from './mail';
import { migrate } from './migrate';
import { createPasswordHasher } from './passwords';
import { AfterReply } from './rate-limit';
import { RedirectPolicy } from './redirect';
import { createProfilesHandler, restInternalError, restUnavailable } from './rest-profiles';
import { sessionExists } from './sessions';
import { createArchive, type Archive } from '../archive/index';
import { accountByUsername } from '../archive/store';
import { hostedAccountByUsername, type AccountNamed } from './hosted-usernames';
import type { VerifiedIdentity } from './verifiedIdentity';

export type { VerifiedIdentity };

export interface AccountsModule {
  /** Registers /auth/v1/*, /rest/v1/*, /dev/mail and /config.json (hosted mode: only /config.json). */
  mount(app: TemplatedApp): void;
  /** The user behind an access token, or null when it is invalid, expired or its session ended. */
  verifyAccessToken(token: string): Promise<VerifiedIdentity | null>;
  close(): Promise<void>;
  /** Effective configuration (for logs and tests; holds no secrets beyond the public anon key). */
  readonly info: { mode: AccountsConfig['mode']; publicUrl: string; anonKey: string; db?: Db['kind'] };
  /** The game archive on the accounts database; absent in hosted mode (docs/archive.md). */
  readonly archive?: Archive;
  /** Whether the accounts can serve: 'unavailable' while their database does not answer. */
  health(): Promise<AccountsHealth>;
  /**
   * The account that holds a username, matched without regard to case as the profile page finds
   * it; null when none does. Throws when the database (hosted mode: the hosted project, asked
   * within the query timeout) does not answer.
   */
  accountByUsername?(username: string): Promise<AccountNamed | null>;
}

export type AccountsHealth = 'ok' | 'unavailable';

/** What an operator of a public site on the embedded database is told at each start. */
export const EMBEDDED_DURABILITY_WARNING =
  'accounts on the embedded database (no DATABASE_URL): a crash of the process loses nothing, but a crash of the machine (power loss) may lose the last accounts, profiles and rated games, or the database itself; a public site wants DATABASE_URL (docs/operations.md, "The accounts on the embedded database (PGlite) through a crash")';

/**
 * A site with a public address (PUBLIC_URL) on the embedded database is warned: PGlite never syncs
 * its files to the disk, so its durability stops at the operating system. `npm start` on a
 * laptop (no PUBLIC_URL) is not.
 */
function warnOfEmbeddedDurability(cfg: AccountsConfig, db: Db, logger: Logger): void {
  if (db.kind === 'pglite' && cfg.publicUrlExplicit) logger.warn({ db: db.kind, publicUrl: cfg.publicUrl }, EMBEDDED_DURABILITY_WARNING);
}

/** What a request that needs the accounts database is told while it does not answer. */
export const ACCOUNTS_UNAVAILABLE_TEXT =
  'Accounts are unavailable right now: their database does not answer. Guest play and games against the computer still work.';
/** The 503 of an accounts request whose write the database refused for want of disk space. */
export const ACCOUNTS_CANNOT_SAVE_TEXT =
  'Accounts cannot be saved right now: the server is out of disk space. Nothing was created or changed; try again later.';

export type CreateAccountsOptions = AccountsConfigOverrides & {
  logger: Logger;
  /** The settings the server read at start (server/config); without them, the defaults. */
  config?: AccountsConfig;
  /** where request limits are kept (default: this process; several nodes: shared in Redis) */
  limits?: RequestLimits;
  /** The wall clock (ms since the epoch) of the least time between two e-mails; default Date.now. Tests move it instead of waiting. */
  now?: () => number;
};

const AUTH_METHODS = ['get', 'post', 'put', 'patch', 'del', 'options', 'head'] as const;

export async function createAccounts(opts: CreateAccountsOptions): Promise<AccountsModule> {
  const { logger: parentLogger, config, limits, now = Date.now, ...overrides } = opts;
  const cfg = withOverrides(config ?? defaultSettings().accounts, overrides);
  const logger = parentLogger.child({ module: 'accounts' });
  if (cfg.mode === 'hosted') return createHostedAccounts(cfg, logger);
  return createEmbeddedAccounts(cfg, logger, now, limits);
}

function configReply(supabaseUrl: string, supabaseAnonKey: string): Reply {
  return json(200, { supabaseUrl, supabaseAnonKey }, { 'Cache-Control': 'no-cache' });
}

function corsPolicy(origins: string[]) {
  return {
    allowedOrigins: new Set(origins),
    exposeHeaders: `${API_VERSION_HEADER}, Content-Range, Content-Location, Location`,
  };
}

async function createHostedAccounts(cfg: AccountsConfig, logger: Logger): Promise<AccountsModule> {
  const supabaseUrl = cfg.supabaseUrl!;
  const jwks = createRemoteJWKSet(new URL(`${supabaseUrl}/auth/v1/.well-known/jwks.json`));
  const secret = cfg.supabaseJwtSecret ? new TextEncoder().encode(cfg.supabaseJwtSecret) : undefined;
  logger.info({ supabaseUrl }, 'accounts in hosted mode: tokens verified against the hosted project');
  const serveOpts = {
    logger,
    bodyLimitBytes: cfg.bodyLimitBytes,
    trustProxy: new TrustedProxies(cfg.trustProxy),
    cors: corsPolicy([new URL(cfg.siteUrl).origin]),
    tooLarge: () => json(413, { message: 'Request body too large' }),
    onError: () => json(500, { message: 'Internal server error' }),
  };
  return {
    info: { mode: 'hosted', publicUrl: cfg.publicUrl, anonKey: cfg.supabaseAnonKey! },
    health: async () => 'ok',
    accountByUsername: hostedAccountByUsername(supabaseUrl, cfg.supabaseAnonKey!, cfg.dbTimeouts.queryMs),
    mount(app) {
      app.get('/config.json', serve(() => configReply(supabaseUrl, cfg.supabaseAnonKey!), serveOpts));
    },
    async verifyAccessToken(token) {
      if (typeof token !== 'string' || token.length === 0 || token.length > 8192) return null;
      try {
        const { payload } =
          secret && /"alg"\s*:\s*"HS256"/.test(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString())
            ? await jwtVerify(token, secret, { algorithms: ['HS256'], audience: 'authenticated' })
            : await jwtVerify(token, jwks, { audience: 'authenticated' });
        return identityFrom(payload);
      } catch (err) {
        logger.debug({ reason: (err as Error).message }, 'hosted access token rejected');
        return null;
      }
    },
    async close() {},
  };
}

/** The development inbox shows every sign-in and reset link: say so loudly whenever it is on. */
function announceDevInbox(cfg: AccountsConfig, logger: Logger): void {
  if (cfg.devInbox === 'on') {
    logger.warn(
      { devInbox: cfg.devInbox, nodeEnv: cfg.nodeEnv },
      'DEVELOPMENT INBOX IS ON FOR EVERYONE: anyone who can reach this server can read every confirmation and password-reset link at /dev/mail. Never run a public site like this (DEV_INBOX=false, or set SMTP_HOST).',
    );
  } else if (cfg.devInbox === 'loopback') {
    logger.warn(
      { devInbox: cfg.devInbox },
      'development inbox at /dev/mail, readable only from this machine: sign-up and password-reset e-mails land there because no SMTP_HOST is set. Set SMTP_HOST to send real mail, DEV_INBOX=false to turn the inbox off.',
    );
  }
}

/**
 * Who a verified token names. `username`: the account's username as this server's profiles hold
 * it (null: none); left out (a hosted project's token) the token's own user metadata says.
 */
function identityFrom(payload: JWTPayload, username?: string | null): VerifiedIdentity | null {
  if (typeof payload.sub !== 'string' || payload.role !== 'authenticated') return null;
  const meta = (payload.user_metadata ?? {}) as Record<string, unknown>;
  const out: VerifiedIdentity = { sub: payload.sub };
  if (typeof payload.email === 'string' && payload.email) out.email = payload.email;
  const name = username === undefined ? (typeof meta.username === 'string' ? meta.username : undefined) : username;
  if (name) out.username = name;
  return out;
}

/** The signing keys and the anon key, kept in the data directory; an unusable directory makes the accounts unavailable. */
async function loadKeys(cfg: AccountsConfig): Promise<{ keys: SigningKeys; anonKey: string }> {
  try {
    mkdirSync(cfg.dataDir, { recursive: true });
    const keys = await loadSigningKeys({ dataDir: cfg.dataDir, jwtPrivateKey: cfg.jwtPrivateKey });
    return { keys, anonKey: await loadAnonKey(keys, { dataDir: cfg.dataDir, anonKey: cfg.anonKey }) };
  } catch (err) {
    const errno = (err as NodeJS.ErrnoException).code;
    if (typeof errno !== 'string' || !/^E[A-Z]+$/.test(errno)) throw err; // a bad key setting stays fatal
    throw new DatabaseUnavailableError(`cannot use the data directory ${cfg.dataDir}: ${(err as Error).message}`, { cause: err });
  }
}

/** Opens the database, or throws DatabaseUnavailableError saying why it cannot be. */
async function openDatabase(cfg: AccountsConfig): Promise<Db> {
  try {
    return await openDb({ dataDir: cfg.dataDir, databaseUrl: cfg.databaseUrl, schema: cfg.dbSchema, timeouts: cfg.dbTimeouts });
  } catch (err) {
    const where = cfg.databaseUrl ? 'the PostgreSQL database (DATABASE_URL)' : `the embedded database in ${cfg.dataDir}`;
    throw new DatabaseUnavailableError(`cannot open ${where}: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * The database's health for /healthz: whether it answers `SELECT 1` within `withinMs`, asked at
 * most every 2 s however often /healthz is called (one probe at a time).
 */
function healthProbe(db: Db, withinMs: number): () => Promise<AccountsHealth> {
  let last: { at: number; value: AccountsHealth } | undefined;
  let running: Promise<AccountsHealth> | undefined;
  return () => {
    if (last && performance.now() - last.at < 2_000) return Promise.resolve(last.value);
    running ??= databaseAnswers(db, withinMs).then((answers) => {
      last = { at: performance.now(), value: answers ? 'ok' : 'unavailable' };
      running = undefined;
      return last.value;
    });
    return running;
  };
}

/**
 * Answer of a request that failed because the database is out of reach or cannot write (its disk
 * full): 503 with the text that says which; anything else `otherwise`.
 */
function unavailableOr(otherwise: () => Reply, unavailable: (text: string) => Reply) {
  return (err: unknown): Reply => {
    if (isStorageFull(err)) return unavailable(ACCOUNTS_CANNOT_SAVE_TEXT);
    if (isDbUnavailable(err)) return unavailable(ACCOUNTS_UNAVAILABLE_TEXT);
    return otherwise();
  };
}

async function createEmbeddedAccounts(cfg: AccountsConfig, logger: Logger, now: () => number, limits?: RequestLimits): Promise<AccountsModule> {
  const { keys, anonKey } = await loadKeys(cfg);
  const db = await openDatabase(cfg);
  let mailer: Mailer | undefined;
  try {
    const applied = await migrate(db).catch((err: unknown) => {
      throw isDbUnavailable(err) ? new DatabaseUnavailableError(`the accounts database does not answer: ${(err as Error).message}`, { cause: err }) : err;
    });
    if (applied.length) logger.info({ applied }, 'accounts migrations applied');
    const hasher = await createPasswordHasher(cfg.argon2);
    mailer = createMailer(cfg);
    if (!cfg.smtp && !cfg.devInbox && !cfg.autoconfirm) {
      logger.warn('no SMTP_HOST and no dev inbox: confirmation and recovery emails cannot be sent');
    }
    const redirects = new RedirectPolicy(cfg.siteUrl, cfg.additionalRedirectUrls);
    const rotationKey = keys.derivedSecret;
    const sessions = {
      db,
      keys,
      issuer: `${cfg.publicUrl}/auth/v1`,
      accessTtl: cfg.accessTokenTtlSeconds,
      reuseIntervalSeconds: cfg.refreshReuseIntervalSeconds,
      rotationKey,
    };
    const afterReply = new AfterReply((err, what) => logger.error({ err }, `${what} failed after the answer`));
    const auth = createAuthHandler({ cfg, db, keys, hasher, mailer, redirects, sessions, logger, afterReply, now, ...(limits ? { limits } : {}) });
    const profiles = createProfilesHandler({ db, keys });
    const cors = corsPolicy([...new Set([new URL(cfg.publicUrl).origin, ...redirects.corsOrigins()])]);
    const proxies = new TrustedProxies(cfg.trustProxy);
    const base = { logger, bodyLimitBytes: cfg.bodyLimitBytes, trustProxy: proxies, cors };
    const authServe = serve(auth, {
      ...base,
      tooLarge: () => authErrorReply(errors.tooLarge()),
      onError: unavailableOr(() => authErrorReply(errors.unexpected()), (text) => authErrorReply(errors.unavailable(text))),
    });
    const restServe = serve(profiles, {
      ...base,
      tooLarge: () => json(413, { code: 'PGRST413', details: null, hint: null, message: 'Payload Too Large' }),
      onError: unavailableOr(restInternalError, restUnavailable),
    });
    const plain = (h: Handler) =>
      serve(h, {
        ...base,
        tooLarge: () => json(413, { message: 'Payload Too Large' }),
        onError: unavailableOr(() => json(500, { message: 'Internal server error' }), (text) => json(503, { message: text })),
      });
    const inbox = mailer.inbox;
    // the archive's /api/me checks access tokens as the socket does (verifyAccessToken below)
    const archive = createArchive(db, logger.child({ sub: 'archive' }), (token) => module.verifyAccessToken(token));
    const archiveServe = plain(archive.handler);
    const devMail = plain(async (req) => {
      if (!inbox) return json(404, { message: 'The development inbox is off (set DEV_INBOX=true or loopback to turn it on)' });
      if (cfg.devInbox === 'loopback' && !fromThisMachine(req.peer, req.headers, proxies)) {
        return json(403, { message: 'The development inbox can only be read from the server\'s own machine (DEV_INBOX=loopback)' });
      }
      await afterReply.settled(); // mail for requests already answered
      const messages = inbox.list().map(({ id, kind, to, subject, text, links, sentAt }) => ({ id, kind, to, subject, text, links, sentAt }));
      if ((req.headers.accept ?? '').includes('text/html')) {
        return { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }, body: renderInboxHtml(messages) };
      }
      return json(200, messages, { 'Cache-Control': 'no-store' });
    });
    // With PUBLIC_URL unset, answer the origin the browser used (localhost vs 127.0.0.1 vs a LAN
    // address), so its auth calls stay same-origin. Email links always use the configured URL.
    const config = plain((req) => {
      const host = req.headers.host;
      if (cfg.publicUrlExplicit || !host || !/^[A-Za-z0-9.\-]+(:\d{1,5})?$|^\[[0-9a-fA-F:.]+\](:\d{1,5})?$/.test(host)) {
        return configReply(cfg.publicUrl, anonKey);
      }
      const proto = proxies.has(req.peer) && req.headers['x-forwarded-proto'] === 'https' ? 'https' : 'http';
      return configReply(`${proto}://${host}`, anonKey);
    });
    logger.info(
      { db: db.kind, publicUrl: cfg.publicUrl, autoconfirm: cfg.autoconfirm, devInbox: cfg.devInbox, smtp: Boolean(cfg.smtp) },
      'accounts ready',
    );
    announceDevInbox(cfg, logger);
    warnOfEmbeddedDurability(cfg, db, logger);

    // Housekeeping: expired one-time tokens and long-revoked refresh tokens (keeping each
    // session's recent history so reuse detection still recognises recently rotated tokens).
    const sweep = async () => {
      try {
        await db.query(`DELETE FROM one_time_tokens WHERE expires_at < now() - interval '1 day'`);
        await db.query(
          `DELETE FROM refresh_tokens WHERE revoked AND updated_at < now() - interval '30 days'`,
        );
      } catch (err) {
        logger.warn({ err }, 'accounts housekeeping failed');
      }
    };
    const sweeper = setInterval(() => void sweep(), 6 * 3600_000);
    sweeper.unref();

    let closed = false;
    const module: AccountsModule = {
      info: { mode: 'embedded', publicUrl: cfg.publicUrl, anonKey, db: db.kind },
      archive,
      health: healthProbe(db, Math.min(1_000, cfg.dbTimeouts.queryMs)),
      accountByUsername: (username) => accountByUsername(db, username),
      mount(app) {
        for (const m of AUTH_METHODS) {
          app[m]('/auth/v1/*', authServe);
          app[m]('/rest/v1/*', restServe);
        }
        app.get('/dev/mail', devMail);
        app.get('/config.json', config);
        app.any('/api/*', archiveServe);
      },
      async verifyAccessToken(token) {
        if (typeof token !== 'string' || token.length === 0 || token.length > 8192 || closed) return null;
        let payload: JWTPayload;
        try {
          payload = await keys.verify(token);
        } catch {
          return null;
        }
        // the username is the profile's: user metadata is the user's own to write, another account's name too
        const base = identityFrom(payload, null);
        if (!base || typeof payload.session_id !== 'string') return null;
        try {
          if (!(await sessionExists(db, payload.session_id))) return null;
          const [profile] = await db.query<{ username: string | null }>('SELECT username FROM profiles WHERE id = $1', [base.sub]);
          return identityFrom(payload, profile?.username ?? null);
        } catch (err) {
          logger.error({ err }, 'access token lookup failed');
          return null;
        }
      },
      async close() {
        if (closed) return;
        closed = true;
        clearInterval(sweeper);
        await afterReply.settled();
        mailer?.close();
        await db.close();
      },
    };
    return module;
  } catch (err) {
    mailer?.close();
    await db.close().catch(() => undefined);
    throw err;
  }
}

export { ConfigError } from '../config/accounts';
export type { AccountsConfig } from '../config/accounts';
export { API_VERSION };
