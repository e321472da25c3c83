import { type FormEvent, useState } from 'react';
import { api } from '../api';
import type { WorkspaceData } from '../useWorkspaceData';
import { ConfirmDelete, ErrorText, field, Hidden, SettingsSection, useAction } from './common';

type Variant = WorkspaceData['variants'][number];

/** Variants: editors create, edit (name, developer ID, locale, description) and delete them. */
export function Variants({ data, canEdit }: { data: WorkspaceData; canEdit: boolean }) {
  const [editing, setEditing] = useState<string | null>(null);
  const create = useAction();
  const remove = useAction();

  const onCreate = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const developerId = field(form, 'developerId');
    const localeCode = field(form, 'localeCode');
    const ok = await create.run(() =>
      api.post('variants', {
        variants: [
          {
            name: field(form, 'name'),
            description: field(form, 'description'),
            ...(developerId && { developerId }),
            ...(localeCode && { localeCode }),
          },
        ],
      }),
    );
    if (ok) {
      formElement.reset();
      data.reload(['variants']);
    }
  };

  return (
    <SettingsSection id="variants" title="Variants">
      {data.variants.length === 0 && <p className="muted">No variants yet.</p>}
      <ul className="records">
        {data.variants.map((v) =>
          editing === v.id ? (
            <li key={v.id}>
              <VariantForm
                variant={v}
                onDone={() => {
                  setEditing(null);
                  data.reload(['variants']);
                }}
              />
            </li>
          ) : (
            <li key={v.id}>
              <span>
                <strong>{v.name}</strong> <code>{v.id}</code>{' '}
                {v.localeCode && <span className="muted">locale {v.localeCode}</span>}
                {v.description && <span className="muted"> · {v.description}</span>}
              </span>
              {canEdit && (
                <span className="actions">
                  <button type="button" onClick={() => setEditing(v.id)}>
                    Edit<Hidden> {v.name}</Hidden>
                  </button>
                  <ConfirmDelete
                    what={v.name}
                    onConfirm={async () => {
                      const ok = await remove.run(() => api.delete('variants', { developerIds: [v.id] }));
                      if (ok) data.reload(['variants']);
                      return ok;
                    }}
                  />
                </span>
              )}
            </li>
          ),
        )}
      </ul>
      <ErrorText error={remove.error} />
      {canEdit && (
        <>
          <h3 className="form-title">Add a variant</h3>
          <form className="inline" aria-label="New variant" onSubmit={onCreate}>
            <label>
              Name <input name="name" required />
            </label>
            <label>
              Developer ID (optional) <input name="developerId" />
            </label>
            <label>
              Locale (optional) <input name="localeCode" placeholder="fr-FR" />
            </label>
            <label>
              Description <input name="description" />
            </label>
            <button type="submit" disabled={create.busy}>
              Add variant
            </button>
            <ErrorText error={create.error} />
          </form>
        </>
      )}
    </SettingsSection>
  );
}

function VariantForm({ variant, onDone }: { variant: Variant; onDone: () => void }) {
  const save = useAction();
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const developerId = field(form, 'developerId');
    const localeCode = field(form, 'localeCode');
    const ok = await save.run(() =>
      api.patch('variants', {
        updates: [
          {
            developerId: variant.id,
            name: field(form, 'name'),
            description: field(form, 'description'),
            localeCode: localeCode || null,
            ...(developerId !== variant.id && { newDeveloperId: developerId }),
          },
        ],
      }),
    );
    if (ok) onDone();
  };
  return (
    <form className="inline" aria-label={`Edit variant ${variant.name}`} onSubmit={onSubmit}>
      <label>
        Name <input name="name" defaultValue={variant.name} required />
      </label>
      <label>
        Developer ID <input name="developerId" defaultValue={variant.id} required />
      </label>
      <label>
        Locale <input name="localeCode" defaultValue={variant.localeCode ?? ''} />
      </label>
      <label>
        Description <input name="description" defaultValue={variant.description} />
      </label>
      <button type="submit" disabled={save.busy}>
        Save variant
      </button>
      <button type="button" onClick={onDone}>
        Cancel
      </button>
      <ErrorText error={save.error} />
    </form>
  );
}
