/**
 * Phone accounts: the field for a number and the step that confirms it with the 6-digit code the
 * server sends by SMS (docs/accounts.md: valid 60 s, one SMS per number per 60 s; without an SMS
 * provider the code lands in the development inbox). Used by Register and Login.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { errorMessage } from '../../app/auth';
import { requireAuthClient } from './useAuthClient';

/** Seconds before another code may be asked for (the server's one SMS per number per 60 s). */
export const RESEND_WAIT_SECONDS = 60;

export function PhoneField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <>
      <label>Phone number<input type="tel" autoComplete="tel" inputMode="tel" placeholder="+44 7700 900123" value={value}
        onChange={(e) => onChange(e.target.value)} required aria-describedby="phone-hint" /></label>
      <p id="phone-hint" className="hint">With the country code, e.g. +44 7700 900123</p>
    </>
  );
}

/** What a player reads when the server cannot send SMS at all (no provider: docs/accounts.md). */
export const NO_SMS_TEXT = 'This site cannot send text messages yet: use an e-mail address.';
const errorCode = (err: unknown) => (err && typeof err === 'object' && 'code' in err ? String((err as { code: unknown }).code) : '');
/** The error text for a phone request, with the site's own words where the server has no SMS provider. */
export const phoneErrorText = (err: unknown, fallback: string) => (errorCode(err) === 'phone_provider_disabled' ? NO_SMS_TEXT : errorMessage(err, fallback));

/** The number as the server takes it: digits with a leading +, spaces and dashes dropped. */
export const phoneValue = (typed: string) => `+${typed.replace(/[^\d]/g, '')}`;

/** Seconds left of a wait that ends at `until` (ms since the epoch), ticking once a second. */
function useSecondsLeft(until: number): number {
  const left = () => Math.max(0, Math.ceil((until - Date.now()) / 1000));
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    setSeconds(left());
    const timer = setInterval(() => setSeconds(left()), 1000);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [until]);
  return seconds;
}

/** The code screen: enter the code, or ask for another once the wait is over. */
export function PhoneCodeStep({ phone, onVerified, sent = true }: {
  phone: string;
  onVerified: () => void;
  /** false: no code was sent just now (a sign-in of an unconfirmed number), so one may be asked for at once */
  sent?: boolean;
}) {
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [resendAt, setResendAt] = useState(() => (sent ? Date.now() + RESEND_WAIT_SECONDS * 1000 : 0));
  const wait = useSecondsLeft(resendAt);

  const verify = async (e: FormEvent) => {
    e.preventDefault();
    if (!/^\d{6}$/.test(code.trim())) { setError('Enter the 6 digits of the code'); return; }
    setBusy(true);
    setError(null);
    try {
      const client = await requireAuthClient();
      const { data, error: err } = await client.auth.verifyOtp({ phone, token: code.trim(), type: 'sms' });
      if (err) throw err;
      if (!data.session) throw new Error('The code was not accepted');
      onVerified();
    } catch (err) {
      setError(errorMessage(err, 'The code could not be checked'));
      setBusy(false);
    }
  };

  const resend = async () => {
    setError(null);
    try {
      const client = await requireAuthClient();
      const { error: err } = await client.auth.resend({ type: 'sms', phone });
      if (err) throw err;
      setResendAt(Date.now() + RESEND_WAIT_SECONDS * 1000);
      setInfo(`A new code is on its way to ${phone}.`);
    } catch (err) {
      setError(phoneErrorText(err, 'Could not send a new code'));
    }
  };

  return (
    <form onSubmit={verify} noValidate data-testid="phone-code">
      <p>{sent ? 'We sent a 6-digit code by SMS to ' : 'Confirm the number with the 6-digit code we send by SMS to '}<strong>{phone}</strong>. A code is valid for 60 seconds.</p>
      <label>Code<input type="text" inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={code}
        onChange={(e) => setCode(e.target.value)} required /></label>
      {error && <p className="error" role="alert">{error}</p>}
      {info && <p className="info" role="status">{info}</p>}
      <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? 'Checking...' : 'Verify'}</button>
      <p className="links">
        <button type="button" className="btn btn-link" onClick={resend} disabled={wait > 0}>
          {wait > 0 ? `Send a new code in ${wait} s` : 'Send a new code'}
        </button>
      </p>
    </form>
  );
}

/** The choice between an e-mail address and a phone number, at the top of Register and Login. */
export function AddressKind({ kind, onChange }: { kind: 'email' | 'phone'; onChange: (k: 'email' | 'phone') => void }) {
  return (
    <div className="row address-kind" role="group" aria-label="Address type">
      <button type="button" className={kind === 'email' ? 'btn btn-small btn-primary' : 'btn btn-small'} aria-pressed={kind === 'email'} onClick={() => onChange('email')}>Email</button>
      <button type="button" className={kind === 'phone' ? 'btn btn-small btn-primary' : 'btn btn-small'} aria-pressed={kind === 'phone'} onClick={() => onChange('phone')}>Phone</button>
    </div>
  );
}
