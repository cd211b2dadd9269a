// The npm package as published: `npm pack`, then what a user gets from the tarball.
//  (a) the tarball holds LICENSE, README.md, every file `exports`, `main`, `types` and `bin`
//      name (incl. both wasm builds); every source map carries its sources;
//  (b) the browser entry and limber/three reach no `node:` module (static import graph), and
//      limber/three shares the entries' api.js (one copy of the API in a bundle);
//  (c) installed from the tarball into a fresh app: `import` (ESM) and `require` (CJS) both
//      create a world and give the same hash as the repository build; `limber/limber.wasm`
//      resolves; `npx limber hash` (the bin) prints the scene's hash;
//  (d) a wrong wasm URL fails with "limber.wasm not found at URL (got text/html, status 200)".
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join, posix } from 'node:path';
import { after, before, test } from 'node:test';
import { installApp, packLimber, root } from './pack.mjs';

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const leaves = (v) => (typeof v === 'string' ? [v] : Object.values(v).flatMap(leaves));
const norm = (p) => posix.normalize(p).replace(/^\.\//, '');

test('tarball: LICENSE, README and every file that exports, main, types and bin name', () => {
  const { files } = packLimber();
  const have = new Set(files);
  const named = [...leaves(pkg.exports), pkg.main, pkg.types, ...Object.values(pkg.bin)].map(norm);
  for (const f of ['LICENSE', 'README.md', 'package.json', ...named]) assert.ok(have.has(f), `the tarball lacks ${f}`);
  assert.ok(have.has('dist/web/bridge/limber.wasm') && have.has('dist/web/bridge/limber-scalar.wasm'));
  // Threads (issue 36): the threaded module and the worker scripts the entries start.
  for (const f of ['limber-mt.wasm', 'mt-worker.js', 'mt-worker-node.js', 'threads.js']) assert.ok(have.has(`dist/web/bridge/${f}`), `the tarball lacks dist/web/bridge/${f}`);
  assert.match(readFileSync(join(root, 'LICENSE'), 'utf8'), /MIT License/);
  assert.equal(pkg.license, 'MIT');
  assert.equal(pkg.peerDependencies?.three !== undefined && pkg.peerDependenciesMeta?.three?.optional, true, 'three is an optional peer');
  assert.ok(!files.some((f) => f.startsWith('dist/playground') || f.startsWith('build/')), 'no playground bundle or build output');
});

test('tarball: every source map resolves, its sources are inlined', () => {
  const { files } = packLimber();
  const maps = files.filter((f) => f.endsWith('.js.map'));
  assert.ok(maps.length > 10);
  for (const m of maps) {
    const map = JSON.parse(readFileSync(join(root, m), 'utf8'));
    assert.equal(map.sourcesContent?.length, map.sources.length, `${m}: sourcesContent for every source`);
    assert.ok(map.sourcesContent.every((s) => typeof s === 'string' && s.length > 0), `${m}: non-empty sources`);
    const js = m.replace(/\.map$/, '');
    assert.ok(files.includes(js) && readFileSync(join(root, js), 'utf8').includes(`sourceMappingURL=${posix.basename(m)}`), `${js} names its map`);
  }
});

/** Relative imports of a dist module, followed; returns every module and bare specifier. */
function importGraph(entry) {
  const seen = new Set();
  const bare = new Set();
  const walk = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const src = readFileSync(join(root, file), 'utf8');
    for (const m of src.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s*['"]([^'"]+)['"]/g)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (spec.startsWith('.')) walk(posix.join(posix.dirname(file), spec));
      else bare.add(spec);
    }
  };
  walk(norm(entry));
  return { modules: seen, bare };
}

test('browser entry and limber/three import no Node module; limber/three shares api.js', () => {
  const browser = importGraph(pkg.exports['.'].browser);
  assert.deepEqual([...browser.bare], [], `browser entry imports ${[...browser.bare]}`);
  assert.ok(!browser.modules.has('dist/web/bridge/index.js'));
  const three = importGraph(pkg.exports['./three'].default);
  assert.deepEqual([...three.bare].sort(), ['three']);
  assert.ok(three.modules.has('dist/web/bridge/api.js') && !three.modules.has('dist/web/bridge/index.js'));
  assert.ok(readFileSync(join(root, 'dist/web/bridge/browser.js'), 'utf8').includes("new URL('./limber.wasm', import.meta.url)"), 'the bundler-visible wasm URL');
  assert.equal(pkg.exports['.'].node, './dist/web/bridge/index.js');
});

test('limber/rapier: no Node module and no runtime import of Rapier (the game passes its module); shares api.js; Rapier is an optional peer', () => {
  const rapier = importGraph(pkg.exports['./rapier'].default);
  assert.deepEqual([...rapier.bare], [], `limber/rapier imports ${[...rapier.bare]}`);
  assert.ok(rapier.modules.has('dist/web/bridge/api.js') && !rapier.modules.has('dist/web/bridge/index.js'));
  assert.equal(pkg.peerDependenciesMeta?.['@dimforge/rapier3d-compat']?.optional, true);
  assert.ok(pkg.devDependencies?.['@dimforge/rapier3d-compat'], 'a devDependency for the tests');
});

