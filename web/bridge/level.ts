/** world.loadLevel and world.loadProp: a game's level and its props from a file, a URL or
 * an object, as entities with typed handles.
 *
 * Both go through the scene loader (world.loadScene, io/scene.c), so the one level path of the
 * core (io/scene_level.c: a Limber level's box pieces, or a glTF file's mesh nodes as
 * collision meshes) builds the colliders and the whole load is all or nothing. What comes
 * after the load (a navmesh bake, a glTF prop's meshes hung under the prop) undoes the load
 * when it fails. Layer defaults are the scene format's: a level's walls (kind 'wall') are on
 * layers 0 and 1 (3), every other piece on the Collider default 0 (1), so the shipped systems
 * see a level with no configuration: EnvironmentInteraction (interactableLayers 2) touches
 * the walls, Vault (layerMask 0xFFFFFF) and CharacterController (layers 0xFFFFFF) see walls,
 * crates and floors. */
import { badArgument, describe, nameArg, readVector } from './args.js';
import { Collider, type Entity, GripProfile, GripSurface, type MeshHandle, type NavMeshHandle, type QuatLike, Transform, type Vec3Like } from './components.js';
import { LimberError } from './errors.js';
import type { NavBakeSettings, NavLevel, NavMeshData } from './nav.js';
import type { Scene, World } from './world.js';

/** Where a level or prop comes from: its bytes (a .glb, a .gltf or a Limber JSON file), a URL
 * or path string (fetched; in Node also a file path or a file: URL, relative to the working
 * directory), or the parsed Limber object. */
export type AssetSource = Uint8Array | ArrayBuffer | string | URL | object;

/** A Limber level (assets/levels/*.json): box pieces with a kind each. */
export interface LevelData {
  name?: string;
  agentRadius?: number;
  pieces: { name: string; kind?: string; shape: 'box'; center: [number, number, number]; size: [number, number, number]; rotation?: number[] }[];
  [key: string]: unknown;
}

export interface LoadLevelOptions {
  /** Collider layer bits per piece kind ('wall', 'floor', 'obstacle', ... : a JSON piece's
   * `kind`, a glTF node's name up to its first '_'). Default: walls 3 (layers 0 and 1),
   * everything else 1. */
  layers?: Readonly<Record<string, number>>;
  /** 'bake': bake a navmesh from the level's geometry with Recast (walkable surfaces by slope
   * and clearance, walls and crates carved out; the optional @recast-navigation peers);
   * { bake: settings } the same with bake settings; a NavMeshData (or its JSON text) to add
   * as it is; false (default): none. */
  navMesh?: 'bake' | { bake: NavBakeSettings } | NavMeshData | string | false;
  /** Name for messages and the navmesh asset; default the file's `name` or file name. */
  name?: string;
}

/** One grip anchor of a prop: where a palm goes, in the prop's frame (origin the palm
 * centre, +Z along the fingers, +Y out of the palm). */
export interface PropAnchor {
  position: Vec3Like;
  rotation?: QuatLike;
}

/** A GripSurface the fingers close onto, as a child entity of the prop. */
export interface PropSurface {
  /** entity name in the prop (default `<prop>.surface<i>`) */
  name?: string;
  shape: 'Cylinder' | 'Capsule' | 'Sphere' | 'Box';
  /** the surface entity's place in the prop's frame */
  position?: Vec3Like;
  rotation?: QuatLike;
  direction?: 'X' | 'Y' | 'Z';
  center?: Vec3Like;
  radius?: number;
  height?: number;
  size?: Vec3Like;
}

/** How a prop is held: its GripProfile's fields, the anchors as places in the prop. */
export interface PropGrip {
  mainAnchor?: PropAnchor;
  /** null: one-handed */
  supportAnchor?: PropAnchor | null;
  mainPose?: string;
  supportPose?: string;
  hand?: 'Right' | 'Left';
  mirror?: 'X' | 'Y' | 'Z';
  wrap?: boolean;
}

