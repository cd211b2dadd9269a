// Grip on rigs from other tools, loaded from the generated .glb files as a user would:
// Mixamo, Unreal, Blender, digit-named, VRM 1.0 (thumb metacarpal, no end joints), 3ds Max
// Biped (Z-up centimetre armature node) and a four-fingered A-posed rig with arbitrary
// bone rolls (assets/generate/conventions.mjs). They share one hand geometry, so a pose
// must put every finger joint at the same place in the palm frame on all of them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { createWorld, GripHolder, GripPlacement, GripProfile, Rig, Transform } from '../../dist/web/bridge/index.js';
import { ExternalAnimation } from '../../dist/web/three/index.js';

const RIGS = ['mannequin-mixamo', 'mannequin-unreal', 'mannequin-blender', 'mannequin-digits', 'convention-vrm', 'convention-biped', 'convention-daz4'];
const POSES = ['open', 'relaxed', 'fist', 'pistol', 'support', 'handle', 'pinch', 'cup'];
const FINGERS = ['thumb', 'index', 'middle', 'ring', 'pinky'];
const bytes = (name) => new Uint8Array(readFileSync(`assets/rigs/${name}.glb`));

const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dist = (a, b) => Math.hypot(...sub(a, b));
function qrot(q, v) {
  const [x, y, z, w] = q;
  const t = [2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])];
  return [v[0] + w * t[0] + y * t[2] - z * t[1], v[1] + w * t[1] + z * t[0] - x * t[2], v[2] + w * t[2] + x * t[1] - y * t[0]];
}
const qconj = (q) => [-q[0], -q[1], -q[2], q[3]];

/** A character (identity Transform) holding a small object in front of its chest by the
 * main anchor only, with the given pose: the palm sits on the anchor, so the anchor's
 * frame is the palm frame. */
function holdScene(world, asset, pose) {
  const hero = world.spawn();
  world.insert(hero, Transform, {});
  world.insert(hero, Rig, { asset });
  const obj = world.spawn();
  world.insert(obj, Transform, { position: [-0.1, 1.15, 0.3] });
  const s = Math.SQRT1_2;
  const anchor = world.spawn();
  world.insert(anchor, Transform, { parent: obj, rotation: [s, 0, 0, s] });
  world.insert(obj, GripProfile, { mainAnchor: anchor, mainPose: pose, wrap: false });
  world.insert(hero, GripHolder, { held: obj, placement: GripPlacement.Character, mainHand: 'Right', blendSeconds: 0 });
  return { hero, obj, anchor };
}

/** Finger joints of the right hand in the palm (anchor) frame, scaled to an 8 cm index: each
 * finger's segment joints, then its tip (the end joint, or the estimate the status reports;
 * `tip` is false for the ratio estimate, which only the hand's own proportions can match). */
function fingersInPalm(world, hero) {
  const st = world.grip.status(hero).right;
  const asset = world.get(hero, Rig).asset;
  const model = world.modelPose(hero);
  const root = world.worldTransform(hero);
  const a = world.grip.anchor(hero, 'main');
  const k = 0.08 / st.indexLength;
  const inPalm = (m) => {
    const w = [0, 1, 2].map((c) => root.t[c] + qrot(root.r, m.map((v, d) => v * root.s[d]))[c]);
    return qrot(qconj(a.r), sub(w, a.t)).map((v) => v * k);
  };
  const out = {};
  for (const f of FINGERS) {
    const names = st.fingers[f];
    if (!names) continue;
    const segments = st.tipSource[f] === 'joint' ? names.slice(0, -1) : names;
    out[f] = segments.map((n) => ({ p: inPalm(model[world.rig.findJoint(asset, n)].t), tip: false }));
    if (st.tipSource[f] !== 'none') out[f].push({ p: inPalm(st.tips[f]), tip: st.tipSource[f] !== 'ratio' });
  }
  return { out, st };
}

