/** Collision queries as a table of functions (the built-in backend over the core's collide
 * module), and script moves of a CharacterController. limber/rapier provides the same table
 * over a Rapier world (web/rapier/). Shapes, signs and inside-start rules:
 * wasm/include/limber/collide.h; the controller: wasm/include/limber/controller.h. */
import { handleArg, vecArg } from './args.js';
import type { Entity, Quat, Vec3 } from './components.js';
import type { World } from './world.js';

/** What a query sees: colliders whose layer & layers != 0 (default all), not `exclude`'s. */
export interface QueryFilter {
  layers?: number;
  exclude?: Entity;
}

/** A cast's first contact, or a closest point. */
export interface QueryHit {
  entity: Entity;
  /** casts: distance moved along the (normalised) direction; closest point: signed distance */
  distance: number;
  /** on the collider's surface */
  point: Vec3;
  /** unit, out of the collider toward the query */
  normal: Vec3;
  /** mesh colliders: triangle index; -1 otherwise (and for backends that do not say) */
  triangle: number;
}

/** The query layer: the built-in backend (world.queries) and limber/rapier's
 * rapierQueries() give the same answers in the same shape. Misses are null / []. */
export interface CollisionQueries {
  closestPoint(p: Vec3, maxDistance: number, filter?: QueryFilter): QueryHit | null;
  raycast(origin: Vec3, dir: Vec3, maxDistance: number, filter?: QueryFilter): QueryHit | null;
  sphereCast(center: Vec3, radius: number, dir: Vec3, maxDistance: number, filter?: QueryFilter): QueryHit | null;
  /** capsule with core segment a-b */
  capsuleCast(a: Vec3, b: Vec3, radius: number, dir: Vec3, maxDistance: number, filter?: QueryFilter): QueryHit | null;
  /** entities in entity order */
  overlapSphere(center: Vec3, radius: number, filter?: QueryFilter): Entity[];
  overlapCapsule(a: Vec3, b: Vec3, radius: number, filter?: QueryFilter): Entity[];
  overlapBox(center: Vec3, rotation: Quat, halfExtents: Vec3, filter?: QueryFilter): Entity[];
}

const HIT_BYTES = 36;
const OVERLAP_CAP = 256;