export interface LoadPropOptions {
  /** The prop entity's name (default the file's `name`, or the file name). */
  name?: string;
  /** The prop's Transform (default: the file's, else the origin). */
  position?: Vec3Like;
  rotation?: QuatLike;
  /** Grip surfaces added to the file's (a glTF prop without any gets one box per mesh node,
   * fitted to its bounds). */
  surfaces?: readonly PropSurface[];
  /** GripProfile fields and anchors, over the file's. */
  grip?: PropGrip;
  /** A glTF prop's mesh colliders: layer bits (default 0: no query, controller or vault sees
   * them, so a held prop never blocks its holder). */
  colliderLayer?: number;
}

/** A loaded level (world.loadLevel): its piece entities by name and kind. */
export class Level {
  /** Pieces by kind ('wall', 'floor', 'obstacle', ...), in load order. */
  readonly byKind: ReadonlyMap<string, readonly Entity[]>;
  /** @internal use world.loadLevel */
  constructor(
    /** The scene that holds the level's entities. */
    readonly scene: Scene,
    readonly name: string,
    kinds: ReadonlyMap<string, string>,
    /** Collision mesh assets of a glTF level, one per mesh node (a JSON level's pieces are boxes). */
    readonly meshes: readonly MeshHandle[],
    /** The navmesh asset (navMesh option), else undefined. */
    readonly navMesh: NavMeshHandle | undefined,
  ) {
    const by = new Map<string, Entity[]>();
    for (const [name, e] of scene.entities) {
      const k = kinds.get(name) ?? '';
      by.set(k, [...(by.get(k) ?? []), e]);
    }
    this.byKind = by;
  }
  /** Every piece entity by its name. */
  get entities(): ReadonlyMap<string, Entity> {
    return this.scene.entities;
  }
  /** Pieces of kind 'wall' (layers 0 and 1 by default: touched by EnvironmentInteraction). */
  get walls(): readonly Entity[] {
    return this.byKind.get('wall') ?? [];
  }
  /** Pieces of kind 'floor'. */
  get floors(): readonly Entity[] {
    return this.byKind.get('floor') ?? [];
  }
  /** A piece by name; throws for an unknown name. */
  entity(name: string): Entity {
    return this.scene.entity(name);
  }
  get destroyed(): boolean {
    return this.scene.destroyed;
  }
  /** Despawns the level's entities and frees its collision meshes (Scene.destroy). A navmesh
   * stays an asset of the world. */
  destroy(): void {
    this.scene.destroy();
  }
}

/** A loaded prop (world.loadProp). */
export class Prop {
  /** @internal use world.loadProp */
  constructor(
    readonly scene: Scene,
    readonly name: string,
    /** The prop's root entity: what GripHolder.held names. */
    readonly entity: Entity,
    /** Entities with a GripSurface. */
    readonly surfaces: readonly Entity[],
    /** The GripProfile's anchor entities (null: none, or no GripProfile). */
    readonly anchors: { readonly main: Entity | null; readonly support: Entity | null },
    /** Collision mesh assets of a glTF prop. */
    readonly meshes: readonly MeshHandle[],
  ) {}
  /** Every entity of the prop by name. */
  get entities(): ReadonlyMap<string, Entity> {
    return this.scene.entities;
  }
  /** True when it has a support anchor (hold it with world.grip.placeTwoHanded). */
  get twoHanded(): boolean {
    return this.anchors.support !== null;
  }
  get destroyed(): boolean {
    return this.scene.destroyed;
  }
  /** Despawns the prop's entities (a holder's GripHolder.held then names nothing). */
  destroy(): void {
    this.scene.destroy();
  }
}

/* ---- reading a source ------------------------------------------------------------------- */

/** @internal Reads the bytes behind a URL. */
export type SourceReader = (url: URL) => Promise<Uint8Array>;

