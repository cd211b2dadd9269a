/** limber/rapier: the game's Rapier world as Limber's collision backend.
 *
 * - rapierQueries(RAPIER, rapierWorld): the CollisionQueries table of the built-in backend
 *   (world.collide) answered by Rapier's scene queries, in the same result shape: the entity a
 *   collider stands for (bind it, or pass entityOf), distance, world point and normal.
 * - RapierCharacterControllers: CharacterController entities moved by Rapier's
 *   KinematicCharacterController. Their `backend` is set to 'Host': the core's Move phase sums
 *   the step's requests (root motion, world.controller.move) into `requested` without moving;
 *   update() after world.step() moves each by that request through Rapier and writes the
 *   Transform (the next step's Model phase uses it).
 *
 * Rapier is not bundled: pass the module the game already initialised
 * (`import RAPIER from '@dimforge/rapier3d-compat'; await RAPIER.init();`). The built-in backend
 * stays the default and the deterministic one (native, hashes); Rapier's answers agree within
 * 1 mm on the generated levels (tests/node/rapier.test.mjs). */
import type * as RAPIER_NS from '@dimforge/rapier3d-compat';
import { CharacterController, Transform, type CollideHit, type CollisionQueries, type Entity, type QueryOptions, type Quat, type Vec3, type World } from '../bridge/api.js';
import { vecArg } from '../bridge/args.js';

type Rapier = typeof RAPIER_NS;
type RWorld = RAPIER_NS.World;
type RCollider = RAPIER_NS.Collider;

export interface RapierQueryOptions {
  /** The Limber entity a collider stands for; undefined = not seen. Default: bind()'s map. */
  entityOf?: (collider: RCollider) => Entity | undefined;
  /** A collider's layer bits (Collider.layer); default 1. */
  layerOf?: (collider: RCollider) => number;
}

/** CollisionQueries over Rapier, plus bind() to name the entity of a collider. */
export interface RapierQueries extends CollisionQueries {
  bind(collider: RCollider, entity: Entity, layer?: number): void;
  unbind(collider: RCollider): void;
  /** The entity a collider stands for (bound or from options.entityOf). */
  entityOf(collider: RCollider): Entity | undefined;
}

const IDENTITY: Quat = [0, 0, 0, 1];

function unit(v: Vec3): Vec3 {
  const l = Math.hypot(v[0], v[1], v[2]);
  return l > 0 ? [v[0] / l, v[1] / l, v[2] / l] : [0, 0, 0];
}

/** Rotation taking +Y to the unit vector d (Rapier's capsule axis is local Y). */
function yTo(d: Vec3): Quat {
  const [x, y, z] = d;
  if (y < -0.999999) return [1, 0, 0, 0];
  // q = (cross(Y, d), 1 + dot(Y, d)) normalised
  const q: Quat = [z, 0, -x, 1 + y];
  const l = Math.hypot(q[0], q[1], q[2], q[3]);
  return [q[0] / l, q[1] / l, q[2] / l, q[3] / l];
}

const vec = (v: Vec3) => ({ x: v[0], y: v[1], z: v[2] });
const rot = (q: Quat) => ({ x: q[0], y: q[1], z: q[2], w: q[3] });
const arr = (v: { x: number; y: number; z: number }): Vec3 => [v.x, v.y, v.z];
/** A query's vector argument in any form the built-in backend takes ([x, y, z], a typed array,
 * a THREE.Vector3): the same parser, the same errors. */
const v3 = (v: unknown, fn: string, field: string): Vec3 => vecArg(v, 3, fn, field) as Vec3;
const q4 = (v: unknown, fn: string, field: string): Quat => vecArg(v, 4, fn, field) as Quat;

/** Entities in entity (slot) order, as the built-in backend lists them. */
const sorted = (list: Entity[]) => [...new Set(list)].sort((a, b) => (a & 0xfffff) - (b & 0xfffff));

/** Signed distance from the segment a + s e, s in [0, 1], to a convex collider, by Rapier's
 * exact point projection: the signed distance to a convex set is convex along a segment and
 * its slope at s is e . (the projection's outward normal), so the minimum is where that
 * slope changes sign: a bisection on it, one projection per halving. Returns [distance,
 * point on the collider, outward normal]. */
