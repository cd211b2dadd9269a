// glTF import cross-checked against three.js: the same file through three's GLTFLoader and
// through Limber over wasm (loadRig, the core's sampling job) must give the same joint
// names, parents and rest TRS (1e-6), and the same local TRS at 20 evenly spaced times of
// every clip (1e-5, relative above magnitude 1 where float32 keys cannot resolve 1e-5).
// Runs on a rig generated here (always), then on every assets/rigs/*.glb that exists (or
// every .glb in $LIMBER_RIG_DIR).
//
// The seed corpus of the glTF fuzzer comes from the same generator:
//   LIMBER_WRITE_CORPUS=1 node --test tests/node/gltf.test.mjs  (writes tests/fuzz/corpus/gltf/)
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import * as THREE from 'three';
import { createWorld, LimberError, Rig } from '../../dist/web/bridge/index.js';
import { movingArmature, riggedSimple, simpleSkin, unnamedClips } from './sample-rigs.mjs';

const SAMPLES = { 'simple-skin': simpleSkin, 'rigged-simple': riggedSimple, 'moving-armature': movingArmature, 'unnamed-clips': unnamedClips };

const TOL_REST = 1e-6;
const TOL_SAMPLE = 1e-5;
const TIMES = 20;

// ---- a small glTF writer ------------------------------------------------------------------
class GltfWriter {
  constructor() {
    this.chunks = [];
    this.length = 0;
    this.bufferViews = [];
    this.accessors = [];
  }
  /** Adds a typed array as a bufferView + accessor; returns the accessor index. */
  add(array, type, { normalized = false } = {}) {
    const componentType = { Float32Array: 5126, Int8Array: 5120, Uint8Array: 5121, Int16Array: 5122, Uint16Array: 5123 }[array.constructor.name];
    const pad = (4 - (this.length % 4)) % 4;
    if (pad) this.chunks.push(new Uint8Array(pad));
    this.length += pad;
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    this.bufferViews.push({ buffer: 0, byteOffset: this.length, byteLength: bytes.length });
    this.chunks.push(bytes.slice());
    this.length += bytes.length;
    const comps = { SCALAR: 1, VEC3: 3, VEC4: 4, MAT4: 16 }[type];
    const acc = { bufferView: this.bufferViews.length - 1, componentType, count: array.length / comps, type };
    if (normalized) acc.normalized = true;
    if (type === 'SCALAR') {
      acc.min = [Math.min(...array)];
      acc.max = [Math.max(...array)];
    }
    this.accessors.push(acc);
    return this.accessors.length - 1;
  }
  bin() {
    const out = new Uint8Array((this.length + 3) & ~3);
    let o = 0;
    for (const c of this.chunks) {
      out.set(c, o);
      o += c.length;
    }
    return out;
  }
  document(doc, buffer) {
    return { asset: { version: '2.0', generator: 'limber tests/node/gltf.test.mjs' }, ...doc, accessors: this.accessors, bufferViews: this.bufferViews, buffers: [buffer] };
  }
  glb(doc) {
    const bin = this.bin();
    const json = new TextEncoder().encode(JSON.stringify(this.document(doc, { byteLength: this.length })));
    const jlen = (json.length + 3) & ~3;
    const total = 12 + 8 + jlen + 8 + bin.length;
    const out = new Uint8Array(total);
    const dv = new DataView(out.buffer);
    dv.setUint32(0, 0x46546c67, true);
    dv.setUint32(4, 2, true);
    dv.setUint32(8, total, true);
    dv.setUint32(12, jlen, true);
    dv.setUint32(16, 0x4e4f534a, true);
    out.set(json, 20);
    out.fill(0x20, 20 + json.length, 20 + jlen);
    dv.setUint32(20 + jlen, bin.length, true);
    dv.setUint32(24 + jlen, 0x004e4942, true);
    out.set(bin, 28 + jlen);
    return out;
  }
  gltf(doc) {
    const uri = `data:application/octet-stream;base64,${Buffer.from(this.bin().subarray(0, this.length)).toString('base64')}`;
    return new TextEncoder().encode(JSON.stringify(this.document(doc, { byteLength: this.length, uri })));
  }
}

