// API-sequence fuzzer (fast-check): random sequences of bridge calls (components, steps, scenes,
// levels and navmeshes from intact and damaged files, snapshot and restore (own, another
// world's, damaged, made up), poses, collision queries on both the World methods and
// world.collide, moveController)
// against a world and a twin. A call that succeeds is applied to both; a call that fails to the first only. After
// every call:
//   - only LimberError is thrown (code LB_*, message starting with the code), never a
//     TypeError / RangeError / WebAssembly RuntimeError;
//   - both worlds have the same bone hash and the same live entities (a failed call changed
//     nothing; a successful one did the same in both), and the failed call's entities hold
//     the same components in both;
//   - no rig's model matrices hold a non-finite entry;
//   - wasm memory stays under MEMORY_BOUND.
// Every 200 calls and at the end of a sequence the whole state (every component of every
// entity) is compared.
//
// Fixed seed; LIMBER_FUZZ_SEED=n picks another, LIMBER_FUZZ_RUNS=n (sequences) and
// LIMBER_FUZZ_LENGTH=n (calls per sequence) run longer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import {
  createWorld,
  GripPose,
  LimberError,
  Rig,
  Transform,
} from '../../dist/web/bridge/index.js';

const SEED = Number(process.env.LIMBER_FUZZ_SEED ?? 20240611);
const RUNS = Number(process.env.LIMBER_FUZZ_RUNS ?? 110);
const LENGTH = Number(process.env.LIMBER_FUZZ_LENGTH ?? 1000);
/** Each world starts at 16 MB; a sequence adds at most a few MB (rig assets, component pages,
 * 5,000-byte names). 128 MB means something grows per call. */
const MEMORY_BOUND = 128 * 2 ** 20;
const FULL_CHECK_EVERY = 200;
/** Both core defects the fuzzer found are fixed and enforced: a failed scene.step changes
 * nothing (checked before anything is applied, commands of a step all or nothing), and
 * scale products along joint chains and Transform parents are refused at write, so no
 * matrix is non-finite. Setting LIMBER_FUZZ_LENIENT=1 tolerates them again (for bisecting). */
const KNOWN_CORE_SCALE_CHAIN = process.env.LIMBER_FUZZ_LENIENT === '1' ? 'scale-chain products overflow (core)' : undefined;
const KNOWN_CORE_SCENE_STEP = process.env.LIMBER_FUZZ_LENIENT === '1' ? 'scene.step is not atomic (core)' : undefined;

// ---- values ------------------------------------------------------------------------------------

/** mulberry32: each command carries a 32-bit seed; its arguments come from this stream. */
function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const r = {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (arr) => arr[Math.floor(next() * arr.length)],
    chance: (p) => next() < p,
  };
  return r;
}

const HUGE = new Array(100000).fill(1);
const EXTREME_NUMBERS = [NaN, Infinity, -Infinity, 1e30, -1e30, -0, 0, 1e-30, 3.5e38, 1e39, 2 ** 32, -1, 1e6, 1e-45, Number.MAX_VALUE, -Number.MIN_VALUE];
const WEIRD = [null, undefined, 'x', '', {}, [], true, false, 10n, Symbol('s'), () => 1, new Date(0), Object.create(null)];
const STRINGS = [
  'RightHand', 'LeftHand', 'Hips', 'Hips/Spine', 'pistol', 'fist', 'open', 'support', 'relaxed', 'claw', 'fuzzPose', 'a\0b', '\0',
  'x'.repeat(5000), '', 'ünïcödé ✋', 'mixamorig:RightHand', 'RightHandIndex1', 'Cylinder', 'Right', 'Left', 'X', 'Object', 'Hand', '{"a":1}',
];
const EXTREME_ARRAYS = [
  [NaN, 0, 0], [1e30, 1e30, 1e30], [0, 0, 0, 0], [1, 2], [1, 2, 3, 4, 5], HUGE, ['1', '2', '3'], [1e4, 1e4, 1e4], [1e-6, 1e-6, 1e-6],
  [-0, -0, -0], [Infinity, 0, 0, 1], [0, 0, 0, 1e30], [-1, 1, -1], [null, 0, 0], Float32Array.of(1, 1, 1), Float64Array.of(0, 0, 0, 1), [],
];

