/** Finger handles: a small sphere on each bending joint of the edited hand. Dragging one up
 * bends that joint more, down less (0.5° per pixel); the drag is one undo step (`begin` is
 * called once when it starts). The handles take the pointer before the gizmo's empty space
 * and the orbit controls, but not when the pointer is on a gizmo axis. */
import * as THREE from 'three';
import { FINGER_NAMES, type Entity, type FingerName, type HandSide, type Vec3 } from '../../bridge/browser.js';
import { jointWorldPosition } from '../../three/index.js';
import type { EditorHost } from './editor-host.js';

const COLORS: Record<FingerName, number> = { thumb: 0xff7043, index: 0xffd54f, middle: 0x7bd88f, ring: 0x4fc3f7, pinky: 0xb388ff };
export const DEGREES_PER_PIXEL = 0.5;

export interface HandleCallbacks {
  begin(): void;
  bend(finger: FingerName, joint: number, degrees: number): void;
  current(finger: FingerName, joint: number): number | null;
}

export class FingerHandles {
  readonly object = new THREE.Group();
  private readonly meshes = new Map<string, THREE.Mesh>();
  private readonly geometry = new THREE.SphereGeometry(0.0065, 12, 8);
  private readonly materials = new Map<FingerName, THREE.MeshBasicMaterial>();
  private readonly raycaster = new THREE.Raycaster();
  private drag: { key: string; finger: FingerName; joint: number; y: number; start: number } | null = null;
  private hovered: string | null = null;

  constructor(
    private readonly host: EditorHost,
    private readonly cb: HandleCallbacks,
  ) {
    this.object.name = 'finger-handles';
    this.object.renderOrder = 20;
    host.three.add(this.object);
    for (const f of FINGER_NAMES) this.materials.set(f, new THREE.MeshBasicMaterial({ color: COLORS[f], depthTest: false, transparent: true }));
    // Capture phase on the canvas's parent: runs before TransformControls and OrbitControls.
    const target = host.renderer.domElement.parentElement ?? host.renderer.domElement;
    target.addEventListener('pointerdown', (ev) => this.down(ev), { capture: true });
    target.addEventListener('pointermove', (ev) => this.hover(ev), { capture: true });
    window.addEventListener('pointermove', (ev) => this.move(ev));
    window.addEventListener('pointerup', () => this.up());
  }

  /** Shows handles on `side`'s finger joints of `holder` (editable: drags allowed). */
  show(holder: Entity, side: HandSide, editable: boolean): void {
    const w = this.host.world;
    const st = w.grip.status(holder)[side === 'Right' ? 'right' : 'left'];
    const seen = new Set<string>();
    for (const f of FINGER_NAMES) {
      const joints = st.fingers[f];
      if (!joints) continue;
      const n = Math.min(3, joints.length - 1);
      for (let k = 0; k < n; k++) {
        const key = `${f}:${k}`;
        let m = this.meshes.get(key);
        if (!m) {
          m = new THREE.Mesh(this.geometry, this.materials.get(f));
          m.name = `handle:${key}`;
          m.renderOrder = 20;
          m.userData = { finger: f, joint: k };
          this.meshes.set(key, m);
          this.object.add(m);
        }
        jointWorldPosition(w, holder, joints[k], m.position);
        m.scale.setScalar(this.hovered === key || this.drag?.key === key ? 1.6 : 1);
        m.visible = editable && this.cb.current(f, k) !== null; // the thumb has no bends to drag
        seen.add(key);
      }
    }
    for (const [key, m] of this.meshes) if (!seen.has(key)) m.visible = false;
    this.object.visible = true;
  }

  clear(): void {
    this.object.visible = false;
    this.drag = null;
  }

  /** World positions of the visible handles by "finger:joint". */
  positions(): Record<string, Vec3> {
    const out: Record<string, Vec3> = {};
    if (!this.object.visible) return out;
    for (const [key, m] of this.meshes) if (m.visible) out[key] = m.position.toArray() as Vec3;
    return out;
  }

  private pick(ev: PointerEvent): THREE.Mesh | null {
    if (!this.object.visible) return null;
    const rect = this.host.renderer.domElement.getBoundingClientRect();
    const ndc = new THREE.Vector2(((ev.clientX - rect.left) / rect.width) * 2 - 1, -((ev.clientY - rect.top) / rect.height) * 2 + 1);
    this.host.camera.updateMatrixWorld();
    this.raycaster.setFromCamera(ndc, this.host.camera);
    this.object.updateMatrixWorld(true);
    // Handles are tiny: pick the nearest within a few pixels of the pointer, in screen space.
    let best: THREE.Mesh | null = null;
    let bestPx = 9;
    const v = new THREE.Vector3();
    for (const m of this.meshes.values()) {
      if (!m.visible) continue;
      v.copy(m.position).project(this.host.camera);
      const px = Math.hypot(((v.x + 1) / 2) * rect.width + rect.left - ev.clientX, ((1 - v.y) / 2) * rect.height + rect.top - ev.clientY);
      if (px < bestPx) {
        bestPx = px;
        best = m;
      }
    }
    return best;
  }

  private hover(ev: PointerEvent): void {
    if (this.drag) return;
    const m = this.pick(ev);
    const key = m ? `${(m.userData as { finger: string }).finger}:${(m.userData as { joint: number }).joint}` : null;
    if (key !== this.hovered) {
      this.hovered = key;
      for (const [k, mesh] of this.meshes) mesh.scale.setScalar(k === key ? 1.6 : 1);
      this.host.invalidate();
    }
  }

  private down(ev: PointerEvent): void {
    if (ev.button !== 0 || this.host.gizmo.axis !== null) return;
    const m = this.pick(ev);
    if (!m) return;
    const { finger, joint } = m.userData as { finger: FingerName; joint: number };
    const start = this.cb.current(finger, joint);
    if (start === null) return;
    ev.stopPropagation();
    ev.preventDefault();
    this.cb.begin();
    this.drag = { key: `${finger}:${joint}`, finger, joint, y: ev.clientY, start };
  }

  private move(ev: PointerEvent): void {
    const d = this.drag;
    if (!d) return;
    const deg = d.start + (d.y - ev.clientY) * DEGREES_PER_PIXEL;
    this.cb.bend(d.finger, d.joint, deg);
  }

  private up(): void {
    this.drag = null;
  }
}
