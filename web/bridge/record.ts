/** Input logs: world.record() / world.stopRecording() / world.replay(log).
 *
 * Every change a game makes to a world between steps crosses into the core through one of
 * the core's exported calls (lbw_*), whichever bridge function it came from: world.insert /
 * update / remove / spawn / despawn, world.anim.setParam, world.controller.move,
 * world.nav.setDestination (a NavAgent write), world.vault.request, world.grip.placeTwoHanded
 * (a Transform write), scene and level loads, the steps themselves. That call table is the
 * one choke point: while a world records, its bridge talks to the core through a copy of the
 * table whose mutating calls note their arguments (read from the memory they already pass)
 * after the core took them. Calls the core refused changed nothing and are not noted. Queries
 * pass through untouched, and recording makes no call into the core of its own that
 * allocates: a component write's previous value is read into the block the write already
 * passes (and the new value put back before the write).
 *
 * The log is JSON: one op per call, each op mapping to one public C call
 * (wasm/include/limber/input_log.h lists them), so `limber replay SCENE LOG` replays it
 * natively. Component writes are stored as the fields that changed (against the defaults
 * for insert, the value before for set), consecutive equal steps as one op with a count. */
import { badArgument, describe } from './args.js';
import type { Entity } from './components.js';
import { LimberError } from './errors.js';
import { type ComponentInfo, decodeComponent, type FieldValue, type NameTable } from './schema.js';
import { decodeUtf8, type Heap, type LimberExports } from './wasm.js';
import type { JointTransform, NativeContext, Scene, World } from './world.js';

export const INPUT_LOG_FORMAT = 'limber-input-log';
export const INPUT_LOG_VERSION = 1;

/** A float of the log: negative zero is written '-0' (JSON.stringify drops its sign, and a
 * sign of zero can reach the bone hash). */
export type LogNumber = number | '-0';
/** A component field in a log: numbers (or '-0'), booleans, strings (enum, name), handles,
 * vectors. */
export type LogField = LogNumber | boolean | string | LogNumber[];

/** One recorded call; each maps to one public C call (limber/input_log.h). Entities and
 * asset handles are the numbers the live session had: a replay on a world set up the same
 * way gets the same ones (and checks it). */
export type InputOp =
  | ['step', LogNumber, number]
  | ['sceneStep', number, LogNumber, number]
  | ['spawn', Entity]
  | ['despawn', Entity]
  | ['insert' | 'set', Entity, string, Record<string, LogField>]
  | ['remove', Entity, string]
  | ['float', Entity, string, LogNumber]
  | ['bool' | 'trigger', Entity, string, boolean]
  | ['damp', Entity, string, LogNumber, LogNumber]
  | ['move', Entity, LogNumber, LogNumber, LogNumber]
  | ['vault', Entity]
  | ['pose', Entity, LogNumber[]]
  | ['fingerPose' | 'gripPose', string, string]
  | ['controller', number, string, string, number]
  | ['humanoid', LogNumber, number, number]
  | ['mesh', LogNumber[], number[], number]
  | ['navmesh', string, LogNumber[], number[], number[], number[], number]
  | ['navmeshJson', string, string, number]
  | ['scene', string, Record<string, string>]
  | ['sceneUnload', number];

/** What world.stopRecording() returns: plain JSON (JSON.stringify / JSON.parse keep it). */
export interface InputLog {
  format: typeof INPUT_LOG_FORMAT;
  version: typeof INPUT_LOG_VERSION;
  /** where the world was at world.record(): a replay starts from a world at the same place */
  start: { steps: number; hash: string };
  /** where it was at stopRecording(): the hash a faithful replay ends with */
  end: { steps: number; hash: string };
  ops: InputOp[];
}

export interface ReplayOptions {
  /** Called after each step of the log (1, 2, ...), e.g. to compare hashes step by step. */
  onStep?: (step: number, world: World) => void;
}

/** @internal What a recorder reads from its world. */
export interface RecorderContext {
  raw: LimberExports;
  heap: Heap;
  schema: readonly ComponentInfo[];
  names: NameTable;
  xf: NativeContext['xf'];
  /** the index the next loaded scene gets (its bridge serial - 1) */
  nextSceneIndex(): number;
  /** live scenes at record(): core pointer and index */
  scenes(): [number, number][];
}


