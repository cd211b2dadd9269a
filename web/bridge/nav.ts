/** Navigation meshes: baking with Recast (@recast-navigation, an optional peer dependency: the
 * Node entry imports it on the first bake, a browser page passes it with useRecast), Limber's navmesh format, and the core's deterministic queries
 * (nearest point, path, move along the surface, raycast). Rules and limits:
 * wasm/include/limber/nav.h. */
import { badArgument, describe, handleArg, jsonArg, nameArg, readVector } from './args.js';
import { brand, type Entity, type HandleArg, type NavMeshHandle, type Vec3, type Vec3Like } from './components.js';
import { NavAgent, type NavAgentData } from './components.generated.js';
import { LimberError } from './errors.js';
import type { World } from './world.js';

/** Limber's navmesh format (the shape Detour uses): vertices, convex polygons (3..6 vertex
 * indices, counter-clockwise seen from above) and, per polygon edge k (vertex k to k+1), the
 * polygon across it or -1 for a wall. */
export interface NavMeshData {
  format: 'limber-navmesh';
  version: 1;
  vertices: Vec3[];
  polygons: number[][];
  neighbours: number[][];
  /** where the mesh came from (ignored by the core) */
  source?: Record<string, unknown>;
  settings?: Record<string, unknown>;
  bounds?: [Vec3, Vec3];
}

/** Recast settings in metres and degrees (converted to Recast's voxel units here). */
export interface NavBakeSettings {
  /** voxel size across, metres (default 0.1) */
  cellSize?: number;
  /** voxel size up, metres (default 0.1) */
  cellHeight?: number;
  /** metres kept clear of walls (default: the level's agentRadius, else 0.35) */
  agentRadius?: number;
  /** metres of headroom needed (default 1.8) */
  agentHeight?: number;
  /** step height climbed, metres (default 0.3) */
  agentMaxClimb?: number;
  /** steepest walkable slope, degrees (default 45) */
  agentMaxSlope?: number;
  /** longest polygon edge along walls, metres (default 12) */
  maxEdgeLength?: number;
  /** contour simplification, voxels (default 1.3) */
  maxSimplificationError?: number;
  /** smallest island kept, voxels squared... as Recast's minRegionArea (default 8) */
  minRegionArea?: number;
  /** regions smaller than this merge, as Recast's mergeRegionArea (default 20) */
  mergeRegionArea?: number;
  /** 3..6 (default 6) */
  maxVertsPerPoly?: number;
}

/** A level to bake: a level file's data (pieces: boxes with center, size, rotation [x y z w]),
 * or raw triangles (positions x y z..., indices, counter-clockwise seen from outside). */
export type NavLevel =
  | { name?: string; agentRadius?: number; pieces: { center: Vec3Like; size: Vec3Like; rotation?: number[]; shape?: string }[] }
  | { name?: string; positions: ArrayLike<number>; indices: ArrayLike<number> };

export interface NavPoint {
  position: Vec3;
  /** polygon index, or -1 when not on the mesh */
  polygon: number;
}

/** A point on the mesh as the queries take it: a NavPoint, its position in any Vec3Like form. */
export interface NavPointLike {
  position: Vec3Like;
  polygon: number;
}

/** How a path query ended, spelt as NavAgent.pathStatus spells it (enum strings have one
 * casing across the API, the schema's): 'Complete', or 'Partial' when the goal is
 * unreachable. Earlier versions returned lower case ('complete' | 'partial'): navPathStatus()
 * reads either spelling (see CHANGELOG.md). */
export type NavPathStatus = Exclude<NavAgentData['pathStatus'], 'None'>;

/** A path status in either spelling ('Complete' or the old 'complete', ...) as the current
 * one; anything else is a LimberError naming `field`. For code that stored the old strings. */
export function navPathStatus(status: NavPathStatus | Lowercase<NavPathStatus>, field = 'status'): NavPathStatus {
  if (status === 'Complete' || status === 'complete') return 'Complete';
  if (status === 'Partial' || status === 'partial') return 'Partial';
  throw badArgument('navPathStatus', field, `must be 'Complete' or 'Partial' (or the old 'complete', 'partial'), got ${describe(status)}`, 'LB_ERR_UNKNOWN_NAME');
}

export interface NavPath {
  /** 'Complete', or 'Partial': the goal is unreachable and the path ends at the reachable point nearest it */
  status: NavPathStatus;
  /** corners from start to end (at most maxPoints) */
  points: Vec3[];
  /** corners of the whole path (more than points.length when cut at maxPoints) */
  cornerCount: number;
  polygonCount: number;
  /** metres along the whole path */
  length: number;
  start: NavPoint;
  end: NavPoint;
}

