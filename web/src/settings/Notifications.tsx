import { useEffect, useState } from 'react';
import { api } from '../api';
import { ErrorText, messageOf, SettingsSection, useAction } from './common';

export type EmailMode = 'instant' | 'daily' | 'off';
interface Preference {
  email: EmailMode;
  smtpConfigured: boolean;
}

const CHOICES: [EmailMode, string, string][] = [
  ['instant', 'Instant', 'each email as it happens'],
  [
    'daily',
    'Daily digest',
    'notifications gathered into one email a day; invitations and password links still come at once',
  ],
  ['off', 'Off', 'no email at all, password links included'],
];

/**
 * One's own email preference: anyone, whatever their role, for themselves
 * (`/v2/users/me/notifications`). Saved as soon as it is chosen, as a switch would be.
 */
export function Notifications() {
  const [pref, setPref] = useState<Preference | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useAction();
  useEffect(() => {
    api
      .get<Preference>('users/me/notifications')
      .then(setPref)
      .catch((e) => setLoadError(messageOf(e)));
  }, []);

  // The choice shows at once, as a switch's would; a refused save puts the stored one back.
  const choose = (email: EmailMode) => {
    const before = pref;
    if (!before) return;
    setPref({ ...before, email });
    setSaved(false);
    void save
      .run(async () => {
        setPref(await api.put<Preference>('users/me/notifications', { email }));
        setSaved(true);
      })
      .then((ok) => {
        if (!ok) setPref(before);
      });
  };

  return (
    <SettingsSection id="notifications" title="Email notifications">
      <ErrorText error={loadError} />
      {pref && !pref.smtpConfigured && (
        <p className="card">
          This server is not configured to send email: your choice is kept and applies once an administrator sets up
          mail.
        </p>
      )}
      {pref && (
        <fieldset className="email-choice" aria-busy={save.busy}>
          <legend>Email</legend>
          {CHOICES.map(([value, label, hint]) => (
            <label key={value}>
              <input
                type="radio"
                name="email"
                value={value}
                checked={pref.email === value}
                onChange={() => choose(value)}
              />{' '}
              {label} <span className="muted">({hint})</span>
            </label>
          ))}
        </fieldset>
      )}
      {saved && !save.error && <p role="status">Saved.</p>}
      <ErrorText error={save.error} />
    </SettingsSection>
  );
}