const f32 = (a) => new Float32Array(a);
function quat(axis, deg) {
  const n = Math.hypot(...axis);
  const h = (deg * Math.PI) / 360;
  const s = Math.sin(h) / n;
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(h)];
}
// Column-major T * R * S.
function compose(t, q, s) {
  const [x, y, z, w] = q;
  const r = [
    [1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)],
    [2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)],
    [2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)],
  ];
  return [...r[0].map((v) => v * s[0]), 0, ...r[1].map((v) => v * s[1]), 0, ...r[2].map((v) => v * s[2]), 0, ...t, 1].map(Math.fround);
}

/** The test rig: TRS and matrix nodes, a '/' and an unnamed node, a skin listed out of
 * depth-first order with IBMs, and clips: LINEAR (with a hemisphere flip), STEP,
 * normalised-integer rotations and CUBICSPLINE. Returns { w, doc, ibm }. */
function rigFixture() {
  const w = new GltfWriter();
  const nodes = [
    { name: 'Armature', rotation: quat([1, 0, 0], 90), scale: [0.01, 0.01, 0.01], children: [1, 9] },
    { name: 'Hips', translation: [0, 1, 0], children: [2, 6, 8] },
    { name: 'Spine', translation: [0, 0.1, 0.01], rotation: quat([1, 0.2, 0], 12), children: [3] },
    { name: 'Chest', matrix: compose([0, 0.25, -0.02], quat([0.3, 1, -0.2], 35), [1.1, 0.9, 1]), children: [4, 5] },
    { name: 'Neck/Top', translation: [0, 0.2, 0] },
    { translation: [0.1, 0.25, 0] },
    { name: 'LeftArm', translation: [0.2, 0.3, 0], rotation: quat([0, 0, 1], -80), scale: [1, 1, 1], children: [7] },
    { name: 'LeftHand', translation: [0.25, 0, 0] },
    { name: 'RightArm', translation: [-0.2, 0.3, 0], rotation: quat([0, 0, 1], 80) },
    { name: 'Mesh', skin: 0 },
  ];
  const skinJoints = [8, 1, 3, 2, 6, 7, 5, 4];
  const ibm = new Float32Array(16 * skinJoints.length);
  skinJoints.forEach((n, k) => ibm.set(compose([-0.1 * k, -1 - 0.05 * k, 0.02 * k], quat([0, 1, 0], 7 * k), [1, 1, 1]), 16 * k));
  const ibmAcc = w.add(ibm, 'MAT4');

  const lin = (input, output, interpolation) => ({ input, output, ...(interpolation ? { interpolation } : {}) });
  // Walk: LINEAR; the Armature channel moves the node above the skin's joints, so the
  // skeleton starts there (as three.js plays it), and sets the duration.
  const tHips = w.add(f32([0, 0.37, 0.81, 1.33, 1.7]), 'SCALAR');
  const vHips = w.add(f32([0, 1, 0, 0.02, 1.03, 0.1, 0, 0.98, 0.2, -0.02, 1.02, 0.31, 0, 1, 0.4]), 'VEC3');
  const tSpine = w.add(f32([0.1, 0.6, 1.1, 1.6]), 'SCALAR');
  const vSpine = w.add(f32([...quat([1, 0.2, 0], 12), ...quat([1, 0.2, 0], -20), ...quat([0, 1, 0.3], 45), ...quat([1, 0.2, 0], 12)]), 'VEC4');
  const arm = [quat([0, 0, 1], -80), quat([0, 0.3, 1], -20), quat([0, 0, 1], 60), quat([1, 0, 1], 120), quat([0, 0, 1], -80), quat([0, 1, 0], 170)];
  arm[2] = arm[2].map((v) => -v); // same rotation, other hemisphere
  const tArm = w.add(f32([0, 0.3, 0.65, 1.0, 1.45, 1.9]), 'SCALAR');
  const vArm = w.add(f32(arm.flat()), 'VEC4');
  const tChest = w.add(f32([0, 0.9, 1.8]), 'SCALAR');
  const vChest = w.add(f32([1.1, 0.9, 1, 1.2, 1, 0.95, 1.1, 0.9, 1]), 'VEC3');
  const tRoot = w.add(f32([0, 2.0]), 'SCALAR');
  const vRoot = w.add(f32([0, 0, 0, 0, 0, 1.5]), 'VEC3');
  // Wave: STEP (key times off the 20-sample grid so float rounding cannot flip a step).
  const tWave = w.add(f32([0, 0.23, 0.52, 0.91]), 'SCALAR');
  const vWave = w.add(f32([...quat([0, 0, 1], 80), ...quat([0, 0, 1], 100), ...quat([1, 0, 1], 70), ...quat([0, 0, 1], 80)]), 'VEC4');
  const tHand = w.add(f32([0.11, 0.77]), 'SCALAR');
  const vHand = w.add(f32([0.25, 0, 0, 0.3, 0.02, 0]), 'VEC3');
  // Quantised: SHORT and UNSIGNED_BYTE normalised rotations.
  const tQ = w.add(f32([0, 0.5, 1.2]), 'SCALAR');
  const shortQ = [quat([0, 0, 1], -80), quat([0, -1, 1], -40), quat([1, 0, 0], 60)].flat().map((v) => Math.round(v * 32767));
  const vQs = w.add(new Int16Array(shortQ), 'VEC4', { normalized: true });
  const byteQ = [quat([1, 0.2, 0], 12), quat([0, 1, 0.3], 45), quat([1, 1, 0], 30)].flat().map((v) => Math.round(Math.max(0, v) * 255));
  const vQb = w.add(new Uint8Array(byteQ), 'VEC4', { normalized: true });
  // Smooth: CUBICSPLINE (in-tangent, value, out-tangent per key).
  const tC = w.add(f32([0, 0.6, 1.5]), 'SCALAR');
  const vCt = w.add(f32([0, 0, 0, 0, 1, 0, 0.5, 1, 0, -0.3, 0.2, 0.1, 0.2, 1.1, 0, 0.4, 0, -0.2, 0, 0, 0, 0, 1, 0.3, 0, 0, 0]), 'VEC3');
  const cq = [quat([1, 0, 0], 0), quat([1, 0, 0], 50), quat([1, 0.5, 0], 90)];
  const cd = [[0.5, 0, 0, 0], [0.6, 0.1, 0, -0.3], [0, 0, 0, 0]];
  const vCr = w.add(f32(cq.flatMap((q, k) => [...cd[k], ...q, ...cd[k]])), 'VEC4');

  const doc = {
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes,
    skins: [{ joints: skinJoints, inverseBindMatrices: ibmAcc }],
    animations: [
      {
        name: 'Walk',
        samplers: [lin(tHips, vHips), lin(tSpine, vSpine, 'LINEAR'), lin(tArm, vArm), lin(tChest, vChest), lin(tRoot, vRoot)],
        channels: [
          { sampler: 0, target: { node: 1, path: 'translation' } },
          { sampler: 1, target: { node: 2, path: 'rotation' } },
          { sampler: 2, target: { node: 6, path: 'rotation' } },
          { sampler: 3, target: { node: 3, path: 'scale' } },
          { sampler: 4, target: { node: 0, path: 'translation' } },
        ],
      },
      {
        name: 'Wave',
        samplers: [lin(tWave, vWave, 'STEP'), lin(tHand, vHand, 'STEP')],
        channels: [
          { sampler: 0, target: { node: 8, path: 'rotation' } },
          { sampler: 1, target: { node: 7, path: 'translation' } },
        ],
      },
      {
        name: 'Quantized',
        samplers: [lin(tQ, vQs), lin(tQ, vQb)],
        channels: [
          { sampler: 0, target: { node: 6, path: 'rotation' } },
          { sampler: 1, target: { node: 2, path: 'rotation' } },
        ],
      },
      {
        name: 'Smooth',
        samplers: [lin(tC, vCt, 'CUBICSPLINE'), lin(tC, vCr, 'CUBICSPLINE')],
        channels: [
          { sampler: 0, target: { node: 1, path: 'translation' } },
          { sampler: 1, target: { node: 5, path: 'rotation' } },
        ],
      },
    ],
  };
  return { w, doc, ibm };
}

