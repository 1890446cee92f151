import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { useSelector } from '@xstate/react';
import { Page } from '../../components/Page';
import { errorMessage } from '../../app/auth';
import { getIdentity } from '../../app/services';
import { safeReturnUrl, withReturn } from '../GuestEntry';
import { requireAuthClient } from './useAuthClient';
import { AddressKind, PhoneCodeStep, PhoneField, phoneValue } from './PhoneCode';

export default function Login() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [kind, setKind] = useState<'email' | 'phone'>('email');
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState('');
  /** a number that is not confirmed yet: its code step */
  const [codeFor, setCodeFor] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const queryError = params.get('error_description') || (params.get('error') ? params.get('error') : null);
  const [error, setError] = useState<string | null>(queryError);
  const valid = (kind === 'email' ? email.trim() !== '' : phone.replace(/[^\d]/g, '') !== '') && password !== '';
  const returnUrl = safeReturnUrl(params.get('returnUrl'));
  const signedIn = useSelector(getIdentity(), (s) => s.context.user !== null);
  const [resent, setResent] = useState<string | null>(null);
  const unconfirmed = !!error && /not confirmed/i.test(error);

  const resend = async () => {
    try {
      const client = await requireAuthClient();
      const { error: err } = await client.auth.resend({ type: 'signup', email: email.trim(), options: { emailRedirectTo: `${location.origin}/auth/callback?type=signup` } });
      if (err) throw err;
      setResent(`A new confirmation email is on its way to ${email.trim()}.`);
    } catch (err) {
      setResent(errorMessage(err, 'Could not send the confirmation email'));
    }
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!valid) { setError(kind === 'email' ? 'Please enter both email and password' : 'Please enter both phone number and password'); return; }
    setBusy(true);
    setError(null);
    try {
      const client = await requireAuthClient();
      const credentials = kind === 'email' ? { email: email.trim(), password } : { phone: phoneValue(phone), password };
      const { error: err } = await client.auth.signInWithPassword(credentials);
      if (err && kind === 'phone' && (err as { code?: string }).code === 'phone_not_confirmed') {
        setBusy(false);
        setCodeFor(phoneValue(phone));
        return;
      }
      if (err) throw err;
      navigate(returnUrl, { replace: true });
    } catch (err) {
      setError(errorMessage(err, 'An error occurred during login'));
      setBusy(false);
    }
  };

  // a signed-in player has nothing to do here
  if (signedIn && !busy) return <Navigate to={returnUrl} replace />;

  return (
    <Page narrow>
      <section className="card">
        <h1>Sign In</h1>
        {codeFor ? <PhoneCodeStep phone={codeFor} sent={false} onVerified={() => navigate(returnUrl, { replace: true })} /> : (
        <>
        <AddressKind kind={kind} onChange={(k) => { setKind(k); setError(null); }} />
        <form onSubmit={onSubmit} noValidate>
          {kind === 'email'
            ? <label>Email<input type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required /></label>
            : <PhoneField value={phone} onChange={setPhone} />}
          <label>Password<input type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required /></label>
          {error && <p className="error" role="alert">{error}</p>}
          {unconfirmed && email.trim() && (
            <p><button type="button" className="btn btn-link" onClick={resend}>Resend confirmation email</button></p>
          )}
          {resent && <p className="info" role="status">{resent}</p>}
          <button type="submit" className="btn btn-primary" disabled={!valid || busy}>{busy ? 'Signing In...' : 'Sign In'}</button>
        </form>
        </>
        )}
        <p className="links"><Link to="/forgot-password">Forgot password?</Link></p>
        <p className="links">Don't have an account? <Link to={withReturn('/register', returnUrl)}>Sign up</Link></p>
        <p className="links"><Link to="/">Back to Home</Link></p>
      </section>
    </Page>
  );
}
