import { useNavigate } from 'react-router-dom';
import { Page } from '../components/Page';
import { NOTIFIED_EVENTS, requestNotificationPermission, showNotification } from '../app/notifications';
import { markNotificationPageSeen, saveNotificationSettings } from '../app/storage';

export default function NotificationPermission() {
  const navigate = useNavigate();
  const onOk = async () => {
    markNotificationPageSeen();
    saveNotificationSettings({ optedOut: false });
    const granted = await requestNotificationPermission();
    navigate('/');
    if (granted) {
      setTimeout(() => showNotification('Notifications enabled!', 'You will now receive notifications for your games.'), 1000);
    }
  };
  const onNo = () => {
    markNotificationPageSeen();
    saveNotificationSettings({ optedOut: true });
    navigate('/');
  };
  return (
    <Page narrow>
      <section className="card">
        <h1>Get notified when it's your move</h1>
        <div className="notification-preview" aria-label="Sample notification">
          <strong>Your Move!</strong>
          <span>SwiftKnight42 played Nf3. It's your turn.</span>
        </div>
        <p>While the site is in another tab or window, we'll let you know when:</p>
        <ul className="reasons">
          {NOTIFIED_EVENTS.map((e) => <li key={e}>{e}</li>)}
        </ul>
        <div className="stack">
          <button type="button" className="btn btn-primary" onClick={onOk}>Ok</button>
          <button type="button" className="btn btn-secondary" onClick={onNo}>No, thank you</button>
        </div>
        <p className="note">You can change this later in Settings, or in your browser's site settings.</p>
      </section>
    </Page>
  );
}