/** A skin-less file: two root trees, matrix nodes. */
function noSkinFixture() {
  const w = new GltfWriter();
  const t = w.add(f32([0, 0.5, 1]), 'SCALAR');
  const v = w.add(f32([0, 0, 0, 0, 0.5, 0, 0, 0, 0]), 'VEC3');
  const doc = {
    nodes: [
      { name: 'root', children: [1] },
      { name: 'child', matrix: compose([0, 1, 0], quat([0, 0, 1], 30), [2, 2, 2]) },
      { name: 'prop', translation: [1, 0, 0] },
    ],
    animations: [{ name: 'bob', samplers: [{ input: t, output: v }], channels: [{ sampler: 0, target: { node: 2, path: 'translation' } }] }],
  };
  return { w, doc };
}

// ---- three.js side ------------------------------------------------------------------------
function threeParse(bytes) {
  const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return new Promise((resolve, reject) => new GLTFLoader().parse(ab, '', resolve, reject));
}

const normQ = (q) => {
  const n = Math.hypot(...q);
  return q.map((v) => v / n);
};
// Largest component difference; quaternions compared up to sign (q and -q are one rotation).
function diff(a, b, quatSign = false) {
  let s = 1;
  if (quatSign && a.reduce((acc, v, i) => acc + v * b[i], 0) < 0) s = -1;
  return Math.max(...a.map((v, i) => Math.abs(v - s * b[i]) / Math.max(1, Math.abs(b[i]))));
}

