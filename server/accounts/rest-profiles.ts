/**
 * /rest/v1/profiles: the PostgREST subset @supabase/postgrest-js uses for the profiles table,
 * with the row rules RLS would state: anyone reads usernames; an account id is read only by a
 * query that names it (`id=eq.`, `id=in.`), so no list of account ids leaves the site; a signed-in user
 * reads its whole row and inserts/updates only its own (id = sub). Errors are PostgREST-shaped.
 */
import { errors as joseErrors, type JWTPayload } from 'jose';
import type { Db, Queryable } from './db';
import { isPgError } from './db';
import { bearerToken, json, type Handler, type Reply, type Req } from './http';
import type { SigningKeys } from './keys';

const COLUMNS = ['id', 'username', 'first_name', 'last_name', 'created_at', 'updated_at'] as const;
type Column = (typeof COLUMNS)[number];
/** Columns anyone reads in any row. */
const PUBLIC_COLUMNS = new Set<string>(['username']);
const WRITABLE = new Set<string>(COLUMNS);
const RESERVED_PARAMS = new Set(['select', 'order', 'limit', 'offset', 'on_conflict', 'columns']);

class RestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: string | null = null,
    readonly hint: string | null = null,
  ) {
    super(message);
  }
}

function restErrorReply(e: RestError): Reply {
  const headers: Record<string, string> = {};
  if (e.status === 401) headers['WWW-Authenticate'] = 'Bearer';
  return json(e.status, { code: e.code, details: e.details, hint: e.hint, message: e.message }, headers);
}

const isColumn = (c: string): c is Column => (COLUMNS as readonly string[]).includes(c);
const unknownColumn = (c: string) => new RestError(400, '42703', `column profiles.${c} does not exist`);
const permissionDenied = (role: Role) =>
  new RestError(role.kind === 'anon' ? 401 : 403, '42501', 'permission denied for table profiles');
const rlsViolation = () =>
  new RestError(403, '42501', 'new row violates row-level security policy for table "profiles"');

type Role = { kind: 'anon' } | { kind: 'user'; sub: string };

async function roleOf(keys: SigningKeys, headers: Record<string, string>): Promise<Role> {
  const token = bearerToken(headers);
  if (!token) return { kind: 'anon' };
  let payload: JWTPayload;
  try {
    payload = await keys.verify(token);
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw new RestError(401, 'PGRST303', 'JWT expired');
    throw new RestError(401, 'PGRST301', 'No suitable key or wrong key type');
  }
  if (payload.role === 'anon') return { kind: 'anon' };
  if (payload.role === 'authenticated' && typeof payload.sub === 'string') return { kind: 'user', sub: payload.sub };
  throw new RestError(401, 'PGRST301', 'JWT role is not allowed');
}

interface Filter {
  column: Column;
  /** `eq` or `in`: the row's value is one the caller gave */
  names: boolean;
  sql: (param: (v: unknown) => string) => string;
}

/**
 * Whether a select may read other accounts' rows: only public columns, plus `id` when a filter
 * names the ids (an existence check answers only ids the caller already had).
 */
function readsOnlyPublic(columns: readonly Column[], filters: readonly Filter[], order: readonly { column: Column }[]): boolean {
  const namesId = filters.some((f) => f.column === 'id' && f.names);
  const referenced = [...columns, ...filters.map((f) => f.column), ...order.map((o) => o.column)];
  return referenced.every((c) => PUBLIC_COLUMNS.has(c) || (c === 'id' && namesId));
}

