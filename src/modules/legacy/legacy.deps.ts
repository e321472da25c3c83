import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { OpenSnapshot } from '../../db/snapshot.js';
import type { WorkspaceService } from '../accounts/workspace.service.js';
import type { BlocksService } from '../blocks/blocks.service.js';
import type { FoldersService } from '../folders/folders.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { StatusesService } from '../statuses/statuses.service.js';
import type { TextsReader } from '../texts/index.js';
import type { VariablesService } from '../variables/variables.service.js';
import type { VariantsService } from '../variants/variants.service.js';

export interface LegacyReadDeps {
  db: Kysely<Database>;
  projects: Pick<ProjectsService, 'listProjectRefs'>;
  texts: Pick<TextsReader, 'select' | 'pages' | 'keys'>;
  folders: Pick<FoldersService, 'loadFolderTree'>;
  blocks: Pick<BlocksService, 'loadBlocks'>;
  statuses: Pick<StatusesService, 'keys'>;
  variants: Pick<VariantsService, 'listVariants'>;
  variables: Pick<VariablesService, 'listVariables'>;
  workspace: Pick<WorkspaceService, 'get'>;
  /** Consistent reads over many queries, for the fetches written page by page; none: the shared connection. */
  snapshot?: OpenSnapshot;
}

/** Who reads: the key's workspace and the content revision it was authenticated at (the texts reader keys its reads on it). */
export interface Reader {
  workspaceId: number;
  revision: number;
}
