/** The free functions of 0.1 that took the world first, kept for one release: each warns
 * once and calls its `world.<module>` replacement (CHANGELOG.md has the table). A call with
 * no World first (the older `registerGripPose(name, pose)` form) is a LimberError saying so. */
import type { ClipHandle, ControllerHandle, Entity, HandleArg, NavMeshHandle, RigHandle, Vec3Like } from './components.js';
import { deprecated } from './args.js';
import type { AnimatorStatus, ControllerInfo, RootMotion } from './animator.js';
import type { CollisionQueries } from './collide.js';
import type { GltfClip, LoadedRig, LoadRigOptions } from './gltf.js';
import { type FingerPose, type GripPoseDef, type HandGripStatus, requireWorld } from './grip.js';
import type { NavBakeSettings, NavHit, NavLevel, NavMeshData, NavMeshInfo, NavPath, NavPoint, NavPointLike } from './nav.js';
import type { JointTransform, World } from './world.js';

/** The replacement of `old`, after checking its first argument is a live World. */
function moved<T>(old: string, params: string, now: string, world: World, call: () => T): T {
  requireWorld(world, old, params);
  return deprecated(`${old}(world, …)`, now, call);
}

/** @deprecated use `world.grip.registerPose(name, def)` */
export const registerGripPose = (world: World, name: string, def: GripPoseDef | string): void =>
  moved('registerGripPose', 'world, name, pose', 'world.grip.registerPose', world, () => world.grip.registerPose(name, def));
/** @deprecated use `world.grip.poseDef(name)` */
export const gripPoseDef = (world: World, name: string): GripPoseDef => moved('gripPoseDef', 'world, name', 'world.grip.poseDef', world, () => world.grip.poseDef(name));
/** @deprecated use `world.grip.poseByJoint(pose)` */
export const gripPoseByJoint = (world: World, pose: string | GripPoseDef): GripPoseDef =>
  moved('gripPoseByJoint', 'world, pose', 'world.grip.poseByJoint', world, () => world.grip.poseByJoint(pose));
/** @deprecated use `world.grip.status(entity)` */
export const gripPoseStatus = (world: World, entity: Entity): { right: HandGripStatus; left: HandGripStatus } =>
  moved('gripPoseStatus', 'world, entity', 'world.grip.status', world, () => world.grip.status(entity));
/** @deprecated use `world.grip.registerFingerPose(name, pose)` */
export const registerFingerPose = (world: World, name: string, pose: FingerPose | string): void =>
  moved('registerFingerPose', 'world, name, pose', 'world.grip.registerFingerPose', world, () => world.grip.registerFingerPose(name, pose));
/** @deprecated use `world.grip.captureFingerPose(entity, handJoint)` */
export const captureFingerPose = (world: World, entity: Entity, handJoint: string): FingerPose =>
  moved('captureFingerPose', 'world, entity, handJoint', 'world.grip.captureFingerPose', world, () => world.grip.captureFingerPose(entity, handJoint));

/** @deprecated use `world.rig.load(bytes, options)` */
export const loadRig = (world: World, bytes: Uint8Array, options: LoadRigOptions = {}): LoadedRig =>
  moved('loadRig', 'world, bytes, options', 'world.rig.load', world, () => world.rig.load(bytes, options));

/** @deprecated use `world.anim.findClip(name, skeleton)` */
export const findClip = (world: World, name: string, skeleton: HandleArg<RigHandle> = 0): ClipHandle =>
  moved('findClip', 'world, name, skeleton', 'world.anim.findClip', world, () => world.anim.findClip(name, skeleton));
/** @deprecated use `world.anim.listClips(skeleton)` */
export const listClips = (world: World, skeleton: HandleArg<RigHandle> = 0): GltfClip[] =>
  moved('listClips', 'world, skeleton', 'world.anim.listClips', world, () => world.anim.listClips(skeleton));
/** @deprecated use `world.anim.sampleClip(clip, time, options)` */
export const sampleClip = (world: World, clip: HandleArg<ClipHandle>, time: number, options: { loop?: boolean } = {}): JointTransform[] =>
  moved('sampleClip', 'world, clip, time', 'world.anim.sampleClip', world, () => world.anim.sampleClip(clip, time, options));
/** @deprecated use `world.anim.param(entity, name, options)` */
export const animatorParam = (world: World, entity: Entity, name: string, options: { damped?: boolean } = {}): number | boolean =>
  moved('animatorParam', 'world, entity, name', 'world.anim.param', world, () => world.anim.param(entity, name, options));
/** @deprecated use `world.anim.setParam(entity, name, value, options)` */
export const setAnimatorParam = (world: World, entity: Entity, name: string, value: number | boolean, options: { damp?: number } = {}): void =>
  moved('setAnimatorParam', 'world, entity, name, value', 'world.anim.setParam', world, () => world.anim.setParam(entity, name, value, options));
