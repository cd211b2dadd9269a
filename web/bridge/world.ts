/** The ESEngine-style world over the Limber core (WebAssembly). */
import { setAnimatorParam, setAnimatorTrigger } from './animator.js';
import type { ComponentType, Entity, Writable } from './components.js';
import { LimberError } from './errors.js';
import { type ComponentInfo, decodeComponent, encodeComponent, type NameTable, readSchema } from './schema.js';
import { Heap, type LimberExports, type WasmSource } from './wasm.js';

export interface CreateWorldOptions {
  /** The limber.wasm to use (URL, path, bytes, Response or module). Default: the file
   * shipped beside the entry module (dist/web/bridge/limber.wasm). */
  wasm?: WasmSource;
}

/** One joint pose: translation, rotation (x, y, z, w) and scale. */
export interface JointTransform {
  t: [number, number, number];
  r: [number, number, number, number];
  s: [number, number, number];
}

/** Joint naming conventions of the procedural humanoid (order = lb_humanoid_naming). */
export const HUMANOID_NAMINGS = ['mixamo', 'unreal', 'blender', 'digits'] as const;
export type HumanoidNaming = (typeof HUMANOID_NAMINGS)[number];

export const FINGERS = ['thumb', 'index', 'middle', 'ring', 'pinky'] as const;
export type FingerName = (typeof FINGERS)[number];

/** What findHand found: joint names from the finger root to the tip. */
export interface HandStatus {
  side: 'Right' | 'Left';
  hand: string;
  fingers: Record<FingerName, string[] | null>;
  missing: FingerName[];
  report: string;
}

/** @internal Bytes a packed hand (lbw_find_hand, lbw_grip_hand_info) needs. */
export const PACKED_HAND_BYTES = 4 * 26 + 256;

/** @internal Reads a hand packed by the core: hand joint, then per finger found, three
 * segment joints and the tip (-1 = none), then the report text. */
export function decodeHand(heap: Heap, p: number, names: readonly string[], side: 'Right' | 'Left'): HandStatus {
  const i32 = new Int32Array(heap.ex.memory.buffer, p, 26);
  const fingers = {} as Record<FingerName, string[] | null>;
  const missing: FingerName[] = [];
  FINGERS.forEach((f, k) => {
    const o = 1 + 5 * k;
    if (!i32[o]) {
      fingers[f] = null;
      missing.push(f);
      return;
    }
    fingers[f] = [i32[o + 1], i32[o + 2], i32[o + 3], i32[o + 4]].filter((j) => j >= 0).map((j) => names[j]);
  });
  return { side, hand: i32[0] >= 0 ? names[i32[0]] : '', fingers, missing, report: heap.cstring(p + 4 * 26) };
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
  check(code: number, where?: { entity?: number; component?: string }): void;
}

export class World {
  private readonly heap: Heap;
  private readonly ex: LimberExports;
  private ptr: number;
  private readonly schema: ComponentInfo[];
  private readonly byName: Map<string, ComponentInfo>;
  private readonly xf: { size: number; t: number; r: number; s: number };
  /** Name fields: the world's string table (ids in components, strings in the API). */
  private readonly names: NameTable = {
    text: (id) => {
      const p = this.ex.lbw_name_text(this.w, id >>> 0);
      return p ? this.heap.cstring(p) : '';
    },
    intern: (text) => {
      const s = this.heap.string(text);
      try {
        return this.heap.scratch(4, (p) => {
          this.check(this.ex.lbw_intern(this.w, s.ptr, p));
          return this.heap.u32[p >> 2];
        });
      } finally {
        this.ex.lbw_free(s.ptr);
      }
    },
  };

  /** Use createWorld(). */
  constructor(ex: LimberExports) {
    this.ex = ex;
    this.heap = new Heap(ex);
    this.ptr = ex.lbw_world_create();
    if (!this.ptr) throw new LimberError('LB_ERR_OUT_OF_MEMORY', 'LB_ERR_OUT_OF_MEMORY: cannot create a world');
    this.schema = readSchema(this.heap);
    this.byName = new Map(this.schema.map((c) => [c.name, c]));
    this.xf = this.heap.scratch(16, (p) => {
      const u = this.heap.u32;
      ex.lbw_transform_layout(p);
      return { size: u[p >> 2], t: u[(p >> 2) + 1], r: u[(p >> 2) + 2], s: u[(p >> 2) + 3] };
    });
  }