export interface NavHit {
  hit: boolean;
  /** fraction of from->to travelled (1 without a hit) */
  t: number;
  position: Vec3;
  /** the wall's normal (XZ, pointing back into the mesh); [0, 0, 0] without a hit */
  normal: Vec3;
  polygon: number;
}

/** What avoidance did for a NavAgent in the last step (world.nav.avoidance). */
export interface NavAvoidance {
  /** The agents it avoided, nearest first (as many as its `neighbours` output; a neighbour
   * despawned since is a stale handle). */
  neighbours: Entity[];
  /** The velocity its path asked for before avoidance, m/s (its `desiredVelocity` is the one
   * after); 0 when it is not heading anywhere. */
  preferredVelocity: Vec3;
}

/** Most neighbours an agent avoids (LB_NAV_AVOID_NEIGHBOURS, limber/nav.h). */
export const NAV_AVOID_NEIGHBOURS = 10;

export interface NavMeshInfo {
  vertexCount: number;
  polygonCount: number;
  edgeCount: number;
  portalCount: number;
  bounds: [Vec3, Vec3];
}

const NO_POLYGON = 0xffffffff;

/* ---- baking ---------------------------------------------------------------------------------- */

/* The few parts of @recast-navigation used here. Its .d.ts files use extensionless relative
 * imports, which NodeNext resolution reads as empty modules, so they are typed here. */
interface DetourPolyLike {
  getType(): number;
  vertCount(): number;
  verts(k: number): number;
  neis(k: number): number;
}
interface DetourTileLike {
  header(): { vertCount(): number; polyCount(): number } | null;
  verts(i: number): number;
  polys(i: number): DetourPolyLike;
}
/** The Detour mesh a bake made (@recast-navigation/core's NavMesh). */
export interface DetourNavMesh {
  getTile(i: number): DetourTileLike;
  destroy(): void;
}
interface RecastCore {
  init(): Promise<void>;
}
interface RecastGenerators {
  generateSoloNavMesh(positions: ArrayLike<number>, indices: ArrayLike<number>, config: Record<string, number>): { success: true; navMesh: DetourNavMesh } | { success: false; error: string };
}
/** Where the Recast modules come from: the Node entry (index.ts) imports the installed
 * packages; in a browser the page hands them over with useRecast (the browser entry imports no
 * package, so bundles without navmesh baking stay free of Recast). */
let recastLoader: (() => Promise<{ core: unknown; generators: unknown }>) | null = null;
let recast: Promise<{ core: RecastCore; gen: RecastGenerators }> | null = null;

/** @internal The Node entry's loader of @recast-navigation/core and /generators. */
export function setRecastLoader(loader: () => Promise<{ core: unknown; generators: unknown }>): void {
  recastLoader = loader;
  recast = null;
}

/** Hands the bake functions the Recast modules (needed in a browser; in Node they are imported
 * from the installed packages): `useRecast({ core, generators })` with the module namespaces of
 * @recast-navigation/core and @recast-navigation/generators. */
export function useRecast(modules: { core: unknown; generators: unknown }): void {
  const fn = 'useRecast';
  if (modules === null || typeof modules !== 'object') throw badArgument(fn, 'modules', `must be { core, generators }, got ${describe(modules)}`);
  const core = modules.core as Partial<RecastCore> | null;
  const generators = modules.generators as Partial<RecastGenerators> | null;
  if (!core || typeof core.init !== 'function') throw badArgument(fn, 'modules.core', 'must be the @recast-navigation/core module (it has init)');
  if (!generators || typeof generators.generateSoloNavMesh !== 'function') throw badArgument(fn, 'modules.generators', 'must be the @recast-navigation/generators module (it has generateSoloNavMesh)');
  setRecastLoader(async () => ({ core, generators }));
}

async function loadRecast(fn: string): Promise<{ core: RecastCore; gen: RecastGenerators }> {
  if (!recastLoader) {
    throw new LimberError('LB_ERR_INVALID_ARGUMENT', `LB_ERR_INVALID_ARGUMENT: ${fn}: baking needs @recast-navigation/core and @recast-navigation/generators; in a browser pass them with useRecast({ core, generators }) first`);
  }
  if (!recast) {
    const load = recastLoader;
    recast = (async () => {
      const m = await load();
      const core = m.core as RecastCore;
      const gen = m.generators as RecastGenerators;
      await core.init();
      return { core, gen };
    })();
    recast.catch(() => {
      recast = null;
    });
  }
  try {
    return await recast;
  } catch (err) {
    throw new LimberError('LB_ERR_INVALID_ARGUMENT', `LB_ERR_INVALID_ARGUMENT: ${fn}: baking needs the packages @recast-navigation/core and @recast-navigation/generators (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`);
  }
}

