/** The ESEngine-style world over the Limber core (WebAssembly). */
import { AnimApi } from './animator.js';
import { type ClosestPointOptions, CollideApi, type CollideHit, type CollisionQueries, type QueryOptions } from './collide.js';
import { ControllerApi } from './controller.js';
import { badArgument, deprecated, describe, handleArg, jsonArg, nameArg, vecArg } from './args.js';
import { GripApi } from './grip.js';
import { inputOwner, type InputOwner, type OwnedInput } from './input.js';
import { type AssetSource, type Level, loadLevel, type LoadLevelOptions, loadProp, type LoadPropOptions, type Prop } from './level.js';
import { type InputLog, Recorder, replayLog, type ReplayOptions } from './record.js';
import { NavApi } from './nav.js';
import { type HumanoidNaming, RigApi } from './rig.js';
import { VaultApi, type VaultCast } from './vault.js';
import { brand, type ComponentInput, type ComponentType, type Entity, type HandleArg, type MeshHandle, type QuatLike, type RigHandle, type Vec3Like, type Writable } from './components.js';
import { LimberError } from './errors.js';
import { type ComponentInfo, copyDecoded, decodeComponent, encodeComponent, type NameTable, readSchema } from './schema.js';
import { Heap, type LimberExports, type WasmSource } from './wasm.js';
import type { Workers } from './threads.js';

export interface CreateWorldOptions {
  /** The limber.wasm to use (URL, path, bytes, Response or module). Default: the file
   * shipped beside the entry module (dist/web/bridge/limber.wasm). */
  wasm?: WasmSource;
  /** Threads the step runs on: 1..64. Default: the host's cores (os.availableParallelism() in
   * Node, navigator.hardwareConcurrency in a browser) when it can run WebAssembly threads (Node,
   * or a page that is `crossOriginIsolated`: served with COOP/COEP headers) and `wasm` is not
   * given; else 1. More than 1 runs limber-mt.wasm with threads-1 workers; where threads
   * cannot run, any count runs as 1 on limber.wasm. `world.threads` says what the world got;
   * the results are bit-identical for every count. */
  threads?: number;
  /** The limber-mt.wasm to use when threads > 1 (same forms as `wasm`). Default: the file
   * shipped beside the entry module. */
  threadsWasm?: WasmSource;
}

/** One joint pose: translation, rotation (x, y, z, w) and scale. */
export interface JointTransform {
  t: [number, number, number];
  r: [number, number, number, number];
  s: [number, number, number];
}

/** A joint pose as setAnimationPose takes it: each part in any Vec3Like / QuatLike form. */
export interface JointTransformLike {
  t: Vec3Like;
  r: QuatLike;
  s: Vec3Like;
}

/** The fingers, thumb first: the order of every per-finger list of the API (HandStatus,
 * gripPoseStatus contacts, the core's packed hands). The one list: tools import it. */
export const FINGER_NAMES = Object.freeze(['thumb', 'index', 'middle', 'ring', 'pinky'] as const);
export type FingerName = (typeof FINGER_NAMES)[number];

/** What findHand found: joint names from the finger root to the tip. */
export interface HandStatus {
  side: 'Right' | 'Left';
  hand: string;
  fingers: Record<FingerName, string[] | null>;
  missing: FingerName[];
  /** fingers without an end joint whose tip the core estimated (where the skinned mesh ends,
   * else 0.8 x the previous bone; grip.status(e).right.tipSource says which) */
  tipEstimated: FingerName[];
  /** fingers whose last joint in `fingers` is an end joint (the tip) */
  endJoints: FingerName[];
  report: string;
}

/** @internal A report the core writes with the length convention of lbw_*_report (the
 * length, written when it fits; or -code): read whole, never cut. */
export function readReport(heap: Heap, write: (buf: number, cap: number) => number): string | null {
  const n = write(0, 0);
  if (n < 0) return null;
  return heap.scratch(n + 1, (p) => (write(p, n + 1) >= 0 ? heap.cstring(p) : ''));
}

/** @internal Bytes a packed hand (lbw_find_hand, lbw_grip_hand_info) needs. */
export const PACKED_HAND_BYTES = 4 * 26 + 256;

/** @internal Reads a hand packed by the core: hand joint, then per finger found, three
 * segment joints and the tip (-1 = none), then the report text. */
export function decodeHand(heap: Heap, p: number, names: readonly string[], side: 'Right' | 'Left'): HandStatus {
  const i32 = new Int32Array(heap.ex.memory.buffer, p, 26);
  const fingers = {} as Record<FingerName, string[] | null>;
  const missing: FingerName[] = [];
  const tipEstimated: FingerName[] = [];
  const endJoints: FingerName[] = [];
  FINGER_NAMES.forEach((f, k) => {
    const o = 1 + 5 * k;
    if (!i32[o]) {
      fingers[f] = null;
      missing.push(f);
      return;
    }
    if (i32[o] & 2) tipEstimated.push(f);
    if (i32[o + 4] >= 0) endJoints.push(f);
    fingers[f] = [i32[o + 1], i32[o + 2], i32[o + 3], i32[o + 4]].filter((j) => j >= 0).map((j) => names[j]);
  });
  return { side, hand: i32[0] >= 0 ? names[i32[0]] : '', fingers, missing, tipEstimated, endJoints, report: heap.cstring(p + 4 * 26) };
}

function destroyedWorld(): LimberError {
  return new LimberError('LB_ERR_INVALID_ARGUMENT', 'LB_ERR_INVALID_ARGUMENT: the world was destroyed');
}

export function entityLabel(e: number): string {
  if (e === 0) return 'null entity';
  return `entity ${((e & 0xfffff) - 1) >>> 0}v${e >>> 20}`;
}

/** @internal What World.native hands to the bridge's other modules. */
export interface NativeContext {
  ex: LimberExports;
  heap: Heap;
  w: number;
  /** lb_transform layout on wasm32: byte size and offsets of t, r, s */
  xf: { size: number; t: number; r: number; s: number };
  check(code: number, where?: Where): void;
  /** A live entity handle argument of `fn` (LimberError naming `field` otherwise). */
  entity(e: unknown, fn: string, field?: string): number;
}

/** @internal Reads `count` lb_transforms at `ptr`. Fills `out` when it is an array of
 * `count` joint transforms (their arrays are written in place: no allocation), else
 * returns new ones. */
