/** A rig entity drawn as bones (line segments) and joints (instanced spheres).
 * The group carries the rig root's world transform; joint positions are the
 * core's model-space pose, so one matrix places the whole skeleton. */
import * as THREE from 'three';
import type { Entity, World } from '../bridge/api.js';
import { Rig } from '../bridge/api.js';
import { applyJointTransform, type WorldView } from './pose.js';

export interface SkeletonViewOptions {
  /** bone line colour; default 0xe8e8e8 */
  boneColor?: THREE.ColorRepresentation;
  /** joint sphere colour; default 0x4fa3ff */
  jointColor?: THREE.ColorRepresentation;
  /** joint sphere radius in metres; default 0.012 */
  jointRadius?: number;
  /** joints whose name matches are drawn larger; default /Hand$|Foot$|Head$/ */
  majorJoints?: RegExp;
  /** joints whose name matches are drawn smaller; default fingers and end sites */
  minorJoints?: RegExp;
}

export class SkeletonView implements WorldView {
  /** Add this to the scene. Its matrix is the rig root's world transform. */
  readonly object: THREE.Group;
  readonly names: readonly string[];
  readonly parents: readonly number[];
  /** Model-space joint positions (x, y, z per joint) as of the last update(). */
  readonly positions: Float32Array;

  private readonly lineGeometry: THREE.BufferGeometry;
  private readonly linePositions: THREE.BufferAttribute;
  private readonly bones: Int32Array; // pairs: parent joint, child joint
  private readonly joints: THREE.InstancedMesh;
  private readonly jointScale: Float32Array;
  private readonly tmp = new THREE.Matrix4();
  private readonly tmpScale = new THREE.Vector3();
  private readonly tmpPos = new THREE.Vector3();
  private readonly identityQ = new THREE.Quaternion();

  constructor(
    readonly world: World,
    readonly entity: Entity,
    options: SkeletonViewOptions = {},
  ) {
    const asset = world.get(entity, Rig).asset;
    const { names, parents } = world.rig.skeleton(asset);
    this.names = names;
    this.parents = parents;
    const n = names.length;
    this.positions = new Float32Array(3 * n);

    const pairs: number[] = [];
    parents.forEach((p, j) => {
      if (p >= 0) pairs.push(p, j);
    });
    this.bones = Int32Array.from(pairs);

    this.object = new THREE.Group();
    this.object.name = `skeleton:${entity}`;
    this.object.matrixAutoUpdate = false;

    this.lineGeometry = new THREE.BufferGeometry();
    this.linePositions = new THREE.BufferAttribute(new Float32Array(3 * this.bones.length), 3);
    this.linePositions.setUsage(THREE.DynamicDrawUsage);
    this.lineGeometry.setAttribute('position', this.linePositions);
    const lines = new THREE.LineSegments(this.lineGeometry, new THREE.LineBasicMaterial({ color: options.boneColor ?? 0xe8e8e8 }));
    lines.frustumCulled = false;
    this.object.add(lines);

    const radius = options.jointRadius ?? 0.012;
    const major = options.majorJoints ?? /Hand$|Foot$|Head$/;
    const minor = options.minorJoints ?? /Thumb|Index|Middle|Ring|Pinky|_End$/;
    this.jointScale = Float32Array.from(names, (name) => (major.test(name) ? 1.8 : minor.test(name) ? 0.55 : 1));
    this.joints = new THREE.InstancedMesh(
      new THREE.SphereGeometry(radius, 12, 8),
      new THREE.MeshStandardMaterial({ color: options.jointColor ?? 0x4fa3ff, roughness: 0.5 }),
      n,
    );
    this.joints.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
    this.joints.frustumCulled = false;
    this.object.add(this.joints);

    this.update();
  }

  /** Re-reads the pose (model space) and the rig root's world transform. */
  update(): void {
    applyJointTransform(this.world.worldTransform(this.entity), this.object.matrix);
    this.object.matrixWorldNeedsUpdate = true;

    const pose = this.world.modelPose(this.entity);
    const pos = this.positions;
    for (let j = 0; j < pose.length; j++) {
      const t = pose[j].t;
      pos[3 * j] = t[0];
      pos[3 * j + 1] = t[1];
      pos[3 * j + 2] = t[2];
      this.tmpPos.set(t[0], t[1], t[2]);
      this.tmpScale.setScalar(this.jointScale[j]);
      this.tmp.compose(this.tmpPos, this.identityQ, this.tmpScale);
      this.joints.setMatrixAt(j, this.tmp);
    }
    this.joints.instanceMatrix.needsUpdate = true;

    const line = this.linePositions.array as Float32Array;
    for (let i = 0; i < this.bones.length; i++) {
      const j = this.bones[i];
      line[3 * i] = pos[3 * j];
      line[3 * i + 1] = pos[3 * j + 1];
      line[3 * i + 2] = pos[3 * j + 2];
    }
    this.linePositions.needsUpdate = true;
  }

  /** Joint index by name or path from the rig root, or -1. */
  jointIndex(nameOrPath: string): number {
    const j = this.names.indexOf(nameOrPath);
    return j >= 0 ? j : this.world.rig.findJoint(this.world.get(this.entity, Rig).asset, nameOrPath);
  }

  /** World position of joint j as of the last update(). */
  jointWorldPosition(j: number, out = new THREE.Vector3()): THREE.Vector3 {
    return out.fromArray(this.positions, 3 * j).applyMatrix4(this.object.matrix);
  }

  /** World-space bounds of the joints as of the last update(). */
  bounds(out = new THREE.Box3()): THREE.Box3 {
    out.makeEmpty();
    for (let j = 0; j < this.names.length; j++) out.expandByPoint(this.jointWorldPosition(j, this.tmpPos));
    return out;
  }

  dispose(): void {
    this.object.removeFromParent();
    this.lineGeometry.dispose();
    this.joints.geometry.dispose();
    this.joints.dispose();
    for (const child of this.object.children) {
      const m = (child as THREE.Mesh).material;
      if (m && !Array.isArray(m)) m.dispose();
    }
  }
}