function parseFilters(query: URLSearchParams): Filter[] {
  const filters: Filter[] = [];
  for (const [key, raw] of query) {
    if (RESERVED_PARAMS.has(key)) continue;
    if (!isColumn(key)) throw unknownColumn(key);
    const dot = raw.indexOf('.');
    const op = dot < 0 ? raw : raw.slice(0, dot);
    const value = dot < 0 ? '' : raw.slice(dot + 1);
    const col = `"${key}"`;
    const bad = () => new RestError(400, 'PGRST100', `"failed to parse filter (${raw})" (line 1, column 1)`, `unexpected "${op}"`);
    switch (op) {
      case 'eq':
        filters.push({ column: key, names: true, sql: (p) => `${col} = ${p(value)}` });
        break;
      case 'ilike': {
        // PostgREST writes the LIKE wildcard % as * in URLs
        const pattern = value.replace(/\*/g, '%');
        filters.push({ column: key, names: false, sql: (p) => `${col} ILIKE ${p(pattern)}` });
        break;
      }
      case 'neq':
        filters.push({ column: key, names: false, sql: (p) => `${col} <> ${p(value)}` });
        break;
      case 'in': {
        const m = /^\((.*)\)$/.exec(value);
        if (!m) throw bad();
        const items = m[1] === '' ? [] : m[1].split(',').map((s) => s.trim().replace(/^"(.*)"$/, '$1'));
        filters.push({ column: key, names: true, sql: (p) => (items.length ? `${col} IN (${items.map((i) => p(i)).join(', ')})` : 'false') });
        break;
      }
      case 'is':
        if (value === 'null') filters.push({ column: key, names: false, sql: () => `${col} IS NULL` });
        else if (value === 'not.null') filters.push({ column: key, names: false, sql: () => `${col} IS NOT NULL` });
        else throw bad();
        break;
      default:
        throw bad();
    }
  }
  return filters;
}

function parseSelect(raw: string | null): Column[] {
  const text = (raw ?? '*').replace(/\s+/g, '');
  if (text === '' || text === '*') return [...COLUMNS];
  const out: Column[] = [];
  for (const item of text.split(',')) {
    if (item === '*') {
      out.push(...COLUMNS);
      continue;
    }
    const name = item.includes(':') ? item.slice(item.indexOf(':') + 1) : item;
    const bare = name.replace(/::.*$/, '').replace(/^"(.*)"$/, '$1');
    if (!isColumn(bare)) throw unknownColumn(bare);
    out.push(bare);
  }
  return [...new Set(out)];
}

function parseOrder(raw: string | null): { column: Column; dir: 'ASC' | 'DESC' }[] {
  if (!raw) return [];
  return raw.split(',').map((part) => {
    const [c, d] = part.split('.');
    if (!isColumn(c)) throw unknownColumn(c);
    return { column: c, dir: d === 'desc' ? 'DESC' : 'ASC' };
  });
}

function parseIntParam(raw: string | null, name: string): number | undefined {
  if (raw === null) return undefined;
  if (!/^\d+$/.test(raw)) throw new RestError(400, 'PGRST100', `"failed to parse ${name}" (line 1, column 1)`);
  return Number(raw);
}

function preferences(headers: Record<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (headers.prefer ?? '').split(',')) {
    const [k, v] = part.trim().split('=');
    if (k) out.set(k, v ?? '');
  }
  return out;
}

const wantsObject = (headers: Record<string, string>) => (headers.accept ?? '').includes('application/vnd.pgrst.object+json');
const stripNulls = (headers: Record<string, string>) => (headers.accept ?? '').includes('nulls=stripped');

function rowJson(row: Record<string, unknown>, columns: Column[], strip: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of columns) {
    let v = row[c];
    if (v instanceof Date) v = v.toISOString();
    if (strip && v === null) continue;
    out[c] = v ?? null;
  }
  return out;
}

function rowsReply(status: number, rows: Record<string, unknown>[], headers: Record<string, string>): Reply {
  if (wantsObject(headers)) {
    if (rows.length !== 1) {
      throw new RestError(
        406,
        'PGRST116',
        'Cannot coerce the result to a single JSON object',
        `The result contains ${rows.length} rows`,
      );
    }
    return json(status, rows[0], {
      'Content-Type': 'application/vnd.pgrst.object+json; charset=utf-8',
      'Content-Range': '0-0/*',
    });
  }
  return json(status, rows, { 'Content-Range': rows.length ? `0-${rows.length - 1}/*` : '*/*' });
}

