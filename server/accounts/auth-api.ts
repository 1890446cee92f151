/**
 * The /auth/v1 endpoints: the subset of Supabase Auth (GoTrue) that @supabase/supabase-js uses.
 * Statuses, error codes and shapes follow what supabase-js expects (docs/accounts.md).
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { AuthError, authErrorReply, errors } from './auth-errors';
import type { AccountsConfig } from '../config/accounts';
import type { Db, Queryable } from './db';
import { json, parseJsonObject, bearerToken, type Handler, type Reply, type Req } from './http';
import type { SigningKeys } from './keys';
import type { Mailer } from './mail';
import { consumeToken, createLinkToken, createSmsCode, codeHash, sha256Hex, type TokenType } from './one-time-tokens';
import { passwordProblem, PASSWORD_MIN, type PasswordHasher } from './passwords';
import { AfterReply, LOCAL_LIMITS, SendInterval, type RequestLimiter, type RequestLimits } from './rate-limit';
import type { RedirectPolicy } from './redirect';
import { endSessions, issueSession, refreshSession, sessionExists, type SessionDeps } from './sessions';
import {
  confirmAddress,
  pendingUserJson,
  findUserByEmail,
  findUserById,
  findUserByPhone,
  identitiesOf,
  insertUser,
  userJson,
  type UserRow,
} from './users';

/** Thrown inside a sign-up's transaction to roll its stand-in rows back: the address has this account. */
class AddressTaken extends Error {
  constructor(readonly user: UserRow) {
    super('the address has an account');
  }
}

export interface AuthDeps {
  cfg: AccountsConfig;
  db: Db;
  keys: SigningKeys;
  hasher: PasswordHasher;
  mailer: Mailer;
  redirects: RedirectPolicy;
  sessions: SessionDeps;
  logger: Logger;
  /** where the work behind uniform answers runs (looking addresses up, sending mail) */
  afterReply: AfterReply;
  /** where the request limits are kept (default: this process; several nodes: shared in Redis) */
  limits?: RequestLimits;
  /** the wall clock of the least time between two e-mails (ms since the epoch) */
  now: () => number;
}

const EMAIL_RE = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;
const PHONE_RE = /^[1-9][0-9]{1,14}$/;

function normalizeEmail(v: unknown): string | undefined {
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  const email = v.trim().toLowerCase();
  if (email.length > 255 || !EMAIL_RE.test(email)) throw errors.validation('Unable to validate email address: invalid format');
  return email;
}

function normalizePhone(v: unknown): string | undefined {
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  const phone = v.replace(/[\s\-().]/g, '').replace(/^\+/, '');
  if (!PHONE_RE.test(phone)) throw errors.validation('Invalid phone number format (E.164 required)');
  return phone;
}

function metadataOf(v: unknown, maxBytes: number): Record<string, unknown> {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw errors.validation('data must be a JSON object');
  checkMetadataSize(v, maxBytes);
  return v as Record<string, unknown>;
}

/** user_metadata travels in every access token: an account may not grow it without bound. */
function checkMetadataSize(v: unknown, maxBytes: number): void {
  if (Buffer.byteLength(JSON.stringify(v)) > maxBytes) throw errors.validation(`User metadata is limited to ${maxBytes} bytes of JSON`);
}

function checkNewPassword(password: unknown): string {
  const problem = passwordProblem(password);
  if (problem === 'missing') throw errors.validation('Password is required');
  if (problem === 'short') throw errors.weakPassword(PASSWORD_MIN);
  if (problem === 'long') throw errors.validation('Password cannot be longer than 72 characters');
  return password as string;
}

