// Regression tests for the bridge's memory safety and strict input: every write into wasm
// memory is bounded by its block, every allocation is checked, every failure is a
// LimberError with a code and a message, and a failed call changes nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  createWorld,
  GripHolder,
  GripPose,
  LimberError,
  Rig,
  Transform,
  TwoBoneIK,
} from '../../dist/web/bridge/index.js';
import { Heap } from '../../dist/web/bridge/wasm.js';

const limberError = (code, re) => (err) => {
  assert.ok(err instanceof LimberError, `expected a LimberError, got ${err?.constructor?.name}: ${err?.message}`);
  if (code) assert.equal(err.code, code, err.message);
  assert.ok(err.message.startsWith(`${err.code}: `), `message starts with its code: ${err.message}`);
  if (re) assert.match(err.message, re);
  return true;
};

async function heroWorld() {
  const world = await createWorld();
  const hero = world.spawn();
  world.insert(hero, Transform, {});
  world.insert(hero, Rig, { asset: world.rig.addHumanoid() });
  world.step(1 / 60);
  return { world, hero };
}

/** What a failed call must leave as it was. */
function snapshot(world, entities) {
  return JSON.stringify({ hash: world.hash(), alive: entities.map((e) => world.alive(e)), t: entities.map((e) => world.has(e, Transform) && world.get(e, Transform)) });
}

// ---- defect 1: setAnimationPose copied t/r/s without a length check ------------------------

test('setAnimationPose: an s of 11 numbers is refused and later calls still work', async () => {
  const { world, hero } = await heroWorld();
  const pose = world.localPose(hero);
  const other = world.spawn();
  world.insert(other, Transform, { position: [1, 2, 3] });
  const before = snapshot(world, [hero, other]);
  const bad = pose.map((j) => ({ ...j }));
  bad[3] = { ...bad[3], s: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1] };
  assert.throws(() => world.setAnimationPose(hero, bad), limberError('LB_ERR_INVALID_ARGUMENT', /field 'pose\[3\]\.s' must be an array of 3 numbers/));
  assert.equal(snapshot(world, [hero, other]), before);
  // Ordinary calls afterwards: no memory fault, same answers.
  for (let i = 0; i < 5; i++) world.step(1 / 60);
  assert.deepEqual(world.get(other, Transform).position, [1, 2, 3]);
  world.setAnimationPose(hero, pose);
  world.step(1 / 60);
});

