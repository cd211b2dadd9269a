/** The grip editor (playground `?editor=1`): author a hold live, without "play".
 *
 * Preview gives the chosen character a GripHolder on the chosen object (Object placement,
 * blendSeconds 0). What is authored is one document (`GripDoc`): anchors, main hand, wrap,
 * surfaces, both hands' finger poses (per-joint GripPoseDefs, or a captured finger pose) and
 * the clip under the grip. The world shown is a pure function of the document: every change
 * restores the snapshot taken when preview began (World.snapshot/restore), writes the
 * document into it and steps once. So undo gives back the exact pose, the same document in
 * a fresh page gives the same hash, and leaving preview (restore, no step) gives the scene's
 * hash from before. Every edit is: push the document on the undo stack, change it, apply.
 * One drag is one undo step.
 *
 * Pieces: anchors move and turn with the page's TransformControls; finger handles
 * (finger-handles.ts) bend a joint by dragging up and down; numeric fields for every bend
 * and fan in degrees; export/import as world.grip.captureFingerPose JSON plus a scene fragment. */
import * as THREE from 'three';
import type { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { TransformControls } from 'three/examples/jsm/controls/TransformControls.js';
import {
  FINGER_NAMES,
  GripHolder,
  GripProfile,
  GripSurface,
  Rig,
  Transform,
  type Entity,
  type FingerName,
  type FingerPose,
  type FingerShape,
  type GripPoseDef,
  type GripSurfaceData,
  type HandSide,
  type Quat,
  type Scene,
  type Vec3,
  type World,
  type WorldSnapshot,
} from '../../bridge/browser.js';
import { applyJointTransform, jointWorldPosition, parentFrame } from '../../three/index.js';
import { FingerHandles } from './finger-handles.js';

export const BUILTIN_POSES = ['open', 'relaxed', 'fist', 'pistol', 'support', 'handle', 'pinch', 'cup'] as const;
export type Role = 'main' | 'support';

/** A hand's pose in the document: a per-joint definition (editable) or a captured finger pose. */
export type PoseDoc = { kind: 'def'; base: string; def: GripPoseDef } | { kind: 'captured'; name: string; pose: FingerPose };

export interface LocalXf {
  position: Vec3;
  rotation: Quat;
}

export interface SurfaceDoc extends LocalXf {
  name: string;
  data: Pick<GripSurfaceData, 'shape' | 'direction' | 'center' | 'radius' | 'height' | 'size'>;
}

export interface GripDoc {
  holder: string;
  object: string;
  mainHand: HandSide;
  wrap: boolean;
  anchors: Record<Role, LocalXf | null>;
  surfaces: SurfaceDoc[];
  poses: Record<Role, PoseDoc>;
  clip: string | null;
  time: number;
}

/** What the playground gives the editor. */
export interface EditorHost {
  world: World;
  scene: Scene;
  sceneName: string;
  sceneText: string;
  three: THREE.Scene;
  camera: THREE.PerspectiveCamera;
  renderer: THREE.WebGLRenderer;
  gizmo: TransformControls;
  orbit: OrbitControls;
  nameOf: Map<Entity, string>;
  /** Entities the views draw (scene entities; the editor adds the surfaces it spawns). */
  drawn: Entity[];
  /** Steps the world once without the scene timeline, then refreshes the views and HUD. */
  step(): void;
  /** Refreshes the views and HUD (after a restore). */
  refresh(): void;
  setPaused(paused: boolean): void;
  paused(): boolean;
  /** Detaches the playground's own gizmo selection (targets, held objects). */
  deselect(): void;
  invalidate(): void;
}

/** A finger's shape in a pose (the thumb has opposition and gap instead: null). */
function shapeOf(def: GripPoseDef, f: FingerName, create = false): FingerShape | null {
  if (f === 'thumb') return null;
  if (create) def[f] ??= {};
  return def[f] ?? null;
}

// Grip poses and finger poses are looked up by one name, grip poses first: a captured pose
// gets its own name so that a per-joint pose registered earlier does not hide it.
const POSE_NAME: Record<Role, string> = { main: 'editor.main', support: 'editor.support' };
const poseName = (role: Role, p: PoseDoc): string => (p.kind === 'def' ? POSE_NAME[role] : `${POSE_NAME[role]}.captured`);
const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;
const round = (x: number, digits = 6): number => Number(x.toFixed(digits));

function el<T extends HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (!e) throw new Error(`the page has no #${id}`);
  return e as T;
}

function button(id: string, text: string, title: string, onClick: () => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.id = id;
  b.textContent = text;
  b.title = title;
  b.addEventListener('click', onClick);
  return b;
}

function numberInput(id: string, value: number, step: number, onChange: (v: number) => void): HTMLInputElement {
  const i = document.createElement('input');
  i.type = 'number';
  i.id = id;
  i.step = String(step);
  i.value = String(round(value, 3));
  i.addEventListener('change', () => {
    const v = Number(i.value);
    if (i.value.trim() !== '' && Number.isFinite(v)) onChange(v);
  });
  return i;
}

export class GripEditor {
  readonly world: World;
  private doc: GripDoc | null = null;
  private undoStack: string[] = [];
  private redoStack: string[] = [];
  private snapshot: WorldSnapshot | null = null;
  private wasPaused = false;
  private surfaceEntities = new Map<string, Entity>();
  /** The object's surfaces in the snapshot, by name. */
  private baseSurfaces = new Map<string, Entity>();
  private editRole: Role = 'main';
  private gizmoRole: Role | null = null;
  private gizmoFrame: THREE.Matrix4 | null = null;
  private readonly proxy = new THREE.Object3D();
  private readonly mirrorPlane: THREE.Mesh;
  /** Red lines from each palm that cannot reach to its anchor (the remaining distance). */
  private readonly gaps: THREE.LineSegments;
  readonly handles: FingerHandles;
  private playing = false;
  private lastPlay = 0;
  private readonly panel: HTMLElement;
  private clipHandles = new Map<string, number>();