const fetchBytes: SourceReader = async (url) => {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`status ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
};

let readUrl: SourceReader = fetchBytes;
let baseUrl = (): string | undefined => (typeof location !== 'undefined' ? location.href : undefined);

/** @internal The Node entry reads file: URLs and paths (relative to the working directory). */
export function setSourceReader(read: SourceReader, base: () => string | undefined): void {
  readUrl = read;
  baseUrl = base;
}

interface Source {
  kind: 'glb' | 'gltf' | 'json';
  bytes: Uint8Array;
  /** the parsed JSON of a 'json' source */
  json?: Record<string, unknown>;
  /** file name without its extension, or '' */
  stem: string;
}

function fail(code: string, fn: string, msg: string): LimberError {
  return new LimberError(code, `${code}: ${fn}: ${msg}`, { field: /field '([^']+)'/.exec(msg)?.[1] });
}

/** A LimberError of the scene loader as this function's ("scene: level 'x': ..." kept). */
function rewrap(err: unknown, fn: string): unknown {
  if (!(err instanceof LimberError)) return err;
  const body = err.message.replace(/^[A-Z_]+: /, '').replace(/^loadScene: /, '');
  return new LimberError(err.code, `${err.code}: ${fn}: ${body}`, { entity: err.entity, component: err.component, field: err.field });
}

function sniff(bytes: Uint8Array, stem: string, fn: string, what: string): Source {
  if (bytes.length === 0) throw badArgument(fn, 'source', 'is empty (0 bytes)');
  if (bytes.length >= 4 && bytes[0] === 0x67 && bytes[1] === 0x6c && bytes[2] === 0x54 && bytes[3] === 0x46) return { kind: 'glb', bytes, stem };
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (err) {
    throw fail('LB_ERR_PARSE', fn, `field 'source'${stem ? ` (${stem})` : ''} is neither a glTF binary (.glb) nor JSON text (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw fail('LB_ERR_PARSE', fn, `field 'source'${stem ? ` (${stem})` : ''} must hold a JSON object (a Limber ${what} or glTF), got ${describe(json)}`);
  const obj = json as Record<string, unknown>;
  return 'asset' in obj && ('nodes' in obj || 'meshes' in obj || 'scenes' in obj) ? { kind: 'gltf', bytes, stem } : { kind: 'json', bytes, json: obj, stem };
}

async function readSource(source: unknown, fn: string, what: string): Promise<Source> {
  if (source instanceof Uint8Array) return sniff(source, '', fn, what);
  if (source instanceof ArrayBuffer) return sniff(new Uint8Array(source), '', fn, what);
  if (typeof source === 'string' || source instanceof URL) {
    let url: URL;
    try {
      url = source instanceof URL ? source : new URL(source, baseUrl());
    } catch {
      throw badArgument(fn, 'source', `= ${describe(source)} is not a URL or path this environment can read`);
    }
    let bytes: Uint8Array;
    try {
      bytes = await readUrl(url);
    } catch (err) {
      throw badArgument(fn, 'source', `= ${describe(String(source))}: cannot read ${url.protocol === 'file:' ? decodeURIComponent(url.pathname) : url.href} (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`);
    }
    const file = decodeURIComponent(url.pathname.split('/').pop() ?? '');
    return sniff(bytes, file.replace(/\.[^.]*$/, ''), fn, what);
  }
  if (source !== null && typeof source === 'object' && !Array.isArray(source) && !ArrayBuffer.isView(source)) {
    let text: string;
    try {
      text = JSON.stringify(source);
    } catch (err) {
      throw badArgument(fn, 'source', `cannot be written as JSON (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`);
    }
    const name = (source as { name?: unknown }).name;
    return { kind: 'json', bytes: new TextEncoder().encode(text), json: JSON.parse(text) as Record<string, unknown>, stem: typeof name === 'string' ? name : '' };
  }
  throw badArgument(fn, 'source', `must be bytes (Uint8Array, ArrayBuffer), a URL or path, or a Limber ${what} object, got ${describe(source)}`);
}

/* ---- options ------------------------------------------------------------------------------- */

function objectArg<T>(v: unknown, fn: string, field: string, known: readonly string[]): Partial<T> {
  if (v === undefined) return {};
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw badArgument(fn, field, `must be an object, got ${describe(v)}`);
  for (const k of Object.keys(v)) if (!known.includes(k)) throw badArgument(fn, `${field}.${k}`, `is not an option (${known.join(', ')})`);
  return v as Partial<T>;
}

function layerBits(v: unknown, fn: string, field: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffffffff) throw badArgument(fn, field, `must be layer bits, a whole number in [0, 2^32), got ${describe(v)}`, 'LB_ERR_OUT_OF_RANGE');
  return v;
}