function holdStatus(world, asset) {
  const { hero } = holdScene(world, asset, 'open');
  world.step(1 / 60);
  return world.grip.status(hero).right.tipSource;
}

test('grip conventions: every built-in pose puts the finger joints at the same place in the palm frame on all generated rigs (< 1 mm)', async () => {
  const world = await createWorld();
  const assets = Object.fromEntries(RIGS.map((r) => [r, world.rig.load(bytes(r)).asset]));
  let worstAll = 0;
  for (const pose of POSES) {
    const per = {};
    for (const r of RIGS) {
      const { hero } = holdScene(world, assets[r], pose);
      world.step(1 / 60);
      const h = world.get(hero, GripHolder);
      assert.ok(h.mainReached && h.mainDistance < 5e-4, `${r} ${pose}: palm ${h.mainDistance} m from its anchor`);
      per[r] = fingersInPalm(world, hero);
    }
    const ref = per['mannequin-mixamo'].out;
    let worst = 0;
    let where = '';
    let tipsCompared = 0;
    for (const r of RIGS) {
      for (const f of FINGERS) {
        const mine = per[r].out[f];
        if (!mine) {
          assert.ok(r === 'convention-daz4' && f === 'pinky', `${r}: ${f} not found`);
          continue;
        }
        mine.forEach((j, i) => {
          if (i >= 3 && !j.tip) return;
          if (i >= 3) tipsCompared++;
          const d = dist(j.p, ref[f][i].p);
          if (d > worst) [worst, where] = [d, `${r} ${f} joint ${i}`];
        });
      }
    }
    console.log(`${pose}: largest finger-joint and tip difference across ${RIGS.length} rigs ${(worst * 1000).toFixed(4)} mm (${where || 'none'}; ${tipsCompared} tips)`);
    assert.equal(tipsCompared, 7 * 5 - 1, 'every tip compared: end joints and mesh estimates');
    worstAll = Math.max(worstAll, worst);
    assert.ok(worst < 1e-3, `${pose}: ${where} is ${(worst * 1000).toFixed(3)} mm from the Mixamo rig's`);
  }
  const sources = RIGS.map((r) => `${r} ${[...new Set(Object.values(holdStatus(world, assets[r])).filter((v) => v !== 'none'))].join('/')}`);
  console.log(`tip sources: ${sources.join(', ')}`);
  for (const r of ['convention-vrm', 'convention-daz4']) assert.deepEqual(Object.values(holdStatus(world, assets[r])).filter((v) => v !== 'none'), r === 'convention-daz4' ? ['mesh', 'mesh', 'mesh', 'mesh'] : ['mesh', 'mesh', 'mesh', 'mesh', 'mesh']);
  // The hand size is reported in metres whatever the rig's own units (Biped: centimetres).
  const sizes = RIGS.map((r) => {
    const { hero } = holdScene(world, assets[r], 'open');
    world.step(1 / 60);
    return world.grip.status(hero).right.indexLength;
  });
  console.log(`indexLength per rig (m): ${sizes.map((s, i) => `${RIGS[i]} ${s.toFixed(4)}`).join(', ')}`);
  for (const s of sizes) assert.ok(Math.abs(s - sizes[0]) < 1e-4, `indexLength ${s} vs ${sizes[0]}`);
  world.destroy();
});

