// Threads in Node (issue 36): every stored scene on limber-mt.wasm at 1, 2 and 4 threads gives
// the stored hash, the option is checked, a world gets the threads it asked for, a snapshot
// restores under running workers, and destroyed worlds leave no worker behind (this file's
// process exits: node --test would time out otherwise).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { createWorld, LimberError } from '../../dist/web/bridge/index.js';

const expected = JSON.parse(readFileSync('tests/expected-hashes.json', 'utf8'));
const mt = new URL('../../dist/web/bridge/limber-mt.wasm', import.meta.url);

async function sceneHash(world, file, steps) {
  const text = readFileSync(file, 'utf8');
  const files = Object.fromEntries(world.sceneFiles(text).map((p) => [p, readFileSync(p)]));
  const sc = world.loadScene(text, { files });
  for (let i = 0; i < steps; i++) sc.step(1 / 60);
  return world.hash();
}

for (const [key, hash] of Object.entries(expected)) {
  const [file, stepsText] = key.split('@');
  const scene = file.includes('/') ? file : `assets/scenes/${file}`; // a test-only scene names its folder
  for (const threads of [1, 2, 4]) {
    test(`${key}: limber-mt.wasm at ${threads} thread(s)`, async () => {
      // threads: 1 runs limber.wasm unless a module is given: here limber-mt.wasm, so that
      // every count runs the threaded build.
      const world = await createWorld({ threads, threadsWasm: mt, wasm: threads === 1 ? mt : undefined });
      try {
        assert.equal(world.threads, threads);
        assert.equal(await sceneHash(world, scene, Number(stepsText)), hash);
      } finally {
        world.destroy();
      }
    });
  }
}

test('createWorld: the default in Node is one thread per core, on limber-mt.wasm', async () => {
  const { availableParallelism } = await import('node:os');
  const world = await createWorld();
  assert.equal(world.threads, Math.min(64, availableParallelism()));
  world.destroy();
  const one = await createWorld({ threads: 1 });
  assert.equal(one.threads, 1);
  one.destroy();
  // A chosen single-thread module keeps the world on one thread unless threads are asked for.
  const scalar = await createWorld({ wasm: new URL('../../dist/web/bridge/limber-scalar.wasm', import.meta.url) });
  assert.equal(scalar.threads, 1);
  scalar.destroy();
});

test('createWorld: options.threads must be a whole number 1..64', async () => {
  for (const bad of [0, 65, 1.5, -1, NaN, '2', null]) {
    await assert.rejects(createWorld({ threads: bad }), (e) => e instanceof LimberError && e.code === 'LB_ERR_OUT_OF_RANGE' && /options\.threads = .*: must be a whole number 1\.\.64/.test(e.message), String(bad));
  }
});

test('createWorld: a threadsWasm that is no limber-mt.wasm is refused when threads are asked for', async () => {
  await assert.rejects(createWorld({ threads: 2, threadsWasm: new URL('../../dist/web/bridge/limber.wasm', import.meta.url) }), (e) => e instanceof LimberError && e.code === 'LB_ERR_WASM_LOAD');
});

test('snapshot and restore under running workers: the same hash and the same steps again', async () => {
  const world = await createWorld({ threads: 2 });
  const text = readFileSync('tests/scenes/npc-crowd.json', 'utf8');
  const files = Object.fromEntries(world.sceneFiles(text).map((p) => [p, readFileSync(p)]));
  const sc = world.loadScene(text, { files });
  for (let i = 0; i < 20; i++) sc.step(1 / 60);
  const snap = world.snapshot();
  const at = world.hash();
  for (let i = 0; i < 40; i++) sc.step(1 / 60);
  const later = world.hash();
  world.restore(snap);
  assert.equal(world.hash(), at);
  for (let i = 0; i < 40; i++) sc.step(1 / 60);
  assert.equal(world.hash(), later);
  world.destroy();
  assert.throws(() => world.threads, LimberError);
});

test('strings read from shared memory (names, errors) decode', async () => {
  const world = await createWorld({ threads: 2 });
  const e = world.spawn();
  assert.throws(() => world.step(-1), (err) => err instanceof LimberError && /dt/.test(err.message));
  assert.ok(world.alive(e));
  world.destroy();
});