function segmentDistance(c: RCollider, a: Vec3, e: Vec3): [number, Vec3, Vec3] | null {
  const at = (s: number): [number, Vec3, Vec3] | null => {
    const x: Vec3 = [a[0] + e[0] * s, a[1] + e[1] * s, a[2] + e[2] * s];
    const pr = c.projectPoint(vec(x), false);
    if (!pr) return null;
    const q = arr(pr.point);
    const d: Vec3 = [x[0] - q[0], x[1] - q[1], x[2] - q[2]];
    const l = Math.hypot(d[0], d[1], d[2]);
    const n: Vec3 = l > 0 ? [d[0] / l, d[1] / l, d[2] / l] : [0, 1, 0];
    return pr.isInside ? [-l, q, [-n[0], -n[1], -n[2]]] : [l, q, n];
  };
  const slope = (f: [number, Vec3, Vec3]) => e[0] * f[2][0] + e[1] * f[2][1] + e[2] * f[2][2];
  const f0 = at(0), f1 = at(1);
  if (!f0 || !f1) return null;
  if (slope(f0) >= 0 && f0[0] <= f1[0]) return f0;
  if (slope(f1) <= 0 && f1[0] <= f0[0]) return f1;
  let best = f0[0] <= f1[0] ? f0 : f1;
  let lo = 0, hi = 1;
  for (let i = 0; i < 32; i++) {
    const m = (lo + hi) / 2;
    const f = at(m);
    if (!f) return null;
    if (f[0] < best[0]) best = f;
    if (slope(f) > 0) hi = m;
    else lo = m;
  }
  return best;
}

/** A capsule cast's contact refined the same way: Newton steps on the core segment's signed
 * distance minus the radius. */
function refineCapsule(c: RCollider, a: Vec3, e: Vec3, r: number, d: Vec3, t0: number, maxDistance: number): [number, Vec3, Vec3] | null {
  let t = t0;
  let out: [number, Vec3, Vec3] | null = null;
  for (let i = 0; i < 6; i++) {
    const f = segmentDistance(c, [a[0] + d[0] * t, a[1] + d[1] * t, a[2] + d[2] * t], e);
    if (!f) return out;
    out = [t, f[1], f[2]];
    const g = f[0] - r;
    const slope = d[0] * f[2][0] + d[1] * f[2][1] + d[2] * f[2][2];
    if ((t === 0 && g <= 0) || !(slope < -1e-9) || Math.abs(g) < 1e-7) break;
    const next = Math.min(maxDistance, Math.max(0, t - g / slope));
    if (next === t) break;
    t = next;
  }
  return out;
}

/** Any other shape's contact: Newton steps on Rapier's exact contact query with the collider
 * hit, from the time of impact t0 along the unit direction d. Returns [distance, point,
 * normal]. */
function refineContact(c: RCollider, shape: RAPIER_NS.Shape, pos: Vec3, q: Quat, d: Vec3, t0: number, point0: Vec3, normal0: Vec3, maxDistance: number): [number, Vec3, Vec3] {
  let t = t0;
  let point = point0;
  let normal = normal0;
  for (let i = 0; i < 4; i++) {
    const at: Vec3 = [pos[0] + d[0] * t, pos[1] + d[1] * t, pos[2] + d[2] * t];
    const ct = c.contactShape(shape, vec(at), rot(q), 0.1);
    if (!ct) break;
    point = arr(ct.point1);
    normal = unit(arr(ct.normal1));
    const slope = d[0] * normal[0] + d[1] * normal[1] + d[2] * normal[2];
    if (t === 0 && ct.distance <= 0) break; // inside at the start: the depenetration contact
    if (!(slope < -1e-9) || Math.abs(ct.distance) < 1e-7) break;
    const next = Math.min(maxDistance, Math.max(0, t - ct.distance / slope));
    if (next === t) break;
    t = next;
  }
  return [t, point, normal];
}

type Projection = { collider: RCollider; point: { x: number; y: number; z: number }; isInside: boolean };

/** The point's projection for closestPoint: inside one or more colliders, the deepest
 * penetration wins (then entity order), as the built-in backend answers; outside, Rapier's
 * nearest projection. */