function finiteArg(v: unknown, fn: string, field: string, lo: number, hi: number): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw badArgument(fn, field, `must be a finite number, got ${describe(v)}`, 'LB_ERR_NOT_FINITE');
  if (v < lo || v > hi) throw badArgument(fn, field, `= ${v} is outside [${lo}, ${hi}]`, 'LB_ERR_OUT_OF_RANGE');
  return v;
}

/** A finite 3-vector in any form readVector takes ([x, y, z], a typed array, {x, y, z}). */
function vec3Arg(v: unknown, fn: string, field: string): Vec3 {
  const r = readVector(v, 3);
  if (!('values' in r)) throw badArgument(fn, `${field}${r.at}`, r.why);
  const out = r.values as Vec3;
  for (let i = 0; i < 3; i++) {
    if (!Number.isFinite(out[i])) throw badArgument(fn, `${field}${Array.isArray(v) || ArrayBuffer.isView(v) ? `[${i}]` : `.${'xyz'[i]}`}`, `must be a finite number, got ${describe(out[i])}`, 'LB_ERR_NOT_FINITE');
  }
  return out;
}

function rotate(q: number[], v: Vec3): Vec3 {
  const [x, y, z, w] = q as [number, number, number, number];
  const tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]), tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}

/** Triangles of a level: every box piece as 12 triangles facing out. */
export function levelTriangles(level: NavLevel, fn = 'levelTriangles'): { positions: Float32Array; indices: Uint32Array } {
  if (level === null || typeof level !== 'object') throw badArgument(fn, 'level', `must be a level object, got ${describe(level)}`);
  if ('positions' in level) {
    const { positions, indices } = level;
    if (!positions || typeof positions.length !== 'number' || positions.length % 3 !== 0) throw badArgument(fn, 'level.positions', 'must hold x y z per vertex');
    if (!indices || typeof indices.length !== 'number' || indices.length % 3 !== 0 || indices.length === 0) throw badArgument(fn, 'level.indices', 'must hold 3 vertex indices per triangle');
    const p = Float32Array.from(positions, (x, i) => finiteArg(x, fn, `level.positions[${i}]`, -1e6, 1e6));
    const n = p.length / 3;
    const t = Uint32Array.from(indices, (x, i) => {
      if (!Number.isInteger(x) || x < 0 || x >= n) throw badArgument(fn, `level.indices[${i}]`, `must be a vertex index below ${n}, got ${describe(x)}`, 'LB_ERR_OUT_OF_RANGE');
      return x;
    });
    return { positions: p, indices: t };
  }
  if (!Array.isArray(level.pieces) || level.pieces.length === 0) throw badArgument(fn, 'level.pieces', 'must be a non-empty array of box pieces');
  const P: number[] = [];
  const I: number[] = [];
  // Faces as corner lists (bit 0 = +x, bit 1 = +y, bit 2 = +z), counter-clockwise seen from outside.
  const FACES = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
  level.pieces.forEach((piece, k) => {
    const where = `level.pieces[${k}]`;
    if (piece === null || typeof piece !== 'object') throw badArgument(fn, where, `must be a box piece, got ${describe(piece)}`);
    if (piece.shape !== undefined && piece.shape !== 'box') throw badArgument(fn, `${where}.shape`, `must be "box", got ${describe(piece.shape)}`);
    const c = vec3Arg(piece.center, fn, `${where}.center`);
    const s = vec3Arg(piece.size, fn, `${where}.size`);
    if (s.some((x) => x <= 0)) throw badArgument(fn, `${where}.size`, 'must be positive', 'LB_ERR_OUT_OF_RANGE');
    const q = piece.rotation ?? [0, 0, 0, 1];
    if (!Array.isArray(q) || q.length !== 4 || !q.every((x) => typeof x === 'number' && Number.isFinite(x)) || Math.abs(Math.hypot(...q) - 1) > 1e-4) {
      throw badArgument(fn, `${where}.rotation`, 'must be a unit quaternion [x, y, z, w]');
    }
    const base = P.length / 3;
    for (let i = 0; i < 8; i++) {
      const r = rotate(q, [i & 1 ? s[0] / 2 : -s[0] / 2, i & 2 ? s[1] / 2 : -s[1] / 2, i & 4 ? s[2] / 2 : -s[2] / 2]);
      P.push(r[0] + c[0], r[1] + c[1], r[2] + c[2]);
    }
    for (const f of FACES) I.push(base + f[0]!, base + f[1]!, base + f[2]!, base + f[0]!, base + f[2]!, base + f[3]!);
  });
  return { positions: Float32Array.from(P), indices: Uint32Array.from(I) };
}

