import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Page } from '../../components/Page';
import { errorMessage, initialHash } from '../../app/auth';
import { RESET_TEXT, resetLinkError } from './resetLink';
import { requireAuthClient } from './useAuthClient';
import { newPasswordError } from './newPassword';

export default function ResetPassword() {
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const linkError = resetLinkError(initialHash);
  const [error, setError] = useState<string | null>(linkError?.message ?? null);
  const [expired, setExpired] = useState(!!linkError?.expired);
  const [success, setSuccess] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  useEffect(() => {
    if (linkError) return;
    let live = true;
    (async () => {
      try {
        const client = await requireAuthClient();
        const { data, error: err } = await client.auth.getSession();
        if (err) throw err;
        if (live && !data.session) { setError(RESET_TEXT.noSession); setExpired(true); }
      } catch {
        if (live) { setError(RESET_TEXT.checkFailed); setExpired(true); }
      }
    })();
    return () => { live = false; };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!password) { setError('Please enter a new password'); return; }
    const passwordError = newPasswordError(password, confirm);
    if (passwordError) { setError(passwordError); return; }
    setBusy(true);
    setError(null);
    try {
      const client = await requireAuthClient();
      const { error: err } = await client.auth.updateUser({ password });
      if (err) throw err;
      // the reset link signed the player in: they go on signed in, not to the sign-in form
      setSuccess('Your password has been updated. You are signed in.');
      timer.current = setTimeout(() => navigate('/', { replace: true }), 2000);
    } catch (err) {
      setError(errorMessage(err, 'An error occurred while updating your password'));
      setBusy(false);
    }
  };

  return (
    <Page narrow>
      <section className="card">
        <h1>Set a New Password</h1>
        <form onSubmit={onSubmit} noValidate>
          <label>New Password<input type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} required /></label>
          <label>Confirm New Password<input type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} required /></label>
          {error && <p className="error" role="alert">{error}</p>}
          {success && <p className="success" role="status">{success}</p>}
          <button type="submit" className="btn btn-primary" disabled={busy || !!success}>{busy ? 'Updating...' : 'Update Password'}</button>
        </form>
        {expired && error && (
          <button type="button" className="btn" onClick={() => navigate('/forgot-password')}>Request a new reset link</button>
        )}
        <p className="links"><Link to="/login">Back to Login</Link></p>
      </section>
    </Page>
  );
}
