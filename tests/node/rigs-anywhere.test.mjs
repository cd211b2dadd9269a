// Rigs from elsewhere, against three.js: files with the structure of the Khronos samples
// (tests/node/sample-rigs.mjs: unnamed joints, a Z-up node and armature above them, an
// armature node that an animation moves, unnamed and CUBICSPLINE animations) load in Limber
// and in three's GLTFLoader, and
//  (a) joint world positions at rest and at 50 times of every clip agree with three's
//      AnimationMixer within 1e-5 m;
//  (b) ExternalAnimation pairs three's bones with the rig's joints with no options: by skin
//      order where names are empty, the armature node by its place above the bones; a round
//      trip (mixer -> Limber -> bones) moves no joint more than 1e-5 m;
//  (c) an armature node moved 1 m by the clip moves the character 1.0 m in both;
//  (d) unnamed clips are 'animation_<i>' as in three.js ('animation<i>' still finds them, with a
//      deprecation warning); CUBICSPLINE plays by default within the reported tolerance, and
//      cubicTolerance is honoured.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { createWorld, LimberError, Rig, Transform } from '../../dist/web/bridge/index.js';
import { ExternalAnimation, RigMeshView } from '../../dist/web/three/index.js';
import { movingArmature, riggedSimple, simpleSkin, unnamedClips } from './sample-rigs.mjs';

const TOL = 1e-5;
const TIMES = 50;
const FILES = { SimpleSkin: simpleSkin(), RiggedSimple: riggedSimple(), MovingArmature: movingArmature(), UnnamedClips: unnamedClips() };

async function threeLoad(bytes) {
  const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const gltf = await new Promise((ok, err) => new GLTFLoader().parse(ab, '', ok, err));
  const objects = [];
  for (let n = 0; n < gltf.parser.json.nodes.length; n++) objects.push(await gltf.parser.getDependency('node', n));
  let mesh = null;
  gltf.scene.traverse((o) => {
    if (o.isSkinnedMesh && !mesh) mesh = o;
  });
  return { gltf, objects, mesh };
}

// Besides each joint's position, a point off it in its own frame (where a mesh skinned to it
// would be), so rotations count as well as positions.
const OFF = [0.3, 0.5, 0.2];

/** Model-space joint positions and off points from local TRS (depth-first, parents first),
 * in doubles: [joint 0, off 0, joint 1, off 1, ...]. */
function modelPositions(parents, local) {
  const m = [];
  return local.flatMap((l, j) => {
    const mat = new THREE.Matrix4().compose(new THREE.Vector3(...l.t), new THREE.Quaternion(...l.r), new THREE.Vector3(...l.s));
    m[j] = parents[j] < 0 ? mat : m[parents[j]].clone().multiply(mat);
    return [new THREE.Vector3().setFromMatrixPosition(m[j]), new THREE.Vector3(...OFF).applyMatrix4(m[j])];
  });
}

/** three's world positions of the same points. */
const threePoints = (objects) => objects.flatMap((o) => [o.getWorldPosition(new THREE.Vector3()), o.localToWorld(new THREE.Vector3(...OFF))]);

/** three's joint world positions with clip `c` at time t (a fresh load: a mixer leaves the
 * properties it animated behind). */
async function threeAt(bytes, c, times, nodes) {
  const { gltf, objects } = await threeLoad(bytes);
  const mixer = new THREE.AnimationMixer(gltf.scene);
  const action = mixer.clipAction(gltf.animations[c]);
  action.setLoop(THREE.LoopOnce, 1);
  action.clampWhenFinished = true;
  action.play();
  return times.map((t) => {
    mixer.setTime(t);
    gltf.scene.updateMatrixWorld(true);
    return threePoints(nodes.map((n) => objects[n]));
  });
}

