/** glTF 2.0 rigs and clips through the core's importer (limber/gltf.h). */
import { deprecated, describe, handleArg, nameArg } from './args.js';
import { brand, type ClipHandle, type HandleArg, type RigHandle } from './components.js';
import { LimberError } from './errors.js';
import type { JointTransform, NativeContext, World } from './world.js';

export interface LoadRigOptions {
  /** Bytes of external buffers by their `uri` as written in the .gltf JSON. */
  buffers?: Record<string, Uint8Array> | Map<string, Uint8Array>;
  /** Skin index, 'auto' (skin 0 if any, else every node; default) or 'all' (every node). */
  skin?: number | 'auto' | 'all';
  /** Duplicate joint/clip names: 'suffix' (name_1, name_2, ...; default) or 'error'. */
  duplicateNames?: 'suffix' | 'error';
  /** CUBICSPLINE channels are resampled to LINEAR keys within this distance (metres, scale
   * units or quaternion components), in [0, 1]; 0 or unset: 5e-6 (the core's
   * LB_GLTF_CUBIC_TOLERANCE), which samples within 1e-5 of three.js's cubic interpolant.
   * Each clip reports what it did (`reduction.cubicTracks`, `cubicTolerance`, `cubicError`). */
  cubicTolerance?: number;
  /** Clip reduction at import, metres in [0, 1]: a track whose motion moves no joint, and
   * no point `skinDistance` from a joint, by more than this becomes constant (sampled as a
   * copy). Default 1e-4 (0.1 mm); 0 keeps every key as the file has it. */
  keyTolerance?: number;
  /** Metres in [0, 100], default 0.1: how far past each joint the reduction measures (where
   * a mesh skinned to a leaf joint ends). */
  skinDistance?: number;
}

/** What the clip reduction did to one clip (LoadRigOptions.keyTolerance). */
export interface ClipReduction {
  /** Tracks (translation, rotation, scale channels) with keys. */
  tracks: number;
  /** Tracks whose keys are all equal: the file's own and the reduced. */
  constantTracks: number;
  /** Largest joint position change the reduction measured, metres (<= keyTolerance). */
  error: number;
  /** CUBICSPLINE tracks of the file resampled to LINEAR keys (0 for other clips). */
  cubicTracks: number;
  /** The resampling bound used (LoadRigOptions.cubicTolerance; 0 without cubic tracks). */
  cubicTolerance: number;
  /** Largest deviation between the resampled keys and the file's curve measured while
   * resampling (metres, scale units or quaternion components; <= cubicTolerance). */
  cubicError: number;
}

export interface GltfJoint {
  name: string;
  /** Joint index of the parent, -1 for a root. */
  parent: number;
  /** glTF node index. */
  node: number;
  /** Local rest transform. */
  rest: JointTransform;
}

export interface GltfClip {
  /** Clip asset handle in the world (> 0). */
  handle: ClipHandle;
  name: string;
  /** Seconds. */
  duration: number;
  /** What the key reduction did at import (LoadRigOptions.keyTolerance). */
  reduction: ClipReduction;
}

export interface GltfSkin {
  index: number;
  /** Skeleton joint index of each skin joint (skin order). */
  joints: number[];
  /** 16 floats per skin joint, column-major. */
  inverseBindMatrices: Float32Array;
}

export interface LoadedRig {
  /** Skeleton asset handle, for `Rig.asset`. */
  asset: RigHandle;
  /** Depth-first, as the world stores them. */
  joints: GltfJoint[];
  /** One per glTF animation, in file order. */
  clips: GltfClip[];
  skin: GltfSkin | null;
  /** World transform of the nodes above the skeleton root (an armature node's axis change
   * and unit scale). Already part of the rig: the root joint's rest and clip keys include
   * it, so an identity Transform shows the character as the file's scene does. */
  rootParent: JointTransform;
}

type WorldInternals = NativeContext;
const internals = (world: World): WorldInternals => world.native((ctx) => ctx);

const MESSAGE_MAX = 256; // LB_GLTF_MESSAGE_MAX
const BUFFER_SIZE = 12; // sizeof(lb_gltf_buffer) on wasm32 (asserted in exports_gltf.c)

function fail(code: string, message: string, field?: string): never {
  throw new LimberError(code, `${code}: ${message}`, field ? { field } : {});
}

function readTransform(i: WorldInternals, ptr: number): JointTransform {
  const f = i.heap.f32;
  const t = (ptr + i.xf.t) >> 2, r = (ptr + i.xf.r) >> 2, s = (ptr + i.xf.s) >> 2;
  return { t: [f[t], f[t + 1], f[t + 2]], r: [f[r], f[r + 1], f[r + 2], f[r + 3]], s: [f[s], f[s + 1], f[s + 2]] };
}

function checkWorld(i: WorldInternals, code: number, fn: string): void {
  i.check(code, { fn });
}