/** The generated levels and navmeshes, as a game's loader would hand them over. */
const LEVEL_FILES = Object.fromEntries(['corridor.json', 'corridor.glb', 'nav-arena.json', 'nav-arena.glb', 'vault-course.json', 'nav-arena.navmesh.json', 'corridor.navmesh.json']
  .map((f) => [`assets/levels/${f}`, new Uint8Array(readFileSync(new URL(`../../assets/levels/${f}`, import.meta.url)))]));
const NAVMESH_TEXT = new TextDecoder().decode(LEVEL_FILES['assets/levels/nav-arena.navmesh.json']);
/** Snapshots kept per world: each is the whole wasm memory (16 MB and up). */
const SNAPSHOTS_KEPT = 2;

/** Bytes damaged the ways a download or a bad export damages them. */
function damaged(r, bytes) {
  const b = bytes.slice();
  const roll = r.int(4);
  if (roll === 0) return b.subarray(0, r.int(b.length));
  if (roll === 1) { for (let i = 0; i < 1 + r.int(8); i++) b[r.int(b.length)] ^= 1 << r.int(8); return b; }
  if (roll === 2) return new Uint8Array(0);
  return new TextEncoder().encode('{"pieces": [{"box": [1e30, NaN]}]}');
}

const POSES = ['pistol', 'fist', 'open', 'support', 'relaxed', 'claw', 'fuzzPose', 'captured', 'cup', 'pinch', 'handle'];
const NICE_STRINGS = {
  any: [''], tip: ['RightHand', 'LeftHand', 'RightForeArm', 'Hips'], parentJoint: ['', 'RightHand', 'Head', 'LeftHand'],
  rightPose: POSES, leftPose: POSES, mainPose: POSES, supportPose: POSES,
  rightHand: ['', 'RightHand'], leftHand: ['', 'LeftHand'], rightFingerRoots: [''], leftFingerRoots: [''], state: [''],
};

function goodNumber(r, f) {
  const lo = Number.isFinite(f.min) ? Math.max(f.min, -10) : -10;
  const hi = Number.isFinite(f.max) && f.max > lo ? Math.min(f.max, 10) : lo + 10;
  return r.pick([lo, hi, lo + (hi - lo) * r.next(), 0.5, 1, 0].filter((x) => x >= lo && x <= hi));
}

function quat(r) {
  const q = [r.next() - 0.5, r.next() - 0.5, r.next() - 0.5, r.next() - 0.5];
  const n = Math.hypot(...q) || 1;
  return q.map((x) => x / n);
}

/** A value for field f: with probability `bad` an extreme value or one of the wrong type
 * (0 gives valid values only). */
function fieldValue(r, f, st, bad = 0.4) {
  const roll = r.next();
  if (roll < bad * 0.35) return r.pick(WEIRD.concat(STRINGS.slice(0, 4)));
  const extreme = roll < bad;
  switch (f.type) {
    case 0: return extreme ? r.pick(EXTREME_NUMBERS) : goodNumber(r, f); // F32
    case 1: return extreme ? r.pick([1.5, -1, 2 ** 32, NaN]) : r.int(4); // U32
    case 2: return extreme ? r.pick([0, 1, 2, 'true', null]) : r.chance(0.5); // Bool
    case 3: return pickHandle(r, st, extreme ? 0.5 : 0.05); // Entity
    case 8: return extreme ? r.pick([0, 1.5, 999, -1, '1']) : r.pick(st.assets.length ? st.assets : [1]); // Asset
    case 4: return extreme ? r.pick(EXTREME_ARRAYS) : [goodNumber(r, f), goodNumber(r, f), goodNumber(r, f)]; // Vec3
    case 5: return extreme ? r.pick(EXTREME_ARRAYS) : quat(r); // Quat
    case 7: return extreme ? r.pick(['', 'right', 'Z ', 'Cylinder\0', 3]) : r.pick(f.enumNames); // Enum
    case 9: case 6: return extreme ? r.pick(STRINGS) : r.pick(NICE_STRINGS[`${f.name}`] ?? NICE_STRINGS.any); // Name, String
    default: return r.pick(WEIRD);
  }
}

/** A handle: a known one (live or stale) or something that is not a handle. */
function pickHandle(r, st, weird = 0.15) {
  if (st.handles.length === 0 || r.chance(weird)) {
    const h = st.handles.length ? r.pick(st.handles) : 1;
    return r.pick([h + 0.5, String(h), 0, -1, 2 ** 32, NaN, null, undefined, 1e9, -0, 0xfffff, h + (1 << 20), [h], { e: h }]);
  }
  return r.chance(0.4) ? st.handles[st.handles.length - 1] : r.pick(st.handles);
}

