import { afterAll } from 'vitest';
import { removeTempFolders } from './database.js';
import { killServerProcesses } from './server-process.js';

/**
 * Run before every test file (`setupFiles` in vitest.config.ts). Test files share modules within a
 * worker (`isolate: false`), so a helper's own top-level hook would be registered for the first
 * file only: what must happen after each file is registered here. Registered first, this runs
 * after the file's own `afterAll` hooks (Vitest runs them in reverse), once its apps are closed.
 */
afterAll(() => {
  killServerProcesses();
  removeTempFolders();
});