let app;
before(() => {
  app = installApp(null);
});
after(() => app?.cleanup());

const SCENE = join(root, 'assets/scenes/default.json');
const nodeIn = (args, input) => execFileSync(process.execPath, args, { cwd: app.dir, encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'] });

test('installed from the tarball: ESM import, CJS require, limber/limber.wasm and the bin agree', async () => {
  const { createWorld } = await import(join(root, 'dist/web/bridge/index.js'));
  const world = await createWorld();
  const scene = world.loadScene(readFileSync(SCENE, 'utf8'));
  for (let i = 0; i < 60; i++) scene.step(1 / 60);
  const expected = world.hash();

  const body = `const text = readFileSync(${JSON.stringify(SCENE)}, 'utf8');
    const w = await createWorld(); const s = w.loadScene(text); for (let i = 0; i < 60; i++) s.step(1 / 60); console.log(w.hash());`;
  const esm = nodeIn(['--input-type=module', '-e', `import { createWorld } from 'limber'; import { readFileSync } from 'node:fs'; ${body}`]).trim();
  assert.equal(esm, expected, 'ESM import');
  const cjs = nodeIn(['-e', `const { createWorld } = require('limber'); const { readFileSync } = require('node:fs'); (async () => { ${body} })();`]).trim();
  assert.equal(cjs.split('\n').at(-1), expected, 'CJS require');

  const wasmPath = nodeIn(['-e', "console.log(require.resolve('limber/limber.wasm'))"]).trim();
  assert.ok(wasmPath.startsWith(join(app.dir, 'node_modules/limber/')), wasmPath);
  assert.deepEqual([...readFileSync(wasmPath).subarray(0, 4)], [0, 0x61, 0x73, 0x6d]);
  const explicit = nodeIn(['--input-type=module', '-e', `import { createWorld } from 'limber'; import { readFileSync } from 'node:fs'; import { createRequire } from 'node:module';
    const req = createRequire(process.cwd() + '/'); const w0 = await createWorld({ wasm: readFileSync(req.resolve('limber/limber-scalar.wasm')) }); const w1 = await createWorld({ wasm: req.resolve('limber/limber.wasm') });
    console.log(w0.hash() === w1.hash());`]).trim();
  assert.equal(explicit, 'true', 'wasm given as bytes and as a path');

  const npx = execFileSync('npx', ['--no-install', 'limber', 'hash', SCENE, '--steps', '60'], { cwd: app.dir, encoding: 'utf8' }).trim().split('\n').at(-1);
  assert.equal(npx, expected, 'npx limber hash');
});

test('installed from the tarball: threads in Node (limber-mt.wasm, worker_threads) give the one-thread hash, and the process exits', async () => {
  const { createWorld } = await import(join(root, 'dist/web/bridge/index.js'));
  const one = await createWorld({ threads: 1 });
  const scene = one.loadScene(readFileSync(SCENE, 'utf8'));
  for (let i = 0; i < 60; i++) scene.step(1 / 60);
  const expected = one.hash();
  one.destroy();
  // The world is left undisposed on purpose: its workers must not keep the process alive.
  const out = nodeIn(['--input-type=module', '-e', `import { createWorld } from 'limber'; import { readFileSync } from 'node:fs';
    const w = await createWorld({ threads: 2 }); const s = w.loadScene(readFileSync(${JSON.stringify(SCENE)}, 'utf8')); for (let i = 0; i < 60; i++) s.step(1 / 60);
    const d = await createWorld(); console.log(w.threads, d.threads > 1, w.hash());`]).trim();
  assert.equal(out, `2 true ${expected}`);
});

test('a wrong wasm URL says what came back instead', async (t) => {
  const { createWorld } = await import(join(root, 'dist/web/bridge/index.js'));
  const server = createServer((req, res) => {
    if (req.url === '/missing.wasm') {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('nope');
    } else {
      res.writeHead(200, { 'content-type': 'text/html' }); // a dev server's index.html fallback
      res.end('<!doctype html><html></html>');
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => server.close());
  const base = `http://127.0.0.1:${server.address().port}`;
  await assert.rejects(createWorld({ wasm: `${base}/limber.wasm` }), { name: 'LimberError', code: 'LB_ERR_WASM_LOAD', message: `limber.wasm not found at ${base}/limber.wasm (got text/html, status 200)` });
  await assert.rejects(createWorld({ wasm: `${base}/missing.wasm` }), { message: `limber.wasm not found at ${base}/missing.wasm (got text/plain, status 404)` });
  await assert.rejects(createWorld({ wasm: new Uint8Array([0x3c, 0x21, 0x64, 0x6f]) }), { message: 'limber.wasm: options.wasm bytes are not a WebAssembly module (they start 3c 21 64 6f)' });
  await assert.rejects(createWorld({ wasm: join(dirname(SCENE), 'nope.wasm') }), /limber.wasm not found at .*nope\.wasm \(ENOENT\)/);
  // a failed load is not cached: the right URL afterwards works
  const ok = await createWorld({ wasm: new URL('../../dist/web/bridge/limber.wasm', import.meta.url) });
  assert.match(ok.hash(), /^[0-9a-f]{16}$/);
});
