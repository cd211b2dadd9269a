/** Loading the standalone limber.wasm (no Emscripten JS glue) in Node or a browser. This
 * file imports nothing from Node: the Node entry (index.ts) passes a reader for files. */
import { LimberError } from './errors.js';

const utf8 = new TextDecoder();

/** UTF-8 text of bytes in wasm memory. A browser's TextDecoder refuses a view of shared
 * memory (limber-mt.wasm's), so those are copied first; the one place that decodes memory. */
export function decodeUtf8(bytes: Uint8Array): string {
  return utf8.decode(typeof SharedArrayBuffer !== 'undefined' && bytes.buffer instanceof SharedArrayBuffer ? bytes.slice() : bytes);
}

/** The raw exports of limber.wasm; pointers and handles are 32-bit integers. */
export interface LimberExports {
  memory: WebAssembly.Memory;
  _initialize?: () => void;
  lbw_alloc(size: number): number;
  lbw_free(ptr: number): void;
  lbw_result_name(code: number): number;
  lbw_world_create(): number;
  lbw_world_create_threads(threads: number): number;
  lbw_world_threads(w: number): number;
  lbw_world_destroy(w: number): void;
  lbw_last_error(w: number): number;
  lbw_spawn(w: number, out: number): number;
  lbw_despawn(w: number, e: number): number;
  lbw_alive(w: number, e: number): number;
  lbw_entity_count(w: number): number;
  lbw_generations_unused(w: number, out: number, cap: number): number;
  lbw_generations_reserve(w: number, unused: number, count: number): number;
  lbw_asset_counts(w: number, out: number, cap: number): number;
  lbw_asset_counts_reserve(w: number, counts: number, n: number): number;
  lbw_insert(w: number, e: number, type: number, data: number): number;
  lbw_set(w: number, e: number, type: number, data: number): number;
  lbw_get(w: number, e: number, type: number, out: number): number;
  lbw_remove(w: number, e: number, type: number): number;
  lbw_has(w: number, e: number, type: number): number;
  lbw_component_from_json(w: number, scene: number, type: number, json: number, len: number, inout: number): number;
  lbw_intern(w: number, text: number, out: number): number;
  lbw_find_hand_report(w: number, e: number, side: number, handPath: number, buf: number, cap: number): number;
  lbw_grip_hand_report(w: number, e: number, side: number, buf: number, cap: number): number;
  lbw_name_text(w: number, id: number): number;
  lbw_step(w: number, dt: number): number;
  lbw_step_count(w: number): number;
  lbw_hash(w: number, out: number): void;
  lbw_entity_transform(w: number, e: number, out: number): number;
  lbw_transform_layout(out: number): void;
  lbw_component_count(): number;
  lbw_component_name(t: number): number;
  lbw_component_size(t: number): number;
  lbw_component_defaults(t: number, out: number): void;
  lbw_field_count(t: number): number;
  lbw_field(t: number, f: number): number;
  lbw_add_humanoid(w: number, height: number, naming: number, out: number): number;
  lbw_joint_count(w: number, asset: number): number;
  lbw_joint_name(w: number, asset: number, j: number): number;
  lbw_joint_parent(w: number, asset: number, j: number): number;
  lbw_skeleton_root_parent(w: number, asset: number, out: number): number;
  lbw_skeleton_skin_joint(w: number, asset: number, i: number): number;
  lbw_skeleton_skin_joint_count(w: number, asset: number): number;
  lbw_skeleton_joint_end(w: number, asset: number, j: number, out: number): number;
  lbw_find_joint(w: number, asset: number, path: number): number;
  lbw_rig_model_pose(w: number, e: number): number;
  lbw_rig_local_pose(w: number, e: number): number;
  lbw_rig_model_matrices(w: number, e: number): number;
  lbw_rig_set_animation_pose(w: number, e: number, pose: number, count: number): number;
  lbw_find_hand(w: number, e: number, side: number, path: number, outJoints: number, outReport: number): number;
  lbw_capture_finger_pose(w: number, e: number, hand: number, buf: number, cap: number): number;
  lbw_register_finger_pose(w: number, name: number, json: number, len: number): number;
  lbw_grip_hand_status(w: number, e: number, side: number, out: number): number;
  lbw_grip_anchor(w: number, holder: number, role: number, out: number): number;
  lbw_grip_hand_info(w: number, e: number, side: number, outJoints: number, outReport: number): number;
  lbw_register_grip_pose(w: number, name: number, json: number, len: number): number;
  lbw_grip_pose_json(w: number, name: number, json: number, len: number, byJoint: number, buf: number, cap: number): number;
  lbw_scene_load(w: number, json: number, len: number): number;
  lbw_scene_destroy(w: number, s: number): void;
  lbw_scene_unload(w: number, s: number): void;
  lbw_scene_step(w: number, s: number, dt: number): number;
  lbw_scene_entity_count(s: number): number;
  lbw_scene_entity_name(s: number, i: number): number;
  lbw_scene_entity_at(s: number, i: number): number;
  lbw_gltf_import(data: number, size: number, buffers: number, bufferCount: number, skin: number, names: number, cubicTolerance: number, keyTolerance: number, skinDistance: number, out: number, msg: number): number;
  lbw_gltf_free(asset: number): void;
  lbw_clip_reduction(w: number, clip: number, out: number): number;
  lbw_gltf_add_asset(w: number, asset: number, out: number): number;
  lbw_gltf_joint_count(asset: number): number;
  lbw_gltf_joint_name(asset: number, j: number): number;
  lbw_gltf_joint_parent(asset: number, j: number): number;
  lbw_gltf_joint_node(asset: number, j: number): number;
  lbw_gltf_joint_rest(asset: number, j: number): number;
  lbw_gltf_root_parent(asset: number): number;
  lbw_gltf_skin_index(asset: number): number;
  lbw_gltf_skin_joint_count(asset: number): number;
  lbw_gltf_skin_joint(asset: number, i: number): number;
  lbw_gltf_inverse_bind(asset: number, i: number): number;
  lbw_clip_count(w: number): number;
  lbw_clip_name(w: number, clip: number): number;
  lbw_clip_duration(w: number, clip: number): number;
  lbw_clip_skeleton(w: number, clip: number): number;
  lbw_find_clip(w: number, skeleton: number, name: number): number;
  lbw_controller_move(w: number, e: number, delta: number): number;
  lbw_input_owner(w: number, e: number, input: number, param: number, out: number): number;
  lbw_vault_request(w: number, e: number): number;
  lbw_vault_casts(w: number, e: number, out: number, cap: number, count: number): number;
  lbw_clip_sample(w: number, clip: number, time: number, loop: number, out: number, count: number): number;
  lbw_skeleton_rest(w: number, asset: number): number;
  lbw_scene_load_files(w: number, json: number, len: number, files: number, count: number): number;
  lbw_scene_files(json: number, len: number, buf: number, cap: number): number;
  lbw_add_controller_json(w: number, skeleton: number, name: number, json: number, len: number, out: number): number;
  lbw_set_animator_param(w: number, e: number, name: number, kind: number, value: number): number;
  lbw_get_animator_param(w: number, e: number, name: number, out: number): number;
  lbw_set_animator_float_damped(w: number, e: number, name: number, value: number, damp: number): number;
  lbw_get_animator_damped(w: number, e: number, name: number, out: number): number;
  lbw_root_motion(w: number, e: number, out: number): number;
  lbw_animator_status(w: number, e: number, out: number): number;
  lbw_controller_name(w: number, c: number): number;
  lbw_controller_param_count(w: number, c: number): number;
  lbw_controller_param_name(w: number, c: number, i: number): number;
  lbw_controller_param_type(w: number, c: number, i: number): number;
  lbw_controller_param_default(w: number, c: number, i: number): number;
  lbw_controller_state_count(w: number, c: number): number;
  lbw_controller_state_name(w: number, c: number, i: number): number;
  lbw_controller_state_blend(w: number, c: number, i: number, out: number): number;
  lbw_add_mesh(w: number, positions: number, vertexCount: number, indices: number, indexCount: number, out: number): number;
  lbw_mesh_triangle_count(w: number, mesh: number): number;
  lbw_mesh_data(w: number, mesh: number, out: number): number;
  lbw_closest_point(w: number, input: number, maxDistance: number, layers: number, exclude: number, out: number): number;
  lbw_raycast(w: number, input: number, maxDistance: number, layers: number, exclude: number, out: number): number;
  lbw_sphere_cast(w: number, input: number, radius: number, maxDistance: number, layers: number, exclude: number, out: number): number;
  lbw_capsule_cast(w: number, input: number, radius: number, maxDistance: number, layers: number, exclude: number, out: number): number;
  lbw_overlap(w: number, kind: number, input: number, layers: number, exclude: number, out: number, cap: number, count: number): number;
  lbw_add_navmesh(w: number, name: number, vertices: number, vertexCount: number, counts: number, indices: number, neighbours: number, polygonCount: number, out: number): number;
  lbw_add_navmesh_json(w: number, name: number, json: number, len: number, out: number): number;
  lbw_navmesh_find(w: number, name: number): number;
  lbw_navmesh_info(w: number, mesh: number, out: number): number;
  lbw_nav_nearest(w: number, mesh: number, p: number, out: number): number;
  lbw_nav_avoidance(w: number, e: number, out: number): number;
  lbw_nav_find_path(w: number, mesh: number, start: number, goal: number, points: number, capacity: number, out: number): number;
  lbw_nav_move_along_surface(w: number, mesh: number, from: number, to: number, out: number): number;
  lbw_nav_raycast(w: number, mesh: number, from: number, to: number, out: number): number;
}