  constructor(private readonly host: EditorHost) {
    this.world = host.world;
    this.panel = el('editor');
    this.panel.hidden = false;
    this.proxy.name = 'anchor-gizmo-proxy';
    host.three.add(this.proxy);
    this.mirrorPlane = new THREE.Mesh(
      new THREE.PlaneGeometry(0.6, 0.6),
      new THREE.MeshBasicMaterial({ color: 0xff80ab, transparent: true, opacity: 0.18, side: THREE.DoubleSide, depthWrite: false }),
    );
    this.mirrorPlane.add(new THREE.LineSegments(new THREE.EdgesGeometry(this.mirrorPlane.geometry), new THREE.LineBasicMaterial({ color: 0xff80ab })));
    this.mirrorPlane.name = 'mirror-plane';
    this.mirrorPlane.visible = false;
    this.mirrorPlane.matrixAutoUpdate = false;
    host.three.add(this.mirrorPlane);
    this.gaps = new THREE.LineSegments(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({ color: 0xff5252, depthTest: false, transparent: true }));
    this.gaps.name = 'reach-gaps';
    this.gaps.renderOrder = 15;
    this.gaps.frustumCulled = false;
    host.three.add(this.gaps);
    this.handles = new FingerHandles(host, {
      begin: () => this.pushUndo(),
      bend: (finger, joint, deg) => this.setBend(finger, joint, deg),
      current: (finger, joint) => this.bend(finger, joint),
    });
    this.buildPanel();
    this.wireGizmo();
    this.wireKeys();
  }

  // --- the document -----------------------------------------------------------

  private holderEntity(): Entity {
    return this.host.scene.entity(el<HTMLSelectElement>('ed-character').value);
  }

  private objectEntity(): Entity {
    return this.host.scene.entity(el<HTMLSelectElement>('ed-object').value);
  }

  get previewing(): boolean {
    return this.snapshot !== null;
  }

  /** The document as the world has it now (first preview, or after the pickers changed). */
  private docFromWorld(holder: Entity, object: Entity): GripDoc {
    const w = this.world;
    const name = (e: Entity): string => this.host.nameOf.get(e) ?? '';
    const profile = w.get(object, GripProfile);
    const xf = (e: Entity): LocalXf | null => {
      if (e === 0 || !w.alive(e)) return null;
      const t = w.get(e, Transform);
      return { position: [...t.position], rotation: [...t.rotation] };
    };
    const surfaces: SurfaceDoc[] = [];
    for (const e of this.host.drawn) {
      if (!w.alive(e) || !w.has(e, GripSurface) || w.get(e, Transform).parent !== object) continue;
      const t = w.get(e, Transform);
      const s = w.get(e, GripSurface);
      surfaces.push({ name: name(e), position: [...t.position], rotation: [...t.rotation], data: { shape: s.shape, direction: s.direction, center: [...s.center], radius: s.radius, height: s.height, size: [...s.size] } });
    }
    const pose = (n: string): PoseDoc => ({ kind: 'def', base: n, def: w.grip.poseByJoint(n) });
    return {
      holder: name(holder),
      object: name(object),
      mainHand: w.has(holder, GripHolder) ? w.get(holder, GripHolder).mainHand : profile.hand,
      wrap: profile.wrap,
      anchors: { main: xf(profile.mainAnchor), support: xf(profile.supportAnchor) },
      surfaces,
      poses: { main: pose(profile.mainPose || 'pistol'), support: pose(profile.supportPose || 'support') },
      clip: null,
      time: 0,
    };
  }

  /** Writes the document into the world and steps once. */
  private apply(): void {
    const d = this.doc;
    if (!d || !this.snapshot) return;
    const w = this.world;
    w.restore(this.snapshot);
    this.surfaceEntities = new Map(this.baseSurfaces);
    const holder = this.host.scene.entity(d.holder);
    const object = this.host.scene.entity(d.object);
    for (const role of ['main', 'support'] as const) {
      const p = d.poses[role];
      if (p.kind === 'def') w.grip.registerPose(poseName(role, p), p.def);
      else w.grip.registerFingerPose(poseName(role, p), p.pose);
    }
    const profile = w.get(object, GripProfile);
    for (const role of ['main', 'support'] as const) {
      const a = role === 'main' ? profile.mainAnchor : profile.supportAnchor;
      const x = d.anchors[role];
      if (x && a !== 0 && w.alive(a)) {
        w.update(a, Transform, (t) => {
          t.position = [...x.position];
          t.rotation = [...x.rotation];
        });
      }
    }
    w.update(object, GripProfile, (g) => {
      g.wrap = d.wrap;
      g.mainPose = poseName('main', d.poses.main);
      g.supportPose = poseName('support', d.poses.support);
    });
    // Surfaces: the object's own and the ones made here, by name.
    const wanted = new Set(d.surfaces.map((s) => s.name));
    for (const [n, e] of this.surfaceEntities) {
      if (!wanted.has(n) && w.alive(e)) w.despawn(e);
      if (!wanted.has(n)) this.surfaceEntities.delete(n);
    }
    for (const s of d.surfaces) {
      let e = this.surfaceEntities.get(s.name);
      if (e === undefined || !w.alive(e)) {
        e = w.spawn();
        w.insert(e, Transform, { parent: object, position: [...s.position], rotation: [...s.rotation] });
        w.insert(e, GripSurface, clone(s.data));
        this.surfaceEntities.set(s.name, e);
        if (!this.host.drawn.includes(e)) this.host.drawn.push(e);
        this.host.nameOf.set(e, s.name);
      } else {
        w.update(e, Transform, (t) => {
          t.position = [...s.position];
          t.rotation = [...s.rotation];
        });
        w.update(e, GripSurface, (g) => {
          Object.assign(g, clone(s.data));
        });
      }
    }
    const holderFields = { held: object, placement: 'Object' as const, blendSeconds: 0, mainHand: d.mainHand };
    if (w.has(holder, GripHolder)) w.update(holder, GripHolder, (h) => void Object.assign(h, holderFields));
    else w.insert(holder, GripHolder, holderFields);
    if (d.clip !== null) {
      const clip = this.clipHandles.get(d.clip);
      if (clip !== undefined) w.setAnimationPose(holder, w.anim.sampleClip(clip, d.time, { loop: true }));
    }
    this.host.step();
    this.refreshPanel();
  }

