/** Animator functions beside the component: parameters, root motion, playback status and
 * controller assets. Playback rules and the controller JSON format: wasm/include/limber/animator.h. */
import { badArgument, describe, handleArg, jsonArg, nameArg } from './args.js';
import { brand, type ClipHandle, type ControllerHandle, type Entity, type HandleArg, type RigHandle, type Vec3 } from './components.js';
import { findClip, type GltfClip, listClips, sampleClip } from './gltf.js';
import { LimberError } from './errors.js';
import { entityLabel, type JointTransform, type World } from './world.js';

export type AnimatorParamType = 'float' | 'bool' | 'trigger';
const PARAM_TYPES: AnimatorParamType[] = ['float', 'bool', 'trigger'];

/** Root motion of the last step: the request a mover consumes (applied by the world itself
 * when Animator.applyRootMotion is set). */
export interface RootMotion {
  /** metres, in the character frame at the step's start */
  translation: Vec3;
  /** radians about +Y */
  yaw: number;
}

/** What an Animator played in the last step. */
export interface AnimatorStatus {
  state: string;
  /** the state fading out, or null */
  previous: string | null;
  /** cross-fade weight of `state` (previous has 1 - weight); 1 when settled */
  weight: number;
  /** seconds in the current state */
  stateTime: number;
  /** cycles played: loops + phase */
  normalizedTime: number;
  phase: number;
  previousPhase: number;
  /** the clips blended, with weights summing to 1 and the clip time sampled (seconds) */
  layers: { clip: string; weight: number; time: number }[];
  /** true when the Animator did not play (no step yet, or no Rig of its skeleton) */
  idle: boolean;
}

export interface ControllerInfo {
  name: string;
  params: { name: string; type: AnimatorParamType; default: number | boolean }[];
  states: { name: string; blend: { parameter: string; points: number; min: number; max: number } | null }[];
}

function withName<T>(world: World, name: string, fn: (ptr: number) => T): T {
  return world.native(({ heap }) => heap.withString(name, 'Animator', fn));
}

/** Current value of a parameter (floats as numbers, bools and triggers as booleans): the
 * value set. With `{ damped: true }` a float's value as the last step played it (a damped
 * parameter follows the value set over its `damp` seconds). */
export function animatorParam(world: World, entity: Entity, name: string, options: { damped?: boolean } = {}): number | boolean {
  const { value, type } = readParam(world, entity, name);
  if (options === null || typeof options !== 'object') throw badArgument('anim.param', 'options', `must be an object, got ${describe(options)}`);
  if (options.damped === true && type === 'float') {
    return withName(world, name, (n) =>
      world.native(({ ex, heap, w, check }) =>
        heap.scratch(4, (p) => {
          check(ex.lbw_get_animator_damped(w, entity, n, p), { entity, component: 'Animator', fn: 'anim.param' });
          return heap.f32[p >> 2];
        }),
      ),
    );
  }
  return type === 'float' ? value : value !== 0;
}

/** A live entity argument of an animator function. */
function live(world: World, entity: unknown, fn: string): number {
  return world.native((ctx) => ctx.entity(entity, fn));
}

function readParam(world: World, entity: Entity, name: string): { value: number; type: AnimatorParamType } {
  entity = live(world, entity, 'anim.param');
  if (typeof name !== 'string') {
    throw new LimberError('LB_ERR_INVALID_ARGUMENT', `LB_ERR_INVALID_ARGUMENT: Animator on ${entityLabel(entity)}: the parameter name must be a string`, { entity, component: 'Animator' });
  }
  nameArg(name, 'anim.param', 'name');
  return withName(world, name, (n) =>
    world.native(({ ex, heap, w, check }) =>
      heap.scratch(8, (p) => {
        check(ex.lbw_get_animator_param(w, entity, n, p), { entity, component: 'Animator', fn: 'anim.param' });
        return { value: heap.f32[p >> 2], type: PARAM_TYPES[heap.u32[(p >> 2) + 1]] ?? 'float' };
      }),
    ),
  );
}

/** Sets a parameter: a number for a float, a boolean for a bool (or a trigger: true sets,
 * false resets). `{ damp: seconds }` (floats) makes the Animator follow the value over that
 * time, as the controller's "damp" does (0 = at once). Errors (LimberError) name the entity
 * and the parameter; nothing changes. */