function num(x: number): LogNumber {
  return Object.is(x, -0) ? '-0' : x;
}

function unNum(x: LogNumber): number {
  return x === '-0' ? -0 : x;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
  return Object.is(a, b);
}

function toBase64(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return btoa(s);
}

function fromBase64(s: string, field: string): Uint8Array {
  let bin: string;
  try {
    bin = atob(s);
  } catch {
    throw badArgument('replay', field, 'must be base64 text', 'LB_ERR_PARSE');
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Records the calls of one world (see the file comment). */
export class Recorder {
  readonly ops: InputOp[] = [];
  readonly start: { steps: number; hash: string };
  /** The call table the world uses while recording. */
  readonly exports: LimberExports;
  private readonly sceneIndex = new Map<number, number>();

  constructor(private readonly ctx: RecorderContext, start: { steps: number; hash: string }) {
    this.start = start;
    for (const [ptr, index] of ctx.scenes()) this.sceneIndex.set(ptr, index);
    this.exports = this.wrap();
  }

  finish(end: { steps: number; hash: string }): InputLog {
    return { format: INPUT_LOG_FORMAT, version: INPUT_LOG_VERSION, start: this.start, end, ops: this.ops };
  }

  private step(scene: number, dt: number): void {
    const last = this.ops[this.ops.length - 1];
    const d = num(Math.fround(dt));
    if (scene < 0 && last?.[0] === 'step' && Object.is(last[1], d)) last[2]++;
    else if (scene >= 0 && last?.[0] === 'sceneStep' && last[1] === scene && Object.is(last[2], d)) last[3]++;
    else this.ops.push(scene < 0 ? ['step', d, 1] : ['sceneStep', scene, d, 1]);
  }

  /** The writable fields of `value` that differ from `base`. */
  private diff(info: ComponentInfo, value: Uint8Array, base: Uint8Array): Record<string, LogField> {
    const a = decodeComponent(info, value, this.ctx.names);
    const b = decodeComponent(info, base, this.ctx.names);
    const out: Record<string, LogField> = {};
    for (const f of info.fields) {
      if (f.readonly || sameValue(a[f.name], b[f.name])) continue;
      const v: FieldValue = a[f.name]!;
      out[f.name] = Array.isArray(v) ? v.map(num) : typeof v === 'number' ? num(v) : v;
    }
    return out;
  }

  private floats(p: number, n: number): LogNumber[] {
    return Array.from(new Float32Array(this.ctx.heap.ex.memory.buffer, p, n), num);
  }

  private text(p: number, len: number): string {
    return decodeUtf8(this.ctx.heap.u8.subarray(p, p + len));
  }

  private refuse(what: string): never {
    throw new LimberError('LB_ERR_INVALID_ARGUMENT', `LB_ERR_INVALID_ARGUMENT: record: ${what} cannot be recorded (an input log holds game inputs and JSON assets); do it before world.record() or after world.stopRecording()`);
  }

  /** Notes an op when the core took the call (result 0). */
  private readonly noted = (r: number, op: () => InputOp): number => {
    if (r === 0) this.ops.push(op());
    return r;
  };

  /** A copy of the table of core calls (the instance's exports object is frozen) whose
   * world-changing calls note their arguments as ops after the core took them. */
  private wrap(): LimberExports {
    const ex = { ...this.ctx.raw } as LimberExports;
    this.wrapEntities(ex);
    this.wrapInputs(ex);
    this.wrapAssets(ex);
    this.wrapScenes(ex);
    return ex;
  }

  /** Steps, spawns, despawns and component writes (the changed fields). */
  private wrapEntities(ex: LimberExports): void {
    const { raw, heap, schema } = this.ctx;
    const u32 = (p: number) => heap.u32[p >> 2]!;
    const ok = this.noted;
    ex.lbw_step = (w, dt) => {
      const r = raw.lbw_step(w, dt);
      if (r === 0) this.step(-1, dt);
      return r;
    };
    ex.lbw_scene_step = (w, s, dt) => {
      const r = raw.lbw_scene_step(w, s, dt);
      if (r === 0) this.step(this.sceneIndex.get(s) ?? -1, dt);
      return r;
    };
    ex.lbw_spawn = (w, out) => ok(raw.lbw_spawn(w, out), () => ['spawn', u32(out)]);
    ex.lbw_despawn = (w, e) => ok(raw.lbw_despawn(w, e), () => ['despawn', e >>> 0]);
    ex.lbw_insert = (w, e, t, d) => {
      const info = schema[t];
      const value = info ? heap.u8.slice(d, d + info.size) : null;
      return ok(raw.lbw_insert(w, e, t, d), () => ['insert', e >>> 0, info!.name, this.diff(info!, value!, info!.defaults)]);
    };
    ex.lbw_set = (w, e, t, d) => {
      const info = schema[t];
      if (!info) return raw.lbw_set(w, e, t, d);
      // The value before, read into the caller's block and the new one put back: no
      // allocation in the core.
      const next = heap.u8.slice(d, d + info.size);
      const before = raw.lbw_get(w, e, t, d) === 0 ? heap.u8.slice(d, d + info.size) : null;
      heap.block(d, info.size).set(next);
      return ok(raw.lbw_set(w, e, t, d), () => ['set', e >>> 0, info.name, before ? this.diff(info, next, before) : this.diff(info, next, info.defaults)]);
    };
    ex.lbw_remove = (w, e, t) => ok(raw.lbw_remove(w, e, t), () => ['remove', e >>> 0, schema[t]?.name ?? String(t)]);
  }

  /** Animator parameters, moves, vault requests and animation poses. */
  private wrapInputs(ex: LimberExports): void {
    const { raw, heap } = this.ctx;
    const name = (p: number) => heap.cstring(p);
    const ok = this.noted;
    ex.lbw_set_animator_param = (w, e, n, kind, value) =>
      ok(raw.lbw_set_animator_param(w, e, n, kind, value), () => (kind === 0 ? ['float', e >>> 0, name(n), num(Math.fround(value))] : [kind === 1 ? 'bool' : 'trigger', e >>> 0, name(n), value !== 0]));
    ex.lbw_set_animator_float_damped = (w, e, n, value, damp) =>
      ok(raw.lbw_set_animator_float_damped(w, e, n, value, damp), () => ['damp', e >>> 0, name(n), num(Math.fround(value)), num(Math.fround(damp))]);
    ex.lbw_controller_move = (w, e, p) => {
      const d = this.floats(p, 3);
      return ok(raw.lbw_controller_move(w, e, p), () => ['move', e >>> 0, d[0]!, d[1]!, d[2]!]);
    };
    ex.lbw_vault_request = (w, e) => ok(raw.lbw_vault_request(w, e), () => ['vault', e >>> 0]);
    ex.lbw_rig_set_animation_pose = (w, e, p, n) => {
      const { size, t, r, s } = this.ctx.xf;
      const flat: LogNumber[] = [];
      for (let j = 0; j < n; j++) flat.push(...this.floats(p + j * size + t, 3), ...this.floats(p + j * size + r, 4), ...this.floats(p + j * size + s, 3));
      return ok(raw.lbw_rig_set_animation_pose(w, e, p, n), () => ['pose', e >>> 0, flat]);
    };
  }

  /** Poses, controllers, humanoids, meshes and navmeshes added. */
  private wrapAssets(ex: LimberExports): void {
    const { raw, heap } = this.ctx;
    const u32 = (p: number) => heap.u32[p >> 2]!;
    const name = (p: number) => heap.cstring(p);
    const ok = this.noted;
    ex.lbw_register_finger_pose = (w, n, j, len) => ok(raw.lbw_register_finger_pose(w, n, j, len), () => ['fingerPose', name(n), this.text(j, len)]);
    ex.lbw_register_grip_pose = (w, n, j, len) => ok(raw.lbw_register_grip_pose(w, n, j, len), () => ['gripPose', name(n), this.text(j, len)]);
    ex.lbw_add_controller_json = (w, sk, n, j, len, out) =>
      ok(raw.lbw_add_controller_json(w, sk, n, j, len, out), () => ['controller', sk >>> 0, name(n), this.text(j, len), u32(out)]);
    ex.lbw_add_humanoid = (w, height, naming, out) => ok(raw.lbw_add_humanoid(w, height, naming, out), () => ['humanoid', num(Math.fround(height)), naming, u32(out)]);
    ex.lbw_add_mesh = (w, pos, vc, idx, ic, out) =>
      ok(raw.lbw_add_mesh(w, pos, vc, idx, ic, out), () => ['mesh', this.floats(pos, 3 * vc), Array.from(new Uint32Array(heap.ex.memory.buffer, idx, ic)), u32(out)]);
    ex.lbw_add_navmesh = (w, n, verts, vc, counts, idx, nei, pc, out) =>
      ok(raw.lbw_add_navmesh(w, n, verts, vc, counts, idx, nei, pc, out), () => {
        const c = Array.from(heap.u8.subarray(counts, counts + pc));
        const k = c.reduce((a, b) => a + b, 0);
        const buf = heap.ex.memory.buffer;
        return ['navmesh', name(n), this.floats(verts, 3 * vc), c, Array.from(new Uint32Array(buf, idx, k)), Array.from(new Int32Array(buf, nei, k)), u32(out)];
      });
    ex.lbw_add_navmesh_json = (w, n, j, len, out) => ok(raw.lbw_add_navmesh_json(w, n, j, len, out), () => ['navmeshJson', name(n), this.text(j, len), u32(out)]);
  }

  /** Scene loads (with their files) and unloads; calls a log cannot hold are refused. */
  private wrapScenes(ex: LimberExports): void {
    const { raw, heap } = this.ctx;
    const ops = this.ops;
    const u32 = (p: number) => heap.u32[p >> 2]!;
    const name = (p: number) => heap.cstring(p);
    ex.lbw_scene_load = (w, j, len) => this.sceneLoaded(raw.lbw_scene_load(w, j, len), this.text(j, len), {});
    ex.lbw_scene_load_files = (w, j, len, files, count) => {
      const table: Record<string, string> = {};
      for (let i = 0; i < count; i++) {
        const [p, b, n] = [u32(files + 12 * i), u32(files + 12 * i + 4), u32(files + 12 * i + 8)];
        table[name(p)] = toBase64(heap.u8.subarray(b, b + n));
      }
      return this.sceneLoaded(raw.lbw_scene_load_files(w, j, len, files, count), this.text(j, len), table);
    };
    ex.lbw_scene_unload = (w, s) => {
      const index = this.sceneIndex.get(s);
      raw.lbw_scene_unload(w, s);
      if (index !== undefined) {
        this.sceneIndex.delete(s);
        ops.push(['sceneUnload', index]);
      }
    };
    ex.lbw_scene_destroy = () => this.refuse('freeing a scene object');
    ex.lbw_gltf_add_asset = () => this.refuse('rig.load (a glTF file)');
    ex.lbw_generations_reserve = () => this.refuse('restore');
    ex.lbw_asset_counts_reserve = () => this.refuse('restore');
  }

  private sceneLoaded(ptr: number, text: string, files: Record<string, string>): number {
    if (ptr) {
      this.sceneIndex.set(ptr, this.ctx.nextSceneIndex());
      this.ops.push(['scene', text, files]);
    }
    return ptr;
  }
}

/** How every export of the core is treated while a world records: 'recorded' (it changes
 * the world: noted in the log), 'refused' (it cannot be recorded: an error while recording),
 * or 'query' (it changes nothing a replay needs: reads, the allocator, interning a name,
 * which a replayed write interns again). A test checks every export of limber.wasm is here,
 * so a new call cannot slip past the recorder. */
export const EXPORT_ROLES: Readonly<Record<string, 'recorded' | 'refused' | 'query'>> = Object.freeze({
  ...Object.fromEntries(
    ['lbw_step', 'lbw_scene_step', 'lbw_spawn', 'lbw_despawn', 'lbw_insert', 'lbw_set', 'lbw_remove', 'lbw_set_animator_param', 'lbw_set_animator_float_damped', 'lbw_controller_move', 'lbw_vault_request', 'lbw_rig_set_animation_pose', 'lbw_register_finger_pose', 'lbw_register_grip_pose', 'lbw_add_controller_json', 'lbw_add_humanoid', 'lbw_add_mesh', 'lbw_add_navmesh', 'lbw_add_navmesh_json', 'lbw_scene_load', 'lbw_scene_load_files', 'lbw_scene_unload'].map((k) => [k, 'recorded' as const]),
  ),
  ...Object.fromEntries(['lbw_scene_destroy', 'lbw_gltf_add_asset', 'lbw_generations_reserve', 'lbw_asset_counts_reserve'].map((k) => [k, 'refused' as const])),
  ...Object.fromEntries(
    [
      'lbw_alloc', 'lbw_free', 'lbw_result_name', 'lbw_world_create', 'lbw_world_create_threads', 'lbw_world_threads', 'lbw_world_destroy', 'lbw_last_error', 'lbw_alive', 'lbw_entity_count', 'lbw_generations_unused', 'lbw_asset_counts', 'lbw_get',
      'lbw_has', 'lbw_component_from_json', 'lbw_intern', 'lbw_name_text', 'lbw_input_owner', 'lbw_step_count', 'lbw_hash', 'lbw_entity_transform', 'lbw_transform_layout', 'lbw_component_count',
      'lbw_component_name', 'lbw_component_size', 'lbw_component_defaults', 'lbw_field_count', 'lbw_field', 'lbw_joint_count', 'lbw_joint_name', 'lbw_joint_parent', 'lbw_skeleton_root_parent',
      'lbw_find_joint', 'lbw_rig_model_pose', 'lbw_rig_local_pose', 'lbw_rig_model_matrices', 'lbw_scene_entity_count', 'lbw_scene_entity_name', 'lbw_scene_entity_at', 'lbw_scene_files',
      'lbw_get_animator_damped', 'lbw_get_animator_param', 'lbw_root_motion', 'lbw_animator_status', 'lbw_controller_param_count', 'lbw_controller_param_name', 'lbw_controller_param_type',
      'lbw_controller_param_default', 'lbw_controller_state_count', 'lbw_controller_state_name', 'lbw_controller_state_blend', 'lbw_controller_name', 'lbw_mesh_data', 'lbw_mesh_triangle_count',
      'lbw_closest_point', 'lbw_raycast', 'lbw_sphere_cast', 'lbw_capsule_cast', 'lbw_overlap', 'lbw_gltf_import', 'lbw_gltf_free', 'lbw_gltf_joint_count', 'lbw_gltf_joint_name',
      'lbw_gltf_joint_parent', 'lbw_gltf_joint_node', 'lbw_gltf_joint_rest', 'lbw_gltf_root_parent', 'lbw_gltf_skin_index', 'lbw_gltf_skin_joint_count', 'lbw_gltf_skin_joint',
      'lbw_gltf_inverse_bind', 'lbw_clip_count', 'lbw_clip_name', 'lbw_clip_duration', 'lbw_clip_reduction', 'lbw_clip_skeleton', 'lbw_find_clip', 'lbw_clip_sample', 'lbw_skeleton_rest',
      'lbw_skeleton_skin_joint', 'lbw_skeleton_skin_joint_count', 'lbw_skeleton_joint_end',
      'lbw_find_hand', 'lbw_find_hand_report', 'lbw_capture_finger_pose', 'lbw_grip_hand_status', 'lbw_grip_anchor', 'lbw_grip_hand_info', 'lbw_grip_hand_report', 'lbw_grip_pose_json',
      'lbw_navmesh_find', 'lbw_navmesh_info', 'lbw_nav_avoidance', 'lbw_nav_nearest', 'lbw_nav_find_path', 'lbw_nav_move_along_surface', 'lbw_nav_raycast', 'lbw_vault_casts',
    ].map((k) => [k, 'query' as const]),
  ),
});

/* ---- replay ------------------------------------------------------------------------------ */

/** Item kinds of each op after its name: n a LogNumber, u a whole number in [0, 2^32), s a
 * string, b a boolean, o an object, N an array of LogNumbers, U an array of whole numbers,
 * I an array of whole numbers that may be -1. */
const OP_ITEMS: Readonly<Record<string, string>> = {
  step: 'nu', sceneStep: 'unu', spawn: 'u', despawn: 'u', insert: 'uso', set: 'uso', remove: 'us', float: 'usn', bool: 'usb', trigger: 'usb', damp: 'usnn',
  move: 'unnn', vault: 'u', pose: 'uN', fingerPose: 'ss', gripPose: 'ss', controller: 'ussu', humanoid: 'nuu', mesh: 'NUu', navmesh: 'sNUUIu', navmeshJson: 'ssu', scene: 'so', sceneUnload: 'u',
};

const isU32 = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0 && x <= 0xffffffff;
const isNum = (x: unknown): x is LogNumber => x === '-0' || (typeof x === 'number' && Number.isFinite(x));
const ITEM_CHECK: Record<string, [(x: unknown) => boolean, string]> = {
  n: [isNum, 'a finite number (or "-0")'],
  u: [isU32, 'a whole number in [0, 2^32)'],
  s: [(x) => typeof x === 'string', 'a string'],
  b: [(x) => typeof x === 'boolean', 'a boolean'],
  o: [(x) => x !== null && typeof x === 'object' && !Array.isArray(x), 'an object'],
  N: [(x) => Array.isArray(x) && x.every(isNum), 'an array of numbers'],
  U: [(x) => Array.isArray(x) && x.every(isU32), 'an array of whole numbers'],
  I: [(x) => Array.isArray(x) && x.every((y) => y === -1 || isU32(y)), 'an array of whole numbers or -1'],
};

/** The log's shape, checked in full before anything is applied. */
function checkLog(log: unknown): asserts log is InputLog {
  const fn = 'replay';
  if (log === null || typeof log !== 'object' || Array.isArray(log)) throw badArgument(fn, 'log', `must be an input log (world.stopRecording()), got ${describe(log)}`, 'LB_ERR_PARSE');
  const l = log as Partial<InputLog>;
  if (l.format !== INPUT_LOG_FORMAT) throw badArgument(fn, 'log.format', `must be "${INPUT_LOG_FORMAT}", got ${describe(l.format)}`, 'LB_ERR_PARSE');
  if (l.version !== INPUT_LOG_VERSION) throw badArgument(fn, 'log.version', `is ${describe(l.version)}; this build reads version ${INPUT_LOG_VERSION}`, 'LB_ERR_PARSE');
  const start = l.start as { steps?: unknown; hash?: unknown } | undefined;
  if (!start || !Number.isInteger(start.steps) || typeof start.hash !== 'string') throw badArgument(fn, 'log.start', 'must be { steps, hash }', 'LB_ERR_PARSE');
  if (!Array.isArray(l.ops)) throw badArgument(fn, 'log.ops', `must be an array of ops, got ${describe(l.ops)}`, 'LB_ERR_PARSE');
  l.ops.forEach((op: unknown, i) => {
    const at = `log.ops[${i}]`;
    if (!Array.isArray(op) || typeof op[0] !== 'string') throw badArgument(fn, at, `must be an array [op, ...], got ${describe(op)}`, 'LB_ERR_PARSE');
    const items = OP_ITEMS[op[0]];
    if (items === undefined || !Object.prototype.hasOwnProperty.call(OP_ITEMS, op[0])) throw badArgument(fn, `${at}[0]`, `= ${describe(op[0])} is not an op (${Object.keys(OP_ITEMS).join(', ')})`, 'LB_ERR_PARSE');
    if (op.length !== items.length + 1) throw badArgument(fn, at, `('${op[0]}') must have ${items.length + 1} items, has ${op.length}`, 'LB_ERR_PARSE');
    [...items].forEach((k, j) => {
      const [ok, want] = ITEM_CHECK[k]!;
      if (!ok(op[j + 1])) throw badArgument(fn, `${at}[${j + 1}]`, `('${op[0]}') must be ${want}, got ${describe(op[j + 1])}`, 'LB_ERR_PARSE');
    });
  });
}

/** A FIELDS object of a log as component input: '-0' in number fields back to -0. */
function fieldsIn(info: ComponentInfo | undefined, fields: Record<string, LogField>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    const numeric = info?.byName.get(k)?.type;
    // F32 = 0, Vec3 = 4, Quat = 5 (schema.ts FieldType)
    const isNumber = numeric === 0 || numeric === 4 || numeric === 5;
    out[k] = isNumber && Array.isArray(v) ? v.map((x) => unNum(x)) : isNumber && v === '-0' ? -0 : v;
  }
  return out;
}

/** What replay needs of the world beyond its public calls. */
export interface ReplayContext {
  world: World;
  schema: readonly ComponentInfo[];
  /** the scene with this index (bridge serial - 1), or null */
  scene(index: number): Scene | null;
}

function sameHandle(got: number, want: number): void {
  if (got !== want) {
    throw new LimberError('LB_ERR_INVALID_ARGUMENT', `LB_ERR_INVALID_ARGUMENT: got handle ${got} where the recording got ${want}: the world was not set up as the recorded one`);
  }
}

/** Applies one op through the world's calls; returns the steps it made. */
function applyOp(ctx: ReplayContext, op: InputOp, onStep: (n: number) => void): void {
  const { world } = ctx;
  const withName = (n: string, fn: (c: NativeContext, p: number) => number, entity?: number) => world.native((c) => c.heap.withString(n, 'replay', (p) => c.check(fn(c, p), { entity, fn: `replay ${op[0]}` })));
  const info = (name: string) => ctx.schema.find((c) => c.name === name);
  switch (op[0]) {
    case 'step':
      for (let i = 0; i < op[2]; i++) {
        world.step(unNum(op[1]));
        onStep(1);
      }
      return;
    case 'sceneStep': {
      const scene = ctx.scene(op[1]);
      if (!scene) throw new LimberError('LB_ERR_INVALID_ARGUMENT', `LB_ERR_INVALID_ARGUMENT: scene ${op[1]} is not loaded (a replay's setup loads the recorded world's scenes in the same order)`);
      for (let i = 0; i < op[3]; i++) {
        scene.step(unNum(op[2]));
        onStep(1);
      }
      return;
    }
    case 'spawn':
      return sameHandle(world.spawn(), op[1]);
    case 'despawn':
      return world.despawn(op[1]);
    case 'insert':
      return world.insert(op[1], { name: op[2] }, fieldsIn(info(op[2]), op[3]) as never);
    case 'set': {
      const fields = fieldsIn(info(op[2]), op[3]);
      return world.update(op[1], { name: op[2] }, () => fields as never);
    }
    case 'remove':
      return world.remove(op[1], { name: op[2] });
    case 'float':
    case 'bool':
    case 'trigger': {
      const kind = op[0] === 'float' ? 0 : op[0] === 'bool' ? 1 : 2;
      const v = typeof op[3] === 'boolean' ? Number(op[3]) : unNum(op[3]);
      return withName(op[2], (c, n) => c.ex.lbw_set_animator_param(c.w, op[1], n, kind, v), op[1]);
    }
    case 'damp':
      return withName(op[2], (c, n) => c.ex.lbw_set_animator_float_damped(c.w, op[1], n, unNum(op[3]), unNum(op[4])), op[1]);
    case 'move':
      return world.controller.move(op[1], [unNum(op[2]), unNum(op[3]), unNum(op[4])]);
    case 'vault':
      return world.vault.request(op[1]);
    case 'pose': {
      const f = op[2].map(unNum);
      if (f.length % 10 !== 0) throw new LimberError('LB_ERR_PARSE', 'LB_ERR_PARSE: a pose holds 10 numbers per joint');
      const joints: JointTransform[] = [];
      for (let j = 0; j < f.length; j += 10) joints.push({ t: [f[j]!, f[j + 1]!, f[j + 2]!], r: [f[j + 3]!, f[j + 4]!, f[j + 5]!, f[j + 6]!], s: [f[j + 7]!, f[j + 8]!, f[j + 9]!] });
      return world.setAnimationPose(op[1], joints);
    }
    case 'fingerPose':
    case 'gripPose': {
      const [, n, json] = op;
      return world.native((c) =>
        c.heap.withStrings([n, json], 'replay', (a, b) => c.check(op[0] === 'fingerPose' ? c.ex.lbw_register_finger_pose(c.w, a.ptr, b.ptr, b.len) : c.ex.lbw_register_grip_pose(c.w, a.ptr, b.ptr, b.len), { fn: `replay ${op[0]}` })),
      );
    }
    case 'controller':
      return sameHandle(world.anim.addController(op[1], op[3], op[2]), op[4]);
    case 'humanoid': {
      const h = world.native((c) => c.heap.scratch(4, (p) => (c.check(c.ex.lbw_add_humanoid(c.w, unNum(op[1]), op[2], p), { fn: 'replay humanoid' }), c.heap.u32[p >> 2]!)));
      return sameHandle(h, op[3]);
    }
    case 'mesh':
      return sameHandle(world.collide.addMesh(op[1].map(unNum), op[2]), op[3]);
    case 'navmesh':
      return sameHandle(addNavmeshArrays(world, op), op[6]);
    case 'navmeshJson':
      return sameHandle(world.nav.addMesh(op[2], op[1]), op[3]);
    case 'scene': {
      const files = Object.fromEntries(Object.entries(op[2]).map(([p, b]) => [p, fromBase64(String(b), `log scene file ${p}`)]));
      world.loadScene(op[1], { files });
      return;
    }
    case 'sceneUnload': {
      const scene = ctx.scene(op[1]);
      if (!scene) throw new LimberError('LB_ERR_INVALID_ARGUMENT', `LB_ERR_INVALID_ARGUMENT: scene ${op[1]} is not loaded`);
      return scene.destroy();
    }
  }
}

function addNavmeshArrays(world: World, op: Extract<InputOp, ['navmesh', ...unknown[]]>): number {
  const [, name, vertices, counts, indices, neighbours] = op;
  if (counts.reduce((a, b) => a + b, 0) !== indices.length || neighbours.length !== indices.length || vertices.length % 3 !== 0 || counts.some((c) => c > 255)) {
    throw new LimberError('LB_ERR_PARSE', 'LB_ERR_PARSE: a navmesh op holds one vertex index and one neighbour per polygon edge');
  }
  return world.native(({ ex, heap, w, check }) => {
    const held: number[] = [];
    const put = (bytes: Uint8Array) => {
      const p = heap.bytes(bytes, 'replay');
      held.push(p);
      return p;
    };
    try {
      const n = put(new TextEncoder().encode(name));
      const pv = put(new Uint8Array(Float32Array.from(vertices.map(unNum)).buffer));
      const pc = put(Uint8Array.from(counts));
      const pi = put(new Uint8Array(Uint32Array.from(indices).buffer));
      const pn = put(new Uint8Array(Int32Array.from(neighbours).buffer));
      return heap.scratch(4, (p) => {
        check(ex.lbw_add_navmesh(w, n, pv, vertices.length / 3, pc, pi, pn, counts.length, p), { fn: 'replay navmesh' });
        return heap.u32[p >> 2]!;
      });
    } finally {
      for (const p of held) ex.lbw_free(p);
    }
  });
}

/** world.replay: the log checked in full, the world checked against its start, then every op
 * applied; on an error the world goes back to where it was (a snapshot) and the error names
 * the op. Returns the hash after the last op. */
export function replayLog(ctx: ReplayContext, log: unknown, options: ReplayOptions = {}): string {
  const { world } = ctx;
  const fn = 'replay';
  checkLog(log);
  if (options === null || typeof options !== 'object') throw badArgument(fn, 'options', `must be an object, got ${describe(options)}`);
  const { onStep } = options;
  if (onStep !== undefined && typeof onStep !== 'function') throw badArgument(fn, 'options.onStep', `must be a function, got ${describe(onStep)}`);
  const here = { steps: world.stepCount, hash: world.hash() };
  if (here.steps !== log.start.steps || here.hash !== log.start.hash) {
    throw badArgument(fn, 'log.start', `is step ${log.start.steps} with hash ${log.start.hash}, but this world is at step ${here.steps} with hash ${here.hash}: set it up as the recorded world was at world.record() (the same scenes and calls, in a new world)`);
  }
  const snapshot = world.snapshot();
  let steps = 0;
  let i = 0;
  try {
    for (; i < log.ops.length; i++) {
      applyOp(ctx, log.ops[i]!, () => {
        steps++;
        onStep?.(steps, world);
      });
    }
  } catch (err) {
    world.restore(snapshot);
    const op = log.ops[i];
    const where = op ? `log.ops[${i}] ('${op[0]}'${op[0] !== 'step' && typeof op[1] === 'number' && op[0] !== 'sceneStep' ? ` ${op[1]}` : ''})` : 'onStep';
    if (err instanceof LimberError) {
      const body = err.message.replace(/^[A-Z_]+: /, '');
      throw new LimberError(err.code, `${err.code}: replay: ${where}: ${body} (the world is back where it was before replay)`, { entity: err.entity, component: err.component, field: err.field });
    }
    throw err;
  }
  return world.hash();
}