test('setAnimationPose: short arrays, wrong types, null entries and wrong joint counts are LimberErrors', async () => {
  const { world, hero } = await heroWorld();
  const pose = world.localPose(hero);
  const before = snapshot(world, [hero]);
  const cases = [
    [(p) => { p[0] = { ...p[0], t: [0, 0] }; }, /pose\[0\]\.t' must be an array of 3/],
    [(p) => { p[1] = { ...p[1], r: [0, 0, 0] }; }, /pose\[1\]\.r' must be an array of 4/],
    [(p) => { p[2] = { ...p[2], s: ['1', 1, 1] }; }, /pose\[2\]\.s\[0\]' must be a number/],
    [(p) => { p[4] = null; }, /pose\[4\]' must be a joint transform/],
    [(p) => { p[5] = 7; }, /pose\[5\]' must be a joint transform/],
    [(p) => { p[6] = { t: [0, 0, 0], r: [0, 0, 0, 1] }; }, /pose\[6\]\.s' must be an array of 3/],
    [(p) => { p.pop(); }, /has 64 joints, the rig of entity 0v0 has 65/],
    [(p) => { p.push(p[0]); }, /has 66 joints/],
  ];
  for (const [mutate, re] of cases) {
    const p = pose.map((j) => ({ ...j }));
    mutate(p);
    assert.throws(() => world.setAnimationPose(hero, p), limberError('LB_ERR_INVALID_ARGUMENT', re));
  }
  assert.throws(() => world.setAnimationPose(hero, null), limberError('LB_ERR_INVALID_ARGUMENT', /field 'pose' must be an array/));
  assert.throws(() => world.setAnimationPose(hero, new Array(1e6).fill(pose[0])), limberError('LB_ERR_INVALID_ARGUMENT', /has 1000000 joints/));
  assert.equal(snapshot(world, [hero]), before);
  world.step(1 / 60);
  // Typed arrays are accepted (a renderer's buffers).
  world.setAnimationPose(hero, pose.map((j) => ({ t: Float32Array.from(j.t), r: Float64Array.from(j.r), s: j.s })));
  world.step(1 / 60);
});

test('Heap: writes stay inside their block', async () => {
  const world = await createWorld();
  world.native(({ heap, ex }) => {
    const p = heap.alloc(16, 'test');
    try {
      assert.throws(() => heap.block(p, 16).set(new Uint8Array(17)), RangeError, 'a block view cannot be overrun');
    } finally {
      ex.lbw_free(p);
    }
  });
});

// ---- defect 2: a failed allocation (0) was used as an address --------------------------------

test('Heap: an allocator returning 0 throws LB_ERR_OUT_OF_MEMORY and writes nothing', () => {
  const memory = new WebAssembly.Memory({ initial: 1 });
  new Uint8Array(memory.buffer).fill(0xaa, 0, 64);
  const calls = [];
  const fake = { memory, lbw_alloc: (n) => (calls.push(n), 0), lbw_free: () => {} };
  const heap = new Heap(fake);
  assert.throws(() => heap.bytes(new Uint8Array([1, 2, 3])), limberError('LB_ERR_OUT_OF_MEMORY', /cannot allocate 4 bytes/));
  assert.throws(() => heap.string('hello', 'loadScene'), limberError('LB_ERR_OUT_OF_MEMORY', /loadScene: cannot allocate 6 bytes/));
  assert.throws(() => heap.scratch(8, () => assert.fail('fn must not run')), limberError('LB_ERR_OUT_OF_MEMORY'));
  assert.ok(new Uint8Array(memory.buffer, 0, 64).every((b) => b === 0xaa), 'address 0 untouched');
  // Sizes the allocator cannot take are refused before it is called.
  const n = calls.length;
  for (const bad of [-1, 1.5, NaN, 2 ** 31, 2 ** 32 + 4]) assert.throws(() => heap.alloc(bad), limberError('LB_ERR_OUT_OF_MEMORY'));
  assert.equal(calls.length, n);
});

test('loadRig of more bytes than wasm memory can hold: LB_ERR_OUT_OF_MEMORY, the world unchanged', async () => {
  const { world, hero } = await heroWorld();
  const other = world.spawn();
  world.insert(other, Transform, { position: [4, 5, 6] });
  const before = snapshot(world, [hero, other]);
  // Virtual memory only: the pages are never touched (lbw_alloc fails before any copy).
  for (const size of [0x7ff00000, 0x80000010]) {
    const big = new Uint8Array(size);
    assert.throws(() => world.rig.load(big), limberError('LB_ERR_OUT_OF_MEMORY', /rig\.load: cannot allocate/));
  }
  assert.equal(snapshot(world, [hero, other]), before);
  world.step(1 / 60);
  assert.deepEqual(world.get(other, Transform).position, [4, 5, 6]);
  assert.ok(world.alive(hero));
});

// ---- defect 7: wrong or missing error context --------------------------------------------------

test('worldTransform / gripAnchor on a stale handle name that call, not the previous error', async () => {
  const { world, hero } = await heroWorld();
  const gone = world.spawn();
  world.despawn(gone);
  // Leave an unrelated message in the core's error slot first.
  assert.throws(() => world.insert(hero, Transform, { scale: [1, 1, NaN] }), limberError('LB_ERR_NOT_FINITE'));
  assert.throws(() => world.worldTransform(gone), limberError('LB_ERR_STALE_ENTITY', /^LB_ERR_STALE_ENTITY: worldTransform: field 'entity' = entity 1v0 is not alive/));
  assert.throws(() => world.insert(hero, Transform, { scale: [1, 1, NaN] }), limberError('LB_ERR_NOT_FINITE'));
  assert.throws(() => world.grip.anchor(gone, 'main'), limberError('LB_ERR_STALE_ENTITY', /grip\.anchor: field 'holder'/));
  assert.throws(() => world.grip.anchor(hero, 'middle'), limberError('LB_ERR_UNKNOWN_NAME', /field 'role'/));
  for (const fn of [() => world.modelPose(gone), () => world.modelMatrices(gone), () => world.localPose(gone), () => world.grip.status(gone), () => world.grip.captureFingerPose(gone, 'RightHand')]) {
    assert.throws(fn, limberError('LB_ERR_STALE_ENTITY', /entity 1v0/));
  }
});

test('cyclic objects and unencodable values are LimberErrors, not TypeErrors', async () => {
  const { world, hero } = await heroWorld();
  const cyclic = { entities: [] };
  cyclic.self = cyclic;
  const before = snapshot(world, [hero]);
  assert.throws(() => world.loadScene(cyclic), limberError('LB_ERR_INVALID_ARGUMENT', /loadScene: field 'scene' cannot be written as JSON/));
  assert.throws(() => world.sceneFiles(cyclic), limberError('LB_ERR_INVALID_ARGUMENT', /sceneFiles/));
  assert.throws(() => world.grip.registerPose('loop', cyclic), limberError('LB_ERR_INVALID_ARGUMENT', /grip\.registerPose: field 'pose'/));
  assert.throws(() => world.grip.registerFingerPose('loop', cyclic), limberError('LB_ERR_INVALID_ARGUMENT', /grip\.registerFingerPose: field 'pose'/));
  assert.throws(() => world.grip.registerPose('big', { index: { curl: 10n } }), limberError('LB_ERR_INVALID_ARGUMENT', /cannot be written as JSON/));
  assert.throws(() => world.loadScene(undefined), limberError('LB_ERR_INVALID_ARGUMENT', /field 'scene' must be/));
  assert.throws(() => world.loadScene('{}', { files: { 'a.glb': 'not bytes' } }), limberError('LB_ERR_INVALID_ARGUMENT', /files\["a.glb"\]/));
  assert.equal(snapshot(world, [hero]), before);
});

// ---- defect 8: silent acceptance ---------------------------------------------------------------

test('entity handles must be whole numbers naming a live entity', async () => {
  const { world, hero } = await heroWorld();
  const t = world.spawn();
  world.insert(t, Transform, { position: [1, 0, 0] });
  const before = snapshot(world, [hero, t]);
  for (const bad of [t + 0.5, String(t), -1, 2 ** 32, NaN, null, undefined, {}, [t], BigInt(t)]) {
    const field = /field 'entity' must be an entity handle/;
    assert.throws(() => world.despawn(bad), limberError('LB_ERR_INVALID_ARGUMENT', field));
    assert.throws(() => world.insert(bad, Transform, {}), limberError('LB_ERR_INVALID_ARGUMENT', field));
    assert.throws(() => world.get(bad, Transform), limberError('LB_ERR_INVALID_ARGUMENT', field));
    assert.throws(() => world.update(bad, Transform, () => {}), limberError('LB_ERR_INVALID_ARGUMENT', field));
    assert.throws(() => world.remove(bad, Transform), limberError('LB_ERR_INVALID_ARGUMENT', field));
    assert.throws(() => world.alive(bad), limberError('LB_ERR_INVALID_ARGUMENT', field));
    assert.throws(() => world.has(bad, Transform), limberError('LB_ERR_INVALID_ARGUMENT', field));
    assert.throws(() => world.worldTransform(bad), limberError('LB_ERR_INVALID_ARGUMENT', field));
    assert.throws(() => world.setAnimationPose(bad, []), limberError('LB_ERR_INVALID_ARGUMENT', field));
    assert.throws(() => world.grip.status(bad), limberError('LB_ERR_INVALID_ARGUMENT', field));
    assert.throws(() => world.anim.setParam(bad, 'x', 1), limberError('LB_ERR_INVALID_ARGUMENT', field));
    // Entity fields inside components too.
    assert.throws(() => world.insert(t, TwoBoneIK, { rig: hero, target: bad }), limberError(undefined, /field 'target'/));
  }
  assert.equal(snapshot(world, [hero, t]), before);
  // Stale handles: an error naming the field; alive/has answer false.
  world.despawn(t);
  assert.equal(world.alive(t), false);
  assert.equal(world.has(t, Transform), false);
  assert.throws(() => world.despawn(t), limberError('LB_ERR_STALE_ENTITY', /despawn: field 'entity' = entity 1v0 is not alive/));
  assert.throws(() => world.remove(0, Transform), limberError('LB_ERR_STALE_ENTITY', /null entity/));
});

test("read-only fields are refused on insert and on update, as scene JSON refuses them", async () => {
  const { world, hero } = await heroWorld();
  const target = world.spawn();
  world.insert(target, Transform, { position: [-0.35, 1.2, 0.3] });
  const arm = world.spawn();
  const before = snapshot(world, [hero, target, arm]);
  assert.throws(() => world.insert(arm, TwoBoneIK, { rig: hero, tip: 'RightHand', target, reached: true }),
    limberError('LB_ERR_INVALID_ARGUMENT', /TwoBoneIK on entity 2v0: field 'reached' is an output and cannot be set/));
  assert.equal(world.has(arm, TwoBoneIK), false);
  assert.equal(snapshot(world, [hero, target, arm]), before);
  // The same wording as a scene file.
  assert.throws(() => world.loadScene({ entities: [{ name: 'a', components: { TwoBoneIK: { reached: true } } }] }), limberError('LB_ERR_INVALID_ARGUMENT', /field 'reached' is an output and cannot be set/));
  world.insert(arm, TwoBoneIK, { rig: hero, tip: 'RightHand', target });
  world.step(1 / 60);
  const got = world.get(arm, TwoBoneIK);
  // update: the read value may be kept (the object passed to fn holds it), not changed.
  world.update(arm, TwoBoneIK, (ik) => { ik.weight = 0.5; });
  assert.throws(() => world.update(arm, TwoBoneIK, (ik) => { ik.distance = 123; }), limberError('LB_ERR_INVALID_ARGUMENT', /field 'distance' is an output/));
  assert.throws(() => world.update(arm, TwoBoneIK, () => ({ reached: !got.reached })), limberError('LB_ERR_INVALID_ARGUMENT', /field 'reached' is an output/));
  assert.equal(world.get(arm, TwoBoneIK).weight, 0.5);
  // A component read from one entity cannot be inserted as is on another (it holds outputs).
  const arm2 = world.spawn();
  assert.throws(() => world.insert(arm2, TwoBoneIK, got), limberError('LB_ERR_INVALID_ARGUMENT', /is an output/));
  world.insert(hero, GripHolder, {});
  assert.throws(() => world.insert(hero, GripHolder, { mainDistance: 0 }), limberError('LB_ERR_INVALID_ARGUMENT', /'mainDistance' is an output/));
});

test('names containing NUL are refused, not cut', async () => {
  const { world, hero } = await heroWorld();
  world.insert(hero, GripPose, {});
  const before = snapshot(world, [hero]);
  const nul = /must not contain a NUL character/;
  assert.throws(() => world.grip.registerPose('claw\0x', { index: { curl: 1 } }), limberError('LB_ERR_INVALID_ARGUMENT', nul));
  assert.throws(() => world.update(hero, GripPose, (g) => { g.rightPose = 'fist\0junk'; }), limberError('LB_ERR_INVALID_ARGUMENT', nul));
  assert.throws(() => world.grip.captureFingerPose(hero, 'RightHand\0'), limberError('LB_ERR_INVALID_ARGUMENT', nul));
  assert.throws(() => world.grip.registerFingerPose('a\0', { joints: {} }), limberError('LB_ERR_INVALID_ARGUMENT', nul));
  assert.throws(() => world.rig.findJoint(world.get(hero, Rig).asset, 'Hips\0'), limberError('LB_ERR_INVALID_ARGUMENT', nul));
  assert.throws(() => world.grip.findHand(hero, 'Right', 'RightHand\0'), limberError('LB_ERR_INVALID_ARGUMENT', nul));
  assert.throws(() => world.grip.registerPose('x'.repeat(5000), {}), limberError('LB_ERR_OUT_OF_RANGE', /longer than 1024 bytes/));
  // 'claw' was not registered under the cut name.
  assert.throws(() => world.update(hero, GripPose, (g) => { g.rightPose = 'claw'; }), limberError('LB_ERR_UNKNOWN_NAME'));
  assert.equal(snapshot(world, [hero]), before);
});

test('a destroyed world throws LimberErrors and can be destroyed twice; its scenes too', async () => {
  const world = await createWorld();
  const scene = world.loadScene({ entities: [{ name: 'a', components: { Transform: {} } }] });
  world.destroy();
  world.destroy();
  assert.equal(world.destroyed, true);
  assert.equal(scene.destroyed, true);
  scene.destroy();
  for (const fn of [() => world.spawn(), () => world.step(0.01), () => world.hash(), () => world.alive(1), () => scene.step(0.01), () => world.grip.status(1), () => world.native(() => 0)]) {
    assert.throws(fn, limberError('LB_ERR_INVALID_ARGUMENT', /destroyed/));
  }
});

// A core defect the API fuzzer found (tests/node/api-fuzz.test.mjs): lb_scene_step applied the
// due timeline commands, advancing past each, before a failing one returned and before dt was
// checked. Fixed in the core: dt first, then all of a step's commands or none.
test('scene.step is atomic: a failed step applies no command and consumes none', async () => {
  const world = await createWorld();
  const scene = world.loadScene({
    entities: [{ name: 'a', components: { Transform: {} } }, { name: 'b', components: { Transform: {} } }],
    timeline: [
      { step: 0, update: { entity: 'b', component: 'Transform', fields: { position: [1, 0, 0] } } },
      { step: 0, update: { entity: 'a', component: 'Transform', fields: { position: [2, 0, 0] } } },
    ],
  });
  // A bad dt: the commands must not be applied.
  assert.throws(() => scene.step(NaN), limberError('LB_ERR_OUT_OF_RANGE'));
  assert.deepEqual(world.get(scene.entity('b'), Transform).position, [0, 0, 0], 'command applied by a failed step');
  // A failing command: neither it nor the one before it is applied, and it is not consumed.
  world.despawn(scene.entity('a'));
  assert.throws(() => scene.step(1 / 60), limberError('LB_ERR_STALE_ENTITY'));
  assert.deepEqual(world.get(scene.entity('b'), Transform).position, [0, 0, 0], 'earlier command applied by a failed step');
  assert.throws(() => scene.step(1 / 60), limberError('LB_ERR_STALE_ENTITY'), 'the failing command was consumed');
});

// Component reads build their objects with a generated function where the page allows code
// generation; under a Content-Security-Policy without 'unsafe-eval' (here Node's
// --disallow-code-generation-from-strings) they fall back to per-field readers. Both must
// give the same objects, and updates must round-trip.
test('component get/update give the same values with and without code generation', async () => {
  const { execFileSync } = await import('node:child_process');
  const script = `
    const { createWorld, Transform, CharacterController, GripHolder } = await import(${JSON.stringify(new URL('../../dist/web/bridge/index.js', import.meta.url).href)});
    const world = await createWorld();
    const e = world.spawn();
    world.insert(e, Transform, { position: [1.5, -2, 0.25], rotation: [0, 0.6, 0, 0.8], scale: [1, 2, 3] });
    world.insert(e, CharacterController, { radius: 0.35, height: 1.7, layers: 5 });
    world.update(e, Transform, (t) => { t.position = [t.position[0] * 2, t.position[1], 7]; });
    world.update(e, CharacterController, (c) => { c.backend = 'Host'; });
    let codegen = true;
    try { new Function('return 1'); } catch { codegen = false; }
    console.log(JSON.stringify({ codegen, t: world.get(e, Transform), c: world.get(e, CharacterController) }));
  `;
  const run = (flags) => JSON.parse(execFileSync(process.execPath, [...flags, '--input-type=module', '-e', script], { encoding: 'utf8' }).trim().split('\n').pop());
  const withGen = run([]);
  const without = run(['--disallow-code-generation-from-strings']);
  assert.equal(withGen.codegen, true);
  assert.equal(without.codegen, false);
  assert.deepEqual(without.t, withGen.t);
  assert.deepEqual(without.c, withGen.c);
  assert.deepEqual(withGen.t.position, [3, -2, 7]);
  assert.equal(withGen.c.backend, 'Host');
  assert.equal(Math.fround(0.35), withGen.c.radius);
  assert.deepEqual(Object.keys(without.c), Object.keys(withGen.c), 'same fields in the same order');
});