function randomFields(r, info, st, { readonly = 0.05, unknown = 0.03, bad = r.pick([0, 0, 0.05, 0.2, 0.5]) } = {}) {
  const out = {};
  if (bad === 0) readonly = unknown = 0;
  for (const f of info.fields) {
    if (f.readonly ? r.chance(readonly) : r.chance(0.45)) out[f.name] = fieldValue(r, f, st, bad);
  }
  if (r.chance(unknown)) out[r.pick(['nope', 'Position', '__proto__x', ''])] = 1;
  return out;
}

function randomGripPose(r) {
  const finger = () => {
    const f = {};
    if (r.chance(0.6)) f.curl = r.chance(0.8) ? r.next() : r.pick(EXTREME_NUMBERS.concat(['1']));
    if (r.chance(0.3)) f.base = r.next();
    if (r.chance(0.3)) f.spread = r.next() * 2 - 1;
    if (r.chance(0.2)) f.bend = r.chance(0.8) ? [r.next() * 90, r.next() * 90, r.next() * 90] : r.pick(EXTREME_ARRAYS);
    if (r.chance(0.1)) f.fan = r.pick([0, 10, -30, 400, NaN]);
    return f;
  };
  const def = {};
  if (r.chance(0.5)) def.thumb = { opposition: r.next(), gap: r.chance(0.9) ? r.next() * 0.1 : -1, ...(r.chance(0.2) ? { to: r.pick(['fingers', 'index', 'toes']) } : {}) };
  for (const k of ['index', 'middle', 'ring', 'pinky']) if (r.chance(0.5)) def[k] = finger();
  if (r.chance(0.05)) def.extra = 1;
  if (r.chance(0.05)) return r.pick(['{', '[]', 'null', '{"index": {"curl": "a"}}', 42, null]);
  return def;
}

/** A small scene: a few entities with random components (names refer to each other). */
function randomScene(r, st, info) {
  const n = 1 + r.int(4);
  const names = Array.from({ length: n }, (_, i) => `n${i}`);
  const withRig = r.chance(0.6);
  const bad = r.pick([0, 0, 0, 0.02, 0.2]);
  const scene = {};
  if (withRig) scene.assets = { rigs: { r: { builtin: 'humanoid', height: r.chance(0.9) ? 1.5 + r.next() * 0.5 : r.pick([0, 10, NaN, '1.8']) } } };
  const nameOr = (v) => (typeof v === 'number' && r.chance(0.7) ? r.pick(names) : v);
  scene.entities = names.map((name, i) => {
    const components = {};
    for (const c of info) {
      if (!r.chance(c.name === 'Transform' ? 0.8 : 0.2)) continue;
      if (c.name === 'Rig') { if (withRig || r.chance(0.1)) components.Rig = { asset: 'r' }; continue; }
      const fields = randomFields(r, c, st, { readonly: 0.02, unknown: 0.02, bad });
      for (const f of c.fields) {
        if (f.name in fields && f.type === 3) fields[f.name] = nameOr(fields[f.name]);
        if (f.name in fields && (fields[f.name] === undefined || typeof fields[f.name] === 'bigint' || typeof fields[f.name] === 'symbol' || typeof fields[f.name] === 'function')) delete fields[f.name];
        if (c.name === 'TwoBoneIK' && r.chance(0.7)) Object.assign(fields, { rig: names[0], tip: 'RightHand', target: names[i] });
      }
      if (bad === 0) {
        // A scene that can load: parents come earlier, joints only on the rig, the grip
        // character components only on the rig entity.
        if (c.name === 'Transform') {
          fields.parent = i > 0 && r.chance(0.5) ? names[r.int(i)] : null;
          if (fields.parent !== names[0] || !withRig) delete fields.parentJoint;
        }
        if ((c.name === 'GripPose' || c.name === 'GripHolder' || c.name === 'Animator') && !(i === 0 && withRig)) continue;
        if (c.name === 'GripHolder' && fields.held !== undefined) fields.held = i + 1 < n ? names[i + 1] : null;
        if (c.name === 'Animator') continue;
      }
      components[c.name] = fields;
    }
    if (bad === 0 && i === 0 && withRig) components.Rig = { asset: 'r' };
    return { name: bad === 0 || r.chance(0.9) ? name : r.pick(['', 5, names[0]]), components };
  });
  if (r.chance(0.4)) {
    scene.timeline = [{ step: r.int(3), update: { entity: r.pick(names), component: 'Transform', fields: { position: r.chance(0.8) ? [r.next(), 1, 0] : [NaN, 0, 0] } } }];
  }
  if (bad > 0 && r.chance(0.1)) return r.pick(['{', '', 'null', '{"entities": 3}']);
  return scene;
}

