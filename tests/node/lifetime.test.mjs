// World and scene lifetimes (soak): destroyed worlds hold no memory, and scene.destroy()
// despawns what the scene spawned, so loading and destroying scenes keeps a world flat.
// Prints the figures it asserts on. LIMBER_SOAK=N runs N cycles instead of 1,000.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import { createWorld, Transform } from '../../dist/web/bridge/index.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');
const CYCLES = Number(process.env.LIMBER_SOAK ?? 1000);
const MB = 2 ** 20;
const sceneText = readFileSync(new URL('../../assets/scenes/grip-lab.json', import.meta.url), 'utf8');
const defaultScene = readFileSync(new URL('../../assets/scenes/default.json', import.meta.url), 'utf8');
const noAssets = JSON.stringify({
  entities: [
    { name: 'a', components: { Transform: { position: [0, 1, 0] } } },
    { name: 'b', components: { Transform: { parent: 'a', position: [0, 0.5, 0] } } },
    { name: 'c', components: { Transform: { parent: 'b' }, GripSurface: { shape: 'Sphere', radius: 0.1 } } },
  ],
});

function memory() {
  gc();
  gc();
  const m = process.memoryUsage();
  return { rss: m.rss, external: m.external };
}
const fmt = (m) => `rss ${(m.rss / MB).toFixed(1)} MB, external ${(m.external / MB).toFixed(1)} MB`;

test(`${CYCLES} x createWorld / loadScene / step / destroy: destroyed worlds hold no memory`, async () => {
  // limber.wasm (threads: 1): a threaded world's workers take tens of ms each to start, so
  // its soak below is shorter.
  // Warm-up: the compiled module is cached, V8 settles its heaps.
  for (let i = 0; i < 20; i++) (await createWorld({ threads: 1 })).destroy();
  const before = memory();
  const t0 = performance.now();
  let peakExternal = before.external;
  for (let i = 0; i < CYCLES; i++) {
    const world = await createWorld({ threads: 1 });
    const scene = world.loadScene(sceneText);
    scene.step(1 / 60);
    world.step(1 / 60);
    scene.destroy();
    world.destroy();
    if (i % 100 === 99) peakExternal = Math.max(peakExternal, memory().external);
  }
  const ms = performance.now() - t0;
  const after = memory();
  console.log(`worlds: before ${fmt(before)}; after ${CYCLES} cycles ${fmt(after)}; peak external ${(peakExternal / MB).toFixed(1)} MB; ${(ms / CYCLES).toFixed(2)} ms/cycle`);
  console.log(`worlds: growth per cycle: rss ${((after.rss - before.rss) / CYCLES / 1024).toFixed(2)} KB, external ${((after.external - before.external) / CYCLES / 1024).toFixed(2)} KB`);
  // Each world's wasm memory is 16 MB and is counted in `external`: one world kept alive
  // per cycle would add >= 16 MB x CYCLES (16 GB at 1,000). A bound of 64 MB (four worlds)
  // leaves room for instances the collector has not reached yet, and none for a leak.
  assert.ok(after.external - before.external < 64 * MB, `external grew by ${((after.external - before.external) / MB).toFixed(1)} MB`);
  assert.ok(peakExternal - before.external < 64 * MB, `external peaked ${((peakExternal - before.external) / MB).toFixed(1)} MB above the start`);
  // RSS also holds V8's code and heap pages: 128 MB is 8 worlds' worth (a leak of one world
  // in 125 cycles would pass; one per cycle, the defect, gives ~1.5 GB).
  assert.ok(after.rss - before.rss < 128 * MB, `rss grew by ${((after.rss - before.rss) / MB).toFixed(1)} MB`);
});

const THREADED_CYCLES = Math.ceil(CYCLES / 10);

test(`${THREADED_CYCLES} x createWorld({ threads: 2 }) / loadScene / step / destroy: no memory and no worker thread left`, async () => {
  for (let i = 0; i < 5; i++) (await createWorld({ threads: 2 })).destroy();
  const before = memory();
  const t0 = performance.now();
  for (let i = 0; i < THREADED_CYCLES; i++) {
    const world = await createWorld({ threads: 2 });
    assert.equal(world.threads, 2);
    const scene = world.loadScene(sceneText);
    scene.step(1 / 60);
    world.step(1 / 60);
    world.destroy();
  }
  const ms = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 200)); // terminated workers finish exiting
  const after = memory();
  console.log(`threaded worlds: before ${fmt(before)}; after ${THREADED_CYCLES} cycles ${fmt(after)}; ${(ms / THREADED_CYCLES).toFixed(1)} ms/cycle`);
  // Each threaded world has its own 16 MB shared memory: one kept per cycle would add
  // >= 16 MB x cycles.
  assert.ok(after.external - before.external < 64 * MB, `external grew by ${((after.external - before.external) / MB).toFixed(1)} MB`);
  assert.ok(after.rss - before.rss < 256 * MB, `rss grew by ${((after.rss - before.rss) / MB).toFixed(1)} MB`);
  const workers = process.getActiveResourcesInfo().filter((r) => /Worker/i.test(r)).length;
  assert.equal(workers, 0, 'every worker thread ended');
});

async function sceneSoak(text, label) {
  const world = await createWorld({ threads: 1 });
  const size = () => world.native(({ heap }) => heap.size);
  const keep = world.spawn();
  world.insert(keep, Transform, { position: [7, 8, 9] });
  // Warm-up: the first loads size the world's tables (entity slots, component pages).
  for (let i = 0; i < 20; i++) world.loadScene(text).destroy();
  const before = size();
  const firstHandle = world.loadScene(text);
  const handles = [...firstHandle.entities.values()];
  firstHandle.destroy();
  const t0 = performance.now();
  for (let i = 0; i < CYCLES; i++) {
    const scene = world.loadScene(text);
    scene.step(1 / 60);
    scene.destroy();
    for (const e of scene.entities.values()) assert.equal(world.alive(e), false, `${label}: scene entity left alive`);
  }
  const ms = performance.now() - t0;
  const after = size();
  // The slots are reused: a new scene gets the same slot indices (generation aside).
  const last = world.loadScene(text);
  assert.deepEqual([...last.entities.values()].map((e) => e & 0xfffff), handles.map((e) => e & 0xfffff), `${label}: entity slots are reused`);
  last.destroy();
  assert.deepEqual(world.get(keep, Transform).position, [7, 8, 9], 'entities outside the scene are left alone');
  console.log(`${label}: wasm memory before ${(before / MB).toFixed(2)} MB, after ${CYCLES} load/step/destroy ${(after / MB).toFixed(2)} MB, ${((after - before) / CYCLES).toFixed(0)} B/cycle, ${(ms / CYCLES).toFixed(2)} ms/cycle`);
  world.destroy();
  return { before, after };
}

test(`${CYCLES} x loadScene / step / scene.destroy in one world: entities are despawned, memory flat`, async () => {
  // Entities and components only: nothing may grow at all.
  const plain = await sceneSoak(noAssets, 'scene without assets');
  assert.equal(plain.after, plain.before, 'no growth');
  // With a rig asset (default.json: one procedural humanoid): scene.destroy frees the
  // skeleton it added (lb_scene_unload), so nothing grows either.
  const rig = await sceneSoak(defaultScene, 'default.json (humanoid rig asset)');
  assert.equal(rig.after, rig.before, `grew ${rig.after - rig.before} B`);
});
