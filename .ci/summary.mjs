// Prints vitest's JSON report as the plain closing line 'LABEL: N passed, N failed, N skipped'.
import { readFileSync } from 'node:fs';

const [file, label] = process.argv.slice(2);
const report = JSON.parse(readFileSync(file, 'utf8'));
const skipped = report.numPendingTests + report.numTodoTests;
console.log(`${label}: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
if (report.numTotalTests === 0) {
  console.error('no test ran');
  process.exit(1);
}