/** Where to get the module: a URL or path, raw bytes, a fetch `Response` (or a promise of
 * one), or a compiled module. */
export type WasmSource = string | URL | ArrayBuffer | Uint8Array | WebAssembly.Module | Response | Promise<Response>;

/** Reads the bytes behind a URL. The browser entry fetches; the Node entry also reads
 * `file:` URLs and plain paths from disk. */
export type WasmFetcher = (url: URL) => Promise<ArrayBuffer | Uint8Array>;

const MAGIC = [0x00, 0x61, 0x73, 0x6d];

function loadError(message: string): LimberError {
  return new LimberError('LB_ERR_WASM_LOAD', message);
}

function hex(b: Uint8Array): string {
  return Array.from(b.subarray(0, 4), (x) => x.toString(16).padStart(2, '0')).join(' ');
}

/** Throws unless `bytes` start with the WebAssembly magic word; `where` names the source
 * and `got` says what came instead (content type and status for a fetch). */
export function checkWasmBytes(bytes: ArrayBuffer | Uint8Array, where: string, got?: string): void {
  const b = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  if (b.length >= 4 && MAGIC.every((m, i) => b[i] === m)) return;
  const what = got ?? (b.length < 4 ? `${b.length} bytes` : `bytes ${hex(b)}, not a WebAssembly module`);
  throw loadError(`limber.wasm not found at ${where} (got ${what})`);
}