/** Settings with defaults filled and checked. */
export function navBakeSettings(settings: NavBakeSettings = {}, level?: NavLevel, fn = 'nav.bake'): Required<NavBakeSettings> {
  if (settings === null || typeof settings !== 'object') throw badArgument(fn, 'settings', `must be an object, got ${describe(settings)}`);
  const levelRadius = level && 'agentRadius' in level && typeof level.agentRadius === 'number' ? level.agentRadius : 0.35;
  const known = ['cellSize', 'cellHeight', 'agentRadius', 'agentHeight', 'agentMaxClimb', 'agentMaxSlope', 'maxEdgeLength', 'maxSimplificationError', 'minRegionArea', 'mergeRegionArea', 'maxVertsPerPoly'];
  for (const k of Object.keys(settings)) if (!known.includes(k)) throw badArgument(fn, `settings.${k}`, `is not a bake setting (${known.join(', ')})`);
  const s = settings;
  const out: Required<NavBakeSettings> = {
    cellSize: finiteArg(s.cellSize ?? 0.1, fn, 'settings.cellSize', 0.01, 10),
    cellHeight: finiteArg(s.cellHeight ?? 0.1, fn, 'settings.cellHeight', 0.01, 10),
    agentRadius: finiteArg(s.agentRadius ?? levelRadius, fn, 'settings.agentRadius', 0, 100),
    agentHeight: finiteArg(s.agentHeight ?? 1.8, fn, 'settings.agentHeight', 0.01, 100),
    agentMaxClimb: finiteArg(s.agentMaxClimb ?? 0.3, fn, 'settings.agentMaxClimb', 0, 100),
    agentMaxSlope: finiteArg(s.agentMaxSlope ?? 45, fn, 'settings.agentMaxSlope', 0, 90),
    maxEdgeLength: finiteArg(s.maxEdgeLength ?? 12, fn, 'settings.maxEdgeLength', 0, 1e4),
    maxSimplificationError: finiteArg(s.maxSimplificationError ?? 1.3, fn, 'settings.maxSimplificationError', 0, 100),
    minRegionArea: finiteArg(s.minRegionArea ?? 8, fn, 'settings.minRegionArea', 0, 1e6),
    mergeRegionArea: finiteArg(s.mergeRegionArea ?? 20, fn, 'settings.mergeRegionArea', 0, 1e6),
    maxVertsPerPoly: finiteArg(s.maxVertsPerPoly ?? 6, fn, 'settings.maxVertsPerPoly', 3, 6),
  };
  if (!Number.isInteger(out.maxVertsPerPoly)) throw badArgument(fn, 'settings.maxVertsPerPoly', 'must be a whole number 3..6', 'LB_ERR_OUT_OF_RANGE');
  return out;
}

/** What a bake returns for cross-checks: the mesh in Limber's format and the Detour mesh it
 * came from (the caller calls `detour.destroy()`). */
export interface DetourBake {
  data: NavMeshData;
  detour: DetourNavMesh;
}

/** Bakes with Recast and keeps the Detour mesh (for comparing the core with Detour). */
export async function bakeDetourNavMesh(level: NavLevel, settings: NavBakeSettings = {}): Promise<DetourBake> {
  const fn = 'nav.bake';
  const tris = levelTriangles(level, fn);
  const s = navBakeSettings(settings, level, fn);
  const { gen } = await loadRecast(fn);
  const cs = s.cellSize, ch = s.cellHeight;
  const result = gen.generateSoloNavMesh(tris.positions, tris.indices, {
    cs,
    ch,
    walkableSlopeAngle: s.agentMaxSlope,
    walkableHeight: Math.ceil(s.agentHeight / ch),
    walkableClimb: Math.floor(s.agentMaxClimb / ch),
    walkableRadius: Math.ceil(s.agentRadius / cs),
    maxEdgeLen: Math.floor(s.maxEdgeLength / cs),
    maxSimplificationError: s.maxSimplificationError,
    minRegionArea: s.minRegionArea,
    mergeRegionArea: s.mergeRegionArea,
    maxVertsPerPoly: s.maxVertsPerPoly,
    // Recast's default detail settings (the core reads heights from the polygons; the levels'
    // walkable surfaces are planar, so both agree). Sample distance 0 crashes this build
    // (0.43.1) in rcBuildPolyMeshDetail.
    detailSampleDist: 6,
    detailSampleMaxError: 1,
  });
  if (!result.success) throw new LimberError('LB_ERR_DEGENERATE', `LB_ERR_DEGENERATE: ${fn}: Recast could not bake the level (${result.error})`);
  const navMesh = result.navMesh;
  const tile = navMesh.getTile(0);
  const header = tile.header();
  if (!header) {
    navMesh.destroy();
    throw new LimberError('LB_ERR_DEGENERATE', `LB_ERR_DEGENERATE: ${fn}: Recast baked no walkable surface`);
  }
  const vertices: Vec3[] = [];
  for (let i = 0; i < header.vertCount(); i++) vertices.push([tile.verts(3 * i), tile.verts(3 * i + 1), tile.verts(3 * i + 2)]);
  const polygons: number[][] = [];
  const neighbours: number[][] = [];
  for (let i = 0; i < header.polyCount(); i++) {
    const p = tile.polys(i);
    if (p.getType() !== 0) continue; // off-mesh connections are not polygons (none are baked)
    const v: number[] = [];
    const n: number[] = [];
    for (let k = 0; k < p.vertCount(); k++) {
      v.push(p.verts(k));
      const nei = p.neis(k);
      // Detour: 0 = wall, 0x8000 = an edge to another tile (none in a solo mesh), else index + 1.
      n.push(nei === 0 || nei & 0x8000 ? -1 : nei - 1);
    }
    polygons.push(v);
    neighbours.push(n);
  }
  const lo: Vec3 = [Infinity, Infinity, Infinity];
  const hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const v of vertices) for (let c = 0; c < 3; c++) (lo[c] = Math.min(lo[c]!, v[c]!)), (hi[c] = Math.max(hi[c]!, v[c]!));
  const data: NavMeshData = {
    format: 'limber-navmesh',
    version: 1,
    source: { level: level.name ?? '', baker: '@recast-navigation (Recast solo mesh)' },
    settings: { ...s },
    bounds: [lo, hi],
    vertices,
    polygons,
    neighbours,
  };
  return { data, detour: navMesh };
}

