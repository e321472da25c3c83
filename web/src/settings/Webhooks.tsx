import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../api';
import { ConfirmDelete, ErrorText, field, Hidden, messageOf, SettingsSection, useAction } from './common';
import { Deliveries } from './Deliveries';

export interface Webhook {
  id: string;
  name: string;
  url: string;
  events: string[];
  enabled: boolean;
  disabledReason: string | null;
  createdAt: string;
}

/** The events a webhook may subscribe to (`webhook.test` is always sent, never chosen). */
export const EVENTS = [
  'textItems.created',
  'textItems.updated',
  'textItems.deleted',
  'components.created',
  'components.updated',
  'components.deleted',
  'components.published',
  'statuses.updated',
  'developerIds.updated',
  'variants.changed',
  'variables.changed',
  'folders.changed',
  'projects.changed',
  'styleGuides.changed',
] as const;

/**
 * Webhooks (admins only): the signing key, the webhooks, and their delivery log. Saving a
 * webhook with a new URL first sends it a signed test delivery; when the URL does not answer
 * with a 2xx the API refuses with what it answered, and that message shows beside the form.
 */
export function Webhooks() {
  const [webhooks, setWebhooks] = useState<Webhook[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  const remove = useAction();
  const load = useCallback(
    () =>
      api
        .get<Webhook[]>('webhooks')
        .then((w) => {
          setWebhooks(w);
          setLoadError(null);
          setRound((r) => r + 1);
        })
        .catch((e) => setLoadError(messageOf(e))),
    [],
  );
  useEffect(() => void load(), [load]);

  return (
    <SettingsSection id="webhooks" title="Webhooks">
      <h3 className="form-title">Signing key</h3>
      <SigningKey />
      <ErrorText error={loadError} />
      {webhooks.length === 0 && <p className="muted">No webhooks yet.</p>}
      <ul className="records">
        {webhooks.map((w) =>
          editing === w.id ? (
            <li key={w.id}>
              <WebhookForm
                webhook={w}
                onDone={(saved) => {
                  setEditing(null);
                  if (saved) void load();
                }}
              />
            </li>
          ) : (
            <li key={w.id}>
              <span>
                <strong>{w.name}</strong> <code>{w.id}</code> {w.url}{' '}
                <span className="muted">
                  {w.events.includes('*') ? 'all events' : w.events.join(', ')}
                  {' · '}
                  {w.enabled ? 'enabled' : `disabled${w.disabledReason ? `: ${w.disabledReason}` : ''}`}
                </span>
              </span>
              <span className="actions">
                <button type="button" onClick={() => setEditing(w.id)}>
                  Edit<Hidden> webhook {w.name}</Hidden>
                </button>
                <ConfirmDelete
                  what={`webhook ${w.name}`}
                  onConfirm={async () => {
                    const ok = await remove.run(() => api.delete('webhooks', { developerIds: [w.id] }));
                    if (ok) void load();
                    return ok;
                  }}
                />
              </span>
            </li>
          ),
        )}
      </ul>
      <ErrorText error={remove.error} />
      <h3 className="form-title">Add a webhook</h3>
      <WebhookForm onDone={(saved) => saved && void load()} />
      <Deliveries webhooks={webhooks} round={round} />
    </SettingsSection>
  );
}

function SigningKey() {
  const [status, setStatus] = useState<{ configured: boolean; lastFour: string | null } | null>(null);
  const save = useAction();
  const input = useRef<HTMLInputElement>(null);
  const load = useCallback(
    () =>
      api
        .get<{ configured: boolean; lastFour: string | null }>('webhooks/signingKey')
        .then(setStatus)
        .catch(() => setStatus(null)),
    [],
  );
  useEffect(() => void load(), [load]);
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const signingKey = String(new FormData(formElement).get('signingKey') ?? '');
    if (await save.run(() => api.put('webhooks/signingKey', { signingKey }))) {
      formElement.reset();
      void load();
    }
  };
  const generate = () => {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    if (!input.current) return;
    input.current.value = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
    input.current.focus();
  };
  return (
    <form className="inline" aria-label="Signing key" onSubmit={onSubmit}>
      <p id="signing-key-state">
        {status?.configured
          ? `Signing key set, ending in ${status.lastFour}. Every delivery is signed with it.`
          : 'No signing key yet: set one before adding a webhook.'}
      </p>
      <label>
        {status?.configured ? 'New signing key' : 'Signing key'} (at least 32 characters; copy it before saving, it is
        shown only by its last four afterwards)
        <input ref={input} name="signingKey" autoComplete="off" spellCheck={false} required minLength={32} />
      </label>
      <button type="button" onClick={generate}>
        Generate a key
      </button>
      <button type="submit" disabled={save.busy}>
        {status?.configured ? 'Rotate signing key' : 'Set signing key'}
      </button>
      <ErrorText error={save.error} />
    </form>
  );
}

function WebhookForm({ webhook, onDone }: { webhook?: Webhook; onDone: (saved: boolean) => void }) {
  const save = useAction();
  const [all, setAll] = useState(webhook ? webhook.events.includes('*') : false);
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const events = all ? ['*'] : form.getAll('events').map(String);
    const fields = {
      name: field(form, 'name'),
      url: field(form, 'url'),
      events,
      enabled: form.get('enabled') === 'on',
    };
    const ok = await save.run(() =>
      webhook
        ? api.patch('webhooks', { updates: [{ developerId: webhook.id, ...fields }] })
        : api.post('webhooks', { webhooks: [fields] }),
    );
    if (ok) {
      if (!webhook) {
        formElement.reset();
        setAll(false);
      }
      onDone(true);
    }
  };
  return (
    <form
      className="inline webhook-form"
      aria-label={webhook ? `Edit webhook ${webhook.name}` : 'New webhook'}
      onSubmit={onSubmit}
    >
      <label>
        Name <input name="name" defaultValue={webhook?.name} required maxLength={200} />
      </label>
      <label>
        URL <input name="url" type="url" defaultValue={webhook?.url} required maxLength={2048} />
      </label>
      <fieldset>
        <legend>Events</legend>
        <label className="check">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> All events
        </label>
        {EVENTS.map((e) => (
          <label key={e} className="check">
            <input
              type="checkbox"
              name="events"
              value={e}
              disabled={all}
              defaultChecked={webhook?.events.includes(e)}
            />{' '}
            {e}
          </label>
        ))}
      </fieldset>
      <label className="check">
        <input type="checkbox" name="enabled" defaultChecked={webhook ? webhook.enabled : true} /> Enabled
      </label>
      <button type="submit" disabled={save.busy}>
        {save.busy ? 'Sending a test delivery…' : webhook ? 'Save webhook' : 'Add webhook'}
      </button>
      {webhook && (
        <button type="button" onClick={() => onDone(false)}>
          Cancel
        </button>
      )}
      <ErrorText error={save.error} />
    </form>
  );
}
