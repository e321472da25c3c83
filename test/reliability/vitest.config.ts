import { defineConfig } from 'vitest/config';

/**
 * Multi-process checks that take minutes on a busy machine, so they stay out of `npm test`:
 * `npm run test:reliability` (SQLite) or with DATABASE_URL=postgres://... for PostgreSQL.
 */
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.reliability.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    setupFiles: ['test/helpers/per-file.ts'],
    testTimeout: 300_000,
    hookTimeout: 60_000,
  },
});