/** Bakes a level with Recast into Limber's navmesh format (no world needed). */
export async function bakeNavMeshData(level: NavLevel, settings: NavBakeSettings = {}): Promise<NavMeshData> {
  const { data, detour } = await bakeDetourNavMesh(level, settings);
  detour.destroy();
  return data;
}

/** Bakes a level with Recast and adds the mesh to the world: the navmesh asset handle. */
export async function bakeNavMesh(world: World, level: NavLevel, settings: NavBakeSettings = {}, name?: string): Promise<NavMeshHandle> {
  const data = await bakeNavMeshData(level, settings);
  return addNavMesh(world, data, name ?? (level.name || 'navmesh'));
}

/* ---- assets ---------------------------------------------------------------------------------- */

/** Adds a navmesh (Limber's format, as an object or its JSON text); the asset handle. The core
 * refuses a bad mesh (non-convex polygon, broken adjacency, NaN, index out of range) with a
 * LimberError naming the polygon and edge, and keeps nothing of it. */
export function addNavMesh(world: World, mesh: NavMeshData | string, name = 'navmesh'): NavMeshHandle {
  const fn = 'nav.addMesh';
  nameArg(name, fn, 'name');
  if (typeof mesh === 'object' && mesh !== null && !Array.isArray(mesh)) return addNavMeshData(world, mesh, name);
  const text = jsonArg(mesh, fn, 'mesh', 'a navmesh object or its JSON text');
  return world.native(({ ex, heap, w, check }) =>
    heap.withStrings([name, text], fn, (n, j) =>
      heap.scratch(4, (p) => {
        check(ex.lbw_add_navmesh_json(w, n.ptr, j.ptr, j.len, p), { fn });
        return brand<NavMeshHandle>(heap.u32[p >> 2]!);
      }, fn),
    ),
  );
}

