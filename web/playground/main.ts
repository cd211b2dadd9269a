/** Limber playground: a scene stepped at a fixed 1/60 s, drawn with three.js;
 * IK targets and hints can be dragged with a gizmo.
 *
 * URL parameters (for tests and bug reports):
 *   scene=NAME.json  a scene from assets/scenes/ (default: default.json)
 *   steps=N          run N fixed steps at load
 *   paused=1         then do not step with time; only edits (gizmo drag,
 *                    limber.dragTarget, the Step button) advance one step each
 *   select=NAME      the entity the gizmo starts on (default: the first IK target)
 *   skeleton=1       start with the skeleton overlay on (the #show-skeleton checkbox)
 *   layers=a,b       debug layers shown (ids: skeleton, ik, palms, surfaces, contacts)
 *   editor=1         the grip editor panel (editor/grip-editor.ts)
 *
 * Characters are drawn as bodies (RigMeshView): a glTF rig's own skinned mesh, or a body
 * generated from the skeleton for a builtin rig; the skeleton is an optional overlay. Held
 * props are solid. The floor (y = 0) follows the camera target; the camera frames each scene
 * (the characters and their targets; a grip's hands and held object; a walker from the side).
 *
 * Scenes with an Animator get a speed slider (#speed) on the first blend-space parameter, a
 * button per trigger and the current state (#anim-state); the camera follows the character.
 *
 * Scenes on a level ("level" in the scene: box colliders) draw it solid; characters with an
 * EnvironmentInteraction get its debug layers and weight plot (interaction.ts).
 *
 * Scenes with NavAgents (nav.ts) draw their navmeshes, each agent's path, steering target and
 * destination (debug layer 'nav'); a click on the navmesh sends the selected agent there; the
 * HUD's nav block switches the agent and its drive mode and shows its speed parameter and
 * turn angle.
 */
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { TransformControls } from 'three/examples/jsm/controls/TransformControls.js';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { Animator, animatorParam, CharacterController, Collider, controllerInfo, createWorld, EnvironmentInteraction, GripHolder, GripProfile, NavAgent, navNearest, Rig, setNavDestination, Transform, TwoBoneIK, Vault, type Entity, type HandSide, type Scene, type Vec3, type World } from '../bridge/browser.js';
import { EntityMarker, GripView, RigMeshView, SkeletonView, jointWorldPosition, parentFrame, setWorldPosition, type WorldView } from '../three/index.js';
import { ContactsView } from './editor/contacts-view.js';
import { GripEditor, type GripDoc, type Role } from './editor/grip-editor.js';
import { DebugLayers } from './editor/layers.js';
import { PlotPanel } from './editor/plot.js';
import { Floor } from './floor.js';
import { ColliderWireView, ControllerView } from './colliders-view.js';
import { ColliderView, InteractionPanel, InteractionView } from './interaction.js';
import { NavPanel, NavView, sceneNavMeshes, type DriveMode } from './nav.js';
import { VaultPanel, VaultView } from './vault.js';
import wasmUrl from '../../build/wasm/limber.wasm?url';

const DT = 1 / 60;
const MAX_STEPS_PER_FRAME = 8;

