/** Collision queries of the built-in backend (wasm/include/limber/collide.h): mesh assets,
 * closest point, ray / sphere / capsule casts and overlaps against Collider components.
 * Metres; directions need not be unit length. */
import { badArgument, describe, handleArg, vecArg } from './args.js';
import { brand, type Entity, type HandleArg, type MeshHandle, type QuatLike, type Vec3, type Vec3Like } from './components.js';
import type { NativeContext, World } from './world.js';

/** Which colliders a query sees. */
export interface QueryOptions {
  /** layer bits: a collider is seen when (Collider.layer & layers) != 0; default all */
  layers?: number;
  /** an entity whose collider is not seen (e.g. the character casting); default none */
  exclude?: Entity;
}

export interface ClosestPointOptions extends QueryOptions {
  /** largest signed distance looked at, metres; default 1e5 (everything) */
  maxDistance?: number;
}

/** A cast's first contact, or a closest point. */
export interface CollideHit {
  entity: Entity;
  /** casts: distance moved (0 = overlapping at the start); closestPoint: signed distance,
   * negative inside a primitive (meshes are surfaces: >= 0) */
  distance: number;
  /** on the collider's surface */
  point: Vec3;
  /** unit, out of the collider toward the query (the depenetration direction) */
  normal: Vec3;
  /** mesh colliders: the triangle index; null otherwise */
  triangle: number | null;
}

const MAX_EXTENT = 1e5;
const HIT_BYTES = 36;
const IN_BYTES = 64;

function numberArg(v: unknown, fn: string, field: string): number {
  if (typeof v !== 'number') throw badArgument(fn, field, `must be a number, got ${describe(v)}`);
  return v;
}

function queryOptions(o: unknown, fn: string, extra: readonly string[] = []): { layers: number; exclude: number; rest: Record<string, unknown> } {
  if (o === undefined) return { layers: 0xffffffff, exclude: 0, rest: {} };
  if (o === null || typeof o !== 'object' || Array.isArray(o)) throw badArgument(fn, 'options', `must be an object, got ${describe(o)}`);
  const rec = o as Record<string, unknown>;
  for (const k of Object.keys(rec)) {
    if (k !== 'layers' && k !== 'exclude' && !extra.includes(k)) throw badArgument(fn, `options.${k}`, `is not an option (layers, exclude${extra.map((x) => `, ${x}`).join('')})`);
  }
  const layers = rec.layers === undefined ? 0xffffffff : rec.layers;
  if (typeof layers !== 'number' || !Number.isInteger(layers) || layers < 0 || layers > 0xffffffff) {
    throw badArgument(fn, 'options.layers', `must be a whole number in [0, 2^32), got ${describe(layers)}`);
  }
  const exclude = rec.exclude === undefined || rec.exclude === null ? 0 : handleArg(rec.exclude, fn, 'options.exclude');
  return { layers, exclude, rest: rec };
}

function readHit(ctx: NativeContext, p: number): CollideHit | null {
  const u = new Uint32Array(ctx.ex.memory.buffer, p, 9);
  const f = new Float32Array(ctx.ex.memory.buffer, p, 9);
  const i = new Int32Array(ctx.ex.memory.buffer, p, 9);
  if (u[0] === 0) return null;
  return { entity: u[0], distance: f[1], point: [f[2], f[3], f[4]], normal: [f[5], f[6], f[7]], triangle: i[8] >= 0 ? i[8] : null };
}

/** Runs one query with its float inputs in a scratch block; the core's errors are thrown. */
function hitQuery(world: World, fn: string, floats: number[], call: (ctx: NativeContext, input: number, out: number) => number): CollideHit | null {
  return world.native((ctx) =>
    ctx.heap.scratch(IN_BYTES + HIT_BYTES, (p) => {
      new Float32Array(ctx.ex.memory.buffer, p, floats.length).set(floats);
      ctx.check(call(ctx, p, p + IN_BYTES), { fn });
      return readHit(ctx, p + IN_BYTES);
    }, fn),
  );
}

function vec(v: unknown, n: number, fn: string, field: string): number[] {
  return vecArg(v, n, fn, field);
}