/** @deprecated use `world.anim.setTrigger(entity, name)` */
export const setAnimatorTrigger = (world: World, entity: Entity, name: string): void =>
  moved('setAnimatorTrigger', 'world, entity, name', 'world.anim.setTrigger', world, () => world.anim.setTrigger(entity, name));
/** @deprecated use `world.anim.rootMotion(entity)` */
export const rootMotion = (world: World, entity: Entity): RootMotion => moved('rootMotion', 'world, entity', 'world.anim.rootMotion', world, () => world.anim.rootMotion(entity));
/** @deprecated use `world.anim.status(entity)` */
export const animatorStatus = (world: World, entity: Entity): AnimatorStatus =>
  moved('animatorStatus', 'world, entity', 'world.anim.status', world, () => world.anim.status(entity));
/** @deprecated use `world.anim.controllerInfo(controller)` */
export const controllerInfo = (world: World, controller: HandleArg<ControllerHandle>): ControllerInfo =>
  moved('controllerInfo', 'world, controller', 'world.anim.controllerInfo', world, () => world.anim.controllerInfo(controller));
/** @deprecated use `world.anim.addController(skeleton, controller, name)` */
export const addController = (world: World, skeleton: HandleArg<RigHandle>, controller: object | string, name = ''): ControllerHandle =>
  moved('addController', 'world, skeleton, controller', 'world.anim.addController', world, () => world.anim.addController(skeleton, controller, name));

/** @deprecated use `world.collide` (the same CollisionQueries table) */
export const builtinQueries = (world: World): CollisionQueries => moved('builtinQueries', 'world', 'world.collide', world, () => world.collide);

/** @deprecated use `world.nav.addMesh(mesh, name)` */
export const addNavMesh = (world: World, mesh: NavMeshData | string, name = 'navmesh'): NavMeshHandle =>
  moved('addNavMesh', 'world, mesh, name', 'world.nav.addMesh', world, () => world.nav.addMesh(mesh, name));
/** @deprecated use `world.nav.bake(level, settings, name)` */
export const bakeNavMesh = (world: World, level: NavLevel, settings: NavBakeSettings = {}, name?: string): Promise<NavMeshHandle> =>
  moved('bakeNavMesh', 'world, level, settings', 'world.nav.bake', world, () => world.nav.bake(level, settings, name));
/** @deprecated use `world.nav.find(name)` */
export const findNavMesh = (world: World, name: string): NavMeshHandle => moved('findNavMesh', 'world, name', 'world.nav.find', world, () => world.nav.find(name));
/** @deprecated use `world.nav.info(mesh)` */
export const navMeshInfo = (world: World, mesh: HandleArg<NavMeshHandle>): NavMeshInfo => moved('navMeshInfo', 'world, mesh', 'world.nav.info', world, () => world.nav.info(mesh));
/** @deprecated use `world.nav.nearest(mesh, point)` */
export const navNearest = (world: World, mesh: HandleArg<NavMeshHandle>, point: Vec3Like): NavPoint =>
  moved('navNearest', 'world, mesh, point', 'world.nav.nearest', world, () => world.nav.nearest(mesh, point));
/** @deprecated use `world.nav.findPath(mesh, start, goal, options)` */
export const navFindPath = (world: World, mesh: HandleArg<NavMeshHandle>, start: Vec3Like, goal: Vec3Like, options: { maxPoints?: number } = {}): NavPath =>
  moved('navFindPath', 'world, mesh, start, goal', 'world.nav.findPath', world, () => world.nav.findPath(mesh, start, goal, options));
/** @deprecated use `world.nav.moveAlongSurface(mesh, from, to)` */
export const navMoveAlongSurface = (world: World, mesh: HandleArg<NavMeshHandle>, from: NavPointLike, to: Vec3Like): NavPoint =>
  moved('navMoveAlongSurface', 'world, mesh, from, to', 'world.nav.moveAlongSurface', world, () => world.nav.moveAlongSurface(mesh, from, to));
/** @deprecated use `world.nav.raycast(mesh, from, to)` */
export const navRaycast = (world: World, mesh: HandleArg<NavMeshHandle>, from: NavPointLike, to: Vec3Like): NavHit =>
  moved('navRaycast', 'world, mesh, from, to', 'world.nav.raycast', world, () => world.nav.raycast(mesh, from, to));
/** @deprecated use `world.nav.setDestination(entity, destination)` */
export const setNavDestination = (world: World, entity: Entity, destination: Vec3Like): void =>
  moved('setNavDestination', 'world, entity, destination', 'world.nav.setDestination', world, () => world.nav.setDestination(entity, destination));
/** @deprecated use `world.nav.stop(entity)` */
export const stopNavAgent = (world: World, entity: Entity): void => moved('stopNavAgent', 'world, entity', 'world.nav.stop', world, () => world.nav.stop(entity));