/** The binary path for an object: arrays checked here for shape, the geometry in the core. */
function addNavMeshData(world: World, mesh: NavMeshData, name: string): NavMeshHandle {
  const fn = 'nav.addMesh';
  if (mesh.format !== 'limber-navmesh' || mesh.version !== 1) throw badArgument(fn, 'mesh.format', 'must be "limber-navmesh" with version 1', 'LB_ERR_PARSE');
  const { vertices, polygons, neighbours } = mesh;
  if (!Array.isArray(vertices) || !Array.isArray(polygons) || !Array.isArray(neighbours)) throw badArgument(fn, 'mesh', "needs arrays 'vertices', 'polygons' and 'neighbours'", 'LB_ERR_PARSE');
  if (polygons.length !== neighbours.length) throw badArgument(fn, 'mesh.neighbours', `must hold one list per polygon (${polygons.length}), got ${neighbours.length}`, 'LB_ERR_PARSE');
  if (polygons.length === 0 || vertices.length < 3) throw badArgument(fn, 'mesh', 'needs at least 3 vertices and 1 polygon', 'LB_ERR_OUT_OF_RANGE');
  const V = new Float32Array(vertices.length * 3);
  vertices.forEach((v, i) => {
    if (!Array.isArray(v) || v.length !== 3) throw badArgument(fn, `mesh.vertices[${i}]`, 'must be [x, y, z]', 'LB_ERR_PARSE');
    for (let c = 0; c < 3; c++) {
      if (typeof v[c] !== 'number') throw badArgument(fn, `mesh.vertices[${i}][${c}]`, `must be a number, got ${describe(v[c])}`, 'LB_ERR_PARSE');
      V[3 * i + c] = v[c]!;
    }
  });
  const counts = new Uint8Array(polygons.length);
  const idx: number[] = [];
  const nei: number[] = [];
  polygons.forEach((p, i) => {
    const q = neighbours[i];
    if (!Array.isArray(p) || p.length < 3 || p.length > 6) throw badArgument(fn, `mesh.polygons[${i}]`, 'must hold 3..6 vertex indices', 'LB_ERR_PARSE');
    if (!Array.isArray(q) || q.length !== p.length) throw badArgument(fn, `mesh.neighbours[${i}]`, `must hold one entry per edge (${p.length})`, 'LB_ERR_PARSE');
    counts[i] = p.length;
    p.forEach((x, k) => {
      if (!Number.isInteger(x) || x < 0 || x > 0xfffffffe) throw badArgument(fn, `mesh.polygons[${i}][${k}]`, `must be a vertex index, got ${describe(x)}`, 'LB_ERR_PARSE');
      const y = q[k];
      if (typeof y !== 'number' || !Number.isInteger(y) || y < -1 || y > 0x7fffffff) throw badArgument(fn, `mesh.neighbours[${i}][${k}]`, `must be a polygon index or -1, got ${describe(y)}`, 'LB_ERR_PARSE');
      idx.push(x);
      nei.push(y);
    });
  });
  return world.native(({ ex, heap, w, check }) => {
    const held: number[] = [];
    const put = (bytes: Uint8Array): number => {
      const p = heap.bytes(bytes, fn);
      held.push(p);
      return p;
    };
    try {
      const n = put(new TextEncoder().encode(name));
      const pv = put(new Uint8Array(V.buffer));
      const pc = put(counts);
      const pi = put(new Uint8Array(Uint32Array.from(idx).buffer));
      const pn = put(new Uint8Array(Int32Array.from(nei).buffer));
      return heap.scratch(4, (p) => {
        check(ex.lbw_add_navmesh(w, n, pv, vertices.length, pc, pi, pn, polygons.length, p), { fn });
        return brand<NavMeshHandle>(heap.u32[p >> 2]!);
      }, fn);
    } finally {
      for (const p of held) ex.lbw_free(p);
    }
  });
}

/** Handle of a navmesh by name (as added or declared in a scene), or 0 (none). */
export function findNavMesh(world: World, name: string): NavMeshHandle {
  nameArg(name, 'nav.find', 'name');
  return world.native(({ ex, heap, w }) => heap.withString(name, 'nav.find', (s) => brand<NavMeshHandle>(ex.lbw_navmesh_find(w, s) >>> 0)));
}

export function navMeshInfo(world: World, mesh: HandleArg<NavMeshHandle>): NavMeshInfo {
  const fn = 'nav.info';
  handleArg(mesh, fn, 'mesh', 'a navmesh handle');
  return world.native(({ ex, heap, w, check }) =>
    heap.scratch(40, (p) => {
      check(ex.lbw_navmesh_info(w, mesh, p), { fn });
      const u = heap.u32, f = heap.f32, i = p >> 2;
      return {
        vertexCount: u[i]!,
        polygonCount: u[i + 1]!,
        edgeCount: u[i + 2]!,
        portalCount: u[i + 3]!,
        bounds: [[f[i + 4]!, f[i + 5]!, f[i + 6]!], [f[i + 7]!, f[i + 8]!, f[i + 9]!]],
      };
    }, fn),
  );
}

/* ---- queries --------------------------------------------------------------------------------- */

function readPoint(u: Uint32Array, f: Float32Array, i: number): NavPoint {
  return { position: [f[i]!, f[i + 1]!, f[i + 2]!], polygon: u[i + 3] === NO_POLYGON ? -1 : u[i + 3]! };
}

function pointArg(v: unknown, fn: string, field: string): NavPoint {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw badArgument(fn, field, `must be a point on the mesh {position, polygon} (from navNearest), got ${describe(v)}`);
  const p = v as { position?: unknown; polygon?: unknown };
  const position = vec3Arg(p.position, fn, `${field}.position`);
  if (typeof p.polygon !== 'number' || !Number.isInteger(p.polygon) || p.polygon < 0 || p.polygon > 0xfffffffe) {
    throw badArgument(fn, `${field}.polygon`, `must be a polygon index, got ${describe(p.polygon)}`, 'LB_ERR_OUT_OF_RANGE');
  }
  return { position, polygon: p.polygon };
}

