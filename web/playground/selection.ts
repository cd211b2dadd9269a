/** The gizmo's selection: which marker (IK target, hint, held object) it is on, dragging it
 * (the entity is held while dragged and follows the world again after the next step), and
 * clicks on the canvas that select a marker or send a nav agent. */
import * as THREE from 'three';
import type { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { TransformControls } from 'three/examples/jsm/controls/TransformControls.js';
import type { Entity, World } from '../bridge/browser.js';
import { parentFrame, setWorldPosition, type EntityMarker } from '../three/index.js';
import type { NavControl } from './nav-control.js';

export class Selection {
  selected: EntityMarker | null = null;
  private dragFrame: THREE.Matrix4 | null = null;
  /** A dropped marker follows the world again after this step. */
  private releaseAfterStep = -1;

  /** `moved` runs after the gizmo moved the selected entity. */
  constructor(
    private readonly world: World,
    private readonly gizmo: TransformControls,
    orbit: OrbitControls,
    private readonly invalidate: () => void,
    moved: () => void,
  ) {
    gizmo.addEventListener('dragging-changed', (ev) => {
      const dragging = ev.value === true;
      orbit.enabled = !dragging;
      if (!this.selected) return;
      if (dragging) {
        this.selected.hold = true;
        this.dragFrame = parentFrame(world, this.selected.entity);
      } else {
        this.dragFrame = null;
        this.releaseAfterStep = world.stepCount;
      }
    });
    gizmo.addEventListener('objectChange', () => {
      if (!this.selected || !this.dragFrame) return;
      this.moveEntity(this.selected, this.selected.object.position.clone(), this.dragFrame);
      moved();
    });
  }

  select(marker: EntityMarker | null): void {
    if (this.selected && this.selected !== marker) this.selected.hold = false;
    this.selected = marker;
    if (marker) this.gizmo.attach(marker.object);
    else this.gizmo.detach();
    this.invalidate();
  }

  /** The one code path for moving an entity from the page (gizmo or test API). */
  moveEntity(marker: EntityMarker, position: THREE.Vector3, frame: THREE.Matrix4): void {
    marker.object.position.copy(position);
    setWorldPosition(this.world, marker.entity, position, frame);
  }

  /** After the world stepped: a marker dropped before this step follows the world again. */
  releaseDropped(): void {
    const s = this.selected;
    if (s && !this.gizmo.dragging && s.hold && this.world.stepCount > this.releaseAfterStep) s.hold = false;
  }
}

export interface ClickTargets {
  renderer: THREE.WebGLRenderer;
  camera: THREE.Camera;
  gizmo: TransformControls;
  markers: ReadonlyMap<Entity, EntityMarker>;
  selection: Selection;
  nav: NavControl | null;
  /** The grip editor owns the gizmo while it previews. */
  previewing(): boolean;
}

/** A click (no drag) on a target or hint selects it; elsewhere it may send the nav agent. */
export function listenClicks({ renderer, camera, gizmo, markers, selection, nav, previewing }: ClickTargets): void {
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
    if (previewing()) return;
    const rect = renderer.domElement.getBoundingClientRect();
    ndc.set(((ev.clientX - rect.left) / rect.width) * 2 - 1, -((ev.clientY - rect.top) / rect.height) * 2 + 1);
    raycaster.setFromCamera(ndc, camera);
    const hit = raycaster.intersectObjects([...markers.values()].map((m) => m.object), false)[0];
    if (hit) {
      selection.select(markers.get(hit.object.userData.entity as Entity) ?? null);
      return;
    }
    nav?.click(raycaster);
  });
}
