/**
 * Accounts settings: their shape, their defaults, and how options given to createAccounts()
 * (tests use them) are laid over the values read from the environment. The environment itself
 * is read and validated, together with every other setting of the server, by server/config/index.ts.
 */
import { isLoopbackHost } from '../http/clientAddress';

export interface RateLimits {
  /** POST /token per IP per window (GoTrue: 150 per 5 min). */
  token: number;
  /** signup, recover, resend, otp, PUT /user, POST /verify per IP per window (GoTrue: 30 per 5 min). */
  sensitive: number;
  /** Window length in ms (5 minutes). */
  windowMs: number;
  /** Minimum seconds between two emails/SMS to the same address (GoTrue: 60). */
  emailIntervalSeconds: number;
}

/**
 * Who may read the development inbox (GET /dev/mail, which shows every confirmation and
 * password-reset link): nobody, only clients on this machine, or anyone.
 */
export type DevInbox = 'off' | 'loopback' | 'on';

export interface AccountsConfig {
  mode: 'embedded' | 'hosted';
  siteUrl: string;
  /** Origin under which this server is reachable by browsers; links in emails point here. */
  publicUrl: string;
  /** False when PUBLIC_URL was not given (then /config.json answers the origin the browser used). */
  publicUrlExplicit: boolean;
  dataDir: string;
  databaseUrl?: string;
  /** PostgreSQL schema for the tables (tests use a fresh one). Default "public". */
  dbSchema: string;
  /** PostgreSQL mode: a query, and opening a connection, give up after these (ms); hosted mode: a username look-up at the project, after queryMs. */
  dbTimeouts: { queryMs: number; connectMs: number };
  smtp?: { host: string; port: number; user?: string; pass?: string; from: string };
  autoconfirm: boolean;
  jwtPrivateKey?: string;
  anonKey?: string;
  supabaseUrl?: string;
  supabaseAnonKey?: string;
  /** Hosted projects still on the legacy HS256 secret can be verified with it. */
  supabaseJwtSecret?: string;
  /** Exact URLs or origins (a trailing "/**" allows every path under it) accepted as redirect_to. */
  additionalRedirectUrls: string[];
  devInbox: DevInbox;
  /** Addresses (IPs or CIDR ranges) of reverse proxies whose X-Forwarded-For is believed. */
  trustProxy: string[];
  bodyLimitBytes: number;
  /** Largest user_metadata (JSON bytes) an account may hold. */
  userMetadataMaxBytes: number;
  accessTokenTtlSeconds: number;
  refreshReuseIntervalSeconds: number;
  rateLimits: RateLimits;
  /** Failed sign-ins per account before it is locked, and the lock's first and longest length. */
  loginBackoff: LoginBackoff;
  argon2: { memoryCost: number; timeCost: number; parallelism: number };
  nodeEnv: string;
}

export interface LoginBackoff {
  /** Wrong passwords in a row that are free; each further one doubles the lock. */
  freeFailures: number;
  baseLockMs: number;
  maxLockMs: number;
}

export const ACCOUNTS_DEFAULTS = {
  dataDir: './data',
  dbSchema: 'public',
  dbTimeouts: { queryMs: 5_000, connectMs: 5_000 },
  smtpPort: 587,
  bodyLimitBytes: 64 * 1024,
  userMetadataMaxBytes: 8 * 1024,
  accessTokenTtlSeconds: 3600,
  refreshReuseIntervalSeconds: 10,
  rateLimits: { token: 150, sensitive: 30, windowMs: 5 * 60_000, emailIntervalSeconds: 60 },
  loginBackoff: { freeFailures: 5, baseLockMs: 1_000, maxLockMs: 15 * 60_000 },
  // OWASP's argon2id minimum (19 MiB, 2 passes, 1 lane): ~35 ms per hash on the 2-core CI machine.
  argon2: { memoryCost: 19_456, timeCost: 2, parallelism: 1 },
} as const satisfies Partial<Record<keyof AccountsConfig | 'smtpPort', unknown>>;

export type AccountsConfigOverrides = Partial<Omit<AccountsConfig, 'rateLimits' | 'argon2' | 'smtp' | 'dbTimeouts' | 'loginBackoff'>> & {
  rateLimits?: Partial<RateLimits>;
  argon2?: Partial<AccountsConfig['argon2']>;
  dbTimeouts?: Partial<AccountsConfig['dbTimeouts']>;
  loginBackoff?: Partial<LoginBackoff>;
  smtp?: AccountsConfig['smtp'];
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The settings read from the environment with the caller's options laid over them. */
export function withOverrides(base: AccountsConfig, o: AccountsConfigOverrides): AccountsConfig {
  const siteUrl = stripSlash(o.siteUrl ?? base.siteUrl);
  const publicUrl = stripSlash(o.publicUrl ?? (base.publicUrlExplicit ? base.publicUrl : siteUrl));
  const nodeEnv = o.nodeEnv ?? base.nodeEnv;
  const smtp = o.smtp ?? base.smtp;
  return {
    ...base,
    ...definedOnly(o),
    siteUrl,
    publicUrl,
    publicUrlExplicit: base.publicUrlExplicit || o.publicUrl !== undefined,
    smtp,
    nodeEnv,
    devInbox: o.devInbox ?? (o.nodeEnv !== undefined || o.smtp !== undefined || o.publicUrl !== undefined
      ? defaultDevInbox(nodeEnv, Boolean(smtp), publicUrl)
      : base.devInbox),
    rateLimits: { ...base.rateLimits, ...o.rateLimits },
    argon2: { ...base.argon2, ...o.argon2 },
    dbTimeouts: { ...base.dbTimeouts, ...o.dbTimeouts },
    loginBackoff: { ...base.loginBackoff, ...o.loginBackoff },
  };
}

/**
 * Who reads the development inbox when DEV_INBOX is not set. In development, anyone who can
 * reach the server. Otherwise only a first run on one's own machine gets it (no SMTP and a
 * loopback public address, what `npm start` without settings gives), and then only from this
 * machine: registration works without a mail server, and nobody else can read reset links.
 */
export function defaultDevInbox(nodeEnv: string, smtp: boolean, publicUrl: string): DevInbox {
  if (nodeEnv === 'development' || nodeEnv === 'test') return 'on';
  if (smtp) return 'off';
  return isLoopbackHost(new URL(publicUrl).hostname) ? 'loopback' : 'off';
}

export function stripSlash(u: string): string {
  return u.replace(/\/+$/, '');
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
