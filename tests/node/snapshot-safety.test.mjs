// World.snapshot()/restore() as a hostile caller uses them: another world's snapshot, a
// damaged or made-up one, and bridge objects (Scene) and handles from before or after the
// snapshot. Nothing may trap the module; what a refused restore leaves must be unchanged.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Collider, createWorld, LimberError, NavAgent, Rig, Transform } from '../../dist/web/bridge/index.js';

const gripLab = readFileSync(new URL('../../assets/scenes/grip-lab.json', import.meta.url), 'utf8');
const small = JSON.stringify({
  entities: [
    { name: 'a', components: { Transform: { position: [0, 1, 0] } } },
    { name: 'b', components: { Transform: { parent: 'a', position: [0, 0.5, 0] } } },
  ],
});
const refused = (re) => (err) => err instanceof LimberError && err.code === 'LB_ERR_INVALID_ARGUMENT' && re.test(err.message);

test('restore: a Scene loaded after the snapshot is destroyed by it; destroying it then frees nothing the world uses', async () => {
  const world = await createWorld();
  const before = world.loadScene(small);
  world.step(1 / 60);
  const snap = world.snapshot();
  const hash = world.hash();
  const after = world.loadScene(gripLab);
  for (let i = 0; i < 3; i++) after.step(1 / 60);
  world.restore(snap);
  assert.equal(after.destroyed, true, 'the scene loaded after the snapshot does not exist in it');
  assert.equal(before.destroyed, false, 'the scene loaded before it does');
  after.destroy(); // on 36c0b32: freed memory the restored world uses
  assert.throws(() => after.step(1 / 60), refused(/restore/));
  for (let i = 0; i < 3; i++) before.step(1 / 60);
  // The next load and steps work (36c0b32: RuntimeError: memory access out of bounds).
  const again = world.loadScene(gripLab);
  for (let i = 0; i < 3; i++) again.step(1 / 60);
  assert.match(world.hash(), /^[0-9a-f]{16}$/);
  world.restore(snap);
  assert.equal(world.hash(), hash);
  world.destroy();
});

test('restore: a stale Scene cannot unload a scene loaded after the restore', async () => {
  const world = await createWorld();
  const snap = world.snapshot();
  const stale = world.loadScene(small);
  world.restore(snap);
  const fresh = world.loadScene(small);
  const a = fresh.entity('a');
  stale.destroy(); // on 36c0b32: unloaded `fresh` (same pointer), despawning its entities
  assert.equal(world.alive(a), true, "the new scene's entities are still there");
  assert.equal(fresh.destroyed, false);
  assert.throws(() => stale.step(1 / 60), refused(/destroyed/), 'a stale scene steps nothing (36c0b32: returned without error)');
  fresh.step(1 / 60);
  world.destroy();
});

test('restore: a Scene destroyed after the snapshot is live again after it, and can be destroyed once more', async () => {
  const world = await createWorld();
  const scene = world.loadScene(small);
  const a = scene.entity('a');
  const snap = world.snapshot();
  scene.destroy();
  assert.equal(world.alive(a), false);
  world.restore(snap);
  assert.equal(scene.destroyed, false);
  assert.equal(world.alive(a), true);
  scene.step(1 / 60);
  scene.destroy();
  assert.equal(world.alive(a), false, 'its entities go with it');
  world.destroy();
});

test("restore: another world's snapshot, a damaged one and a made-up one are refused and change nothing", async () => {
  const world = await createWorld();
  const other = await createWorld();
  const scene = world.loadScene(gripLab);
  for (let i = 0; i < 5; i++) scene.step(1 / 60);
  const own = world.snapshot();
  const hash = world.hash();
  const steps = world.stepCount;
  const foreign = other.snapshot();
  assert.notEqual(foreign.world, own.world, 'two worlds, two ids');
  assert.throws(() => world.restore(foreign), refused(/was taken of world .+, not of this world/));
  const cases = [
    { ...own, bytes: own.bytes.slice(0, 16) }, // 36c0b32: accepted, then trapped
    { world: own.world, bytes: new Uint8Array(16) },
    { ...own, bytes: (() => { const b = own.bytes.slice(); b[b.length >> 1] ^= 1; return b; })() },
    { ...own, checksum: '0000000000000000' },
    { ...own, scenes: [[1, 12345]] },
    { ...own, scenes: 'x' },
    { ...own, bytes: new Uint8Array(own.bytes.length + 65536) },
    { ...own, world: String(own.world) },
    null, 7, 'snapshot', {},
  ];
  for (const bad of cases) assert.throws(() => world.restore(bad), (err) => err instanceof LimberError && err.code === 'LB_ERR_INVALID_ARGUMENT');
  assert.equal(world.hash(), hash, 'a refused restore changes nothing');
  assert.equal(world.stepCount, steps);
  scene.step(1 / 60);
  // A snapshot is a value: a copy (structuredClone) restores like the original.
  world.restore(structuredClone(own));
  assert.equal(world.hash(), hash);
  world.destroy();
  other.destroy();
});