/** The bytes of a fetch response, checked: status, content type and magic word. A dev
 * server that answers an unknown path with its index.html (200 text/html) is caught here
 * with a message that says so, instead of WebAssembly.compile's "expected magic word". */
export async function responseBytes(res: Response, where = res.url || 'the given Response'): Promise<ArrayBuffer> {
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim() || 'no content type';
  if (!res.ok) throw loadError(`limber.wasm not found at ${where} (got ${type}, status ${res.status})`);
  const bytes = await res.arrayBuffer();
  const b = new Uint8Array(bytes);
  const isWasm = b.length >= 4 && MAGIC.every((m, i) => b[i] === m);
  if (!isWasm) {
    const what = type === 'application/wasm' || type === 'application/octet-stream' || type === 'no content type' ? `${type}, bytes ${hex(b)}` : type;
    throw loadError(`limber.wasm not found at ${where} (got ${what}, status ${res.status})`);
  }
  return bytes;
}

/** The browser's way to read a URL: fetch, then check what came back. */
export const fetchWasm: WasmFetcher = async (url) => {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (err) {
    throw loadError(`limber.wasm not found at ${url.href} (fetch failed: ${err instanceof Error ? err.message : String(err)})`);
  }
  return responseBytes(res, url.href);
};

const cache = new Map<string, Promise<WebAssembly.Module>>();

