import type { Executor } from '../../db/schema.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { StatusesService } from '../statuses/statuses.service.js';
import type { VariablesService } from '../variables/variables.service.js';
import type { VariantsService } from '../variants/variants.service.js';
import type { WriteContext } from './content.js';

/** What loading a write context needs from the other modules. */
export interface WriteContextDeps {
  accounts: Pick<AccountsService, 'supSubEnabled'>;
  statuses: Pick<StatusesService, 'keys'>;
  variants: Pick<VariantsService, 'resolveVariants'>;
  variables: Pick<VariablesService, 'resolveVariables'>;
}

/**
 * The workspace as the content rules of one write need it, loaded once per request inside its
 * transaction: statuses, the variants and variables the request names, and (for `richText`)
 * whether `sup`/`sub` are enabled. `userIds` is read before the transaction by the caller.
 */
export async function loadWriteContext(
  deps: WriteContextDeps,
  trx: Executor,
  workspaceId: number,
  userIds: ReadonlyMap<string, number>,
  names: { variants: readonly string[]; variables: readonly string[] },
  richText: boolean,
): Promise<WriteContext> {
  const [statuses, variants, variables, supSub] = await Promise.all([
    deps.statuses.keys(trx, workspaceId),
    deps.variants.resolveVariants(trx, workspaceId, names.variants),
    deps.variables.resolveVariables(trx, workspaceId, names.variables),
    richText ? deps.accounts.supSubEnabled(trx, workspaceId) : false,
  ]);
  return { statuses, userIds, variants, variables, richText: richText ? { supSub } : null };
}