  private pushUndo(): void {
    if (!this.doc) return;
    this.undoStack.push(JSON.stringify(this.doc));
    if (this.undoStack.length > 200) this.undoStack.shift();
    this.redoStack = [];
    this.refreshButtons();
  }

  /** One undoable edit. */
  edit(change: (d: GripDoc) => void): void {
    if (!this.doc) return;
    this.pushUndo();
    change(this.doc);
    this.apply();
  }

  undo(): void {
    const prev = this.undoStack.pop();
    if (prev === undefined || !this.doc) return;
    this.redoStack.push(JSON.stringify(this.doc));
    this.doc = JSON.parse(prev) as GripDoc;
    this.apply();
  }

  redo(): void {
    const next = this.redoStack.pop();
    if (next === undefined || !this.doc) return;
    this.undoStack.push(JSON.stringify(this.doc));
    this.doc = JSON.parse(next) as GripDoc;
    this.apply();
  }

  /** The document (a copy). */
  document(): GripDoc | null {
    return this.doc ? clone(this.doc) : null;
  }

  // --- preview ----------------------------------------------------------------

  enterPreview(): void {
    if (this.previewing) return;
    const holder = this.holderEntity();
    const object = this.objectEntity();
    this.host.deselect();
    this.wasPaused = this.host.paused();
    this.host.setPaused(true);
    this.snapshot = this.world.snapshot();
    this.surfaceEntities.clear();
    const fresh = this.docFromWorld(holder, object);
    if (!this.doc || this.doc.holder !== fresh.holder || this.doc.object !== fresh.object) {
      this.doc = fresh;
      this.undoStack = [];
      this.redoStack = [];
    }
    for (const e of this.host.drawn) {
      const n = this.host.nameOf.get(e);
      if (n !== undefined && this.world.alive(e) && this.world.has(e, GripSurface) && this.world.get(e, Transform).parent === object) this.surfaceEntities.set(n, e);
    }
    this.baseSurfaces = new Map(this.surfaceEntities);
    this.loadClips(holder);
    el<HTMLInputElement>('ed-preview').checked = true;
    this.panel.classList.add('previewing');
    this.apply();
    this.selectAnchor(this.doc.anchors.main ? 'main' : null);
  }

  leavePreview(): void {
    if (!this.snapshot) return;
    this.selectAnchor(null);
    this.playing = false;
    this.world.restore(this.snapshot);
    this.snapshot = null;
    this.surfaceEntities.clear();
    el<HTMLInputElement>('ed-preview').checked = false;
    this.panel.classList.remove('previewing');
    this.mirrorPlane.visible = false;
    this.gaps.visible = false;
    this.handles.clear();
    this.host.setPaused(this.wasPaused);
    this.host.refresh();
    this.refreshPanel();
  }

  // --- anchors ----------------------------------------------------------------

  private anchorEntity(role: Role): Entity {
    if (!this.doc) return 0;
    const p = this.world.get(this.host.scene.entity(this.doc.object), GripProfile);
    return role === 'main' ? p.mainAnchor : p.supportAnchor;
  }

  selectAnchor(role: Role | null): void {
    this.gizmoRole = role;
    const a = role ? this.anchorEntity(role) : 0;
    if (role && a !== 0 && this.previewing) {
      this.host.deselect();
      this.placeProxy();
      this.host.gizmo.attach(this.proxy);
    } else {
      if (this.host.gizmo.object === this.proxy) this.host.gizmo.detach();
      this.gizmoRole = null;
    }
    for (const r of ['main', 'support'] as const) el(`ed-anchor-${r}`).classList.toggle('active', this.gizmoRole === r);
    this.host.invalidate();
  }

  setGizmoMode(mode: 'translate' | 'rotate'): void {
    this.host.gizmo.setMode(mode);
    el('ed-gizmo-translate').classList.toggle('active', mode === 'translate');
    el('ed-gizmo-rotate').classList.toggle('active', mode === 'rotate');
    this.host.invalidate();
  }

  /** Puts the gizmo's proxy on the selected anchor's world transform. */
  private placeProxy(): void {
    if (!this.gizmoRole) return;
    const a = this.anchorEntity(this.gizmoRole);
    if (a === 0) return;
    applyJointTransform(this.world.worldTransform(a), new THREE.Matrix4()).decompose(this.proxy.position, this.proxy.quaternion, this.proxy.scale);
    this.proxy.updateMatrixWorld(true);
  }

  private wireGizmo(): void {
    const g = this.host.gizmo;
    g.addEventListener('dragging-changed', (ev) => {
      if (g.object !== this.proxy || !this.gizmoRole) return;
      if (ev.value === true) {
        this.pushUndo();
        this.gizmoFrame = parentFrame(this.world, this.anchorEntity(this.gizmoRole));
      } else {
        this.gizmoFrame = null;
      }
    });
    g.addEventListener('objectChange', () => {
      if (g.object !== this.proxy || !this.gizmoRole || !this.gizmoFrame || !this.doc) return;
      const local = this.gizmoFrame.clone().invert().multiply(this.proxy.matrix.clone().compose(this.proxy.position, this.proxy.quaternion, new THREE.Vector3(1, 1, 1)));
      const p = new THREE.Vector3(), q = new THREE.Quaternion(), s = new THREE.Vector3();
      local.decompose(p, q, s);
      q.normalize();
      this.doc.anchors[this.gizmoRole] = { position: [p.x, p.y, p.z], rotation: [q.x, q.y, q.z, q.w] };
      this.apply();
    });
  }

  // --- fingers ----------------------------------------------------------------

  private editedSide(): HandSide {
    const main = this.doc?.mainHand ?? 'Right';
    return this.editRole === 'main' ? main : main === 'Right' ? 'Left' : 'Right';
  }

  /** Degrees of bend of a finger joint (0..2) in the edited hand's pose, or null (captured pose). */
  bend(finger: FingerName, joint: number): number | null {
    const p = this.doc?.poses[this.editRole];
    if (!p || p.kind !== 'def') return null;
    return shapeOf(p.def, finger)?.bend?.[joint] ?? null;
  }

