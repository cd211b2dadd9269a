/** Component handles and their TypeScript shapes. The runtime field list comes
 * from the core's schema; these types only give editors and tsc the same names
 * (a Node test checks they match the schema). */

export type Entity = number;
export type Vec3 = [number, number, number];
export type Quat = [number, number, number, number];

/** A component type usable with world.insert/update/get. */
export interface ComponentType<T> {
  readonly name: string;
  /** Phantom: carries the data type for inference only. */
  readonly __data?: T;
}

function component<T>(name: string): ComponentType<T> {
  return Object.freeze({ name }) as ComponentType<T>;
}

/** Placement: local to `parent` (and its rig joint `parentJoint`), else world. */
export interface TransformData {
  /** metres; default [0, 0, 0] */
  position: Vec3;
  /** unit quaternion [x, y, z, w]; default identity; normalised on write */
  rotation: Quat;
  /** per axis, (0, 1e4]; default [1, 1, 1] */
  scale: Vec3;
  /** parent entity or 0 */
  parent: Entity;
  /** joint path or name in the parent's rig; '' = the parent itself */
  parentJoint: string;
}

/** A skeleton instance; the entity's Transform is the rig root. */
export interface RigData {
  /** skeleton asset handle, e.g. from world.addHumanoidRig() */
  asset: number;
}

/** Two-bone IK: `tip`, its parent and grandparent reach the target entity. */
export interface TwoBoneIKData {
  /** entity with the Rig; 0 = this entity */
  rig: Entity;
  /** end joint path or name; default 'RightHand' */
  tip: string;
  /** entity whose world position (and rotation) the tip reaches */
  target: Entity;
  /** optional pole entity used when the limb is straight */
  hint: Entity;
  /** position weight 0..1; default 1 */
  weight: number;
  /** tip rotation weight 0..1; default 0 */
  rotationWeight: number;
  /** share of full reach before easing, 0..1; 1 = off (default) */
  soften: number;
  /** output: tip within 0.1 mm of the target */
  readonly reached: boolean;
  /** output: metres left to the target */
  readonly distance: number;
}

export const Transform = component<TransformData>('Transform');
export const Rig = component<RigData>('Rig');
export const TwoBoneIK = component<TwoBoneIKData>('TwoBoneIK');

/** Writable part of a component's data. */
export type Writable<T> = { -readonly [K in keyof T as K extends 'reached' | 'distance' ? never : K]: T[K] };