/** Compiles the module from any WasmSource; URLs are read with `read` and cached per URL
 * (a failed load is not cached, so a retry reads again). */
export async function compileLimber(src: WasmSource, read: WasmFetcher = fetchWasm, base?: string): Promise<WebAssembly.Module> {
  if (src instanceof WebAssembly.Module) return src;
  if (typeof src === 'string' || src instanceof URL) {
    let url: URL;
    try {
      url = typeof src === 'string' ? new URL(src, base ?? (typeof location !== 'undefined' ? location.href : undefined)) : src;
    } catch {
      throw loadError(`limber.wasm: cannot make a URL of ${JSON.stringify(String(src))}`);
    }
    const key = url.href;
    let p = cache.get(key);
    if (!p) {
      p = read(url).then((b) => {
        checkWasmBytes(b, key);
        return WebAssembly.compile(b as BufferSource);
      });
      cache.set(key, p);
      p.catch(() => cache.delete(key));
    }
    return p;
  }
  if (src instanceof ArrayBuffer || ArrayBuffer.isView(src)) {
    const b = src instanceof ArrayBuffer ? new Uint8Array(src) : new Uint8Array(src.buffer, src.byteOffset, src.byteLength);
    if (!(b.length >= 4 && MAGIC.every((m, i) => b[i] === m))) throw loadError(`limber.wasm: options.wasm bytes are not a WebAssembly module (${b.length < 4 ? `${b.length} bytes` : `they start ${hex(b)}`})`);
    return WebAssembly.compile(src as BufferSource);
  }
  // A Response or a promise of one (e.g. `fetch(url)`).
  const res = await src;
  if (typeof Response !== 'undefined' && res instanceof Response) return WebAssembly.compile(await responseBytes(res));
  throw loadError(`limber.wasm: options.wasm must be a URL, a path, bytes, a Response or a WebAssembly.Module, got ${Object.prototype.toString.call(res)}`);
}

export async function instantiateLimber(src: WasmSource, read?: WasmFetcher, base?: string): Promise<LimberExports> {
  return (await instantiateModule(await compileLimber(src, read, base))).ex;
}

/** The memory limber-mt.wasm imports: 16 MiB to start (its INITIAL_MEMORY), 2 GiB at most
 * (its --max-memory), shared with the workers' instances. */
const SHARED_MEMORY = { initial: 256, maximum: 32768, shared: true } as const;

/** The imports of an instance: the memory when the module imports one (limber-mt.wasm) and
 * the growth notice, which needs no action: views are re-created on every access. Any other
 * function import (none in the shipped modules; the benches' glue builds have more, which a
 * worker never calls) fails loudly if it is ever called. */
export function limberImports(module: WebAssembly.Module, memory?: WebAssembly.Memory): WebAssembly.Imports {
  const imports: Record<string, Record<string, WebAssembly.ImportValue>> = { env: { emscripten_notify_memory_growth: () => {} } };
  for (const imp of WebAssembly.Module.imports(module)) {
    const into = (imports[imp.module] ??= {});
    if (imp.kind === 'memory' && memory) into[imp.name] = memory;
    else if (imp.kind === 'function' && !(imp.name in into)) into[imp.name] = () => { throw new Error(`limber: import ${imp.module}.${imp.name} is not provided`); };
  }
  return imports;
}

/** A main instance of a compiled module, constructors run. A module that imports its memory
 * (limber-mt.wasm) gets a fresh shared one, added to the exports as `memory`. */
export async function instantiateModule(module: WebAssembly.Module): Promise<{ ex: LimberExports; memory: WebAssembly.Memory }> {
  const imported = WebAssembly.Module.imports(module).some((i) => i.kind === 'memory');
  const memory = imported ? new WebAssembly.Memory(SHARED_MEMORY) : undefined;
  const instance = await WebAssembly.instantiate(module, limberImports(module, memory));
  const ex = (memory ? Object.assign(Object.create(null), instance.exports, { memory }) : instance.exports) as unknown as LimberExports;
  ex._initialize?.();
  return { ex, memory: ex.memory };
}

/** The largest block the bridge asks the core's allocator for: wasm32 memory ends at 2 GiB
 * here (ALLOW_MEMORY_GROWTH without MAXIMUM_MEMORY), and lbw_alloc takes a 32-bit size. */
