import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Page } from '../../components/Page';
import { errorMessage } from '../../app/auth';
import { requireAuthClient } from './useAuthClient';
import { newPasswordError, PASSWORD_MISMATCH_TEXT, PASSWORD_RULE_TEXT } from './newPassword';
import { safeReturnUrl, withReturn } from '../GuestEntry';
import { AddressKind, PhoneCodeStep, PhoneField, phoneErrorText, phoneValue } from './PhoneCode';

/**
 * After a sign-up that waits for confirmation. The server answers a new address and one that
 * already has an account alike (so addresses cannot be probed) and mails only a new or
 * unconfirmed one: the page says both cases and promises no e-mail to the second.
 */
export function pendingText(email: string): string {
  return `If ${email} is new here, a link to confirm it is on its way: open it to finish creating your account. ` +
    'If the address already has an account, no e-mail is sent: sign in, or reset the password.';
}

/** A sign-up whose immediate sign-in worked with the password given: the address already had a confirmed account. */
export const existingAccountText = (email: string) => `${email} already has an account, and that is its password: you are signed in.`;

export default function Register() {
  const navigate = useNavigate();
  const returnUrl = safeReturnUrl(useSearchParams()[0].get('returnUrl'));
  const [kind, setKind] = useState<'email' | 'phone'>('email');
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState('');
  /** the number waiting for its SMS code */
  const [codeFor, setCodeFor] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [pending, setPending] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const mismatch = confirm !== '' && confirm !== password;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const address = kind === 'email' ? email.trim() : phone.replace(/[^\d]/g, '');
    if (!address || !password) { setError(kind === 'email' ? 'Please enter both email and password' : 'Please enter both phone number and password'); return; }
    const passwordError = newPasswordError(password, confirm);
    if (passwordError) { setError(passwordError); return; }
    setBusy(true);
    setError(null);
    try {
      const client = await requireAuthClient();
      if (kind === 'phone') {
        const number = phoneValue(phone);
        const { data, error: err } = await client.auth.signUp({ phone: number, password });
        if (err) throw err;
        if (data.session) {
          setSuccess('Registration successful! Setting up your profile...');
          timer.current = setTimeout(() => navigate('/profile-setup'), 1000);
        } else {
          setCodeFor(number);
        }
        return;
      }
      const { data, error: err } = await client.auth.signUp({
        email: email.trim(), password,
        options: { emailRedirectTo: `${location.origin}/auth/callback?type=signup`, data: { email_verified: false } },
      });
      if (err) throw err;
      if (data.session) {
        setSuccess('Registration successful! Setting up your profile...');
        timer.current = setTimeout(() => navigate('/profile-setup'), 1000);
      } else {
        // The sign-up is followed by an immediate sign-in. A new address cannot sign in before it
        // is confirmed, so one that can already had an account, and this is its password.
        const signIn = await client.auth.signInWithPassword({ email: email.trim(), password }).catch(() => null);
        if (signIn?.data.session) {
          setSuccess(existingAccountText(email.trim()));
          timer.current = setTimeout(() => navigate(returnUrl, { replace: true }), 1500);
        } else {
          setPending(email.trim());
        }
      }
    } catch (err) {
      setError(kind === 'phone' ? phoneErrorText(err, 'An error occurred during registration') : errorMessage(err, 'An error occurred during registration'));
      setBusy(false);
    }
  };

  return (
    <Page narrow>
      <section className="card">
        <h1>Create Account</h1>
        {codeFor ? <PhoneCodeStep phone={codeFor} onVerified={() => navigate('/profile-setup')} /> : (
        <>
        <AddressKind kind={kind} onChange={(k) => { setKind(k); setError(null); }} />
        <form onSubmit={onSubmit} noValidate>
          {kind === 'email'
            ? <label>Email<input type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required /></label>
            : <PhoneField value={phone} onChange={setPhone} />}
          <label>Password<input type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} required aria-describedby="pw-hint" /></label>
          <p id="pw-hint" className="hint">{PASSWORD_RULE_TEXT}</p>
          <label>Confirm Password<input type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} required /></label>
          {mismatch && <p className="error" role="alert">{PASSWORD_MISMATCH_TEXT}</p>}
          {error && <p className="error" role="alert">{error}</p>}
          {success && <p className="success" role="status">{success}</p>}
          {pending && (
            <div className="info" role="status" data-testid="signup-pending">
              <p>{pendingText(pending)}</p>
              <p className="row">
                <Link className="btn btn-primary" to={withReturn('/login', returnUrl)}>Sign in</Link>
                <Link className="btn" to="/forgot-password">Reset the password</Link>
              </p>
            </div>
          )}
          <button type="submit" className="btn btn-primary" disabled={busy || mismatch || !!success || !!pending}>{busy ? 'Creating Account...' : 'Create Account'}</button>
        </form>
        </>
        )}
        <p className="links">Already have an account? <Link to={withReturn('/login', returnUrl)}>Sign in</Link></p>
      </section>
    </Page>
  );
}