/** Nearest point of the mesh to `point`. */
export function navNearest(world: World, mesh: HandleArg<NavMeshHandle>, point: Vec3Like): NavPoint {
  const fn = 'nav.nearest';
  handleArg(mesh, fn, 'mesh', 'a navmesh handle');
  const p3 = vec3Arg(point, fn, 'point');
  return world.native(({ ex, heap, w, check }) =>
    heap.scratch(32, (p) => {
      heap.f32.set(p3, p >> 2);
      check(ex.lbw_nav_nearest(w, mesh, p, p + 12), { fn });
      return readPoint(heap.u32, heap.f32, (p + 12) >> 2);
    }, fn),
  );
}

/** Path from the mesh point nearest `start` to the one nearest `goal` (A* + string pulling). */
export function navFindPath(world: World, mesh: HandleArg<NavMeshHandle>, start: Vec3Like, goal: Vec3Like, options: { maxPoints?: number } = {}): NavPath {
  const fn = 'nav.findPath';
  handleArg(mesh, fn, 'mesh', 'a navmesh handle');
  const a = vec3Arg(start, fn, 'start');
  const b = vec3Arg(goal, fn, 'goal');
  const cap = options.maxPoints ?? 256;
  if (!Number.isInteger(cap) || cap < 0 || cap > 1 << 20) throw badArgument(fn, 'options.maxPoints', `must be a whole number 0..${1 << 20}, got ${describe(cap)}`, 'LB_ERR_OUT_OF_RANGE');
  return world.native(({ ex, heap, w, check }) =>
    heap.scratch(24 + 13 * 4 + cap * 12, (p) => {
      heap.f32.set(a, p >> 2);
      heap.f32.set(b, (p >> 2) + 3);
      const out = p + 24, pts = out + 13 * 4;
      check(ex.lbw_nav_find_path(w, mesh, p, p + 12, pts, cap, out), { fn });
      const u = heap.u32, f = heap.f32, i = out >> 2;
      const points: Vec3[] = [];
      for (let k = 0; k < u[i]!; k++) points.push([f[(pts >> 2) + 3 * k]!, f[(pts >> 2) + 3 * k + 1]!, f[(pts >> 2) + 3 * k + 2]!]);
      return {
        status: u[i + 3] === 1 ? 'Complete' : 'Partial',
        points,
        cornerCount: u[i + 1]!,
        polygonCount: u[i + 2]!,
        length: f[i + 4]!,
        start: readPoint(u, f, i + 5),
        end: readPoint(u, f, i + 9),
      } satisfies NavPath;
    }, fn),
  );
}

/** Moves from `from` (a point on the mesh) toward `to` along the surface, clamped at walls. */
export function navMoveAlongSurface(world: World, mesh: HandleArg<NavMeshHandle>, from: NavPointLike, to: Vec3Like): NavPoint {
  const fn = 'nav.moveAlongSurface';
  handleArg(mesh, fn, 'mesh', 'a navmesh handle');
  const s = pointArg(from, fn, 'from');
  const t = vec3Arg(to, fn, 'to');
  return world.native(({ ex, heap, w, check }) =>
    heap.scratch(48, (p) => {
      heap.f32.set(s.position, p >> 2);
      heap.u32[(p >> 2) + 3] = s.polygon;
      heap.f32.set(t, (p >> 2) + 4);
      check(ex.lbw_nav_move_along_surface(w, mesh, p, p + 16, p + 28), { fn });
      return readPoint(heap.u32, heap.f32, (p + 28) >> 2);
    }, fn),
  );
}

/** Casts from `from` toward `to` along the surface (XZ) to the first wall. */
export function navRaycast(world: World, mesh: HandleArg<NavMeshHandle>, from: NavPointLike, to: Vec3Like): NavHit {
  const fn = 'nav.raycast';
  handleArg(mesh, fn, 'mesh', 'a navmesh handle');
  const s = pointArg(from, fn, 'from');
  const t = vec3Arg(to, fn, 'to');
  return world.native(({ ex, heap, w, check }) =>
    heap.scratch(64, (p) => {
      heap.f32.set(s.position, p >> 2);
      heap.u32[(p >> 2) + 3] = s.polygon;
      heap.f32.set(t, (p >> 2) + 4);
      check(ex.lbw_nav_raycast(w, mesh, p, p + 16, p + 28), { fn });
      const u = heap.u32, f = heap.f32, i = (p + 28) >> 2;
      return {
        hit: u[i] === 1,
        t: f[i + 1]!,
        position: [f[i + 2]!, f[i + 3]!, f[i + 4]!],
        normal: [f[i + 5]!, f[i + 6]!, f[i + 7]!],
        polygon: u[i + 8] === NO_POLYGON ? -1 : u[i + 8]!,
      } satisfies NavHit;
    }, fn),
  );
}

