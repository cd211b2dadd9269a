/** Component handles and their TypeScript shapes. Every component's data interface and
 * handle is generated from the core's schema into components.generated.ts (`npm run gen`);
 * this file holds the basics they are built from and the named enum types. */
import type { GripHolderData, GripSurfaceData } from './components.generated.js';

export type Entity = number;
export type Vec3 = [number, number, number];
export type Quat = [number, number, number, number];

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