  /** @internal Raw access for the bridge's other modules (grip, gltf): the exports, the
   * heap, the world pointer and the error check that throws a LimberError. */
  native<T>(fn: (ctx: NativeContext) => T): T {
    return fn({ ex: this.ex, heap: this.heap, w: this.w, xf: this.xf, check: (code, where) => this.check(code, where) });
  }

  /** Field schema of every component, as the core defines it. */
  get components(): readonly ComponentInfo[] {
    return this.schema;
  }

  private get w(): number {
    if (!this.ptr) throw new LimberError('LB_ERR_INVALID_ARGUMENT', 'LB_ERR_INVALID_ARGUMENT: the world was destroyed');
    return this.ptr;
  }

  private check(code: number, where: { entity?: number; component?: string } = {}): void {
    if (code === 0) return;
    const name = this.heap.cstring(this.ex.lbw_result_name(code));
    const msg = this.heap.cstring(this.ex.lbw_last_error(this.w)) || name;
    throw new LimberError(name, msg, where);
  }

  private info<T>(c: ComponentType<T>): ComponentInfo {
    const info = c && typeof c.name === 'string' ? this.byName.get(c.name) : undefined;
    if (!info) throw new LimberError('LB_ERR_UNKNOWN_NAME', `LB_ERR_UNKNOWN_NAME: unknown component '${String(c?.name)}'`);
    return info;
  }

  /** True after destroy(). */
  get destroyed(): boolean {
    return this.ptr === 0;
  }

  /** Frees the core world. The object is unusable afterwards. */
  destroy(): void {
    if (this.ptr) this.ex.lbw_world_destroy(this.ptr);
    this.ptr = 0;
  }

  spawn(): Entity {
    return this.heap.scratch(4, (p) => {
      this.check(this.ex.lbw_spawn(this.w, p));
      return this.heap.u32[p >> 2];
    });
  }

  despawn(e: Entity): void {
    this.check(this.ex.lbw_despawn(this.w, e >>> 0), { entity: e });
  }

  alive(e: Entity): boolean {
    return this.ex.lbw_alive(this.w, e >>> 0) !== 0;
  }

  has<T>(e: Entity, c: ComponentType<T>): boolean {
    return this.ex.lbw_has(this.w, e >>> 0, this.info(c).id) !== 0;
  }

  /** Adds (or replaces) a component: the given fields merged over the defaults. */
  insert<T>(e: Entity, c: ComponentType<T>, fields: Partial<Writable<T>> = {}): void {
    const info = this.info(c);
    const bytes = info.defaults.slice();
    encodeComponent(info, fields as Record<string, unknown>, bytes, `${info.name} on ${entityLabel(e)}`, e, this.names);
    this.write(e, info, bytes, true);
  }

  /** Reads the component (a copy). Throws if the entity lacks it. */
  get<T>(e: Entity, c: ComponentType<T>): T {
    const info = this.info(c);
    return decodeComponent(info, this.readBytes(e, info), this.names) as unknown as T;
  }

  /** Changes a component in place: fn receives a copy to mutate (or returns a
   * replacement). Throws if the entity lacks the component. */
  update<T>(e: Entity, c: ComponentType<T>, fn: (data: Writable<T> & T) => void | Partial<Writable<T>>): void {
    const info = this.info(c);
    const bytes = this.readBytes(e, info);
    const obj = decodeComponent(info, bytes, this.names) as unknown as Writable<T> & T;
    const ret = fn(obj);
    const next = (ret && typeof ret === 'object' ? { ...obj, ...ret } : obj) as Record<string, unknown>;
    encodeComponent(info, next, bytes, `${info.name} on ${entityLabel(e)}`, e, this.names);
    this.write(e, info, bytes, false);
  }

  remove<T>(e: Entity, c: ComponentType<T>): void {
    const info = this.info(c);
    this.check(this.ex.lbw_remove(this.w, e >>> 0, info.id), { entity: e, component: info.name });
  }

  private readBytes(e: Entity, info: ComponentInfo): Uint8Array {
    return this.heap.scratch(info.size, (p) => {
      // lb_world_get is const in C and records no message: word it here.
      const code = this.ex.lbw_get(this.w, e >>> 0, info.id, p);
      if (code !== 0) {
        const name = this.heap.cstring(this.ex.lbw_result_name(code));
        const why = name === 'LB_ERR_MISSING_COMPONENT' ? `has no ${info.name}` : 'is not alive (stale handle)';
        throw new LimberError(name, `${name}: ${info.name}: ${entityLabel(e)} ${why}`, { entity: e, component: info.name });
      }
      return this.heap.u8.slice(p, p + info.size);
    });
  }