function skinArg(skin: LoadRigOptions['skin']): number {
  if (skin === undefined || skin === 'auto') return -1;
  if (skin === 'all') return -2;
  if (typeof skin !== 'number' || !Number.isInteger(skin) || skin < 0) {
    fail('LB_ERR_INVALID_ARGUMENT', `rig.load: field 'skin' must be a skin index, 'auto' or 'all', got ${describe(skin)}`, 'skin');
  }
  return skin;
}

/**
 * Imports a .glb or .gltf file (bytes) into the world: its skeleton (the skin's joints, or
 * every node) as a skeleton asset and every animation as a clip asset. Throws a LimberError
 * naming the problem ("accessor 7: offset + size exceeds bufferView 2"); on error the world
 * is unchanged.
 */
export function loadRig(world: World, bytes: Uint8Array, options: LoadRigOptions = {}): LoadedRig {
  const i = internals(world);
  const { ex, heap } = i;
  const w = i.w; // throws if the world was destroyed
  if (!(bytes instanceof Uint8Array) || bytes.length === 0) {
    fail('LB_ERR_INVALID_ARGUMENT', 'rig.load: bytes must be a non-empty Uint8Array', 'bytes');
  }
  const skin = skinArg(options.skin);
  const names = options.duplicateNames ?? 'suffix';
  if (names !== 'suffix' && names !== 'error') {
    fail('LB_ERR_INVALID_ARGUMENT', `rig.load: field 'duplicateNames' must be 'suffix' or 'error', got ${describe(names)}`, 'duplicateNames');
  }
  const tol = options.cubicTolerance ?? 0;
  if (typeof tol !== 'number' || !Number.isFinite(tol)) {
    fail('LB_ERR_NOT_FINITE', `rig.load: field 'cubicTolerance' must be a finite number, got ${describe(tol)}`, 'cubicTolerance');
  }
  const keyTol = options.keyTolerance ?? 1e-4;
  const skinDistance = options.skinDistance ?? 0.1;
  for (const [field, v] of [['keyTolerance', keyTol], ['skinDistance', skinDistance]] as const) {
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      fail('LB_ERR_NOT_FINITE', `rig.load: field '${field}' must be a finite number of metres, got ${describe(v)}`, field);
    }
  }
  const entries = options.buffers instanceof Map ? [...options.buffers] : Object.entries(options.buffers ?? {});
  for (const [uri, b] of entries) {
    nameArg(uri, 'rig.load', 'buffers');
    if (!(b instanceof Uint8Array)) fail('LB_ERR_INVALID_ARGUMENT', `rig.load: buffer '${uri}' must be a Uint8Array`, 'buffers');
  }

  const owned: number[] = [];
  const keep = (p: number): number => (owned.push(p), p);
  let asset = 0;
  try {
    const data = keep(heap.bytes(bytes, 'rig.load'));
    const tableSize = Math.max(4, entries.length * BUFFER_SIZE);
    const table = keep(heap.alloc(tableSize, 'rig.load'));
    entries.forEach(([uri, b], k) => {
      const u = keep(heap.string(uri, 'rig.load').ptr);
      const p = keep(heap.bytes(b, 'rig.load'));
      new Uint32Array(ex.memory.buffer, table + k * BUFFER_SIZE, 3).set([u, p, b.length]);
    });
    const out = keep(heap.alloc(4 + MESSAGE_MAX, 'rig.load'));
    const code = ex.lbw_gltf_import(data, bytes.length, table, entries.length, skin, names === 'error' ? 1 : 0, tol, keyTol, skinDistance, out, out + 4);
    if (code !== 0) {
      const name = heap.cstring(ex.lbw_result_name(code));
      throw new LimberError(name, `${name}: ${heap.cstring(out + 4)}`);
    }
    asset = heap.u32[out >> 2];

    const joints: GltfJoint[] = [];
    for (let j = 0; j < ex.lbw_gltf_joint_count(asset); j++) {
      joints.push({
        name: heap.cstring(ex.lbw_gltf_joint_name(asset, j)),
        parent: ex.lbw_gltf_joint_parent(asset, j),
        node: ex.lbw_gltf_joint_node(asset, j),
        rest: readTransform(i, ex.lbw_gltf_joint_rest(asset, j)),
      });
    }
    let skinInfo: GltfSkin | null = null;
    if (ex.lbw_gltf_skin_index(asset) >= 0) {
      const n = ex.lbw_gltf_skin_joint_count(asset);
      const ibm = new Float32Array(16 * n);
      const sj: number[] = [];
      for (let k = 0; k < n; k++) {
        sj.push(ex.lbw_gltf_skin_joint(asset, k));
        const p = ex.lbw_gltf_inverse_bind(asset, k) >> 2;
        ibm.set(heap.f32.subarray(p, p + 16), 16 * k);
      }
      skinInfo = { index: ex.lbw_gltf_skin_index(asset), joints: sj, inverseBindMatrices: ibm };
    }
    const rootParent = readTransform(i, ex.lbw_gltf_root_parent(asset));

    const added = keep(heap.alloc(12, 'rig.load'));
    checkWorld(i, ex.lbw_gltf_add_asset(w, asset, added), 'rig.load');
    const u = heap.u32;
    const skeleton = u[added >> 2], first = u[(added >> 2) + 1], count = u[(added >> 2) + 2];
    const clips: GltfClip[] = [];
    for (let k = 0; k < count; k++) {
      const h = first + k;
      clips.push(clipInfo(i, h));
    }
    return { asset: brand<RigHandle>(skeleton), joints, clips, skin: skinInfo, rootParent };
  } finally {
    if (asset) ex.lbw_gltf_free(asset);
    for (const p of owned) ex.lbw_free(p);
  }
}