export function readTransforms(heap: Heap, xf: NativeContext['xf'], ptr: number, count: number, out?: JointTransform[], fn = 'pose'): JointTransform[] {
  const f = heap.f32;
  const reuse = out !== undefined;
  if (reuse && (!Array.isArray(out) || out.length !== count)) throw badArgument(fn, 'out', `must be an array of ${count} joint transforms (one per joint of the rig), got ${describe(out)}`, 'LB_ERR_INVALID_ARGUMENT');
  const res: JointTransform[] = reuse ? out : new Array<JointTransform>(count);
  for (let j = 0; j < count; j++) {
    const b = (ptr + j * xf.size) >> 2;
    const t = b + (xf.t >> 2), r = b + (xf.r >> 2), s = b + (xf.s >> 2);
    const x = reuse ? res[j] : undefined;
    if (x && Array.isArray(x.t) && Array.isArray(x.r) && Array.isArray(x.s)) {
      const xt = x.t as number[], xr = x.r as number[], xs = x.s as number[];
      xt[0] = f[t]; xt[1] = f[t + 1]; xt[2] = f[t + 2];
      xr[0] = f[r]; xr[1] = f[r + 1]; xr[2] = f[r + 2]; xr[3] = f[r + 3];
      xs[0] = f[s]; xs[1] = f[s + 1]; xs[2] = f[s + 2];
    } else {
      res[j] = { t: [f[t], f[t + 1], f[t + 2]], r: [f[r], f[r + 1], f[r + 2], f[r + 3]], s: [f[s], f[s + 1], f[s + 2]] };
    }
  }
  return res;
}

/** What a failed call was about, for the error (and for a message the core did not set). */
export interface Where {
  entity?: number;
  component?: string;
  /** the function, for a message the bridge words itself */
  fn?: string;
}

/** What World.snapshot() returns. A value: it can be kept, copied or sent, and the world
 * that made it checks it before restore() puts it back. */
export interface WorldSnapshot {
  /** World.id of the world that took it; restore() on another world refuses it */
  readonly world: number;
  /** the core's whole memory */
  readonly bytes: Uint8Array;
  /** the scenes loaded at the time (the bridge's serial and the core's scene), so restore()
   * knows which Scene objects name state that exists again */
  readonly scenes: ReadonlyArray<readonly [number, number]>;
  /** keyed checksum of the above: a damaged or forged snapshot does not match */
  readonly checksum: string;
}

/** World ids: one per World made in this process, never reused. The core's world pointer
 * cannot tell worlds apart: each World has its own instance of the module, and every
 * instance puts its world at the same address. */
let nextWorldId = 1;

/** The snapshot checksum's key, one per process, so a checksum can only come from
 * snapshot() (a snapshot is not a way to write arbitrary bytes into the core). */
const snapshotKey: Uint32Array = (() => {
  const k = new Uint32Array(4);
  const c = (globalThis as { crypto?: { getRandomValues?: (a: Uint32Array) => Uint32Array } }).crypto;
  if (c?.getRandomValues) c.getRandomValues(k);
  else for (let i = 0; i < 4; i++) k[i] = (Math.random() * 0x100000000) >>> 0;
  return k;
})();

/** Four 32-bit multiply-rotate lanes over the words of the snapshot, each word in one lane
 * (independent chains, about 0.2 ms per MB): a cheap check against bytes changed or cut
 * short, keyed against bytes made up. */
function snapshotChecksum(world: number, bytes: Uint8Array, scenes: ReadonlyArray<readonly [number, number]>): string {
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const words = new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength >>> 2);
  let a = snapshotKey[0] ^ world, b = snapshotKey[1] ^ bytes.length, c = snapshotKey[2], d = snapshotKey[3];
  const n4 = words.length & ~3;
  for (let i = 0; i < n4; i += 4) {
    a = Math.imul(a ^ words[i], 0x9e3779b1); a = (a << 13) | (a >>> 19);
    b = Math.imul(b ^ words[i + 1], 0x85ebca77); b = (b << 17) | (b >>> 15);
    c = Math.imul(c ^ words[i + 2], 0xc2b2ae3d); c = (c << 11) | (c >>> 21);
    d = Math.imul(d ^ words[i + 3], 0x27d4eb2f); d = (d << 15) | (d >>> 17);
  }
  const tail: number[] = [];
  for (let i = n4; i < words.length; i++) tail.push(words[i]);
  for (let i = words.length * 4; i < bytes.length; i++) tail.push(bytes[i] | 0x100);
  for (const [serial, ptr] of scenes) tail.push(serial, ptr);
  tail.push(words.length, snapshotKey[0], snapshotKey[1]);
  for (const x of tail) {
    a = Math.imul(a ^ x, 0x9e3779b1); a = (a << 13) | (a >>> 19);
    b = Math.imul(b ^ a, 0x85ebca77); b = (b << 17) | (b >>> 15);
    c = Math.imul(c ^ b, 0xc2b2ae3d); c = (c << 11) | (c >>> 21);
    d = Math.imul(d ^ c, 0x27d4eb2f); d = (d << 15) | (d >>> 17);
  }
  // Fold the lanes into each other so every word reaches both halves of the result.
  for (let k = 0; k < 2; k++) {
    a = Math.imul(a ^ d, 0x9e3779b1) ^ (b >>> 7);
    b = Math.imul(b ^ a, 0x85ebca77) ^ (c >>> 9);
    c = Math.imul(c ^ b, 0xc2b2ae3d) ^ (d >>> 5);
    d = Math.imul(d ^ c, 0x27d4eb2f) ^ (a >>> 11);
  }
  return ((a ^ c) >>> 0).toString(16).padStart(8, '0') + ((b ^ d) >>> 0).toString(16).padStart(8, '0');
}

export class World {
  /** Dropped by destroy(): a destroyed world keeps no reference to its instance, so its
   * memory goes with the instance once the module is unreachable. */
  private _heap: Heap | null;
  private _ex: LimberExports | null;
  private ptr: number;
  private readonly schema: ComponentInfo[];
  private readonly byName: Map<string, ComponentInfo>;
  private readonly xf: { size: number; t: number; r: number; s: number };
  /** This world's id (see WorldSnapshot.world). */
  readonly id: number = nextWorldId++;
  /** Loaded scenes: the bridge's serial (never reused, restore() does not put it back) to
   * the core's scene. A Scene object asks here whether what it names exists. */
  private scenes = new Map<number, number>();
  private sceneSerial = 0;
  /** While recording: the recorder whose call table `_ex` is (record.ts). */
  private recorder: Recorder | null = null;
  /** Where component bytes cross to and from the core: one block as large as the largest
   * component, kept for the world's life (an alloc and free per get measured a third of it). */
  private readonly io: number;
  /** Name fields: the world's string table (ids in components, strings in the API). */
  private readonly names: NameTable = {
    text: (id) => {
      const p = this.ex.lbw_name_text(this.w, id >>> 0);
      return p ? this.heap.cstring(p) : '';
    },
    intern: (text) =>
      this.heap.withString(text, 'a name', (s) =>
        this.heap.scratch(4, (p) => {
          this.check(this.ex.lbw_intern(this.w, s, p));
          return this.heap.u32[p >> 2]!;
        }),
      ),
  };

