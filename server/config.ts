/**
 * Server configuration from environment variables, validated with clear messages.
 * Every variable is optional; the defaults run the site on http://localhost:3000.
 */
import { z } from 'zod';
import { DEFAULT_ADMISSION_LIMITS, type AdmissionLimits } from './realtime/admission';
import { DEFAULT_IDENTIFICATION_LIMITS, type IdentificationLimits } from './realtime/identification';

const admissionDefaults = DEFAULT_ADMISSION_LIMITS;
const identifyDefaults = DEFAULT_IDENTIFICATION_LIMITS;

const intIn = (name: string, min: number, max: number, def: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return def;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a whole number from ${min} to ${max} (got "${v}")` });
        return z.NEVER;
      }
      return n;
    });

const bool = (def: boolean) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === '' ? def : /^(1|true|yes|on)$/i.test(v)));

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const envSchema = z.object({
  PORT: intIn('PORT', 0, 65535, 3000),
  HOST: z.string().optional().default('0.0.0.0'),
  NODE_ENV: z.enum(['development', 'production', 'test']).optional().default('production'),
  LOG_LEVEL: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const lvl = (v ?? '').trim() || 'info';
      if (!(LOG_LEVELS as readonly string[]).includes(lvl)) {
        ctx.addIssue({ code: 'custom', message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${v}")` });
        return z.NEVER;
      }
      return lvl as (typeof LOG_LEVELS)[number];
    }),
  CLOCK_SECONDS: intIn('CLOCK_SECONDS', 1, 24 * 3600, 600),
  FIRST_MOVE_SECONDS: intIn('FIRST_MOVE_SECONDS', 1, 3600, 30),
  GRACE_GUEST_SECONDS: intIn('GRACE_GUEST_SECONDS', 1, 3600, 40),
  GRACE_ACCOUNT_SECONDS: intIn('GRACE_ACCOUNT_SECONDS', 1, 3600, 80),
  RATE_LIMIT_MESSAGES: intIn('RATE_LIMIT_MESSAGES', 1, 1_000_000, 100),
  RATE_LIMIT_WINDOW_SECONDS: intIn('RATE_LIMIT_WINDOW_SECONDS', 1, 3600, 20),
  MAX_PAYLOAD_BYTES: intIn('MAX_PAYLOAD_BYTES', 256, 1024 * 1024, 8 * 1024),
  IDLE_TIMEOUT_SECONDS: intIn('IDLE_TIMEOUT_SECONDS', 8, 960, 60),
  // per client address (an IPv6 client by its /64); docs/operations.md, "Security"
  MAX_SOCKETS_PER_ADDRESS: intIn('MAX_SOCKETS_PER_ADDRESS', 0, 1_000_000, admissionDefaults.socketsPerAddress),
  CONNECTS_PER_ADDRESS_PER_SECOND: intIn('CONNECTS_PER_ADDRESS_PER_SECOND', 0, 1_000_000, admissionDefaults.connectRate?.perSecond ?? 0),
  CONNECTS_PER_ADDRESS_BURST: intIn('CONNECTS_PER_ADDRESS_BURST', 1, 1_000_000, admissionDefaults.connectRate?.burst ?? 1),
  IDENTIFY_PER_ADDRESS_PER_SECOND: intIn('IDENTIFY_PER_ADDRESS_PER_SECOND', 1, 1_000_000, identifyDefaults.perAddress.perSecond),
  IDENTIFY_PER_ADDRESS_BURST: intIn('IDENTIFY_PER_ADDRESS_BURST', 1, 1_000_000, identifyDefaults.perAddress.burst),
  IDENTIFY_PER_SECOND: intIn('IDENTIFY_PER_SECOND', 1, 1_000_000, identifyDefaults.global.perSecond),
  IDENTIFY_BURST: intIn('IDENTIFY_BURST', 1, 1_000_000, identifyDefaults.global.burst),
  SHUTDOWN_TIMEOUT_MS: intIn('SHUTDOWN_TIMEOUT_MS', 0, 60_000, 3000),
  // INSPECT=ws://host:port streams the actors to a WebSocket inspector; 1/true uses
  // @statelyai/inspect's default address (ws://localhost:8080); unset/0/false is off.
  INSPECT: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '' || /^(0|false|no|off)$/i.test(v)) return null;
      if (/^(1|true|yes|on)$/i.test(v)) return 'ws://localhost:8080';
      if (!/^wss?:\/\/[^\s/]+/.test(v)) {
        ctx.addIssue({ code: 'custom', message: `INSPECT must be a ws:// or wss:// URL or 1 (got "${v}")` });
        return z.NEVER;
      }
      return v;
    }),
  SERVER_SECRET: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || v.length >= 32, 'SERVER_SECRET must be at least 32 characters'),
  DATA_DIR: z.string().optional().default('data'),
  STATIC_DIR: z.string().optional().default('dist/client'),
  PUBLIC_URL: z.string().optional(),
  SITE_URL: z.string().optional(),
  DATABASE_URL: z.string().optional(),
  AI_ENABLED: bool(true),
  ACCOUNTS_ENABLED: bool(true),
});

