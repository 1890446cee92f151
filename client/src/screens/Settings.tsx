/**
 * The settings page (docs/product.md, Settings): board and pieces, sound, premoves, move
 * confirmation on a phone, zen mode and game notifications. Each change applies at once and is
 * remembered on this device; signed in, the game settings are saved in the account too (the
 * notification choice stays with the device, whose browser holds the permission).
 */
import { useState } from 'react';
import { useSelector } from '@xstate/react';
import { Link } from 'react-router-dom';
import { Page } from '../components/Page';
import { ThemeFields } from '../components/GameTools';
import { setPreferences, usePreferences } from '../app/preferences';
import { getIdentity } from '../app/services';
import { NOTIFIED_EVENTS, notificationsSupported, requestNotificationPermission } from '../app/notifications';
import { loadNotificationSettings, saveNotificationSettings } from '../app/storage';
import type { PlayPreferences } from '../../../machines/client/preferences';

type Flag = 'muted' | 'premoves' | 'confirmMovesOnPhone' | 'zen';

function Toggle({ flag, label, hint, inverted }: { flag: Flag; label: string; hint: string; inverted?: boolean }) {
  const prefs = usePreferences();
  const on = inverted ? !prefs[flag] : prefs[flag];
  const change = (checked: boolean) => setPreferences({ [flag]: inverted ? !checked : checked } as Partial<PlayPreferences>);
  return (
    <label className="setting">
      <input type="checkbox" checked={on} onChange={(e) => change(e.target.checked)} />
      <span><strong>{label}</strong><span className="hint">{hint}</span></span>
    </label>
  );
}

function NotificationSetting() {
  const supported = notificationsSupported();
  const [on, setOn] = useState(() => supported && Notification.permission === 'granted' && !loadNotificationSettings().optedOut);
  const [note, setNote] = useState<string | null>(null);
  if (!supported) return <p className="info">This browser cannot show notifications.</p>;
  const change = async (checked: boolean) => {
    saveNotificationSettings({ optedOut: !checked });
    if (!checked) { setOn(false); setNote(null); return; }
    const granted = await requestNotificationPermission();
    setOn(granted);
    setNote(granted ? null : 'The browser blocks notifications for this site: allow them in its site settings, then turn this on again.');
  };
  return (
    <>
      <label className="setting">
        <input type="checkbox" checked={on} onChange={(e) => void change(e.target.checked)} />
        <span>
          <strong>Game notifications</strong>
          <span className="hint">While the site is in another tab or window: {NOTIFIED_EVENTS.map((e) => e.toLowerCase()).join('; ')}.</span>
        </span>
      </label>
      {note && <p className="error" role="alert">{note}</p>}
    </>
  );
}

export default function Settings() {
  const signedIn = useSelector(getIdentity(), (s) => s.context.user !== null);
  return (
    <Page narrow>
      <section className="card settings">
        <h1>Settings</h1>
        <p className="info" data-testid="settings-scope">
          {signedIn ? 'Saved on this device and in your account.' : 'Saved on this device.'}
        </p>
        <h2>Board</h2>
        <div className="row"><ThemeFields /></div>
        <h2>Game</h2>
        <Toggle flag="muted" inverted label="Sounds" hint="Moves, captures, checks, the start and end of a game, low time." />
        <Toggle flag="premoves" label="Premoves" hint="Queue a move while the opponent thinks; it is played as soon as it is your turn." />
        <Toggle flag="confirmMovesOnPhone" label="Confirm moves on a phone" hint="A move made on the board waits for Confirm, so a slip of the finger is not played." />
        <Toggle flag="zen" label="Zen mode" hint="During a game, hide the names, ratings and the player count: the board, the clocks and the moves only." />
        <h2>Notifications</h2>
        <NotificationSetting />
        <p className="links"><Link to="/">Back to Home</Link></p>
      </section>
    </Page>
  );
}
