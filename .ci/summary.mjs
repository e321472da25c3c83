// Prints vitest's JSON report as the plain closing line 'LABEL: N passed, N failed, N skipped';
// with --total, the sum of several reports as 'total: ...'. Exits 1 if a report ran no test.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const total = args[0] === '--total';
const files = total ? args.slice(1) : [args[0]];
const label = total ? 'total' : args[1];
const sum = { passed: 0, failed: 0, skipped: 0, all: 0 };
for (const file of files) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  if (report.numTotalTests === 0) {
    console.error(`${file}: no test ran`);
    process.exitCode = 1;
  }
  sum.passed += report.numPassedTests;
  sum.failed += report.numFailedTests;
  sum.skipped += report.numPendingTests + report.numTodoTests;
  sum.all += report.numTotalTests;
}
console.log(`${label}: ${sum.passed} passed, ${sum.failed} failed, ${sum.skipped} skipped`);