  /** The workers of a world on limber-mt.wasm (threads.ts), stopped by destroy(). */
  private workers: Workers | null = null;

  /** Use createWorld(). `threads` > 1 only on limber-mt.wasm. */
  constructor(ex: LimberExports, threads = 1) {
    this._ex = ex;
    this._heap = new Heap(ex);
    this.ptr = threads > 1 ? ex.lbw_world_create_threads(threads) : ex.lbw_world_create();
    if (!this.ptr) throw new LimberError('LB_ERR_OUT_OF_MEMORY', 'LB_ERR_OUT_OF_MEMORY: cannot create a world');
    this.schema = readSchema(this.heap);
    this.byName = new Map(this.schema.map((c) => [c.name, c]));
    this.io = this.heap.alloc(Math.max(...this.schema.map((c) => c.size)), 'component bytes');
    this.xf = this.heap.scratch(16, (p) => {
      const u = this.heap.u32;
      ex.lbw_transform_layout(p);
      return { size: u[p >> 2], t: u[(p >> 2) + 1], r: u[(p >> 2) + 2], s: u[(p >> 2) + 3] };
    });
  }

  /** @internal Raw access for the bridge's other modules (grip, gltf): the exports, the
   * heap, the world pointer and the error check that throws a LimberError. */
  native<T>(fn: (ctx: NativeContext) => T): T {
    return fn({
      ex: this.ex,
      heap: this.heap,
      w: this.w,
      xf: this.xf,
      check: (code, where) => this.check(code, where),
      entity: (e, fn, field) => this.entity(e, fn, field),
    });
  }

  /** Field schema of every component, as the core defines it. */
  get components(): readonly ComponentInfo[] {
    return this.schema;
  }

  private get w(): number {
    if (!this.ptr) throw destroyedWorld();
    return this.ptr;
  }

  private get ex(): LimberExports {
    if (!this._ex) throw destroyedWorld();
    return this._ex;
  }

  private get heap(): Heap {
    if (!this._heap) throw destroyedWorld();
    return this._heap;
  }

  /** Throws the LimberError for a failed core call. The core's message starts with the
   * code's name; one that does not (a function that records no message, leaving the one
   * of an earlier call) is replaced by one worded here. */
  private check(code: number, where: Where = {}): void {
    if (code === 0) return;
    const name = this.heap.cstring(this.ex.lbw_result_name(code)) || `LB_ERR_${code}`;
    let msg = this.heap.cstring(this.ex.lbw_last_error(this.w));
    if (!msg.startsWith(`${name}: `)) {
      const what = [where.fn, where.component, where.entity !== undefined ? `on ${entityLabel(where.entity)}` : ''].filter((x) => x).join(' ');
      msg = `${name}: ${what || 'call failed'}`;
    }
    const { fn: _fn, ...rest } = where;
    throw new LimberError(name, msg, rest);
  }

  /** An entity argument: a whole-number handle naming a live entity. */
  private entity(e: unknown, fn: string, field = 'entity'): number {
    const h = handleArg(e, fn, field);
    if (h === 0 || this.ex.lbw_alive(this.w, h) === 0) {
      throw badArgument(fn, field, `= ${entityLabel(h)} is not alive (stale handle)`, 'LB_ERR_STALE_ENTITY', h);
    }
    return h;
  }

  private info<T>(c: ComponentType<T>): ComponentInfo {
    const info = c && typeof c.name === 'string' ? this.byName.get(c.name) : undefined;
    if (!info) throw new LimberError('LB_ERR_UNKNOWN_NAME', `LB_ERR_UNKNOWN_NAME: unknown component ${describe(c && typeof c === 'object' ? (c as { name?: unknown }).name : c)}`);
    return info;
  }

  /** The threads this world's step runs on (1: limber.wasm, or limber-mt.wasm's count). */
  get threads(): number {
    return this.ex.lbw_world_threads(this.w);
  }

  /** @internal The running workers of a world on limber-mt.wasm (createWorld). */
  attachWorkers(workers: Workers): void {
    this.workers = workers;
  }

  /** True after destroy(). */
  get destroyed(): boolean {
    return this.ptr === 0;
  }

  /** Frees the core world and drops the bridge's references to its WebAssembly instance
   * (its memory is freed with it). The object is unusable afterwards: every call throws
   * LB_ERR_INVALID_ARGUMENT. Destroying twice is allowed. */
  destroy(): void {
    // The pool's workers leave lbw_pool_work while the core destroys the world; only then
    // may their threads go.
    if (this.ptr && this._ex) this._ex.lbw_world_destroy(this.ptr);
    this.workers?.terminate();
    this.workers = null;
    this.recorder = null;
    this.ptr = 0;
    this._ex = null;
    this._heap = null;
  }

  spawn(): Entity {
    return this.heap.scratch(4, (p) => {
      this.check(this.ex.lbw_spawn(this.w, p), { fn: 'spawn' });
      return this.heap.u32[p >> 2];
    });
  }

  despawn(e: Entity): void {
    const h = this.entity(e, 'despawn');
    this.check(this.ex.lbw_despawn(this.w, h), { entity: h, fn: 'despawn' });
  }

  /** Live entities (a count over every slot ever used: for tools and tests, not per frame). */
  get entityCount(): number {
    return this.ex.lbw_entity_count(this.w);
  }

  /** False for a despawned (stale) or null handle; a LimberError for a value that is not
   * a handle at all (a fraction, a string). */
  alive(e: Entity): boolean {
    return this.ex.lbw_alive(this.w, handleArg(e, 'alive', 'entity')) !== 0;
  }

  /** False for a stale handle, like alive(). */
  has<T>(e: Entity, c: ComponentType<T>): boolean {
    const h = handleArg(e, 'has', 'entity');
    return this.ex.lbw_has(this.w, h, this.info(c).id) !== 0;
  }

  /** Adds (or replaces) a component: the given fields merged over the defaults. Output
   * fields (readonly in the types) cannot be set: naming one is an error. Vec3 and Quat
   * fields take any Vec3Like / QuatLike (an array, a typed array, a THREE.Vector3 or
   * THREE.Quaternion); asset fields take a handle of their kind (or a plain number). */
  insert<T>(e: Entity, c: ComponentType<T>, fields: Partial<ComponentInput<T>> = {}): void {
    const info = this.info(c);
    const h = this.entity(e, `insert ${info.name}`);
    const bytes = info.defaults.slice();
    encodeComponent(info, fields as Record<string, unknown>, bytes, `${info.name} on ${entityLabel(h)}`, h, this.names);
    this.write(h, info, bytes, true);
  }

