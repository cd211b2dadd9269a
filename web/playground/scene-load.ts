/** Scene loading: the scene file named by ?scene=, the files it refers to (glTF rigs, levels
 * and their navmeshes), the world, the ?steps= run at load, and the entity lists the page uses. */
import { Animator, createWorld, GripHolder, Rig, type Entity, type Scene, type World } from '../bridge/browser.js';
import { DT, type Params } from './page.js';
import wasmUrl from '../../build/wasm/limber.wasm?url';
import threadsWasmUrl from '../../build/wasm-mt/limber-mt.wasm?url';

const sceneFiles = import.meta.glob<string>('../../assets/scenes/*.json', { query: '?raw', import: 'default' });
/** Files scenes may refer to (glTF rigs, levels and their navmeshes), as URLs; scenes name them repository-relative. */
const rigFiles = import.meta.glob<string>(['../../assets/rigs/*.{glb,gltf}', '../../assets/levels/*.{json,glb}'], { query: '?url', import: 'default' });

/** The scene files the picker offers (file names, sorted). */
export function sceneFileNames(): string[] {
  return Object.keys(sceneFiles)
    .sort()
    .map((key) => key.split('/').pop() ?? key);
}

async function fetchSceneFiles(world: World, text: string): Promise<Record<string, Uint8Array>> {
  const files: Record<string, Uint8Array> = {};
  for (const path of world.sceneFiles(text)) {
    const url = rigFiles[`../../${path}`];
    if (!url) throw new Error(`the scene refers to '${path}', which is not under assets/rigs/ or assets/levels/`);
    const res = await fetch(await url());
    if (!res.ok) throw new Error(`cannot load ${path}: HTTP ${res.status}`);
    files[path] = new Uint8Array(await res.arrayBuffer());
  }
  return files;
}

/** The glTF file (repository-relative path) of each scene entity whose Rig asset comes from
 * one, read from the scene file: assets.rigs.NAME.gltf and an entity's Rig.asset = NAME. */
export function rigFilesByEntity(text: string): Map<string, string> {
  const doc = JSON.parse(text) as {
    assets?: { rigs?: Record<string, { gltf?: unknown }> };
    entities?: { name?: unknown; components?: { Rig?: { asset?: unknown } } }[];
  };
  const out = new Map<string, string>();
  const rigs = doc.assets?.rigs ?? {};
  for (const ent of doc.entities ?? []) {
    const asset = ent.components?.Rig?.asset;
    if (typeof ent.name !== 'string' || typeof asset !== 'string') continue;
    const gltf = Object.prototype.hasOwnProperty.call(rigs, asset) ? rigs[asset].gltf : undefined;
    if (typeof gltf === 'string') out.set(ent.name, gltf);
  }
  return out;
}

/** A loaded scene and the entity lists the page's parts share. */
export interface Loaded {
  world: World;
  scene: Scene;
  /** The scene file as loaded (without its timeline with ?timeline=0). */
  text: string;
  /** The files it refers to, by repository-relative path. */
  files: Record<string, Uint8Array>;
  nameOf: Map<Entity, string>;
  /** An entity's scene name, else "entity N". */
  label(e: Entity): string;
  /** The scene's entities, in scene order. */
  entities: Entity[];
  rigs: Entity[];
  holders: Entity[];
  animated: Entity[];
}

/** Loads ?scene= into a new world and runs ?steps= fixed steps. */
export async function loadScene(params: Params): Promise<Loaded> {
  const load = sceneFiles[`../../assets/scenes/${params.scene}`];
  if (!load) throw new Error(`unknown scene '${params.scene}'; have ${Object.keys(sceneFiles).map((k) => k.split('/').pop()).join(', ')}`);

  // Threads: the page is cross-origin isolated (vite.config.ts), so by default one per core.
  const world = await createWorld({ wasm: wasmUrl, threadsWasm: threadsWasmUrl, threads: params.threads });
  let text = await load();
  if (!params.timeline) {
    // ?timeline=0: the scene without its timeline (requests come from the page: the Vault button)
    const doc = JSON.parse(text) as Record<string, unknown>;
    delete doc.timeline;
    text = JSON.stringify(doc);
  }
  const files = await fetchSceneFiles(world, text);
  const scene = world.loadScene(text, { files });
  for (let i = 0; i < params.steps; i++) scene.step(DT);

  const nameOf = new Map<Entity, string>();
  for (const [name, e] of scene.entities) nameOf.set(e, name);
  const entities = [...scene.entities.values()];
  return {
    world,
    scene,
    text,
    files,
    nameOf,
    label: (e) => nameOf.get(e) ?? `entity ${e}`,
    entities,
    rigs: entities.filter((e) => world.has(e, Rig)),
    holders: entities.filter((e) => world.has(e, GripHolder)),
    animated: entities.filter((e) => world.has(e, Animator)),
  };
}
