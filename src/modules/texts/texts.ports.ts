import type { Executor } from '../../db/schema.js';
import type { Change } from '../changes/index.js';

/*
 * What the texts core needs from the modules that own the rows a text refers to (statuses, users,
 * variants, variables, folders, projects, blocks). The texts core declares these interfaces and
 * imports no other module but `changes`; the owners' services answer them as they are (they
 * match structurally), and src/services.ts hands them over. So the core sits below the modules
 * around it: they may import it, it never imports them.
 */

/** A variant as the texts core knows it: its row id and developer ID (the variants module's `Variant` is one). */
export interface VariantRef {
  id: number;
  developerId: string;
}

/** A variable as the texts core knows it: its row id and name (the variables module's `Variable` is one). */
export interface VariableRef {
  id: number;
  name: string;
}

/** A project or base as the texts core knows it (the projects module's `ProjectRef` is one). */
export interface ContainerRef {
  /** Row id. */
  id: number;
  kind: 'project' | 'base';
  developerId: string;
  /** Row id of the connected base (projects only). */
  baseId: number | null;
}

/** A block as the texts core knows it (the blocks module's `BlockRef` is one). */
export interface BlockPlace {
  /** Row id of the block's project. */
  projectId: number;
  developerId: string;
  name: string;
  /** 0-based place of the block in its project's block order. */
  rank: number;
}

/** The folder tree as the texts core reads it (the folders module's `FolderTree` is one). */
export interface FolderTreeView {
  /** Every folder: its row id, developer ID and parent's row id (null at the library root). */
  readonly folders: readonly { id: number; developerId: string; parentId: number | null }[];
  /** The developer ID of a folder row, null for the library root (a null folder id). */
  developerIdOf(rowId: number | null): string | null;
  /** Row ids of the folder and, unless `excludeNested`, of every folder nested below it. */
  rowIds(developerId: string, options?: { excludeNested?: boolean }): Set<number> | undefined;
}

/** The workflow's status keys (the statuses module). */
export interface StatusKeys {
  keys(executor: Executor, workspaceId: number): Promise<ReadonlySet<string>>;
}

/** The users and text settings of a workspace (the accounts module). */
export interface AccountLookups {
  /** Lower-case email -> user row id. */
  userIdsByEmail(workspaceId: number): Promise<ReadonlyMap<string, number>>;
  supSubEnabled(executor: Executor, workspaceId: number): Promise<boolean>;
}

/** The variants of a workspace (the variants module). */
export interface VariantLookups {
  listVariants(executor: Executor, workspaceId: number): Promise<readonly VariantRef[]>;
  /** The variants among `developerIds` that exist, by developer ID. */
  resolveVariants(
    executor: Executor,
    workspaceId: number,
    developerIds: readonly string[],
  ): Promise<ReadonlyMap<string, VariantRef>>;
  /** `forceVariantCreation`: the variant, created in the caller's write when missing, and the change to record then. */
  ensureVariant(
    executor: Executor,
    workspaceId: number,
    developerId: string,
  ): Promise<{ variant: VariantRef; change: Change | null }>;
}

/** The variables of a workspace (the variables module). */
export interface VariableLookups {
  listVariables(executor: Executor, workspaceId: number): Promise<readonly VariableRef[]>;
  /** The variables among `names` that exist, by name. */
  resolveVariables(
    executor: Executor,
    workspaceId: number,
    names: readonly string[],
  ): Promise<ReadonlyMap<string, VariableRef>>;
}

/** The component folders of a workspace (the folders module). */
export interface FolderLookups {
  loadFolderTree(executor: Executor, workspaceId: number): Promise<FolderTreeView>;
}

/** The projects and bases of a workspace (the projects module). */
export interface ContainerLookups {
  listProjectRefs(executor: Executor, workspaceId: number): Promise<readonly ContainerRef[]>;
}

/** The blocks of a workspace, by row id (the blocks module). */
export interface BlockLookups {
  loadBlocks(executor: Executor, workspaceId: number): Promise<ReadonlyMap<number, BlockPlace>>;
}
