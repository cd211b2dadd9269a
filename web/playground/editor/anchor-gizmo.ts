/** The grip editor's anchors on the page's TransformControls: the gizmo moves and turns a
 * proxy placed on the selected anchor's world transform; a drag is one undo step (`begin`
 * when it starts) and every move gives the anchor's new local transform (in its parent's
 * frame as the drag began) to `moved`. The #ed-anchor-* and #ed-gizmo-* buttons show which
 * anchor and mode are on. */
import * as THREE from 'three';
import type { Entity } from '../../bridge/browser.js';
import { applyJointTransform, parentFrame } from '../../three/index.js';
import { el } from '../page.js';
import { ROLES, type LocalXf, type Role } from './grip-doc.js';
import type { EditorHost } from './editor-host.js';

export interface AnchorCallbacks {
  /** The anchor entity of a role (0: none). */
  anchor(role: Role): Entity;
  previewing(): boolean;
  begin(): void;
  moved(role: Role, xf: LocalXf): void;
}

export class AnchorGizmo {
  private selected: Role | null = null;
  /** The anchor's parent frame while a drag lasts. */
  private frame: THREE.Matrix4 | null = null;
  private readonly proxy = new THREE.Object3D();

  constructor(
    private readonly host: EditorHost,
    private readonly cb: AnchorCallbacks,
  ) {
    this.proxy.name = 'anchor-gizmo-proxy';
    host.three.add(this.proxy);
    this.wire();
  }

  /** The anchor the gizmo moves, or null. */
  get role(): Role | null {
    return this.selected;
  }

  select(role: Role | null): void {
    this.selected = role;
    const a = role ? this.cb.anchor(role) : 0;
    const gizmo = this.host.gizmo;
    if (role && a !== 0 && this.cb.previewing()) {
      this.host.deselect();
      this.place();
      gizmo.attach(this.proxy);
    } else {
      if (gizmo.object === this.proxy) gizmo.detach();
      this.selected = null;
    }
    for (const r of ROLES) el(`ed-anchor-${r}`).classList.toggle('active', this.selected === r);
    this.host.invalidate();
  }

  setMode(mode: 'translate' | 'rotate'): void {
    this.host.gizmo.setMode(mode);
    el('ed-gizmo-translate').classList.toggle('active', mode === 'translate');
    el('ed-gizmo-rotate').classList.toggle('active', mode === 'rotate');
    this.host.invalidate();
  }

  /** Puts the gizmo's proxy on the selected anchor's world transform. */
  place(): void {
    if (!this.selected) return;
    const a = this.cb.anchor(this.selected);
    if (a === 0) return;
    applyJointTransform(this.host.world.worldTransform(a), new THREE.Matrix4()).decompose(this.proxy.position, this.proxy.quaternion, this.proxy.scale);
    this.proxy.updateMatrixWorld(true);
  }

  private wire(): void {
    const g = this.host.gizmo;
    g.addEventListener('dragging-changed', (ev) => {
      if (g.object !== this.proxy || !this.selected) return;
      if (ev.value === true) {
        this.cb.begin();
        this.frame = parentFrame(this.host.world, this.cb.anchor(this.selected));
      } else {
        this.frame = null;
      }
    });
    g.addEventListener('objectChange', () => {
      if (g.object !== this.proxy || !this.selected || !this.frame) return;
      const local = this.frame.clone().invert().multiply(this.proxy.matrix.clone().compose(this.proxy.position, this.proxy.quaternion, new THREE.Vector3(1, 1, 1)));
      const p = new THREE.Vector3(), q = new THREE.Quaternion(), s = new THREE.Vector3();
      local.decompose(p, q, s);
      q.normalize();
      this.cb.moved(this.selected, { position: [p.x, p.y, p.z], rotation: [q.x, q.y, q.z, q.w] });
    });
  }
}