function closestPoint(world: World, point: Vec3Like, options?: ClosestPointOptions): CollideHit | null {
  const fn = 'collide.closestPoint';
  const p = vec(point, 3, fn, 'point');
  const o = queryOptions(options, fn, ['maxDistance']);
  const maxDistance = o.rest.maxDistance === undefined ? MAX_EXTENT : numberArg(o.rest.maxDistance, fn, 'maxDistance');
  return hitQuery(world, fn, p, ({ ex, w }, input, out) => ex.lbw_closest_point(w, input, maxDistance, o.layers, o.exclude, out));
}

function raycast(world: World, origin: Vec3Like, dir: Vec3Like, maxDistance: number, options?: QueryOptions): CollideHit | null {
  const fn = 'collide.raycast';
  const input = [...vec(origin, 3, fn, 'origin'), ...vec(dir, 3, fn, 'dir')];
  const maxd = numberArg(maxDistance, fn, 'maxDistance');
  const o = queryOptions(options, fn);
  return hitQuery(world, fn, input, ({ ex, w }, p, out) => ex.lbw_raycast(w, p, maxd, o.layers, o.exclude, out));
}

function sphereCast(world: World, center: Vec3Like, radius: number, dir: Vec3Like, maxDistance: number, options?: QueryOptions): CollideHit | null {
  const fn = 'collide.sphereCast';
  const input = [...vec(center, 3, fn, 'center'), ...vec(dir, 3, fn, 'dir')];
  const r = numberArg(radius, fn, 'radius');
  const maxd = numberArg(maxDistance, fn, 'maxDistance');
  const o = queryOptions(options, fn);
  return hitQuery(world, fn, input, ({ ex, w }, p, out) => ex.lbw_sphere_cast(w, p, r, maxd, o.layers, o.exclude, out));
}

function capsuleCast(world: World, a: Vec3Like, b: Vec3Like, radius: number, dir: Vec3Like, maxDistance: number, options?: QueryOptions): CollideHit | null {
  const fn = 'collide.capsuleCast';
  const input = [...vec(a, 3, fn, 'a'), ...vec(b, 3, fn, 'b'), ...vec(dir, 3, fn, 'dir')];
  const r = numberArg(radius, fn, 'radius');
  const maxd = numberArg(maxDistance, fn, 'maxDistance');
  const o = queryOptions(options, fn);
  return hitQuery(world, fn, input, ({ ex, w }, p, out) => ex.lbw_capsule_cast(w, p, r, maxd, o.layers, o.exclude, out));
}

function overlap(world: World, fn: string, kind: number, floats: number[], options: unknown): Entity[] {
  const o = queryOptions(options, fn);
  return world.native((ctx) =>
    ctx.heap.scratch(IN_BYTES + 4, (p) => {
      new Float32Array(ctx.ex.memory.buffer, p, floats.length).set(floats);
      const run = (cap: number): Entity[] =>
        ctx.heap.scratch(Math.max(4 * cap, 4), (out) => {
          ctx.check(ctx.ex.lbw_overlap(ctx.w, kind, p, o.layers, o.exclude, out, cap, p + IN_BYTES), { fn });
          const n = new Uint32Array(ctx.ex.memory.buffer, p + IN_BYTES, 1)[0]!;
          if (n > cap) return run(n);
          return Array.from(new Uint32Array(ctx.ex.memory.buffer, out, n));
        }, fn);
      return run(64);
    }, fn),
  );
}

function overlapSphere(world: World, center: Vec3Like, radius: number, options?: QueryOptions): Entity[] {
  const fn = 'collide.overlapSphere';
  return overlap(world, fn, 0, [...vec(center, 3, fn, 'center'), numberArg(radius, fn, 'radius')], options);
}

function overlapCapsule(world: World, a: Vec3Like, b: Vec3Like, radius: number, options?: QueryOptions): Entity[] {
  const fn = 'collide.overlapCapsule';
  return overlap(world, fn, 1, [...vec(a, 3, fn, 'a'), ...vec(b, 3, fn, 'b'), numberArg(radius, fn, 'radius')], options);
}

