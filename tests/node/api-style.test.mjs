// One API style: what a module adds lives on `world.<module>`; the 0.1 names (free functions
// taking the world first, module calls on World itself) still work for one release, warning
// once each. Measured: answers of old and new calls equal; warnings counted.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as limber from '../../dist/web/bridge/index.js';

const { createWorld, Rig, Transform } = limber;

const NAMESPACES = {
  rig: ['load', 'addHumanoid', 'skeleton', 'findJoint'],
  anim: ['param', 'setParam', 'setTrigger', 'rootMotion', 'status', 'controllerInfo', 'addController', 'findClip', 'listClips', 'sampleClip'],
  grip: ['registerPose', 'poseDef', 'poseByJoint', 'status', 'registerFingerPose', 'captureFingerPose', 'findHand', 'anchor'],
  collide: ['addMesh', 'meshTriangleCount', 'closestPoint', 'raycast', 'sphereCast', 'capsuleCast', 'overlapSphere', 'overlapCapsule', 'overlapBox'],
  controller: ['move'],
  vault: ['request', 'casts'],
  nav: ['addMesh', 'bake', 'find', 'info', 'nearest', 'findPath', 'moveAlongSurface', 'raycast', 'setDestination', 'stop'],
};

/** Runs `fn` with console.warn captured; returns the warnings. */
function warnings(fn) {
  const got = [];
  const warn = console.warn;
  console.warn = (msg) => got.push(String(msg));
  try {
    fn();
  } finally {
    console.warn = warn;
  }
  return got;
}

test('every module call is on its world.<module> namespace, as a bound function', async () => {
  const world = await createWorld();
  for (const [ns, names] of Object.entries(NAMESPACES)) {
    assert.equal(world[ns], world[ns], `world.${ns} is one object per world`);
    for (const n of names) assert.equal(typeof world[ns][n], 'function', `world.${ns}.${n}`);
  }
  // Bound: destructured members work (the CollisionQueries table shape).
  const { raycast, addMesh } = world.collide;
  const mesh = addMesh([-5, 0, -5, 5, 0, -5, 0, 0, 5], [0, 2, 1]);
  const ground = world.spawn();
  world.insert(ground, Transform, {});
  world.insert(ground, limber.Collider, { shape: 'Mesh', mesh });
  world.step(1 / 60);
  const hit = raycast([0, 1, 0], [0, -1, 0], 5);
  assert.ok(hit && Math.abs(hit.distance - 1) < 1e-6, `ray from 1 m above the mesh hits at 1 m, got ${hit?.distance}`);
  // No module call is left on the package as a free function except the deprecated ones.
  for (const n of ['registerGripPose', 'navFindPath', 'loadRig']) assert.equal(typeof limber[n], 'function');
});

test('the 0.1 names still work, give the same answers and warn once each', async () => {
  const world = await createWorld();
  const hero = world.spawn();
  const asset = world.rig.addHumanoid();
  world.insert(hero, Transform, {});
  world.insert(hero, Rig, { asset });
  world.step(1 / 60);
  let old;
  const first = warnings(() => {
    old = world.skeleton(asset);
    world.skeleton(asset);
    limber.registerGripPose(world, 'claw', { index: { curl: 0.9 } });
    limber.registerGripPose(world, 'claw2', { index: { curl: 0.8 } });
  });
  assert.deepEqual(old, world.rig.skeleton(asset), 'world.skeleton answers as world.rig.skeleton');
  assert.equal(first.length, 2, `one warning per old name, got ${JSON.stringify(first)}`);
  assert.match(first[0], /world\.skeleton is deprecated .* use world\.rig\.skeleton/);
  assert.match(first[1], /registerGripPose\(world, …\) is deprecated .* use world\.grip\.registerPose/);
  // Warned once per process, not once per call.
  const again = warnings(() => limber.registerGripPose(world, 'claw3', { index: { curl: 0.7 } }));
  assert.equal(again.length, 0);
  // The old misuse (no world first) is still a clear error, not a TypeError.
  assert.throws(() => limber.navFindPath(1, [0, 0, 0], [1, 0, 1]), (e) => e.code === 'LB_ERR_INVALID_ARGUMENT' && /navFindPath\(world, mesh, start, goal\): the first argument must be a World/.test(e.message));
});

test('errors name the namespaced call', async () => {
  const world = await createWorld();
  assert.throws(() => world.grip.registerPose(3, {}), (e) => /grip\.registerPose: field 'name'/.test(e.message));
  assert.throws(() => world.nav.findPath(1, [0, NaN, 0], [1, 0, 1]), (e) => /nav\.findPath/.test(e.message));
  assert.throws(() => world.collide.raycast([0, 0, 0], [0, 1, 0], 'far'), (e) => /collide\.raycast: field 'maxDistance'/.test(e.message));
  assert.throws(() => world.controller.move(12345, [0, 0, 0]), (e) => /controller\.move/.test(e.message));
});
