/**
 * /rest/v1/profiles driven by the real supabase-js (postgrest-js) client: the contract's table,
 * the row rules for owner / another user / anonymous, and PostgREST-shaped errors.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SignJWT, importJWK, type JWK } from 'jose';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { BACKENDS, startAccountsServer, uniqueEmail, type TestServer } from './harness';
import { usernameLookupPattern } from '../../machines/client/username';

let n = 0;
const uname = (tag = 'p') => `${tag}_${Date.now().toString(36).slice(-6)}${(n++).toString(36)}`;

describe.each(BACKENDS)('profiles on %s', (backend) => {
  let s: TestServer;
  let alice: { c: SupabaseClient; id: string; token: string };
  let bob: { c: SupabaseClient; id: string; token: string };
  let anon: SupabaseClient;

  async function signedIn() {
    const c = s.client();
    const { data, error } = await c.auth.signUp({ email: uniqueEmail(), password: 'secret123' });
    if (error) throw error;
    await c.auth.setSession(data.session!);
    return { c, id: data.user!.id, token: data.session!.access_token };
  }

  beforeAll(async () => {
    s = await startAccountsServer({ backend, autoconfirm: true });
    [alice, bob] = [await signedIn(), await signedIn()];
    anon = s.client();
  }, 180_000);
  afterAll(async () => {
    await s?.destroy();
  });

  test('upsert own row: 201 inserted, then 200 merged; select("*").single() reads it back', async () => {
    const username = uname('alice');
    const ins = await alice.c.from('profiles').upsert({ id: alice.id, username, first_name: 'Alice', last_name: 'A' }, { onConflict: 'id' });
    expect(ins.error).toBeNull();
    expect(ins.status).toBe(201);
    expect(ins.data).toBeNull();
    const merged = await alice.c.from('profiles').upsert({ id: alice.id, last_name: 'Liddell' }, { onConflict: 'id' });
    expect(merged.error).toBeNull();
    expect(merged.status).toBe(200);
    const { data, error, status } = await alice.c.from('profiles').select('*').eq('id', alice.id).single();
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toMatchObject({ id: alice.id, username, first_name: 'Alice', last_name: 'Liddell' });
    expect(new Date(data!.created_at).toISOString()).toBe(data!.created_at);
    expect(Date.parse(data!.updated_at)).toBeGreaterThanOrEqual(Date.parse(data!.created_at));
  });

  test('upsert with return=representation gives the rows', async () => {
    const username = uname('bob');
    const { data, error, status } = await bob.c
      .from('profiles')
      .upsert({ id: bob.id, username, first_name: 'Bob', last_name: 'B' }, { onConflict: 'id' })
      .select();
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(data).toEqual([expect.objectContaining({ id: bob.id, username, first_name: 'Bob', last_name: 'B' })]);
  });

  test('existence check select("id").eq().maybeSingle(): the row, or null for none (anonymous too)', async () => {
    const mine = await anon.from('profiles').select('id').eq('id', alice.id).maybeSingle();
    expect(mine).toMatchObject({ error: null, status: 200, data: { id: alice.id } });
    const none = await anon.from('profiles').select('id').eq('id', '00000000-0000-4000-8000-000000000000').maybeSingle();
    expect(none).toMatchObject({ error: null, status: 200, data: null });
  });

  test('username availability: select("username").eq("username", n) for anyone', async () => {
    const { data: row } = await alice.c.from('profiles').select('username').eq('id', alice.id).single();
    const taken = await anon.from('profiles').select('username').eq('username', row!.username);
    expect(taken).toMatchObject({ error: null, status: 200, data: [{ username: row!.username }] });
    const free = await bob.c.from('profiles').select('username').eq('username', uname('free'));
    expect(free).toMatchObject({ error: null, data: [] });
  });

  test('single() with no row: 406 PGRST116', async () => {
    const { data, error, status } = await alice.c
      .from('profiles')
      .select('*')
      .eq('id', '00000000-0000-4000-8000-000000000000')
      .single();
    expect(status).toBe(406);
    expect(data).toBeNull();
    expect(error).toMatchObject({
      code: 'PGRST116',
      message: 'Cannot coerce the result to a single JSON object',
      details: 'The result contains 0 rows',
      hint: null,
    });
  });

  test('another user reads only id and username of my row; the rest is hidden as by RLS', async () => {
    const other = await bob.c.from('profiles').select('*').eq('id', alice.id).single();
    expect(other.status).toBe(406);
    const list = await bob.c.from('profiles').select('id, first_name').in('id', [alice.id, bob.id]);
    expect(list.error).toBeNull();
    expect(list.data).toEqual([{ id: bob.id, first_name: 'Bob' }]);
    const pub = await bob.c.from('profiles').select('id, username').eq('id', alice.id).single();
    expect(pub.error).toBeNull();
    expect(Object.keys(pub.data!)).toEqual(['id', 'username']);
  });

  test('no list of account ids: anonymous select=id,username is refused, a signed-in one sees only its own id', async () => {
    const anonList = await fetch(`${s.url}/rest/v1/profiles?select=id,username`, { headers: { apikey: s.anonKey } });
    expect(anonList.status).toBe(401);
    expect(await anonList.text()).not.toContain(alice.id);
    const viaClient = await anon.from('profiles').select('id, username');
    expect(viaClient.status).toBe(401);
    const ordered = await anon.from('profiles').select('username').order('id');
    expect(ordered.status).toBe(401);
    const byPattern = await anon.from('profiles').select('id').ilike('username', '*');
    expect(byPattern.status).toBe(401);
    const bobsList = await bob.c.from('profiles').select('id, username');
    expect(bobsList.error).toBeNull();
    expect(bobsList.data!.map((r) => r.id)).toEqual([bob.id]);
    const names = await anon.from('profiles').select('username');
    expect(names.error).toBeNull();
    expect(JSON.stringify(names.data)).not.toContain(alice.id);
  });

  test('anonymous select of private columns: 401 42501', async () => {
    const { error, status } = await anon.from('profiles').select('*').eq('id', alice.id);
    expect(status).toBe(401);
    expect(error?.code).toBe('42501');
  });

  test('writing somebody else: insert 403 42501; update matches nothing (204) and changes nothing', async () => {
    const ins = await bob.c.from('profiles').upsert({ id: alice.id, username: uname('hijack') }, { onConflict: 'id' });
    expect(ins.status).toBe(403);
    expect(ins.error?.code).toBe('42501');
    const upd = await bob.c.from('profiles').update({ first_name: 'Mallory' }).eq('id', alice.id);
    expect(upd.error).toBeNull();
    expect(upd.status).toBe(204);
    const { data } = await alice.c.from('profiles').select('first_name').eq('id', alice.id).single();
    expect(data?.first_name).toBe('Alice');
  });

  test('anonymous writes: 401 42501', async () => {
    const ins = await anon.from('profiles').upsert({ id: alice.id, username: uname('anon') }, { onConflict: 'id' });
    expect(ins.status).toBe(401);
    expect(ins.error?.code).toBe('42501');
    const upd = await anon.from('profiles').update({ first_name: 'X' }).eq('id', alice.id);
    expect(upd.status).toBe(401);
    expect(upd.error?.code).toBe('42501');
  });

  test('update own row with eq filter: 204 and the change is visible', async () => {
    const upd = await alice.c.from('profiles').update({ first_name: 'Alicia' }).eq('id', alice.id);
    expect(upd.status).toBe(204);
    expect(upd.error).toBeNull();
    const { data } = await alice.c.from('profiles').select('first_name').eq('id', alice.id).single();
    expect(data?.first_name).toBe('Alicia');
  });

  test('a taken username: 409 23505', async () => {
    const { data: a } = await alice.c.from('profiles').select('username').eq('id', alice.id).single();
    const dup = await bob.c.from('profiles').upsert({ id: bob.id, username: a!.username }, { onConflict: 'id' });
    expect(dup.status).toBe(409);
    expect(dup.error?.code).toBe('23505');
    expect(dup.error?.message).toContain('profiles_username_key');
    const dup2 = await bob.c.from('profiles').update({ username: a!.username }).eq('id', bob.id);
    expect(dup2.status).toBe(409);
    expect(dup2.error?.code).toBe('23505');
  });

  test('usernames are unique whatever their case; the availability check finds another case; the typed case is kept', async () => {
    const name = `Case_${Date.now().toString(36).slice(-6)}${(n++).toString(36)}`;
    const carol = await signedIn();
    expect((await carol.c.from('profiles').upsert({ id: carol.id, username: name }, { onConflict: 'id' })).error).toBeNull();
    const shouted = await bob.c.from('profiles').upsert({ id: bob.id, username: name.toUpperCase() }, { onConflict: 'id' });
    expect(shouted.status).toBe(409);
    expect(shouted.error?.code).toBe('23505');
    // the check the profile page makes before submitting
    const { data: found } = await anon.from('profiles').select('username').ilike('username', usernameLookupPattern(name.toLowerCase()));
    expect(found).toEqual([{ username: name }]);
    // "_" in a name is a letter to the check, not a wildcard
    const { data: none } = await anon.from('profiles').select('username').ilike('username', usernameLookupPattern(name.replace('_', 'x')));
    expect(none).toEqual([]);
  });

  test('a username outside ^[A-Za-z0-9_]{3,20}$: 400 23514', async () => {
    for (const bad of ['ab', 'has space', 'x'.repeat(21), 'ümlaut']) {
      const r = await alice.c.from('profiles').update({ username: bad }).eq('id', alice.id);
      expect(r.status).toBe(400);
      expect(r.error?.code).toBe('23514');
    }
  });

  test('an unknown column: 400 PGRST204 on writes, 42703 on reads', async () => {
    const w = await alice.c.from('profiles').upsert({ id: alice.id, nickname: 'x' } as never, { onConflict: 'id' });
    expect(w.status).toBe(400);
    expect(w.error?.code).toBe('PGRST204');
    const r = await alice.c.from('profiles').select('nickname').eq('id', alice.id);
    expect(r.status).toBe(400);
    expect(r.error?.code).toBe('42703');
  });

  test('JWT errors: expired 401 PGRST303, foreign/garbage 401 PGRST301', async () => {
    const jwk = JSON.parse(readFileSync(join(s.dataDir, 'jwt-private-key.json'), 'utf8')) as JWK;
    const key = await importJWK(jwk, 'ES256');
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ role: 'authenticated', sub: alice.id, aud: 'authenticated' })
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(key);
    const get = (token: string) =>
      fetch(`${s.url}/rest/v1/profiles?select=id`, { headers: { apikey: s.anonKey, Authorization: `Bearer ${token}` } });
    const e1 = await get(expired);
    expect(e1.status).toBe(401);
    expect(await e1.json()).toMatchObject({ code: 'PGRST303', message: 'JWT expired' });
    const e2 = await get('not.a.jwt');
    expect(e2.status).toBe(401);
    expect(((await e2.json()) as { code: string }).code).toBe('PGRST301');
  });

  test('malformed requests get a 4xx with a PostgREST error and change nothing', async () => {
    const auth = { apikey: s.anonKey, Authorization: `Bearer ${alice.token}`, 'Content-Type': 'application/json' };
    const cases: [string, RequestInit][] = [
      ['/rest/v1/profiles?id=eq.not-a-uuid', { headers: auth }],
      ['/rest/v1/profiles?id=like.x', { headers: auth }],
      ['/rest/v1/profiles?id=in.nope', { headers: auth }],
      ['/rest/v1/profiles?select=id,,username', { headers: auth }],
      ['/rest/v1/profiles?limit=-1', { headers: auth }],
      ['/rest/v1/profiles?order=nope.desc', { headers: auth }],
      ['/rest/v1/profiles?on_conflict=id', { method: 'POST', headers: auth, body: '{"id":' }],
      ['/rest/v1/profiles?on_conflict=id', { method: 'POST', headers: auth, body: '[1,2]' }],
      ['/rest/v1/profiles?on_conflict=username', { method: 'POST', headers: auth, body: '{}' }],
      [`/rest/v1/profiles?id=eq.${alice.id}`, { method: 'PATCH', headers: auth, body: '"str"' }],
      [`/rest/v1/profiles?id=eq.${alice.id}`, { method: 'PATCH', headers: auth, body: '{"username":{"a":1}}' }],
      [`/rest/v1/profiles?id=eq.${alice.id}`, { method: 'PATCH', headers: auth, body: '{"created_at":"yesterday-ish"}' }],
    ];
    for (const [path, init] of cases) {
      const r = await fetch(s.url + path, init);
      expect(r.status, path).toBeGreaterThanOrEqual(400);
      expect(r.status, path).toBeLessThan(500);
      const body = (await r.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort(), path).toEqual(['code', 'details', 'hint', 'message']);
    }
    const { data } = await alice.c.from('profiles').select('first_name').eq('id', alice.id).single();
    expect(data?.first_name).toBe('Alicia');
  });

  test('HEAD (count only) answers headers and keeps the server healthy', async () => {
    const r = await anon.from('profiles').select('id', { count: 'exact', head: true }).eq('id', alice.id);
    expect(r.error).toBeNull();
    expect(r.status).toBe(200);
    expect(r.count).toBe(1);
    const all = await anon.from('profiles').select('id', { count: 'exact' }).in('id', [alice.id, bob.id]).limit(1);
    expect(all.data).toHaveLength(1);
    expect(all.count).toBe(2);
    const after = await anon.from('profiles').select('id').eq('id', alice.id);
    expect(after.data).toEqual([{ id: alice.id }]);
  });

  test('an unknown table: 404 PGRST205; delete is not granted', async () => {
    const r = await alice.c.from('secrets').select('*');
    expect(r.status).toBe(404);
    expect(r.error?.code).toBe('PGRST205');
    const d = await alice.c.from('profiles').delete().eq('id', alice.id);
    expect(d.status).toBe(403);
    expect(d.error?.code).toBe('42501');
    expect((await alice.c.from('profiles').select('id').eq('id', alice.id)).data).toHaveLength(1);
  });
});
