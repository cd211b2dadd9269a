// Vector inputs (web/bridge/args.ts readVector, the one parser behind vecArg and the Vec3/Quat
// fields of encodeComponent): a THREE.Vector3 / THREE.Quaternion, an {x, y, z} object and a
// typed array are taken wherever an array is, and give the same numbers; a malformed object is
// refused with a LimberError naming the field, and the world is unchanged. Also what the
// typed-API change keeps at run time: asset handles are plain numbers, plain numbers are still
// accepted, NavPath.status has the schema's casing and the old spelling still reads.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Quaternion, Vector3 } from 'three';
import { Collider, createWorld, FINGER_NAMES, LimberError, navPathStatus, Rig, Transform } from '../../dist/web/bridge/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const f32 = (xs) => xs.map((x) => Math.fround(x));

const refused = (field, ...words) => (err) => {
  assert.ok(err instanceof LimberError, `a LimberError, got ${err}`);
  assert.equal(err.code, 'LB_ERR_INVALID_ARGUMENT', err.message);
  assert.equal(err.field, field, err.message);
  for (const w of words) assert.ok(err.message.includes(w), `'${w}' in: ${err.message}`);
  return true;
};

test('a THREE.Vector3, an {x, y, z} object and a Float32Array position round-trip through insert and get', async () => {
  const world = await createWorld();
  const forms = [
    ['THREE.Vector3', new Vector3(1.25, -2.5, 3.1)],
    ['{x, y, z}', { x: 1.25, y: -2.5, z: 3.1 }],
    ['Float32Array', new Float32Array([1.25, -2.5, 3.1])],
    ['array', [1.25, -2.5, 3.1]],
  ];
  for (const [what, position] of forms) {
    const e = world.spawn();
    world.insert(e, Transform, { position });
    assert.deepEqual(world.get(e, Transform).position, f32([1.25, -2.5, 3.1]), what);
  }
  // A rotation as a THREE.Quaternion and as {x, y, z, w}: the same stored rotation.
  const q = new Quaternion().setFromAxisAngle(new Vector3(0, 1, 0), 0.7);
  const a = world.spawn();
  const b = world.spawn();
  world.insert(a, Transform, { rotation: q });
  world.insert(b, Transform, { rotation: [q.x, q.y, q.z, q.w] });
  assert.deepEqual(world.get(a, Transform).rotation, world.get(b, Transform).rotation);
  world.get(a, Transform).rotation.forEach((x, i) => assert.ok(Math.abs(x - [q.x, q.y, q.z, q.w][i]) < 1e-6));
  // update: the returned fields and fields set on the copy may be objects too.
  world.update(a, Transform, () => ({ position: new Vector3(4, 5, 6) }));
  assert.deepEqual(world.get(a, Transform).position, [4, 5, 6]);
  world.update(a, Transform, (t) => {
    t.scale = /** @type {any} */ ({ x: 2, y: 2, z: 2 });
  });
  assert.deepEqual(world.get(a, Transform).scale, [2, 2, 2]);
  world.destroy();
});

test('a malformed vector object is refused with a LimberError naming the field; nothing changes', async () => {
  const world = await createWorld();
  const e = world.spawn();
  world.insert(e, Transform, { position: [1, 2, 3] });
  assert.throws(() => world.insert(e, Transform, { position: { x: 1 } }), refused('position', "field 'position'", '.y', 'must be a number'));
  assert.throws(() => world.update(e, Transform, () => ({ position: { x: 1, y: 2, z: '3' } })), refused('position', '.z'));
  assert.throws(() => world.update(e, Transform, () => ({ rotation: new Vector3(0, 0, 0) })), refused('rotation', '.w'));
  assert.throws(() => world.insert(e, Transform, { position: [1, 2] }), refused('position', 'must be an array of 3 numbers'));
  assert.throws(() => world.insert(e, Transform, { position: 'up' }), refused('position'));
  assert.deepEqual(world.get(e, Transform).position, [1, 2, 3]);
  // Arguments: the field named with the missing key.
  assert.throws(() => world.collide.raycast({ x: 1 }, [0, -1, 0], 10), refused('origin.y', "field 'origin.y'"));
  assert.throws(() => world.controller.move(e, { x: 0, z: 1 }), refused('delta.y'));
  world.destroy();
});

