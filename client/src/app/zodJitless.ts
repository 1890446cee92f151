/**
 * zod compiles its object parsers with `new Function` unless told not to, and probes for it the
 * first time a schema is built. The site's Content-Security-Policy allows no eval (docs/
 * operations.md), so that probe alone is reported as a violation on every page that loads a
 * schema (a game's page, a profile). The browser parses the archive's few answers without it;
 * this runs before any schema is built.
 */
import { config } from 'zod/v4/core';

config({ jitless: true });
