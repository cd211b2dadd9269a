/** The finger contacts debug layer: a green dot on the tip of every finger that touched a
 * GripSurface in the last step (world.grip.status(...).contacts), for each holder's hands. */
import * as THREE from 'three';
import { type Entity, type World } from '../../bridge/browser.js';
import { jointWorldPosition, type WorldView } from '../../three/index.js';

export class ContactsView implements WorldView {
  readonly object = new THREE.Group();
  private readonly geometry = new THREE.SphereGeometry(0.007, 12, 8);
  private readonly material = new THREE.MeshBasicMaterial({ color: 0x5cff7a, depthTest: false, transparent: true });
  private readonly dots: THREE.Mesh[] = [];

  constructor(
    readonly world: World,
    readonly holders: readonly Entity[],
  ) {
    this.object.name = 'contacts';
    this.object.renderOrder = 12;
  }

  /** Fingertips drawn, as "holder:side:finger" (for tests). */
  readonly shown: string[] = [];

  update(): void {
    const w = this.world;
    this.shown.length = 0;
    let n = 0;
    for (const e of this.holders) {
      if (!w.alive(e)) continue;
      const st = w.grip.status(e);
      for (const hand of [st.right, st.left]) {
        for (const f of hand.contacts) {
          const joints = hand.fingers[f];
          if (!joints || joints.length === 0) continue;
          let dot = this.dots[n];
          if (!dot) {
            dot = new THREE.Mesh(this.geometry, this.material);
            dot.renderOrder = 12;
            this.dots.push(dot);
            this.object.add(dot);
          }
          jointWorldPosition(w, e, joints[joints.length - 1], dot.position);
          dot.visible = true;
          this.shown.push(`${e}:${hand.side}:${f}`);
          n++;
        }
      }
    }
    for (let i = n; i < this.dots.length; i++) this.dots[i].visible = false;
  }

  dispose(): void {
    this.object.removeFromParent();
    this.geometry.dispose();
    this.material.dispose();
  }
}