  private write(e: Entity, info: ComponentInfo, bytes: Uint8Array, insert: boolean): void {
    this.heap.scratch(info.size, (p) => {
      this.heap.u8.set(bytes, p);
      const fn = insert ? this.ex.lbw_insert : this.ex.lbw_set;
      this.check(fn(this.w, e >>> 0, info.id, p), { entity: e, component: info.name });
    });
  }

  /** Runs the frame pipeline once. dt in seconds, [0, 1]. */
  step(dt: number): void {
    if (typeof dt !== 'number') throw new LimberError('LB_ERR_INVALID_ARGUMENT', `LB_ERR_INVALID_ARGUMENT: step: dt must be a number, got ${typeof dt}`);
    this.check(this.ex.lbw_step(this.w, dt));
  }

  get stepCount(): number {
    return this.ex.lbw_step_count(this.w);
  }

  /** The 64-bit bone hash as 16 hex digits (same value natively and in wasm). */
  hash(): string {
    return this.heap.scratch(8, (p) => {
      this.ex.lbw_hash(this.w, p);
      const u = this.heap.u32;
      return u[(p >> 2) + 1].toString(16).padStart(8, '0') + u[p >> 2].toString(16).padStart(8, '0');
    });
  }

  /** Adds the procedural humanoid skeleton (65 joints; 73 with Unreal's metacarpals)
   * named in one convention (default 'mixamo'; 'blender' has bone-local +Y axes);
   * returns its asset handle. */
  addHumanoidRig(options: { height?: number; naming?: HumanoidNaming } = {}): number {
    const height = options.height ?? 1.8;
    if (typeof height !== 'number' || !(height > 0.3 && height <= 3)) {
      throw new LimberError('LB_ERR_OUT_OF_RANGE', `LB_ERR_OUT_OF_RANGE: addHumanoidRig: field 'height' = ${String(height)} is outside (0.3, 3] m`, { field: 'height' });
    }
    const naming = HUMANOID_NAMINGS.indexOf(options.naming ?? 'mixamo');
    if (naming < 0) {
      throw new LimberError('LB_ERR_UNKNOWN_NAME', `LB_ERR_UNKNOWN_NAME: addHumanoidRig: field 'naming' = ${String(options.naming)} is not one of ${HUMANOID_NAMINGS.join(', ')}`, { field: 'naming' });
    }
    return this.heap.scratch(4, (p) => {
      this.check(this.ex.lbw_add_humanoid(this.w, height, naming, p));
      return this.heap.u32[p >> 2];
    });
  }

  /** Joint names and parents of a skeleton asset (depth-first order). */
  skeleton(asset: number): { names: string[]; parents: number[] } {
    const n = this.ex.lbw_joint_count(this.w, asset);
    const names: string[] = [];
    const parents: number[] = [];
    for (let j = 0; j < n; j++) {
      names.push(this.heap.cstring(this.ex.lbw_joint_name(this.w, asset, j)));
      parents.push(this.ex.lbw_joint_parent(this.w, asset, j));
    }
    return { names, parents };
  }

  /** Joint index for a path ("Hips/Spine/...") or bare name, or -1. */
  findJoint(asset: number, path: string): number {
    const s = this.heap.string(path);
    try {
      return this.ex.lbw_find_joint(this.w, asset, s.ptr);
    } finally {
      this.ex.lbw_free(s.ptr);
    }
  }

  private rigAsset(e: Entity): number {
    return (this.get(e, { name: 'Rig' }) as { asset: number }).asset;
  }

  private readPose(ptr: number, count: number): JointTransform[] {
    const f = this.heap.f32;
    const out: JointTransform[] = [];
    for (let j = 0; j < count; j++) {
      const b = (ptr + j * this.xf.size) >> 2;
      const t = b + (this.xf.t >> 2), r = b + (this.xf.r >> 2), s = b + (this.xf.s >> 2);
      out.push({ t: [f[t], f[t + 1], f[t + 2]], r: [f[r], f[r + 1], f[r + 2], f[r + 3]], s: [f[s], f[s + 1], f[s + 2]] });
    }
    return out;
  }

