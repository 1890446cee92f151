import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Page } from '../../components/Page';
import { errorMessage, loadAuthClient } from '../../app/auth';
import { safeReturnUrl } from '../GuestEntry';
import { NOT_CONFIGURED } from './useAuthClient';

export default function Login() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const queryError = params.get('error_description') || (params.get('error') ? params.get('error') : null);
  const [error, setError] = useState<string | null>(queryError);
  const valid = email.trim() !== '' && password !== '';

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!valid) { setError('Please enter both email and password'); return; }
    setBusy(true);
    setError(null);
    try {
      const client = await loadAuthClient();
      if (!client) throw new Error(NOT_CONFIGURED);
      const { error: err } = await client.auth.signInWithPassword({ email: email.trim(), password });
      if (err) throw err;
      navigate(safeReturnUrl(params.get('returnUrl')), { replace: true });
    } catch (err) {
      setError(errorMessage(err, 'An error occurred during login'));
      setBusy(false);
    }
  };

  return (
    <Page narrow>
      <section className="card">
        <h1>Sign In</h1>
        <form onSubmit={onSubmit} noValidate>
          <label>Email<input type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required /></label>
          <label>Password<input type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required /></label>
          {error && <p className="error" role="alert">{error}</p>}
          <button type="submit" className="btn btn-primary" disabled={!valid || busy}>{busy ? 'Signing In...' : 'Sign In'}</button>
        </form>
        <p className="links"><Link to="/forgot-password">Forgot password?</Link></p>
        <p className="links">Don't have an account? <Link to="/register">Sign up</Link></p>
        <p className="links"><Link to="/">Back to Home</Link></p>
      </section>
    </Page>
  );
}