function finiteVec(v: unknown, n: number, fn: string, field: string): number[] {
  const r = readVector(v, n);
  if (!('values' in r)) throw badArgument(fn, `${field}${r.at}`, r.why);
  r.values.forEach((x, i) => {
    if (!Number.isFinite(x)) throw badArgument(fn, `${field}[${i}]`, `must be finite, got ${x}`, 'LB_ERR_NOT_FINITE');
  });
  return r.values;
}

function entityName(v: unknown, fn: string, field: string): string {
  const s = nameArg(v, fn, field);
  if (s.length === 0 || new TextEncoder().encode(s).length >= 64) throw badArgument(fn, field, 'must be 1 to 63 bytes (a scene entity name)', 'LB_ERR_OUT_OF_RANGE');
  return s;
}

function levelOptions(options: unknown, fn: string): LoadLevelOptions {
  const o = objectArg<LoadLevelOptions>(options, fn, 'options', ['layers', 'navMesh', 'name']);
  const layers = o.layers === undefined ? undefined : (objectArg<Record<string, number>>(o.layers, fn, 'options.layers', Object.keys(o.layers ?? {})) as Record<string, number>);
  if (layers) for (const [k, v] of Object.entries(layers)) layerBits(v, fn, `options.layers.${nameArg(k, fn, 'options.layers')}`);
  const nav = o.navMesh;
  if (nav !== undefined && nav !== false && nav !== 'bake' && typeof nav !== 'string' && (nav === null || typeof nav !== 'object' || Array.isArray(nav))) {
    throw badArgument(fn, 'options.navMesh', `must be 'bake', { bake: settings }, a navmesh (NavMeshData or its JSON text) or false, got ${describe(nav)}`);
  }
  if (nav !== null && typeof nav === 'object' && 'bake' in nav) objectArg(nav, fn, 'options.navMesh', ['bake']);
  if (o.name !== undefined) entityName(o.name, fn, 'options.name');
  return { layers, navMesh: nav, name: o.name };
}

/* ---- loadLevel ------------------------------------------------------------------------------ */

/** The level's geometry as Recast takes it: a JSON level's pieces, or a glTF level's meshes
 * read back from the collide module (the file's own frame: its entities stay at the origin). */
function navGeometry(world: World, src: Source, meshes: readonly MeshHandle[], name: string): NavLevel {
  if (src.kind === 'json') return { ...(src.json as unknown as LevelData), name };
  const P: number[] = [];
  const I: number[] = [];
  for (const m of meshes) {
    const { positions, indices } = world.collide.meshData(m);
    const base = P.length / 3;
    P.push(...positions);
    for (const i of indices) I.push(base + i);
  }
  return { name, positions: P, indices: I };
}

async function addLevelNavMesh(world: World, nav: NonNullable<LoadLevelOptions['navMesh']>, src: Source, meshes: readonly MeshHandle[], name: string): Promise<NavMeshHandle> {
  if (nav === 'bake' || (typeof nav === 'object' && 'bake' in nav)) {
    const settings = nav === 'bake' ? {} : (nav as { bake: NavBakeSettings }).bake;
    return world.nav.bake(navGeometry(world, src, meshes, name), settings, name);
  }
  return world.nav.addMesh(nav as NavMeshData | string, name);
}

