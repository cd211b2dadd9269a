// The three.js external-animation adapter (web/three/external-animation.ts): a game keeps
// its AnimationMixer, Limber adds IK on top. mannequin-mixamo.glb is loaded twice, by
// three's GLTFLoader (bones + AnimationMixer playing walk) and by loadRig (the Limber rig);
// a TwoBoneIK drives the right arm.
//  (a) IK weight 0: after afterStep the bones equal the mixer's bones (1e-6);
//  (b) IK on: the right hand bone's three.js world position is on the target (1 mm), also
//      with the character moved and turned in the three.js scene (syncRoot);
//  (c) bad mapping input gives clear errors; bones outside the rig are left alone.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { AnimationMixer, Bone, Skeleton, Vector3 } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { createWorld, LimberError, loadRig, Rig, Transform, TwoBoneIK } from '../../dist/web/bridge/index.js';
import { ExternalAnimation } from '../../dist/web/three/index.js';

const FILE = new URL('../../assets/rigs/mannequin-mixamo.glb', import.meta.url);
const DT = 1 / 60;
const bytes = new Uint8Array(readFileSync(FILE));

async function loadThree() {
  const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const gltf = await new Promise((resolve, reject) => new GLTFLoader().parse(ab, '', resolve, reject));
  let mesh = null;
  gltf.scene.traverse((o) => {
    if (o.isSkinnedMesh) mesh = o;
  });
  assert.ok(mesh, 'the .glb has a SkinnedMesh');
  const mixer = new AnimationMixer(gltf.scene);
  const walk = gltf.animations.find((c) => c.name === 'walk');
  assert.ok(walk, 'the .glb has a walk clip');
  mixer.clipAction(walk).play();
  return { scene: gltf.scene, mesh, mixer };
}

/** A world with the same rig, a target and a TwoBoneIK on the right arm. */
async function setup(ikWeight) {
  const world = await createWorld();
  const rig = world.rig.load(bytes);
  const hero = world.spawn();
  world.insert(hero, Transform, {});
  world.insert(hero, Rig, { asset: rig.asset });
  const target = world.spawn();
  world.insert(target, Transform, { position: [0, 1, 0] });
  const arm = world.spawn();
  world.insert(arm, TwoBoneIK, { rig: hero, tip: 'RightHand', target, weight: ikWeight });
  return { world, rig, hero, target, arm };
}

const snapshot = (bones) => bones.map((b) => [...b.position.toArray(), ...b.quaternion.toArray(), ...b.scale.toArray()]);

test('external animation: IK weight 0 gives the mixer pose back (1e-6)', async () => {
  const three = await loadThree();
  const { world, hero } = await setup(0);
  const anim = new ExternalAnimation(world, hero, three.mesh);
  assert.equal(anim.missingJoints.length, 0);
  assert.equal(anim.unmappedBones.length, 0);
  assert.equal(anim.bones.filter(Boolean).length, 65);
  const bones = three.mesh.skeleton.bones;
  let maxErr = 0;
  let moved = 0;
  const first = snapshot(bones);
  for (let k = 0; k < 60; k++) {
    three.mixer.update(DT);
    const want = snapshot(bones);
    anim.beforeStep();
    world.step(DT);
    anim.afterStep();
    const got = snapshot(bones);
    for (let b = 0; b < want.length; b++) {
      for (let c = 0; c < 10; c++) maxErr = Math.max(maxErr, Math.abs(got[b][c] - want[b][c]));
    }
    if (k === 59) for (let b = 0; b < want.length; b++) moved = Math.max(moved, Math.abs(want[b][3] - first[b][3]));
  }
  console.log(`weight 0: max |bone TRS - mixer TRS| over 60 steps x 65 bones: ${maxErr.toExponential(2)}`);
  assert.ok(moved > 0.01, `the walk moves the bones (max quaternion change ${moved})`);
  assert.ok(maxErr <= 1e-6, `bones differ from the mixer by ${maxErr}`);
});