export function createAuthHandler(deps: AuthDeps): Handler {
  const { cfg, db, keys, hasher, mailer, redirects, afterReply, now } = deps;
  /**
   * Sign-ups answered whose work is not done, by address (see signup): `written` once the account
   * is written (a sign-in waits for it), `done` once its confirmation is sent or known not to be
   * (the next sign-up for the address waits for it, so that it sees when the mail went).
   */
  const rl = cfg.rateLimits;
  const limits = deps.limits ?? LOCAL_LIMITS;
  const tokenLimiter = limits.limiter('token', rl.token, rl.windowMs);
  const sensitive = new Map<string, RequestLimiter>();
  const limit = async (endpoint: string, ip: string): Promise<void> => {
    let limiter = sensitive.get(endpoint);
    if (!limiter) sensitive.set(endpoint, (limiter = limits.limiter(endpoint, rl.sensitive, rl.windowMs)));
    if (!(await limiter.take(ip))) throw errors.overRequestRate();
  };
  const sendInterval = new SendInterval(rl.emailIntervalSeconds * 1000, now);
  const backoff = limits.loginBackoff(cfg.loginBackoff);

  const verifyLink = (token: string, type: string, redirectTo: string): string => {
    const q = new URLSearchParams({ token, type, redirect_to: redirectTo });
    return `${cfg.publicUrl}/auth/v1/verify?${q.toString()}`;
  };

  async function sendConfirmation(user: UserRow, redirectTo: string): Promise<void> {
    const token = await createLinkToken(db, user.id, 'confirmation', user.email!);
    const link = verifyLink(token, 'signup', redirectTo);
    await mailer.sendEmail({
      to: user.email!,
      subject: 'Confirm your signup',
      text: `Follow this link to confirm your account:\n\n${link}\n\nIf you did not sign up, ignore this email.`,
      html: `<h2>Confirm your signup</h2><p><a href="${link}">Confirm your email address</a></p>`,
      links: [link],
    });
    sendInterval.mark(`email:${user.email}`);
    await db.query('UPDATE users SET confirmation_sent_at = now() WHERE id = $1', [user.id]);
  }

  const smsFailures = new Map<string, number>();

  async function sendSmsCode(user: UserRow): Promise<void> {
    const code = await createSmsCode(db, user.id, user.phone!);
    smsFailures.delete(user.phone!);
    if (smsFailures.size > 10_000) smsFailures.clear();
    await mailer.sendSms(user.phone!, `Your code is ${code}`);
    sendInterval.mark(`phone:${user.phone}`);
    await db.query('UPDATE users SET confirmation_sent_at = now() WHERE id = $1', [user.id]);
  }

  async function currentUser(req: Req): Promise<{ user: UserRow; sessionId: string }> {
    const token = bearerToken(req.headers);
    if (!token) throw errors.noAuthorization();
    let payload;
    try {
      payload = await keys.verify(token);
    } catch (err) {
      throw errors.badJwt((err as Error).message);
    }
    if (typeof payload.sub !== 'string' || payload.role !== 'authenticated') throw errors.badJwt('missing sub claim');
    const sessionId = typeof payload.session_id === 'string' ? payload.session_id : '';
    if (!sessionId || !(await sessionExists(db, sessionId))) throw errors.sessionNotFound();
    const user = await findUserById(db, payload.sub);
    if (!user) throw new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
    return { user, sessionId };
  }

  const userReply = async (user: UserRow): Promise<Reply> => json(200, userJson(user, await identitiesOf(db, user.id)));

  // ---- endpoints -------------------------------------------------------------------------------

  /**
   * Sign-up. With confirmation required, every sign-up gets the same answer at the same speed
   * (one password hash, one account written or its stand-in rolled back, then a pending user with
   * a fresh id): whether the address was free, taken or waiting for confirmation is only acted on
   * after the answer (the mail).
   */
  async function signup(req: Req, body: Record<string, unknown>): Promise<Reply> {
    await limit('signup', req.ip);
    const email = normalizeEmail(body.email);
    const phone = email ? undefined : normalizePhone(body.phone);
    if (!email && !phone) throw errors.validation('To signup, please provide your email');
    const password = checkNewPassword(body.password);
    const data = metadataOf(body.data, cfg.userMetadataMaxBytes);
    const redirectTo = redirects.resolve(req.query.get('redirect_to'));
    if (phone && !cfg.autoconfirm && !mailer.canSendSms) throw errors.phoneProviderDisabled();
    const passwordHash = await hasher.hash(password);
    const address = { email: email ?? null, phone: phone ?? null };
    if (cfg.autoconfirm) {
      // Sign-up signs in at once here, so an address that is taken has to be said so.
      let user: UserRow;
      try {
        user = await insertUser(db, { ...address, passwordHash, userMetadata: data, confirmed: true });
      } catch (err) {
        if ((err as { code?: string }).code === '23505') throw errors.userExists();
        throw err;
      }
      return json(200, await issueSession(deps.sessions, user.id, 'password'));
    }
    const id = randomUUID();
    const { user, isNew } = await writeSignUp(id, address, passwordHash, data);
    // Whether this sign-up may send is decided as it is answered, not when its mail goes out (at a
    // random moment after the answer): two sign-ups of one address at once send one mail.
    const key = email ? `email:${email}` : `phone:${phone}`;
    const confirmed = !isNew && Boolean(email ? user.email_confirmed_at : user.phone_confirmed_at);
    // registered but unconfirmed: the confirmation goes again once the interval allows (the password is left alone)
    const mayMail = !confirmed && (isNew || sendInterval.waitSeconds(key, user.confirmation_sent_at) === 0);
    if (mayMail) sendInterval.mark(key);
    afterReply.run('sign-up', async () => {
      if (!mayMail) return;
      if (email) await sendConfirmation(user, redirectTo);
      else await sendSmsCode(user);
    });
    return json(200, pendingUserJson(id, address.email, address.phone, data));
  }

  /**
   * Writes a sign-up before it is answered, with the same work whatever the address: a new
   * address's account is inserted; for an address that has one, the same rows are inserted under
   * a stand-in address in a transaction that is rolled back. A database that cannot take the
   * account (its disk full) so refuses every sign-up alike, with 503, instead of answering 200
   * and creating nothing; and neither the answer nor its timing tells a taken address.
   */
  async function writeSignUp(
    id: string,
    address: { email: string | null; phone: string | null },
    passwordHash: string,
    data: Record<string, unknown>,
  ): Promise<{ user: UserRow; isNew: boolean }> {
    const find = (q: Queryable) => (address.email ? findUserByEmail(q, address.email) : findUserByPhone(q, address.phone!));
    try {
      const user = await db.transaction(async (tx) => {
        const existing = await find(tx);
        const written = await insertUser(tx, {
          id,
          ...(existing ? { email: `${id}@taken.invalid`, phone: null } : address),
          passwordHash,
          userMetadata: data,
          confirmed: false,
        });
        if (existing) throw new AddressTaken(existing);
        return written;
      });
      return { user, isNew: true };
    } catch (err) {
      if (err instanceof AddressTaken) return { user: err.user, isNew: false };
      if ((err as { code?: string }).code !== '23505') throw err;
      // the same address signed up twice at once: the other one's account stands
      const user = await find(db);
      if (!user) throw err;
      return { user, isNew: false };
    }
  }

  async function token(req: Req, body: Record<string, unknown>): Promise<Reply> {
    if (!(await tokenLimiter.take(req.ip))) throw errors.overRequestRate();
    const grant = req.query.get('grant_type');
    if (grant === 'refresh_token') {
      const presented = body.refresh_token;
      if (typeof presented !== 'string' || presented === '') throw errors.refreshNotFound();
      return json(200, await refreshSession(deps.sessions, presented));
    }
    if (grant !== 'password') throw errors.validation('unsupported_grant_type');
    const email = normalizeEmail(body.email);
    const phone = email ? undefined : normalizePhone(body.phone);
    if (typeof body.password !== 'string' || (!email && !phone)) throw errors.invalidCredentials();
    const account = email ? `email:${email}` : `phone:${phone}`;
    const locked = await backoff.waitSeconds(account);
    if (locked > 0) throw errors.accountLocked(locked);
    const user = email ? await findUserByEmail(db, email) : await findUserByPhone(db, phone!);
    const ok = await hasher.verify(user?.encrypted_password, body.password);
    if (!user || !ok) {
      await backoff.failed(account);
      throw errors.invalidCredentials();
    }
    await backoff.succeeded(account);
    if (email && !user.email_confirmed_at) throw errors.emailNotConfirmed();
    if (phone && !user.phone_confirmed_at) throw errors.phoneNotConfirmed();
    return json(200, await issueSession(deps.sessions, user.id, 'password'));
  }

  async function putUser(req: Req, body: Record<string, unknown>): Promise<Reply> {
    await limit('user', req.ip);
    const { user, sessionId } = await currentUser(req);
    const wantsEmail = normalizeEmail(body.email);
    const wantsPhone = normalizePhone(body.phone);
    if ((wantsEmail && wantsEmail !== user.email) || (wantsPhone && wantsPhone !== user.phone)) {
      throw errors.validation('Changing the email address or phone number is not supported by this server');
    }
    let updated = user;
    if (body.password !== undefined) {
      const password = checkNewPassword(body.password);
      if (await hasher.verify(user.encrypted_password, password)) throw errors.samePassword();
      const hash = await hasher.hash(password);
      [updated] = await db.query<UserRow>(
        'UPDATE users SET encrypted_password = $2, updated_at = now() WHERE id = $1 RETURNING *',
        [user.id, hash],
      );
      await endSessions(db, user.id, sessionId, 'others');
    }
    if (body.data !== undefined) {
      const patch = metadataOf(body.data, cfg.userMetadataMaxBytes);
      const merged: Record<string, unknown> = { ...updated.raw_user_meta_data };
      for (const [k, v] of Object.entries(patch)) {
        if (v === null) delete merged[k];
        else merged[k] = v;
      }
      checkMetadataSize(merged, cfg.userMetadataMaxBytes);
      [updated] = await db.query<UserRow>(
        'UPDATE users SET raw_user_meta_data = $2::jsonb, updated_at = now() WHERE id = $1 RETURNING *',
        [user.id, JSON.stringify(merged)],
      );
    }
    return userReply(updated);
  }

  async function logout(req: Req): Promise<Reply> {
    const { user, sessionId } = await currentUser(req);
    const scope = req.query.get('scope') ?? 'global';
    if (scope !== 'global' && scope !== 'local' && scope !== 'others') {
      throw errors.validation('scope must be one of global, local, others');
    }
    await endSessions(db, user.id, sessionId, scope);
    return { status: 204 };
  }

  /**
   * /recover, /resend and /otp answer the same, at the same speed, for an address with or without
   * an account: the answer depends only on the request and on this server's own send interval
   * for the address; looking the address up and sending happen after the answer.
   */
  function sendOnce(key: string, isEmail: boolean): void {
    const wait = sendInterval.waitSeconds(key);
    if (wait > 0) throw isEmail ? errors.overEmailRate(wait) : errors.overSmsRate(wait);
    sendInterval.mark(key);
  }

  async function recover(req: Req, body: Record<string, unknown>): Promise<Reply> {
    await limit('recover', req.ip);
    const email = normalizeEmail(body.email);
    if (!email) throw errors.validation('Password recovery requires an email');
    const redirectTo = redirects.resolve(req.query.get('redirect_to'));
    sendOnce(`recover:${email}`, true);
    afterReply.run('recovery email', async () => {
      const user = await findUserByEmail(db, email);
      if (!user) return;
      const token = await createLinkToken(db, user.id, 'recovery', email);
      const link = verifyLink(token, 'recovery', redirectTo);
      await mailer.sendEmail({
        to: email,
        subject: 'Reset your password',
        text: `Follow this link to reset the password for your account:\n\n${link}\n\nIf you did not ask for this, ignore this email.`,
        html: `<h2>Reset your password</h2><p><a href="${link}">Reset password</a></p>`,
        links: [link],
      });
      await db.query('UPDATE users SET recovery_sent_at = now() WHERE id = $1', [user.id]);
    });
    return json(200, {});
  }

  async function resend(req: Req, body: Record<string, unknown>): Promise<Reply> {
    await limit('resend', req.ip);
    const type = body.type;
    const redirectTo = redirects.resolve(req.query.get('redirect_to'));
    if (type === 'signup') {
      const email = normalizeEmail(body.email);
      if (!email) throw errors.validation('Resend requires an email');
      sendOnce(`email:${email}`, true);
      afterReply.run('confirmation email', async () => {
        const user = await findUserByEmail(db, email);
        if (user && !user.email_confirmed_at) await sendConfirmation(user, redirectTo);
      });
      return json(200, {});
    }
    if (type === 'sms') {
      const phone = normalizePhone(body.phone);
      if (!phone) throw errors.validation('Resend requires a phone number');
      if (!mailer.canSendSms) throw errors.phoneProviderDisabled();
      sendOnce(`phone:${phone}`, false);
      afterReply.run('OTP sms', async () => {
        const user = await findUserByPhone(db, phone);
        if (user && !user.phone_confirmed_at) await sendSmsCode(user);
      });
      return json(200, {});
    }
    throw errors.validation('Missing one of these types: signup, sms');
  }

  async function otp(req: Req, body: Record<string, unknown>): Promise<Reply> {
    await limit('otp', req.ip);
    const email = normalizeEmail(body.email);
    const phone = email ? undefined : normalizePhone(body.phone);
    if (!email && !phone) throw errors.validation('An email address or phone number is required');
    if (phone && !mailer.canSendSms) throw errors.phoneProviderDisabled();
    const redirectTo = redirects.resolve(req.query.get('redirect_to'));
    sendOnce(email ? `magiclink:${email}` : `phone:${phone}`, Boolean(email));
    afterReply.run(email ? 'magic link email' : 'OTP sms', async () => {
      const user = email ? await findUserByEmail(db, email) : await findUserByPhone(db, phone!);
      if (!user) return;
      if (!email) return sendSmsCode(user);
      const token = await createLinkToken(db, user.id, 'magiclink', email);
      const link = verifyLink(token, 'magiclink', redirectTo);
      await mailer.sendEmail({ to: email, subject: 'Your sign-in link', text: `Follow this link to sign in:\n\n${link}`, links: [link] });
    });
    return json(200, {});
  }

  const EMAIL_TYPES: Record<string, TokenType[]> = {
    signup: ['confirmation'],
    email: ['confirmation', 'magiclink'],
    magiclink: ['magiclink'],
    recovery: ['recovery'],
  };

  /** Consumes a link token or SMS code and starts a session; undefined when invalid or expired. */
  async function verifyToken(
    type: string,
    token: string,
    address?: { email?: string; phone?: string },
  ): Promise<Record<string, unknown> | undefined> {
    if (type === 'sms') {
      if (!address?.phone) return undefined;
      const hit = await consumeToken(db, codeHash(address.phone, token), ['phone_confirmation']);
      if (!hit) {
        // A 6-digit code can be guessed: after 5 wrong tries the live code for that number dies.
        const fails = (smsFailures.get(address.phone) ?? 0) + 1;
        smsFailures.set(address.phone, fails);
        if (fails >= 5) {
          smsFailures.delete(address.phone);
          await db.query(`DELETE FROM one_time_tokens WHERE token_type = 'phone_confirmation' AND relates_to = $1`, [
            address.phone,
          ]);
        }
        return undefined;
      }
      smsFailures.delete(address.phone);
      const user = await findUserById(db, hit.userId);
      if (!user || user.phone !== hit.relatesTo) return undefined;
      await confirmAddress(db, user, 'phone');
      return issueSession(deps.sessions, user.id, 'otp');
    }
    const types = EMAIL_TYPES[type];
    if (!types) return undefined;
    const hit = await consumeToken(db, sha256Hex(token), types);
    if (!hit) return undefined;
    if (address?.email && address.email !== hit.relatesTo) return undefined;
    const user = await findUserById(db, hit.userId);
    if (!user || user.email !== hit.relatesTo) return undefined;
    await confirmAddress(db, user, 'email');
    return issueSession(deps.sessions, user.id, hit.type === 'recovery' ? 'recovery' : hit.type === 'magiclink' ? 'otp' : 'email/signup');
  }

  async function verifyPost(req: Req, body: Record<string, unknown>): Promise<Reply> {
    await limit('verify', req.ip);
    const type = typeof body.type === 'string' ? body.type : '';
    const tokenHash = typeof body.token_hash === 'string' ? body.token_hash : undefined;
    const tokenValue = typeof body.token === 'string' ? body.token : undefined;
    if (!type) throw errors.validation('Verify requires a verification type');
    if (!tokenHash && !tokenValue) throw errors.validation('Verify requires a token or a token hash');
    const email = normalizeEmail(body.email);
    const phone = normalizePhone(body.phone);
    if (type === 'sms' && !phone) throw errors.validation('Only a phone number can be verified with type sms');
    const session = await verifyToken(type, (tokenHash ?? tokenValue)!, { email, phone });
    if (!session) throw errors.otpExpired();
    return json(200, session);
  }

  async function verifyGet(req: Req): Promise<Reply> {
    const redirectTo = redirects.resolve(req.query.get('redirect_to')).split('#')[0];
    const type = req.query.get('type') ?? '';
    const tokenValue = req.query.get('token') ?? '';
    const fail = (code: string, description: string): Reply => {
      const hash = new URLSearchParams({ error: 'access_denied', error_code: code, error_description: description });
      return { status: 303, headers: { Location: `${redirectTo}#${hash.toString()}` } };
    };
    try {
      await limit('verify', req.ip);
    } catch {
      return fail('over_request_rate_limit', 'Request rate limit reached');
    }
    const session = type && tokenValue && type !== 'sms' ? await verifyToken(type, tokenValue) : undefined;
    if (!session) return fail('otp_expired', 'Email link is invalid or has expired');
    const hash = new URLSearchParams({
      access_token: String(session.access_token),
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      refresh_token: String(session.refresh_token),
      token_type: 'bearer',
      type,
    });
    return { status: 303, headers: { Location: `${redirectTo}#${hash.toString()}` } };
  }

  const settings = () =>
    json(200, {
      external: { email: true, phone: mailer.canSendSms || cfg.autoconfirm, anonymous_users: false },
      disable_signup: false,
      mailer_autoconfirm: cfg.autoconfirm,
      phone_autoconfirm: cfg.autoconfirm,
      sms_provider: mailer.canSendSms ? 'dev-inbox' : '',
      saml_enabled: false,
    });

  return async (req: Req): Promise<Reply> => {
    try {
      const route = req.path.replace(/^\/auth\/v1/, '').replace(/\/+$/, '') || '/';
      const m = req.method;
      if (m === 'GET') {
        if (route === '/health') return json(200, { version: 'chess-accounts', name: 'GoTrue', description: 'Supabase-compatible auth (subset)' });
        if (route === '/settings') return settings();
        if (route === '/.well-known/jwks.json') return json(200, keys.jwks, { 'Cache-Control': 'public, max-age=600' });
        if (route === '/user') return userReply((await currentUser(req)).user);
        if (route === '/verify') return verifyGet(req);
      }
      const post: Record<string, (req: Req, body: Record<string, unknown>) => Promise<Reply>> = {
        '/signup': signup,
        '/token': token,
        '/logout': (r) => logout(r),
        '/recover': recover,
        '/resend': resend,
        '/verify': verifyPost,
        '/otp': otp,
      };
      if (m === 'POST' && post[route]) {
        const body = parseJsonObject(req.body);
        if (!body) throw errors.badJson();
        return await post[route](req, body);
      }
      if (m === 'PUT' && route === '/user') {
        const body = parseJsonObject(req.body);
        if (!body) throw errors.badJson();
        return await putUser(req, body);
      }
      const known = ['/health', '/settings', '/.well-known/jwks.json', '/user', '/verify', ...Object.keys(post)];
      throw known.includes(route) ? errors.methodNotAllowed() : errors.notFound();
    } catch (err) {
      if (err instanceof AuthError) return authErrorReply(err);
      throw err;
    }
  };
}
