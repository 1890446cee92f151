/**
 * Accounts configuration: environment variables with safe defaults, validated once at start.
 * Options passed to createAccounts() override the environment (tests use that).
 */
import { z } from 'zod';

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
  devInbox: boolean;
  trustProxy: boolean;
  bodyLimitBytes: number;
  accessTokenTtlSeconds: number;
  refreshReuseIntervalSeconds: number;
  rateLimits: RateLimits;
  argon2: { memoryCost: number; timeCost: number; parallelism: number };
  nodeEnv: string;
}

export type AccountsConfigOverrides = Partial<Omit<AccountsConfig, 'rateLimits' | 'argon2' | 'smtp'>> & {
  rateLimits?: Partial<RateLimits>;
  argon2?: Partial<AccountsConfig['argon2']>;
  smtp?: AccountsConfig['smtp'];
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const boolString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .optional()
  .transform((v) => (v === undefined || v === '' ? undefined : v === 'true' || v === '1' || v === 'yes'));

const httpUrl = z
  .string()
  .url()
  .refine((u) => {
    try {
      return /^https?:$/.test(new URL(u).protocol);
    } catch {
      return false;
    }
  }, 'must be an http(s) URL');

const envSchema = z.object({
  SITE_URL: httpUrl.optional(),
  PUBLIC_URL: httpUrl.optional(),
  DATA_DIR: z.string().min(1).optional(),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://').optional(),
  DATABASE_SCHEMA: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/).optional(),
  SMTP_HOST: z.string().min(1).optional(),
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  SMTP_USER: z.string().optional(),
  SMTP_PASS: z.string().optional(),
  SMTP_FROM: z.string().min(3).optional(),
  AUTH_AUTOCONFIRM: boolString,
  JWT_PRIVATE_KEY: z.string().min(1).optional(),
  ANON_KEY: z.string().min(1).optional(),
  SUPABASE_URL: httpUrl.optional(),
  SUPABASE_ANON_KEY: z.string().min(1).optional(),
  SUPABASE_JWT_SECRET: z.string().min(32).optional(),
  ADDITIONAL_REDIRECT_URLS: z.string().optional(),
  DEV_INBOX: boolString,
  TRUST_PROXY: boolString,
  /** GoTrue's SMTP_MAX_FREQUENCY: least time between two e-mails to one user */
  AUTH_EMAIL_MAX_FREQUENCY_SECONDS: z.coerce.number().int().min(0).max(86_400).optional(),
  NODE_ENV: z.string().optional(),
});

function emptyToUndefined(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const key of Object.keys(envSchema.shape)) {
    const v = env[key];
    out[key] = v === undefined || v.trim() === '' ? undefined : v.trim();
  }
  return out;
}

/** Reads and validates the environment; throws ConfigError listing every bad variable. */
export function loadAccountsConfig(
  overrides: AccountsConfigOverrides = {},
  env: NodeJS.ProcessEnv = process.env,
): AccountsConfig {
  const parsed = envSchema.safeParse(emptyToUndefined(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid accounts configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const nodeEnv = overrides.nodeEnv ?? e.NODE_ENV ?? 'development';
  const siteUrl = stripSlash(overrides.siteUrl ?? e.SITE_URL ?? 'http://localhost:3000');
  const publicUrl = stripSlash(overrides.publicUrl ?? e.PUBLIC_URL ?? siteUrl);
  const supabaseUrl = overrides.supabaseUrl ?? e.SUPABASE_URL;
  const supabaseAnonKey = overrides.supabaseAnonKey ?? e.SUPABASE_ANON_KEY;
  if (Boolean(supabaseUrl) !== Boolean(supabaseAnonKey)) {
    throw new ConfigError('SUPABASE_URL and SUPABASE_ANON_KEY must be set together (hosted mode) or both left unset');
  }
  const smtpHost = e.SMTP_HOST;
  const smtp =
    overrides.smtp ??
    (smtpHost
      ? {
          host: smtpHost,
          port: e.SMTP_PORT ?? 587,
          user: e.SMTP_USER,
          pass: e.SMTP_PASS,
          from: e.SMTP_FROM ?? `no-reply@${new URL(siteUrl).hostname}`,
        }
      : undefined);
  const additional = (overrides.additionalRedirectUrls ??
    (e.ADDITIONAL_REDIRECT_URLS ?? '').split(',').map((s) => s.trim()).filter(Boolean)) as string[];
  for (const u of additional) {
    const base = u.endsWith('/**') ? u.slice(0, -3) : u;
    if (!httpUrl.safeParse(base).success) {
      throw new ConfigError(`ADDITIONAL_REDIRECT_URLS: "${u}" is not an http(s) URL`);
    }
  }
  const devInbox = overrides.devInbox ?? e.DEV_INBOX ?? nodeEnv !== 'production';
  const cfg: AccountsConfig = {
    mode: supabaseUrl ? 'hosted' : 'embedded',
    siteUrl,
    publicUrl,
    publicUrlExplicit: Boolean(overrides.publicUrl ?? e.PUBLIC_URL),
    dataDir: overrides.dataDir ?? e.DATA_DIR ?? './data',
    databaseUrl: overrides.databaseUrl ?? e.DATABASE_URL,
    dbSchema: overrides.dbSchema ?? e.DATABASE_SCHEMA ?? 'public',
    smtp,
    autoconfirm: overrides.autoconfirm ?? e.AUTH_AUTOCONFIRM ?? false,
    jwtPrivateKey: overrides.jwtPrivateKey ?? e.JWT_PRIVATE_KEY,
    anonKey: overrides.anonKey ?? e.ANON_KEY,
    supabaseUrl: supabaseUrl ? stripSlash(supabaseUrl) : undefined,
    supabaseAnonKey,
    supabaseJwtSecret: overrides.supabaseJwtSecret ?? e.SUPABASE_JWT_SECRET,
    additionalRedirectUrls: additional,
    devInbox,
    trustProxy: overrides.trustProxy ?? e.TRUST_PROXY ?? false,
    bodyLimitBytes: overrides.bodyLimitBytes ?? 64 * 1024,
    accessTokenTtlSeconds: overrides.accessTokenTtlSeconds ?? 3600,
    refreshReuseIntervalSeconds: overrides.refreshReuseIntervalSeconds ?? 10,
    rateLimits: {
      token: 150,
      sensitive: 30,
      windowMs: 5 * 60_000,
      emailIntervalSeconds: e.AUTH_EMAIL_MAX_FREQUENCY_SECONDS ?? 60,
      ...overrides.rateLimits,
    },
    // OWASP's argon2id minimum (19 MiB, 2 passes, 1 lane): ~35 ms per hash on the 2-core CI machine.
    argon2: { memoryCost: 19_456, timeCost: 2, parallelism: 1, ...overrides.argon2 },
    nodeEnv,
  };
  return cfg;
}

function stripSlash(u: string): string {
  return u.replace(/\/+$/, '');
}
