/** The grip editor's camera moves: framing the whole character that holds (head to feet, both
 * hands, the held object) in the space between the HUD and the editor's panel, and turning
 * onto one palm. Both keep the viewing direction the page chose and move the orbit target. */
import * as THREE from 'three';
import type { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { GripSurface, type Entity, type World } from '../../bridge/browser.js';
import { applyJointTransform } from '../../three/index.js';
import { hudShift, rightPanel } from '../camera.js';
import { DT } from '../page.js';
import { objectSurfaces } from './doc-world.js';
import type { EditorHost } from './editor-host.js';

/** Metres around the joints: the head's top above its joint, the soles below the ankles and
 * toes, the skin around the hands. */
const BODY_PAD = 0.14;
/** The share of the free space left empty on each side of the framed box. */
const MARGIN = 0.08;

/** World bounds of the character's joints as of the last step (grown by BODY_PAD) and of the
 * held object's grip surfaces. */
export function holdBounds(world: World, holder: Entity, surfaces: Iterable<Entity>): THREE.Box3 {
  const box = new THREE.Box3();
  const m = applyJointTransform(world.worldTransform(holder), new THREE.Matrix4());
  const p = new THREE.Vector3();
  for (const x of world.modelPose(holder)) box.expandByPoint(p.set(x.t[0], x.t[1], x.t[2]).applyMatrix4(m));
  box.expandByScalar(BODY_PAD);
  for (const e of surfaces) {
    if (!world.alive(e) || !world.has(e, GripSurface)) continue;
    const s = world.get(e, GripSurface);
    const half = s.shape === 'Box' ? Math.hypot(...s.size) / 2 : Math.max(s.radius, s.height / 2 + s.radius);
    const r = half + Math.hypot(...s.center);
    box.union(new THREE.Box3().setFromCenterAndSize(new THREE.Vector3(...world.worldTransform(e).t), new THREE.Vector3(2 * r, 2 * r, 2 * r)));
  }
  return box;
}

/** The character and the object's `surfaces` framed as they are now. */
export function frameHold(host: EditorHost, holder: Entity, surfaces: Iterable<Entity>): void {
  frameBox(host.camera, host.orbit, holdBounds(host.world, holder, surfaces));
  host.invalidate();
}

/** On load, before the first step (a character in its rest pose, its hands wide): framed as
 * after one step instead, measured on a snapshot that is restored at once, so the world and
 * its hash are unchanged. Later, framed as it is. */
export function frameAfterFirstStep(host: EditorHost, holder: Entity, object: Entity): void {
  const world = host.world;
  if (world.stepCount > 0) return frameHold(host, holder, objectSurfaces(world, host, object).values());
  const before = world.snapshot();
  let box: THREE.Box3;
  try {
    world.step(DT);
    box = holdBounds(world, holder, objectSurfaces(world, host, object).values());
  } finally {
    world.restore(before);
  }
  frameBox(host.camera, host.orbit, box);
  host.invalidate();
}

/** Moves the camera along its viewing direction and the orbit target to the box's centre, at
 * the nearest distance that shows all of the box inside the picture's free space (between the
 * HUD and the editor's panel, where the view offset centres the target) with MARGIN. */
export function frameBox(camera: THREE.PerspectiveCamera, orbit: OrbitControls, box: THREE.Box3): void {
  const center = box.getCenter(new THREE.Vector3());
  const dir = camera.position.clone().sub(orbit.target).normalize();
  // World -> camera rotation (x right, y up, z toward the camera): the transpose of the look-at basis.
  const toCamera = new THREE.Matrix4().lookAt(dir, new THREE.Vector3(), camera.up).transpose();
  const w = window.innerWidth, h = window.innerHeight;
  const free = Math.max(w - hudShift() - rightPanel(true), 1) / w;
  const ty = Math.tan(THREE.MathUtils.degToRad(camera.fov) / 2);
  const sx = ty * (w / h) * free * (1 - MARGIN);
  const sy = ty * (1 - MARGIN);
  let dist = 0;
  const q = new THREE.Vector3();
  for (let i = 0; i < 8; i++) {
    q.set(i & 1 ? box.max.x : box.min.x, i & 2 ? box.max.y : box.min.y, i & 4 ? box.max.z : box.min.z).sub(center).applyMatrix4(toCamera);
    // a corner at depth dist - q.z projects at q.x / ((dist - q.z) tan(hfov/2)) of the half-width
    dist = Math.max(dist, q.z + Math.abs(q.x) / sx, q.z + Math.abs(q.y) / sy);
  }
  placeCamera(camera, orbit, center, dir, dist);
}

/** Turns the camera onto `point` from `dist` metres, keeping the viewing direction. */
export function focusOn(camera: THREE.PerspectiveCamera, orbit: OrbitControls, point: THREE.Vector3, dist: number): void {
  placeCamera(camera, orbit, point, camera.position.clone().sub(orbit.target).normalize(), dist);
}

function placeCamera(camera: THREE.PerspectiveCamera, orbit: OrbitControls, target: THREE.Vector3, dir: THREE.Vector3, dist: number): void {
  orbit.target.copy(target);
  camera.position.copy(target).addScaledVector(dir, dist);
  camera.near = 0.01; // close enough for a palm half a metre away
  camera.updateProjectionMatrix();
  orbit.update();
  camera.updateMatrixWorld();
}