test('rigs from anywhere: rest pose and every clip at 50 times match three.js GLTFLoader + AnimationMixer (1e-5 m)', async () => {
  for (const [label, bytes] of Object.entries(FILES)) {
    const world = await createWorld();
    const rig = world.rig.load(bytes);
    const parents = rig.joints.map((j) => j.parent);
    const nodes = rig.joints.map((j) => j.node);
    const { gltf, objects } = await threeLoad(bytes);
    gltf.scene.updateMatrixWorld(true);
    const rest = modelPositions(parents, rig.joints.map((j) => j.rest));
    const threeRest = threePoints(nodes.map((n) => objects[n]));
    let worstRest = 0;
    rest.forEach((p, k) => (worstRest = Math.max(worstRest, p.distanceTo(threeRest[k]))));
    assert.equal(rig.clips.length, gltf.animations.length);
    let worst = 0;
    let moved = 0;
    for (let c = 0; c < rig.clips.length; c++) {
      const clip = rig.clips[c];
      const times = Array.from({ length: TIMES }, (_, k) => Math.fround((clip.duration * k) / (TIMES - 1)));
      const expected = await threeAt(bytes, c, times, nodes);
      times.forEach((t, k) => {
        const got = modelPositions(parents, world.anim.sampleClip(clip.handle, t));
        got.forEach((p, j) => {
          worst = Math.max(worst, p.distanceTo(expected[k][j]));
          moved = Math.max(moved, p.distanceTo(rest[j]));
        });
      });
    }
    console.log(`${label}: ${rig.joints.length} joints (${rig.joints.map((j) => j.name).join(', ')}), clips ${rig.clips.map((c) => c.name).join(', ')}; rest ${worstRest.toExponential(2)} m, ${rig.clips.length} x ${TIMES} sampled poses ${worst.toExponential(2)} m from three.js (joints and points on them move up to ${moved.toFixed(2)} m)`);
    assert.ok(worstRest <= TOL, `${label}: rest ${worstRest} m`);
    assert.ok(worst <= TOL, `${label}: sampled ${worst} m`);
    assert.ok(moved > 0.1, `${label}: the clips move the joints`);
    world.destroy();
  }
});

/** ExternalAnimation on a file played by three's mixer, every frame for the whole clip:
 * Limber's world joint positions against three's bones, and the bones after afterStep. */
async function roundTrip(bytes, clipIndex = 0) {
  const { gltf, mesh } = await threeLoad(bytes);
  const world = await createWorld();
  const rig = world.rig.load(bytes);
  const hero = world.spawn();
  world.insert(hero, Rig, { asset: rig.asset });
  const anim = new ExternalAnimation(world, hero, mesh);
  const mixer = new THREE.AnimationMixer(gltf.scene);
  mixer.clipAction(gltf.animations[clipIndex]).play();
  const objects = anim.bones;
  const dt = 1 / 30;
  const frames = Math.ceil(gltf.animations[clipIndex].duration / dt);
  let worst = 0;
  let written = 0;
  for (let i = 0; i < frames; i++) {
    mixer.update(dt);
    gltf.scene.updateMatrixWorld(true);
    const before = threePoints(objects);
    anim.beforeStep();
    world.step(dt);
    anim.afterStep();
    gltf.scene.updateMatrixWorld(true);
    const xf = world.worldTransform(hero);
    const m = new THREE.Matrix4().compose(new THREE.Vector3(...xf.t), new THREE.Quaternion(...xf.r), new THREE.Vector3(...xf.s));
    const after = threePoints(objects);
    world.modelPose(hero).forEach((p, j) => {
      const jm = new THREE.Matrix4().compose(new THREE.Vector3(...p.t), new THREE.Quaternion(...p.r), new THREE.Vector3(...p.s)).premultiply(m);
      const mine = [new THREE.Vector3().setFromMatrixPosition(jm), new THREE.Vector3(...OFF).applyMatrix4(jm)];
      for (let k = 0; k < 2; k++) {
        worst = Math.max(worst, mine[k].distanceTo(before[2 * j + k]));
        written = Math.max(written, after[2 * j + k].distanceTo(before[2 * j + k]));
      }
    });
  }
  return { world, rig, anim, worst, written, frames, gltf, mesh };
}