  /** Reads the component (a copy). Throws if the entity lacks it. */
  get<T>(e: Entity, c: ComponentType<T>): T {
    const info = this.info(c);
    const h = handleArg(e, `get ${info.name}`, 'entity');
    return decodeComponent(info, this.readBytes(h, info), this.names) as unknown as T;
  }

  /** Changes a component in place: fn receives a copy to mutate (or returns a
   * replacement). Throws if the entity lacks the component. */
  update<T>(e: Entity, c: ComponentType<T>, fn: (data: Writable<T> & T) => void | Partial<ComponentInput<T>>): void {
    const info = this.info(c);
    const h = handleArg(e, `update ${info.name}`, 'entity');
    if (typeof fn !== 'function') throw badArgument(`update ${info.name}`, 'fn', `must be a function, got ${describe(fn)}`, 'LB_ERR_INVALID_ARGUMENT', h);
    const bytes = this.readBytes(h, info);
    const current = decodeComponent(info, bytes, this.names);
    const obj = copyDecoded(current) as unknown as Writable<T> & T;
    const ret = fn(obj);
    const next = (ret && typeof ret === 'object' ? { ...obj, ...ret } : obj) as Record<string, unknown>;
    encodeComponent(info, next, bytes, `${info.name} on ${entityLabel(h)}`, h, this.names, current);
    this.write(h, info, bytes, false);
  }

  remove<T>(e: Entity, c: ComponentType<T>): void {
    const info = this.info(c);
    const h = this.entity(e, `remove ${info.name}`);
    this.check(this.ex.lbw_remove(this.w, h, info.id), { entity: h, component: info.name, fn: 'remove' });
  }

  private readBytes(e: number, info: ComponentInfo): Uint8Array {
    this.readBytesInPlace(e, info);
    return this.heap.u8.slice(this.io, this.io + info.size);
  }

  /** The component's bytes into the io block (they stay there until the next bridge call). */
  private readBytesInPlace(e: number, info: ComponentInfo): void {
    // lb_world_get is const in C and records no message: word it here.
    const code = this.ex.lbw_get(this.w, e >>> 0, info.id, this.io);
    if (code !== 0) {
      const name = this.heap.cstring(this.ex.lbw_result_name(code));
      const why = name === 'LB_ERR_MISSING_COMPONENT' ? `has no ${info.name}` : 'is not alive (stale handle)';
      throw new LimberError(name, `${name}: ${info.name}: ${entityLabel(e)} ${why}`, { entity: e, component: info.name });
    }
  }

  private write(e: number, info: ComponentInfo, bytes: Uint8Array, insert: boolean): void {
    if (bytes.length !== info.size) throw new LimberError('LB_ERR_INVALID_ARGUMENT', `LB_ERR_INVALID_ARGUMENT: ${info.name}: ${bytes.length} bytes for a ${info.size}-byte component`);
    const p = this.io;
    this.heap.block(p, info.size).set(bytes);
    const fn = insert ? this.ex.lbw_insert : this.ex.lbw_set;
    this.check(fn(this.w, e, info.id, p), { entity: e, component: info.name, fn: insert ? 'insert' : 'update' });
  }

  /** Runs the frame pipeline once. dt in seconds: 0 (paused) or within [1e-6, 1]
   * (LB_STEP_DT_MIN in limber/world.h says why); anything else is a LimberError
   * LB_ERR_OUT_OF_RANGE and changes nothing. */
  step(dt: number): void {
    if (typeof dt !== 'number') throw new LimberError('LB_ERR_INVALID_ARGUMENT', `LB_ERR_INVALID_ARGUMENT: step: field 'dt' must be a number, got ${describe(dt)}`, { field: 'dt' });
    this.check(this.ex.lbw_step(this.w, dt), { fn: 'step' });
  }

  get stepCount(): number {
    return this.ex.lbw_step_count(this.w);
  }

  /** A copy of everything this world holds (entities, components, assets, registered poses,
   * the step count, loaded scenes' timelines): the whole memory of its own instance of the
   * core. `restore(snapshot)` puts it back bit for bit, so the bone hash and every later step
   * are as if nothing had happened since. Take and restore between calls (never from inside
   * a callback); handles taken before the snapshot stay valid after a restore, handles of
   * entities spawned after it are stale. The playground's editor leaves its preview this way. */
  snapshot(): WorldSnapshot {
    const bytes = this.heap.u8.slice(); // a copy in an ArrayBuffer, also of shared memory
    const scenes = [...this.scenes].map(([serial, ptr]) => [serial, ptr] as const);
    return { world: this.id, bytes, scenes, checksum: snapshotChecksum(this.id, bytes, scenes) };
  }

