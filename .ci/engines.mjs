// node .ci/engines.mjs [NPM_VERSION]: lists every installed package (root and web/) whose
// `engines` does not accept the Node.js running this script, or the npm version given, and exits 1
// if there is one. It is the check behind npm's EBADENGINE warning, for the Node versions CI tests
// without running `npm ci` on them (their copy only rebuilds the native modules).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const semver = createRequire(join(root, 'package.json'))('semver');
const versions = { node: process.version, npm: process.argv[2] ?? null };

let refused = 0;
for (const dir of [root, join(root, 'web')]) {
  const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
  for (const [path, entry] of Object.entries(lock.packages)) {
    // What npm installs on this platform: optional packages of other platforms are not on disk.
    if (path !== '' && !existsSync(join(dir, path))) continue;
    for (const [engine, range] of Object.entries(entry.engines ?? {})) {
      const version = versions[engine];
      if (typeof range !== 'string' || !version) continue;
      if (semver.satisfies(version, range, { includePrerelease: true })) continue;
      refused += 1;
      const where = `${dir === root ? '' : 'web/'}${path || 'package.json'}`;
      console.error(`EBADENGINE ${where}${entry.version ? `@${entry.version}` : ''} wants ${engine} ${range}, has ${version}`);
    }
  }
}
console.log(`engines: ${refused === 0 ? 'every installed package accepts' : `${refused} refusals of`} Node ${versions.node}${versions.npm ? ` and npm ${versions.npm}` : ''}`);
if (refused > 0) process.exit(1);