export const MAX_BLOCK = 0x7fff0000;

function outOfMemory(what: string, size: number, inUse: number): LimberError {
  return new LimberError('LB_ERR_OUT_OF_MEMORY', `LB_ERR_OUT_OF_MEMORY: ${what}: cannot allocate ${size} bytes in wasm memory (${inUse} bytes in use)`);
}

/** Helpers over the module's memory. Every allocation is checked (a failure throws a
 * LimberError LB_ERR_OUT_OF_MEMORY before anything is written) and every write goes
 * through a view of exactly the block it belongs to, so it can never reach past it. */
export class Heap {
  constructor(readonly ex: LimberExports) {}
  get u8(): Uint8Array { return new Uint8Array(this.ex.memory.buffer); }
  get u32(): Uint32Array { return new Uint32Array(this.ex.memory.buffer); }
  get f32(): Float32Array { return new Float32Array(this.ex.memory.buffer); }
  get dv(): DataView { return new DataView(this.ex.memory.buffer); }

  /** Bytes of wasm memory (it grows, never shrinks). */
  get size(): number { return this.ex.memory.buffer.byteLength; }

  /** NUL-terminated text at ptr (stops at the end of memory; '' for 0). */
  cstring(ptr: number): string {
    if (!ptr) return '';
    const u8 = this.u8;
    let end = ptr >>> 0;
    if (end >= u8.length) return '';
    while (end < u8.length && u8[end] !== 0) end++;
    return decodeUtf8(u8.subarray(ptr >>> 0, end));
  }

  /** A zeroed block of `size` bytes from the core's allocator; the caller frees it with
   * lbw_free. Throws LB_ERR_OUT_OF_MEMORY (naming `what`) when the size is not a valid
   * block size or the allocator returns 0. */
  alloc(size: number, what = 'the bridge'): number {
    if (!Number.isInteger(size) || size < 0 || size > MAX_BLOCK) throw outOfMemory(what, size, this.size);
    const p = this.ex.lbw_alloc(size) >>> 0;
    if (p === 0) throw outOfMemory(what, size, this.size);
    return p;
  }

  /** A byte view of exactly the block [ptr, ptr + size): writes cannot leave it. */
  block(ptr: number, size: number): Uint8Array {
    return new Uint8Array(this.ex.memory.buffer, ptr, size);
  }

  /** Copies bytes into a fresh allocation (NUL-terminated); caller frees. */
  bytes(data: Uint8Array, what = 'the bridge'): number {
    const p = this.alloc(data.length + 1, what);
    const b = this.block(p, data.length + 1);
    b.set(data, 0);
    b[data.length] = 0;
    return p;
  }

  string(s: string, what = 'the bridge'): { ptr: number; len: number } {
    const b = new TextEncoder().encode(s);
    return { ptr: this.bytes(b, what), len: b.length };
  }

  /** Runs fn with `text` as a NUL-terminated UTF-8 string in wasm memory (pointer and byte
   * length without the NUL), freed afterwards whatever fn does. `what` names the caller in an
   * out-of-memory error. */
  withString<T>(text: string, what: string, fn: (ptr: number, len: number) => T): T {
    const s = this.string(text, what);
    try {
      return fn(s.ptr, s.len);
    } finally {
      this.ex.lbw_free(s.ptr);
    }
  }

  /** withString for several strings at once: all are in memory while fn runs, all are freed
   * afterwards (also those already copied when a later one cannot be allocated). */
  withStrings<T>(texts: readonly string[], what: string, fn: (...strings: { ptr: number; len: number }[]) => T): T {
    const held: { ptr: number; len: number }[] = [];
    try {
      for (const t of texts) held.push(this.string(t, what));
      return fn(...held);
    } finally {
      for (const s of held) this.ex.lbw_free(s.ptr);
    }
  }

  /** Runs fn with a zeroed scratch allocation of `size` bytes (freed afterwards). */
  scratch<T>(size: number, fn: (ptr: number) => T, what = 'the bridge'): T {
    const p = this.alloc(size, what);
    try {
      return fn(p);
    } finally {
      this.ex.lbw_free(p);
    }
  }
}