export function setAnimatorParam(world: World, entity: Entity, name: string, value: number | boolean, options: { damp?: number } = {}): void {
  entity = live(world, entity, 'anim.setParam');
  nameArg(name, 'anim.setParam', 'name');
  if (options === null || typeof options !== 'object') throw badArgument('anim.setParam', 'options', `must be an object, got ${describe(options)}`);
  if (options.damp !== undefined) {
    // Unity's SetFloat(name, value, dampTime, deltaTime): a float followed over `damp`
    // seconds (from now on for this parameter), the step's dt as deltaTime.
    const damp = options.damp;
    if (typeof damp !== 'number' || typeof value !== 'number') throw badArgument('anim.setParam', 'damp', `needs a number value and a number of seconds, got ${describe(damp)} for ${describe(value)}`);
    withName(world, name, (n) =>
      world.native(({ ex, w, check }) => check(ex.lbw_set_animator_float_damped(w, entity, n, value, damp), { entity, component: 'Animator', fn: 'anim.setParam' })),
    );
    return;
  }
  if (typeof value !== 'number' && typeof value !== 'boolean') {
    throw new LimberError('LB_ERR_INVALID_ARGUMENT', `LB_ERR_INVALID_ARGUMENT: Animator on ${entityLabel(entity)}: parameter ${describe(name)} needs a number or a boolean, got ${typeof value}`, { entity, component: 'Animator' });
  }
  // A number goes to the float setter, a boolean to the bool or the trigger one (by the
  // parameter's type, when it has one): the core reports every mismatch in its own words.
  withName(world, nameArg(name, 'anim.setParam', 'name'), (n) =>
    world.native(({ ex, heap, w, check }) => {
      let kind = 0;
      if (typeof value === 'boolean') {
        const isTrigger = heap.scratch(8, (p) => ex.lbw_get_animator_param(w, entity, n, p) === 0 && heap.u32[(p >> 2) + 1] === 2);
        kind = isTrigger ? 2 : 1;
      }
      check(ex.lbw_set_animator_param(w, entity, n, kind, Number(value)), { entity, component: 'Animator', fn: 'anim.setParam' });
    }),
  );
}

/** Sets a trigger; it stays set until a transition that tests it fires. */
export function setAnimatorTrigger(world: World, entity: Entity, name: string): void {
  const e = live(world, entity, 'anim.setTrigger');
  nameArg(name, 'anim.setTrigger', 'name');
  withName(world, name, (n) => world.native(({ ex, w, check }) => check(ex.lbw_set_animator_param(w, e, n, 2, 1), { entity: e, component: 'Animator', fn: 'anim.setTrigger' })));
}

/** The last step's root motion of an entity's Animator. */
export function rootMotion(world: World, entity: Entity): RootMotion {
  const e = live(world, entity, 'anim.rootMotion');
  return world.native(({ ex, heap, w, check }) =>
    heap.scratch(16, (p) => {
      check(ex.lbw_root_motion(w, e, p), { entity: e, component: 'Animator', fn: 'anim.rootMotion' });
      const f = heap.f32;
      const b = p >> 2;
      return { translation: [f[b], f[b + 1], f[b + 2]] as Vec3, yaw: f[b + 3] };
    }),
  );
}

/** What the entity's Animator played in the last step. */
export function animatorStatus(world: World, entity: Entity): AnimatorStatus {
  entity = live(world, entity, 'anim.status');
  const controller = (world.get(entity, { name: 'Animator' }) as { controller: ControllerHandle }).controller;
  return world.native(({ ex, heap, w, check }) =>
    heap.scratch(4 * 21, (p) => {
      check(ex.lbw_animator_status(w, entity, p), { entity, component: 'Animator', fn: 'anim.status' });
      const u = new Uint32Array(ex.memory.buffer, p, 21);
      const f = new Float32Array(ex.memory.buffer, p, 21);
      const stateName = (i: number) => heap.cstring(ex.lbw_controller_state_name(w, controller, i));
      const layers = [];
      for (let k = 0; k < u[7]; k++) layers.push({ clip: heap.cstring(ex.lbw_clip_name(w, u[9 + 3 * k])), weight: f[10 + 3 * k], time: f[11 + 3 * k] });
      const previous = u[1] | 0;
      return {
        state: stateName(u[0]),
        previous: previous >= 0 ? stateName(previous) : null,
        weight: f[2],
        stateTime: f[3],
        normalizedTime: f[4],
        phase: f[5],
        previousPhase: f[6],
        layers,
        idle: u[8] !== 0,
      };
    }),
  );
}