  /** Model-space (rig root space) joint transforms after the last step. */
  modelPose(e: Entity): JointTransform[] {
    const n = this.ex.lbw_joint_count(this.w, this.rigAsset(e));
    return this.readPose(this.ex.lbw_rig_model_pose(this.w, e >>> 0), n);
  }

  /** Local joint transforms after the last step (IK applied). */
  localPose(e: Entity): JointTransform[] {
    const n = this.ex.lbw_joint_count(this.w, this.rigAsset(e));
    return this.readPose(this.ex.lbw_rig_local_pose(this.w, e >>> 0), n);
  }

  /** Model-space matrices (column-major, 16 floats per joint) as a copy. */
  modelMatrices(e: Entity): Float32Array {
    const n = this.ex.lbw_joint_count(this.w, this.rigAsset(e));
    const p = this.ex.lbw_rig_model_matrices(this.w, e >>> 0);
    return this.heap.f32.slice(p >> 2, (p >> 2) + 16 * n);
  }

  /** External animation: the local pose each following step starts from. */
  setAnimationPose(e: Entity, pose: readonly JointTransform[]): void {
    const size = pose.length * this.xf.size;
    this.heap.scratch(Math.max(size, 4), (p) => {
      const f = this.heap.f32;
      pose.forEach((x, j) => {
        const b = (p + j * this.xf.size) >> 2;
        f.set(x.t, b + (this.xf.t >> 2));
        f.set(x.r, b + (this.xf.r >> 2));
        f.set(x.s, b + (this.xf.s >> 2));
      });
      this.check(this.ex.lbw_rig_set_animation_pose(this.w, e >>> 0, p, pose.length), { entity: e, component: 'Rig' });
    });
  }

  /** Which hand and finger joints the core finds on an entity's rig (names
   * like RightHand, hand_r, hand.R, mixamorig:RightHand; metacarpals skipped).
   * `handPath` names the hand joint when the names don't match. Throws
   * LB_ERR_JOINT_NOT_FOUND (with the finder's report) when there is no hand. */
  findHand(e: Entity, side: 'Right' | 'Left', handPath = ''): HandStatus {
    if (side !== 'Right' && side !== 'Left') {
      throw new LimberError('LB_ERR_UNKNOWN_NAME', `LB_ERR_UNKNOWN_NAME: findHand on ${entityLabel(e)}: field 'side' must be Right or Left, got ${String(side)}`, { entity: e, field: 'side' });
    }
    const names = this.skeleton(this.rigAsset(e)).names;
    const path = this.heap.string(handPath);
    try {
      return this.heap.scratch(PACKED_HAND_BYTES, (p) => {
        const code = this.ex.lbw_find_hand(this.w, e >>> 0, side === 'Right' ? 0 : 1, path.ptr, p, p + 4 * 26);
        this.check(code, { entity: e, component: 'Rig' });
        return decodeHand(this.heap, p, names, side);
      });
    } finally {
      this.ex.lbw_free(path.ptr);
    }
  }

  /** World transform of a GripHolder's anchor as the last step used it (mirrored when
   * the main hand is not the hand the anchors were placed for); null when nothing is
   * held or the object has no anchor for that role. */
  gripAnchor(holder: Entity, role: 'main' | 'support'): JointTransform | null {
    return this.heap.scratch(this.xf.size, (p) => {
      const code = this.ex.lbw_grip_anchor(this.w, holder >>> 0, role === 'main' ? 0 : 1, p);
      if (code !== 0 && this.heap.cstring(this.ex.lbw_result_name(code)) === 'LB_ERR_MISSING_COMPONENT') return null;
      this.check(code, { entity: holder, component: 'GripHolder' });
      return this.readPose(p, 1)[0];
    });
  }

  /** World transform of an entity as of the last step. */
  worldTransform(e: Entity): JointTransform {
    return this.heap.scratch(this.xf.size, (p) => {
      this.check(this.ex.lbw_entity_transform(this.w, e >>> 0, p), { entity: e });
      return this.readPose(p, 1)[0];
    });
  }

  /** Sets an Animator parameter: a number for a float, a boolean for a bool (or a trigger:
   * true sets, false resets). Throws a LimberError naming the entity and parameter. */
  setAnimatorParam(e: Entity, name: string, value: number | boolean): void {
    setAnimatorParam(this, e, name, value);
  }