const sceneFiles = import.meta.glob<string>('../../assets/scenes/*.json', { query: '?raw', import: 'default' });
/** Files scenes may refer to (glTF rigs, levels and their navmeshes), as URLs; scenes name them repository-relative. */
const rigFiles = import.meta.glob<string>(['../../assets/rigs/*.{glb,gltf}', '../../assets/levels/*.{json,glb}'], { query: '?url', import: 'default' });

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
function rigFilesByEntity(text: string): Map<string, string> {
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

/** Share of the frame covered by what a test looks at, from mask renders (see showcase()). */
export interface ShowcaseReport {
  width: number;
  height: number;
  /** Share of the frame's pixels covered by the characters' bodies (0..1). */
  character: number;
  /** Share covered by the floor plane (drawn alone). */
  floor: number;
  /** Share covered by held props (solid grip surfaces). */
  props: number;
  /** Per character: its lowest foot or toe joint (world y, metres; the floor is y = 0), that
   * joint's viewport position, and whether the floor plane covers the pixels 4, 12 and 30 px
   * below it (false also when off-frame). */
  feet: { rig: string; joint: string; y: number; screen: [number, number]; floorBelow: boolean[] }[];
}

/** What the page exposes as window.limber (used by the Playwright tests). */
export interface PlaygroundApi {
  world: World;
  scene: Scene;
  three: { scene: THREE.Scene; camera: THREE.PerspectiveCamera; renderer: THREE.WebGLRenderer; gizmo: TransformControls; orbit: OrbitControls };
  hash(): string;
  steps(): number;
  paused(): boolean;
  /** World position of a rig joint by name or path (rig root transform applied to the model pose). */
  handPosition(name: string): Vec3;
  /** World position of a named scene entity as of the last step. */
  entityPosition(name: string): Vec3;
  /** Moves a named Transform entity like the gizmo does, then steps once. */
  dragTarget(name: string, position: Vec3): void;
  /** Selects the entity the gizmo is attached to. */
  select(name: string): void;
  selected(): string | null;
  /** The gizmo handle under the pointer (null if none). */
  gizmoAxis(): string | null;
  /** Viewport (CSS pixel) coordinates of a world point. */
  screenPosition(p: Vec3): [number, number];
  /** Every GripHolder's main hand flips (Right ↔ Left), then one step: the hold mirrors. */
  switchHand(): void;
  /** A holder's main hand, palm-to-anchor distances and drawn palm positions. */
  grip(name: string): { mainHand: HandSide; mainDistance: number; supportDistance: number; palms: Record<'main' | 'support', Vec3 | null> };
  /** An Animator entity's state, parameters and world position (first Animator by default). */
  animator(name?: string): { state: string; params: Record<string, number | boolean>; position: Vec3 };
  /** Runs n fixed steps now (paused or not), then refreshes the views. */
  advance(n: number): void;
  /** Mask renders of the current view: how much of the frame the characters cover, and
   * whether the floor is under their feet. */
  showcase(): ShowcaseReport;
  /** Shows or hides the skeleton overlay. */
  showSkeleton(on: boolean): void;
  /** The first EnvironmentInteraction character's outputs, and the states seen since load. */
  interaction(): { state: string; side: string; rightWeight: number; leftWeight: number; rise: number; palmDistance: number; plants: number; target: Vec3; closestPoint: Vec3; states: string[] } | null;
  /** The first Vault character: its outputs, feet position, the states seen and every
   * request's outcome ("Class:Refusal") since load; null without one. */
  vault(): { state: string; obstacleClass: string; refusal: string; vaults: number; refusals: number; position: Vec3; states: string[]; outcomes: string[] } | null;
  /** Debug layers: ids, shown or not, show/hide. */
  layers: { ids(): string[]; visible(id: string): boolean; show(id: string, on: boolean): void };
  /** The plot panel: plottable keys ("entity.Component.field"), add one, read its samples. */
  plot: { keys(): string[]; add(key: string): void; plotted(): string[]; values(key: string): { step: number; v: number }[] };
  /** The grip editor (with ?editor=1), else null. */
  editor: EditorApi | null;
  /** Nav agents (scenes with NavAgents), else null. Destinations and modes are set through the page's UI. */
  nav: NavApi | null;
}

/** The nav agents as the page shows them. */
export interface NavApi {
  agents(): string[];
  /** The agent the HUD shows and clicks send (the first by default). */
  selected(): string | null;
  select(name: string): void;
  /** An agent's component fields, its position (Transform: agents are roots) and the path drawn (corners). */
  agent(name?: string): { driveMode: DriveMode; destination: Vec3; hasDestination: boolean; stopped: boolean; arrived: boolean; pathStatus: string; remainingDistance: number; locomotionValue: number; turnAngle: number; steeringTarget: Vec3; nextPosition: Vec3; position: Vec3; path: Vec3[] };
  /** The nearest point of the agent's navmesh to p. */
  meshPoint(p: Vec3, name?: string): Vec3;
}

/** What the grip editor exposes to tests (state only; actions go through the page's UI). */
export interface EditorApi {
  status(): ReturnType<GripEditor['status']>;
  document(): GripDoc | null;
  /** Viewport positions of the edited hand's finger handles, by "finger:joint". */
  handles(): Record<string, [number, number]>;
  /** The bend (degrees) of a finger joint of the edited hand, null for a captured pose. */
  bend(finger: string, joint: number): number | null;
  /** The local pose of the holder (for exact comparisons). */
  localPose(): string;
  editRole(): Role;
  /** Lines drawn from palms that cannot reach to their anchors. */
  gapLines(): [Vec3, Vec3][];
  /** World position of the gizmo (the selected anchor), or null. */
  gizmoPosition(): Vec3 | null;
  /** The scene file with the authored grip, as "save scene" downloads it. */
  sceneText(): string;
}

declare global {
  interface Window {
    limber?: PlaygroundApi;
  }
}

interface Params {
  scene: string;
  steps: number;
  paused: boolean;
  select: string | null;
  skeleton: boolean;
  layers: Set<string> | null;
  editor: boolean;
  timeline: boolean;
}

function readParams(): Params {
  const q = new URLSearchParams(location.search);
  const steps = q.get('steps');
  if (steps !== null && !/^\d+$/.test(steps)) throw new Error(`URL parameter steps=${steps} is not a whole number`);
  return {
    scene: q.get('scene') ?? 'default.json',
    steps: steps === null ? 0 : Number(steps),
    paused: q.get('paused') === '1',
    select: q.get('select'),
    skeleton: q.get('skeleton') === '1',
    layers: q.has('layers') ? new Set((q.get('layers') ?? '').split(',').filter((x) => x)) : null,
    editor: q.get('editor') === '1',
    timeline: q.get('timeline') !== '0',
  };
}

function el<T extends HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (!e) throw new Error(`the page has no #${id}`);
  return e as T;
}

interface Arm {
  name: string;
  entity: Entity;
  reached: HTMLTableCellElement;
  distance: HTMLTableCellElement;
}