function overlapBox(world: World, center: Vec3Like, rotation: QuatLike, halfExtents: Vec3Like, options?: QueryOptions): Entity[] {
  const fn = 'collide.overlapBox';
  return overlap(world, fn, 2, [...vec(center, 3, fn, 'center'), ...vec(rotation, 4, fn, 'rotation'), ...vec(halfExtents, 3, fn, 'halfExtents')], options);
}

/** A triangle mesh asset for Collider.mesh: positions (x, y, z per vertex, the mesh's own
 * frame) and indices (3 per triangle). Returns its handle. */
function addMesh(world: World, positions: ArrayLike<number>, indices: ArrayLike<number>): MeshHandle {
  const fn = 'collide.addMesh';
  const isList = (v: unknown): v is ArrayLike<number> => Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView));
  if (!isList(positions)) throw badArgument(fn, 'positions', `must be an array or Float32Array of numbers, got ${describe(positions)}`);
  if (!isList(indices)) throw badArgument(fn, 'indices', `must be an array or Uint32Array of whole numbers, got ${describe(indices)}`);
  if (positions.length % 3 !== 0) throw badArgument(fn, 'positions', `has ${positions.length} numbers, not a multiple of 3`);
  for (let i = 0; i < positions.length; i++) {
    if (typeof positions[i] !== 'number') throw badArgument(fn, `positions[${i}]`, `must be a number, got ${describe(positions[i])}`);
  }
  for (let i = 0; i < indices.length; i++) {
    const x = indices[i];
    if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x > 0xffffffff) throw badArgument(fn, `indices[${i}]`, `must be a whole number in [0, 2^32), got ${describe(x)}`);
  }
  return world.native(({ ex, heap, w, check }) =>
    heap.scratch(Math.max(4 * positions.length, 4), (pp) =>
      heap.scratch(Math.max(4 * indices.length, 4), (ip) =>
        heap.scratch(4, (out) => {
          new Float32Array(ex.memory.buffer, pp, positions.length).set(positions);
          new Uint32Array(ex.memory.buffer, ip, indices.length).set(indices);
          check(ex.lbw_add_mesh(w, pp, positions.length / 3, ip, indices.length, out), { fn });
          return brand<MeshHandle>(new Uint32Array(ex.memory.buffer, out, 1)[0]!);
        }, fn),
      fn),
    fn),
  );
}

/** Triangles of a mesh asset (0 for an unknown handle). */
function meshTriangleCount(world: World, mesh: HandleArg<MeshHandle>): number {
  handleArg(mesh, 'collide.meshTriangleCount', 'mesh', 'a mesh handle');
  return world.native(({ ex, w }) => ex.lbw_mesh_triangle_count(w, mesh) >>> 0);
}

/** The query layer as a table of functions (world.collide's signatures).
 * Points, directions and rotations are taken in any Vec3Like / QuatLike form (an array, a
 * typed array, a THREE.Vector3 / THREE.Quaternion); answers use arrays.
 * `world.collide` is the built-in backend (deterministic, the core's own colliders);
 * limber/rapier's rapierQueries() answers the same table from a Rapier world the game owns.
 * Misses are null / []. */
export interface CollisionQueries {
  closestPoint(point: Vec3Like, options?: ClosestPointOptions): CollideHit | null;
  raycast(origin: Vec3Like, dir: Vec3Like, maxDistance: number, options?: QueryOptions): CollideHit | null;
  sphereCast(center: Vec3Like, radius: number, dir: Vec3Like, maxDistance: number, options?: QueryOptions): CollideHit | null;
  /** capsule with core segment a-b */
  capsuleCast(a: Vec3Like, b: Vec3Like, radius: number, dir: Vec3Like, maxDistance: number, options?: QueryOptions): CollideHit | null;
  /** entities in entity order */
  overlapSphere(center: Vec3Like, radius: number, options?: QueryOptions): Entity[];
  overlapCapsule(a: Vec3Like, b: Vec3Like, radius: number, options?: QueryOptions): Entity[];
  overlapBox(center: Vec3Like, rotation: QuatLike, halfExtents: Vec3Like, options?: QueryOptions): Entity[];
}

/** `world.collide`: the built-in backend (deterministic, the core's own colliders) — mesh
 * assets and the queries. It is a CollisionQueries table: pass `world.collide` wherever one
 * is expected. Its members are bound functions, so `const { raycast } = world.collide` works. */
