import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { ApiError, api, type Session, setCsrfToken } from './api';
import { ErrorBoundary } from './ErrorBoundary';
import { SetPassword, SignIn } from './SignIn';
import { ToastProvider } from './Toast';
import { Workspace } from './Workspace';

export function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [problem, setProblem] = useState<string | null>(null);
  const onPasswordPage = window.location.pathname === '/set-password';

  const signedIn = useCallback((s: Session) => {
    setCsrfToken(s.csrfToken);
    setSession(s);
    // A shared link (or a reload) keeps its place; only the password page leaves for the workspace.
    if (window.location.pathname === '/set-password') window.history.replaceState(null, '', '/');
  }, []);

  useEffect(() => {
    if (onPasswordPage) return;
    api
      .get<Session>('session')
      .then(signedIn)
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 401) setSession(null);
        else setProblem(error instanceof Error ? error.message : String(error));
      });
  }, [onPasswordPage, signedIn]);

  const signOut = async () => {
    await api.delete('session').catch(() => undefined);
    setCsrfToken(null);
    setSession(null);
  };

  let page: ReactNode;
  if (problem)
    page = (
      <main className="centered">
        <p role="alert">The server could not be reached: {problem}</p>
      </main>
    );
  else if (onPasswordPage && !session) page = <SetPassword onSignedIn={signedIn} />;
  else if (session === undefined)
    page = (
      <main className="centered" aria-busy="true">
        Loading…
      </main>
    );
  else if (session === null) page = <SignIn onSignedIn={signedIn} />;
  else
    page = (
      <ToastProvider>
        <Workspace session={session} onSignOut={signOut} />
      </ToastProvider>
    );
  return <ErrorBoundary what="The app">{page}</ErrorBoundary>;
}