test('ExternalAnimation: unnamed joints (SimpleSkin, RiggedSimple) pair by skin order with no options; a round trip moves no joint (1e-5 m)', async () => {
  for (const label of ['SimpleSkin', 'RiggedSimple']) {
    const { world, rig, anim, worst, written, frames, mesh } = await roundTrip(FILES[label]);
    assert.ok(mesh.skeleton.bones.every((b) => b.name === ''), `${label}: three names the joints ''`);
    assert.deepEqual(world.rig.skeleton(rig.asset).skinJoints, rig.skin.joints, `${label}: the rig keeps the skin order`);
    console.log(`${label}: matchedBy ${anim.matchedBy} ${JSON.stringify(anim.matchCounts)}, joints ${anim.joints.join(', ')}; ${frames} frames: Limber vs three.js ${worst.toExponential(2)} m, bones moved by afterStep ${written.toExponential(2)} m`);
    assert.equal(anim.matchedBy, 'skin');
    assert.equal(anim.matchCounts.skin, 2);
    assert.deepEqual(anim.missingJoints, []);
    assert.deepEqual(anim.unmappedBones, []);
    anim.bones.forEach((b, j) => assert.equal(b, mesh.skeleton.bones[rig.skin.joints.indexOf(j)], `${label}: joint ${j}`));
    assert.ok(worst <= TOL && written <= TOL, `${label}: ${worst} m, ${written} m`);
    world.destroy();
  }
  // A RigMeshView given the whole glTF scene finds the skinned mesh and pairs the same way.
  const { gltf } = await threeLoad(FILES.SimpleSkin);
  const world = await createWorld();
  const hero = world.spawn();
  world.insert(hero, Transform, {});
  world.insert(hero, Rig, { asset: world.rig.load(FILES.SimpleSkin).asset });
  const view = new RigMeshView(world, hero, { source: gltf.scene });
  assert.equal(view.animation.matchedBy, 'skin');
  assert.deepEqual(view.animation.missingJoints, []);
  view.dispose();
  world.destroy();
});

test('ExternalAnimation: when skin order cannot apply, the error says why', async () => {
  const { mesh } = await threeLoad(FILES.SimpleSkin);
  const world = await createWorld();
  const hero = world.spawn();
  world.insert(hero, Rig, { asset: world.rig.load(FILES.SimpleSkin).asset });
  assert.throws(
    () => new ExternalAnimation(world, hero, new THREE.Skeleton([mesh.skeleton.bones[1]])),
    (e) => e instanceof LimberError && e.code === 'LB_ERR_JOINT_NOT_FOUND' && /skin order does not apply: 1 bones in skin order, the rig's skin has 2 joints/.test(e.message) && /nameMap/.test(e.message),
  );
  // Names still win: a nameMap pairs the bones, and skin order stays out of it.
  const [a, b] = mesh.skeleton.bones;
  a.name = 'first';
  b.name = 'second';
  const anim = new ExternalAnimation(world, hero, mesh, { nameMap: { first: 'node1', second: 'node2' } });
  assert.equal(anim.matchedBy, 'name');
  world.destroy();
});

test('an armature node that the clip moves 1 m moves the character 1.0 m, as in three.js', async () => {
  const bytes = FILES.MovingArmature;
  const world = await createWorld();
  const rig = world.rig.load(bytes);
  assert.deepEqual(rig.joints.map((j) => j.name), ['Armature', 'Hips', 'Spine', 'Head']);
  const clip = rig.clips[0];
  const hips = 1;
  const parents = rig.joints.map((j) => j.parent);
  const start = modelPositions(parents, world.anim.sampleClip(clip.handle, 0))[2 * hips];
  const end = modelPositions(parents, world.anim.sampleClip(clip.handle, clip.duration))[2 * hips];
  const [threeStart, threeEnd] = (await threeAt(bytes, 0, [0, clip.duration], [rig.joints[hips].node])).map((p) => p[0]);
  console.log(`moving armature: Hips ends ${start.distanceTo(end).toFixed(6)} m from where it started in Limber, ${threeStart.distanceTo(threeEnd).toFixed(6)} m in three.js; ${end.distanceTo(threeEnd).toExponential(2)} m apart`);
  assert.ok(Math.abs(start.distanceTo(end) - 1) <= TOL && Math.abs(threeStart.distanceTo(threeEnd) - 1) <= TOL);
  assert.ok(end.distanceTo(threeEnd) <= TOL && start.distanceTo(threeStart) <= TOL);
  world.destroy();
  // Driven from three.js: names pair the bones, the armature node pairs by its place.
  const r = await roundTrip(bytes);
  console.log(`moving armature through ExternalAnimation: matchedBy ${r.anim.matchedBy} ${JSON.stringify(r.anim.matchCounts)}; Limber vs three.js ${r.worst.toExponential(2)} m over ${r.frames} frames`);
  assert.deepEqual(r.anim.matchCounts, { name: 3, skin: 0, parent: 1 });
  assert.equal(r.anim.boneOf('Armature').name, 'Armature');
  assert.ok(r.worst <= TOL && r.written <= TOL, `${r.worst} m, ${r.written} m`);
  r.world.destroy();
});

