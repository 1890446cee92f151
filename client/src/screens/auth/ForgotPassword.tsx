import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Page } from '../../components/Page';
import { errorMessage } from '../../app/auth';
import { requireAuthClient } from './useAuthClient';

export default function ForgotPassword() {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim()) { setError('Please enter your email address'); return; }
    setBusy(true);
    setError(null);
    try {
      const client = await requireAuthClient();
      const { error: err } = await client.auth.resetPasswordForEmail(email.trim(), { redirectTo: `${location.origin}/reset-password` });
      if (err) throw err;
      setSent(true);
    } catch (err) {
      setError(errorMessage(err, 'An error occurred while sending reset link'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page narrow>
      <section className="card">
        <h1>Reset Password</h1>
        <p>Enter your email and we'll send you a link to reset your password.</p>
        <form onSubmit={onSubmit} noValidate>
          <label>Email<input type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required /></label>
          {error && <p className="error" role="alert">{error}</p>}
          {sent && <p className="success" role="status">Check your email for a link to reset your password.</p>}
          <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? 'Sending...' : 'Send Reset Link'}</button>
        </form>
        <p className="links">Remembered it? <Link to="/login">Back to Login</Link></p>
      </section>
    </Page>
  );
}
