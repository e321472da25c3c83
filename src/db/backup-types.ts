/** One row as a backup file holds it: column name -> value, as stored. */
export type BackupRow = Record<string, unknown>;

/** Row id in the file -> row id in this database, per table. */
export type IdMap = Map<number, number>;