test('unnamed clips are animation_<i> as in three.js; CUBICSPLINE plays by default within the reported tolerance', async () => {
  const bytes = FILES.UnnamedClips;
  const { gltf } = await threeLoad(bytes);
  const world = await createWorld();
  const rig = world.rig.load(bytes);
  assert.deepEqual(rig.clips.map((c) => c.name), gltf.animations.map((c) => c.name));
  assert.deepEqual(rig.clips.map((c) => c.name), ['animation_0', 'animation_1', 'wave']);
  const red = rig.clips[0].reduction;
  console.log(`CUBICSPLINE clip: ${red.cubicTracks} tracks resampled within ${red.cubicTolerance.toExponential(1)}, measured deviation ${red.cubicError.toExponential(2)}`);
  assert.equal(red.cubicTracks, 2);
  assert.equal(red.cubicTolerance, Math.fround(5e-6));
  assert.ok(red.cubicError > 0 && red.cubicError <= red.cubicTolerance);
  assert.equal(rig.clips[1].reduction.cubicTracks, 0);
  // The old name still finds the clip, once with a warning.
  const warnings = [];
  const warn = console.warn;
  console.warn = (m) => warnings.push(String(m));
  try {
    assert.equal(world.anim.findClip('animation0', rig.asset), rig.clips[0].handle);
    assert.equal(world.anim.findClip('animation0', rig.asset), rig.clips[0].handle);
    assert.equal(world.anim.findClip('animation_1', rig.asset), rig.clips[1].handle);
  } finally {
    console.warn = warn;
  }
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /'animation0' is deprecated .* 'animation_0'/);
  // A coarser tolerance is honoured: fewer keys, further from three.js's curve, within it.
  const parents = rig.joints.map((j) => j.parent);
  const nodes = rig.joints.map((j) => j.node);
  const times = Array.from({ length: 200 }, (_, k) => Math.fround((rig.clips[0].duration * k) / 199));
  const expected = await threeAt(bytes, 0, times, nodes);
  const deviation = (handle) => Math.max(...times.flatMap((t, k) => modelPositions(parents, world.anim.sampleClip(handle, t)).map((p, j) => p.distanceTo(expected[k][j]))));
  const coarse = world.rig.load(bytes, { cubicTolerance: 1e-3 });
  const fine = deviation(rig.clips[0].handle);
  const rough = deviation(coarse.clips[0].handle);
  console.log(`CUBICSPLINE against three.js at 200 times: default ${fine.toExponential(2)} m, cubicTolerance 1e-3: ${rough.toExponential(2)} m (reported ${coarse.clips[0].reduction.cubicError.toExponential(2)})`);
  assert.equal(coarse.clips[0].reduction.cubicTolerance, Math.fround(1e-3));
  assert.ok(fine <= TOL && rough > fine && rough <= 3e-3, `${fine} ${rough}`);
  assert.throws(() => world.rig.load(bytes, { cubicTolerance: 2 }), (e) => e.code === 'LB_ERR_OUT_OF_RANGE' && /cubic_tolerance/.test(e.message));
  world.destroy();
});
