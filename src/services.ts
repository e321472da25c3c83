import type { Kysely } from 'kysely';
import type { Database } from './db/schema.js';
import { createAccountsService } from './modules/accounts/accounts.service.js';
import { createBlocksService } from './modules/blocks/blocks.service.js';
import { createComponentsService } from './modules/components/components.service.js';
import { createExportsService } from './modules/exports/exports.service.js';
import { createFoldersService } from './modules/folders/folders.service.js';
import { createProjectsService } from './modules/projects/projects.service.js';
import { createStatusesService } from './modules/statuses/statuses.service.js';
import { createStyleguidesService } from './modules/styleguides/styleguides.service.js';
import { createTextItemsService } from './modules/text-items/text-items.service.js';
import { createVariablesService } from './modules/variables/variables.service.js';
import { createVariantsService } from './modules/variants/variants.service.js';

/** Every domain service, wired in one place. Each takes only what it needs. */
export function createServices(db: Kysely<Database>, options: { changeToken?: () => string | null } = {}) {
  const statuses = createStatusesService({ db });
  const accounts = createAccountsService({ db, statuses, changeToken: options.changeToken });
  const variants = createVariantsService({ db });
  const folders = createFoldersService({ db });
  const variables = createVariablesService({ db });
  const projects = createProjectsService({ db });
  const blocks = createBlocksService({ db });
  const components = createComponentsService({ db, statuses, accounts, variants, variables, folders });
  const textItems = createTextItemsService({
    db,
    statuses,
    accounts,
    variants,
    variables,
    folders,
    projects,
    blocks,
  });
  const exports = createExportsService({ db, textItems, components, variants, variables });
  const styleguides = createStyleguidesService({ db, variants, components, textItems });
  return {
    accounts,
    blocks,
    components,
    exports,
    folders,
    projects,
    statuses,
    styleguides,
    textItems,
    variables,
    variants,
  };
}

export type Services = ReturnType<typeof createServices>;