test('grip conventions: the Biped rig (Z-up centimetre armature) stands upright at human size from an identity Transform and holds the grip-lab rifle (< 0.5 mm)', async () => {
  const scene = JSON.parse(readFileSync('assets/scenes/grip-lab.json', 'utf8'));
  const run = async (rig) => {
    const world = await createWorld();
    scene.assets.rigs.mannequin = rig;
    delete scene.timeline;
    const text = JSON.stringify(scene);
    const files = Object.fromEntries(world.sceneFiles(text).map((p) => [p, readFileSync(p)]));
    const hero = world.loadScene(text, { files }).entity('hero');
    for (let i = 0; i < 30; i++) world.step(1 / 60);
    return { world, hero };
  };
  const biped = await run({ gltf: 'assets/rigs/convention-biped.glb' });
  const { world, hero } = biped;
  assert.deepEqual(world.get(hero, Transform).scale, [1, 1, 1]);
  const asset = world.get(hero, Rig).asset;
  const model = world.modelPose(hero);
  const head = model[world.rig.findJoint(asset, 'Bip01 Head')].t;
  const foot = model[world.rig.findJoint(asset, 'Bip01 R Foot')].t;
  console.log(`Biped from an identity Transform: head at y ${head[1].toFixed(3)} m, right foot at y ${foot[1].toFixed(3)} m`);
  assert.ok(head[1] > 1.4 && head[1] < 1.8 && foot[1] < 0.2, `head ${head} foot ${foot}`);
  const h = world.get(hero, GripHolder);
  console.log(`Biped holds the rifle: main ${(h.mainDistance * 1000).toFixed(3)} mm, support ${(h.supportDistance * 1000).toFixed(3)} mm`);
  assert.ok(h.mainReached && h.supportReached, JSON.stringify(h));
  assert.ok(h.mainDistance < 5e-4 && h.supportDistance < 5e-4);
  const st = world.grip.status(hero).right;
  assert.ok(st.palmKnown && st.missing.length === 0, st.report);
  assert.ok(Math.abs(st.indexLength - 0.08) < 0.03, `indexLength ${st.indexLength} m`);
  // Same rifle, same hold as the built-in mannequin: the right hand joint lands within a millimetre.
  const ref = await run({ builtin: 'humanoid', height: 1.8 });
  const hb = model[world.rig.findJoint(asset, 'Bip01 R Hand')].t;
  const hm = ref.world.modelPose(ref.hero)[ref.world.rig.findJoint(ref.world.get(ref.hero, Rig).asset, 'RightHand')].t;
  console.log(`right hand joint: Biped vs built-in mannequin ${(dist(hb, hm) * 1000).toFixed(3)} mm`);
  assert.ok(dist(hb, hm) < 1e-3);
  world.destroy();
  ref.world.destroy();
});

/** The .glb with every right finger joint renamed to a name no rule knows. */
function scrambled(glb) {
  const dv = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const jsonLen = dv.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLen)));
  let k = 0;
  for (const n of json.nodes) if (/^Bip01 R Finger/.test(n.name)) n.name = `Bone.${String(100 + k++)}`;
  let text = JSON.stringify(json);
  while (text.length % 4) text += ' ';
  const jb = new TextEncoder().encode(text);
  const rest = glb.subarray(20 + jsonLen);
  const out = new Uint8Array(20 + jb.length + rest.length);
  const o = new DataView(out.buffer);
  out.set(glb.subarray(0, 12));
  o.setUint32(8, out.length, true);
  o.setUint32(12, jb.length, true);
  o.setUint32(16, 0x4e4f534a, true);
  out.set(jb, 20);
  out.set(rest, 20 + jb.length);
  return out;
}

test('grip conventions: with its finger names scrambled, the Biped rig does not report reached and the status names rightFingerRoots', async () => {
  const world = await createWorld();
  const { asset } = world.rig.load(scrambled(bytes('convention-biped')));
  const { hero } = holdScene(world, asset, 'pistol');
  world.step(1 / 60);
  const h = world.get(hero, GripHolder);
  assert.equal(h.mainReached, false, JSON.stringify(h));
  const st = world.grip.status(hero).right;
  assert.equal(st.palmKnown, false);
  assert.deepEqual(st.missing, FINGERS);
  assert.match(st.report, /rightFingerRoots/);
  console.log(`scrambled Biped: ${st.report.slice(0, 240)}...`);
  world.destroy();
});