  setBend(finger: FingerName, joint: number, deg: number): void {
    const p = this.doc?.poses[this.editRole];
    if (!p || p.kind !== 'def') return;
    const f = shapeOf(p.def, finger, true);
    if (!f) return;
    (f.bend ??= [0, 0, 0])[joint] = round(deg, 4);
    this.apply();
  }

  private setFan(finger: FingerName, deg: number): void {
    this.edit((d) => {
      const p = d.poses[this.editRole];
      const f = p.kind === 'def' ? shapeOf(p.def, finger, true) : null;
      if (f) f.fan = round(deg, 4);
    });
  }

  /** Turns the camera onto the edited hand's palm, 0.5 m away, keeping the viewing direction. */
  focusHand(): void {
    if (!this.doc || !this.previewing) return;
    const holder = this.holderEntity();
    const anchor = this.world.grip.anchor(holder, this.editRole);
    if (!anchor) return;
    const palm = new THREE.Vector3(...anchor.t);
    const { camera, orbit } = this.host;
    const dir = camera.position.clone().sub(orbit.target).normalize();
    orbit.target.copy(palm);
    camera.position.copy(palm).addScaledVector(dir, 0.5);
    camera.near = 0.01;
    camera.updateProjectionMatrix();
    orbit.update();
    camera.updateMatrixWorld();
    this.host.invalidate();
  }

  resetPose(): void {
    this.edit((d) => {
      const p = d.poses[this.editRole];
      const base = p.kind === 'def' ? p.base : this.editRole === 'main' ? 'pistol' : 'support';
      d.poses[this.editRole] = { kind: 'def', base, def: this.world.grip.poseByJoint(base) };
    });
  }

  startFrom(name: string): void {
    this.edit((d) => {
      d.poses[this.editRole] = { kind: 'def', base: name, def: this.world.grip.poseByJoint(name) };
    });
  }

  // --- surfaces ---------------------------------------------------------------

  /** A cylinder across the main palm, sized to the hand (index length). */
  newSurface(): void {
    if (!this.doc) return;
    const anchor = this.doc.anchors.main;
    if (!anchor) return;
    const side = this.doc.mainHand === 'Right' ? 'right' : 'left';
    const index = this.world.grip.status(this.holderEntity())[side].indexLength || 0.08;
    const radius = round(index * 0.22, 4);
    const q = new THREE.Quaternion(...anchor.rotation);
    // The palm frame: +Y out of the palm, +Z along the fingers. The bar lies across the palm
    // (the palm's X axis) on its inside, a little toward the fingers.
    const offset = new THREE.Vector3(0, radius + 0.01, index * 0.25).applyQuaternion(q);
    const p = new THREE.Vector3(...anchor.position).add(offset);
    let n = 1;
    while (this.doc.surfaces.some((s) => s.name === `surface${n}`)) n++;
    const name = `surface${n}`;
    this.edit((d) => {
      d.surfaces.push({
        name,
        position: [round(p.x), round(p.y), round(p.z)],
        rotation: [...anchor.rotation],
        data: { shape: 'Cylinder', direction: 'X', center: [0, 0, 0], radius, height: round(index * 1.3, 4), size: [0.05, 0.05, 0.05] },
      });
    });
  }

  // --- animation --------------------------------------------------------------

  private loadClips(holder: Entity): void {
    const sel = el<HTMLSelectElement>('ed-clip');
    sel.replaceChildren(new Option('(rest pose)', ''));
    this.clipHandles.clear();
    for (const c of this.world.anim.listClips(this.world.get(holder, Rig).asset)) {
      this.clipHandles.set(c.name, c.handle);
      sel.add(new Option(`${c.name} (${c.duration.toFixed(2)} s)`, c.name));
    }
    el('ed-anim').hidden = this.clipHandles.size === 0;
    el('ed-no-clips').hidden = this.clipHandles.size > 0;
  }

  private clipDuration(): number {
    const d = this.doc;
    if (!d || d.clip === null) return 0;
    const h = this.clipHandles.get(d.clip);
    return h === undefined ? 0 : this.world.anim.listClips().find((c) => c.handle === h)?.duration ?? 0;
  }

  /** Advances a playing clip (called every animation frame by the page). */
  tick(now: number): void {
    if (!this.playing || !this.doc || this.doc.clip === null) {
      this.lastPlay = now;
      return;
    }
    const dt = Math.min(Math.max(0, (now - this.lastPlay) / 1000), 0.25);
    this.lastPlay = now;
    const dur = this.clipDuration();
    if (dur <= 0 || dt === 0) return;
    this.doc.time = (this.doc.time + dt) % dur;
    this.apply();
  }

  // --- export / import --------------------------------------------------------

  /** The finger pose of the edited hand as world.grip.captureFingerPose JSON, taken without wrap (so
   * the game's wrap starts from the authored pose). From then on the hand holds that captured
   * pose, so the editor shows exactly what a game that registers the export will show
   * (one undo step: Ctrl+Z goes back to the per-joint pose). */
  exportPose(): FingerPose {
    if (!this.doc || !this.previewing) throw new Error('export needs the preview on');
    const wrap = this.doc.wrap;
    this.doc.wrap = false;
    this.apply();
    const side = this.editedSide();
    const st = this.world.grip.status(this.holderEntity())[side === 'Right' ? 'right' : 'left'];
    const pose = JSON.parse(JSON.stringify(this.world.grip.captureFingerPose(this.holderEntity(), st.hand ?? `${side}Hand`))) as FingerPose;
    this.doc.wrap = wrap;
    const d = this.doc;
    if (d.poses[this.editRole].kind === 'def') this.pushUndo();
    d.poses[this.editRole] = { kind: 'captured', name: `${d.object}.${this.editRole}`, pose };
    this.apply();
    return pose;
  }