  /** Puts back a snapshot() of this world (see there). Refuses, changing nothing, a
   * snapshot of another world, or one whose bytes or checksum were changed. After it:
   * entity and asset handles issued since the snapshot stay stale (their slots hand out new
   * generations; asset tables skip the handles issued), and a Scene loaded since is
   * destroyed while one loaded before it (even if destroyed since) works again. */
  restore(snapshot: WorldSnapshot): void {
    const fn = 'restore';
    if (this.recorder) throw badArgument(fn, 'world', 'is recording: a restore cannot be recorded (world.stopRecording() first)');
    if (snapshot === null || typeof snapshot !== 'object' || !(snapshot.bytes instanceof Uint8Array) || typeof snapshot.checksum !== 'string' || !Array.isArray(snapshot.scenes)) {
      throw badArgument(fn, 'snapshot', `must be a World.snapshot(), got ${describe(snapshot)}`);
    }
    if (snapshot.world !== this.id) throw badArgument(fn, 'snapshot', `was taken of world ${describe(snapshot.world)}, not of this world (${this.id})`);
    const mem = this.heap.u8;
    const { bytes } = snapshot;
    if (bytes.length > mem.length || bytes.length === 0 || bytes.length % 65536 !== 0) {
      throw badArgument(fn, 'snapshot', `has ${bytes.length} bytes; a snapshot of this world has a whole number of 64 KiB pages, at most ${mem.length}`);
    }
    const scenes = snapshot.scenes.map((e): [number, number] => (Array.isArray(e) && e.length === 2 && Number.isInteger(e[0]) && Number.isInteger(e[1]) ? [e[0], e[1]] : [-1, -1]));
    if (snapshotChecksum(this.id, bytes, scenes) !== snapshot.checksum) {
      throw badArgument(fn, 'snapshot', 'is damaged: its checksum does not match its bytes (changed since snapshot() or not made by it)');
    }
    // Handles issued since the snapshot must stay stale: the slots' unused generations and
    // the asset counts now, reserved again once the old memory is back.
    const n = this.ex.lbw_generations_unused(this.w, 0, 0);
    const unused = this.heap.scratch(2 * n, (p) => {
      this.ex.lbw_generations_unused(this.w, p, n);
      return this.heap.u8.slice(p, p + 2 * n);
    }, fn);
    const kinds = this.ex.lbw_asset_counts(this.w, 0, 0);
    const assets = this.heap.scratch(4 * kinds, (p) => {
      this.ex.lbw_asset_counts(this.w, p, kinds);
      return this.heap.u8.slice(p, p + 4 * kinds);
    }, fn);
    // limber-mt.wasm: the pool's block (what its workers synchronise on, their stacks, which
    // hold a sleeping worker's frames) stays as it is; it exists in every snapshot (made with
    // the world) at the same place.
    const pool = this.workers && this.workers.bytes ? mem.slice(this.workers.pool, this.workers.pool + this.workers.bytes) : null;
    mem.set(bytes);
    mem.fill(0, bytes.length); // memory grown since: unused again
    if (pool && this.workers) mem.set(pool, this.workers.pool);
    this.scenes = new Map(scenes);
    this.heap.scratch(2 * n, (p) => {
      this.heap.block(p, 2 * n).set(unused);
      this.check(this.ex.lbw_generations_reserve(this.w, p, n), { fn });
    }, fn);
    this.heap.scratch(4 * kinds, (p) => {
      this.heap.block(p, 4 * kinds).set(assets);
      this.check(this.ex.lbw_asset_counts_reserve(this.w, p, kinds), { fn });
    }, fn);
  }

  /** @internal The core's scene a Scene names (0 once destroyed or restored away). */
  scenePtr(serial: number): number {
    return this.scenes.get(serial) ?? 0;
  }

  /** @internal The Scene whose bridge serial is index + 1, or null when it is not loaded. */
  sceneAt(index: number): Scene | null {
    return this.scenes.has(index + 1) ? new Scene(this, index + 1) : null;
  }

  /** @internal Forgets a scene (Scene.destroy). */
  sceneDropped(serial: number): void {
    this.scenes.delete(serial);
  }

  /** The 64-bit bone hash as 16 hex digits (same value natively and in wasm). */
  hash(): string {
    // Into the component block (at least 8 bytes, kept for the world's life): no allocation
    // per hash, so tools may hash every frame (and record()/stopRecording() allocate nothing).
    const p = this.io;
    this.ex.lbw_hash(this.w, p);
    const u = this.heap.u32;
    return u[(p >> 2) + 1].toString(16).padStart(8, '0') + u[p >> 2].toString(16).padStart(8, '0');
  }

  /** The entity's Rig asset, read straight from the component's bytes (no object built). */
  private rigAsset(e: number): RigHandle {
    const info = this.info({ name: 'Rig' });
    this.readBytesInPlace(e, info);
    return brand<RigHandle>(this.heap.u32[(this.io + (info.byName.get('asset')?.offset ?? 0)) >> 2]!);
  }

  private readPose(ptr: number, count: number, out?: JointTransform[], fn = 'pose'): JointTransform[] {
    return readTransforms(this.heap, this.xf, ptr, count, out, fn);
  }

  /** Model-space (rig root space) joint transforms after the last step. Pass the array a
   * previous call returned as `out` to have it refilled in place (no allocation per frame). */
  modelPose(e: Entity, out?: JointTransform[]): JointTransform[] {
    const h = this.entity(e, 'modelPose');
    const n = this.ex.lbw_joint_count(this.w, this.rigAsset(h));
    return this.readPose(this.rigBuffer(this.ex.lbw_rig_model_pose(this.w, h), h, 'modelPose'), n, out, 'modelPose');
  }

  /** Local joint transforms after the last step (IK applied); `out` as for modelPose. */
  localPose(e: Entity, out?: JointTransform[]): JointTransform[] {
    const h = this.entity(e, 'localPose');
    const n = this.ex.lbw_joint_count(this.w, this.rigAsset(h));
    return this.readPose(this.rigBuffer(this.ex.lbw_rig_local_pose(this.w, h), h, 'localPose'), n, out, 'localPose');
  }

  /** Model-space matrices (column-major, 16 floats per joint): a copy, or written into `out`
   * (a Float32Array of at least 16 floats per joint, e.g. a three.js Skeleton's boneMatrices)
   * and returned. */
  modelMatrices(e: Entity, out?: Float32Array): Float32Array {
    const h = this.entity(e, 'modelMatrices');
    const n = this.ex.lbw_joint_count(this.w, this.rigAsset(h));
    const p = this.rigBuffer(this.ex.lbw_rig_model_matrices(this.w, h), h, 'modelMatrices');
    const src = this.heap.f32.subarray(p >> 2, (p >> 2) + 16 * n);
    if (out === undefined) return src.slice();
    if (!(out instanceof Float32Array) || out.length < 16 * n) throw badArgument('modelMatrices', 'out', `must be a Float32Array of at least ${16 * n} floats (16 per joint), got ${describe(out)}`, 'LB_ERR_INVALID_ARGUMENT', h);
    out.set(src);
    return out;
  }

  private rigBuffer(p: number, e: number, fn: string): number {
    if (!p) throw new LimberError('LB_ERR_MISSING_COMPONENT', `LB_ERR_MISSING_COMPONENT: ${fn}: ${entityLabel(e)} has no pose buffers`, { entity: e, component: 'Rig' });
    return p >>> 0;
  }

