import type { Kysely } from 'kysely';
import type { Database } from './db/schema.js';
import { createAccountsService } from './modules/accounts/accounts.service.js';
import { createStatusesService } from './modules/statuses/statuses.service.js';

/** Every domain service, wired in one place. Each takes only what it needs. */
export function createServices(db: Kysely<Database>) {
  const statuses = createStatusesService({ db });
  const accounts = createAccountsService({ db, statuses });
  return { accounts, statuses };
}

export type Services = ReturnType<typeof createServices>;
