import type { Limits } from '../../config.js';
import { AppError, badRequest } from '../../http/errors.js';
import { findUnstorableText } from '../../http/storable-text.js';
import { describeSchemaError, firstSchemaError, validatorCompiler } from '../../http/validation.js';
import type { WorkspaceService } from '../accounts/workspace.service.js';
import type { WriteScope } from '../changes/index.js';
import type { ComponentsService } from '../components/components.service.js';
import { type ComponentUpdateInput, componentSchemas, type NewComponentInput } from '../components/index.js';
import type { TextsReader } from '../texts/index.js';
import { libraryOff } from './legacy.access.js';
import { displayFormFirst, type ImportFile, parseImport } from './legacy.import.js';
import type { ImportQueryInput, LegacyUpdates } from './legacy.schemas.js';

export interface LegacyWriteDeps {
  components: Pick<ComponentsService, 'create' | 'update'>;
  texts: Pick<TextsReader, 'select'>;
  workspace: Pick<WorkspaceService, 'get'>;
}

/** A write of the v0/v1 API: the key's scope, and the revision its reads through the texts reader are made at. */
export type Writer = WriteScope & { revision: number };

/**
 * The messages of the components service name `updates[i]` or `components[i]`, the fields of the
 * v2 bodies; a legacy request names the developer ID (`home.title.text ...`) or, for a CSV file,
 * the line (`line 4: text ...`) instead.
 */
function relabel(error: unknown, field: string, labels: readonly string[]): unknown {
  if (!(error instanceof AppError)) return error;
  const match = new RegExp(`^${field}\\[(\\d+)\\]`).exec(error.message);
  const label = match ? labels[Number(match[1])] : undefined;
  if (!match || label === undefined) return error;
  const rest = error.message.slice(match[0].length);
  const message = label.startsWith('line ') ? `${label}: ${rest.replace(/^[.:]\s*/, '')}` : label + rest;
  return new AppError(error.code, message);
}

/**
 * The writes of the v0 and v1 APIs, through the components service: one transaction each,
 * every element checked before anything is written.
 */
export function createLegacyWriter(deps: LegacyWriteDeps, limits: Limits) {
  const { CreateBody } = componentSchemas(limits);
  const validateCreate = validatorCompiler({ schema: CreateBody, httpPart: 'body', method: 'POST', url: '' }) as ((
    data: unknown,
  ) => boolean) & { errors?: Parameters<typeof describeSchemaError>[0][] | null };

  async function requireLibrary(workspaceId: number) {
    if (!(await deps.workspace.get(workspaceId)).libraryDeveloperMode) throw libraryOff();
  }

  return {
    /**
     * PUT /components: new text (and notes, tags, plurals) for base text, or for a variant's value,
     * which a component without one gains. Developer IDs that name no component are skipped.
     */
    async updateComponents(writer: Writer, updates: LegacyUpdates, variant: string | null, path: string) {
      await requireLibrary(writer.workspaceId);
      const selection = await deps.texts.select(writer.workspaceId, writer.revision, { kind: 'component', filter: {} });
      const existing = new Set(selection.entities.map((e) => e.developerId));
      const planned: ComponentUpdateInput[] = [];
      for (const [developerId, update] of Object.entries(updates)) {
        if (!existing.has(developerId)) continue;
        const { text, notes, tags } = update;
        planned.push({
          developerId,
          text,
          ...(notes === undefined ? {} : { notes }),
          ...(tags === undefined ? {} : { tags }),
          ...displayFormFirst(text, update.plurals, `${path}${developerId}.plurals`),
        });
      }
      if (planned.length > 0) {
        try {
          await deps.components.update(writer, {
            updates: planned,
            ...(variant === null ? {} : { variantId: variant }),
          });
        } catch (error) {
          throw relabel(
            error,
            'updates',
            planned.map((u) => `${path}${u.developerId}`),
          );
        }
      }
      return { componentsUpdated: planned.length, componentsSkipped: Object.keys(updates).length - planned.length };
    },

    /** POST /v1/components/file: the file's texts as new components, all or none. */
    async importFile(writer: Writer, file: ImportFile, query: ImportQueryInput) {
      await requireLibrary(writer.workspaceId);
      const { components, labels } = parseImport(file, query);
      if (components.length > limits.batchItems) {
        throw badRequest(
          `import: at most ${limits.batchItems} components in one file, this one has ${components.length}`,
        );
      }
      if (components.length === 0) return { componentsInserted: 0, firstImportedId: null };
      const body: { components: NewComponentInput[] } = { components };
      const first = validateCreate(body) ? undefined : firstSchemaError(validateCreate.errors ?? []);
      if (first) throw relabel(badRequest(describeSchemaError(first, 'body')), 'components', labels);
      const unstorable = findUnstorableText(body, 'import');
      if (unstorable) throw relabel(badRequest(unstorable), 'components', labels);
      let developerIds: string[];
      try {
        developerIds = await deps.components.create(writer, body);
      } catch (error) {
        throw relabel(error, 'components', labels);
      }
      return { componentsInserted: developerIds.length, firstImportedId: developerIds[0] ?? null };
    },
  };
}

export type LegacyWriter = ReturnType<typeof createLegacyWriter>;