test('grip conventions: ExternalAnimation drives the Biped rig loaded by three.js GLTFLoader without a nameMap', async () => {
  const glb = bytes('convention-biped');
  const gltf = await new Promise((ok, err) => new GLTFLoader().parse(glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength), '', ok, err));
  let mesh = null;
  gltf.scene.traverse((o) => {
    if (o.isSkinnedMesh) mesh = o;
  });
  const world = await createWorld();
  const rig = world.rig.load(glb);
  const hero = world.spawn();
  world.insert(hero, Rig, { asset: rig.asset });
  const anim = new ExternalAnimation(world, hero, mesh);
  assert.deepEqual(anim.missingJoints, []);
  const group = new THREE.Group();
  group.position.set(2, 0, -1);
  group.add(gltf.scene);
  const mixer = new THREE.AnimationMixer(gltf.scene);
  mixer.clipAction(gltf.animations.find((c) => c.name === 'walk')).play();
  let worst = 0;
  for (let i = 0; i < 20; i++) {
    mixer.update(1 / 30);
    group.updateMatrixWorld(true);
    const before = mesh.skeleton.bones.map((b) => b.getWorldPosition(new THREE.Vector3()));
    anim.beforeStep();
    world.step(1 / 30);
    anim.afterStep();
    group.updateMatrixWorld(true);
    // Limber's world-space joints equal three's bones, and writing the pose back moves nothing.
    const xf = world.worldTransform(hero);
    const model = world.modelPose(hero);
    mesh.skeleton.bones.forEach((b, j) => {
      const joint = anim.bones.indexOf(b);
      const m = model[joint];
      const w = [0, 1, 2].map((c) => xf.t[c] + qrot(xf.r, m.t.map((v, d) => v * xf.s[d]))[c]);
      worst = Math.max(worst, dist(w, before[j].toArray()), b.getWorldPosition(new THREE.Vector3()).distanceTo(before[j]));
    });
  }
  console.log(`ExternalAnimation on the Biped (no nameMap, armature node baked): max joint difference ${worst.toExponential(2)} m over 20 steps`);
  assert.ok(worst < 1e-5, `${worst} m`);
  world.destroy();
});

/** The .glb with its JSON changed by `edit`. */
function editGlb(glb, edit) {
  const dv = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const jsonLen = dv.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLen)));
  edit(json);
  let text = JSON.stringify(json);
  while (text.length % 4) text += ' ';
  const jb = new TextEncoder().encode(text);
  const rest = glb.subarray(20 + jsonLen);
  const out = new Uint8Array(20 + jb.length + rest.length);
  const o = new DataView(out.buffer);
  out.set(glb.subarray(0, 12));
  o.setUint32(8, out.length, true);
  o.setUint32(12, jb.length, true);
  o.setUint32(16, 0x4e4f534a, true);
  out.set(jb, 20);
  out.set(rest, 20 + jb.length);
  return out;
}

// End bones of a hand whose fingertips are not where the 0.8 ratio puts them (the generated
// mannequins' are): each end bone as a multiple of the mannequin's.
const END_BONES = { Thumb: 1.15, Index: 0.9, Middle: 1.1, Ring: 0.95, Pinky: 1.1 };

/** One hand geometry twice, generated here (assets/generate): with end joints (Mixamo names)
 * and VRM 1.0 style without them, both with the skinned mesh, whose last finger segments end
 * where the end joints are. */
async function handPair() {
  const bridge = await import('../../dist/web/bridge/index.js');
  const { readRigs } = await import('../../assets/generate/skeleton.mjs');
  const { conventionRigs } = await import('../../assets/generate/conventions.mjs');
  const { rigGlb } = await import('../../assets/generate/rig-glb.mjs');
  const warn = console.warn;
  console.warn = () => {}; // the generator reads the humanoid through the 0.1 names
  const { canon } = await readRigs(bridge, 1.8).finally(() => (console.warn = warn));
  for (const side of ['Left', 'Right']) {
    for (const [f, k] of Object.entries(END_BONES)) {
      const j = canon.names.indexOf(`${side}Hand${f}4`);
      const d = sub(canon.pos[j], canon.pos[canon.parents[j]]);
      canon.rest[j].t = d.map((v) => v * k); // the canonical rig has no rest rotations
      canon.pos[j] = canon.pos[canon.parents[j]].map((v, i) => v + k * d[i]);
    }
  }
  const meta = { test: 'tests/node/grip-conventions.test.mjs: end bones not at the 0.8 ratio' };
  return { withEnds: rigGlb(canon, canon, [], [], meta), withoutEnds: rigGlb(conventionRigs(canon)[0], canon, [], [], meta) };
}