/** world.loadLevel (see World.loadLevel). */
export async function loadLevel(world: World, source: AssetSource, options: LoadLevelOptions = {}): Promise<Level> {
  const fn = 'loadLevel';
  const opts = levelOptions(options, fn);
  const src = await readSource(source, fn, 'level');
  const name = opts.name ?? (typeof src.json?.name === 'string' && src.json.name ? src.json.name : src.stem || 'level');
  // The piece kinds: a JSON piece's `kind`, a glTF node's name up to its first '_' (the rule
  // of io/scene_level.c). The pieces themselves are the core's to check.
  const kinds = new Map<string, string>();
  const pieces = src.json?.pieces;
  if (Array.isArray(pieces)) for (const p of pieces) if (p && typeof p.name === 'string') kinds.set(p.name, typeof p.kind === 'string' ? p.kind : '');
  const path = `${(src.stem || 'level').replace(/[^A-Za-z0-9_.-]/g, '_')}.${src.kind}`;
  const scene = { name: `level ${name}`, entities: [], level: opts.layers ? { file: path, layers: opts.layers } : path };
  let loaded: Scene;
  try {
    loaded = world.loadScene(scene, { files: { [path]: src.bytes } });
  } catch (err) {
    throw rewrap(err, fn);
  }
  if (src.kind !== 'json') for (const n of loaded.entities.keys()) kinds.set(n, n.split('_')[0]!);
  const meshes: MeshHandle[] = [];
  for (const e of loaded.entities.values()) {
    const c = world.get(e, Collider);
    if (c.shape === 'Mesh') meshes.push(c.mesh);
  }
  let navMesh: NavMeshHandle | undefined;
  try {
    if (opts.navMesh !== undefined && opts.navMesh !== false) navMesh = await addLevelNavMesh(world, opts.navMesh, src, meshes, name);
  } catch (err) {
    loaded.destroy();
    throw rewrap(err, fn);
  }
  return new Level(loaded, name, kinds, meshes, navMesh);
}

/* ---- loadProp ------------------------------------------------------------------------------- */

type SceneEntity = { name: string; components: Record<string, Record<string, unknown>> };

const SURFACE_KEYS = ['name', 'shape', 'position', 'rotation', 'direction', 'center', 'radius', 'height', 'size'] as const;
const SHAPES = ['Cylinder', 'Capsule', 'Sphere', 'Box'];

function surfaceEntity(s: unknown, i: number, root: string, fn: string): SceneEntity {
  const field = `options.surfaces[${i}]`;
  const o = objectArg<PropSurface>(s, fn, field, SURFACE_KEYS);
  if (s === undefined) throw badArgument(fn, field, 'must be a surface object');
  if (typeof o.shape !== 'string' || !SHAPES.includes(o.shape)) throw badArgument(fn, `${field}.shape`, `must be one of ${SHAPES.join(', ')}, got ${describe(o.shape)}`, 'LB_ERR_UNKNOWN_NAME');
  const surface: Record<string, unknown> = { shape: o.shape };
  if (o.direction !== undefined) surface.direction = o.direction;
  for (const k of ['radius', 'height'] as const) {
    const v = o[k];
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v))) throw badArgument(fn, `${field}.${k}`, `must be a finite number, got ${describe(v)}`, 'LB_ERR_NOT_FINITE');
    if (v !== undefined) surface[k] = v;
  }
  if (o.center !== undefined) surface.center = finiteVec(o.center, 3, fn, `${field}.center`);
  if (o.size !== undefined) surface.size = finiteVec(o.size, 3, fn, `${field}.size`);
  const transform: Record<string, unknown> = { parent: root };
  if (o.position !== undefined) transform.position = finiteVec(o.position, 3, fn, `${field}.position`);
  if (o.rotation !== undefined) transform.rotation = finiteVec(o.rotation, 4, fn, `${field}.rotation`);
  const name = o.name === undefined ? `${root}.surface${i}` : entityName(o.name, fn, `${field}.name`);
  return { name, components: { Transform: transform, GripSurface: surface } };
}

