/** Everything the package exports except `createWorld`, which each entry point (index.ts for
 * Node, browser.ts for bundlers and browsers) defines with its own way to find limber.wasm.
 * limber/three imports this file, so both entries share one copy of the API. */
export { LimberError } from './errors.js';
// Every component's handle and <Name>Data interface, generated from the core's schema.
export * from './components.generated.js';
export { GripPlacement } from './components.js';
export type { ComponentType, ComponentInput, Entity, FieldInput, Vec3, Vec3Like, Quat, QuatLike, Writable, HandSide, Axis } from './components.js';
// Asset handles: numbers at run time, one branded type per kind of asset for TypeScript.
export type { AssetHandle, ClipHandle, ControllerHandle, HandleArg, MeshHandle, NavMeshHandle, RigHandle } from './components.js';
export { World, Scene, entityLabel, FINGER_NAMES } from './world.js';
export type { CreateWorldOptions, FingerName, HandStatus, JointTransform, JointTransformLike, VaultCast, WorldSnapshot } from './world.js';
export type { ComponentInfo, FieldInfo } from './schema.js';
export type { WasmSource } from './wasm.js';
export { checkWasmBytes } from './wasm.js';
export { captureFingerPose, registerFingerPose, gripPoseStatus, registerGripPose, gripPoseByJoint, gripPoseDef } from './grip.js';
export type { FingerPose, FingerShape, GripDriver, GripPoseDef, HandGripStatus } from './grip.js';
export { loadRig, findClip, listClips, sampleClip } from './gltf.js';
export type { LoadRigOptions, LoadedRig, GltfJoint, GltfClip, GltfSkin, ClipReduction } from './gltf.js';
export { builtinQueries } from './collide.js';
export { addController, animatorParam, animatorStatus, controllerInfo, rootMotion, setAnimatorParam, setAnimatorTrigger } from './animator.js';
export type { AnimatorParamType, AnimatorStatus, ControllerInfo, RootMotion } from './animator.js';
export type { ClosestPointOptions, CollideHit, CollisionQueries, QueryOptions } from './collide.js';
export { addNavMesh, bakeDetourNavMesh, bakeNavMesh, bakeNavMeshData, findNavMesh, levelTriangles, navBakeSettings, navFindPath, navMeshInfo, navMoveAlongSurface, navNearest, navPathStatus, navRaycast, setNavDestination, stopNavAgent, useRecast } from './nav.js';
export type { DetourBake, DetourNavMesh, NavBakeSettings, NavHit, NavLevel, NavMeshData, NavMeshInfo, NavPath, NavPathStatus, NavPoint, NavPointLike } from './nav.js';
export { inputOwner } from './input.js';
export type { InputOwner, OwnedInput } from './input.js';
