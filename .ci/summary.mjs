// Prints vitest's JSON report as the plain closing line 'LABEL: N passed, N failed, N skipped';
// with --total, the sum of several reports as 'total: ...', after one line per failed test (its
// run, file, name and the first line of its message), so the tail of a CI log names what failed.
// Exits 1 if a report ran no test.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const total = args[0] === '--total';
const files = total ? args.slice(1) : [args[0]];
const label = total ? 'total' : args[1];
const sum = { passed: 0, failed: 0, skipped: 0, all: 0 };
const failures = [];
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
  const run = file.replace(/^.*\//, '').replace(/\.json$/, '');
  for (const suite of report.testResults ?? []) {
    const path = String(suite.name ?? '').replace(/^.*?\/(test|bench)\//, '$1/');
    const failed = (suite.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failed) {
      const message = String(test.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 300);
      failures.push(`${run}: ${path} > ${test.fullName}: ${message}`);
    }
    // A file that failed before any test ran (an import error, a hook) has no failed test.
    if (suite.status === 'failed' && failed.length === 0) {
      failures.push(`${run}: ${path}: ${String(suite.message ?? '').split('\n')[0].slice(0, 300)}`);
    }
  }
}
if (total) for (const line of failures) console.log(`FAILED ${line}`);
console.log(`${label}: ${sum.passed} passed, ${sum.failed} failed, ${sum.skipped} skipped`);
