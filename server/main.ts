/**
 * Process entry for `npm start`: reads the environment, wires the accounts module and the AI
 * service in, starts the server, and shuts down gracefully on SIGTERM/SIGINT.
 */
import { ConfigError, loadConfig, serverSettings } from './config';
import { chooseLogFormat, createLogger } from './logger';
import { loadOrCreateServerSecret } from './secret';
import { UwsLoadError, loadUws } from './uws';
import { startServer } from './app';
import { warmUp } from './game/warmUp';
import { loadAccounts, loadAiFactory } from './wiring';
import { openRedisCommands } from './cluster/redis';
import { SharedLimits } from './cluster/sharedLimits';
import { ClusterKeys } from './cluster/keys';
import { SERVER_NODE_FLAGS, missingNodeFlags } from './nodeFlags';
import { createMigratedPglite } from './accounts/db';
import { CREATE_DATABASE_ENV, CREATE_DATABASE_SCHEMA_ENV, createDatabasesWithEntry } from './accounts/pglite-memory';

async function main(): Promise<void> {
  // A child this entry started to create and migrate a new embedded database (pglite-memory.ts).
  const creating = process.env[CREATE_DATABASE_ENV];
  if (creating) {
    await createMigratedPglite(creating, process.env[CREATE_DATABASE_SCHEMA_ENV] || 'public');
    process.exit(0);
  }
  createDatabasesWithEntry({ command: process.execPath, args: [...process.execArgv, process.argv[1]] });
  let cfg;
  try {
    cfg = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(err.message + '\n');
      process.exit(2);
    }
    throw err;
  }
  const { log, flushed } = createLogger({ level: cfg.logLevel, format: chooseLogFormat(cfg.logFormat, cfg.nodeEnv, process.stdout.isTTY === true) });
  const missingFlags = missingNodeFlags();
  if (missingFlags.length > 0 && cfg.nodeEnv === 'production') {
    log.warn({ missing: missingFlags }, `node started without the server's flags; start it as: node ${SERVER_NODE_FLAGS.join(' ')} dist/server/main.js (server/nodeFlags.ts says why)`);
  }
  try {
    loadUws();
  } catch (err) {
    if (err instanceof UwsLoadError) {
      log.fatal(err.message);
      process.stderr.write(err.message + '\n');
      process.exit(1);
    }
    throw err;
  }

  const serverSecret = loadOrCreateServerSecret(cfg.dataDir, cfg.serverSecret);
  // the XState inspector's relay and its inspector (server/inspect), only when asked for
  const inspection = cfg.inspect ? await (await import('./inspect/index')).startInspection(cfg.inspect, log.child({ part: 'inspect' })) : null;
  // several nodes: the accounts' request limits are the site's, in Redis
  const limitsRedis = cfg.redis ? await openRedisCommands(cfg.redis.url, 'chess-limits', log.child({ part: 'cluster' })) : null;
  const limits = cfg.redis && limitsRedis ? new SharedLimits(limitsRedis, new ClusterKeys(cfg.redis.prefix), log.child({ part: 'accounts' })) : undefined;
  const accounts = await loadAccounts(cfg, log.child({ part: 'accounts' }), limits);
  const ai = await loadAiFactory(cfg);

  const warmStart = performance.now();
  const warmed = warmUp();
  log.info({ ...warmed, ms: Math.round(performance.now() - warmStart) }, 'chess core, game machine and move reader warmed up');
  const server = await startServer({
    ...serverSettings(cfg),
    accounts,
    ai,
    logger: log,
    serverSecret,
    metricsAccess: { token: cfg.metricsToken, loopbackOnly: cfg.nodeEnv === 'production' },
    connectOrigins: [cfg.accounts.supabaseUrl, cfg.accounts.publicUrlExplicit ? cfg.accounts.publicUrl : undefined].filter((u): u is string => Boolean(u)),
    inspect: inspection?.inspect,
    browserInspector: cfg.nodeEnv === 'development',
    durableDir: cfg.durableGames ? cfg.dataDir : undefined,
    ...(cfg.redis && cfg.databaseUrl
      ? {
          cluster: {
            redisUrl: cfg.redis.url,
            prefix: cfg.redis.prefix,
            databaseUrl: cfg.databaseUrl,
            databaseSchema: cfg.accounts.dbSchema,
            dbTimeouts: cfg.accounts.dbTimeouts,
          },
        }
      : {}),
  });
  log.info({ url: server.url, accounts: !!accounts, ai: !!ai }, `Ready: ${readyUrl(cfg.host, server.port)}`);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const deadline = Date.now() + cfg.shutdownTimeoutMs;
    const force = setTimeout(() => {
      log.warn('shutdown took too long; exiting');
      process.exit(0);
    }, cfg.shutdownTimeoutMs);
    force.unref();
    server.close().then(
      async () => {
        inspection?.close();
        await limitsRedis?.quit().catch(() => {});
        // the last lines to stdout's reader, unless it does not read them in time
        await flushed(deadline - Date.now());
        process.exit(0);
      },
      (err: unknown) => {
        log.error({ err }, 'error during shutdown');
        process.exit(0);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('uncaughtException', (err) => {
    log.fatal({ err }, 'uncaught exception');
  });
  process.on('unhandledRejection', (err) => {
    log.error({ err }, 'unhandled rejection');
  });
}

/** Where a person on this machine opens the site: localhost when the server listens on every address or the loopback one. */
function readyUrl(host: string, port: number): string {
  const local = ['0.0.0.0', '::', '127.0.0.1', '::1', 'localhost'].includes(host);
  return `http://${local ? 'localhost' : host.includes(':') ? `[${host}]` : host}:${port}`;
}

main().catch((err: unknown) => {
  process.stderr.write(`Server failed to start: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