  /** Pose names the exported fragment gives the object's profile. */
  private exportNames(): Record<Role, string> {
    const d = this.doc!;
    const name = (role: Role): string => {
      const p = d.poses[role];
      if (role === this.editRole) return `${d.object}.${role}`;
      return p.kind === 'def' ? p.base : p.name;
    };
    return { main: name('main'), support: name('support') };
  }

  /** GripProfile + anchors + surfaces as a scene fragment ({ entities: [...] }). */
  exportFragment(): { entities: { name: string; components: Record<string, unknown> }[] } {
    const d = this.doc;
    if (!d) throw new Error('nothing to export: enter preview first');
    const w = this.world;
    const object = this.host.scene.entity(d.object);
    const profile = w.get(object, GripProfile);
    const names = this.exportNames();
    const anchorName = (e: Entity): string => this.host.nameOf.get(e) ?? '';
    const entities: { name: string; components: Record<string, unknown> }[] = [
      {
        name: d.object,
        components: {
          GripProfile: {
            mainAnchor: anchorName(profile.mainAnchor),
            supportAnchor: anchorName(profile.supportAnchor),
            mainPose: names.main,
            supportPose: names.support,
            hand: profile.hand,
            mirror: profile.mirror,
            wrap: d.wrap,
          },
        },
      },
    ];
    for (const role of ['main', 'support'] as const) {
      const x = d.anchors[role];
      const a = role === 'main' ? profile.mainAnchor : profile.supportAnchor;
      if (x && a !== 0) entities.push({ name: anchorName(a), components: { Transform: { parent: d.object, position: x.position, rotation: x.rotation } } });
    }
    for (const s of d.surfaces) {
      entities.push({ name: s.name, components: { Transform: { parent: d.object, position: s.position, rotation: s.rotation }, GripSurface: clone(s.data) } });
    }
    return { entities };
  }

  /** Reads back an exported fragment and (optionally) a captured pose for the edited hand. */
  importAll(fragmentText: string, poseText: string): void {
    if (!this.doc) throw new Error('import needs the preview on');
    const frag = JSON.parse(fragmentText) as { entities?: { name?: string; components?: Record<string, Record<string, unknown>> }[] };
    if (!Array.isArray(frag.entities)) throw new Error('the fragment has no "entities" list');
    const pose = poseText.trim() ? (JSON.parse(poseText) as FingerPose) : null;
    const d = this.doc;
    const next = clone(d);
    const profile = frag.entities.find((e) => e.name === d.object)?.components?.GripProfile;
    const w = this.world;
    const p = w.get(this.host.scene.entity(d.object), GripProfile);
    const anchorNames: Record<Role, string> = { main: this.host.nameOf.get(p.mainAnchor) ?? '', support: this.host.nameOf.get(p.supportAnchor) ?? '' };
    if (profile) {
      if (typeof profile.wrap === 'boolean') next.wrap = profile.wrap;
      for (const role of ['main', 'support'] as const) {
        const n = profile[role === 'main' ? 'mainPose' : 'supportPose'];
        if (typeof n !== 'string' || n === '') continue;
        if (role === this.editRole && pose) next.poses[role] = { kind: 'captured', name: n, pose };
        else if ((BUILTIN_POSES as readonly string[]).includes(n)) next.poses[role] = { kind: 'def', base: n, def: w.grip.poseByJoint(n) };
      }
    } else if (pose) {
      next.poses[this.editRole] = { kind: 'captured', name: `${d.object}.${this.editRole}`, pose };
    }
    const surfaces: SurfaceDoc[] = [];
    let sawSurfaces = false;
    for (const ent of frag.entities) {
      const t = ent.components?.Transform as { position?: Vec3; rotation?: Quat } | undefined;
      const gs = ent.components?.GripSurface as Partial<SurfaceDoc['data']> | undefined;
      const x: LocalXf = { position: t?.position ?? [0, 0, 0], rotation: t?.rotation ?? [0, 0, 0, 1] };
      if (gs && ent.name) {
        sawSurfaces = true;
        const base: SurfaceDoc['data'] = { shape: 'Cylinder', direction: 'Y', center: [0, 0, 0], radius: 0.02, height: 0.1, size: [0.05, 0.05, 0.05] };
        surfaces.push({ name: ent.name, ...x, data: { ...base, ...gs } });
      } else if (t && ent.name === anchorNames.main) next.anchors.main = x;
      else if (t && ent.name === anchorNames.support) next.anchors.support = x;
    }
    if (sawSurfaces) next.surfaces = surfaces;
    this.pushUndo();
    this.doc = next;
    this.apply();
  }

  /** The scene file with the document written in. A scene cannot register poses, so the
   * profile keeps pose names every world knows (the named pose a hand started from, or the
   * scene's own); the description says which exported pose to register instead. */
  sceneWithDoc(): string {
    const doc = JSON.parse(this.host.sceneText) as { description?: string; entities?: { name?: string; components?: Record<string, Record<string, unknown>> }[] };
    const d = this.doc;
    if (!d) return JSON.stringify(doc, null, 2);
    const frag = this.exportFragment();
    const ents = (doc.entities ??= []);
    const object = d.object;
    // the object's surfaces are replaced by the document's
    for (let i = ents.length - 1; i >= 0; i--) {
      const c = ents[i].components;
      if (c?.GripSurface && (c.Transform as { parent?: unknown } | undefined)?.parent === object) ents.splice(i, 1);
    }
    for (const f of frag.entities) {
      const at = ents.find((e) => e.name === f.name);
      if (at) at.components = { ...(at.components ?? {}), ...(f.components as Record<string, Record<string, unknown>>) };
      else ents.push(f as { name: string; components: Record<string, Record<string, unknown>> });
    }
    const original = JSON.parse(this.host.sceneText) as typeof doc;
    const oldProfile = original.entities?.find((e) => e.name === object)?.components?.GripProfile ?? {};
    const profile = ents.find((e) => e.name === object)?.components?.GripProfile;
    const notes: string[] = [];
    if (profile) {
      for (const role of ['main', 'support'] as const) {
        const key = role === 'main' ? 'mainPose' : 'supportPose';
        const p = d.poses[role];
        const exported = profile[key];
        const known = p.kind === 'def' ? p.base : oldProfile[key];
        if (typeof known === 'string' && known !== '') profile[key] = known;
        else delete profile[key];
        if (exported !== profile[key]) notes.push(`register the exported ${role}-hand pose as '${String(exported)}' (world.grip.registerFingerPose) and set GripProfile.${key} to it`);
      }
    }
    if (notes.length > 0) doc.description = `${doc.description ?? ''} Grip editor: ${notes.join('; ')}.`.trim();
    const holder = ents.find((e) => e.name === d.holder);
    if (holder) {
      holder.components ??= {};
      holder.components.GripHolder = { ...(holder.components.GripHolder ?? {}), held: object, placement: 'Object', mainHand: d.mainHand };
    }
    return JSON.stringify(doc, null, 2);
  }

