/**
 * The change log: the one write path every write goes through, the changes it records, and the
 * history read from them. Other modules use only what is exported here.
 */
export { changeOf, changesOf, diffFields, type Fields, type RecordIdentity } from './changes.diff.js';
export { refsAfterRevision } from './changes.repository.js';
export { CHANGES_PER_ROW, changeId } from './changes.stored.js';
export * from './changes.types.js';
export { createHistoryService, type HistoryService, type LoggedWrite } from './history.service.js';
export { createRestoreService, type RestoreDeps, type RestoreService, type TextInput } from './restore.service.js';
export {
  type ChangeSubscriber,
  type CommitListener,
  createWritePath,
  type PlannedWrite,
  type WritePath,
  type WriteProgress,
} from './write-path.js';