// ---- calls --------------------------------------------------------------------------------------

/** Each kind has a weight (in quarters: snapshot and restore copy and check the whole wasm
 * memory, so they come less often) and builds a call from the state and a PRNG: args
 * computed once (from the first world), `run(world, side)` does the call on either world,
 * `read` marks calls that change nothing, `touched` the entities whose components are
 * compared after a failure. */
const KINDS = {
  spawn: [32, () => ({ run: (w) => w.spawn(), spawned: true })],
  despawn: [12, (r, st) => { const e = pickHandle(r, st); return { run: (w) => w.despawn(e), touched: [e] }; }],
  insert: [80, (r, st) => {
    const e = pickHandle(r, st);
    const c = r.pick(st.info);
    const fields = r.chance(0.03) ? r.pick([null, 5, 'x', []]) : randomFields(r, c, st);
    return { run: (w) => w.insert(e, c, fields), touched: [e], label: c.name };
  }],
  update: [40, (r, st) => {
    const e = pickHandle(r, st);
    const c = r.pick(st.info);
    const fields = randomFields(r, c, st, { readonly: 0.02 });
    const mode = r.int(3);
    const fn = mode === 0 ? (d) => { Object.assign(d, fields); } : mode === 1 ? () => fields : () => undefined;
    return { run: (w) => w.update(e, c, fn), touched: [e], label: c.name };
  }],
  remove: [16, (r, st) => { const e = pickHandle(r, st); const c = r.pick(st.info); return { run: (w) => w.remove(e, c), touched: [e], label: c.name }; }],
  get: [20, (r, st) => { const e = pickHandle(r, st); const c = r.pick(st.info); return { run: (w) => w.get(e, c), read: true }; }],
  query: [8, (r, st) => { const e = pickHandle(r, st); const c = r.pick(st.info); return { run: (w) => [w.alive(e), w.has(e, c)], read: true }; }],
  setAnimationPose: [28, (r, st, w) => {
    const e = pickHandle(r, st, 0.1);
    let pose;
    const rig = st.handles.find((h) => w.alive(h) && w.has(h, Rig));
    if (rig !== undefined && r.chance(0.85)) {
      pose = w.localPose(rig).map((j) => ({ t: j.t, r: j.r, s: j.s }));
      const k = r.int(4);
      for (let i = 0; i < k; i++) {
        const j = r.int(pose.length);
        const key = r.pick(['t', 'r', 's']);
        const roll = r.next();
        if (roll < 0.3) pose[j] = { ...pose[j], [key]: r.pick(EXTREME_ARRAYS) };
        else if (roll < 0.5) pose[j] = { ...pose[j], [key]: Array.from({ length: key === 'r' ? 4 : 3 }, () => r.pick(EXTREME_NUMBERS)) };
        else if (roll < 0.6) pose[j] = r.pick(WEIRD);
        else if (roll < 0.65) pose.pop();
        else if (roll < 0.7) pose.push(pose[0]);
        else if (roll < 0.83) pose[j] = { ...pose[j], s: [0.5 + r.next(), 0.5 + r.next(), 0.5 + r.next()] };
        else if (roll < 0.85) for (const x of pose) if (x && typeof x === 'object') x.s = [1e4, 1e4, 1e4]; // a scale chain
        else pose[j] = { ...pose[j], r: quat(r) };
      }
    } else {
      pose = r.pick([[], null, 'pose', HUGE, [null], [{ t: [0, 0, 0], r: [0, 0, 0, 1], s: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1] }]]);
    }
    return { run: (w2) => w2.setAnimationPose(e, pose), touched: [e] };
  }],
  step: [32, (r) => {
    const dt = r.chance(0.8) ? r.pick([1 / 60, 1 / 30, 0, 0.1, r.next() * 0.05, 1]) : r.pick([-1, NaN, Infinity, 2, 1e-30, -0, '0.016', null, 1e30]);
    return { run: (w) => w.step(dt) };
  }],
  loadScene: [12, (r, st) => {
    const doc = randomScene(r, st, st.info);
    const text = typeof doc === 'string' || doc === null || typeof doc !== 'object' ? doc : r.chance(0.5) ? JSON.stringify(doc) : doc;
    return { run: (w, side) => { const s = w.loadScene(text); side.scenes.push(s); return s; }, scene: true };
  }],
  sceneStep: [8, (r, st) => {
    const i = r.int(Math.max(1, st.sceneCount));
    const dt = r.chance(0.9) ? 1 / 60 : r.pick([NaN, -1, 'x']);
    return { run: (w, side) => { const s = side.scenes[i]; if (!s) return null; s.step(dt); return s; }, knownCore: KNOWN_CORE_SCENE_STEP };
  }],
  sceneDestroy: [8, (r, st) => {
    const i = r.int(Math.max(1, st.sceneCount));
    return { run: (w, side) => { side.scenes[i]?.destroy(); } };
  }],
  loadLevel: [3, (r) => {
    // A scene on a generated level (its walls and floor as colliders), sometimes with a navmesh
    // and an agent; the files intact, damaged or missing.
    const level = r.pick(['corridor.json', 'corridor.glb', 'nav-arena.json', 'nav-arena.glb', 'vault-course.json']);
    const path = `assets/levels/${level}`;
    const doc = { level: r.chance(0.5) ? path : { file: path, layers: r.chance(0.8) ? { wall: 1 + r.int(3), floor: 1 } : { wall: r.pick([0, -1, 'x', 2 ** 33]) } } };
    const nav = 'assets/levels/nav-arena.navmesh.json';
    if (r.chance(0.4)) {
      doc.assets = { navmeshes: { m: { file: nav } } };
      doc.entities = [{ name: 'walker', components: { Transform: { position: [r.next() * 4 - 2, 0, r.next() * 4 - 2] }, NavAgent: { navmesh: 'm' } } }];
    }
    const files = {};
    for (const f of [path, nav]) {
      if (r.chance(0.05)) continue; // missing: LB_ERR_UNKNOWN_NAME
      files[f] = r.chance(0.15) ? damaged(r, LEVEL_FILES[f] ?? LEVEL_FILES[path]) : LEVEL_FILES[f] ?? LEVEL_FILES[path];
    }
    return { run: (w, side) => { const s = w.loadScene(doc, { files }); side.scenes.push(s); return s; }, scene: true, label: level };
  }],
  addNavMesh: [2, (r) => {
    const text = r.chance(0.7) ? NAVMESH_TEXT : r.chance(0.5) ? NAVMESH_TEXT.slice(0, r.int(NAVMESH_TEXT.length)) : NAVMESH_TEXT.replace(/\d+\.\d+/, r.pick(['NaN', '1e39', '-1', '"x"']));
    const name = r.chance(0.9) ? r.pick(['arena', 'm2']) : r.pick(STRINGS);
    return { run: (w) => w.nav.addMesh(text, name), asset: true };
  }],
  snapshot: [1, () => ({
    run: (w, side) => {
      side.snaps.push(w.snapshot());
      if (side.snaps.length > SNAPSHOTS_KEPT) side.snaps.shift();
    },
  })],
  restore: [2, (r) => {
    // Mostly this world's own snapshots; else another world's, a damaged or a made-up one
    // (each refused with a LimberError and no change).
    const i = r.int(SNAPSHOTS_KEPT);
    const roll = r.next();
    return {
      run: (w, side) => {
        const own = side.snaps[Math.min(i, side.snaps.length - 1)];
        if (roll < 0.75 || !own) {
          if (own) w.restore(own);
          return own;
        }
        if (roll < 0.85) return w.restore(side.other.snaps.at(-1) ?? {});
        if (roll < 0.95) return w.restore({ ...own, bytes: damaged(r, own.bytes) });
        return w.restore({ world: own.world, bytes: new Uint8Array(16), scenes: [], checksum: '' });
      },
    };
  }],
  collideQuery: [12, (r, st) => {
    // Read-only: any argument gives an answer or a LimberError, never changes the world.
    const num = () => (r.chance(0.8) ? r.pick([0.1, 0.5, 1, 2, 10, 0]) : r.pick(EXTREME_NUMBERS.concat(WEIRD)));
    const v3 = () => (r.chance(0.8) ? [r.next() * 4 - 2, r.next() * 2, r.next() * 4 - 2] : r.pick(EXTREME_ARRAYS.concat(WEIRD)));
    const opts = () => (r.chance(0.7) ? undefined : r.pick([{ layers: 1 }, { exclude: pickHandle(r, st) }, { layers: -1 }, { layers: 2 ** 32 }, { maxDistance: num() }, { nope: 1 }, null, 'x', { exclude: 'x' }]));
    const kind = r.pick(['closestPoint', 'raycast', 'sphereCast', 'capsuleCast', 'overlapSphere', 'overlapCapsule', 'overlapBox']);
    const args = {
      closestPoint: () => [v3(), opts()],
      raycast: () => [v3(), v3(), num(), opts()],
      sphereCast: () => [v3(), num(), v3(), num(), opts()],
      capsuleCast: () => [v3(), v3(), num(), v3(), num(), opts()],
      overlapSphere: () => [v3(), num(), opts()],
      overlapCapsule: () => [v3(), v3(), num(), opts()],
      overlapBox: () => [v3(), r.chance(0.8) ? quat(r) : r.pick(EXTREME_ARRAYS.concat(WEIRD)), v3(), opts()],
    }[kind]();
    const table = r.chance(0.5);
    return { run: (w) => w.collide[kind](...args), read: true, label: kind };
  }],
  moveController: [8, (r, st) => {
    const e = pickHandle(r, st);
    const d = r.chance(0.8) ? [r.next() - 0.5, 0, r.next() - 0.5] : r.pick(EXTREME_ARRAYS.concat(WEIRD));
    return { run: (w) => w.controller.move(e, d), touched: [e] };
  }],
  registerGripPose: [12, (r) => {
    const name = r.chance(0.8) ? r.pick(['claw', 'fuzzPose', 'fist', 'open', 'p1']) : r.pick(STRINGS.concat(WEIRD));
    const def = randomGripPose(r);
    return { run: (w) => w.grip.registerPose(name, def) };
  }],
  registerFingerPose: [8, (r, st, w) => {
    const name = r.chance(0.8) ? r.pick(['captured', 'fuzzPose', 'c2']) : r.pick(STRINGS.concat(WEIRD));
    let pose;
    const rig = st.handles.find((h) => w.alive(h) && w.has(h, Rig));
    if (rig !== undefined && r.chance(0.6)) {
      try {
        pose = w.grip.captureFingerPose(rig, r.pick(['RightHand', 'LeftHand']));
        const names = Object.keys(pose.joints);
        if (names.length && r.chance(0.5)) pose.joints[r.pick(names)] = r.pick([[NaN, 0, 0, 1], [0, 0, 0, 0], [1, 2], 'x', null, quat(r)]);
        if (r.chance(0.1)) pose.joints.NoSuchJoint = [0, 0, 0, 1];
      } catch {
        pose = { joints: {} };
      }
    } else {
      pose = r.pick([{ joints: {} }, { joints: { RightHandIndex1: [0, 0, 0, 1] } }, '{', null, 5, { hand: 'RightHand', joints: { RightHandIndex1: [0, 0, 0, 1] } }, { joints: [] }]);
    }
    return { run: (w2) => w2.grip.registerFingerPose(name, pose) };
  }],
  captureFingerPose: [8, (r, st) => {
    const e = pickHandle(r, st);
    const hand = r.chance(0.8) ? r.pick(['RightHand', 'LeftHand', 'Hips']) : r.pick(STRINGS.concat(WEIRD));
    return { run: (w) => w.grip.captureFingerPose(e, hand), read: true };
  }],
  gripPoseStatus: [12, (r, st) => { const e = pickHandle(r, st); return { run: (w) => w.grip.status(e), read: true }; }],
  worldTransform: [8, (r, st) => { const e = pickHandle(r, st); return { run: (w) => w.worldTransform(e), read: true }; }],
  gripAnchor: [4, (r, st) => { const e = pickHandle(r, st); const role = r.chance(0.9) ? r.pick(['main', 'support']) : r.pick(STRINGS); return { run: (w) => w.grip.anchor(e, role), read: true }; }],
  modelPose: [4, (r, st) => { const e = pickHandle(r, st); return { run: (w) => w.modelPose(e), read: true }; }],
  findHand: [4, (r, st) => { const e = pickHandle(r, st); const side = r.pick(['Right', 'Left', 'right', null]); const path = r.chance(0.8) ? '' : r.pick(STRINGS); return { run: (w) => w.grip.findHand(e, side, path), read: true }; }],
  addHumanoidRig: [8, (r) => {
    const opts = r.chance(0.8) ? { height: 1.2 + r.next(), naming: r.pick(['mixamo', 'unreal', 'blender', 'digits']) } : r.pick([{ height: NaN }, { height: 0 }, { naming: 'maya' }, { height: '1.8' }]);
    return { run: (w) => w.rig.addHumanoid(opts), asset: true };
  }],
};
const KIND_NAMES = Object.keys(KINDS);
const KIND_TABLE = KIND_NAMES.flatMap((k) => Array(KINDS[k][0]).fill(k));