/** The built-in backend of `world` (deterministic, the core's own colliders). */
export function builtinQueries(world: World): CollisionQueries {
  const run = (fn: string, vecs: [unknown, number, string][], call: (ptrs: number[], out: number) => number, filter: QueryFilter | undefined): QueryHit | null =>
    world.native(({ ex, heap, w, check }) => {
      const args = vecs.map(([v, n, field]) => vecArg(v, n, fn, field));
      void ex;
      const layers = filterLayers(filter, fn);
      const exclude = filterExclude(filter, fn);
      const size = args.reduce((s, a) => s + 4 * a.length, 0) + HIT_BYTES;
      return heap.scratch(size, (p) => {
        const ptrs: number[] = [];
        let at = p;
        const f = heap.f32;
        for (const a of args) {
          ptrs.push(at);
          for (let i = 0; i < a.length; i++) f[(at >> 2) + i] = a[i];
          at += 4 * a.length;
        }
        check(call([...ptrs, layers, exclude, w], at), { fn });
        return readHit(heap.f32, heap.u32, at);
      });
    });
  const overlap = (fn: string, vecs: [unknown, number, string][], call: (ptrs: number[], layers: number, exclude: number, out: number, cap: number, count: number) => number, filter: QueryFilter | undefined): Entity[] =>
    world.native(({ heap, check }) => {
      const args = vecs.map(([v, n, field]) => vecArg(v, n, fn, field));
      const layers = filterLayers(filter, fn);
      const exclude = filterExclude(filter, fn);
      const size = args.reduce((s, a) => s + 4 * a.length, 0) + 4 + 4 * OVERLAP_CAP;
      for (let cap = OVERLAP_CAP; ; cap *= 4) {
        const res = heap.scratch(size + 4 * (cap - OVERLAP_CAP), (p) => {
          const ptrs: number[] = [];
          let at = p;
          for (const a of args) {
            ptrs.push(at);
            for (let i = 0; i < a.length; i++) heap.f32[(at >> 2) + i] = a[i];
            at += 4 * a.length;
          }
          check(call(ptrs, layers, exclude, at + 4, cap, at), { fn });
          const n = heap.u32[at >> 2];
          if (n > cap) return n;
          return Array.from(heap.u32.subarray((at + 4) >> 2, ((at + 4) >> 2) + n)) as Entity[];
        });
        if (Array.isArray(res)) return res;
        cap = Math.max(cap, res);
      }
    });
  return {
    closestPoint: (p, maxDistance, filter) =>
      world.native(({ ex }) => run('closestPoint', [[p, 3, 'p']], ([pp, layers, exclude, w], out) => ex.lbw_closest_point(w, pp, maxDistance, layers, exclude, out), filter)),
    raycast: (origin, dir, maxDistance, filter) =>
      world.native(({ ex }) => run('raycast', [[origin, 3, 'origin'], [dir, 3, 'dir']], ([o, d, layers, exclude, w], out) => ex.lbw_raycast(w, o, d, maxDistance, layers, exclude, out), filter)),
    sphereCast: (center, radius, dir, maxDistance, filter) =>
      world.native(({ ex }) =>
        run('sphereCast', [[center, 3, 'center'], [dir, 3, 'dir']], ([c, d, layers, exclude, w], out) => ex.lbw_sphere_cast(w, c, radius, d, maxDistance, layers, exclude, out), filter),
      ),
    capsuleCast: (a, b, radius, dir, maxDistance, filter) =>
      world.native(({ ex }) =>
        run('capsuleCast', [[a, 3, 'a'], [b, 3, 'b'], [dir, 3, 'dir']], ([pa, pb, d, layers, exclude, w], out) => ex.lbw_capsule_cast(w, pa, pb, radius, d, maxDistance, layers, exclude, out), filter),
      ),
    overlapSphere: (center, radius, filter) =>
      world.native(({ ex, w }) => overlap('overlapSphere', [[center, 3, 'center']], ([c], l, x, out, cap, count) => ex.lbw_overlap_sphere(w, c, radius, l, x, out, cap, count), filter)),
    overlapCapsule: (a, b, radius, filter) =>
      world.native(({ ex, w }) => overlap('overlapCapsule', [[a, 3, 'a'], [b, 3, 'b']], ([pa, pb], l, x, out, cap, count) => ex.lbw_overlap_capsule(w, pa, pb, radius, l, x, out, cap, count), filter)),
    overlapBox: (center, rotation, halfExtents, filter) =>
      world.native(({ ex, w }) =>
        overlap('overlapBox', [[center, 3, 'center'], [rotation, 4, 'rotation'], [halfExtents, 3, 'halfExtents']], ([c, q, h], l, x, out, cap, count) => ex.lbw_overlap_box(w, c, q, h, l, x, out, cap, count), filter),
      ),
  };
}

function filterLayers(filter: QueryFilter | undefined, fn: string): number {
  const l = filter?.layers ?? 0xffffffff;
  if (typeof l !== 'number' || !Number.isInteger(l) || l < 0 || l > 0xffffffff) {
    return handleArg(l, fn, 'filter.layers', 'a 32-bit layer mask');
  }
  return l >>> 0;
}

function filterExclude(filter: QueryFilter | undefined, fn: string): number {
  const e = filter?.exclude ?? 0;
  return e === 0 ? 0 : handleArg(e, fn, 'filter.exclude');
}

function readHit(f: Float32Array, u: Uint32Array, at: number): QueryHit | null {
  const i = at >> 2;
  const entity = u[i];
  if (entity === 0) return null;
  return {
    entity: entity as Entity,
    distance: f[i + 1],
    point: [f[i + 2], f[i + 3], f[i + 4]],
    normal: [f[i + 5], f[i + 6], f[i + 7]],
    triangle: u[i + 8] | 0,
  };
}
