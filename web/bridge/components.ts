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

export type HandSide = 'Right' | 'Left';
export type Axis = 'X' | 'Y' | 'Z';

/** Hand shapes on a character (with Rig), independent of holding anything. */
export interface GripPoseData {
  /** pose name (built-in or registerGripPose); '' = the hand fades back to animation */
  rightPose: string;
  leftPose: string;
  /** pose over the animated fingers, 0..1; default 1 */
  rightWeight: number;
  leftWeight: number;
  /** index finger resting 0 .. pulled 1 (poses that define a trigger); default 0 */
  rightTrigger: number;
  leftTrigger: number;
  /** seconds to ease from one pose to the next, 0..10; default 0.2 */
  blendSeconds: number;
  /** hand joint path; '' = found by name */
  rightHand: string;
  leftHand: string;
  /** finger roots for rigs whose fingers are not named by finger: comma-separated
   * thumb,index,middle,ring,pinky joint paths or names ('' entries = by name); also used
   * by a GripHolder on the same entity; default '' */
  rightFingerRoots: string;
  leftFingerRoots: string;
}

/** On a character (with Rig): the object it holds and how. */
export interface GripHolderData {
  /** entity with GripProfile; 0 = let go */
  held: Entity;
  /** the hand at the main anchor; default 'Right' */
  mainHand: HandSide;
  /** 'Hand': the object follows the animated main hand; 'Object': the main arm reaches the object */
  placement: 'Hand' | 'Object';
  /** grip over the animation 0..1; default 1 */
  weight: number;
  /** support hand share 0..1 (times weight); default 1 */
  supportWeight: number;
  /** seconds to ease on grab, release and switch; default 0.25 */
  blendSeconds: number;
  /** share of an out-of-reach gap closed by clavicle and spine lean 0..1; default 0 */
  shoulderAssist: number;
  /** hand joint path; '' = found by name */
  rightHand: string;
  leftHand: string;
  /** output: metres from the main palm centre to its anchor */
  readonly mainDistance: number;
  /** output: metres from the support palm centre to its anchor */
  readonly supportDistance: number;
  /** output: main palm centre within 0.5 mm of its anchor */
  readonly mainReached: boolean;
  readonly supportReached: boolean;
}

/** On a held object: palm anchors (origin palm centre, +Z fingers, +Y out of the palm) and fingers. */
export interface GripProfileData {
  mainAnchor: Entity;
  /** 0 = one-handed */
  supportAnchor: Entity;
  /** GripPose name or registered finger pose; default 'handle' */
  mainPose: string;
  /** default 'support' */
  supportPose: string;
  /** per-joint GripPose JSON (gripPoseByJoint); overrides mainPose */
  mainFingers: string;
  supportFingers: string;
  /** the hand the anchors were placed for; default 'Right' */
  hand: HandSide;
  /** object plane (by its normal axis) mirroring the anchors for the other hand; default 'X' */
  mirror: Axis;
  /** fingers close onto the object's GripSurface shapes; default true */
  wrap: boolean;
}

/** A shape a hand wraps onto, in the entity's own units. */
export interface GripSurfaceData {
  shape: 'Cylinder' | 'Capsule' | 'Sphere' | 'Box';
  /** axis of a cylinder or capsule; default 'Y' */
  direction: Axis;
  center: Vec3;
  /** default 0.02 */
  radius: number;
  /** total length of a cylinder or capsule (capsule incl. caps); default 0.1 */
  height: number;
  /** box full extents; default [0.1, 0.1, 0.1] */
  size: Vec3;
}

/** On a character (with Rig): plays a controller asset into the rig's pose (see animator.ts). */
export interface AnimatorData {
  /** controller asset handle (scenes: its name); required */
  controller: number;
  /** the Move phase moves the Transform by the root motion; default true */
  applyRootMotion: boolean;
  /** playback multiplier 0..10; default 1 */
  speed: number;
  /** root motion includes the vertical axis; default false */
  rootMotionVertical: boolean;
  /** output: current state name */
  readonly state: string;
  /** output: seconds in the current state */
  readonly stateTime: number;
  /** output: cross-fade progress 0..1, 1 = settled */
  readonly blend: number;
}

export const Transform = component<TransformData>('Transform');
export const Rig = component<RigData>('Rig');
export const TwoBoneIK = component<TwoBoneIKData>('TwoBoneIK');
export const GripPose = component<GripPoseData>('GripPose');
export const GripHolder = component<GripHolderData>('GripHolder');
export const GripProfile = component<GripProfileData>('GripProfile');
export const GripSurface = component<GripSurfaceData>('GripSurface');
export const Animator = component<AnimatorData>('Animator');

/** Values of GripHolder.placement, as the seed's GripPlacement. */
export const GripPlacement = Object.freeze({ Hand: 'Hand', Object: 'Object' } as const);

/** Output fields, written by the world. */
type OutputField = 'reached' | 'distance' | 'mainDistance' | 'supportDistance' | 'mainReached' | 'supportReached' | 'state' | 'stateTime' | 'blend';

/** Writable part of a component's data. */
export type Writable<T> = { -readonly [K in keyof T as K extends OutputField ? never : K]: T[K] };
