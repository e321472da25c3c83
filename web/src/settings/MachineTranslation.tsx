import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { api } from '../api';
import { KIND_NAMES, type Provider } from '../machineTranslation';
import { ConfirmDelete, ErrorText, field, Hidden, SettingsSection, useAction } from './common';

/** The numbers of a provider's form, left out when empty (the API's defaults apply). */
function limitsOf(form: FormData) {
  const number = (name: string) => (field(form, name) === '' ? undefined : Number(field(form, name)));
  return {
    ...(number('requestsPerMinute') !== undefined && { requestsPerMinute: number('requestsPerMinute') }),
    ...(number('concurrency') !== undefined && { concurrency: number('concurrency') }),
    ...(number('timeoutMs') !== undefined && { timeoutMs: number('timeoutMs') }),
  };
}

/**
 * Machine translation providers (admins): DeepL, LibreTranslate or an OpenAI-compatible server,
 * each with its URL, model and credential. The credential field is write-only: the API answers
 * only its last four characters. A provider on the team's own network (loopback or private
 * address) needs "on our own network" ticked, and the server's operator's permission.
 */
export function MachineTranslation() {
  const [providers, setProviders] = useState<Provider[]>([]);
  const [kind, setKind] = useState<Provider['kind']>('libretranslate');
  const [editing, setEditing] = useState<string | null>(null);
  const create = useAction();
  const update = useAction();
  const remove = useAction();
  const load = useCallback(() => {
    api
      .get<Provider[]>('machineTranslation/providers')
      .then(setProviders)
      .catch(() => setProviders([]));
  }, []);
  useEffect(load, [load]);

  const onCreate = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const element = event.currentTarget;
    const form = new FormData(element);
    const ok = await create.run(() =>
      api.post('machineTranslation/providers', {
        name: field(form, 'name'),
        kind,
        url: field(form, 'url'),
        ...(field(form, 'model') && { model: field(form, 'model') }),
        ...(field(form, 'apiKey') && { apiKey: field(form, 'apiKey') }),
        privateNetwork: form.get('privateNetwork') === 'on',
        ...limitsOf(form),
      }),
    );
    if (ok) {
      element.reset();
      load();
    }
  };

  const onUpdate = async (event: FormEvent<HTMLFormElement>, provider: Provider) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const ok = await update.run(() =>
      api.patch(`machineTranslation/providers/${encodeURIComponent(provider.id)}`, {
        url: field(form, 'url'),
        ...(provider.kind === 'openai' && { model: field(form, 'model') }),
        ...(field(form, 'apiKey') && { apiKey: field(form, 'apiKey') }),
        privateNetwork: form.get('privateNetwork') === 'on',
        ...limitsOf(form),
      }),
    );
    if (ok) {
      setEditing(null);
      load();
    }
  };

  return (
    <SettingsSection id="machine-translation" title="Machine translation">
      <p className="muted">
        Texts are sent only to the providers configured here. Credentials are stored encrypted and never shown again.
      </p>
      {providers.length === 0 && <p className="muted">No providers yet.</p>}
      <ul className="records">
        {providers.map((p) =>
          editing === p.id ? (
            <li key={p.id}>
              <form onSubmit={(e) => void onUpdate(e, p)} aria-label={`Change ${p.name}`}>
                <label>
                  URL <input name="url" type="url" defaultValue={p.url} required />
                </label>
                {p.kind === 'openai' && (
                  <label>
                    Model <input name="model" defaultValue={p.model ?? ''} required />
                  </label>
                )}
                <label>
                  New API key (leave empty to keep) <input name="apiKey" type="password" autoComplete="off" />
                </label>
                <label>
                  <input type="checkbox" name="privateNetwork" defaultChecked={p.privateNetwork} /> On our own network
                </label>
                <label>
                  Requests per minute{' '}
                  <input name="requestsPerMinute" inputMode="numeric" defaultValue={p.requestsPerMinute} />
                </label>
                <label>
                  At once <input name="concurrency" inputMode="numeric" defaultValue={p.concurrency} />
                </label>
                <label>
                  Timeout (ms) <input name="timeoutMs" inputMode="numeric" defaultValue={p.timeoutMs} />
                </label>
                <button type="submit" disabled={update.busy}>
                  Save
                </button>
                <button type="button" onClick={() => setEditing(null)}>
                  Cancel
                </button>
                <ErrorText error={update.error} />
              </form>
            </li>
          ) : (
            <li key={p.id}>
              <strong>{p.name}</strong> <span className="muted">{KIND_NAMES[p.kind]}</span> {p.url}
              {p.model ? ` · ${p.model}` : ''}
              {p.apiKey.configured ? ` · key …${p.apiKey.lastFour}` : ' · no key'}
              {p.apiKey.configured && !p.apiKey.readable && (
                <span className="error"> (the key cannot be read with this server's secret: set it again)</span>
              )}
              <button type="button" onClick={() => setEditing(p.id)}>
                Change<Hidden> {p.name}</Hidden>
              </button>
              <ConfirmDelete
                what={p.name}
                onConfirm={async () => {
                  const ok = await remove.run(() =>
                    api.delete(`machineTranslation/providers/${encodeURIComponent(p.id)}`),
                  );
                  if (ok) load();
                  return ok;
                }}
              />
            </li>
          ),
        )}
      </ul>
      <ErrorText error={remove.error} />
      <form onSubmit={(e) => void onCreate(e)} aria-label="Add a provider">
        <h3>Add a provider</h3>
        <label>
          Name <input name="name" required />
        </label>
        <label>
          Kind{' '}
          <select value={kind} onChange={(e) => setKind(e.target.value as Provider['kind'])}>
            {(Object.keys(KIND_NAMES) as Provider['kind'][]).map((k) => (
              <option key={k} value={k}>
                {KIND_NAMES[k]}
              </option>
            ))}
          </select>
        </label>
        <label>
          URL{' '}
          <input
            name="url"
            type="url"
            required
            placeholder={
              kind === 'deepl'
                ? 'https://api-free.deepl.com'
                : kind === 'openai'
                  ? 'http://127.0.0.1:11434'
                  : 'http://127.0.0.1:5000'
            }
          />
        </label>
        {kind === 'openai' && (
          <label>
            Model <input name="model" required placeholder="llama3.1:8b" />
          </label>
        )}
        <label>
          API key{kind === 'deepl' ? '' : ' (optional)'}{' '}
          <input name="apiKey" type="password" autoComplete="off" required={kind === 'deepl'} />
        </label>
        <label>
          <input type="checkbox" name="privateNetwork" /> On our own network (a self-hosted server)
        </label>
        <label>
          Requests per minute <input name="requestsPerMinute" inputMode="numeric" placeholder="60" />
        </label>
        <label>
          At once <input name="concurrency" inputMode="numeric" placeholder="2" />
        </label>
        <label>
          Timeout (ms) <input name="timeoutMs" inputMode="numeric" placeholder="30000" />
        </label>
        <button type="submit" disabled={create.busy}>
          Add provider
        </button>
        <ErrorText error={create.error} />
      </form>
    </SettingsSection>
  );
}
