import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest files, longest first (seconds on SQLite, 29 November 2026, afternoon; the live file evening):
 * the browser tests, those that start real processes (servers, a client's CLI) and those that
 * write or read large workspaces. The two workers take files from the front of the list as they
 * come free, so the long files start first and the short ones fill in around them. Started last
 * (Vitest's own order on a fresh clone, without the durations it keeps from earlier runs, is by
 * file size), one of them would run alone at the end while the other core sits idle; a file
 * missing from the list (a new one) runs after these, in Vitest's order.
 */
const SLOW = [
  /\/test\/e2e\/organise\.e2e\.test\.ts$/, // 27
  /\/test\/cli\/first-start\.test\.ts$/, // 15
  /\/test\/e2e\/settings\.e2e\.test\.ts$/, // 13.5
  /\/test\/e2e\/app\.e2e\.test\.ts$/, // 12
  /\/test\/e2e\/editor\.e2e\.test\.ts$/, // 11.5
  /\/test\/e2e\/live\.e2e\.test\.ts$/, // 10
  /\/test\/e2e\/suggestions\.e2e\.test\.ts$/, // 9.5
  /\/test\/e2e\/comments\.e2e\.test\.ts$/, // 9
  /\/test\/e2e\/machine-translation\.e2e\.test\.ts$/, // 8
  /\/test\/clients\//, // up to 6
  /\/test\/modules\/imports\/import\.test\.ts$/, // 5
  /\/test\/modules\/imports\/import-large\.test\.ts$/, // 5
  /\/test\/modules\/exports\/large\.test\.ts$/, // 4.5
  /\/test\/e2e\//, // 2.5 to 5 each
  /\/test\/cli\/copy-untrusted-source\.test\.ts$/, // 4
  /\/test\/multi-server\//, // 1.5 to 4
  /\/test\/modules\/swift-driver\/large-driver\.test\.ts$/, // 3.5
  /\/test\/modules\/imports\/round-trip\.test\.ts$/, // 2.7
  /\/test\/modules\/events\/presence\.test\.ts$/, // 2.7
  /\/test\/modules\/machine-translation\/mt\.test\.ts$/, // 2.6
];

export default class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const at = SLOW.findIndex((pattern) => pattern.test(file.moduleId));
      return at === -1 ? SLOW.length : at;
    };
    // Array.prototype.sort is stable: files of one rank keep Vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