async function main(): Promise<void> {
  const params = readParams();
  const load = sceneFiles[`../../assets/scenes/${params.scene}`];
  if (!load) throw new Error(`unknown scene '${params.scene}'; have ${Object.keys(sceneFiles).map((k) => k.split('/').pop()).join(', ')}`);

  const world = await createWorld({ wasm: wasmUrl });
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
  let paused = params.paused;

  const nameOf = new Map<Entity, string>();
  for (const [name, e] of scene.entities) nameOf.set(e, name);
  const entities = [...scene.entities.values()];
  const rigs = entities.filter((e) => world.has(e, Rig));
  const hasJoint = (e: Entity, name: string) => world.has(e, Rig) && world.findJoint(world.get(e, Rig).asset, name) >= 0;
  const isMarkable = (e: Entity) => e !== 0 && world.alive(e) && world.has(e, Transform) && !world.has(e, Rig) && !world.has(e, TwoBoneIK);
  const holders = entities.filter((e) => world.has(e, GripHolder));
  const animated = entities.filter((e) => world.has(e, Animator));

  // --- three.js scene -------------------------------------------------------
  const container = el<HTMLDivElement>('view');
  const renderer = new THREE.WebGLRenderer({ antialias: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
  renderer.setSize(window.innerWidth, window.innerHeight);
  container.appendChild(renderer.domElement);

  const background = 0x1b1e23;
  const three = new THREE.Scene();
  three.background = new THREE.Color(background);
  three.add(new THREE.HemisphereLight(0xdfe8ff, 0x2a2420, 1.9));
  const sun = new THREE.DirectionalLight(0xfff4e6, 2.2);
  sun.position.set(2, 4, 3);
  three.add(sun);
  const rim = new THREE.DirectionalLight(0x9db8ff, 0.9);
  rim.position.set(-3, 2.5, -3);
  three.add(rim);
  // Frames are drawn on demand: after a step, a camera move, a gizmo hover or drag, a resize.
  let dirty = true;
  const invalidate = (): void => {
    dirty = true;
  };
  // The floor (y = 0) follows the camera target, so a walking character never leaves it.
  const floor = new Floor({ background });
  three.add(floor.object);

  const camera = new THREE.PerspectiveCamera(40, window.innerWidth / window.innerHeight, 0.01, 200);

  // Characters: the rig's glTF mesh (the same file the scene loaded) or a generated body.
  const views: WorldView[] = [];
  const gltfOf = rigFilesByEntity(text);
  const loader = new GLTFLoader();
  const bodies = await Promise.all(
    rigs.map(async (e) => {
      const path = gltfOf.get(nameOf.get(e) ?? '');
      const bytes = path !== undefined ? files[path] : undefined;
      if (!bytes) return new RigMeshView(world, e);
      const gltf = await loader.parseAsync(bytes.slice().buffer, '');
      return new RigMeshView(world, e, { source: gltf.scene });
    }),
  );
  for (const b of bodies) views.push(b);
  // The skeleton: an overlay drawn through the body, off unless asked for (a debug layer).
  const skeletons = rigs.map((e) => new SkeletonView(world, e, { jointRadius: 0.009 }));
  const skeletonLayer = new THREE.Group();
  skeletonLayer.name = 'layer:skeleton';
  for (const s of skeletons) {
    skeletonLayer.add(s.object);
    s.object.traverse((o) => {
      o.renderOrder = 5;
      const m = (o as THREE.Mesh).material;
      if (m && !Array.isArray(m)) {
        m.depthTest = false;
        m.transparent = true;
      }
    });
  }
  function showSkeleton(on: boolean): void {
    layers.show('skeleton', on);
  }

  // IK targets (draggable, orange) and hints (violet); the arm table.
  const markers = new Map<Entity, EntityMarker>();
  const arms: Arm[] = [];
  const tbody = el<HTMLTableElement>('ik').tBodies[0];
  for (const e of entities) {
    if (!world.has(e, TwoBoneIK)) continue;
    const ik = world.get(e, TwoBoneIK);
    for (const [m, isTarget] of [
      [ik.target, true],
      [ik.hint, false],
    ] as const) {
      if (!isMarkable(m) || markers.has(m)) continue;
      const marker = isTarget
        ? new EntityMarker(world, m, { color: 0xff7043, radius: 0.03, label: nameOf.get(m) })
        : new EntityMarker(world, m, { color: 0xb388ff, radius: 0.022, label: nameOf.get(m) });
      markers.set(m, marker);
      views.push(marker);
    }
    const name = nameOf.get(e) ?? `entity ${e}`;
    const row = tbody.insertRow();
    row.id = `ik-${name}`;
    row.insertCell().textContent = name;
    const reached = row.insertCell();
    reached.className = 'reached';
    const distance = row.insertCell();
    distance.className = 'distance';
    arms.push({ name, entity: e, reached, distance });
  }
  // Held objects (GripProfile) are draggable too (teal): with Object placement the arms follow.
  for (const e of entities) {
    if (!world.has(e, GripProfile) || !isMarkable(e) || markers.has(e)) continue;
    const marker = new EntityMarker(world, e, { color: 0x26c6da, radius: 0.025, label: nameOf.get(e) });
    markers.set(e, marker);
    views.push(marker);
  }
  // Everything the grip views draw; the editor adds the surfaces it makes.
  const drawn: Entity[] = [...entities];
  // The held prop, solid; palms and green surface wireframes are debug layers.
  const gripView = new GripView(world, drawn, { solid: true, palms: false });
  views.push(gripView);
  const palmsView = new GripView(world, drawn, { surfaces: false });
  const surfacesView = new GripView(world, drawn, { palms: false });
  const contactsView = new ContactsView(world, holders);
  const gripBody = el<HTMLTableElement>('grip').tBodies[0];
  const gripRows = holders.map((e) => {
    const row = gripBody.insertRow();
    row.id = `grip-${nameOf.get(e) ?? e}`;
    row.insertCell().textContent = nameOf.get(e) ?? `entity ${e}`;
    return { e, hand: row.insertCell(), main: row.insertCell(), support: row.insertCell() };
  });
  el('grip').hidden = holders.length === 0;
  el('ik').hidden = arms.length === 0;
  el<HTMLButtonElement>('switch-hand').hidden = holders.length === 0;
  // A level's colliders (solid) and environment interaction debug layers.
  const colliderView = entities.some((e) => world.has(e, Collider)) ? new ColliderView(world, entities) : null;
  if (colliderView) views.push(colliderView);
  const interactor = entities.find((e) => world.has(e, EnvironmentInteraction));
  const interactionView = interactor !== undefined ? new InteractionView(world, interactor) : null;
  const interactionPanel = interactionView ? new InteractionPanel(interactionView, colliderView, () => invalidate()) : null;
  if (interactionView && interactionPanel) {
    views.push(interactionView);
    el('hud').appendChild(interactionPanel.element);
  }
  const vaulter = entities.find((e) => world.has(e, Vault));
  const vaultView = vaulter !== undefined ? new VaultView(world, vaulter) : null;
  const vaultPanel = vaultView ? new VaultPanel(vaultView, () => invalidate()) : null;
  if (vaultView && vaultPanel) {
    three.add(vaultView.object);
    el('hud').appendChild(vaultPanel.element);
  }
  for (const v of views) three.add(v.object);
  // Nav agents: navmeshes, paths and targets (a debug layer), the HUD's nav block.
  const navAgents = entities.filter((e) => world.has(e, NavAgent));
  const navView = navAgents.length > 0 ? new NavView(world, sceneNavMeshes(world, text, files), navAgents) : null;
  if (navView) three.add(navView.object);
  let navSelected: Entity | null = navAgents[0] ?? null;
  const navPanel = navView
    ? new NavPanel(
        world,
        navAgents.map((e) => ({ name: nameOf.get(e) ?? `entity ${e}`, e })),
        (e) => selectAgent(e),
        (e, mode) => {
          world.update(e, NavAgent, (a) => {
            a.driveMode = mode;
          });
          layers.update();
          refreshHud();
        },
      )
    : null;
  if (navPanel) el('animator').after(navPanel.element);
  function selectAgent(e: Entity): void {
    navSelected = e;
    if (navView) navView.selected = e;
    layers.update();
    refreshHud();
  }
  if (navView) navView.selected = navSelected;
  // Debug layers (editor/layers.ts): each module's view registers one; #layers has the toggles.
  const ikLayer = new THREE.Group();
  ikLayer.name = 'layer:ik';
  for (const [e, m] of markers) if (!world.has(e, GripProfile)) ikLayer.add(m.object);
  for (const o of [skeletonLayer, ikLayer, palmsView.object, surfacesView.object, contactsView.object]) three.add(o);
  const layers = new DebugLayers(el('layers'), invalidate, params.layers);
  layers.register({ id: 'skeleton', label: 'skeleton', object: skeletonLayer, update: () => skeletons.forEach((s) => s.update()), on: params.skeleton });
  layers.register({ id: 'ik', label: 'IK targets and hints', object: ikLayer });
  layers.register({ id: 'palms', label: 'anchors and palms', object: palmsView.object, update: () => palmsView.update() });
  layers.register({ id: 'surfaces', label: 'grip surfaces', object: surfacesView.object, update: () => surfacesView.update(), on: params.editor });
  if (vaultView) layers.register({ id: 'vault', label: 'vault casts, capsule, hand target', object: vaultView.object, update: () => vaultView.update() });
  layers.register({ id: 'contacts', label: 'finger contacts', object: contactsView.object, update: () => contactsView.update(), on: params.editor });
  // The collide and controller modules' layers, in scenes that have colliders or controllers.
  const colliderWires = new ColliderWireView(world, entities);
  if (colliderWires.count > 0) {
    three.add(colliderWires.object);
    layers.register({ id: 'colliders', label: 'colliders (wireframe, colour = layer)', object: colliderWires.object, update: () => colliderWires.update(), on: false });
  }
  const controllerView = new ControllerView(world, entities);
  if (entities.some((e) => world.has(e, CharacterController))) {
    three.add(controllerView.object);
    layers.register({ id: 'controllers', label: 'controller capsules and contacts', object: controllerView.object, update: () => controllerView.update() });
  }
  if (navView) layers.register({ id: 'nav', label: 'navmesh, paths and steering targets', object: navView.object, update: () => navView.update() });

  // Camera framing per scene, from the front-right and a little above, turned with the first
  // character: a grip frames the hands and the held object; a walker gets a standing-height
  // box around it, seen more from the side; otherwise the characters and their targets.
  // The HUD covers the left of the page: the picture is centred in the space beside it.
  const hud = el('hud');
  // The grip editor's panel covers the right of the page.
  el('editor').hidden = !params.editor;
  const rightPanel = (): number => (params.editor ? el('editor').getBoundingClientRect().width + 12 : 0);
  const hudShift = (): number => {
    const right = hud.getBoundingClientRect().right + 12;
    return right < window.innerWidth * 0.45 ? right : 0;
  };
  function applyViewOffset(): void {
    const w = window.innerWidth, h = window.innerHeight;
    camera.aspect = w / h;
    camera.setViewOffset(w, h, -(hudShift() - rightPanel()) / 2, 0, w, h);
    camera.updateProjectionMatrix();
  }
  const orbitTarget = new THREE.Vector3();
  {
    const box = new THREE.Box3();
    let dir = new THREE.Vector3(0.5, 0.22, 1);
    if (animated.length > 0) {
      box.setFromCenterAndSize(new THREE.Vector3(...world.worldTransform(animated[0]).t).add(new THREE.Vector3(0, 0.9, 0)), new THREE.Vector3(1, 1.95, 1));
      dir.set(1, 0.3, 0.7);
      if (interactor !== undefined) {
        // Between walls: from behind and above, so the walls do not hide the character.
        box.setFromCenterAndSize(new THREE.Vector3(...world.worldTransform(interactor).t).add(new THREE.Vector3(0, 1.0, 0)), new THREE.Vector3(1.6, 2.2, 1.6));
        dir.set(-0.35, 1.25, -1);
      }
    } else if (holders.length > 0) {
      gripView.object.updateMatrixWorld(true);
      box.setFromObject(gripView.object);
      for (const e of holders) {
        for (const side of ['LeftHand', 'RightHand']) if (hasJoint(e, side)) box.expandByPoint(jointWorldPosition(world, e, side));
      }
      box.expandByScalar(0.1);
      dir.set(-1, 0.35, 0.6); // from the main (right) hand's side: the prop in profile
    } else {
      for (const b of bodies) box.union(b.bounds(0.05));
      for (const m of markers.values()) box.expandByPoint(m.object.position);
    }
    if (box.isEmpty()) box.setFromCenterAndSize(new THREE.Vector3(0, 1, 0), new THREE.Vector3(2, 2, 2));
    const sphere = box.getBoundingSphere(new THREE.Sphere());
    dir.normalize();
    if (rigs.length > 0) {
      const r = world.worldTransform(rigs[0]).r;
      dir = dir.applyQuaternion(new THREE.Quaternion(r[0], r[1], r[2], r[3]));
    }
    const free = Math.max(window.innerWidth - hudShift() - rightPanel(), 1) / window.innerHeight;
    const fov = THREE.MathUtils.degToRad(camera.fov);
    const hfov = 2 * Math.atan(Math.tan(fov / 2) * free);
    // The editor works on the hands: closer in.
    const dist = (Math.max(sphere.radius, 0.25) / Math.sin(Math.min(fov, hfov) / 2)) * (params.editor && holders.length > 0 ? 0.62 : 0.84);
    camera.position.copy(sphere.center).addScaledVector(dir, dist);
    camera.lookAt(sphere.center);
    camera.near = dist / 100;
    floor.setRange(Math.max(6, dist * 2.5), Math.max(24, dist * 8));
    camera.far = Math.max(dist * 50, dist * 8 * 3, 100);
    applyViewOffset();
    orbitTarget.copy(sphere.center);
  }

  // The gizmo is created before OrbitControls so its pointerdown runs first.
  const gizmo = new TransformControls(camera, renderer.domElement);
  gizmo.setMode('translate');
  gizmo.setSize(0.75);
  three.add(gizmo.getHelper());
  const orbit = new OrbitControls(camera, renderer.domElement);
  orbit.target.copy(orbitTarget);
  orbit.enableDamping = false;
  orbit.update();
  orbit.addEventListener('change', invalidate);
  gizmo.addEventListener('change', invalidate);

  // --- HUD ------------------------------------------------------------------
  const hashEl = el('hash');
  const stepsEl = el('steps');
  const modeEl = el('mode');
  const pauseBtn = el<HTMLButtonElement>('pause');
  el('scene-name').textContent = params.scene;
  const picker = el<HTMLSelectElement>('scene-select');
  for (const key of Object.keys(sceneFiles).sort()) {
    const file = key.split('/').pop() ?? key;
    picker.add(new Option(file, file, false, file === params.scene));
  }
  picker.addEventListener('change', () => {
    location.search = `?scene=${encodeURIComponent(picker.value)}`;
  });

  // The scene's own description, and help for what this scene has.
  el('description').textContent = (JSON.parse(text) as { description?: string }).description ?? '';
  el('description').hidden = params.editor;
  el('help').hidden = params.editor;
  const help: string[] = [];
  if (markers.size > 0) help.push('Drag the gizmo to move the selected target; click a sphere (orange: target, violet: hint, teal: held object) to select it.');
  if (holders.length > 0) help.push('Grip: the held prop is drawn solid; palms yellow (main) and blue (support). "Switch hand" mirrors the hold.');
  if (animated.length > 0) help.push('Move the slider to set the blend parameter (your value then wins over the scene timeline); the buttons fire triggers.');
  if (navView) help.push('Nav: click the navmesh (green) to send the selected agent there; the nav block switches agent and drive mode.');
  help.push('Orbit: drag; zoom: wheel.');
  el('help').textContent = help.join(' ');
  el('ik').hidden = arms.length === 0;

  // Animator: a slider on the first blend-space parameter, a button per trigger, the state.
  const hero = animated.length > 0 ? animated[0] : null;
  const info = hero !== null ? controllerInfo(world, world.get(hero, Animator).controller) : null;
  const blend = info?.states.find((st) => st.blend !== null)?.blend ?? null;
  const speedEl = el<HTMLInputElement>('speed');
  let userSpeed: number | null = null;
  const speedValue = el('speed-value');
  const stateEl = el('anim-state');
  el('animator').hidden = hero === null;
  el('speed-row').hidden = blend === null;
  if (hero !== null && blend !== null) {
    el('speed-label').textContent = blend.parameter;
    speedEl.min = String(blend.min);
    speedEl.max = String(blend.max);
    speedEl.step = '0.05';
    speedEl.value = String(animatorParam(world, hero, blend.parameter));
    speedEl.addEventListener('input', () => {
      // A control the user touched wins over the scene timeline from now on.
      userSpeed = Number(speedEl.value);
      world.setAnimatorParam(hero, blend.parameter, userSpeed);
      refreshHud();
    });
  }
  for (const p of info?.params ?? []) {
    if (p.type !== 'trigger' || hero === null) continue;
    const b = document.createElement('button');
    b.type = 'button';
    b.id = `trigger-${p.name}`;
    b.textContent = p.name;
    b.addEventListener('click', () => world.setAnimatorTrigger(hero, p.name));
    el('triggers').appendChild(b);
  }

  function refreshHud(): void {
    if (hero !== null) {
      stateEl.textContent = world.get(hero, Animator).state;
      if (blend !== null) {
        const v = animatorParam(world, hero, blend.parameter) as number;
        speedValue.textContent = `${v.toFixed(2)}`;
        speedEl.value = String(v);
      }
    }
    hashEl.textContent = world.hash();
    stepsEl.textContent = String(world.stepCount);
    modeEl.textContent = editor?.previewing ? '(grip preview)' : paused ? '(paused)' : '';
    pauseBtn.textContent = paused ? 'Play' : 'Pause';
    // the preview is authored, not played: the scene's timeline waits until it is left
    pauseBtn.disabled = editor?.previewing === true;
    el<HTMLButtonElement>('step').disabled = editor?.previewing === true;
    el<HTMLButtonElement>('switch-hand').disabled = editor?.previewing === true;
    for (const arm of arms) {
      const ik = world.get(arm.entity, TwoBoneIK);
      arm.reached.textContent = ik.reached ? 'yes' : 'no';
      arm.reached.classList.toggle('yes', ik.reached);
      arm.reached.classList.toggle('no', !ik.reached);
      arm.distance.textContent = `${(ik.distance * 1000).toFixed(2)} mm`;
    }
    navPanel?.refresh(navSelected);
    for (const r of gripRows) {
      const h = world.get(r.e, GripHolder);
      r.hand.textContent = h.mainHand;
      r.main.textContent = `${(h.mainDistance * 1000).toFixed(2)} mm`;
      r.support.textContent = `${(h.supportDistance * 1000).toFixed(2)} mm`;
    }
  }

  // The plot panel: chosen numeric fields over the last 5 s of steps.
  const plot = new PlotPanel(world, scene.entities, el('plot'));
  for (const [name, e] of scene.entities) {
    if (world.has(e, GripHolder)) plot.add(`${name}.GripHolder.mainDistance`);
    else if (world.has(e, TwoBoneIK)) plot.add(`${name}.TwoBoneIK.distance`);
    if (plot.plotted().length > 0) break;
  }
  const openEditor = el<HTMLAnchorElement>('open-editor');
  openEditor.hidden = params.editor || !entities.some((e) => world.has(e, GripProfile));
  openEditor.href = `?scene=${encodeURIComponent(params.scene)}&editor=1`;

  // --- stepping -------------------------------------------------------------
  let selected: EntityMarker | null = null;
  let dragFrame: THREE.Matrix4 | null = null;
  let releaseAfterStep = -1; // a dropped marker follows the world again after this step
  let acc = 0; // seconds not yet stepped
  let last = performance.now();

  // The camera follows the first animated character.
  let followed = hero !== null ? new THREE.Vector3(...world.worldTransform(hero).t) : null;

  /** After the world stepped: views follow it, the HUD shows it. */
  function refresh(): void {
    if (selected && !gizmo.dragging && selected.hold && world.stepCount > releaseAfterStep) selected.hold = false;
    for (const v of views) v.update();
    layers.update();
    plot.sample();
    if (hero !== null && followed !== null) {
      const now = new THREE.Vector3(...world.worldTransform(hero).t);
      const delta = now.clone().sub(followed);
      camera.position.add(delta);
      orbit.target.add(delta);
      orbit.update();
      followed = now;
    }
    floor.setShadows(rigs.map((e) => {
      const hips = jointWorldPosition(world, e, 0);
      return [hips.x, hips.z] as const;
    }));
    invalidate();
    refreshHud();
  }

  /** One scene step (timeline included); the user's slider value is re-applied after it. */
  function sceneStep(): void {
    scene.step(DT);
    interactionPanel?.record();
    vaultPanel?.record();
    if (hero !== null && blend !== null && userSpeed !== null) world.setAnimatorParam(hero, blend.parameter, userSpeed);
  }

  function stepOnce(): void {
    sceneStep();
    refresh();
  }

  /** The one code path for moving an entity from the page (gizmo or test API). */
  function moveEntity(marker: EntityMarker, position: THREE.Vector3, frame: THREE.Matrix4): void {
    marker.object.position.copy(position);
    setWorldPosition(world, marker.entity, position, frame);
  }

  function select(marker: EntityMarker | null): void {
    if (selected && selected !== marker) selected.hold = false;
    selected = marker;
    if (marker) gizmo.attach(marker.object);
    else gizmo.detach();
    invalidate();
  }

  gizmo.addEventListener('dragging-changed', (ev) => {
    const dragging = ev.value === true;
    orbit.enabled = !dragging;
    if (!selected) return;
    if (dragging) {
      selected.hold = true;
      dragFrame = parentFrame(world, selected.entity);
    } else {
      dragFrame = null;
      releaseAfterStep = world.stepCount;
    }
  });
  gizmo.addEventListener('objectChange', () => {
    if (!selected || !dragFrame) return;
    moveEntity(selected, selected.object.position.clone(), dragFrame);
    if (paused) stepOnce();
  });

  // Click (no drag) on a target or hint selects it.
  const raycaster = new THREE.Raycaster();
  const ndc = new THREE.Vector2();
  let down: { x: number; y: number; onGizmo: boolean } | null = null;
  renderer.domElement.addEventListener('pointerdown', (ev) => {
    down = { x: ev.clientX, y: ev.clientY, onGizmo: gizmo.axis !== null };
  });
  renderer.domElement.addEventListener('pointerup', (ev) => {
    const d = down;
    down = null;
    if (!d || d.onGizmo || Math.hypot(ev.clientX - d.x, ev.clientY - d.y) > 4) return;
    if (editor?.previewing) return; // the editor owns the gizmo while it previews
    const rect = renderer.domElement.getBoundingClientRect();
    ndc.set(((ev.clientX - rect.left) / rect.width) * 2 - 1, -((ev.clientY - rect.top) / rect.height) * 2 + 1);
    raycaster.setFromCamera(ndc, camera);
    const hit = raycaster.intersectObjects([...markers.values()].map((m) => m.object), false)[0];
    if (hit) {
      select(markers.get(hit.object.userData.entity as Entity) ?? null);
      return;
    }
    // A click on the navmesh (or on the floor beside it: its nearest point) sends the selected agent there.
    let p = navView && navSelected !== null ? navView.pick(raycaster) : null;
    if (!p && navView && navSelected !== null) {
      const onFloor = raycaster.ray.intersectPlane(new THREE.Plane(new THREE.Vector3(0, 1, 0), 0), new THREE.Vector3());
      if (onFloor) p = navNearest(world, world.get(navSelected, NavAgent).navMesh, onFloor.toArray() as Vec3).position;
    }
    if (p && navSelected !== null) {
      setNavDestination(world, navSelected, p);
      layers.update();
      refreshHud();
      invalidate();
    }
  });

  pauseBtn.addEventListener('click', () => {
    paused = !paused;
    acc = 0;
    refreshHud();
  });
  el<HTMLButtonElement>('step').addEventListener('click', () => {
    paused = true;
    stepOnce();
  });
  function switchHand(): void {
    for (const e of holders) {
      world.update(e, GripHolder, (h) => {
        h.mainHand = h.mainHand === 'Right' ? 'Left' : 'Right';
      });
    }
    stepOnce();
  }
  el<HTMLButtonElement>('switch-hand').addEventListener('click', switchHand);

  window.addEventListener('resize', () => {
    applyViewOffset();
    renderer.setSize(window.innerWidth, window.innerHeight);
    invalidate();
  });

  // The grip editor (?editor=1).
  let editor: GripEditor | null = null;
  if (params.editor) {
    editor = new GripEditor({
      world,
      scene,
      sceneName: params.scene,
      sceneText: text,
      three,
      camera,
      renderer,
      gizmo,
      orbit,
      nameOf,
      drawn,
      step: () => {
        world.step(DT);
        refresh();
      },
      refresh,
      setPaused: (p) => {
        paused = p;
        acc = 0;
        refreshHud();
      },
      paused: () => paused,
      deselect: () => select(null),
      invalidate,
    });
  }

  // Initial selection: ?select=NAME, else the first IK target.
  const first = params.select !== null ? markers.get(scene.entity(params.select)) : markers.values().next().value;
  if (params.select !== null && !first) throw new Error(`select=${params.select} is not a target, hint or held object`);
  select(first ?? null);

  // --- test API -------------------------------------------------------------
  const markerByName = (name: string): EntityMarker => {
    const m = markers.get(scene.entity(name));
    if (!m) throw new Error(`'${name}' is not a draggable target, hint or held object`);
    return m;
  };
  window.limber = {
    world,
    scene,
    three: { scene: three, camera, renderer, gizmo, orbit },
    hash: () => world.hash(),
    steps: () => world.stepCount,
    paused: () => paused,
    handPosition(name) {
      for (const rig of rigs) {
        if (world.findJoint(world.get(rig, Rig).asset, name) >= 0) return jointWorldPosition(world, rig, name).toArray() as Vec3;
      }
      throw new Error(`no rig has a joint '${name}'`);
    },
    entityPosition: (name) => world.worldTransform(scene.entity(name)).t,
    dragTarget(name, position) {
      const m = markerByName(name);
      moveEntity(m, new THREE.Vector3(...position), parentFrame(world, m.entity));
      stepOnce();
    },
    select: (name) => select(markerByName(name)),
    selected: () => (selected ? (nameOf.get(selected.entity) ?? null) : null),
    gizmoAxis: () => gizmo.axis,
    screenPosition(p) {
      const v = new THREE.Vector3(...p).project(camera);
      const rect = renderer.domElement.getBoundingClientRect();
      return [rect.left + ((v.x + 1) / 2) * rect.width, rect.top + ((1 - v.y) / 2) * rect.height];
    },
    switchHand,
    grip(name) {
      const e = scene.entity(name);
      const h = world.get(e, GripHolder);
      const palm = (role: 'main' | 'support'): Vec3 | null => {
        const g = palmsView.palm(e, role);
        return g ? (new THREE.Vector3().setFromMatrixPosition(g.matrix).toArray() as Vec3) : null;
      };
      return { mainHand: h.mainHand, mainDistance: h.mainDistance, supportDistance: h.supportDistance, palms: { main: palm('main'), support: palm('support') } };
    },
    animator(name) {
      const e = name !== undefined ? scene.entity(name) : hero;
      if (e === null || !world.has(e, Animator)) throw new Error(`${name ?? 'the scene'} has no Animator`);
      const params: Record<string, number | boolean> = {};
      for (const p of controllerInfo(world, world.get(e, Animator).controller).params) params[p.name] = animatorParam(world, e, p.name);
      return { state: world.get(e, Animator).state, params, position: world.worldTransform(e).t };
    },
    advance(n) {
      for (let i = 0; i < n; i++) sceneStep();
      refresh();
    },
    showcase,
    showSkeleton,
    vault() {
      if (!vaultView || !vaultPanel) return null;
      const d = vaultView.data();
      const position = world.get(vaultView.entity, Transform).position;
      return { state: d.state, obstacleClass: d.obstacleClass, refusal: d.refusal, vaults: d.vaults, refusals: d.refusals, position, states: [...vaultPanel.states], outcomes: [...vaultPanel.outcomes] };
    },
    interaction() {
      if (!interactionView || !interactionPanel) return null;
      const d = interactionView.data();
      return { state: d.state, side: d.side, rightWeight: d.rightWeight, leftWeight: d.leftWeight, rise: d.rise, palmDistance: d.palmDistance, plants: d.plants, target: d.target, closestPoint: d.closestPoint, states: [...interactionPanel.states] };
    },
    layers: { ids: () => layers.ids(), visible: (id) => layers.visible(id), show: (id, on) => layers.show(id, on) },
    plot: { keys: () => plot.keys(), add: (k) => plot.add(k), plotted: () => plot.plotted(), values: (k) => plot.values(k) },
    editor: editor === null ? null : editorApi(editor),
    nav: navView === null ? null : navApi(navView),
  };

  function navApi(view: NavView): NavApi {
    const agentOf = (name?: string): Entity => {
      const e = name !== undefined ? scene.entity(name) : navSelected;
      if (e === null || !world.has(e, NavAgent)) throw new Error(`${name ?? 'the selection'} is not a nav agent`);
      return e;
    };
    return {
      agents: () => navAgents.map((e) => nameOf.get(e) ?? `entity ${e}`),
      selected: () => (navSelected !== null ? (nameOf.get(navSelected) ?? null) : null),
      select: (name) => selectAgent(agentOf(name)),
      agent(name) {
        const e = agentOf(name);
        const a = world.get(e, NavAgent);
        return { driveMode: a.driveMode, destination: a.destination, hasDestination: a.hasDestination, stopped: a.stopped, arrived: a.arrived, pathStatus: a.pathStatus, remainingDistance: a.remainingDistance, locomotionValue: a.locomotionValue, turnAngle: a.turnAngle, steeringTarget: a.steeringTarget, nextPosition: a.nextPosition, position: world.get(e, Transform).position, path: view.paths.get(e) ?? [] };
      },
      meshPoint: (p, name) => navNearest(world, world.get(agentOf(name), NavAgent).navMesh, p).position,
    };
  }

  function editorApi(ed: GripEditor): EditorApi {
    const screen = (p: Vec3): [number, number] => {
      camera.updateMatrixWorld();
      const v = new THREE.Vector3(...p).project(camera);
      const rect = renderer.domElement.getBoundingClientRect();
      return [rect.left + ((v.x + 1) / 2) * rect.width, rect.top + ((1 - v.y) / 2) * rect.height];
    };
    return {
      status: () => ed.status(),
      document: () => ed.document(),
      handles: () => Object.fromEntries(Object.entries(ed.handlePositions()).map(([k, p]) => [k, screen(p)])),
      bend: (f, k) => ed.bend(f as never, k),
      localPose: () => JSON.stringify(world.localPose(scene.entity(ed.document()?.holder ?? ''))),
      editRole: () => ed.status().editRole,
      gizmoPosition: () => (gizmo.object ? (gizmo.object.getWorldPosition(new THREE.Vector3()).toArray() as Vec3) : null),
      sceneText: () => ed.sceneWithDoc(),
      gapLines: () => ed.gapLines(),
    };
  }

  // --- loop: fixed steps from an accumulator --------------------------------
  // --- mask renders for the showcase test ----------------------------------
  const maskMaterial = new THREE.MeshBasicMaterial({ color: 0xffffff, side: THREE.DoubleSide });
  /** Renders only `shown` (top-level scene objects) in white on black; the RGBA pixels, bottom row first. */
  function mask(shown: readonly THREE.Object3D[]): { w: number; h: number; px: Uint8Array; share: number } {
    const size = renderer.getDrawingBufferSize(new THREE.Vector2());
    const w = size.x, h = size.y;
    const target = new THREE.WebGLRenderTarget(w, h);
    const visible = three.children.map((c) => c.visible);
    const bg = three.background;
    three.children.forEach((c) => (c.visible = shown.includes(c)));
    three.background = new THREE.Color(0x000000);
    three.overrideMaterial = maskMaterial;
    renderer.setRenderTarget(target);
    renderer.render(three, camera);
    const px = new Uint8Array(w * h * 4);
    renderer.readRenderTargetPixels(target, 0, 0, w, h, px);
    renderer.setRenderTarget(null);
    three.overrideMaterial = null;
    three.background = bg;
    three.children.forEach((c, i) => (c.visible = visible[i]));
    target.dispose();
    let n = 0;
    for (let i = 0; i < px.length; i += 4) if (px[i] > 127) n++;
    return { w, h, px, share: n / (w * h) };
  }

  function showcase(): ShowcaseReport {
    for (const v of views) v.update();
    three.updateMatrixWorld(true);
    const body = mask(bodies.map((b) => b.object));
    const ground = mask([floor.object]);
    const props = mask([gripView.object]);
    const rect = renderer.domElement.getBoundingClientRect();
    const scale = ground.w / rect.width;
    const feet = rigs.map((e) => {
      const { names } = world.skeleton(world.get(e, Rig).asset);
      let joint = '';
      let low = new THREE.Vector3(0, Infinity, 0);
      for (const n of names) {
        if (!/Foot$|Toe/.test(n)) continue;
        const p = jointWorldPosition(world, e, n);
        if (p.y < low.y) {
          low = p;
          joint = n;
        }
      }
      const v = low.clone().project(camera);
      const screen: [number, number] = [((v.x + 1) / 2) * rect.width, ((1 - v.y) / 2) * rect.height];
      const floorBelow = [4, 12, 30].map((dy) => {
        const x = Math.round(screen[0] * scale), y = Math.round((screen[1] + dy) * scale);
        if (x < 0 || x >= ground.w || y < 0 || y >= ground.h) return false;
        return ground.px[((ground.h - 1 - y) * ground.w + x) * 4] > 127;
      });
      return { rig: nameOf.get(e) ?? `entity ${e}`, joint, y: low.y, screen, floorBelow };
    });
    return { width: body.w, height: body.h, character: body.share, floor: ground.share, props: props.share, feet };
  }

  function frame(now: number): void {
    editor?.tick(now);
    const elapsed = Math.min(Math.max(0, (now - last) / 1000), 0.25);
    last = now;
    if (!paused) {
      acc += elapsed;
      let n = 0;
      while (acc >= DT && n < MAX_STEPS_PER_FRAME) {
        sceneStep();
        acc -= DT;
        n++;
      }
      if (n === MAX_STEPS_PER_FRAME) acc = 0; // too slow: drop time rather than spiral
      if (n > 0) refresh();
    }
    if (dirty) {
      dirty = false;
      floor.follow(orbit.target);
      renderer.render(three, camera);
    }
    requestAnimationFrame(frame);
  }
  refresh();
  floor.follow(orbit.target);
  renderer.render(three, camera);
  document.body.dataset.ready = '1';
  requestAnimationFrame(frame);
}

main().catch((err: unknown) => {
  const msg = err instanceof Error ? err.message : String(err);
  const box = document.getElementById('error');
  if (box) box.textContent = msg;
  document.body.dataset.ready = 'error';
  console.error(err);
});
