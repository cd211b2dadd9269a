/** Small conversions between the world's transforms and three.js objects. */
import * as THREE from 'three';
import type { Entity, JointTransform, Vec3, World } from '../bridge/api.js';
import { Rig, Transform } from '../bridge/api.js';

/** Something drawn for part of the world: add `object` to a scene, call
 * update() after the world steps, dispose() when done. */
export interface WorldView {
  readonly object: THREE.Object3D;
  update(): void;
  dispose(): void;
}

const _p = new THREE.Vector3();
const _q = new THREE.Quaternion();
const _s = new THREE.Vector3();
const _m = new THREE.Matrix4();
const _v = new THREE.Vector3();

/** Writes a {t, r, s} transform into a matrix (translation · rotation · scale). */
export function applyJointTransform(x: JointTransform, out: THREE.Matrix4): THREE.Matrix4 {
  _p.set(x.t[0], x.t[1], x.t[2]);
  _q.set(x.r[0], x.r[1], x.r[2], x.r[3]);
  _s.set(x.s[0], x.s[1], x.s[2]);
  return out.compose(_p, _q, _s);
}

/** Joint index in an entity's rig by name or path, or -1. */
export function findRigJoint(world: World, rig: Entity, nameOrPath: string): number {
  return world.rig.findJoint(world.get(rig, Rig).asset, nameOrPath);
}

/** World position of a rig joint as of the last step, read fresh from the world:
 * the rig root's world transform applied to the joint's model-space position. */
export function jointWorldPosition(world: World, rig: Entity, joint: string | number, out = new THREE.Vector3()): THREE.Vector3 {
  const j = typeof joint === 'number' ? joint : findRigJoint(world, rig, joint);
  const pose = world.modelPose(rig);
  if (!(j >= 0 && j < pose.length)) throw new RangeError(`jointWorldPosition: the rig has no joint '${String(joint)}'`);
  const t = pose[j].t;
  return out.set(t[0], t[1], t[2]).applyMatrix4(applyJointTransform(world.worldTransform(rig), _m));
}

/** The frame an entity's Transform is local to (parent entity, parent joint or
 * world), derived as world · local⁻¹ as of the last step. Read it before
 * changing the entity's Transform, e.g. when a drag starts. */
export function parentFrame(world: World, e: Entity, out = new THREE.Matrix4()): THREE.Matrix4 {
  const local = world.get(e, Transform);
  if (local.parent === 0) return out.identity();
  const l = applyJointTransform({ t: local.position, r: local.rotation, s: local.scale }, new THREE.Matrix4());
  return applyJointTransform(world.worldTransform(e), out).multiply(l.invert());
}

/** Moves an entity so its world position is `pos`: writes Transform.position,
 * converted into the parent frame (see parentFrame) when the entity has a parent. */
export function setWorldPosition(world: World, e: Entity, pos: THREE.Vector3 | Vec3, frame?: THREE.Matrix4): void {
  const f = frame ?? parentFrame(world, e, _m);
  const p = Array.isArray(pos) ? _v.set(pos[0], pos[1], pos[2]) : _v.copy(pos);
  if (!isIdentity(f)) p.applyMatrix4(_m.copy(f).invert());
  const position: Vec3 = [p.x, p.y, p.z];
  world.update(e, Transform, (t) => {
    t.position = position;
  });
}

function isIdentity(m: THREE.Matrix4): boolean {
  const e = m.elements;
  for (let i = 0; i < 16; i++) if (e[i] !== (i % 5 === 0 ? 1 : 0)) return false;
  return true;
}
