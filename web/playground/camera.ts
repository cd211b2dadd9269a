/** The camera: its framing of the scene's subject (subject.ts), the view offset that centres the
 * picture beside the HUD (and the grip editor's panel), the gizmo and orbit controls, and
 * following the subject.
 *
 * The view direction is picked among candidates around the subject (its preferred side first,
 * then turned about the vertical, then from higher up): the first one from which no level
 * collider stands between the camera and the subject's head, hips and feet (or hands), and whose
 * camera is not inside a collider (world.collide raycasts and overlaps), else the least hidden
 * one. The distance fits the subject's box into the free part of the view with a margin. */
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { TransformControls } from 'three/examples/jsm/controls/TransformControls.js';
import { Collider, type Entity, type World } from '../bridge/browser.js';
import { el } from './page.js';
import type { Loaded } from './scene-load.js';
import type { Stage } from './stage.js';
import type { Subject } from './subject.js';

/** Share of the free view's half-size the subject's box may fill (a margin all round). */
const FILL = 0.86;

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

/** The free part of the view (beside the HUD and the editor's panel), viewport pixels. */
export function freeRect(editor: boolean): { left: number; right: number; top: number; bottom: number } {
  return { left: hudShift(), right: window.innerWidth - rightPanel(editor), top: 0, bottom: window.innerHeight };
}

/** Tangents of the free view's half-angles (horizontal, vertical). */
function halfTangents(camera: THREE.PerspectiveCamera, editor: boolean): [number, number] {
  const r = freeRect(editor);
  const tv = Math.tan(THREE.MathUtils.degToRad(camera.fov) / 2);
  return [(tv * Math.max(r.right - r.left, 1)) / window.innerHeight, tv];
}

/** The distance from `center` along `dir` (unit, towards the camera) at which every one of
 * `spheres` is inside the free view, filling at most FILL of it. */
export function fitDistance(spheres: readonly THREE.Sphere[], center: THREE.Vector3, dir: THREE.Vector3, tans: [number, number]): number {
  const f = dir.clone().negate();
  const r = new THREE.Vector3().crossVectors(f, new THREE.Vector3(0, 1, 0));
  if (r.lengthSq() < 1e-8) r.set(1, 0, 0);
  r.normalize();
  const u = new THREE.Vector3().crossVectors(r, f);
  // a sphere of radius k seen at an angle: its edge is k / cos(half-angle) off its centre's ray
  const kx = Math.hypot(1, tans[0] * FILL), ky = Math.hypot(1, tans[1] * FILL);
  let dist = 0.3;
  const q = new THREE.Vector3();
  for (const s of spheres) {
    q.copy(s.center).sub(center);
    const z = q.dot(f);
    dist = Math.max(dist, (Math.abs(q.dot(r)) + s.radius * kx) / (tans[0] * FILL) - z, (Math.abs(q.dot(u)) + s.radius * ky) / (tans[1] * FILL) - z);
  }
  return dist;
}

/** The preferred view of a subject: from the front-left of a walker, the front of a posed
 * character, above the front of a group, the front-right of a holder (the main hand's side,
 * both hands and the face in view), turned with the lead character. */
function preferredDirection(world: World, subject: Subject): THREE.Vector3 {
  const dir = subject.kind === 'group' ? new THREE.Vector3(0.35, 1.15, 1) : subject.kind === 'hands' ? new THREE.Vector3(-0.75, 0.4, 1) : subject.lead === null ? new THREE.Vector3(0.5, 0.22, 1) : new THREE.Vector3(1, 0.3, 0.7);
  const lead = subject.lead ?? subject.rigs[0];
  if (lead !== undefined && subject.kind !== 'group') {
    const r = world.worldTransform(lead).r;
    // the character's heading only: a leaning root does not tilt the camera
    const q = new THREE.Quaternion(r[0], r[1], r[2], r[3]);
    const fwd = new THREE.Vector3(0, 0, 1).applyQuaternion(q);
    dir.applyAxisAngle(new THREE.Vector3(0, 1, 0), Math.atan2(fwd.x, fwd.z));
  }
  return dir.normalize();
}

/** Candidate directions: the preferred one, then from higher up, then the same turned about
 * the vertical (a side view over a wall reads better than one from behind the character). */
function candidates(preferred: THREE.Vector3): THREE.Vector3[] {
  const out: THREE.Vector3[] = [];
  const yaws = [0, 30, -30, 60, -60, 90, -90, 125, -125, 160, -160, 180];
  const flat = Math.atan2(preferred.y, Math.hypot(preferred.x, preferred.z));
  for (const yaw of yaws) {
    for (const lift of [0, 20, 40]) {
      const elev = Math.min(flat + THREE.MathUtils.degToRad(lift), THREE.MathUtils.degToRad(75));
      const d = new THREE.Vector3(preferred.x, 0, preferred.z).normalize().applyAxisAngle(new THREE.Vector3(0, 1, 0), THREE.MathUtils.degToRad(yaw));
      out.push(d.multiplyScalar(Math.cos(elev)).setY(Math.sin(elev)).normalize());
    }
  }
  return out;
}

/** How badly a camera at `cam` is placed: 1000 inside a collider, plus one per subject point a
 * collider hides from it. */