/* ---- NavAgent -------------------------------------------------------------------------------- */

/** Sends the agent to `destination` (world space): it heads there from the next step, also
 * right after stopNavAgent (no frame of delay). */
export function setNavDestination(world: World, entity: Entity, destination: Vec3Like): void {
  const fn = 'nav.setDestination';
  const p = vec3Arg(destination, fn, 'destination');
  world.update(entity, NavAgent, (a) => {
    a.destination = p;
    a.hasDestination = true;
    a.stopped = false;
  });
}

/** Holds the agent still where it is (its destination is kept; setNavDestination resumes). */
export function stopNavAgent(world: World, entity: Entity): void {
  world.update(entity, NavAgent, (a) => {
    a.stopped = true;
  });
}

/** What avoidance did for the NavAgent on `entity` in the last step. */
export function navAvoidance(world: World, entity: Entity): NavAvoidance {
  const fn = 'nav.avoidance';
  return world.native(({ ex, heap, w, check, entity: live }) => {
    const h = live(entity, fn);
    return heap.scratch(4 * (4 + NAV_AVOID_NEIGHBOURS), (p) => {
      check(ex.lbw_nav_avoidance(w, h, p), { entity: h, fn });
      const at = p >> 2;
      const count = heap.u32[at]!;
      const neighbours = Array.from(heap.u32.subarray(at + 1, at + 1 + count)) as Entity[];
      const v = at + 1 + NAV_AVOID_NEIGHBOURS;
      return { neighbours, preferredVelocity: [heap.f32[v]!, heap.f32[v + 1]!, heap.f32[v + 2]!] };
    }, fn);
  });
}

export class NavApi {
  /** @internal use `world.nav` */
  constructor(private readonly world: World) {}

  /** Adds a navmesh (Limber's format, as an object or its JSON text); the asset handle. The
   * core refuses a bad mesh (non-convex polygon, broken adjacency, NaN, index out of range)
   * with a LimberError naming the polygon and edge, and keeps nothing of it. */
  readonly addMesh = (mesh: NavMeshData | string, name = 'navmesh'): NavMeshHandle => addNavMesh(this.world, mesh, name);
  /** Bakes a level with Recast (the optional @recast-navigation peers) and adds the mesh:
   * the navmesh asset handle. */
  readonly bake = (level: NavLevel, settings: NavBakeSettings = {}, name?: string): Promise<NavMeshHandle> => bakeNavMesh(this.world, level, settings, name);
  /** Handle of a navmesh by name (as added or declared in a scene), or 0 (none). */
  readonly find = (name: string): NavMeshHandle => findNavMesh(this.world, name);
  /** Counts, bounds and build settings of a navmesh. */
  readonly info = (mesh: HandleArg<NavMeshHandle>): NavMeshInfo => navMeshInfo(this.world, mesh);
  /** Nearest point of the mesh to `point`. */
  readonly nearest = (mesh: HandleArg<NavMeshHandle>, point: Vec3Like): NavPoint => navNearest(this.world, mesh, point);
  /** Path from the mesh point nearest `start` to the one nearest `goal` (A* + string pulling). */
  readonly findPath = (mesh: HandleArg<NavMeshHandle>, start: Vec3Like, goal: Vec3Like, options: { maxPoints?: number } = {}): NavPath =>
    navFindPath(this.world, mesh, start, goal, options);
  /** Moves from `from` (a point on the mesh) toward `to` along the surface, clamped at walls. */
  readonly moveAlongSurface = (mesh: HandleArg<NavMeshHandle>, from: NavPointLike, to: Vec3Like): NavPoint => navMoveAlongSurface(this.world, mesh, from, to);
  /** Casts from `from` toward `to` along the surface (XZ) to the first wall. */
  readonly raycast = (mesh: HandleArg<NavMeshHandle>, from: NavPointLike, to: Vec3Like): NavHit => navRaycast(this.world, mesh, from, to);
  /** Sends a NavAgent to `destination` (world space): it heads there from the next step, also
   * right after stop (no frame of delay). */
  readonly setDestination = (entity: Entity, destination: Vec3Like): void => setNavDestination(this.world, entity, destination);
  /** Holds the agent still where it is (its destination is kept; setDestination resumes). */
  readonly stop = (entity: Entity): void => stopNavAgent(this.world, entity);
  /** What avoidance did for the agent in the last step: the neighbours it avoided and its path's
   * velocity before avoidance (the playground's crowd layer draws both). Throws
   * LB_ERR_MISSING_COMPONENT without a NavAgent, LB_ERR_STALE_ENTITY for a dead handle. */
  readonly avoidance = (entity: Entity): NavAvoidance => navAvoidance(this.world, entity);
}