  /** External animation: the local pose each following step starts from. One entry per
   * joint of the rig, each with exactly 3 (t), 4 (r) and 3 (s) numbers; anything else is a
   * LimberError naming the joint and field, and nothing is written. */
  setAnimationPose(e: Entity, pose: readonly (JointTransform | JointTransformLike)[]): void {
    const fn = 'setAnimationPose';
    const h = this.entity(e, fn);
    if (!Array.isArray(pose)) throw badArgument(fn, 'pose', `must be an array of joint transforms, got ${describe(pose)}`, 'LB_ERR_INVALID_ARGUMENT', h);
    const n = this.ex.lbw_joint_count(this.w, this.rigAsset(h));
    if (pose.length !== n) throw badArgument(fn, 'pose', `has ${pose.length} joints, the rig of ${entityLabel(h)} has ${n}`, 'LB_ERR_INVALID_ARGUMENT', h);
    // Checked in full before anything is written.
    const joints = pose.map((x: unknown, j) => {
      if (x === null || typeof x !== 'object') throw badArgument(fn, `pose[${j}]`, `must be a joint transform {t, r, s}, got ${describe(x)}`, 'LB_ERR_INVALID_ARGUMENT', h);
      const jt = x as Record<string, unknown>;
      return { t: vecArg(jt.t, 3, fn, `pose[${j}].t`, h), r: vecArg(jt.r, 4, fn, `pose[${j}].r`, h), s: vecArg(jt.s, 3, fn, `pose[${j}].s`, h) };
    });
    const { size, t, r, s } = this.xf;
    this.heap.scratch(Math.max(n * size, 4), (p) => {
      // A view of exactly this block: a write can never reach past it.
      const f = new Float32Array(this.ex.memory.buffer, p, (n * size) >> 2);
      joints.forEach((x, j) => {
        const b = (j * size) >> 2;
        f.set(x.t, b + (t >> 2));
        f.set(x.r, b + (r >> 2));
        f.set(x.s, b + (s >> 2));
      });
      this.check(this.ex.lbw_rig_set_animation_pose(this.w, h, p, n), { entity: h, component: 'Rig', fn });
    }, fn);
  }

  /** World transform of an entity as of the last step. */
  worldTransform(e: Entity): JointTransform {
    const h = this.entity(e, 'worldTransform');
    return this.heap.scratch(this.xf.size, (p) => {
      this.check(this.ex.lbw_entity_transform(this.w, h, p), { entity: h, fn: 'worldTransform' });
      return this.readPose(p, 1)[0];
    });
  }

  /** Who writes the entity's input now: 'NavAgent' (heading for a destination in
   * NavDestination/Both: its locomotion parameter and the movement requests), 'Vault' (under
   * way: the movement requests), or null when the game may write it. A write to an owned
   * input throws LB_ERR_BUSY and changes nothing; per-frame input code asks here first.
   * `input`: 'move' or { param: name }. Table: docs/architecture.md, "Who writes what". */
  inputOwner(e: Entity, input: OwnedInput): InputOwner | null {
    return inputOwner(this, e, input);
  }

  // ---- levels and props ----------------------------------------------------------------------

  /** Loads a game level: `source` is its bytes (a .glb / .gltf whose mesh nodes become collision
   * meshes, or a Limber level .json of box pieces), a URL or path (fetched; in Node a file path
   * or file: URL, relative to the working directory), or the parsed Limber level object. Each
   * piece becomes a static collider entity named by the piece; walls (kind 'wall', a glTF node
   * named wall_...) go on layers 0 and 1, the rest on layer 0, so EnvironmentInteraction,
   * Vault and CharacterController see the level with their defaults (`options.layers` sets
   * bits per kind). `options.navMesh`: 'bake' (Recast over the level's geometry), a navmesh,
   * or false. All or nothing: a failed load (unreadable, broken file, bad option, failed bake)
   * throws a LimberError naming loadLevel and the field, and leaves the world as it was. */
  loadLevel(source: AssetSource, options: LoadLevelOptions = {}): Promise<Level> {
    return loadLevel(this, source, options);
  }

  /** Loads a prop: a Limber prop .json (assets/props: a root with a GripProfile, anchor and
   * GripSurface children), or a .glb / .gltf (its mesh nodes as collision meshes under a root
   * entity, on `options.colliderLayer`, default 0: invisible to queries), from bytes, a URL or
   * path, or the parsed object. `options`: the root's name, position and rotation, extra grip
   * surfaces, and `grip` (GripProfile fields; anchors as places in the prop). Returns the root
   * entity (for GripHolder.held), its surfaces and anchors. All or nothing, as loadLevel. */
  loadProp(source: AssetSource, options: LoadPropOptions = {}): Promise<Prop> {
    return loadProp(this, source, options);
  }

  // ---- input logs ---------------------------------------------------------------------------

  /** Starts recording every change the game makes to this world between steps, and the steps:
   * component writes (insert, update, remove; NavAgent destinations and stops are updates),
   * spawns and despawns, Animator parameters (damped too), controller moves, vault requests,
   * external poses, registered poses, controllers and meshes added, scenes and levels loaded
   * and unloaded. Recording makes no allocation in the core. A restore, rig.load (a glTF rig)
   * or freeing a scene object cannot be recorded and throw while recording. See record.ts. */
  record(): void {
    if (this.recorder) throw badArgument('record', 'world', 'is already recording (world.stopRecording() first)');
    const rec = new Recorder(
      {
        raw: this.heap.ex,
        heap: this.heap,
        schema: this.schema,
        names: this.names,
        xf: this.xf,
        nextSceneIndex: () => this.sceneSerial,
        scenes: () => [...this.scenes].map(([serial, ptr]): [number, number] => [ptr, serial - 1]),
      },
      { steps: this.stepCount, hash: this.hash() },
    );
    this.recorder = rec;
    this._ex = rec.exports;
  }

  /** True between record() and stopRecording(). */
  get recording(): boolean {
    return this.recorder !== null;
  }

  /** Stops recording; the log: plain JSON, versioned, with the step count and hash at its start
   * and end (limber/input_log.h describes the ops). */
  stopRecording(): InputLog {
    const rec = this.recorder;
    if (!rec) throw badArgument('stopRecording', 'world', 'is not recording (world.record() first)');
    const log = rec.finish({ steps: this.stepCount, hash: this.hash() });
    this.recorder = null;
    this._ex = this.heap.ex;
    return log;
  }

  /** Applies an input log to this world and returns the hash after it (a faithful replay ends
   * with `log.end.hash`). The world must be where the recorded one was at record(): set up the
   * same way (the same scenes, levels and calls, in a new world), else nothing is applied and a
   * LimberError says so. The log is checked in full first (format, version, every op's shape:
   * LB_ERR_PARSE naming the op); an op the world refuses (a stale entity, a handle that differs
   * from the recording) puts the world back where it was and throws, naming the op.
   * `options.onStep(step, world)` runs after each step. Natively: `limber replay SCENE LOG`. */
  replay(log: InputLog, options: ReplayOptions = {}): string {
    if (this.recorder) throw badArgument('replay', 'world', 'is recording (world.stopRecording() first)');
    return replayLog({ world: this, schema: this.schema, scene: (i) => this.sceneAt(i) }, log, options);
  }

  // ---- module namespaces: what each module adds, one object per module --------------------