function projectClosest(world: RWorld, p: Vec3, pred: (c: RCollider) => boolean, entityOf: (c: RCollider) => Entity | undefined): Projection | null {
  let pr: Projection | null = null;
  let bestDepth = -Infinity, bestEntity = Infinity;
  world.intersectionsWithPoint(vec(p), (c) => {
    const cp = c.projectPoint(vec(p), false);
    if (cp) {
      const depth = Math.hypot(p[0] - cp.point.x, p[1] - cp.point.y, p[2] - cp.point.z);
      const ent = (entityOf(c) ?? 0) & 0xfffff;
      if (depth > bestDepth || (depth === bestDepth && ent < bestEntity)) {
        pr = { collider: c, point: cp.point, isInside: true };
        bestDepth = depth;
        bestEntity = ent;
      }
    }
    return true;
  }, undefined, undefined, undefined, undefined, pred);
  return pr ?? world.projectPoint(vec(p), false, undefined, undefined, undefined, undefined, pred);
}

/** The capsule a..b of this radius as a Rapier shape at its midpoint (a ball when a = b). */
function capsuleShape(RAPIER: Rapier, a: Vec3, b: Vec3, radius: number) {
  const ab: Vec3 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const half = Math.hypot(ab[0], ab[1], ab[2]) / 2;
  const mid: Vec3 = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];
  return { mid, q: half > 0 ? yTo(unit(ab)) : IDENTITY, shape: half > 0 ? new RAPIER.Capsule(half, radius) : new RAPIER.Ball(radius) };
}

/** What every query of one table shares: the Rapier module and world, the entity a collider
 * stands for, and the collider filter of a query's options. */
interface QueryContext {
  RAPIER: Rapier;
  world: RWorld;
  entityOf: (c: RCollider) => Entity | undefined;
  predicate: (filter?: QueryOptions) => (c: RCollider) => boolean;
}

/** The collider -> entity and layer maps: bind()'s, unless the options give their own. */
function colliderBindings(options: RapierQueryOptions) {
  const bound = new Map<number, { entity: Entity; layer: number }>();
  const entityOf = options.entityOf ?? ((c: RCollider) => bound.get(c.handle)?.entity);
  const layerOf = options.layerOf ?? ((c: RCollider) => bound.get(c.handle)?.layer ?? 1);
  const predicate = (filter?: QueryOptions) => {
    const layers = (filter?.layers ?? 0xffffffff) >>> 0;
    const exclude = filter?.exclude ?? 0;
    return (c: RCollider) => {
      const e = entityOf(c);
      return e !== undefined && e !== 0 && e !== exclude && (layerOf(c) & layers) !== 0;
    };
  };
  return { bound, entityOf, predicate };
}

const hitOf = (ctx: QueryContext, c: RCollider, distance: number, point: Vec3, normal: Vec3): CollideHit => ({ entity: ctx.entityOf(c) as Entity, distance, point, normal, triangle: null });

/** The first contact of `shape` at pos/q moved along dir: Rapier's cast, refined. */
function castQuery(ctx: QueryContext, pos: Vec3, q: Quat, shape: RAPIER_NS.Shape, dir: Vec3, maxDistance: number, filter?: QueryOptions, core?: { a: Vec3; e: Vec3; r: number }): CollideHit | null {
  const d = maxDistance > 0 ? unit(dir) : [0, 1, 0] as Vec3;
  const h = ctx.world.castShape(vec(pos), rot(q), vec(d), shape, 0, maxDistance, true, undefined, undefined, undefined, undefined, ctx.predicate(filter));
  if (!h) return null;
  // Rapier's time of impact stops within its solver tolerance (mm): refine it with Rapier's
  // exact contact query on the collider hit (Newton steps on the signed distance along the
  // cast), so both backends report the same first contact.
  const t = h.time_of_impact;
  const point = arr(h.witness1);
  const normal = unit(arr(h.normal1));
  if (core) {
    const f = refineCapsule(h.collider, core.a, core.e, core.r, d, t, maxDistance);
    return f ? hitOf(ctx, h.collider, f[0], f[1], f[2]) : hitOf(ctx, h.collider, t, point, normal);
  }
  const f = refineContact(h.collider, shape, pos, q, d, t, point, normal, maxDistance);
  return hitOf(ctx, h.collider, f[0], f[1], f[2]);
}

/** The entities whose colliders `shape` at pos/q overlaps, in entity order. */
function overlapQuery(ctx: QueryContext, pos: Vec3, q: Quat, shape: RAPIER_NS.Shape, filter?: QueryOptions): Entity[] {
  const out: Entity[] = [];
  const pred = ctx.predicate(filter);
  ctx.world.intersectionsWithShape(vec(pos), rot(q), shape, (c) => {
    out.push(ctx.entityOf(c) as Entity);
    return true;
  }, undefined, undefined, undefined, undefined, pred);
  return sorted(out);
}