for (const moved of [false, true]) {
  test(`external animation: IK puts the right hand bone on the target (1 mm)${moved ? ', character moved in three.js' : ''}`, async () => {
    const three = await loadThree();
    if (moved) {
      three.scene.position.set(1.5, 0.2, -2);
      three.scene.rotation.set(0, 0.7, 0);
    }
    three.scene.updateMatrixWorld(true);
    const { world, hero, target, arm } = await setup(1);
    const anim = new ExternalAnimation(world, hero, three.mesh);
    const hand = three.mesh.skeleton.getBoneByName('RightHand');
    const shoulder = three.mesh.skeleton.getBoneByName('RightArm');
    const handPos = new Vector3();
    const goal = new Vector3();
    let maxErr = 0;
    let minMove = Infinity;
    for (let k = 0; k < 45; k++) {
      three.mixer.update(DT);
      three.scene.updateMatrixWorld(true);
      // A reachable target in front of and below the right shoulder, moving a little.
      shoulder.getWorldPosition(goal);
      const animated = hand.getWorldPosition(new Vector3());
      const offset = new Vector3(-0.2 + 0.05 * Math.sin(k * 0.2), -0.25, 0.2).applyQuaternion(three.scene.quaternion);
      goal.add(offset);
      world.update(target, Transform, (t) => {
        t.position = [goal.x, goal.y, goal.z];
      });
      anim.beforeStep();
      world.step(DT);
      anim.afterStep();
      three.scene.updateMatrixWorld(true);
      hand.getWorldPosition(handPos);
      const e = handPos.distanceTo(goal);
      maxErr = Math.max(maxErr, e);
      minMove = Math.min(minMove, animated.distanceTo(goal));
      assert.equal(world.get(arm, TwoBoneIK).reached, true, `step ${k}: TwoBoneIK reached`);
    }
    console.log(`IK on${moved ? ' (moved, turned)' : ''}: max |hand bone world - target| over 45 steps: ${(maxErr * 1000).toFixed(4)} mm (animated hand was >= ${(minMove * 100).toFixed(1)} cm away)`);
    assert.ok(minMove > 0.05, 'the target is away from the animated hand');
    assert.ok(maxErr <= 1e-3, `hand bone is ${maxErr} m from the target`);
  });
}

test('external animation: name mapping (prefix strip, name map, missing joints, extra bones)', async () => {
  const three = await loadThree();
  const { world, hero } = await setup(0);
  const bones = three.mesh.skeleton.bones;
  for (const b of bones) b.name = `mixamorig:${b.name}`;

  // Without the prefix strip no name matches, but the mesh's bones are the skin in order: they
  // pair by skin order, and the report says so.
  const bySkin = new ExternalAnimation(world, hero, three.mesh);
  assert.equal(bySkin.matchedBy, 'skin');
  assert.deepEqual(bySkin.matchCounts, { name: 0, skin: 65, parent: 0 });
  assert.equal(bySkin.boneOf('RightHand').name, 'mixamorig:RightHand');
  // A bone list that is not the skin (one bone short) matches nothing: a clear error, not a
  // silent no-op.
  assert.throws(
    () => new ExternalAnimation(world, hero, new Skeleton(bones.slice(1))),
    (e) => e instanceof LimberError && e.code === 'LB_ERR_JOINT_NOT_FOUND' && /no bone matches a rig joint/.test(e.message) && /skin order does not apply: 64 bones/.test(e.message) && /stripPrefix/.test(e.message),
  );
  const full = new ExternalAnimation(world, hero, three.mesh, { stripPrefix: 'mixamorig:' });
  assert.equal(full.missingJoints.length, 0);
  assert.equal(full.matchedBy, 'name');

  // A bone outside the rig (a weapon socket) and a subset of the skeleton.
  const socket = new Bone();
  socket.name = 'WeaponSocket';
  socket.position.set(0.01, 0.02, 0.03);
  bones.find((b) => b.name === 'mixamorig:RightHand').add(socket);
  const partial = bones.filter((b) => !/LeftHand(Thumb|Index)/.test(b.name));
  const anim = new ExternalAnimation(world, hero, new Skeleton([...partial, socket]), {
    stripPrefix: ['mixamo:', 'mixamorig:'],
    nameMap: { 'mixamorig:Head': 'Hips/Spine/Spine1/Spine2/Neck/Head' },
  });
  assert.deepEqual(anim.unmappedBones, ['WeaponSocket']);
  assert.equal(anim.missingJoints.length, 8);
  assert.ok(anim.missingJoints.every((n) => /^LeftHand(Thumb|Index)/.test(n)), anim.missingJoints.join(','));
  assert.equal(anim.boneOf('Head').name, 'mixamorig:Head');
  three.mixer.update(DT);
  anim.beforeStep();
  world.step(DT);
  anim.afterStep();
  assert.deepEqual(socket.position.toArray(), [0.01, 0.02, 0.03], 'bones outside the rig are left alone');
  // Joints without a bone hold the rest pose.
  const rest = (await createWorld()).rig.load(bytes).joints;
  const local = world.localPose(hero);
  const j = world.rig.findJoint(world.get(hero, Rig).asset, 'LeftHandIndex1');
  for (let c = 0; c < 4; c++) assert.ok(Math.abs(local[j].r[c] - rest[j].rest.r[c]) < 1e-7);
  assert.throws(
    () => new ExternalAnimation(world, hero, new Skeleton(partial), { stripPrefix: 'mixamorig:', requireAllJoints: true }),
    (e) => e.code === 'LB_ERR_JOINT_NOT_FOUND' && /no bone for joints 'LeftHandThumb1'/.test(e.message),
  );
});