export interface ServerConfig {
  port: number;
  host: string;
  nodeEnv: 'development' | 'production' | 'test';
  logLevel: (typeof LOG_LEVELS)[number];
  clockMs: number;
  firstMoveMs: number;
  graceMs: { guest: number; account: number };
  rateLimit: { messages: number; windowMs: number };
  maxPayloadBytes: number;
  idleTimeoutSeconds: number;
  admission: AdmissionLimits;
  identification: IdentificationLimits;
  shutdownTimeoutMs: number;
  /** WebSocket inspector URL, or null when off */
  inspect: string | null;
  serverSecret?: string;
  dataDir: string;
  staticDir: string;
  publicUrl?: string;
  siteUrl: string;
  databaseUrl?: string;
  aiEnabled: boolean;
  accountsEnabled: boolean;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path.join('.') || 'env'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    nodeEnv: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    clockMs: e.CLOCK_SECONDS * 1000,
    firstMoveMs: e.FIRST_MOVE_SECONDS * 1000,
    graceMs: { guest: e.GRACE_GUEST_SECONDS * 1000, account: e.GRACE_ACCOUNT_SECONDS * 1000 },
    rateLimit: { messages: e.RATE_LIMIT_MESSAGES, windowMs: e.RATE_LIMIT_WINDOW_SECONDS * 1000 },
    maxPayloadBytes: e.MAX_PAYLOAD_BYTES,
    idleTimeoutSeconds: e.IDLE_TIMEOUT_SECONDS,
    admission: {
      socketsPerAddress: e.MAX_SOCKETS_PER_ADDRESS,
      connectRate: e.CONNECTS_PER_ADDRESS_PER_SECOND > 0 ? { perSecond: e.CONNECTS_PER_ADDRESS_PER_SECOND, burst: e.CONNECTS_PER_ADDRESS_BURST } : null,
    },
    identification: {
      ...identifyDefaults,
      perAddress: { perSecond: e.IDENTIFY_PER_ADDRESS_PER_SECOND, burst: e.IDENTIFY_PER_ADDRESS_BURST },
      global: { perSecond: e.IDENTIFY_PER_SECOND, burst: e.IDENTIFY_BURST },
    },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    inspect: e.INSPECT,
    serverSecret: e.SERVER_SECRET || undefined,
    dataDir: e.DATA_DIR,
    staticDir: e.STATIC_DIR,
    publicUrl: e.PUBLIC_URL || undefined,
    siteUrl: e.SITE_URL || e.PUBLIC_URL || `http://localhost:${e.PORT}`,
    databaseUrl: e.DATABASE_URL || undefined,
    aiEnabled: e.AI_ENABLED,
    accountsEnabled: e.ACCOUNTS_ENABLED,
  };
}
