/** Component handles and their TypeScript shapes. Every component's data interface and
 * handle is generated from the core's schema into components.generated.ts (`npm run gen`);
 * this file holds the basics they are built from and the named enum types. */
import type { GripHolderData, GripSurfaceData } from './components.generated.js';

export type Entity = number;
/** A 3-vector as the API returns it: [x, y, z]. */
export type Vec3 = [number, number, number];
/** A rotation as the API returns it: a unit quaternion [x, y, z, w]. */
export type Quat = [number, number, number, number];

/** A 3-vector as the API takes it (every position, direction and Vec3 field): [x, y, z], a
 * Float32Array / Float64Array of 3, or an object with numeric x, y, z (a THREE.Vector3). */
export type Vec3Like = readonly [number, number, number] | Float32Array | Float64Array | { readonly x: number; readonly y: number; readonly z: number };
/** A rotation as the API takes it (every Quat field and argument): [x, y, z, w], a
 * Float32Array / Float64Array of 4, or an object with numeric x, y, z, w (a THREE.Quaternion). */
export type QuatLike = readonly [number, number, number, number] | Float32Array | Float64Array | { readonly x: number; readonly y: number; readonly z: number; readonly w: number };

/* Asset handles. At run time every handle is the core's 32-bit number (0 = none); the brand
 * exists only for TypeScript, so that a handle of one kind of asset cannot be passed where
 * another kind is expected (a navmesh handle as a Rig's skeleton). Functions that add or find
 * an asset return the branded type; parameters and component fields that take one accept that
 * kind or a plain number (HandleArg: handles kept in `number` variables, JavaScript callers),
 * never a handle of another kind. */

/** A skeleton asset (addHumanoidRig, loadRig's `asset`): Rig.asset, addController, findClip. */
export type RigHandle = number & { readonly __brand: 'RigHandle' };
/** A clip asset (loadRig's clips, findClip, listClips): sampleClip. */
export type ClipHandle = number & { readonly __brand: 'ClipHandle' };
/** An animator controller asset (addController): Animator.controller, controllerInfo. */
export type ControllerHandle = number & { readonly __brand: 'ControllerHandle' };
/** A triangle mesh asset (addMesh): Collider.mesh, meshTriangleCount. */
export type MeshHandle = number & { readonly __brand: 'MeshHandle' };
/** A navmesh asset (addNavMesh, bakeNavMesh, findNavMesh): NavAgent.navMesh, the nav queries. */
export type NavMeshHandle = number & { readonly __brand: 'NavMeshHandle' };
/** Any asset handle. */
export type AssetHandle = RigHandle | ClipHandle | ControllerHandle | MeshHandle | NavMeshHandle;

/** What a parameter or field taking an asset handle `H` accepts: `H` itself or a plain
 * (unbranded) number; a handle of another kind is a type error. */
export type HandleArg<H extends AssetHandle> = H extends { readonly __brand: infer B } ? number & { readonly __brand?: B } : never;

/** @internal A handle of kind H from the core's number (the functions that add assets). */
export function brand<H extends AssetHandle>(n: number): H {
  return n as H;
}

/** A component type usable with world.insert/update/get. */
export interface ComponentType<T> {
  readonly name: string;
  /** Phantom: carries the data type for inference only. */
  readonly __data?: T;
}

/** @internal Makes a component handle (used by components.generated.ts). A function
 * declaration, so it is ready while that file and this one import each other. */
export function component<T>(name: string): ComponentType<T> {
  return Object.freeze({ name }) as ComponentType<T>;
}

export * from './components.generated.js';

/** A hand: GripHolder.mainHand, GripProfile.hand. */
export type HandSide = GripHolderData['mainHand'];
/** An axis of an object's frame: GripSurface.direction, GripProfile.mirror. */
export type Axis = GripSurfaceData['direction'];

/** Values of GripHolder.placement: the object follows the main hand, or the game places it. */
export const GripPlacement = Object.freeze({ Hand: 'Hand', Object: 'Object' } as const satisfies { [K in GripHolderData['placement']]: K });

/** True when X and Y are the same type, modifiers included. */
type Same<X, Y> = (<G>() => G extends X ? 1 : 2) extends (<G>() => G extends Y ? 1 : 2) ? true : false;
/** Keys of T not declared `readonly` (the generated interfaces mark outputs readonly). */
type WritableKeys<T> = { [K in keyof T]-?: Same<Pick<T, K>, { -readonly [Q in K]: T[Q] }> extends true ? K : never }[keyof T];

/** Writable part of a component's data: its fields without the outputs the world writes. */
export type Writable<T> = { -readonly [K in WritableKeys<T>]: T[K] };

/** A field value as insert/update take it: vectors and rotations in any Vec3Like/QuatLike
 * form, asset handles of the field's kind or plain numbers, everything else as read. */
export type FieldInput<V> = V extends { readonly __brand: infer B } ? number & { readonly __brand?: B } : V extends Vec3 ? Vec3Like : V extends Quat ? QuatLike : V;
/** The writable fields of a component as insert/update take them (see FieldInput). */
export type ComponentInput<T> = { -readonly [K in WritableKeys<T>]: FieldInput<T[K]> };
