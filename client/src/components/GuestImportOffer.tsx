/**
 * After signing in or up on a device that played as a guest: the offer to take that guest's
 * archived games into the account (claimGuestGames, proved by the guest secret this device
 * keeps). Made on the home page, only when this device holds games that guest played, once per
 * account and guest; the answer says how many games were imported.
 */
import { useEffect, useState } from 'react';
import { useSelector } from '@xstate/react';
import { getIdentity, lastMessage, onMessage, send } from '../app/services';
import { guestImportAnswered, loadSocketIdentity, markGuestImportAnswered } from '../app/storage';
import { forgetHistoryOf, guestHasGames } from '../app/history';

type Step = { kind: 'offer' } | { kind: 'sending' } | { kind: 'done'; text: string };

export const importedText = (count: number) =>
  count === 0 ? 'There were no guest games from this device to import.' : `Imported ${count} game${count === 1 ? '' : 's'} you played as a guest on this device.`;

export function GuestImportOffer() {
  const accountId = useSelector(getIdentity(), (s) => s.context.user?.id ?? null);
  // the socket speaks for the account only once `identified` has come
  const [identifiedAs, setIdentifiedAs] = useState(() => lastMessage('identified')?.msg.playerId ?? null);
  const [step, setStep] = useState<Step>({ kind: 'offer' });
  const guest = loadSocketIdentity();
  useEffect(() => {
    const offs = [
      onMessage('identified', (m) => setIdentifiedAs(m.playerId)),
      onMessage('guestGamesClaimed', (m) => {
        if (!accountId || m.guestId !== guest?.playerId) return;
        markGuestImportAnswered(accountId, m.guestId);
        // the games are the account's now, in its stats; the device no longer holds them as a guest's
        forgetHistoryOf(m.guestId);
        setStep({ kind: 'done', text: importedText(m.count) });
      }),
      onMessage('error', (m) => {
        if (m.code === 'archive_unavailable' || m.code === 'identity_rejected' || m.code === 'not_signed_in') {
          setStep((s) => (s.kind === 'sending' ? { kind: 'done', text: `The games could not be imported: ${m.message}` } : s));
        }
      }),
    ];
    return () => offs.forEach((off) => off());
  }, [accountId, guest?.playerId]);

  if (step.kind === 'done') return <p className="info guest-import" role="status" data-testid="guest-import-result">{step.text}</p>;
  if (!accountId || identifiedAs !== accountId || !guest || guest.playerId === accountId) return null;
  if (guestImportAnswered(accountId, guest.playerId) || !guestHasGames(guest.playerId)) return null;
  const importGames = () => {
    setStep({ kind: 'sending' });
    send({ type: 'claimGuestGames', payload: { guestId: guest.playerId, secret: guest.secret } });
  };
  const decline = () => {
    markGuestImportAnswered(accountId, guest.playerId);
    setStep({ kind: 'done', text: 'Your guest games stay out of your account.' });
  };
  return (
    <section className="card guest-import" aria-label="Import guest games" data-testid="guest-import-offer">
      <p>Import the games you played as a guest on this device into your account? They are kept but never rated.</p>
      <div className="row">
        <button type="button" className="btn btn-primary" onClick={importGames} disabled={step.kind === 'sending'}>Import games</button>
        <button type="button" className="btn btn-secondary" onClick={decline} disabled={step.kind === 'sending'}>Not now</button>
      </div>
    </section>
  );
}
