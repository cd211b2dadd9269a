// Shared by the package tests (tests/package/*.test.mjs) and the example-game spec
// (tests/e2e/example-vite-three.spec.ts): pack the package as `npm publish` would, and
// install the tarball into a fresh copy of an app, the way a user would.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** `npm pack` into build/pack/ (scripts skipped: the suite built dist/ already). Returns the
 * tarball's absolute path and the files it holds. One pack per process. */
let packed;
export function packLimber() {
  if (packed) return packed;
  const dest = join(root, 'build/pack');
  mkdirSync(dest, { recursive: true });
  for (const need of ['dist/web/bridge/index.js', 'dist/web/bridge/browser.js', 'dist/web/bridge/limber.wasm']) {
    if (!existsSync(join(root, need))) throw new Error(`${need} is missing: run node scripts/build.mjs wasm ts`);
  }
  const out = execFileSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', dest], { cwd: root, encoding: 'utf8' });
  const info = JSON.parse(out)[0];
  const tarball = join(dest, info.filename);
  // A stable name too: web/examples/vite-three/package.json points at build/pack/limber.tgz.
  copyFileSync(tarball, join(dest, 'limber.tgz'));
  packed = { tarball, files: info.files.map((f) => f.path), info };
  return packed;
}

/** Copies `web/examples/<name>` (or an empty app when name is null) to a fresh temporary
 * folder and installs the packed tarball there with `npm install --prefer-offline`; the
 * example's other dependencies come from its committed lockfile (same versions as the
 * root's, so the npm cache filled by the root `npm ci` serves them). */
export function installApp(name, { extraFiles = {} } = {}) {
  const { tarball } = packLimber();
  const dir = mkdtempSync(join(tmpdir(), `limber-${name ?? 'app'}-`));
  if (name) {
    const src = join(root, 'web/examples', name);
    cpSync(src, dir, { recursive: true, filter: (p) => !/^(node_modules|dist)([\\/]|$)/.test(relative(src, p)) });
  } else {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'limber-fresh-app', private: true, version: '0.0.0', dependencies: {} }, null, 2));
  }
  for (const [to, from] of Object.entries(extraFiles)) {
    mkdirSync(join(dir, to, '..'), { recursive: true });
    copyFileSync(from, join(dir, to));
  }
  const spec = `file:${relative(dir, tarball).split('\\').join('/')}`;
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  pkg.dependencies = { ...pkg.dependencies, limber: spec };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  const lockPath = join(dir, 'package-lock.json');
  if (existsSync(lockPath)) {
    // The committed lock names build/pack/limber.tgz from the example's own folder; point it
    // at this tarball and drop its checksum (the tarball changes with every build).
    const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
    lock.packages[''].dependencies.limber = spec;
    const entry = lock.packages['node_modules/limber'];
    if (entry) {
      entry.resolved = spec;
      delete entry.integrity;
    }
    writeFileSync(lockPath, JSON.stringify(lock, null, 2));
  }
  execFileSync(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
