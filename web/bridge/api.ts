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
export type { CreateWorldOptions, FingerName, HandStatus, JointTransform, JointTransformLike, WorldSnapshot } from './world.js';
// The module namespaces of a World (world.rig, world.anim, world.grip, world.collide,
// world.controller, world.vault, world.nav): their classes, for typing.
export type { RigApi, HumanoidNaming, SkeletonInfo } from './rig.js';
export { HUMANOID_NAMINGS } from './rig.js';
export type { AnimApi } from './animator.js';
export type { GripApi } from './grip.js';
export type { PlaceTwoHandedOptions, TwoHandedPlacement } from './grip-place.js';
export type { CollideApi } from './collide.js';
export type { ControllerApi } from './controller.js';
export type { VaultApi, VaultCast } from './vault.js';
export type { NavApi } from './nav.js';
export type { ComponentInfo, FieldInfo } from './schema.js';
export type { WasmSource } from './wasm.js';
export { checkWasmBytes } from './wasm.js';
export type { FingerPose, FingerShape, GripDriver, GripPoseDef, HandGripStatus, TipSource } from './grip.js';
export type { LoadRigOptions, LoadedRig, GltfJoint, GltfClip, GltfSkin, ClipReduction } from './gltf.js';
export type { AnimatorParamType, AnimatorStatus, ControllerInfo, RootMotion } from './animator.js';
export type { ClosestPointOptions, CollideHit, CollisionQueries, QueryOptions } from './collide.js';
// Navmesh tools that need no world.
export { bakeDetourNavMesh, bakeNavMeshData, levelTriangles, navBakeSettings, navPathStatus, useRecast } from './nav.js';
export type { DetourBake, DetourNavMesh, NavAvoidance, NavBakeSettings, NavHit, NavLevel, NavMeshData, NavMeshInfo, NavPath, NavPathStatus, NavPoint, NavPointLike } from './nav.js';
// Deprecated (0.1's free functions taking the world first): warn once, then forward.
export {
  addController, addNavMesh, animatorParam, animatorStatus, bakeNavMesh, builtinQueries, captureFingerPose, controllerInfo, findClip, findNavMesh, gripPoseByJoint,
  gripPoseDef, gripPoseStatus, listClips, loadRig, navFindPath, navMeshInfo, navMoveAlongSurface, navNearest, navRaycast, registerFingerPose, registerGripPose, rootMotion,
  sampleClip, setAnimatorParam, setAnimatorTrigger, setNavDestination, stopNavAgent,
} from './deprecated.js';
export type { InputOwner, OwnedInput } from './input.js';
// Levels and props (world.loadLevel, world.loadProp) and input logs (world.record, world.replay).
export { Level, Prop } from './level.js';
export type { AssetSource, LevelData, LoadLevelOptions, LoadPropOptions, PropAnchor, PropGrip, PropSurface } from './level.js';
export { INPUT_LOG_FORMAT, INPUT_LOG_VERSION } from './record.js';
export type { InputLog, InputOp, LogField, LogNumber, ReplayOptions } from './record.js';