// ---- invariants ---------------------------------------------------------------------------------

function digest(w, handles, info) {
  const out = [];
  for (const e of handles) {
    if (!(typeof e === 'number' && Number.isInteger(e) && e >= 0 && e <= 0xffffffff)) continue;
    if (!w.alive(e)) { out.push(`${e}:dead`); continue; }
    for (const c of info) if (w.has(e, c)) out.push(`${e}:${c.name}:${JSON.stringify(w.get(e, c))}`);
  }
  return out.join('\n');
}

/** True when the rig's local pose or its Transform ancestors hold a scale above 10. */
function bigScales(w, e) {
  if (w.localPose(e).some((j) => j.s.some((x) => !(x <= 10)))) return true;
  for (let x = e, n = 0; x && n < 10000 && w.alive(x) && w.has(x, Transform); n++) {
    const t = w.get(x, Transform);
    if (t.scale.some((v) => !(v <= 10))) return true;
    x = t.parent;
  }
  return false;
}

function liveSet(w, handles) {
  return handles.filter((e) => w.alive(e)).join(',');
}

const stats = { calls: 0, failed: 0, byKind: {}, codes: {}, nonFinite: [] };

function checkWorlds(ctx, call, what) {
  const { a, b, st } = ctx;
  const ha = a.hash(), hb = b.hash();
  assert.equal(ha, hb, `${what}: bone hashes differ`);
  assert.equal(liveSet(a, st.handles), liveSet(b, st.handles), `${what}: live entities differ`);
  if (call.touched) assert.equal(digest(a, call.touched, st.info), digest(b, call.touched, st.info), `${what}: components of the call's entities differ`);
  for (const w of [a, b]) {
    const size = w.native(({ heap }) => heap.size);
    assert.ok(size < MEMORY_BOUND, `${what}: wasm memory ${size} B over the bound`);
  }
  if (!call.read) {
    for (const e of st.handles) {
      if (!a.alive(e) || !a.has(e, Rig)) continue;
      const m = a.modelMatrices(e);
      let acc = 0;
      for (let i = 0; i < m.length; i++) acc += m[i] * 0; // NaN once any entry is NaN or infinite
      if (acc !== 0) {
        const i = m.findIndex((x) => !Number.isFinite(x));
        if (KNOWN_CORE_SCALE_CHAIN && bigScales(a, e)) {
          stats.scaleChain = (stats.scaleChain ?? 0) + 1;
          continue;
        }
        assert.fail(`${what}: rig ${e} has a non-finite model matrix entry (${m[i]} at ${i})`);
      }
    }
  }
}

