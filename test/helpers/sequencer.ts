import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Test files that start real processes (servers, Chromium, a client's CLI) or write large
 * workspaces: each takes from several seconds to half a minute by itself, so they start first,
 * while the short files fill the other worker. Started last (Vitest's own order on a fresh clone,
 * without the durations it keeps from earlier runs, is by file size), one of them would run alone
 * at the end while the other core sits idle.
 */
const SLOW = [
  /\/test\/cli\/first-start\.test\.ts$/,
  /\/test\/e2e\//,
  /\/test\/multi-server\//,
  /\/test\/clients\//,
  /\/test\/modules\/exports\/large\.test\.ts$/,
];

export default class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const slow = (file: TestSpecification) => SLOW.some((pattern) => pattern.test(file.moduleId));
    return [...sorted.filter(slow), ...sorted.filter((file) => !slow(file))];
  }
}