function pgErrorToRest(err: unknown): RestError | undefined {
  if (!isPgError(err)) return undefined;
  const code = err.code!;
  const status =
    code === '23505' || code === '23503' ? 409 : code === '42501' ? 403 : /^(22|23)/.test(code) ? 400 : 500;
  if (status === 500) return undefined;
  return new RestError(status, code, err.message, err.detail ?? null, null);
}

export function createProfilesHandler(deps: { db: Db; keys: SigningKeys }): Handler {
  const { db, keys } = deps;

  async function select(req: Req, role: Role): Promise<Reply> {
    const columns = parseSelect(req.query.get('select'));
    const filters = parseFilters(req.query);
    const order = parseOrder(req.query.get('order'));
    const limit = parseIntParam(req.query.get('limit'), 'limit');
    const offset = parseIntParam(req.query.get('offset'), 'offset');
    const params: unknown[] = [];
    const p = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    const where = filters.map((f) => f.sql(p));
    if (!readsOnlyPublic(columns, filters, order)) {
      if (role.kind === 'anon') throw permissionDenied(role);
      where.push(`id = ${p(role.sub)}`);
    }
    let sql = `SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM profiles`;
    if (where.length) sql += ` WHERE ${where.join(' AND ')}`;
    if (order.length) sql += ` ORDER BY ${order.map((o) => `"${o.column}" ${o.dir}`).join(', ')}`;
    if (limit !== undefined) sql += ` LIMIT ${limit}`;
    if (offset !== undefined) sql += ` OFFSET ${offset}`;
    const rows = await db.query<Record<string, unknown>>(sql, params);
    const strip = stripNulls(req.headers);
    const reply = rowsReply(200, rows.map((r) => rowJson(r, columns, strip)), req.headers);
    if (preferences(req.headers).get('count') === 'exact') {
      const countSql = `SELECT count(*)::int AS n FROM profiles${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
      const [{ n }] = await db.query<{ n: number }>(countSql, params);
      const first = offset ?? 0;
      reply.headers = {
        ...reply.headers,
        'Content-Range': rows.length ? `${first}-${first + rows.length - 1}/${n}` : `*/${n}`,
      };
    }
    return reply;
  }

  function writableRow(input: unknown, allowed: Set<string> | undefined): Record<string, unknown> {
    if (!input || typeof input !== 'object' || Array.isArray(input)) {
      throw new RestError(400, 'PGRST102', 'Empty or invalid json');
    }
    const row: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(input)) {
      if (!WRITABLE.has(k)) {
        throw new RestError(400, 'PGRST204', `Could not find the '${k}' column of 'profiles' in the schema cache`);
      }
      if (allowed && !allowed.has(k)) continue;
      row[k] = v;
    }
    return row;
  }

  function parseBody(req: Req): unknown {
    try {
      return JSON.parse(req.body.toString('utf8') || 'null');
    } catch {
      throw new RestError(400, 'PGRST102', 'Empty or invalid json');
    }
  }

  async function insert(req: Req, role: Role): Promise<Reply> {
    if (role.kind === 'anon') throw permissionDenied(role);
    const prefer = preferences(req.headers);
    const onConflict = req.query.get('on_conflict');
    if (onConflict !== null && onConflict !== 'id') {
      throw new RestError(400, '42P10', 'there is no unique or exclusion constraint matching the ON CONFLICT specification');
    }
    const resolution = prefer.get('resolution');
    const columnsParam = req.query.get('columns');
    const allowed = columnsParam ? new Set(columnsParam.split(',').map((c) => c.trim().replace(/^"(.*)"$/, '$1'))) : undefined;
    if (allowed) for (const c of allowed) if (!WRITABLE.has(c)) throw unknownColumn(c);
    const body = parseBody(req);
    const inputs = Array.isArray(body) ? body : [body];
    const rows = inputs.map((i) => writableRow(i, allowed));
    for (const row of rows) {
      if (row.id === undefined) row.id = role.sub;
      if (row.id !== role.sub) throw rlsViolation();
    }
    const results = await db.transaction(async (tx: Queryable) => {
      const out: Record<string, unknown>[] = [];
      for (const row of rows) {
        const cols = Object.keys(row);
        const params = cols.map((c) => row[c]);
        const updates = cols.filter((c) => c !== 'id' && c !== 'created_at').map((c) => `"${c}" = EXCLUDED."${c}"`);
        if (!cols.includes('updated_at')) updates.push('updated_at = now()');
        let sql = `INSERT INTO profiles (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`;
        if (resolution === 'merge-duplicates') sql += ` ON CONFLICT (id) DO UPDATE SET ${updates.join(', ')}`;
        else if (resolution === 'ignore-duplicates') sql += ' ON CONFLICT (id) DO NOTHING';
        sql += ' RETURNING *, (xmax = 0) AS inserted';
        out.push(...(await tx.query<Record<string, unknown>>(sql, params)));
      }
      return out;
    });
    const status = results.every((r) => r.inserted) ? 201 : 200;
    if (prefer.get('return') === 'representation') {
      const strip = stripNulls(req.headers);
      return rowsReply(status, results.map((r) => rowJson(r, parseSelect(req.query.get('select')), strip)), req.headers);
    }
    return { status, headers: { 'Content-Range': '*/*' } };
  }

  async function update(req: Req, role: Role): Promise<Reply> {
    if (role.kind === 'anon') throw permissionDenied(role);
    const prefer = preferences(req.headers);
    const filters = parseFilters(req.query);
    const row = writableRow(parseBody(req), undefined);
    if (row.id !== undefined && row.id !== role.sub) throw rlsViolation();
    const cols = Object.keys(row);
    if (cols.length === 0) return { status: 204 };
    const params: unknown[] = [];
    const p = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    const sets = cols.map((c) => `"${c}" = ${p(row[c])}`);
    if (!cols.includes('updated_at')) sets.push('updated_at = now()');
    const where = [...filters.map((f) => f.sql(p)), `id = ${p(role.sub)}`];
    const rows = await db.query<Record<string, unknown>>(
      `UPDATE profiles SET ${sets.join(', ')} WHERE ${where.join(' AND ')} RETURNING *`,
      params,
    );
    if (prefer.get('return') === 'representation') {
      const strip = stripNulls(req.headers);
      return rowsReply(200, rows.map((r) => rowJson(r, parseSelect(req.query.get('select')), strip)), req.headers);
    }
    return { status: 204, headers: { 'Content-Range': rows.length ? `0-${rows.length - 1}/*` : '*/*' } };
  }

  return async (req: Req): Promise<Reply> => {
    try {
      const table = req.path.replace(/^\/rest\/v1\/?/, '').replace(/\/+$/, '');
      if (table !== 'profiles') {
        throw new RestError(404, 'PGRST205', `Could not find the table 'public.${table}' in the schema cache`);
      }
      const role = await roleOf(keys, req.headers);
      switch (req.method) {
        case 'GET':
        case 'HEAD':
          return await select(req, role);
        case 'POST':
          return await insert(req, role);
        case 'PATCH':
          return await update(req, role);
        default:
          throw permissionDenied(role);
      }
    } catch (err) {
      if (err instanceof RestError) return restErrorReply(err);
      const mapped = pgErrorToRest(err);
      if (mapped) return restErrorReply(mapped);
      throw err;
    }
  };
}

export function restInternalError(): Reply {
  return json(500, { code: 'PGRST000', details: null, hint: null, message: 'Internal server error' });
}

/** PostgREST's answer while it cannot reach its database. */
export function restUnavailable(): Reply {
  return json(503, { code: 'PGRST000', details: null, hint: null, message: 'Could not connect with the database' });
}
