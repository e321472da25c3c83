import { type FormEvent, useState } from 'react';
import { api, type Session } from './api';

function useSubmit(onSignedIn: (s: Session) => void) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (path: string, body: unknown) => {
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await api.post<Session>(path, body));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, submit };
}

export function SignIn({ onSignedIn }: { onSignedIn: (s: Session) => void }) {
  const { error, busy, submit } = useSubmit(onSignedIn);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void submit('session', { email: String(form.get('email')), password: String(form.get('password')) });
  };
  return (
    <main className="centered">
      <h1>Sign in to copydesk</h1>
      <form className="card" onSubmit={onSubmit}>
        <label>
          Email
          <input name="email" type="email" autoComplete="username" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}

export function SetPassword({ onSignedIn }: { onSignedIn: (s: Session) => void }) {
  const { error, busy, submit } = useSubmit(onSignedIn);
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void submit('session/password', { token, password: String(new FormData(event.currentTarget).get('password')) });
  };
  return (
    <main className="centered">
      <h1>Choose your password</h1>
      <form className="card" onSubmit={onSubmit}>
        <label>
          New password (at least 10 characters)
          <input name="password" type="password" autoComplete="new-password" minLength={10} required />
        </label>
        {!token && <p className="error">This link has no token: ask your admin for a new one.</p>}
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy || !token}>
          Set password and sign in
        </button>
      </form>
    </main>
  );
}