  /** Skeleton assets: glTF import, the procedural humanoid, joint lookups (rig.ts). */
  get rig(): RigApi {
    return (this._rig ??= new RigApi(this));
  }
  /** Animator parameters, root motion, controllers and clips (animator.ts). */
  get anim(): AnimApi {
    return (this._anim ??= new AnimApi(this));
  }
  /** Grip and finger poses, per-hand status, hand finding, held-object anchors (grip.ts). */
  get grip(): GripApi {
    return (this._grip ??= new GripApi(this));
  }
  /** The built-in collision backend: mesh assets and the queries, a CollisionQueries table
   * (collide.ts). limber/rapier's rapierQueries() answers the same table from Rapier. */
  get collide(): CollideApi {
    return (this._collide ??= new CollideApi(this));
  }
  /** CharacterController movement requests (controller.ts). */
  get controller(): ControllerApi {
    return (this._controller ??= new ControllerApi(this));
  }
  /** Vault requests and the probe's casts (vault.ts). */
  get vault(): VaultApi {
    return (this._vault ??= new VaultApi(this));
  }
  /** Navmeshes, path queries and NavAgent destinations (nav.ts). */
  get nav(): NavApi {
    return (this._nav ??= new NavApi(this));
  }
  private _rig?: RigApi;
  private _anim?: AnimApi;
  private _grip?: GripApi;
  private _collide?: CollideApi;
  private _controller?: ControllerApi;
  private _vault?: VaultApi;
  private _nav?: NavApi;

  // ---- deprecated: the module calls that were World methods (CHANGELOG.md, 0.2.0) -----------

  /** @deprecated use `world.rig.addHumanoid` */
  addHumanoidRig(options: { height?: number; naming?: HumanoidNaming } = {}): RigHandle {
    return deprecated('world.addHumanoidRig', 'world.rig.addHumanoid', () => this.rig.addHumanoid(options));
  }
  /** @deprecated use `world.rig.skeleton` */
  skeleton(asset: HandleArg<RigHandle>): { names: string[]; parents: number[]; rootParent: JointTransform } {
    return deprecated('world.skeleton', 'world.rig.skeleton', () => this.rig.skeleton(asset));
  }
  /** @deprecated use `world.rig.findJoint` */
  findJoint(asset: HandleArg<RigHandle>, path: string): number {
    return deprecated('world.findJoint', 'world.rig.findJoint', () => this.rig.findJoint(asset, path));
  }
  /** @deprecated use `world.grip.findHand` */
  findHand(e: Entity, side: 'Right' | 'Left', handPath = ''): HandStatus {
    return deprecated('world.findHand', 'world.grip.findHand', () => this.grip.findHand(e, side, handPath));
  }
  /** @deprecated use `world.grip.anchor` */
  gripAnchor(holder: Entity, role: 'main' | 'support'): JointTransform | null {
    return deprecated('world.gripAnchor', 'world.grip.anchor', () => this.grip.anchor(holder, role));
  }
  /** @deprecated use `world.collide` (the same CollisionQueries table) */
  get queries(): CollisionQueries {
    return deprecated('world.queries', 'world.collide', () => this.collide);
  }
  /** @deprecated use `world.controller.move` */
  moveController(e: Entity, delta: Vec3Like): void {
    deprecated('world.moveController', 'world.controller.move', () => this.controller.move(e, delta));
  }
  /** @deprecated use `world.vault.request` */
  requestVault(e: Entity): void {
    deprecated('world.requestVault', 'world.vault.request', () => this.vault.request(e));
  }
  /** @deprecated use `world.vault.casts` */
  vaultCasts(e: Entity): VaultCast[] {
    return deprecated('world.vaultCasts', 'world.vault.casts', () => this.vault.casts(e));
  }
  /** @deprecated use `world.anim.setParam` */
  setAnimatorParam(e: Entity, name: string, value: number | boolean, options: { damp?: number } = {}): void {
    deprecated('world.setAnimatorParam', 'world.anim.setParam', () => this.anim.setParam(e, name, value, options));
  }
  /** @deprecated use `world.anim.setTrigger` */
  setAnimatorTrigger(e: Entity, name: string): void {
    deprecated('world.setAnimatorTrigger', 'world.anim.setTrigger', () => this.anim.setTrigger(e, name));
  }
  /** @deprecated use `world.collide.addMesh` */
  addMesh(positions: ArrayLike<number>, indices: ArrayLike<number>): MeshHandle {
    return deprecated('world.addMesh', 'world.collide.addMesh', () => this.collide.addMesh(positions, indices));
  }
  /** @deprecated use `world.collide.meshTriangleCount` */
  meshTriangleCount(mesh: HandleArg<MeshHandle>): number {
    return deprecated('world.meshTriangleCount', 'world.collide.meshTriangleCount', () => this.collide.meshTriangleCount(mesh));
  }
  /** @deprecated use `world.collide.closestPoint` */
  closestPoint(point: Vec3Like, options?: ClosestPointOptions): CollideHit | null {
    return deprecated('world.closestPoint', 'world.collide.closestPoint', () => this.collide.closestPoint(point, options));
  }
  /** @deprecated use `world.collide.raycast` */
  raycast(origin: Vec3Like, dir: Vec3Like, maxDistance: number, options?: QueryOptions): CollideHit | null {
    return deprecated('world.raycast', 'world.collide.raycast', () => this.collide.raycast(origin, dir, maxDistance, options));
  }
  /** @deprecated use `world.collide.sphereCast` */
  sphereCast(center: Vec3Like, radius: number, dir: Vec3Like, maxDistance: number, options?: QueryOptions): CollideHit | null {
    return deprecated('world.sphereCast', 'world.collide.sphereCast', () => this.collide.sphereCast(center, radius, dir, maxDistance, options));
  }
  /** @deprecated use `world.collide.capsuleCast` */
  capsuleCast(a: Vec3Like, b: Vec3Like, radius: number, dir: Vec3Like, maxDistance: number, options?: QueryOptions): CollideHit | null {
    return deprecated('world.capsuleCast', 'world.collide.capsuleCast', () => this.collide.capsuleCast(a, b, radius, dir, maxDistance, options));
  }
  /** @deprecated use `world.collide.overlapSphere` */
  overlapSphere(center: Vec3Like, radius: number, options?: QueryOptions): Entity[] {
    return deprecated('world.overlapSphere', 'world.collide.overlapSphere', () => this.collide.overlapSphere(center, radius, options));
  }
  /** @deprecated use `world.collide.overlapCapsule` */
  overlapCapsule(a: Vec3Like, b: Vec3Like, radius: number, options?: QueryOptions): Entity[] {
    return deprecated('world.overlapCapsule', 'world.collide.overlapCapsule', () => this.collide.overlapCapsule(a, b, radius, options));
  }
  /** @deprecated use `world.collide.overlapBox` */
  overlapBox(center: Vec3Like, rotation: QuatLike, halfExtents: Vec3Like, options?: QueryOptions): Entity[] {
    return deprecated('world.overlapBox', 'world.collide.overlapBox', () => this.collide.overlapBox(center, rotation, halfExtents, options));
  }