/** three's interpolant for a track. three keeps quantised rotation keys as decoded (not unit
 * length) while Limber normalises them, so rotation keys are normalised here first; the
 * decoding (c / 32767 ...) and the interpolation stay three's. */
function interpolant(track) {
  const cubic = track.createInterpolant.isInterpolantFactoryMethodGLTFCubicSpline;
  if (cubic || track.ValueTypeName !== 'quaternion') return track.createInterpolant();
  const unit = track.clone();
  unit.values = new Float32Array(track.values);
  for (let i = 0; i < unit.values.length; i += 4) unit.values.set(normQ(Array.from(unit.values.subarray(i, i + 4))), i);
  return unit.createInterpolant();
}

/** Loads `bytes` both ways and compares; returns the measured worst errors. */
async function crossCheck(bytes, label, options = {}, threeBytes = bytes) {
  const gltf = await threeParse(threeBytes);
  const parser = gltf.parser;
  const world = await createWorld();
  // the importer's fidelity against three's, before any key reduction
  const rig = world.rig.load(bytes, { keyTolerance: 0, ...options });
  const json = parser.json;

  // three object per glTF node, and node index per three track target name
  const objects = [];
  const byTarget = new Map();
  for (let n = 0; n < (json.nodes ?? []).length; n++) {
    const obj = await parser.getDependency('node', n);
    objects.push(obj);
    byTarget.set(obj.name || obj.uuid, n);
  }
  const jointOfNode = new Map(rig.joints.map((j, k) => [j.node, k]));
  const nodeOf = new Map(objects.map((o, n) => [o, n]));
  // The nodes above the skeleton root are part of the rig's root joint (an armature node's
  // axis change and scale): three keeps them as parents, so its root values are composed
  // with their world matrix before comparing.
  const inRig = (ji, t, r, sc) => {
    const obj = objects[rig.joints[ji].node];
    if (rig.joints[ji].parent >= 0 || !obj.parent || !json.skins?.length) return [t, r, sc];
    obj.parent.updateWorldMatrix(true, false);
    const m = new THREE.Matrix4().compose(new THREE.Vector3(...t), new THREE.Quaternion(...r), new THREE.Vector3(...sc)).premultiply(obj.parent.matrixWorld);
    const [p, q, v] = [new THREE.Vector3(), new THREE.Quaternion(), new THREE.Vector3()];
    m.decompose(p, q, v);
    return [p.toArray(), q.toArray(), v.toArray()];
  };

  // names, parents, rest
  let worstRest = 0;
  const seen = new Set();
  rig.joints.forEach((j, k) => {
    const obj = objects[j.node];
    const base = (json.nodes[j.node].name || `node${j.node}`).replaceAll('/', '_');
    assert.ok(j.name === base || new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}_\\d+$`).test(j.name), `${label}: joint ${k} name '${j.name}' vs node name '${base}'`);
    assert.ok(!seen.has(j.name), `${label}: joint name '${j.name}' is unique`);
    seen.add(j.name);
    const parentNode = obj.parent ? nodeOf.get(obj.parent) : undefined;
    const expectedParent = parentNode !== undefined && jointOfNode.has(parentNode) ? jointOfNode.get(parentNode) : -1;
    assert.equal(j.parent, expectedParent, `${label}: parent of '${j.name}'`);
    const [et, er, es] = inRig(k, obj.position.toArray(), obj.quaternion.toArray(), obj.scale.toArray());
    worstRest = Math.max(worstRest, diff(j.rest.t, et), diff(j.rest.r, er, true), diff(j.rest.s, es));
  });
  assert.ok(worstRest <= TOL_REST, `${label}: rest TRS error ${worstRest} > ${TOL_REST}`);
  assert.deepEqual(world.rig.skeleton(rig.asset).names, rig.joints.map((j) => j.name), `${label}: the world keeps the importer's order`);

  // clips
  assert.equal(rig.clips.length, gltf.animations.length, `${label}: one clip per animation`);
  let worstSample = 0;
  let samples = 0;
  let tracked = 0;
  gltf.animations.forEach((clip, c) => {
    const mine = rig.clips[c];
    const base = json.animations[c].name || `animation_${c}`;
    assert.equal(mine.name, clip.name, `${label}: clip ${c} is named as three.js names it`);
    assert.ok(mine.name === base || mine.name.startsWith(`${base}_`), `${label}: clip ${c} name '${mine.name}' vs '${base}'`);
    if (clip.duration > 0) assert.ok(Math.abs(mine.duration - clip.duration) <= 1e-7, `${label}: '${mine.name}' duration ${mine.duration} vs ${clip.duration}`);
    // expected channel values: the three track, or the rest pose where no track animates
    const tracks = new Map();
    for (const track of clip.tracks) {
      const dot = track.name.lastIndexOf('.');
      const node = byTarget.get(track.name.slice(0, dot));
      const prop = track.name.slice(dot + 1);
      if (node === undefined || !jointOfNode.has(node) || prop === 'morphTargetInfluences') continue;
      tracks.set(`${jointOfNode.get(node)}.${prop}`, interpolant(track));
    }
    if (clip.tracks.some((tr) => jointOfNode.has(byTarget.get(tr.name.slice(0, tr.name.lastIndexOf('.')))))) {
      assert.ok(tracks.size > 0, `${label}: clip '${mine.name}' has tracks to compare`);
    }
    tracked += tracks.size;
    for (let k = 0; k < TIMES; k++) {
      const t = Math.fround((mine.duration * k) / (TIMES - 1));
      const pose = world.anim.sampleClip(mine.handle, t);
      rig.joints.forEach((j, ji) => {
        const obj = objects[j.node];
        const value = (prop, rest) => {
          const it = tracks.get(`${ji}.${prop}`);
          return it ? Array.from(it.evaluate(t)) : rest;
        };
        const [et, er, es] = inRig(ji, value('position', obj.position.toArray()), normQ(value('quaternion', obj.quaternion.toArray())), value('scale', obj.scale.toArray()));
        const e = Math.max(diff(pose[ji].t, et), diff(pose[ji].r, er, true), diff(pose[ji].s, es));
        if (e > TOL_SAMPLE) assert.fail(`${label}: clip '${mine.name}' joint '${j.name}' at t = ${t}: error ${e} > ${TOL_SAMPLE}`);
        worstSample = Math.max(worstSample, e);
        samples++;
      });
    }
  });
  world.destroy();
  return { joints: rig.joints.length, clips: rig.clips.length, worstRest, worstSample, samples, tracked, rig };
}

function writeCorpus() {
  const dir = 'tests/fuzz/corpus/gltf';
  mkdirSync(dir, { recursive: true });
  const r = rigFixture();
  writeFileSync(join(dir, 'rig.glb'), r.w.glb(r.doc));
  writeFileSync(join(dir, 'rig.gltf'), r.w.gltf(r.doc));
  const n = noSkinFixture();
  writeFileSync(join(dir, 'noskin.gltf'), n.w.gltf(n.doc));
  writeFileSync(join(dir, 'noskin.glb'), n.w.glb(n.doc));
  // skinned meshes (mesh ends), unnamed joints, a moving armature, CUBICSPLINE
  for (const [name, build] of Object.entries(SAMPLES)) writeFileSync(join(dir, `${name}.glb`), build());
}
if (process.env.LIMBER_WRITE_CORPUS) writeCorpus();

// ---- tests --------------------------------------------------------------------------------
test('gltf: generated rig (.glb) matches three.js GLTFLoader', async () => {
  const { w, doc, ibm } = rigFixture();
  const r = await crossCheck(w.glb(doc), 'rig.glb', { cubicTolerance: 2e-6 });
  console.log(`rig.glb: ${r.joints} joints, ${r.clips} clips (${r.tracked} tracks), rest max error ${r.worstRest.toExponential(2)}, ${r.samples} sampled joint poses max error ${r.worstSample.toExponential(2)}`);
  assert.equal(r.tracked, 11);
  assert.deepEqual(r.rig.joints.map((j) => j.name), ['Armature', 'Hips', 'Spine', 'Chest', 'Neck_Top', 'node5', 'LeftArm', 'LeftHand', 'RightArm']);
  assert.deepEqual(r.rig.skin.joints, [8, 1, 3, 2, 6, 7, 5, 4]);
  assert.deepEqual(Array.from(r.rig.skin.inverseBindMatrices), Array.from(ibm));
  assert.deepEqual(r.rig.clips.map((c) => c.name), ['Walk', 'Wave', 'Quantized', 'Smooth']);
  assert.equal(r.rig.clips[0].duration, 2); // the Armature channel counts
  assert.deepEqual(r.rig.rootParent, { t: [0, 0, 0], r: [0, 0, 0, 1], s: [1, 1, 1] }); // nothing static above it
});

test('gltf: the same rig as .gltf with a data: URI, and a skin-less file', async () => {
  const { w, doc } = rigFixture();
  // three's loader fetches data: URIs (not available under Node): it reads the same rig as .glb
  const a = await crossCheck(w.gltf(doc), 'rig.gltf', { cubicTolerance: 2e-6 }, w.glb(doc));
  assert.equal(a.joints, 9);
  const n = noSkinFixture();
  const b = await crossCheck(n.w.glb(n.doc), 'noskin.glb');
  assert.deepEqual(b.rig.joints.map((j) => j.name), ['root', 'child', 'prop']);
  assert.deepEqual(b.rig.joints.map((j) => j.parent), [-1, 0, -1]);
  assert.equal(b.rig.skin, null);
  console.log(`rig.gltf: sampled max error ${a.worstSample.toExponential(2)}; noskin.glb: rest max error ${b.worstRest.toExponential(2)}`);
});

// LIMBER_RIG_DIR points the check at another folder of .glb files.
const rigDir = process.env.LIMBER_RIG_DIR ?? 'assets/rigs';
const assetRigs = existsSync(rigDir) ? readdirSync(rigDir).filter((f) => f.endsWith('.glb')).sort() : [];
for (const file of assetRigs) {
  test(`gltf: ${rigDir}/${file} matches three.js GLTFLoader`, async () => {
    const r = await crossCheck(new Uint8Array(readFileSync(join(rigDir, file))), file, { cubicTolerance: 2e-6 });
    console.log(`${file}: ${r.joints} joints, ${r.clips} clips (${r.tracked} tracks), rest max error ${r.worstRest.toExponential(2)}, sampled max error ${r.worstSample.toExponential(2)}`);
    assert.ok(r.joints > 0);
  });
}

test('gltf: bad files throw a LimberError naming the problem and change nothing', async () => {
  const world = await createWorld();
  const { w, doc } = rigFixture();
  const glb = w.glb(doc);
  const expectError = (bytes, code, re, options) => {
    assert.throws(() => world.rig.load(bytes, options), (e) => e instanceof LimberError && e.code === code && re.test(e.message), `${code} ${re}`);
  };
  expectError(glb.subarray(0, glb.length - 8), 'LB_ERR_PARSE', /truncated: the header says/);
  const bad = glb.slice();
  bad[4] = 3;
  expectError(bad, 'LB_ERR_PARSE', /version 3/);
  expectError(glb, 'LB_ERR_INVALID_ARGUMENT', /field 'skin'/, { skin: -5 });
  expectError(new TextEncoder().encode('{"asset":{"version":"2.0"},"nodes":[{"children":[1]},{"children":[0]}]}'), 'LB_ERR_CYCLE', /cycle in the node hierarchy/);
  assert.throws(() => world.rig.load('not bytes'), (e) => e.code === 'LB_ERR_INVALID_ARGUMENT' && e.field === 'bytes');
  assert.equal(world.anim.findClip('Walk'), 0);
  expectError(glb, 'LB_ERR_OUT_OF_RANGE', /cubic_tolerance/, { cubicTolerance: 1.5 });
  assert.throws(() => world.rig.skeleton(1), (e) => e.code === 'LB_ERR_INVALID_ARGUMENT' && e.field === 'asset' && /not a skeleton asset/.test(e.message));
  // and then a good file works, and its skeleton drives a Rig
  // CUBICSPLINE plays by default ('Smooth': two tracks resampled within 5e-6)
  const rig = world.rig.load(glb);
  const smooth = rig.clips[3].reduction;
  assert.ok(smooth.cubicTracks === 2 && smooth.cubicTolerance === Math.fround(5e-6) && smooth.cubicError <= smooth.cubicTolerance, JSON.stringify(smooth));
  assert.equal(rig.asset, 1);
  assert.equal(world.anim.findClip('Wave'), rig.clips[1].handle);
  assert.equal(world.anim.findClip('Wave', 2), 0);
  const hero = world.spawn();
  world.insert(hero, Rig, { asset: rig.asset });
  world.step(1 / 60);
  const local = world.localPose(hero);
  assert.equal(local.length, 9);
  assert.ok(diff(local[1].t, rig.joints[1].rest.t) === 0);
  assert.throws(() => world.anim.sampleClip(99, 0), (e) => e.code === 'LB_ERR_INVALID_ARGUMENT');
  assert.throws(() => world.anim.sampleClip(1, NaN), (e) => e.code === 'LB_ERR_NOT_FINITE' && /'Walk'/.test(e.message));
  world.destroy();
});

test('loadRig: key reduction within keyTolerance, reported per clip; bad values refused', async () => {
  const world = await createWorld();
  const bytes = new Uint8Array(readFileSync('assets/rigs/mannequin-unreal.glb'));
  const raw = world.rig.load(bytes, { keyTolerance: 0 });
  const reduced = world.rig.load(bytes);
  const coarse = world.rig.load(bytes, { keyTolerance: 0.01, skinDistance: 0.05 });
  const n = raw.joints.length;
  const parents = raw.joints.map((j) => j.parent);
  const model = (local) => {
    const out = [];
    for (let j = 0; j < n; j++) {
      const l = local[j];
      if (parents[j] < 0) {
        out.push({ t: [...l.t], r: [...l.r], s: [...l.s] });
        continue;
      }
      const p = out[parents[j]];
      const v = new THREE.Vector3(...l.t).multiply(new THREE.Vector3(...p.s)).applyQuaternion(new THREE.Quaternion(...p.r));
      const r = new THREE.Quaternion(...p.r).multiply(new THREE.Quaternion(...l.r));
      out.push({ t: [v.x + p.t[0], v.y + p.t[1], v.z + p.t[2]], r: [r.x, r.y, r.z, r.w], s: [p.s[0] * l.s[0], p.s[1] * l.s[1], p.s[2] * l.s[2]] });
    }
    return out;
  };
  for (const [rig, tol] of [[reduced, 1e-4], [coarse, 0.01]]) {
    let worst = 0;
    let constant = 0;
    let rawConstant = 0;
    rig.clips.forEach((c, k) => {
      assert.ok(c.reduction.error <= tol, `${c.name}: ${c.reduction.error} m`);
      assert.equal(c.reduction.tracks, raw.clips[k].reduction.tracks);
      constant += c.reduction.constantTracks;
      rawConstant += raw.clips[k].reduction.constantTracks;
      for (let i = 0; i <= 60; i++) {
        const t = (c.duration * i) / 60;
        const a = model(world.anim.sampleClip(raw.clips[k].handle, t));
        const b = model(world.anim.sampleClip(c.handle, t));
        for (let j = 0; j < n; j++) worst = Math.max(worst, Math.hypot(a[j].t[0] - b[j].t[0], a[j].t[1] - b[j].t[1], a[j].t[2] - b[j].t[2]));
      }
    });
    console.log(`mannequin-unreal at ${tol} m: constant tracks ${rawConstant} -> ${constant}; joint positions moved at most ${(worst * 1e3).toFixed(4)} mm (three.js posing, 61 times per clip)`);
    assert.ok(constant > rawConstant);
    assert.ok(worst <= tol * 1.001 + 1e-6, `${worst} m`);
  }
  assert.ok(raw.clips.every((c) => c.reduction.error === 0));
  const skeletons = world.anim.listClips().length;
  for (const [options, code] of [[{ keyTolerance: Number.NaN }, 'LB_ERR_NOT_FINITE'], [{ keyTolerance: 2 }, 'LB_ERR_OUT_OF_RANGE'], [{ skinDistance: -1 }, 'LB_ERR_OUT_OF_RANGE'], [{ skinDistance: '0.1' }, 'LB_ERR_NOT_FINITE']]) {
    assert.throws(() => world.rig.load(bytes, options), (e) => e instanceof LimberError && e.code === code && /keyTolerance|skinDistance|key_tolerance|skin_distance/.test(e.message), JSON.stringify(options));
  }
  assert.equal(world.anim.listClips().length, skeletons);
  world.destroy();
});

test('listClips: every clip of a skeleton, with names and durations', async () => {
  const world = await createWorld();
  const bytes = new Uint8Array(readFileSync('assets/rigs/mannequin-mixamo.glb'));
  const rig = world.rig.load(bytes);
  const other = world.rig.load(bytes);
  const { listClips } = await import('../../dist/web/bridge/index.js');
  assert.deepEqual(world.anim.listClips(rig.asset), rig.clips);
  assert.deepEqual(world.anim.listClips(other.asset), other.clips);
  assert.equal(world.anim.listClips().length, rig.clips.length + other.clips.length);
  assert.deepEqual(world.anim.listClips(rig.asset).map((c) => c.name), ['idle', 'walk', 'run', 'vault', 'reach']);
  assert.deepEqual(world.anim.listClips(12345), []);
  world.destroy();
});
