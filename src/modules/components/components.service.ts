import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/dialect.js';
import type { Database, Executor } from '../../db/schema.js';
import { now, writeTransaction } from '../../db/transaction.js';
import { badRequest, conflict } from '../../http/errors.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { FoldersService } from '../folders/folders.service.js';
import type { StatusesService } from '../statuses/statuses.service.js';
import { variantNotFoundMessage } from '../texts/content.js';
import { loadWriteContext } from '../texts/context.js';
import { insertPlanned, loadExistingTexts } from '../texts/create.js';
import { detachInstances } from '../texts/instances.js';
import { PLURAL_FORMS } from '../texts/plurals.js';
import * as repo from '../texts/texts.repository.js';
import { applyUpdatePlans, targetVariant } from '../texts/update.js';
import type { VariablesService } from '../variables/variables.service.js';
import type { VariantsService } from '../variants/variants.service.js';
import { componentRow, planCreate } from './components.create.js';
import { createComponentsReader } from './components.list.js';
import type { CreateComponentsInput, UpdateComponentsInput } from './components.schemas.js';
import { componentNotFound, planUpdates } from './components.update.js';

const ROOT = 'root';

export interface ComponentsDeps {
  db: Kysely<Database>;
  statuses: Pick<StatusesService, 'keys'>;
  accounts: Pick<AccountsService, 'userIdsByEmail'>;
  variants: Pick<VariantsService, 'listVariants' | 'resolveVariants' | 'createVariantIfMissing'>;
  variables: Pick<VariablesService, 'listVariables' | 'resolveVariables'>;
  folders: Pick<FoldersService, 'loadFolderTree'>;
}

export function createComponentsService(deps: ComponentsDeps) {
  const { db } = deps;

  const writeContext = (
    trx: Executor,
    workspaceId: number,
    userIds: ReadonlyMap<string, number>,
    names: { variants: string[]; variables: string[] },
    richText: boolean,
  ) => loadWriteContext(deps, trx, workspaceId, userIds, names, richText);

  async function create(workspaceId: number, input: CreateComponentsInput): Promise<string[]> {
    const components = input.components;
    if (components.length === 0) return [];
    // Outside the transaction: the accounts service reads on its own connection.
    const userIds = await deps.accounts.userIdsByEmail(workspaceId);
    try {
      return await writeTransaction(db, workspaceId, async (trx) => {
        const names = {
          variants: components.flatMap((c) => (c.variants ?? []).map((v) => v.variantId)),
          variables: components.flatMap((c) => c.variables ?? []),
        };
        const context = await writeContext(trx, workspaceId, userIds, names, input.richText === 'html');
        const tree = await deps.folders.loadFolderTree(trx, workspaceId);
        const existing = await loadExistingTexts(
          trx,
          workspaceId,
          'component',
          components.map((c) => c.developerId),
        );
        const plan = planCreate(components, context, tree, existing);
        const at = now();
        await insertPlanned(
          trx,
          plan.map((p) => componentRow(workspaceId, p, at)),
          plan,
        );
        return plan.map((p) => p.developerId);
      });
    } catch (error) {
      // Writers to one workspace queue on its row, so this is only a safety net.
      if (isUniqueViolation(error)) throw conflict('Component already exists in workspace');
      throw error;
    }
  }

  async function update(workspaceId: number, input: UpdateComponentsInput): Promise<void> {
    const userIds = await deps.accounts.userIdsByEmail(workspaceId);
    await writeTransaction(db, workspaceId, async (trx) => {
      const variant = await targetVariant(deps.variants, trx, workspaceId, input, variantNotFoundMessage);
      const ids = input.updates.map((u) => u.developerId);
      const entities = await repo.loadTextsByDeveloperIds(trx, workspaceId, 'component', ids);
      const names = { variants: [], variables: input.updates.flatMap((u) => u.variables ?? []) };
      const context = await writeContext(trx, workspaceId, userIds, names, input.richText === 'html');
      const movesToFolder = input.updates.some((u) => u.folderId != null && u.folderId !== ROOT);
      const tree = movesToFolder ? await deps.folders.loadFolderTree(trx, workspaceId) : null;
      const pluralIds = ids.flatMap((id) => PLURAL_FORMS.map((form) => `${id}_${form}`));
      const existing = await repo.existingDeveloperIds(trx, workspaceId, 'component', pluralIds);
      const plans = planUpdates(
        input.updates,
        new Map(entities.map((e) => [e.row.developer_id, e])),
        variant,
        context,
        tree,
        (id) => existing.has(id),
      );

      await applyUpdatePlans(trx, workspaceId, plans, variant);
    });
  }

  /** Deletes components, all or none; their linked instances keep the text and are detached. */
  async function remove(workspaceId: number, developerIds: readonly string[]): Promise<void> {
    const seen = new Set<string>();
    developerIds.forEach((id, index) => {
      if (seen.has(id)) throw badRequest(`developerIds[${index}]: duplicate developer ID '${id}'`);
      seen.add(id);
    });
    await writeTransaction(db, workspaceId, async (trx) => {
      const entities = await repo.loadTextsByDeveloperIds(trx, workspaceId, 'component', developerIds);
      const found = new Set(entities.map((e) => e.row.developer_id));
      const missing = developerIds.find((id) => !found.has(id));
      if (missing !== undefined) throw componentNotFound(missing);
      await detachInstances(trx, workspaceId, entities);
      await repo.deleteTexts(
        trx,
        workspaceId,
        entities.map((e) => e.row.id),
      );
    });
  }

  const reader = createComponentsReader(deps);
  return { list: reader.list, select: reader.select, create, update, remove };
}

export type ComponentsService = ReturnType<typeof createComponentsService>;