export function occlusion(world: World, cam: THREE.Vector3, points: readonly THREE.Vector3[]): number {
  const c = cam.toArray() as [number, number, number];
  let score = world.collide.overlapSphere(c, 0.05).length > 0 ? 1000 : 0;
  const d = new THREE.Vector3();
  for (const p of points) {
    d.subVectors(p, cam);
    const len = d.length();
    if (len < 1e-4) continue;
    if (world.collide.raycast(c, d.divideScalar(len).toArray() as [number, number, number], len - 0.05) !== null) score++;
  }
  return score;
}

/** The direction to frame the subject from: the first candidate that sees it whole, else the
 * least hidden (the preferred one in a scene without colliders). */
function chooseDirection(loaded: Loaded, subject: Subject, spheres: readonly THREE.Sphere[], center: THREE.Vector3, tans: [number, number]): THREE.Vector3 {
  const { world, entities } = loaded;
  const preferred = preferredDirection(world, subject);
  if (!entities.some((e: Entity) => world.has(e, Collider))) return preferred;
  const points = subject.points();
  let best = preferred, bestScore = Infinity;
  for (const dir of candidates(preferred)) {
    const cam = center.clone().addScaledVector(dir, fitDistance(spheres, center, dir, tans));
    const score = occlusion(world, cam, points);
    if (score < bestScore) {
      best = dir;
      bestScore = score;
    }
    if (score === 0) break;
  }
  return best;
}

/** Places the camera on the scene's subject (see the file comment); the picture is centred in
 * the space beside the HUD. Call after the first step (subject.ts boxes come from the pose).
 * Returns the orbit target. */
export function frameCamera(loaded: Loaded, subject: Subject, stage: Stage, editor: boolean): THREE.Vector3 {
  const camera = stage.camera;
  applyViewOffset(camera, editor);
  const spheres = subject.spheres();
  const box = subject.box();
  const center = box.getCenter(new THREE.Vector3());
  const tans = halfTangents(camera, editor);
  const dir = chooseDirection(loaded, subject, spheres, center, tans);
  const dist = fitDistance(spheres, center, dir, tans);
  camera.position.copy(center).addScaledVector(dir, dist);
  camera.lookAt(center);
  camera.near = Math.max(dist / 100, 0.005);
  stage.floor.setRange(Math.max(6, dist * 2.5), Math.max(24, dist * 8));
  const size = box.getSize(new THREE.Vector3());
  stage.setShadowRange(Math.max(size.x, size.z, size.y * 0.6) / 2 + 1.5);
  camera.far = Math.max(dist * 50, dist * 8 * 3, 100);
  applyViewOffset(camera, editor);
  return center;
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

/** The camera follows the subject: it and the orbit target move by the lead character's
 * displacement since the last update (a group: by part of its box centre's), and until the user
 * orbits or zooms, the camera backs off along its line of sight at once when the subject's box
 * would leave the free view (a vault's flight, a hand switch, a group spreading out), and eases
 * back to the framed distance when it fits again. */
export class CameraFollow {
  private followed: THREE.Vector3;
  /** The user orbited, zoomed or panned: the distance is theirs from now on. */
  userMoved = false;
  /** The framed distance (frameCamera's), the closest the camera comes back to. */
  private readonly home: number;

  constructor(
    private readonly world: World,
    private readonly subject: Subject,
    private readonly camera: THREE.PerspectiveCamera,
    private readonly orbit: OrbitControls,
    private readonly editor: boolean,
  ) {
    this.followed = this.anchor();
    this.home = camera.position.distanceTo(orbit.target);
    orbit.addEventListener('start', () => {
      this.userMoved = true;
    });
  }

  /** The point whose motion the camera copies. */
  private anchor(): THREE.Vector3 {
    const lead = this.subject.lead;
    if (lead !== null) return new THREE.Vector3(...this.world.worldTransform(lead).t);
    return this.subject.box().getCenter(new THREE.Vector3());
  }

  update(): void {
    const now = this.anchor();
    const delta = now.clone().sub(this.followed);
    // a group's centre jumps as agents turn: ease towards it
    if (this.subject.lead === null) delta.multiplyScalar(0.2);
    this.followed.add(delta);
    this.camera.position.add(delta);
    this.orbit.target.add(delta);
    // At step 0 the pose is the rest pose the framing skipped (frameAfterFirstStep in main.ts).
    // The grip editor frames the hands closer than the box and moves the camera itself.
    if (!this.userMoved && !this.editor && this.world.stepCount > 0) this.keepInView();
    this.orbit.update();
  }

  /** Backs the camera off along its line of sight until the subject's box fits, or eases it
   * back towards the framed distance. */
  private keepInView(): void {
    const spheres = this.subject.spheres();
    const target = this.orbit.target;
    const offset = this.camera.position.clone().sub(target);
    const dist = offset.length();
    if (dist < 1e-6) return;
    const dir = offset.divideScalar(dist);
    const need = fitDistance(spheres, target, dir, halfTangents(this.camera, this.editor));
    const want = Math.max(need, this.home);
    const next = need > dist ? need : dist + (want - dist) * 0.15;
    this.camera.position.copy(target).addScaledVector(dir, next);
  }
}
