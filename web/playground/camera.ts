/** The camera: its framing per scene, the view offset that centres the picture beside the HUD
 * (and the grip editor's panel), the gizmo and orbit controls, and following the first
 * animated character. */
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { TransformControls } from 'three/examples/jsm/controls/TransformControls.js';
import { NavAgent, Rig, type Entity, type World } from '../bridge/browser.js';
import { CROWD_AGENTS } from './crowd.js';
import { jointWorldPosition } from '../three/index.js';
import { el } from './page.js';
import type { Loaded } from './scene-load.js';
import type { SceneViews } from './scene-views.js';
import type { Stage } from './stage.js';

/** The HUD covers the left of the page: the width the picture moves right by (0 when the HUD
 * is too wide to matter). */
export function hudShift(): number {
  const right = el('hud').getBoundingClientRect().right + 12;
  return right < window.innerWidth * 0.45 ? right : 0;
}

/** The grip editor's panel covers the right of the page. */
export function rightPanel(editor: boolean): number {
  return editor ? el('editor').getBoundingClientRect().width + 12 : 0;
}

export function applyViewOffset(camera: THREE.PerspectiveCamera, editor: boolean): void {
  const w = window.innerWidth, h = window.innerHeight;
  camera.aspect = w / h;
  camera.setViewOffset(w, h, -(hudShift() - rightPanel(editor)) / 2, 0, w, h);
  camera.updateProjectionMatrix();
}

/** A crowd (more than CROWD_AGENTS NavAgents): its agents, seen from the front and above. */
export function crowdAgents({ world, entities }: Loaded): Entity[] {
  const agents = entities.filter((e) => world.has(e, NavAgent));
  return agents.length > CROWD_AGENTS ? agents : [];
}

/** What to frame and the direction to look from (before the first character's turn): a crowd
 * frames all its agents from above; a grip frames the hands and the held object; a walker gets a
 * standing-height box around it, seen more from the side; otherwise the characters and their
 * targets. */
function framingBox(loaded: Loaded, { interactor, gripView, bodies, markers }: SceneViews): { box: THREE.Box3; dir: THREE.Vector3 } {
  const { world, animated, holders } = loaded;
  const hasJoint = (e: Entity, name: string) => world.has(e, Rig) && world.rig.findJoint(world.get(e, Rig).asset, name) >= 0;
  const box = new THREE.Box3();
  const dir = new THREE.Vector3(0.5, 0.22, 1);
  const crowd = crowdAgents(loaded);
  if (crowd.length > 0) {
    for (const e of crowd) box.expandByPoint(new THREE.Vector3(...world.worldTransform(e).t));
    box.expandByVector(new THREE.Vector3(0.5, 1, 0.5));
    return { box, dir: dir.set(0, 1.4, 1) };
  }
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
  return { box, dir };
}

/** Places the camera for the scene, from the front-right and a little above, turned with the
 * first character; the picture is centred in the space beside the HUD. Returns the orbit target. */
export function frameCamera(loaded: Loaded, sv: SceneViews, stage: Stage, editor: boolean): THREE.Vector3 {
  const { world, rigs, holders } = loaded;
  const camera = stage.camera;
  const framing = framingBox(loaded, sv);
  const box = framing.box;
  let dir = framing.dir;
  const sphere = box.getBoundingSphere(new THREE.Sphere());
  dir.normalize();
  if (rigs.length > 0 && crowdAgents(loaded).length === 0) {
    const r = world.worldTransform(rigs[0]).r;
    dir = dir.applyQuaternion(new THREE.Quaternion(r[0], r[1], r[2], r[3]));
  }
  const free = Math.max(window.innerWidth - hudShift() - rightPanel(editor), 1) / window.innerHeight;
  const fov = THREE.MathUtils.degToRad(camera.fov);
  const hfov = 2 * Math.atan(Math.tan(fov / 2) * free);
  // The editor works on the hands: closer in.
  const dist = (Math.max(sphere.radius, 0.25) / Math.sin(Math.min(fov, hfov) / 2)) * (editor && holders.length > 0 ? 0.62 : 0.84);
  camera.position.copy(sphere.center).addScaledVector(dir, dist);
  camera.lookAt(sphere.center);
  camera.near = dist / 100;
  stage.floor.setRange(Math.max(6, dist * 2.5), Math.max(24, dist * 8));
  camera.far = Math.max(dist * 50, dist * 8 * 3, 100);
  applyViewOffset(camera, editor);
  return sphere.center.clone();
}

/** A resized window: the view offset, the renderer's size, a redraw. */
export function watchResize(stage: Stage, editor: boolean): void {
  window.addEventListener('resize', () => {
    applyViewOffset(stage.camera, editor);
    stage.renderer.setSize(window.innerWidth, window.innerHeight);
    stage.invalidate();
  });
}

/** The gizmo (created before OrbitControls so its pointerdown runs first) and the orbit controls
 * around `target`; both redraw the stage when they change. */
export function createControls(stage: Stage, target: THREE.Vector3): { gizmo: TransformControls; orbit: OrbitControls } {
  const { camera, renderer } = stage;
  const gizmo = new TransformControls(camera, renderer.domElement);
  gizmo.setMode('translate');
  gizmo.setSize(0.75);
  stage.three.add(gizmo.getHelper());
  const orbit = new OrbitControls(camera, renderer.domElement);
  orbit.target.copy(target);
  orbit.enableDamping = false;
  orbit.update();
  orbit.addEventListener('change', stage.invalidate);
  gizmo.addEventListener('change', stage.invalidate);
  return { gizmo, orbit };
}

/** The camera follows the first animated character (not in a crowd, framed whole): it and the
 * orbit target move by the character's displacement since the last update. */
export class CameraFollow {
  private followed: THREE.Vector3 | null;

  constructor(
    private readonly world: World,
    private readonly hero: Entity | null,
    private readonly camera: THREE.Camera,
    private readonly orbit: OrbitControls,
  ) {
    this.followed = hero !== null ? new THREE.Vector3(...world.worldTransform(hero).t) : null;
  }

  update(): void {
    if (this.hero === null || this.followed === null) return;
    const now = new THREE.Vector3(...this.world.worldTransform(this.hero).t);
    const delta = now.clone().sub(this.followed);
    this.camera.position.add(delta);
    this.orbit.target.add(delta);
    this.orbit.update();
    this.followed = now;
  }
}