  /** Sets an Animator trigger (it stays set until a transition that tests it fires). */
  setAnimatorTrigger(e: Entity, name: string): void {
    setAnimatorTrigger(this, e, name);
  }

  /** Paths of the files a scene refers to (glTF rigs), as the scene writes them: read them
   * and pass them to loadScene as `files`. Malformed JSON lists none (loadScene says why). */
  sceneFiles(scene: string | object): string[] {
    const text = typeof scene === 'string' ? scene : JSON.stringify(scene);
    const s = this.heap.string(text);
    try {
      const needed = this.ex.lbw_scene_files(s.ptr, s.len, 0, 0);
      if (needed < 0) return [];
      return this.heap.scratch(needed + 1, (buf) => {
        const n = this.ex.lbw_scene_files(s.ptr, s.len, buf, needed + 1);
        if (n < 0) this.check(-n);
        return this.heap.cstring(buf).split('\n').filter((x) => x.length > 0);
      });
    } finally {
      this.ex.lbw_free(s.ptr);
    }
  }

  /** Loads a scene document (JSON text or object) into this world. `files` holds the bytes
   * of every file it refers to (see sceneFiles), keyed by the path as the scene writes it. */
  loadScene(scene: string | object, options: { files?: Record<string, Uint8Array | ArrayBuffer> | Map<string, Uint8Array | ArrayBuffer> } = {}): Scene {
    const text = typeof scene === 'string' ? scene : JSON.stringify(scene);
    const s = this.heap.string(text);
    const entries = options.files instanceof Map ? [...options.files] : Object.entries(options.files ?? {});
    const held: number[] = [];
    try {
      let ptr: number;
      if (entries.length === 0) {
        ptr = this.ex.lbw_scene_load(this.w, s.ptr, s.len);
      } else {
        const table = this.ex.lbw_alloc(12 * entries.length);
        held.push(table);
        entries.forEach(([path, data], i) => {
          const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
          const p = this.heap.string(path).ptr;
          held.push(p);
          const b = this.heap.bytes(bytes);
          held.push(b);
          this.heap.u32.set([p, b, bytes.length], (table >> 2) + 3 * i);
        });
        ptr = this.ex.lbw_scene_load_files(this.w, s.ptr, s.len, table, entries.length);
      }
      if (!ptr) {
        const msg = this.heap.cstring(this.ex.lbw_last_error(this.w));
        throw new LimberError(msg.split(':')[0] || 'LB_ERR_PARSE', msg);
      }
      return new Scene(this.ex, this.heap, ptr, () => this.w, (code) => this.check(code));
    } finally {
      this.ex.lbw_free(s.ptr);
      for (const p of held) this.ex.lbw_free(p);
    }
  }
}

/** A loaded scene: named entities and a timeline applied as it steps. */
export class Scene {
  readonly entities: ReadonlyMap<string, Entity>;

  /** Use world.loadScene(). */
  constructor(private readonly ex: LimberExports, heap: Heap, private ptr: number, private readonly w: () => number, private readonly check: (code: number) => void) {
    const m = new Map<string, Entity>();
    for (let i = 0; i < ex.lbw_scene_entity_count(ptr); i++) {
      m.set(heap.cstring(ex.lbw_scene_entity_name(ptr, i)), ex.lbw_scene_entity_at(ptr, i) >>> 0);
    }
    this.entities = m;
  }

  /** Entity by scene name; throws for an unknown name. */
  entity(name: string): Entity {
    const e = this.entities.get(name);
    if (e === undefined) throw new LimberError('LB_ERR_UNKNOWN_NAME', `LB_ERR_UNKNOWN_NAME: the scene has no entity '${name}'`);
    return e;
  }

  /** Applies the timeline commands due now, then steps the world. */
  step(dt: number): void {
    if (!this.ptr) throw new LimberError('LB_ERR_INVALID_ARGUMENT', 'LB_ERR_INVALID_ARGUMENT: the scene was destroyed');
    this.check(this.ex.lbw_scene_step(this.w(), this.ptr, dt));
  }

  destroy(): void {
    if (this.ptr) this.ex.lbw_scene_destroy(this.w(), this.ptr);
    this.ptr = 0;
  }
}

// createWorld() is defined by each entry point (index.ts for Node, browser.ts for browsers),
// which know where limber.wasm is and how to read it.
