import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Page } from '../components/Page';
import { getIdentity } from '../app/services';
import { generateNickname, makeGuest } from '../../../machines/client/nickname';

export function GuestEntry() {
  const [nickname, setNickname] = useState(() => generateNickname());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const returnUrl = safeReturnUrl(params.get('returnUrl'));

  const onContinue = () => {
    setBusy(true);
    setError(null);
    try {
      getIdentity().send({ type: 'GUEST_CREATED', guest: makeGuest(nickname) });
      navigate(returnUrl, { replace: true });
    } catch (err) {
      setError(err instanceof Error && err.message ? err.message : 'An error occurred');
      setBusy(false);
    }
  };

  return (
    <Page narrow>
      <section className="card">
        <h1>Play as Guest</h1>
        <p>Your guest nickname:</p>
        <p className="nickname" data-testid="guest-nickname" aria-live="polite">{nickname}</p>
        {error && <p className="error" role="alert">{error}</p>}
        <div className="stack">
          <button type="button" className="btn" onClick={() => setNickname(generateNickname())} disabled={busy}>Generate Another</button>
          <button type="button" className="btn btn-primary" onClick={onContinue} disabled={busy}>{busy ? 'Setting up...' : 'Continue as Guest'}</button>
        </div>
        <p className="links">
          Want to keep your games? <Link to={withReturn('/register', returnUrl)}>Register</Link> or <Link to={withReturn('/login', returnUrl)}>Login</Link>
        </p>
      </section>
    </Page>
  );
}

/** `path` carrying the page to come back to, unless that is the home page. */
export function withReturn(path: string, returnUrl: string): string {
  return returnUrl === '/' ? path : `${path}?returnUrl=${encodeURIComponent(returnUrl)}`;
}

/** Only same-site paths are followed. */
export function safeReturnUrl(v: string | null): string {
  return v && v.startsWith('/') && !v.startsWith('//') ? v : '/';
}
