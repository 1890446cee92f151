/** Return from an email link (docs/product.md, Identity and storage). */
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Page } from '../../components/Page';
import { Spinner } from '../../components/Spinner';
import { initialHash, loadAuthClient } from '../../app/auth';
import { hasSeenNotificationPage, markNotificationPageSeen } from '../../app/storage';

export default function AuthCallback() {
  const navigate = useNavigate();
  const [params] = useSearchParams();

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const toLogin = (error: string, description: string) =>
      navigate(`/login?error=${encodeURIComponent(error)}&error_description=${encodeURIComponent(description)}`, { replace: true });
    (async () => {
      try {
        const hash = new URLSearchParams(initialHash.replace(/^#/, ''));
        if (hash.get('error')) {
          toLogin(hash.get('error') ?? 'unknown_error', hash.get('error_description') ?? '');
          return;
        }
        const client = await loadAuthClient();
        if (!client) throw new Error('Accounts are not available');
        const { data } = await client.auth.getSession();
        if (!live) return;
        if (!data.session) {
          toLogin('auth_error', 'Could not establish a session');
          return;
        }
        const type = params.get('type') ?? hash.get('type');
        if (type === 'signup') {
          const { error } = await client.auth.updateUser({ data: { email_verified: true } });
          if (error) console.error('could not mark the email verified', error);
        }
        const userId = data.session.user.id;
        timer = setTimeout(async () => {
          try {
            const { data: profile } = await client.from('profiles').select('username').eq('id', userId).maybeSingle();
            if (!live) return;
            if (!profile?.username) navigate('/profile-setup', { replace: true });
            else if (hasSeenNotificationPage()) navigate('/', { replace: true });
            else {
              markNotificationPageSeen();
              navigate('/notifications', { replace: true });
            }
          } catch (err) {
            console.error(err);
            if (live) toLogin('unknown_error', err instanceof Error ? err.message : 'Unknown error');
          }
        }, 1000);
      } catch (err) {
        console.error(err);
        if (live) toLogin('unknown_error', err instanceof Error ? err.message : 'Unknown error');
      }
    })();
    return () => { live = false; clearTimeout(timer); };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <Page narrow>
      <section className="card center">
        <Spinner />
        <h1>Processing authentication...</h1>
        <p>You'll be redirected in a moment.</p>
      </section>
    </Page>
  );
}