/** closestPoint and raycast: point projection and ray cast. */
function pointQueries(ctx: QueryContext): Pick<CollisionQueries, 'closestPoint' | 'raycast'> {
  const { RAPIER, world } = ctx;
  return {
    closestPoint(point, options) {
      const p = v3(point, 'closestPoint', 'point');
      const maxDistance = options?.maxDistance ?? 1e5;
      const pr = projectClosest(world, p, ctx.predicate(options), ctx.entityOf);
      if (!pr) return null;
      const q = arr(pr.point);
      const d: Vec3 = [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
      const len = Math.hypot(d[0], d[1], d[2]);
      const signed = pr.isInside ? -len : len;
      if (signed > maxDistance) return null;
      const n: Vec3 = len > 0 ? [d[0] / len, d[1] / len, d[2] / len] : [0, 1, 0];
      return hitOf(ctx, pr.collider, signed, q, pr.isInside ? [-n[0], -n[1], -n[2]] : n);
    },
    raycast(originIn, dirIn, maxDistance, filter) {
      const origin = v3(originIn, 'raycast', 'origin');
      const d = unit(v3(dirIn, 'raycast', 'dir'));
      const r = world.castRayAndGetNormal(new RAPIER.Ray(vec(origin), vec(d)), maxDistance, true, undefined, undefined, undefined, undefined, ctx.predicate(filter));
      if (!r) return null;
      const t = r.timeOfImpact;
      return hitOf(ctx, r.collider, t, [origin[0] + d[0] * t, origin[1] + d[1] * t, origin[2] + d[2] * t], arr(r.normal));
    },
  };
}

/** The sphere and capsule casts and the sphere, capsule and box overlaps. */
function shapeQueries(ctx: QueryContext): Pick<CollisionQueries, 'sphereCast' | 'capsuleCast' | 'overlapSphere' | 'overlapCapsule' | 'overlapBox'> {
  const RAPIER = ctx.RAPIER;
  return {
    sphereCast(center, radius, dir, maxDistance, filter) {
      return castQuery(ctx, v3(center, 'sphereCast', 'center'), IDENTITY, new RAPIER.Ball(radius), v3(dir, 'sphereCast', 'dir'), maxDistance, filter);
    },
    capsuleCast(aIn, bIn, radius, dir, maxDistance, filter) {
      const a = v3(aIn, 'capsuleCast', 'a'), b = v3(bIn, 'capsuleCast', 'b');
      const c = capsuleShape(RAPIER, a, b, radius);
      const e: Vec3 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
      return castQuery(ctx, c.mid, c.q, c.shape, v3(dir, 'capsuleCast', 'dir'), maxDistance, filter, e[0] || e[1] || e[2] ? { a, e, r: radius } : undefined);
    },
    overlapSphere(center, radius, filter) {
      return overlapQuery(ctx, v3(center, 'overlapSphere', 'center'), IDENTITY, new RAPIER.Ball(radius), filter);
    },
    overlapCapsule(a, b, radius, filter) {
      const c = capsuleShape(RAPIER, v3(a, 'overlapCapsule', 'a'), v3(b, 'overlapCapsule', 'b'), radius);
      return overlapQuery(ctx, c.mid, c.q, c.shape, filter);
    },
    overlapBox(center, rotation, halfExtentsIn, filter) {
      const halfExtents = v3(halfExtentsIn, 'overlapBox', 'halfExtents');
      return overlapQuery(ctx, v3(center, 'overlapBox', 'center'), q4(rotation, 'overlapBox', 'rotation'), new RAPIER.Cuboid(halfExtents[0], halfExtents[1], halfExtents[2]), filter);
    },
  };
}

/** The query table over `world` (a Rapier World the game owns and steps): the bindings, the
 * point queries and the shape queries. */
export function rapierQueries(RAPIER: Rapier, world: RWorld, options: RapierQueryOptions = {}): RapierQueries {
  const { bound, entityOf, predicate } = colliderBindings(options);
  const ctx: QueryContext = { RAPIER, world, entityOf, predicate };
  return {
    bind(collider, entity, layer = 1) {
      bound.set(collider.handle, { entity, layer });
    },
    unbind(collider) {
      bound.delete(collider.handle);
    },
    entityOf,
    ...pointQueries(ctx),
    ...shapeQueries(ctx),
  };
}

/** What the last update() did for one controller (the core's outputs, Rapier's answers). */
export interface RapierMoveResult {
  grounded: boolean;
  /** displacement / dt, m/s */
  velocity: Vec3;
  /** Rapier's contacts of the move: the collider's entity (when bound) and normal */
  hits: { entity: Entity | undefined; normal: Vec3 }[];
}

interface Character {
  collider: RCollider;
  kcc: RAPIER_NS.KinematicCharacterController;
  center: Vec3;
  last: RapierMoveResult;
}

/** CharacterController entities moved by Rapier's KinematicCharacterController. */
export class RapierCharacterControllers {
  private readonly chars = new Map<Entity, Character>();

  constructor(
    private readonly RAPIER: Rapier,
    private readonly rworld: RWorld,
    private readonly world: World,
    private readonly queries?: RapierQueries,
  ) {}

  /** Takes over the entity's CharacterController: a capsule collider of its size in the Rapier
   * world (bound to the entity when queries are given) and a KinematicCharacterController
   * with its skinWidth (offset), stepOffset (autostep), slopeLimit and snapDistance. */
  add(e: Entity): void {
    const cc = this.world.get(e, CharacterController);
    const t = this.world.get(e, Transform);
    const R = this.RAPIER;
    const half = cc.height / 2 - cc.radius;
    const desc = half > 0 ? R.ColliderDesc.capsule(half, cc.radius) : R.ColliderDesc.ball(cc.radius);
    desc.setTranslation(t.position[0] + cc.center[0], t.position[1] + cc.center[1], t.position[2] + cc.center[2]);
    const collider = this.rworld.createCollider(desc);
    const kcc = this.rworld.createCharacterController(cc.skinWidth);
    kcc.setUp({ x: 0, y: 1, z: 0 });
    kcc.setSlideEnabled(true);
    if (cc.stepOffset > 0) kcc.enableAutostep(cc.stepOffset, cc.radius, false);
    kcc.setMaxSlopeClimbAngle((cc.slopeLimit * Math.PI) / 180);
    kcc.setMinSlopeSlideAngle((cc.slopeLimit * Math.PI) / 180);
    if (cc.snapDistance > 0) kcc.enableSnapToGround(cc.snapDistance);
    this.queries?.bind(collider, e, 0);
    this.world.update(e, CharacterController, (c) => {
      c.backend = 'Host';
    });
    this.chars.set(e, { collider, kcc, center: [...cc.center] as Vec3, last: { grounded: false, velocity: [0, 0, 0], hits: [] } });
  }

  /** Gives the entity back to the built-in controller and frees its Rapier objects. */
  remove(e: Entity): void {
    const c = this.chars.get(e);
    if (!c) return;
    this.queries?.unbind(c.collider);
    this.rworld.removeCharacterController(c.kcc);
    this.rworld.removeCollider(c.collider, false);
    this.chars.delete(e);
    if (this.world.alive(e) && this.world.has(e, CharacterController)) {
      this.world.update(e, CharacterController, (cc) => {
        cc.backend = 'Builtin';
      });
    }
  }

  /** After world.step(dt): moves every controller by its `requested` through Rapier. */
  update(dt: number): void {
    for (const [e, c] of this.chars) {
      const cc = this.world.get(e, CharacterController);
      const own = c.collider;
      c.kcc.computeColliderMovement(own, vec(cc.requested), undefined, undefined, (other) => other.handle !== own.handle);
      const mv = c.kcc.computedMovement();
      const p = own.translation();
      own.setTranslation({ x: p.x + mv.x, y: p.y + mv.y, z: p.z + mv.z });
      this.world.update(e, Transform, (t) => {
        t.position = [p.x + mv.x - c.center[0], p.y + mv.y - c.center[1], p.z + mv.z - c.center[2]];
      });
      const hits: RapierMoveResult['hits'] = [];
      for (let i = 0; i < c.kcc.numComputedCollisions(); i++) {
        const col = c.kcc.computedCollision(i);
        if (!col) continue;
        hits.push({ entity: col.collider ? this.queries?.entityOf(col.collider) : undefined, normal: arr(col.normal1) });
      }
      c.last = { grounded: c.kcc.computedGrounded(), velocity: dt > 0 ? [mv.x / dt, mv.y / dt, mv.z / dt] : [0, 0, 0], hits };
    }
  }

  /** The last update()'s result for the entity, or undefined when it is not Rapier-driven. */
  result(e: Entity): RapierMoveResult | undefined {
    return this.chars.get(e)?.last;
  }
}
