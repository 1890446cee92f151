/**
 * The seams to the accounts module (server/accounts) and the AI service (server/ai), which other
 * engineers write. The server codes against these interfaces (docs/accounts.md, docs/ai.md); main.ts asks
 * this module for the real implementations.
 */
import type { Logger } from 'pino';
import type { ServerConfig } from './config';
import { createAccounts, type AccountsModule as FullAccountsModule, type VerifiedIdentity } from './accounts/index';
import { DatabaseUnavailableError } from './accounts/db';
import type { RequestLimits } from './accounts/rate-limit';
import { unavailableAccounts } from './accounts/unavailable';
import { aiServiceFactory, type AiService as FullAiService, type AiServiceDeps } from './ai/index';

// The server depends only on the parts of the two modules it calls; the types are picked from
// the modules' own declarations so the seam cannot drift from them.
export type AccessClaims = VerifiedIdentity;
export type AccountsModule = Pick<FullAccountsModule, 'mount' | 'verifyAccessToken' | 'close'> & Partial<Pick<FullAccountsModule, 'archive' | 'health' | 'accountByUsername'>>;
export type AiService = Pick<FullAiService, 'start' | 'seats' | 'stats' | 'close'>;

/** Builds the AI service once the server can deliver its messages. */
export type AiServiceFactory = (deps: AiServiceDeps) => Promise<AiService>;

/**
 * The accounts module (server/accounts) with the settings read at start, unless disabled. When
 * its database cannot be opened the site starts anyway, with accounts answering 503.
 */
export async function loadAccounts(cfg: ServerConfig, logger: Logger, limits?: RequestLimits): Promise<AccountsModule | undefined> {
  if (!cfg.accountsEnabled) return undefined;
  try {
    return await createAccounts({ config: cfg.accounts, logger, ...(limits ? { limits } : {}) });
  } catch (err) {
    if (!(err instanceof DatabaseUnavailableError)) throw err;
    logger.error({ err }, `accounts unavailable, the rest of the site starts without them (restart once the database is back): ${err.message}`);
    return unavailableAccounts(cfg.accounts.publicUrl);
  }
}

/** The AI service factory (server/ai) with the settings read at start, unless disabled. */
export async function loadAiFactory(cfg: ServerConfig): Promise<AiServiceFactory | undefined> {
  if (!cfg.aiEnabled) return undefined;
  return aiServiceFactory({ ...cfg.ai });
}
