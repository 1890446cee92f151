/** "Complete Your Profile" (docs/product.md, Validation and messages). */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { SupabaseClient } from '@supabase/supabase-js';
import { Page } from '../../components/Page';
import { Spinner } from '../../components/Spinner';
import { errorMessage, loadAuthClient } from '../../app/auth';
import {
  defaultUsernameFromEmail, PROFILE_TEXT, profileSubmitDisabled, usernameError, usernameLookupPattern, type AvailabilityState,
} from '../../../../machines/client/username';

export const USERNAME_CHECK_DEBOUNCE_MS = 300;

export default function ProfileSetup() {
  const navigate = useNavigate();
  const [client, setClient] = useState<SupabaseClient | null>(null);
  const [userId, setUserId] = useState<string | null>(null);
  const [username, setUsername] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [availability, setAvailability] = useState<AvailabilityState>('idle');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const checkSeq = useRef(0);

  useEffect(() => {
    let live = true;
    (async () => {
      const c = await loadAuthClient();
      const { data } = c ? await c.auth.getUser() : { data: { user: null } };
      if (!live) return;
      const user = data.user;
      if (!c || !user || user.is_anonymous) { navigate('/login', { replace: true }); return; }
      setClient(c);
      setUserId(user.id);
      const meta = (user.user_metadata ?? {}) as Record<string, string | undefined>;
      // the form is usable before this resolves: fill only what the user has not typed yet
      setUsername((typed) => typed || meta.username || defaultUsernameFromEmail(user.email));
      setFirstName((typed) => typed || (meta.first_name ?? ''));
      setLastName((typed) => typed || (meta.last_name ?? ''));
    })().catch((err) => { console.error(err); if (live) navigate('/login', { replace: true }); });
    return () => { live = false; };
  }, [navigate]);

  // debounced availability check, only for valid usernames
  useEffect(() => {
    if (!client || !userId || usernameError(username)) { setAvailability('idle'); return; }
    const seq = ++checkSeq.current;
    setAvailability('checking');
    const t = setTimeout(async () => {
      // other accounts' ids are not readable: a match is taken unless it is this account's own username
      const [matches, own] = await Promise.all([
        client.from('profiles').select('username').ilike('username', usernameLookupPattern(username)),
        client.from('profiles').select('username').eq('id', userId).maybeSingle(),
      ]);
      if (seq !== checkSeq.current) return;
      if (matches.error || own.error) { setAvailability('error'); return; }
      const mine = (own.data as { username: string | null } | null)?.username ?? null;
      setAvailability((matches.data ?? []).some((row: { username: string }) => row.username !== mine) ? 'taken' : 'available');
    }, USERNAME_CHECK_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [client, userId, username]);

  const fieldError = client ? usernameError(username) : null;
  const disabled = profileSubmitDisabled({ username, firstName, lastName }, busy, availability) || !client;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const uErr = usernameError(username);
    if (uErr) { setError(uErr); return; }
    if (!firstName.trim() || !lastName.trim()) { setError(PROFILE_TEXT.fillAll); return; }
    if (!client || !userId) { setError(PROFILE_TEXT.notAuthenticated); return; }
    setBusy(true);
    setError(null);
    try {
      const row = { id: userId, username, first_name: firstName.trim(), last_name: lastName.trim(), updated_at: new Date().toISOString() };
      const { error: upErr } = await client.from('profiles').upsert(row, { onConflict: 'id' });
      if (upErr) {
        if (upErr.code === '23505') throw new Error(PROFILE_TEXT.takenOnSubmit);
        throw upErr;
      }
      const { error: metaErr } = await client.auth.updateUser({ data: { username, first_name: row.first_name, last_name: row.last_name } });
      if (metaErr) throw metaErr;
      navigate('/notifications');
    } catch (err) {
      setError(errorMessage(err, PROFILE_TEXT.saveFailed));
      setBusy(false);
    }
  };

  return (
    <Page narrow>
      <section className="card">
        <h1>Complete Your Profile</h1>
        <form onSubmit={onSubmit} noValidate>
          <label>
            Username
            <span className="input-with-icon">
              <input value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="username" aria-describedby="username-status" required />
              <span className="field-icon" aria-hidden="true">
                {availability === 'checking' && <Spinner small />}
                {availability === 'available' && <span className="ok">✓</span>}
                {(availability === 'taken' || fieldError) && <span className="bad">✗</span>}
              </span>
            </span>
          </label>
          <p id="username-status" className={availability === 'available' ? 'success' : 'hint'} aria-live="polite">
            {fieldError ?? (availability === 'taken' ? PROFILE_TEXT.taken : availability === 'available' ? PROFILE_TEXT.available : '')}
          </p>
          <label>First Name<input value={firstName} onChange={(e) => setFirstName(e.target.value)} autoComplete="given-name" required /></label>
          <label>Last Name<input value={lastName} onChange={(e) => setLastName(e.target.value)} autoComplete="family-name" required /></label>
          {error && <p className="error" role="alert">{error}</p>}
          <button type="submit" className="btn btn-primary" disabled={disabled}>{busy ? 'Saving...' : 'Complete Profile'}</button>
        </form>
      </section>
    </Page>
  );
}