test('grip conventions: a VRM-style rig without end joints ends its fingers where its skinned mesh does: thumb < 0.5 mm, every finger < 1 mm from the same hand with end joints (8 cm index), all eight poses', async () => {
  const { withEnds, withoutEnds } = await handPair();
  // The same file without its mesh: nothing says where the fingers end but the ratio.
  const meshless = editGlb(withoutEnds, (json) => json.nodes.forEach((n) => delete n.mesh));
  const world = await createWorld();
  const ref = world.rig.load(withEnds).asset;
  const variants = { mesh: world.rig.load(withoutEnds).asset, ratio: world.rig.load(meshless).asset };
  const worst = { mesh: { thumb: 0, tip: 0, all: 0 }, ratio: { thumb: 0, tip: 0, all: 0 } };
  const lines = [];
  for (const pose of POSES) {
    const a = holdScene(world, ref, pose).hero;
    const b = { mesh: holdScene(world, variants.mesh, pose).hero, ratio: holdScene(world, variants.ratio, pose).hero };
    world.step(1 / 60);
    const want = fingersInPalm(world, a);
    assert.ok(FINGERS.every((f) => want.st.tipSource[f] === 'joint'));
    const line = [pose];
    for (const v of ['mesh', 'ratio']) {
      const got = fingersInPalm(world, b[v]);
      assert.ok(FINGERS.every((f) => got.st.tipSource[f] === v), `${v}: ${JSON.stringify(got.st.tipSource)}`);
      assert.ok(world.get(b[v], GripHolder).mainReached);
      // thumb: its joints and tip; fingers: every joint and tip of the hand
      let thumb = 0, tip = 0, all = 0;
      for (const f of FINGERS) {
        got.out[f].forEach((j, i) => {
          const d = dist(j.p, want.out[f][i].p);
          all = Math.max(all, d);
          if (f === 'thumb') thumb = Math.max(thumb, d);
          if (f === 'thumb' && i === got.out[f].length - 1) tip = d;
        });
      }
      for (const [key, d] of [['thumb', thumb], ['tip', tip], ['all', all]]) worst[v][key] = Math.max(worst[v][key], d);
      line.push(`${v}: thumb ${(thumb * 1000).toFixed(3)} mm (tip ${(tip * 1000).toFixed(3)}), fingers ${(all * 1000).toFixed(3)} mm`);
    }
    lines.push(line.join('; '));
  }
  console.log(`thumb and finger joints + tips against the same hand with end joints (palm frame, 8 cm index):\n  ${lines.join('\n  ')}`);
  const mm = (w) => `thumb ${(w.thumb * 1000).toFixed(4)} mm (tip ${(w.tip * 1000).toFixed(4)}), fingers ${(w.all * 1000).toFixed(4)} mm`;
  console.log(`worst over the eight poses: ends from the mesh ${mm(worst.mesh)}; from the 0.8 ratio ${mm(worst.ratio)}`);
  assert.ok(worst.mesh.thumb < 5e-4, `thumb ${worst.mesh.thumb} m`);
  assert.ok(worst.mesh.all < 1e-3, `fingers ${worst.mesh.all} m`);
  assert.ok(worst.ratio.thumb > 5e-4, 'the ratio alone misses this hand (the test can tell)');
  const st = world.grip.status(holdScene(world, variants.mesh, 'open').hero).right;
  assert.match(st.report, /end where the skinned mesh ends: thumb index middle ring pinky/);
  world.destroy();
});