/** Parameters and states of a controller asset (for tools: sliders, state lists). */
export function controllerInfo(world: World, controller: HandleArg<ControllerHandle>): ControllerInfo {
  handleArg(controller, 'anim.controllerInfo', 'controller', 'a controller asset handle');
  return world.native(({ ex, heap, w }) => {
    const nameP = ex.lbw_controller_name(w, controller >>> 0);
    if (!nameP) throw new LimberError('LB_ERR_UNKNOWN_NAME', `LB_ERR_UNKNOWN_NAME: controllerInfo: ${describe(controller)} is not a controller asset`);
    const params: ControllerInfo['params'] = [];
    for (let i = 0; i < ex.lbw_controller_param_count(w, controller); i++) {
      const type = PARAM_TYPES[ex.lbw_controller_param_type(w, controller, i)] ?? 'float';
      const d = ex.lbw_controller_param_default(w, controller, i);
      params.push({ name: heap.cstring(ex.lbw_controller_param_name(w, controller, i)), type, default: type === 'float' ? d : d !== 0 });
    }
    const states: ControllerInfo['states'] = [];
    for (let i = 0; i < ex.lbw_controller_state_count(w, controller); i++) {
      const blend = heap.scratch(12, (p) => {
        const param = ex.lbw_controller_state_blend(w, controller, i, p);
        if (param < 0) return null;
        return { parameter: params[param].name, points: heap.u32[p >> 2], min: heap.f32[(p >> 2) + 1], max: heap.f32[(p >> 2) + 2] };
      });
      states.push({ name: heap.cstring(ex.lbw_controller_state_name(w, controller, i)), blend });
    }
    return { name: heap.cstring(nameP), params, states };
  });
}

/** Adds a controller asset from its JSON (object or text) for a skeleton asset whose clips
 * it names; returns the handle for Animator.controller. */
export function addController(world: World, skeleton: HandleArg<RigHandle>, controller: object | string, name = ''): ControllerHandle {
  const fn = 'anim.addController';
  handleArg(skeleton, fn, 'skeleton', 'a skeleton asset handle');
  const text = jsonArg(controller, fn, 'controller', 'a controller object or its JSON text');
  nameArg(name, fn, 'name');
  return world.native(({ ex, heap, w, check }) =>
    heap.withStrings([name, text], fn, (n, j) =>
      heap.scratch(4, (p) => {
        check(ex.lbw_add_controller_json(w, skeleton, n.ptr, j.ptr, j.len, p), { fn });
        return brand<ControllerHandle>(heap.u32[p >> 2]!);
      }, fn),
    ),
  );
}

export class AnimApi {
  /** @internal use `world.anim` */
  constructor(private readonly world: World) {}

  /** Current value of a parameter (floats as numbers, bools and triggers as booleans): the
   * value set. With `{ damped: true }` a float's value as the last step played it. */
  readonly param = (entity: Entity, name: string, options: { damped?: boolean } = {}): number | boolean => animatorParam(this.world, entity, name, options);
  /** Sets a parameter: a number for a float, a boolean for a bool (or a trigger: true sets,
   * false resets). `{ damp }` seconds (float parameters) eases the value played toward it
   * (Unity's SetFloat with a damp time). Throws a LimberError naming the entity and
   * parameter. */
  readonly setParam = (entity: Entity, name: string, value: number | boolean, options: { damp?: number } = {}): void =>
    setAnimatorParam(this.world, entity, name, value, options);
  /** Sets a trigger (it stays set until a transition that tests it fires). */
  readonly setTrigger = (entity: Entity, name: string): void => setAnimatorTrigger(this.world, entity, name);
  /** The last step's root motion of an entity's Animator. */
  readonly rootMotion = (entity: Entity): RootMotion => rootMotion(this.world, entity);
  /** What the entity's Animator played in the last step. */
  readonly status = (entity: Entity): AnimatorStatus => animatorStatus(this.world, entity);
  /** Parameters and states of a controller asset (for tools: sliders, state lists). */
  readonly controllerInfo = (controller: HandleArg<ControllerHandle>): ControllerInfo => controllerInfo(this.world, controller);
  /** Adds a controller asset from its JSON (object or text) for a skeleton asset whose clips
   * it names; returns the handle for Animator.controller. */
  readonly addController = (skeleton: HandleArg<RigHandle>, controller: object | string, name = ''): ControllerHandle => addController(this.world, skeleton, controller, name);
  /** Clip asset handle by name (first match; `skeleton` 0 = any skeleton), or 0 (none). */
  readonly findClip = (name: string, skeleton: HandleArg<RigHandle> = 0): ClipHandle => findClip(this.world, name, skeleton);
  /** Every clip asset (in add order) that animates `skeleton` (0 = any): handle, name and
   * duration in seconds. */
  readonly listClips = (skeleton: HandleArg<RigHandle> = 0): GltfClip[] => listClips(this.world, skeleton);
  /** Samples a clip asset over its skeleton's rest pose at `time` seconds: local
   * transforms, depth-first. Without `loop` the time is clamped to the clip. */
  readonly sampleClip = (clip: HandleArg<ClipHandle>, time: number, options: { loop?: boolean } = {}): JointTransform[] => sampleClip(this.world, clip, time, options);
}