  /** Paths of the files a scene refers to (glTF rigs, the level), as the scene writes them: read them
   * and pass them to loadScene as `files`. Malformed JSON lists none (loadScene says why). */
  sceneFiles(scene: string | object): string[] {
    const text = jsonArg(scene, 'sceneFiles', 'scene', 'a scene object or its JSON text');
    return this.heap.withString(text, 'sceneFiles', (s, len) => {
      const needed = this.ex.lbw_scene_files(s, len, 0, 0);
      if (needed < 0) return [];
      return this.heap.scratch(needed + 1, (buf) => {
        const n = this.ex.lbw_scene_files(s, len, buf, needed + 1);
        if (n < 0) this.check(-n, { fn: 'sceneFiles' });
        return this.heap.cstring(buf).split('\n').filter((x) => x.length > 0);
      }, 'sceneFiles');
    });
  }

  /** Loads a scene document (JSON text or object) into this world. `files` holds the bytes
   * of every file it refers to (see sceneFiles), keyed by the path as the scene writes it. */
  loadScene(scene: string | object, options: { files?: Record<string, Uint8Array | ArrayBuffer> | Map<string, Uint8Array | ArrayBuffer> } = {}): Scene {
    const fn = 'loadScene';
    const text = jsonArg(scene, fn, 'scene', 'a scene object or its JSON text');
    if (options === null || typeof options !== 'object') throw badArgument(fn, 'options', `must be an object, got ${describe(options)}`);
    const files = options.files;
    if (files !== undefined && (files === null || typeof files !== 'object')) throw badArgument(fn, 'files', `must be an object or a Map of path to bytes, got ${describe(files)}`);
    const entries = (files instanceof Map ? [...files] : Object.entries(files ?? {})).map(([path, data]): [string, Uint8Array] => {
      nameArg(path, fn, 'files');
      if (data instanceof Uint8Array) return [path, data];
      if (data instanceof ArrayBuffer) return [path, new Uint8Array(data)];
      throw badArgument(fn, `files[${JSON.stringify(path)}]`, `must be a Uint8Array or an ArrayBuffer, got ${describe(data)}`);
    });
    const held: number[] = [];
    try {
      const s = this.heap.string(text, fn);
      held.push(s.ptr);
      let ptr: number;
      if (entries.length === 0) {
        ptr = this.ex.lbw_scene_load(this.w, s.ptr, s.len);
      } else {
        const table = this.heap.alloc(12 * entries.length, fn);
        held.push(table);
        entries.forEach(([path, bytes], i) => {
          const p = this.heap.string(path, fn).ptr;
          held.push(p);
          const b = this.heap.bytes(bytes, fn);
          held.push(b);
          new Uint32Array(this.ex.memory.buffer, table + 12 * i, 3).set([p, b, bytes.length]);
        });
        ptr = this.ex.lbw_scene_load_files(this.w, s.ptr, s.len, table, entries.length);
      }
      if (!ptr) {
        const msg = this.heap.cstring(this.ex.lbw_last_error(this.w));
        const code = /^(LB_[A-Z_]+): /.exec(msg)?.[1];
        throw new LimberError(code ?? 'LB_ERR_PARSE', code ? msg : `LB_ERR_PARSE: loadScene: the scene was not loaded`);
      }
      const serial = ++this.sceneSerial;
      this.scenes.set(serial, ptr);
      return new Scene(this, serial);
    } finally {
      for (const p of held) this.ex.lbw_free(p);
    }
  }
}

/** A loaded scene: named entities and a timeline applied as it steps. */
export class Scene {
  readonly entities: ReadonlyMap<string, Entity>;

  /** Use world.loadScene(). */
  constructor(private readonly world: World, private readonly serial: number) {
    const m = new Map<string, Entity>();
    const ptr = world.scenePtr(serial);
    world.native(({ ex, heap }) => {
      for (let i = 0; i < ex.lbw_scene_entity_count(ptr); i++) {
        m.set(heap.cstring(ex.lbw_scene_entity_name(ptr, i)), ex.lbw_scene_entity_at(ptr, i) >>> 0);
      }
    });
    this.entities = m;
  }

  /** True after destroy(), after its world was destroyed, or after World.restore() went
   * back to a snapshot taken before the scene was loaded (a restore to one taken while it
   * was loaded makes it live again). */
  get destroyed(): boolean {
    return this.world.destroyed || this.world.scenePtr(this.serial) === 0;
  }

  private get ptr(): number {
    const ptr = this.world.destroyed ? 0 : this.world.scenePtr(this.serial);
    if (!ptr) throw new LimberError('LB_ERR_INVALID_ARGUMENT', 'LB_ERR_INVALID_ARGUMENT: scene.step: the scene was destroyed (by destroy(), by its world\'s destroy(), or by World.restore() to a snapshot taken before it was loaded)');
    return ptr;
  }

  /** Entity by scene name; throws for an unknown name. */
  entity(name: string): Entity {
    const e = this.entities.get(name);
    if (e === undefined) throw new LimberError('LB_ERR_UNKNOWN_NAME', `LB_ERR_UNKNOWN_NAME: the scene has no entity ${describe(name)}`);
    return e;
  }

  /** Applies the timeline commands due now, then steps the world. */
  step(dt: number): void {
    const ptr = this.ptr;
    if (typeof dt !== 'number') throw badArgument('scene.step', 'dt', `must be a number, got ${describe(dt)}`);
    this.world.native(({ ex, w, check }) => check(ex.lbw_scene_step(w, ptr, dt), { fn: 'scene.step' }));
  }

  /** Unloads the scene: despawns its entities that are still alive (the handles it
   * created; a slot reused since has another generation and is left alone), then frees
   * the scene. Assets it added (rigs, clips, controllers) are freed too when nothing else
   * uses them and no asset was added after them. Destroying twice, or after the world, does
   * nothing. */
  destroy(): void {
    if (this.destroyed) return;
    const ptr = this.world.scenePtr(this.serial);
    this.world.sceneDropped(this.serial);
    // The core despawns the scene's live entities (children first) and frees the assets
    // only it used (lb_scene_unload).
    this.world.native(({ ex, w }) => ex.lbw_scene_unload(w, ptr));
  }
}

// createWorld() is defined by each entry point (index.ts for Node, browser.ts for browsers),
// which know where limber.wasm is and how to read it.
