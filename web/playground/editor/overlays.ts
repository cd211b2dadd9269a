/** What the grip editor draws over the scene besides the finger handles: the object's mirror
 * plane (where "switch main hand" mirrors the grip through) and a red line from each palm
 * that cannot reach its anchor to that anchor (the remaining distance). */
import * as THREE from 'three';
import { GripHolder, GripProfile, type Entity, type HandSide, type Vec3, type World } from '../../bridge/browser.js';
import { applyJointTransform, jointWorldPosition } from '../../three/index.js';
import { ROLES } from './grip-doc.js';

/** Farther than this (metres) from its anchor, a palm is drawn as not reaching it. */
export const REACH_TOLERANCE = 5e-4;

export class EditorOverlays {
  private readonly mirrorPlane: THREE.Mesh;
  /** Red lines from each palm that cannot reach to its anchor (the remaining distance). */
  private readonly gaps: THREE.LineSegments;

  constructor(three: THREE.Scene) {
    this.mirrorPlane = new THREE.Mesh(
      new THREE.PlaneGeometry(0.6, 0.6),
      new THREE.MeshBasicMaterial({ color: 0xff80ab, transparent: true, opacity: 0.18, side: THREE.DoubleSide, depthWrite: false }),
    );
    this.mirrorPlane.add(new THREE.LineSegments(new THREE.EdgesGeometry(this.mirrorPlane.geometry), new THREE.LineBasicMaterial({ color: 0xff80ab })));
    this.mirrorPlane.name = 'mirror-plane';
    this.mirrorPlane.visible = false;
    this.mirrorPlane.matrixAutoUpdate = false;
    three.add(this.mirrorPlane);
    this.gaps = new THREE.LineSegments(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({ color: 0xff5252, depthTest: false, transparent: true }));
    this.gaps.name = 'reach-gaps';
    this.gaps.renderOrder = 15;
    this.gaps.frustumCulled = false;
    three.add(this.gaps);
  }

  /** The mirror plane on the object: its normal is the object's mirror axis (returned). */
  showMirror(world: World, object: Entity): string {
    const mirror = world.get(object, GripProfile).mirror;
    const m = applyJointTransform({ ...world.worldTransform(object), s: [1, 1, 1] }, new THREE.Matrix4());
    const turn = new THREE.Matrix4();
    if (mirror === 'X') turn.makeRotationY(Math.PI / 2);
    else if (mirror === 'Y') turn.makeRotationX(Math.PI / 2);
    this.mirrorPlane.matrix.copy(m.multiply(turn));
    this.mirrorPlane.matrixWorldNeedsUpdate = true;
    this.mirrorPlane.visible = true;
    return mirror;
  }

  /** The palm centre (midpoint of the hand joint and the middle finger's root, as the core
   * defines it) of each hand that is more than 0.5 mm from its anchor, joined to the anchor. */
  drawGaps(world: World, holder: Entity | null, mainHand: HandSide): void {
    const pts: number[] = [];
    if (holder !== null) {
      const h = world.get(holder, GripHolder);
      const st = world.grip.status(holder);
      for (const role of ROLES) {
        const gap = role === 'main' ? h.mainDistance : h.supportDistance;
        const anchor = world.grip.anchor(holder, role);
        const right = (role === 'main') === (mainHand === 'Right');
        const hand = right ? st.right : st.left;
        const root = hand.fingers.middle?.[0];
        if (gap <= REACH_TOLERANCE || !anchor || !hand.hand || !root) continue;
        const palm = jointWorldPosition(world, holder, hand.hand).add(jointWorldPosition(world, holder, root)).multiplyScalar(0.5);
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

  hide(): void {
    this.mirrorPlane.visible = false;
    this.gaps.visible = false;
  }
}
