import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import SlowFirst from './test/helpers/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    setupFiles: ['test/helpers/per-file.ts'],
    testTimeout: 30_000,
    // expect.poll waits for something the test cannot await: a webhook worker's next round, a
    // page re-rendering after a fetch. Its default of 1 s is shorter than one round on a loaded
    // 2-core machine (25 webhook deliveries took longer in CI); waiting longer only delays a
    // failure, it never lets a wrong value pass. It asks every 200 ms, not every 50: in the
    // browser files each ask is a DevTools round trip that queries the page again, and on a loaded
    // machine one wait took many (the browser files' CPU, 2 workers: 213 s at 50 ms, 203 s at 200).
    expect: { poll: { timeout: 10_000, interval: 200 } },
    hookTimeout: 60_000,
    // One test file per core. Vitest's default (cores - 1) is a single worker on CI's 2 cores, so
    // the files ran one after another and a core sat idle while a test waited on PostgreSQL, a
    // child server or Chromium. A third worker on 2 cores gained little over two (CONTRIBUTING.md
    // has the figures); the cap of 4 keeps the PostgreSQL run well inside the server's 100
    // connections (each file's app has a pool of 10, some files start a second server).
    maxWorkers: Math.min(availableParallelism(), 4),
    // The test files of a worker share its loaded modules: loading the app's 300 modules and their
    // dependencies took about 4 s of CPU per file, more than most files' tests. Each file still
    // builds its own app on its own database (docs/testing.md says what a test may not rely on).
    isolate: false,
    // Files that start processes first (test/helpers/sequencer.ts).
    sequence: { sequencer: SlowFirst },
  },
});
