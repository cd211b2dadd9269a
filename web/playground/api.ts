/** window.limber: what the page exposes to the Playwright specs (tests/e2e), and its assembly
 * from the page's parts. */
import * as THREE from 'three';
import type { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { TransformControls } from 'three/examples/jsm/controls/TransformControls.js';
import { Animator, GripHolder, Rig, Transform, type HandSide, type Scene, type Vec3, type World } from '../bridge/browser.js';
import { jointWorldPosition, parentFrame, type EntityMarker } from '../three/index.js';
import type { GripDoc, Role } from './editor/grip-doc.js';
import type { GripEditor } from './editor/grip-editor.js';
import type { Hud } from './hud.js';
import { freeRect, occlusion } from './camera.js';
import type { LoopRate, StepLoop } from './loop.js';
import type { DriveMode } from './nav.js';
import type { Loaded } from './scene-load.js';
import type { SceneViews } from './scene-views.js';
import type { Selection } from './selection.js';
import { showcase } from './showcase.js';
import type { Stage } from './stage.js';
import type { Subject } from './subject.js';

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

/** Where the scene's subject is on the screen (limber.framing()): viewport pixels. */
export interface FramingReport {
  kind: Subject['kind'];
  viewport: { width: number; height: number };
  /** The part of the view the HUD and the editor's panel leave free. */
  free: { left: number; right: number; top: number; bottom: number };
  /** Per subject character: its box (head to feet; head, hands and the held prop in a close
   * shot) projected, [left, top, right, bottom]; `behind` when part of it is behind the camera. */
  bodies: { rig: string; rect: [number, number, number, number]; behind: boolean }[];
  /** The camera is inside a collider (overlap of a 2 cm sphere). */
  cameraInside: boolean;
  /** Subject points (head, hips, feet or hands) a collider hides from the camera (walls in
   * the way are drawn see-through, so this is informative). */
  hidden: number;
  /** The HUD's rect and whether its content fits without scrolling. */
  hud: { height: number; scrollHeight: number; clientHeight: number; right: number };
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
  /** Where the scene's subject is in the picture, and whether the HUD fits the page. */
  framing(): FramingReport;
  /** The step loop's pace: steps and frames per second over the last second of playing. */
  rate(): LoopRate;
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
  /** The crowd layer: whether it is shown, the neighbour links and velocity arrows it drew last. */
  crowd(): { visible: boolean; links: number; preferredArrows: number; actualArrows: number };
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

/** The page's parts window.limber reads and drives. */
export interface ApiParts {
  loaded: Loaded;
  stage: Stage;
  sv: SceneViews;
  gizmo: TransformControls;
  orbit: OrbitControls;
  selection: Selection;
  loop: StepLoop;
  hud: Hud;
  editor: GripEditor | null;
  subject: Subject;
  switchHand(): void;
}

/** Viewport (CSS pixel) coordinates of a world point. */
function screenPosition(stage: Stage, p: Vec3): [number, number] {
  const v = new THREE.Vector3(...p).project(stage.camera);
  const rect = stage.renderer.domElement.getBoundingClientRect();
  return [rect.left + ((v.x + 1) / 2) * rect.width, rect.top + ((1 - v.y) / 2) * rect.height];
}

/** What the crowd layer drew last (scenes with NavAgents have one). */
function crowdStats(sv: SceneViews): ReturnType<NavApi['crowd']> {
  const c = sv.crowd;
  const arrows = c?.arrowCount ?? { preferred: 0, actual: 0 };
  return { visible: sv.layers.visible('crowd'), links: c?.linkCount ?? 0, preferredArrows: arrows.preferred, actualArrows: arrows.actual };
}

/** Sets window.limber. */
export function installApi(parts: ApiParts): void {
  const { loaded, stage, sv, gizmo, orbit, selection, loop, hud, editor } = parts;
  const { world, scene, rigs, nameOf } = loaded;
  const markerByName = (name: string): EntityMarker => {
    const m = sv.markers.get(scene.entity(name));
    if (!m) throw new Error(`'${name}' is not a draggable target, hint or held object`);
    return m;
  };
  window.limber = {
    world,
    scene,
    three: { scene: stage.three, camera: stage.camera, renderer: stage.renderer, gizmo, orbit },
    hash: () => world.hash(),
    steps: () => world.stepCount,
    paused: () => loop.paused,
    handPosition(name) {
      for (const rig of rigs) {
        if (world.rig.findJoint(world.get(rig, Rig).asset, name) >= 0) return jointWorldPosition(world, rig, name).toArray() as Vec3;
      }
      throw new Error(`no rig has a joint '${name}'`);
    },
    entityPosition: (name) => world.worldTransform(scene.entity(name)).t,
    dragTarget(name, position) {
      const m = markerByName(name);
      selection.moveEntity(m, new THREE.Vector3(...position), parentFrame(world, m.entity));
      loop.stepOnce();
    },
    select: (name) => selection.select(markerByName(name)),
    selected: () => (selection.selected ? (nameOf.get(selection.selected.entity) ?? null) : null),
    gizmoAxis: () => gizmo.axis,
    screenPosition: (p) => screenPosition(stage, p),
    switchHand: parts.switchHand,
    grip(name) {
      const e = scene.entity(name);
      const h = world.get(e, GripHolder);
      // the palms layer may be off (it updates only while shown): bring it to this step
      sv.palmsView.update();
      const palm = (role: 'main' | 'support'): Vec3 | null => {
        const g = sv.palmsView.palm(e, role);
        return g ? (new THREE.Vector3().setFromMatrixPosition(g.matrix).toArray() as Vec3) : null;
      };
      return { mainHand: h.mainHand, mainDistance: h.mainDistance, supportDistance: h.supportDistance, palms: { main: palm('main'), support: palm('support') } };
    },
    animator(name) {
      const e = name !== undefined ? scene.entity(name) : hud.animator.hero;
      if (e === null || !world.has(e, Animator)) throw new Error(`${name ?? 'the scene'} has no Animator`);
      const params: Record<string, number | boolean> = {};
      for (const p of world.anim.controllerInfo(world.get(e, Animator).controller).params) params[p.name] = world.anim.param(e, p.name);
      return { state: world.get(e, Animator).state, params, position: world.worldTransform(e).t };
    },
    advance: (n) => loop.advance(n),
    showcase: () => showcase(loaded, sv, stage),
    showSkeleton: (on) => sv.layers.show('skeleton', on),
    vault() {
      if (!sv.vault) return null;
      const { view, panel } = sv.vault;
      const d = view.data();
      const position = world.get(view.entity, Transform).position;
      return { state: d.state, obstacleClass: d.obstacleClass, refusal: d.refusal, vaults: d.vaults, refusals: d.refusals, position, states: [...panel.states], outcomes: [...panel.outcomes] };
    },
    interaction() {
      if (!sv.interaction) return null;
      const { view, panel } = sv.interaction;
      const d = view.data();
      return { state: d.state, side: d.side, rightWeight: d.rightWeight, leftWeight: d.leftWeight, rise: d.rise, palmDistance: d.palmDistance, plants: d.plants, target: d.target, closestPoint: d.closestPoint, states: [...panel.states] };
    },
    framing: () => framing(parts),
    rate: () => loop.rate(),
    layers: { ids: () => sv.layers.ids(), visible: (id) => sv.layers.visible(id), show: (id, on) => sv.layers.show(id, on) },
    plot: { keys: () => hud.plot.keys(), add: (k) => hud.plot.add(k), plotted: () => hud.plot.plotted(), values: (k) => hud.plot.values(k) },
    editor: editor === null ? null : editorApi(parts, editor),
    nav: sv.nav === null ? null : { ...sv.nav.api(), crowd: () => crowdStats(sv) },
  };
}

/** limber.framing(): the subject's boxes projected, the camera's place, the HUD's size. */
function framing({ loaded, stage, subject }: ApiParts): FramingReport {
  const camera = stage.camera;
  camera.updateMatrixWorld();
  const rect = stage.renderer.domElement.getBoundingClientRect();
  const focal = rect.height / 2 / Math.tan(THREE.MathUtils.degToRad(camera.fov) / 2);
  const bodies = subject.bodies().map(({ rig, spheres }) => {
    let l = Infinity, t = Infinity, r = -Infinity, b = -Infinity;
    let behind = false;
    for (const s of spheres) {
      const depth = -s.center.clone().applyMatrix4(camera.matrixWorldInverse).z;
      if (depth < camera.near + s.radius) behind = true;
      const [x, y] = screenPosition(stage, s.center.toArray() as Vec3);
      // a sphere's outline: its radius seen at its depth (a little wider off-axis; the checks keep a margin)
      const k = (s.radius * focal) / Math.max(depth, 1e-6);
      l = Math.min(l, x - k);
      r = Math.max(r, x + k);
      t = Math.min(t, y - k);
      b = Math.max(b, y + k);
    }
    return { rig: loaded.label(rig), rect: [l, t, r, b] as [number, number, number, number], behind };
  });
  const cam = camera.position.toArray() as Vec3;
  const hud = document.getElementById('hud') as HTMLElement;
  const hudRect = hud.getBoundingClientRect();
  return {
    kind: subject.kind,
    viewport: { width: window.innerWidth, height: window.innerHeight },
    free: freeRect(document.getElementById('editor')?.hidden === false),
    bodies,
    cameraInside: loaded.world.collide.overlapSphere(cam, 0.02).length > 0,
    hidden: occlusion(loaded.world, camera.position, subject.points()) % 1000,
    hud: { height: hudRect.height, scrollHeight: hud.scrollHeight, clientHeight: hud.clientHeight, right: hudRect.right },
  };
}

function editorApi({ loaded, stage, gizmo }: ApiParts, ed: GripEditor): EditorApi {
  const screen = (p: Vec3): [number, number] => {
    stage.camera.updateMatrixWorld();
    return screenPosition(stage, p);
  };
  return {
    status: () => ed.status(),
    document: () => ed.document(),
    handles: () => Object.fromEntries(Object.entries(ed.handlePositions()).map(([k, p]) => [k, screen(p)])),
    bend: (f, k) => ed.hands.bend(f as never, k),
    localPose: () => JSON.stringify(loaded.world.localPose(loaded.scene.entity(ed.document()?.holder ?? ''))),
    editRole: () => ed.status().editRole,
    gizmoPosition: () => (gizmo.object ? (gizmo.object.getWorldPosition(new THREE.Vector3()).toArray() as Vec3) : null),
    sceneText: () => ed.sceneWithDoc(),
    gapLines: () => ed.gapLines(),
  };
}
