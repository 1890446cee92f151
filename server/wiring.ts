/**
 * The seams to the accounts module (server/accounts) and the AI service (server/ai), which other
 * engineers write. The server codes against these interfaces (CONTRACTS.md §3, §4); main.ts asks
 * this module for the real implementations.
 */
import type { Logger } from 'pino';
import type { ServerMessage } from '../machines/protocol/messages';
import type { TemplatedApp } from './uws';
import type { ServerConfig } from './config';
import { createAccounts } from './accounts/index';
import { aiServiceFactory } from './ai/index';

export interface AccessClaims {
  sub: string;
  email?: string;
  username?: string;
}

export interface AccountsModule {
  mount(app: TemplatedApp): void;
  verifyAccessToken(token: string): Promise<AccessClaims | null>;
  close(): Promise<void>;
}

export interface AiService {
  start(playerId: string, options: unknown): void;
  move(playerId: string, payload: unknown): void;
  resign(playerId: string, gameId: string): void;
  ownsGame(gameId: string): boolean;
  hasGame(playerId: string): boolean;
  playerDisconnected(playerId: string): void;
  playerReconnected(playerId: string): void;
  stats(): { games: number; engines: number; queue: number };
  close(): Promise<void>;
}

/** Builds the AI service once the server can deliver its messages. */
export type AiServiceFactory = (opts: {
  send: (playerId: string, msg: ServerMessage) => void;
  logger: Logger;
}) => Promise<AiService>;

/** The accounts module (server/accounts; its own settings come from the environment), unless disabled. */
export async function loadAccounts(cfg: ServerConfig, logger: Logger): Promise<AccountsModule | undefined> {
  if (!cfg.accountsEnabled) return undefined;
  return createAccounts({
    dataDir: cfg.dataDir,
    siteUrl: cfg.siteUrl,
    logger,
    ...(cfg.publicUrl ? { publicUrl: cfg.publicUrl } : {}),
    ...(cfg.databaseUrl ? { databaseUrl: cfg.databaseUrl } : {}),
  });
}

/** The AI service factory (server/ai; pool size, engine etc. from the environment), unless disabled. */
export async function loadAiFactory(cfg: ServerConfig, logger: Logger): Promise<AiServiceFactory | undefined> {
  if (!cfg.aiEnabled) return undefined;
  void logger;
  return aiServiceFactory();
}
