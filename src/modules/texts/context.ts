import type { Executor } from '../../db/schema.js';
import type { WriteContext } from './content.js';
import type { AccountLookups, StatusKeys, VariableLookups, VariantLookups } from './texts.ports.js';

/** What loading a write context needs from the other modules. */
export interface WriteContextDeps {
  accounts: Pick<AccountLookups, 'supSubEnabled'>;
  statuses: StatusKeys;
  variants: Pick<VariantLookups, 'resolveVariants'>;
  variables: Pick<VariableLookups, 'resolveVariables'>;
}

/**
 * The workspace as the content rules of one write need it, loaded once per request inside its
 * transaction: statuses, the variants and variables the request names, and (for `richText`)
 * whether `sup`/`sub` are enabled. `userIds` is read before the transaction by the caller.
 */
export async function loadWriteContext(
  deps: WriteContextDeps,
  trx: Executor,
  {
    workspaceId,
    userIds,
    names,
    richText,
  }: {
    workspaceId: number;
    userIds: ReadonlyMap<string, number>;
    names: { variants: readonly string[]; variables: readonly string[] };
    richText: boolean;
  },
): Promise<WriteContext> {
  const [statuses, variants, variables, supSub] = await Promise.all([
    deps.statuses.keys(trx, workspaceId),
    deps.variants.resolveVariants(trx, workspaceId, names.variants),
    deps.variables.resolveVariables(trx, workspaceId, names.variables),
    richText ? deps.accounts.supSubEnabled(trx, workspaceId) : false,
  ]);
  return { statuses, userIds, variants, variables, richText: richText ? { supSub } : null };
}