test('queries take THREE.Vector3 and {x, y, z} like arrays: the same answers', async () => {
  const world = await createWorld();
  const box = world.spawn();
  world.insert(box, Transform, { position: new Vector3(5, 0, 0) });
  world.insert(box, Collider, { shape: 'Box', size: { x: 2, y: 2, z: 2 } });
  const want = world.collide.raycast([0, 0, 0], [1, 0, 0], 10);
  assert.equal(want?.entity, box);
  assert.deepEqual(world.collide.raycast(new Vector3(0, 0, 0), new Vector3(1, 0, 0), 10), want);
  assert.deepEqual(world.collide.raycast({ x: 0, y: 0, z: 0 }, { x: 1, y: 0, z: 0 }, 10), want);
  assert.deepEqual(world.collide.sphereCast(new Vector3(0, 0, 0), 0.5, { x: 1, y: 0, z: 0 }, 10), world.collide.sphereCast([0, 0, 0], 0.5, [1, 0, 0], 10));
  assert.deepEqual(world.collide.overlapBox(new Vector3(5, 0, 0), new Quaternion(), { x: 0.5, y: 0.5, z: 0.5 }), [box]);
  assert.deepEqual(world.collide.closestPoint(new Vector3(8, 0, 0)), world.collide.closestPoint([8, 0, 0]));
  world.destroy();
});

test('nav queries take THREE.Vector3; NavPath.status is spelt as NavAgent.pathStatus; the old spelling still reads', async () => {
  const world = await createWorld();
  const mesh = world.nav.addMesh(readFileSync(join(root, 'assets/levels/nav-arena.navmesh.json'), 'utf8'), 'arena');
  const here = world.nav.nearest(mesh, new Vector3(1, 0.5, 2));
  assert.deepEqual(here, world.nav.nearest(mesh, [1, 0.5, 2]));
  const path = world.nav.findPath(mesh, { x: 1, y: 0, z: 2 }, new Vector3(3, 0, 2));
  assert.deepEqual(path, world.nav.findPath(mesh, [1, 0, 2], [3, 0, 2]));
  assert.equal(path.status, 'Complete');
  assert.equal(navPathStatus('complete'), 'Complete');
  assert.equal(navPathStatus('partial'), 'Partial');
  assert.equal(navPathStatus('Partial'), 'Partial');
  assert.throws(() => navPathStatus('done'), (e) => e instanceof LimberError && e.code === 'LB_ERR_UNKNOWN_NAME');
  assert.throws(() => world.nav.nearest(mesh, { x: 1, y: 0 }), refused('point.z'));
  world.destroy();
});

test('asset handles are numbers at run time and plain numbers are still accepted; FINGER_NAMES is the one finger list', async () => {
  const world = await createWorld();
  const rig = world.rig.addHumanoid();
  assert.equal(typeof rig, 'number');
  const e = world.spawn();
  world.insert(e, Transform, {});
  world.insert(e, Rig, { asset: Number(rig) });
  assert.equal(world.get(e, Rig).asset, rig);
  assert.ok(world.rig.findJoint(Number(rig), 'Hips') >= 0);
  assert.deepEqual([...FINGER_NAMES], ['thumb', 'index', 'middle', 'ring', 'pinky']);
  assert.ok(Object.isFrozen(FINGER_NAMES));
  world.step(1 / 60);
  assert.deepEqual(Object.keys(world.grip.findHand(e, 'Right').fingers), [...FINGER_NAMES]);
  world.destroy();
});
