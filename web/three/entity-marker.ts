/** A Transform entity (IK target, hint, later anchors and surfaces) drawn as a
 * small sphere that follows the entity's world transform. */
import * as THREE from 'three';
import type { Entity, World } from '../bridge/api.js';
import { applyJointTransform, type WorldView } from './pose.js';

export interface EntityMarkerOptions {
  /** default 0xff7043 */
  color?: THREE.ColorRepresentation;
  /** metres; default 0.03 */
  radius?: number;
  /** shown as the object's name; default `entity:<handle>` */
  label?: string;
}

export class EntityMarker implements WorldView {
  /** Add this to the scene. Position, rotation and scale follow the entity. */
  readonly object: THREE.Mesh<THREE.SphereGeometry, THREE.MeshStandardMaterial>;
  /** While true (e.g. during a gizmo drag) update() leaves the object alone. */
  hold = false;
  private readonly m = new THREE.Matrix4();

  constructor(
    readonly world: World,
    readonly entity: Entity,
    options: EntityMarkerOptions = {},
  ) {
    this.object = new THREE.Mesh(
      new THREE.SphereGeometry(options.radius ?? 0.03, 20, 14),
      new THREE.MeshStandardMaterial({ color: options.color ?? 0xff7043, roughness: 0.4 }),
    );
    this.object.name = options.label ?? `entity:${entity}`;
    this.object.userData.entity = entity;
    this.update();
  }

  update(): void {
    if (this.hold) return;
    applyJointTransform(this.world.worldTransform(this.entity), this.m).decompose(
      this.object.position,
      this.object.quaternion,
      this.object.scale,
    );
  }

  dispose(): void {
    this.object.removeFromParent();
    this.object.geometry.dispose();
    this.object.material.dispose();
  }
}