test('restore: entity handles issued after the snapshot stay stale, and spawns come out in the same slots', async () => {
  const world = await createWorld();
  const keep = world.spawn();
  const gone = world.spawn();
  world.despawn(gone);
  const snap = world.snapshot();
  const late = [world.spawn(), world.spawn(), world.spawn()];
  for (const e of late) world.insert(e, Transform, { position: [1, 2, 3] });
  world.despawn(keep);
  world.restore(snap);
  const next = [world.spawn(), world.spawn(), world.spawn()];
  assert.deepEqual(next.map((e) => e & 0xfffff), late.map((e) => e & 0xfffff), 'same slots, in the same order');
  for (let i = 0; i < 3; i++) {
    assert.notEqual(next[i], late[i], 'a new generation');
    assert.equal(world.alive(late[i]), false, `the handle from after the snapshot (${late[i]}) is stale`);
    assert.throws(() => world.get(late[i], Transform), (err) => err instanceof LimberError);
  }
  // A live entity of the snapshot is despawned later: its slot skips the generations used since.
  world.despawn(keep);
  world.despawn(next[0]);
  const reused = world.spawn();
  assert.equal(world.alive(keep), false);
  assert.equal(world.alive(late[0]), false);
  assert.ok(reused !== keep && !late.includes(reused));
  world.destroy();
});

test('restore: the checksum costs little beside the copy (printed)', async () => {
  const world = await createWorld();
  world.loadScene(gripLab);
  const t0 = performance.now();
  const snap = world.snapshot();
  const t1 = performance.now();
  world.restore(snap);
  const t2 = performance.now();
  console.log(`# snapshot of ${(snap.bytes.length / 2 ** 20).toFixed(1)} MiB: snapshot ${(t1 - t0).toFixed(1)} ms, restore ${(t2 - t1).toFixed(1)} ms`);
  assert.ok(snap.bytes.length > 0);
  world.destroy();
});

test('restore: asset handles issued after the snapshot name nothing after it, and new assets get new handles', async () => {
  const world = await createWorld();
  const rig0 = world.rig.addHumanoid();
  const snap = world.snapshot();
  const navText = readFileSync(new URL('../../assets/levels/nav-arena.navmesh.json', import.meta.url), 'utf8');
  const lateRig = world.rig.addHumanoid({ naming: 'unreal' });
  const lateMesh = world.collide.addMesh([-1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1], [0, 3, 1, 1, 3, 2]);
  const lateNav = world.nav.addMesh(navText, 'late');
  const mannequin = world.rig.load(readFileSync(new URL('../../assets/rigs/mannequin-mixamo.glb', import.meta.url)));
  assert.ok(mannequin.clips.length > 0);
  world.restore(snap);
  const e = world.spawn();
  world.insert(e, Transform, {});
  // 36c0b32: the next asset added took the same handle, so these named it.
  assert.throws(() => world.insert(e, Rig, { asset: lateRig }), (err) => err instanceof LimberError, 'a rig handle from after the snapshot');
  assert.throws(() => world.insert(e, Rig, { asset: mannequin.asset }), (err) => err instanceof LimberError);
  assert.throws(() => world.insert(e, Collider, { shape: 'Mesh', mesh: lateMesh }), (err) => err instanceof LimberError, 'a mesh handle from after the snapshot');
  assert.throws(() => world.insert(e, NavAgent, { navmesh: lateNav }), (err) => err instanceof LimberError, 'a navmesh handle from after the snapshot');
  assert.equal(world.anim.listClips().length, 0, 'no clip from after the snapshot is listed');
  const newRig = world.rig.addHumanoid();
  const newMesh = world.collide.addMesh([-1, 0, -1, 1, 0, -1, 1, 0, 1], [0, 2, 1]);
  const newNav = world.nav.addMesh(navText, 'new');
  assert.ok(![lateRig, mannequin.asset].includes(newRig), `a new rig handle (${newRig})`);
  assert.notEqual(newMesh, lateMesh);
  assert.notEqual(newNav, lateNav);
  world.insert(e, Rig, { asset: newRig });
  world.insert(e, Collider, { shape: 'Mesh', mesh: newMesh });
  world.step(1 / 60);
  // The snapshot's own asset still works.
  const f = world.spawn();
  world.insert(f, Transform, {});
  world.insert(f, Rig, { asset: rig0 });
  world.step(1 / 60);
  world.destroy();
});
