#!/usr/bin/env node
// Builds what is missing or stale: native (gcc) CLI/tests, wasm (SIMD + scalar),
// TypeScript to dist/. `--quiet` prints only on failure. Targets: native, asan,
// msan, tsan, clang, wasm (SIMD, scalar and threads: limber-mt.wasm), ts (default: native wasm ts). Each step that runs prints "build: <step> ..."
// and "build: <step> done (N s)" on stderr (with --quiet only when --progress is given).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const quiet = args.includes('--quiet');
const progress = !quiet || args.includes('--progress');
let targets = args.filter((a) => !a.startsWith('--'));
if (targets.length === 0) targets = ['native', 'wasm', 'ts'];
const env = { ...process.env, NODE_PATH: '/usr/share/nodejs' };

function newest(dir, exts) {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) t = Math.max(t, newest(p, exts));
    else if (exts.some((x) => e.name.endsWith(x))) t = Math.max(t, statSync(p).mtimeMs);
  }
  return t;
}
const mtime = (p) => (existsSync(p) ? statSync(p).mtimeMs : 0);

function run(cmd, argv, what) {
  const t0 = Date.now();
  if (progress) process.stderr.write(`build: ${what} ...\n`);
  try {
    // --quiet --progress (npm test): the compiler's output goes to the caller, which shows
    // its last line while waiting and all of it on failure.
    const out = execFileSync(cmd, argv, { cwd: root, env, stdio: quiet && !args.includes('--progress') ? 'pipe' : 'inherit', encoding: 'utf8' });
    if (progress) process.stderr.write(`build: ${what} done (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);
    return out;
  } catch (err) {
    if (quiet) process.stderr.write(`${err.stdout ?? ''}${err.stderr ?? ''}`);
    process.stderr.write(`build: ${what} failed (${cmd} ${argv.join(' ')})\n`);
    process.exit(1);
  }
}

function need(tool, hint) {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'pipe' });
  } catch {
    process.stderr.write(`build: '${tool}' is missing: run \`${hint}\`\n`);
    process.exit(1);
  }
}

if (!existsSync(join(root, 'build/third_party/cjson/cJSON.c'))) {
  process.stderr.write('build: cJSON is not extracted yet: run `bash scripts/setup.sh`\n');
  process.exit(1);
}

const cSources = Math.max(newest(join(root, 'wasm'), ['.c', '.h']), mtime(join(root, 'CMakeLists.txt')), mtime(join(root, 'CMakePresets.json')));

function cmakePreset(preset, products, buildTargets = []) {
  const dir = join(root, 'build', preset);
  const stale = products.some((p) => mtime(join(dir, p)) < Math.max(cSources, newest(join(root, 'tests/c'), ['.c', '.h']), newest(join(root, 'tests/bench'), ['.c', '.h']), newest(join(root, 'tests/fuzz'), ['.c', '.h'])));
  if (!stale) return;
  need('cmake', 'bash scripts/setup.sh');
  if (!existsSync(join(dir, 'CMakeCache.txt'))) run('cmake', ['--preset', preset], `configure ${preset}`);
  const only = buildTargets.flatMap((t) => ['--target', t]);
  run('cmake', ['--build', '--preset', preset, '-j2', ...only], `build ${preset}`);
}

for (const t of targets) {
  if (t === 'native') cmakePreset('native', ['limber']);
  // The clang build exists to compare hashes with gcc: the CLI is enough.
  else if (t === 'clang') cmakePreset('native-clang', ['limber'], ['limber_cli']);
  else if (t === 'asan') cmakePreset('asan', ['limber']);
  else if (t === 'msan') cmakePreset('msan', ['limber']);
  // ThreadSanitizer: only the threaded test (tests/c/test_threads.c) runs under it.
  else if (t === 'tsan') cmakePreset('tsan', ['test_threads'], ['test_threads']);
  else if (t === 'wasm') {
    need('emcc', 'bash scripts/setup.sh');
    cmakePreset('wasm', ['limber.wasm']);
    cmakePreset('wasm-scalar', ['limber-scalar.wasm']);
    cmakePreset('wasm-mt', ['limber-mt.wasm']);
  } else if (t === 'ts') {
    const tsSrc = Math.max(newest(join(root, 'web'), ['.ts']), mtime(join(root, 'tsconfig.json')));
    if (mtime(join(root, 'dist/web/bridge/index.js')) < tsSrc) run(join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], 'ts: tsc -p tsconfig.json (bridge, three adapter, CLI -> dist/web)');
    // The bridge loads limber.wasm from beside itself (dist/web/bridge/).
    mkdirSync(join(root, 'dist/web/bridge'), { recursive: true });
    const builds = { 'limber.wasm': 'wasm', 'limber-scalar.wasm': 'wasm-scalar', 'limber-mt.wasm': 'wasm-mt' };
    for (const [f, dir] of Object.entries(builds)) {
      const src = join(root, 'build', dir, f);
      if (existsSync(src) && mtime(join(root, 'dist/web/bridge', f)) < mtime(src)) copyFileSync(src, join(root, 'dist/web/bridge', f));
    }
  } else {
    process.stderr.write(`build: unknown target '${t}'\n`);
    process.exit(2);
  }
}