/** The arrays of a mesh asset (copies): positions x, y, z per vertex in the mesh's frame, and
 * 3 indices per triangle. */
export function meshData(world: World, mesh: HandleArg<MeshHandle>): { positions: Float32Array; indices: Uint32Array } {
  const fn = 'collide.meshData';
  handleArg(mesh, fn, 'mesh', 'a mesh asset handle');
  return world.native(({ ex, heap, w }) =>
    heap.scratch(16, (p) => {
      if (ex.lbw_mesh_data(w, mesh, p) !== 0) throw badArgument(fn, 'mesh', `= ${mesh} is not a mesh asset of this world`);
      const b = p >> 2;
      const u = heap.u32;
      const [pp, vc, ip, ic] = [u[b]!, u[b + 1]!, u[b + 2]!, u[b + 3]!];
      return { positions: new Float32Array(ex.memory.buffer, pp, 3 * vc).slice(), indices: new Uint32Array(ex.memory.buffer, ip, ic).slice() };
    }, fn),
  );
}

export class CollideApi implements CollisionQueries {
  /** @internal use `world.collide` */
  constructor(private readonly world: World) {}

  /** A triangle mesh asset for Collider.mesh: positions (x, y, z per vertex, the mesh's own
   * frame) and indices (3 per triangle). Bad meshes (NaN, an index out of range, no
   * triangles) throw; nothing is added. Returns its handle. */
  readonly addMesh = (positions: ArrayLike<number>, indices: ArrayLike<number>): MeshHandle => addMesh(this.world, positions, indices);
  /** The arrays of a mesh asset (copies): positions (x, y, z per vertex, the mesh's frame)
   * and indices (3 per triangle), e.g. a glTF level's meshes for drawing or baking. */
  readonly meshData = (mesh: HandleArg<MeshHandle>): { positions: Float32Array; indices: Uint32Array } => meshData(this.world, mesh);
  /** Triangles of a mesh asset (0 for an unknown handle). */
  readonly meshTriangleCount = (mesh: HandleArg<MeshHandle>): number => meshTriangleCount(this.world, mesh);
  /** The collider surface point nearest to `point`, with the signed distance (negative
   * inside) and the normal out of the collider; null when none is within maxDistance. */
  readonly closestPoint = (point: Vec3Like, options?: ClosestPointOptions): CollideHit | null => closestPoint(this.world, point, options);
  /** First collider hit by the ray, or null. A start inside a collider hits at distance 0. */
  readonly raycast = (origin: Vec3Like, dir: Vec3Like, maxDistance: number, options?: QueryOptions): CollideHit | null => raycast(this.world, origin, dir, maxDistance, options);
  /** First collider a sphere touches moving from `center` along `dir`, or null. */
  readonly sphereCast = (center: Vec3Like, radius: number, dir: Vec3Like, maxDistance: number, options?: QueryOptions): CollideHit | null =>
    sphereCast(this.world, center, radius, dir, maxDistance, options);
  /** First collider a capsule (core a-b) touches moving along `dir`, or null. */
  readonly capsuleCast = (a: Vec3Like, b: Vec3Like, radius: number, dir: Vec3Like, maxDistance: number, options?: QueryOptions): CollideHit | null =>
    capsuleCast(this.world, a, b, radius, dir, maxDistance, options);
  /** Entities whose collider touches the sphere, in entity order. */
  readonly overlapSphere = (center: Vec3Like, radius: number, options?: QueryOptions): Entity[] => overlapSphere(this.world, center, radius, options);
  /** Entities whose collider touches the capsule (core a-b), in entity order. */
  readonly overlapCapsule = (a: Vec3Like, b: Vec3Like, radius: number, options?: QueryOptions): Entity[] => overlapCapsule(this.world, a, b, radius, options);
  /** Entities whose collider touches the oriented box, in entity order. */
  readonly overlapBox = (center: Vec3Like, rotation: QuatLike, halfExtents: Vec3Like, options?: QueryOptions): Entity[] =>
    overlapBox(this.world, center, rotation, halfExtents, options);
}