async function runSequence(commands) {
  const a = await createWorld();
  const b = await createWorld();
  const sides = new Map([[a, { scenes: [], snaps: [] }], [b, { scenes: [], snaps: [] }]]);
  sides.get(a).other = sides.get(b);
  sides.get(b).other = sides.get(a);
  const st = { handles: [], assets: [], sceneCount: 0, info: a.components };
  // The same start in both: a character with a hand pose and an object.
  for (const w of [a, b]) {
    const hero = w.spawn();
    w.insert(hero, Transform, {});
    const asset = w.rig.addHumanoid();
    w.insert(hero, Rig, { asset });
    w.insert(hero, GripPose, { rightPose: 'pistol' });
    const obj = w.spawn();
    w.insert(obj, Transform, { position: [0, 1, 0.3] });
    if (w === a) st.handles.push(hero, obj), st.assets.push(asset);
  }
  const ctx = { a, b, st };
  const log = [];
  try {
    for (let n = 0; n < commands.length; n++) {
      const [kindIndex, seed] = commands[n];
      const kind = KIND_TABLE[kindIndex % KIND_TABLE.length];
      const r = prng(seed);
      const call = KINDS[kind][1](r, st, a);
      log.push(`${n}: ${kind}${call.label ? ` ${call.label}` : ''} (seed ${seed})`);
      let result, error;
      stats.calls++;
      stats.byKind[kind] = (stats.byKind[kind] ?? 0) + 1;
      try {
        result = call.run(a, sides.get(a));
      } catch (err) {
        error = err;
      }
      const what = `call ${log.at(-1)}`;
      if (error) {
        stats.failed++;
        if (!(error instanceof LimberError)) {
          assert.fail(`${what} threw ${error?.constructor?.name}: ${error?.message}\n${error?.stack}`);
        }
        assert.match(error.code, /^LB_[A-Z_]+$/, `${what}: error code`);
        assert.ok(error.message.startsWith(`${error.code}: `) && error.message.length > error.code.length + 3, `${what}: message '${error.message}'`);
        stats.codes[error.code] = (stats.codes[error.code] ?? 0) + 1;
        if (call.knownCore) {
          // See KNOWN_CORE_SCENE_STEP: the same failing call on the twin keeps them comparable.
          let twinError;
          try {
            call.run(b, sides.get(b));
          } catch (err) {
            twinError = err;
          }
          assert.equal(twinError?.code, error.code, `${what}: the twin must fail alike`);
          stats.knownCore = (stats.knownCore ?? 0) + 1;
        }
        if (process.env.LIMBER_FUZZ_VERBOSE === kind) console.log(error.message.slice(0, 200));
      } else if (!call.read) {
        let twin, twinError;
        try {
          twin = call.run(b, sides.get(b));
        } catch (err) {
          twinError = err;
        }
        assert.equal(twinError, undefined, `${what}: succeeded in the world, failed in the twin: ${twinError?.message}`);
        if (call.spawned) {
          assert.equal(twin, result, `${what}: spawn gave different handles`);
          st.handles.push(result);
        }
        if (call.asset) st.assets.push(result);
        if (call.scene) {
          st.sceneCount++;
          for (const e of result.entities.values()) if (!st.handles.includes(e)) st.handles.push(e);
        }
      }
      checkWorlds(ctx, call, what);
      if (n % FULL_CHECK_EVERY === FULL_CHECK_EVERY - 1) assert.equal(digest(a, st.handles, st.info), digest(b, st.handles, st.info), `${what}: state differs`);
    }
    assert.equal(digest(a, st.handles, st.info), digest(b, st.handles, st.info), 'end of sequence: state differs');
  } catch (err) {
    err.message += `\nlast calls:\n${log.slice(-8).join('\n')}`;
    throw err;
  } finally {
    a.destroy();
    b.destroy();
  }
}