  saveScene(): void {
    const blob = new Blob([this.sceneWithDoc() + '\n'], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = this.host.sceneName.replace(/\.json$/, '') + '-edited.json';
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  // --- the panel --------------------------------------------------------------

  /** What a test reads: the edited hand's contacts and pose, the distances. */
  status(): { previewing: boolean; mainHand: HandSide | null; mainDistance: number; supportDistance: number; contacts: Record<Role, FingerName[]>; editRole: Role; canUndo: boolean; canRedo: boolean } {
    const d = this.doc;
    const out = { previewing: this.previewing, mainHand: d?.mainHand ?? null, mainDistance: NaN, supportDistance: NaN, contacts: { main: [] as FingerName[], support: [] as FingerName[] }, editRole: this.editRole, canUndo: this.undoStack.length > 0, canRedo: this.redoStack.length > 0 };
    if (!d || !this.previewing) return out;
    const holder = this.host.scene.entity(d.holder);
    const h = this.world.get(holder, GripHolder);
    out.mainDistance = h.mainDistance;
    out.supportDistance = h.supportDistance;
    const st = this.world.grip.status(holder);
    const main = d.mainHand === 'Right' ? st.right : st.left;
    const support = d.mainHand === 'Right' ? st.left : st.right;
    out.contacts = { main: main.contacts, support: support.contacts };
    return out;
  }

  /** World positions of the edited hand's finger joints (handles), by "finger:joint". */
  handlePositions(): Record<string, Vec3> {
    return this.handles.positions();
  }

  private buildPanel(): void {
    const w = this.world;
    const ents = [...this.host.scene.entities];
    const chars = el<HTMLSelectElement>('ed-character');
    for (const [n, e] of ents) if (w.has(e, Rig)) chars.add(new Option(n, n));
    const objs = el<HTMLSelectElement>('ed-object');
    for (const [n, e] of ents) if (w.has(e, GripProfile)) objs.add(new Option(n, n));
    const pickerChanged = (): void => {
      if (this.previewing) {
        this.leavePreview();
        this.enterPreview();
      }
    };
    chars.addEventListener('change', pickerChanged);
    objs.addEventListener('change', pickerChanged);
    el<HTMLInputElement>('ed-preview').addEventListener('change', (ev) => {
      if ((ev.target as HTMLInputElement).checked) this.enterPreview();
      else this.leavePreview();
    });
    el('ed-anchor-buttons').append(
      button('ed-anchor-main', 'main anchor', 'move/turn the main anchor with the gizmo', () => this.selectAnchor(this.gizmoRole === 'main' ? null : 'main')),
      button('ed-anchor-support', 'support anchor', 'move/turn the support anchor with the gizmo', () => this.selectAnchor(this.gizmoRole === 'support' ? null : 'support')),
      button('ed-gizmo-translate', 'move', 'gizmo: translate (W)', () => this.setGizmoMode('translate')),
      button('ed-gizmo-rotate', 'turn', 'gizmo: rotate (E)', () => this.setGizmoMode('rotate')),
    );
    el('ed-hand-buttons').append(
      button('ed-switch', 'switch main hand', 'mirror the grip onto the other hand through the object\'s mirror plane', () =>
        this.edit((d) => {
          d.mainHand = d.mainHand === 'Right' ? 'Left' : 'Right';
        }),
      ),
    );
    const role = el<HTMLSelectElement>('ed-role');
    role.addEventListener('change', () => {
      this.editRole = role.value === 'support' ? 'support' : 'main';
      this.refreshPanel();
    });
    const start = el<HTMLSelectElement>('ed-start');
    start.add(new Option('start from pose…', ''));
    const names = new Set<string>(BUILTIN_POSES);
    for (const [, e] of ents) {
      if (!w.has(e, GripProfile)) continue;
      const g = w.get(e, GripProfile);
      for (const n of [g.mainPose, g.supportPose]) if (n) names.add(n);
    }
    for (const p of names) start.add(new Option(p, p));
    start.addEventListener('change', () => {
      if (start.value) this.startFrom(start.value);
      start.value = '';
    });
    el('ed-undo-buttons').append(
      button('ed-undo', 'undo', 'Ctrl+Z', () => this.undo()),
      button('ed-redo', 'redo', 'Ctrl+Shift+Z', () => this.redo()),
      button('ed-reset', 'reset to pose', 'back to the named pose this hand started from', () => this.resetPose()),
      button('ed-focus-hand', 'focus hand', 'turn the camera onto the edited hand', () => this.focusHand()),
    );
    el<HTMLInputElement>('ed-wrap').addEventListener('change', (ev) => {
      const on = (ev.target as HTMLInputElement).checked;
      this.edit((d) => {
        d.wrap = on;
      });
    });
    el('ed-surface-buttons').append(button('ed-new-surface', 'new surface', 'a cylinder across the main palm, sized to the hand', () => this.newSurface()));
    const clip = el<HTMLSelectElement>('ed-clip');
    clip.addEventListener('change', () =>
      this.edit((d) => {
        d.clip = clip.value || null;
        d.time = 0;
      }),
    );
    const time = el<HTMLInputElement>('ed-time');
    time.addEventListener('pointerdown', () => this.pushUndo());
    time.addEventListener('input', () => {
      if (!this.doc) return;
      this.doc.time = Number(time.value) * this.clipDuration();
      this.apply();
    });
    el('ed-play').addEventListener('click', () => {
      this.playing = !this.playing;
      el('ed-play').textContent = this.playing ? 'stop' : 'play';
    });
    el('ed-io-buttons').append(
      button('ed-export', 'export', 'the edited hand as world.grip.captureFingerPose JSON; the profile, anchors and surfaces as a scene fragment', () => {
        el<HTMLTextAreaElement>('ed-pose-json').value = JSON.stringify(this.exportPose(), null, 1);
        el<HTMLTextAreaElement>('ed-fragment-json').value = JSON.stringify(this.exportFragment(), null, 1);
      }),
      button('ed-import', 'import', 'read the two boxes back', () => {
        const msg = el('ed-io-error');
        try {
          this.importAll(el<HTMLTextAreaElement>('ed-fragment-json').value, el<HTMLTextAreaElement>('ed-pose-json').value);
          msg.textContent = '';
        } catch (err) {
          msg.textContent = err instanceof Error ? err.message : String(err);
        }
      }),
      button('ed-save', 'save scene', 'download the whole scene with this grip', () => this.saveScene()),
    );
    this.refreshPanel();
  }

  private wireKeys(): void {
    window.addEventListener('keydown', (ev) => {
      const t = ev.target as HTMLElement | null;
      if (t && (t.tagName === 'TEXTAREA' || (t.tagName === 'INPUT' && (t as HTMLInputElement).type === 'text'))) return;
      if (!(ev.ctrlKey || ev.metaKey) || !this.previewing) {
        if (this.previewing && !ev.ctrlKey && !ev.metaKey && t?.tagName !== 'INPUT') {
          if (ev.key === 'w') this.setGizmoMode('translate');
          if (ev.key === 'e') this.setGizmoMode('rotate');
        }
        return;
      }
      const key = ev.key.toLowerCase();
      if (key === 'z' && !ev.shiftKey) {
        ev.preventDefault();
        this.undo();
      } else if ((key === 'z' && ev.shiftKey) || key === 'y') {
        ev.preventDefault();
        this.redo();
      }
    });
  }

  private refreshButtons(): void {
    el<HTMLButtonElement>('ed-undo').disabled = this.undoStack.length === 0 || !this.previewing;
    el<HTMLButtonElement>('ed-redo').disabled = this.redoStack.length === 0 || !this.previewing;
  }

  /** Everything the panel shows, from the document and the last step. */
  refreshPanel(): void {
    this.refreshButtons();
    const d = this.doc;
    const on = this.previewing && d !== null;
    el('ed-body').hidden = !on;
    if (!on || !d) return;
    this.refreshReach(d);
    this.refreshMirror(d);
    if (!this.host.gizmo.dragging) this.placeProxy();
    const p = d.poses[this.editRole];
    this.refreshFingers(p);
    this.refreshSurfaces(d);
    // animation
    el<HTMLSelectElement>('ed-clip').value = d.clip ?? '';
    const dur = this.clipDuration();
    el<HTMLInputElement>('ed-time').value = String(dur > 0 ? d.time / dur : 0);
    el('ed-time-value').textContent = `${d.time.toFixed(2)} s`;
    this.handles.show(this.holderEntity(), this.editedSide(), p.kind === 'def');
  }

  /** The palms' distances to their anchors, the gaps drawn, the main hand, wrap and contacts. */
  private refreshReach(d: GripDoc): void {
    const st = this.status();
    const mm = (m: number): string => `${(m * 1000).toFixed(2)} mm`;
    el('ed-main-distance').textContent = mm(st.mainDistance);
    el('ed-support-distance').textContent = mm(st.supportDistance);
    const short = Math.max(st.mainDistance, st.supportDistance);
    el('ed-reach').textContent = short > 5e-4 ? `cannot reach: ${mm(short)} short` : 'both palms on their anchors';
    el('ed-reach').className = short > 5e-4 ? 'no' : 'yes';
    this.drawGaps();
    el('ed-main-hand').textContent = d.mainHand;
    el<HTMLInputElement>('ed-wrap').checked = d.wrap;
    el('ed-contacts').textContent = `main: ${st.contacts.main.join(', ') || '—'} · support: ${st.contacts.support.join(', ') || '—'}`;
  }

  /** The mirror plane: the object's mirror axis is its normal. */
  private refreshMirror(d: GripDoc): void {
    const object = this.host.scene.entity(d.object);
    const mirror = this.world.get(object, GripProfile).mirror;
    const m = applyJointTransform({ ...this.world.worldTransform(object), s: [1, 1, 1] }, new THREE.Matrix4());
    const turn = new THREE.Matrix4();
    if (mirror === 'X') turn.makeRotationY(Math.PI / 2);
    else if (mirror === 'Y') turn.makeRotationX(Math.PI / 2);
    this.mirrorPlane.matrix.copy(m.multiply(turn));
    this.mirrorPlane.matrixWorldNeedsUpdate = true;
    this.mirrorPlane.visible = true;
    el('ed-mirror').textContent = `mirror plane: the object's ${mirror} axis is its normal`;
  }

  /** The edited hand's finger table: bends and fan per finger, the thumb's opposition and gap;
   * the input being typed in is kept (moved into the new table), not rebuilt. */
  private refreshFingers(p: PoseDoc): void {
    el('ed-pose-kind').textContent = p.kind === 'def' ? `from '${p.base}', edited per joint` : `captured pose '${p.name}' (joint rotations; "start from pose" to edit)`;
    const table = el<HTMLTableElement>('ed-fingers');
    const focused = document.activeElement;
    const keep = (c: HTMLTableCellElement, id: string): boolean => {
      if (!(focused instanceof HTMLInputElement && focused.id === id)) return false;
      c.append(focused);
      return true;
    };
    const rows: HTMLTableRowElement[] = [];
    for (const f of FINGER_NAMES) {
      const row = document.createElement('tr');
      row.insertCell().textContent = f;
      rows.push(row);
      if (f === 'thumb' && p.kind === 'def') {
        // the thumb: opposition (0..1) and gap (0..1) instead of bends
        const t = p.def.thumb ?? {};
        for (const key of ['opposition', 'gap'] as const) {
          const c = row.insertCell();
          const id = `ed-thumb-${key}`;
          c.title = `thumb ${key} (0..1)`;
          if (!keep(c, id)) c.append(numberInput(id, t[key] ?? 0, 0.05, (x) => this.edit((dd) => {
            const q = dd.poses[this.editRole];
            if (q.kind === 'def') (q.def.thumb ??= {})[key] = Math.min(1, Math.max(0, x));
          })));
        }
        continue;
      }
      const shape = p.kind === 'def' ? shapeOf(p.def, f) : null;
      for (let k = 0; k < 3; k++) {
        const c = row.insertCell();
        const v = shape?.bend?.[k];
        if (v === undefined) continue;
        const id = `ed-bend-${f}-${k}`;
        if (!keep(c, id)) c.append(numberInput(id, v, 1, (x) => this.edit(() => this.setBendQuiet(f, k, x))));
      }
      const c = row.insertCell();
      const fan = shape?.fan;
      if (fan !== undefined) {
        const id = `ed-fan-${f}`;
        if (!keep(c, id)) c.append(numberInput(id, fan, 1, (x) => this.setFan(f, x)));
      }
    }
    table.tBodies[0].replaceChildren(...rows);
  }

  /** One box per GripSurface: name and remove button, shape and direction, radius, height,
   * box size and position (metres, the position in the object's frame). */
  private refreshSurfaces(d: GripDoc): void {
    const items = d.surfaces.map((s, i) => {
      const box = document.createElement('div');
      box.className = 'surface';
      box.id = `ed-surface-${s.name}`;
      const title = document.createElement('div');
      title.className = 'mono';
      title.textContent = s.name;
      title.append(button(`ed-surface-del-${s.name}`, '×', `remove ${s.name}`, () => this.edit((dd) => void dd.surfaces.splice(i, 1))));
      box.append(title);
      const sel = (field: 'shape' | 'direction', opts: string[]): HTMLSelectElement => {
        const x = document.createElement('select');
        x.id = `ed-surface-${s.name}-${field}`;
        for (const o of opts) x.add(new Option(o, o, false, s.data[field] === o));
        x.addEventListener('change', () => this.edit((dd) => void ((dd.surfaces[i].data as Record<string, unknown>)[field] = x.value)));
        return x;
      };
      box.append(sel('shape', ['Cylinder', 'Capsule', 'Sphere', 'Box']), sel('direction', ['X', 'Y', 'Z']));
      // one row per quantity, metres (position: in the object's frame)
      let row = box;
      const line = (label: string): void => {
        row = document.createElement('div');
        const l = document.createElement('span');
        l.className = 'field';
        l.textContent = label;
        row.append(l);
        box.append(row);
      };
      const num = (id: string, get: (x: SurfaceDoc) => number, set: (x: SurfaceDoc, v: number) => void): void => {
        const input = numberInput(`ed-surface-${s.name}-${id}`, get(s), 0.001, (v) => this.edit((dd) => set(dd.surfaces[i], v)));
        input.title = `${s.name} ${id} (m)`;
        row.append(input);
      };
      line('radius, height');
      num('radius', (x) => x.data.radius, (x, v) => void (x.data.radius = v));
      num('height', (x) => x.data.height, (x, v) => void (x.data.height = v));
      line('box size');
      for (const [k, axis] of ['x', 'y', 'z'].entries()) num(`size.${axis}`, (x) => x.data.size[k], (x, v) => void (x.data.size[k] = v));
      line('position');
      for (const [k, axis] of ['x', 'y', 'z'].entries()) num(`pos.${axis}`, (x) => x.position[k], (x, v) => void (x.position[k] = v));
      return box;
    });
    el('ed-surfaces').replaceChildren(...items);
  }


  /** The palm centre (midpoint of the hand joint and the middle finger's root, as the core
   * defines it) of each hand that is more than 0.5 mm from its anchor, joined to the anchor. */
  private drawGaps(): void {
    const d = this.doc;
    const pts: number[] = [];
    if (d) {
      const holder = this.host.scene.entity(d.holder);
      const h = this.world.get(holder, GripHolder);
      const st = this.world.grip.status(holder);
      for (const role of ['main', 'support'] as const) {
        const gap = role === 'main' ? h.mainDistance : h.supportDistance;
        const anchor = this.world.grip.anchor(holder, role);
        const right = (role === 'main') === (d.mainHand === 'Right');
        const hand = right ? st.right : st.left;
        const root = hand.fingers.middle?.[0];
        if (gap <= 5e-4 || !anchor || !hand.hand || !root) continue;
        const palm = jointWorldPosition(this.world, holder, hand.hand).add(jointWorldPosition(this.world, holder, root)).multiplyScalar(0.5);
        pts.push(palm.x, palm.y, palm.z, ...anchor.t);
      }
    }
    this.gaps.geometry.setAttribute('position', new THREE.Float32BufferAttribute(pts, 3));
    this.gaps.visible = pts.length > 0;
  }

  /** Segments drawn from palms that cannot reach to their anchors, as [from, to] pairs. */
  gapLines(): [Vec3, Vec3][] {
    if (!this.gaps.visible) return [];
    const a = this.gaps.geometry.getAttribute('position');
    const out: [Vec3, Vec3][] = [];
    for (let i = 0; i + 1 < a.count; i += 2) out.push([[a.getX(i), a.getY(i), a.getZ(i)], [a.getX(i + 1), a.getY(i + 1), a.getZ(i + 1)]]);
    return out;
  }

  private setBendQuiet(finger: FingerName, joint: number, deg: number): void {
    const p = this.doc?.poses[this.editRole];
    if (!p || p.kind !== 'def') return;
    const f = shapeOf(p.def, finger, true);
    if (f) (f.bend ??= [0, 0, 0])[joint] = round(deg, 4);
  }
}

/** World position of a joint of the holder (for handles). */
export function jointPosition(world: World, holder: Entity, joint: string): Vec3 {
  return jointWorldPosition(world, holder, joint).toArray() as Vec3;
}
