import type { ColumnType, Generated } from 'kysely';

/**
 * The column types every table is written in (schema.ts, schema.texts.ts). Booleans are stored as
 * 0/1 and JSON as text on both databases, so that rows read the same on SQLite and PostgreSQL
 * (see docs/storage.md).
 */
export type Bool = number;
export type Json = string;
export type Timestamp = string;
export type Id = Generated<number>;
/** A column with a database default: optional on insert. */
export type Defaulted<T> = ColumnType<T, T | undefined, T>;