/** The grip option over the prop's entities: GripProfile fields on the root, anchors as
 * (new or moved) child entities. */
function applyGrip(entities: SceneEntity[], root: SceneEntity, grip: unknown, fn: string): void {
  const g = objectArg<PropGrip>(grip, fn, 'options.grip', ['mainAnchor', 'supportAnchor', 'mainPose', 'supportPose', 'hand', 'mirror', 'wrap']);
  if (grip === undefined) return;
  const profile: Record<string, unknown> = { ...(root.components.GripProfile ?? {}) };
  for (const k of ['mainPose', 'supportPose', 'hand', 'mirror', 'wrap'] as const) if (g[k] !== undefined) profile[k] = g[k];
  for (const role of ['mainAnchor', 'supportAnchor'] as const) {
    const a = g[role];
    if (a === undefined) continue;
    if (a === null) {
      if (role === 'mainAnchor') throw badArgument(fn, 'options.grip.mainAnchor', 'must be an anchor { position, rotation? }, got null');
      profile[role] = null;
      continue;
    }
    const o = objectArg<PropAnchor>(a, fn, `options.grip.${role}`, ['position', 'rotation']);
    const transform: Record<string, unknown> = { parent: root.name, position: finiteVec(o.position, 3, fn, `options.grip.${role}.position`) };
    if (o.rotation !== undefined) transform.rotation = finiteVec(o.rotation, 4, fn, `options.grip.${role}.rotation`);
    const named = typeof profile[role] === 'string' ? entities.find((e) => e.name === profile[role]) : undefined;
    if (named) named.components.Transform = { ...named.components.Transform, ...transform };
    else {
      const name = `${root.name}.${role}`;
      if (entities.some((e) => e.name === name)) throw badArgument(fn, `options.grip.${role}`, `would add an entity '${name}', which the prop already has`);
      entities.push({ name, components: { Transform: transform } });
      profile[role] = name;
    }
  }
  root.components.GripProfile = profile;
}

/** The prop's entities as a scene document: the file's (JSON) or a root (glTF), renamed and
 * placed, with the grip and surfaces options applied. */
function propEntities(world: World, src: Source, options: LoadPropOptions, fn: string): { entities: SceneEntity[]; root: SceneEntity } {
  let entities: SceneEntity[];
  let root: SceneEntity;
  if (src.kind === 'json') {
    const list = src.json?.entities;
    if (!Array.isArray(list) || list.length === 0 || !list.every((e) => e && typeof e === 'object' && typeof e.name === 'string')) {
      throw fail('LB_ERR_PARSE', fn, `field 'source' must be a Limber prop: { name, entities: [{ name, components }] } (assets/props/*.json)${src.json && 'pieces' in src.json ? ', not a level' : ''}`);
    }
    entities = JSON.parse(JSON.stringify(list)) as SceneEntity[];
    for (const e of entities) e.components ??= {};
    root = entities.find((e) => e.name === src.json?.name) ?? entities.find((e) => !e.components.Transform?.parent) ?? entities[0]!;
  } else {
    root = { name: src.stem || 'prop', components: { Transform: {} } };
    entities = [root];
  }
  const name = options.name === undefined ? root.name : entityName(options.name, fn, 'options.name');
  if (name !== root.name) {
    // References to the root (children's parent, the profile's anchors) follow the rename:
    // every entity field of every component, by the schema.
    const old = root.name;
    const entityFields = new Map(world.components.map((c) => [c.name, c.fields.filter((f) => f.type === 3).map((f) => f.name)]));
    for (const e of entities) for (const [c, fields] of Object.entries(e.components)) for (const f of entityFields.get(c) ?? []) if (fields[f] === old) fields[f] = name;
    if (entities.some((e) => e.name === name)) throw badArgument(fn, 'options.name', `= '${name}' is already the name of another entity of the prop`);
    root.name = name;
  }
  const t: Record<string, unknown> = { ...(root.components.Transform ?? {}) };
  if (options.position !== undefined) t.position = finiteVec(options.position, 3, fn, 'options.position');
  if (options.rotation !== undefined) t.rotation = finiteVec(options.rotation, 4, fn, 'options.rotation');
  root.components.Transform = t;
  applyGrip(entities, root, options.grip, fn);
  if (options.surfaces !== undefined) {
    if (!Array.isArray(options.surfaces)) throw badArgument(fn, 'options.surfaces', `must be an array of surfaces, got ${describe(options.surfaces)}`);
    options.surfaces.forEach((s, i) => entities.push(surfaceEntity(s, i, root.name, fn)));
  }
  return { entities, root };
}

