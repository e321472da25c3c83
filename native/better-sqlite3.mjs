// node native/better-sqlite3.mjs [--check]: makes sure better-sqlite3's addon was not compiled
// with the node::ObjectWrap of Node 24.19 and later, which aborts the process when the garbage
// collector frees a prepared statement (native/node_object_wrap.h says why). Such an addon calls
// node::RemoveEnvironmentCleanupHook, which an addon built with the earlier class never does, so
// the check is whether the compiled file names that function. Run after every install
// (`postinstall`) and by CI after it rebuilds the addon for another Node: when the addon is
// affected, it is compiled again with native/node_object_wrap.h included first, then checked
// again. With --check it only says whether the addon is affected (exit 1 if it is).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const root = join(import.meta.dirname, '..');
const header = join(import.meta.dirname, 'node_object_wrap.h');
const packageDir = dirname(createRequire(join(root, 'package.json')).resolve('better-sqlite3/package.json'));
const addon = join(packageDir, 'build', 'Release', 'better_sqlite3.node');
const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
const label = `better-sqlite3 ${version} (Node ${process.version})`;

const affected = () => existsSync(addon) && readFileSync(addon).includes('RemoveEnvironmentCleanupHook');

if (!existsSync(addon)) {
  console.log(`${label}: no addon built (${addon}), nothing to check`);
  process.exit(0);
}
if (!affected()) {
  console.log(`${label}: the addon's node::ObjectWrap keeps no cleanup hooks`);
  process.exit(0);
}
if (process.argv.includes('--check')) {
  console.error(`${label}: the addon was compiled with Node's node::ObjectWrap that aborts at garbage collection`);
  process.exit(1);
}

console.log(`${label}: compiling the addon again with native/node_object_wrap.h`);
const env = { ...process.env, CXXFLAGS: `${process.env.CXXFLAGS ?? ''} -include ${header}`.trim() };
let status;
if (existsSync(join(packageDir, 'build', 'Makefile'))) {
  // The addon's own C++ file only: SQLite's library (a C file, most of the compile) is kept as
  // built (`-o`: not made again, though the build copies its source again each time).
  rmSync(join(packageDir, 'build', 'Release', 'obj.target', 'better_sqlite3'), { recursive: true, force: true });
  rmSync(addon, { force: true });
  const keep = ['Release/sqlite3.a', 'Release/obj.target/deps/sqlite3.a'].flatMap((file) => ['-o', file]);
  ({ status } = spawnSync('make', ['-C', 'build', 'BUILDTYPE=Release', ...keep, 'better_sqlite3'], {
    cwd: packageDir,
    env,
    stdio: 'inherit',
  }));
} else {
  // A downloaded build (prebuild-install): compile the whole package from source.
  const npm = process.env.npm_execpath;
  const [command, args] = npm ? [process.execPath, [npm]] : ['npm', []];
  ({ status } = spawnSync(command, [...args, 'rebuild', 'better-sqlite3', '--build-from-source'], {
    cwd: root,
    env,
    stdio: 'inherit',
  }));
}
if (status !== 0 || !existsSync(addon) || affected()) {
  console.error(`${label}: the addon could not be compiled without the cleanup hooks (status ${status})`);
  process.exit(1);
}
console.log(`${label}: the addon's node::ObjectWrap keeps no cleanup hooks now`);
