// Prints the coverage figure of a run from Vitest's json-summary report: the share of src/'s
// statements, branches, functions and lines that the tests ran in their own processes (the server
// processes some tests start are not counted).
import { readFileSync } from 'node:fs';

const { total } = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const part = (name) => `${name} ${total[name].pct.toFixed(1)}% (${total[name].covered}/${total[name].total})`;
console.log(`coverage of src/: ${['lines', 'statements', 'branches', 'functions'].map(part).join(', ')}`);