test(`API fuzz: ${RUNS} sequences of ${LENGTH} bridge calls against a twin world (seed ${SEED})`, async () => {
  const t0 = performance.now();
  const command = fc.tuple(fc.noBias(fc.nat({ max: KIND_TABLE.length - 1 })), fc.noBias(fc.nat({ max: 0xffffffff })));
  // No shrinking (a sequence replays from its seed and path: LIMBER_FUZZ_SEED, and the log of
  // the last calls names each call's kind and PRNG seed).
  const out = await fc.check(
    fc.asyncProperty(fc.array(command, { minLength: LENGTH, maxLength: LENGTH }), (commands) => runSequence(commands)),
    { seed: SEED, numRuns: RUNS, endOnFailure: true },
  );
  if (out.failed) {
    const err = out.errorInstance instanceof Error ? out.errorInstance : new Error(String(out.errorInstance));
    err.message = `api fuzz failed in sequence ${out.numRuns} (seed ${out.seed}, path ${out.counterexamplePath}): ${err.message}`;
    throw err;
  }
  const s = (performance.now() - t0) / 1000;
  console.log(`api fuzz: ${stats.calls} calls (${stats.failed} failed with a LimberError) in ${s.toFixed(1)} s, ${((s * 1e6) / stats.calls).toFixed(0)} us/call`);
  console.log(`api fuzz: calls by kind ${JSON.stringify(stats.byKind)}`);
  console.log(`api fuzz: error codes ${JSON.stringify(stats.codes)}`);
  if (stats.scaleChain) console.log(`api fuzz: ${stats.scaleChain} non-finite model matrices after scale chains (known core defect: ${KNOWN_CORE_SCALE_CHAIN})`);
  if (stats.knownCore) console.log(`api fuzz: ${stats.knownCore} failed scene.step calls applied to both worlds (known core defect: ${KNOWN_CORE_SCENE_STEP})`);
  assert.ok(stats.calls >= RUNS * LENGTH);
});
