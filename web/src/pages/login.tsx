/** Sign in with a password or SSO, or register where the deployment allows it. */
import { useEffect, useState } from 'preact/hooks';
import { register, signIn, SSO_LOGIN_URL, ssoAvailable } from '../api';
import { ThemeToggle } from '../theme';
import { ErrorNote, Field, useAction } from '../ui';

export function LoginPage({ error }: { error?: unknown }) {
  const [mode, setMode] = useState<'sign-in' | 'register'>('sign-in');
  const [sso, setSso] = useState(false);
  const [registered, setRegistered] = useState(false);
  const action = useAction();
  useEffect(() => {
    document.title = 'Sign in · docservice';
    void ssoAvailable().then(setSso);
  }, []);

  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const username = String(form.get('username') ?? '');
    const password = String(form.get('password') ?? '');
    if (mode === 'sign-in') void action.run(() => signIn(username, password));
    else
      void action.run(async () => {
        await register(username, String(form.get('email') ?? ''), password);
        setRegistered(true);
        setMode('sign-in');
      });
  };

  return (
    <main class="login" id="main">
      <h1>{mode === 'sign-in' ? 'Sign in to docservice' : 'Create an account'}</h1>
      <ErrorNote error={error} />
      {registered ? <p role="status">Account created: sign in with it.</p> : null}
      <form onSubmit={submit} aria-label={mode === 'sign-in' ? 'Sign in' : 'Register'}>
        <Field label="Username" name="username" autocomplete="username" required error={action.error} />
        {mode === 'register' ? <Field label="Email" name="email" type="email" autocomplete="email" required error={action.error} /> : null}
        <Field
          label="Password"
          name="password"
          type="password"
          autocomplete={mode === 'sign-in' ? 'current-password' : 'new-password'}
          required
          error={action.error}
        />
        <ErrorNote error={action.error} />
        <button type="submit" class="primary" disabled={action.busy}>
          {mode === 'sign-in' ? 'Sign in' : 'Register'}
        </button>
      </form>
      {sso && mode === 'sign-in' ? (
        <p>
          <a class="button" href={SSO_LOGIN_URL}>
            Sign in with SSO
          </a>
        </p>
      ) : null}
      <p>
        <button type="button" class="link" onClick={() => (action.clear(), setMode(mode === 'sign-in' ? 'register' : 'sign-in'))}>
          {mode === 'sign-in' ? 'No account? Register' : 'Have an account? Sign in'}
        </button>
      </p>
      <p class="login-foot">
        <ThemeToggle />
      </p>
    </main>
  );
}