function clipInfo(i: NativeContext, h: number): GltfClip {
  const { ex, heap } = i;
  const out = heap.alloc(24, 'clip');
  try {
    const ok = ex.lbw_clip_reduction(i.w, h, out) === 1;
    const f = heap.f32.subarray(out >> 2, (out >> 2) + 6);
    return {
      handle: brand<ClipHandle>(h),
      name: heap.cstring(ex.lbw_clip_name(i.w, h)),
      duration: ex.lbw_clip_duration(i.w, h),
      reduction: ok
        ? { tracks: f[0]!, constantTracks: f[1]!, error: f[2]!, cubicTracks: f[3]!, cubicTolerance: f[4]!, cubicError: f[5]! }
        : { tracks: 0, constantTracks: 0, error: 0, cubicTracks: 0, cubicTolerance: 0, cubicError: 0 },
    };
  } finally {
    ex.lbw_free(out);
  }
}

/** Clip asset handle by name (first match; `skeleton` 0 = any skeleton), or 0 (none). An
 * unnamed glTF animation is `animation_<i>` (as three.js names it); its old name
 * `animation<i>` still finds it, with a deprecation warning, until 0.3. */
export function findClip(world: World, name: string, skeleton: HandleArg<RigHandle> = 0): ClipHandle {
  const i = internals(world);
  handleArg(skeleton, 'anim.findClip', 'skeleton', 'a skeleton asset handle');
  const h = i.heap.withString(nameArg(name, 'anim.findClip', 'name'), 'anim.findClip', (s) => brand<ClipHandle>(i.ex.lbw_find_clip(i.w, skeleton >>> 0, s)));
  if (h && /^animation\d+$/.test(name) && i.heap.cstring(i.ex.lbw_clip_name(i.w, h)) !== name) {
    return deprecated(`the clip name '${name}'`, `'${name.replace('animation', 'animation_')}' (unnamed glTF animations are named as three.js names them)`, () => h);
  }
  return h;
}

/** Every clip asset of the world (in add order) that animates `skeleton` (0 = any):
 * handle, name and duration in seconds. */
export function listClips(world: World, skeleton: HandleArg<RigHandle> = 0): GltfClip[] {
  const i = internals(world);
  handleArg(skeleton, 'anim.listClips', 'skeleton', 'a skeleton asset handle');
  const out: GltfClip[] = [];
  const count = i.ex.lbw_clip_count(i.w);
  // Clip handles are 1-based add-order indices; a freed clip reads as skeleton 0.
  for (let h = 1; h <= count; h++) {
    const s = i.ex.lbw_clip_skeleton(i.w, h);
    if (s === 0 || (skeleton !== 0 && s !== skeleton)) continue;
    out.push(clipInfo(i, h));
  }
  return out;
}

/**
 * Samples a clip asset over its skeleton's rest pose at `time` seconds (the core's sampling
 * job): local transforms, depth-first. Without `loop` the time is clamped to the clip.
 */
export function sampleClip(world: World, clip: HandleArg<ClipHandle>, time: number, options: { loop?: boolean } = {}): JointTransform[] {
  const i = internals(world);
  const { ex, heap } = i;
  if (typeof time !== 'number') fail('LB_ERR_INVALID_ARGUMENT', `anim.sampleClip: time must be a number, got ${typeof time}`, 'time');
  handleArg(clip, 'anim.sampleClip', 'clip', 'a clip asset handle');
  const skeleton = ex.lbw_clip_skeleton(i.w, clip >>> 0);
  if (!skeleton) fail('LB_ERR_INVALID_ARGUMENT', `anim.sampleClip: clip ${describe(clip)} does not exist`, 'clip');
  const n = ex.lbw_joint_count(i.w, skeleton);
  return heap.scratch(Math.max(4, n * i.xf.size), (p) => {
    checkWorld(i, ex.lbw_clip_sample(i.w, clip >>> 0, time, options.loop ? 1 : 0, p, n), 'anim.sampleClip');
    const out: JointTransform[] = [];
    for (let j = 0; j < n; j++) out.push(readTransform(i, p + j * i.xf.size));
    return out;
  }, 'anim.sampleClip');
}