test('external animation: bad input is refused with clear errors', async () => {
  const three = await loadThree();
  const { world, hero, target } = await setup(0);
  const mesh = three.mesh;
  const bad = (fn, code, re) =>
    assert.throws(fn, (e) => {
      assert.ok(e instanceof LimberError, `LimberError, got ${e}`);
      assert.equal(e.code, code, e.message);
      assert.match(e.message, re);
      return true;
    });
  bad(() => new ExternalAnimation(world, target, mesh), 'LB_ERR_MISSING_COMPONENT', /has no Rig/);
  bad(() => new ExternalAnimation(world, hero, {}), 'LB_ERR_INVALID_ARGUMENT', /source must be a THREE\.SkinnedMesh/);
  bad(() => new ExternalAnimation(world, hero, null), 'LB_ERR_INVALID_ARGUMENT', /source must be/);
  bad(() => new ExternalAnimation(world, hero, new Skeleton([])), 'LB_ERR_INVALID_ARGUMENT', /source has no bones/);
  bad(() => new ExternalAnimation(world, hero, mesh, { nameMap: 42 }), 'LB_ERR_INVALID_ARGUMENT', /field 'nameMap' must be/);
  bad(() => new ExternalAnimation(world, hero, mesh, { stripPrefix: 7 }), 'LB_ERR_INVALID_ARGUMENT', /field 'stripPrefix'/);
  bad(() => new ExternalAnimation(world, hero, mesh, { nameMap: { Hips: 'Pelvis' } }), 'LB_ERR_JOINT_NOT_FOUND', /maps bone 'Hips' to 'Pelvis', which is not a joint/);
  bad(() => new ExternalAnimation(world, hero, mesh, { nameMap: { Hipz: 'Hips' } }), 'LB_ERR_UNKNOWN_NAME', /names bone 'Hipz'/);
  bad(() => new ExternalAnimation(world, hero, mesh, { nameMap: new Map([['Spine', 'Hips']]) }), 'LB_ERR_INVALID_ARGUMENT', /bones '.*' and '.*' both map to joint 'Hips'/);
  bad(() => new ExternalAnimation(world, hero, mesh, { nameMap: () => 5 }), 'LB_ERR_INVALID_ARGUMENT', /nameMap gives 5 for bone/);
  const e = (() => {
    try {
      new ExternalAnimation(world, hero, mesh, { nameMap: { Hips: 'Pelvis' } });
    } catch (err) {
      return err;
    }
  })();
  assert.match(e.message, /ExternalAnimation on entity \d+v\d+/, 'the message names the entity');
  // A failed constructor changes nothing; a NaN bone is refused by the core, naming the joint.
  assert.equal(world.has(hero, Transform), true);
  const anim = new ExternalAnimation(world, hero, mesh);
  mesh.skeleton.getBoneByName('LeftForeArm').position.x = NaN;
  bad(() => anim.beforeStep(), 'LB_ERR_NOT_FINITE', /joint 'LeftForeArm' is not finite/);
  world.despawn(hero);
  bad(() => anim.beforeStep(), 'LB_ERR_STALE_ENTITY', /.*/);
});

/** The mannequin with every node renamed the way 3ds Max and Mixamo exports name them
 * ('Bip01 R Hand', 'mixamorig:Hips'): three's GLTFLoader turns those into 'Bip01_R_Hand' and
 * 'mixamorigHips' while the core keeps the file's names. */
function renamedGlb(rename) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLen = dv.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLen)));
  for (const n of json.nodes) if (n.name) n.name = rename(n.name);
  let text = new TextEncoder().encode(JSON.stringify(json));
  const pad = (4 - (text.length % 4)) % 4;
  text = Uint8Array.from([...text, ...new Array(pad).fill(0x20)]);
  const rest = bytes.subarray(20 + jsonLen);
  const out = new Uint8Array(12 + 8 + text.length + rest.length);
  const ov = new DataView(out.buffer);
  out.set(bytes.subarray(0, 12));
  ov.setUint32(8, out.length, true);
  ov.setUint32(12, text.length, true);
  ov.setUint32(16, 0x4e4f534a, true);
  out.set(text, 20);
  out.set(rest, 20 + text.length);
  return out;
}

test("external animation: bones renamed by three's GLTFLoader match without a nameMap", async () => {
  const renamed = renamedGlb((n) => `mixamorig:${n.replace(/([a-z])([A-Z])/g, '$1 $2')}`);
  const world = await createWorld();
  const rig = world.rig.load(renamed);
  const hero = world.spawn();
  world.insert(hero, Transform, {});
  world.insert(hero, Rig, { asset: rig.asset });
  const names = world.rig.skeleton(rig.asset).names;
  assert.ok(names.includes('mixamorig:Right Hand'), `the core keeps the file's names (${names.slice(0, 3)})`);
  const ab = renamed.buffer.slice(renamed.byteOffset, renamed.byteOffset + renamed.byteLength);
  const gltf = await new Promise((resolve, reject) => new GLTFLoader().parse(ab, '', resolve, reject));
  let mesh = null;
  gltf.scene.traverse((o) => {
    if (o.isSkinnedMesh) mesh = o;
  });
  assert.ok(mesh.skeleton.bones.some((b) => b.name === 'mixamorigRight_Hand'), 'three sanitised the bone names');
  const anim = new ExternalAnimation(world, hero, mesh);
  assert.deepEqual(anim.missingJoints, []);
  assert.deepEqual(anim.unmappedBones, []);
});