/** A glTF prop's mesh entities (the level loader spawned them at the origin, static) hung
 * under the root, on `layer`, each with a box GripSurface over its bounds when the prop has
 * no other surface. */
function hangMeshes(world: World, scene: Scene, own: ReadonlySet<string>, root: Entity, layer: number, boxes: boolean): MeshHandle[] {
  const meshes: MeshHandle[] = [];
  for (const [n, e] of scene.entities) {
    if (own.has(n)) continue;
    const c = world.get(e, Collider);
    meshes.push(c.mesh);
    world.update(e, Transform, (x) => {
      x.parent = root;
    });
    world.update(e, Collider, (x) => {
      x.layer = layer;
    });
    if (!boxes) continue;
    const { positions } = world.collide.meshData(c.mesh);
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < positions.length; i++) (lo[i % 3] = Math.min(lo[i % 3]!, positions[i]!)), (hi[i % 3] = Math.max(hi[i % 3]!, positions[i]!));
    world.insert(e, GripSurface, { shape: 'Box', center: lo.map((x, k) => (x + hi[k]!) / 2) as [number, number, number], size: lo.map((x, k) => Math.max(hi[k]! - x, 1e-4)) as [number, number, number] });
  }
  return meshes;
}

/** world.loadProp (see World.loadProp). */
export async function loadProp(world: World, source: AssetSource, options: LoadPropOptions = {}): Promise<Prop> {
  const fn = 'loadProp';
  const opts = objectArg<LoadPropOptions>(options, fn, 'options', ['name', 'position', 'rotation', 'surfaces', 'grip', 'colliderLayer']);
  const layer = opts.colliderLayer === undefined ? 0 : layerBits(opts.colliderLayer, fn, 'options.colliderLayer');
  if (opts.name !== undefined) entityName(opts.name, fn, 'options.name');
  const src = await readSource(source, fn, 'prop');
  const { entities, root } = propEntities(world, src, opts, fn);
  const path = `${(src.stem || 'prop').replace(/[^A-Za-z0-9_.-]/g, '_')}.${src.kind}`;
  const doc = src.kind === 'json' ? { name: `prop ${root.name}`, entities } : { name: `prop ${root.name}`, entities, level: path };
  let loaded: Scene;
  try {
    loaded = world.loadScene(doc, src.kind === 'json' ? {} : { files: { [path]: src.bytes } });
  } catch (err) {
    throw rewrap(err, fn);
  }
  const entity = loaded.entity(root.name);
  let meshes: MeshHandle[] = [];
  try {
    if (src.kind !== 'json') meshes = hangMeshes(world, loaded, new Set(entities.map((e) => e.name)), entity, layer, !entities.some((e) => e.components.GripSurface));
  } catch (err) {
    loaded.destroy();
    throw rewrap(err, fn);
  }
  const surfaces = [...loaded.entities.values()].filter((e) => world.has(e, GripSurface));
  const profile = world.has(entity, GripProfile) ? world.get(entity, GripProfile) : null;
  const anchors = { main: profile?.mainAnchor || null, support: profile?.supportAnchor || null };
  return new Prop(loaded, root.name, entity, surfaces, anchors, meshes);
}
