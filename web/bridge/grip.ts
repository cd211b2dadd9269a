/** Grip functions beside the components: captured finger poses and per-hand status. */
import { type Entity, GripHolder, GripPose, type HandSide, Rig, type Vec3 } from './components.js';
import { badArgument, describe, jsonArg, nameArg } from './args.js';
import { placeTwoHanded, type PlaceTwoHandedOptions, type TwoHandedPlacement } from './grip-place.js';
import { LimberError } from './errors.js';
import { decodeHand, entityLabel, readReport, readTransforms, FINGER_NAMES, type FingerName, type HandStatus, type JointTransform, PACKED_HAND_BYTES, World } from './world.js';

/** Grip functions act on one world, named first: a clear error for anything else (e.g.
 * the older registerGripPose(name, pose) form) or for a destroyed world. */
export function requireWorld(world: unknown, fn: string, params: string): asserts world is World {
  if (!(world instanceof World)) {
    throw new LimberError(
      'LB_ERR_INVALID_ARGUMENT',
      `LB_ERR_INVALID_ARGUMENT: ${fn}${params ? `(${params})` : ''}: the first argument must be a World from createWorld(), got ${describe(world)}`,
    );
  }
  if (world.destroyed) throw new LimberError('LB_ERR_INVALID_ARGUMENT', `LB_ERR_INVALID_ARGUMENT: ${fn}${params ? `(${params})` : ''}: the world was destroyed`);
}

/** A captured finger pose: local rotations [x, y, z, w] of the joints below a hand. */
export interface FingerPose {
  hand?: string;
  joints: Record<string, [number, number, number, number]>;
}

/** Local rotations of every joint below `handJoint` (path or name) as of the last step:
 * plain JSON to save with the game. It names bones, so it belongs to that skeleton. */
export function captureFingerPose(world: World, entity: Entity, handJoint: string): FingerPose {
  requireWorld(world, 'grip.captureFingerPose', '');
  const fn = 'grip.captureFingerPose';
  return world.native(({ ex, heap, w, check, entity: live }) => {
    const e = live(entity, fn);
    return heap.withString(nameArg(handJoint, fn, 'handJoint'), fn, (hand) => {
      const needed = ex.lbw_capture_finger_pose(w, e, hand, 0, 0);
      if (needed < 0) check(-needed, { entity: e, component: 'Rig', fn });
      return heap.scratch(needed + 1, (buf) => {
        const n = ex.lbw_capture_finger_pose(w, e, hand, buf, needed + 1);
        if (n < 0) check(-n, { entity: e, component: 'Rig', fn });
        return JSON.parse(heap.cstring(buf)) as FingerPose;
      }, fn);
    });
  });
}

/** Stores a captured pose under `name` in this world, for GripProfile.mainPose /
 * supportPose. Every joint must exist in one of the world's skeletons; malformed input
 * throws and registers nothing. Captured poses are not mirrored. */
export function registerFingerPose(world: World, name: string, pose: FingerPose | string): void {
  requireWorld(world, 'grip.registerFingerPose', '');
  const fn = 'grip.registerFingerPose';
  nameArg(name, fn, 'name');
  const text = jsonArg(pose, fn, 'pose', 'a FingerPose object or its JSON text');
  world.native(({ ex, heap, w, check }) =>
    heap.withStrings([name, text], fn, (n, j) => check(ex.lbw_register_finger_pose(w, n.ptr, j.ptr, j.len), { fn })),
  );
}

/** 'released': the support hand a higher owner (a vault plant) took in the last step. */
export type GripDriver = 'none' | 'pose' | 'main' | 'support' | 'released';

export interface HandGripStatus {
  side: HandSide;
  /** hand joint name, or null when no hand was found */
  hand: string | null;
  /** finger joints found (segments then tip), null for a missing finger */
  fingers: Record<FingerName, string[] | null>;
  missing: FingerName[];
  /** the finder's summary, e.g. "right hand 'hand_r' (12); fingers: ...; missing: ring" */
  report: string;
  /** what drove the hand in the last step */
  driver: GripDriver;
  /** blend progress 0..1 (1 = settled) */
  blend: number;
  /** metres from the palm centre to its anchor (holder-driven hands) */
  palmDistance: number;
  /** fingers that touched a GripSurface in the last step */
  contacts: FingerName[];
  /** index finger length, metres (the hand-size unit), once the hand has gripped */
  indexLength: number;
  /** false when the fingers were not found: the hand joint stands in for the palm, and a
   * holder never reports reached (the report says which mapping field to set) */
  palmKnown: boolean;
  /** fingers without an end joint whose tip was estimated */
  tipEstimated: FingerName[];
  /** where each finger's tip comes from: its end joint, where the skinned mesh of its last
   * bone ends ('mesh': a glTF rig whose mesh is weighted to that bone), the last bone
   * continued at 0.8 of the one before it ('ratio'), or nothing ('none': a finger not found,
   * or one segment without an end joint) */
  tipSource: Record<FingerName, TipSource>;
  /** each finger's tip in the rig's model space as of the last step (end joint, estimated
   * end, or last joint); null for a finger not found or before the hand is resolved */
  tips: Record<FingerName, Vec3 | null>;
}

/** Where a fingertip comes from (HandGripStatus.tipSource). */
export type TipSource = 'joint' | 'mesh' | 'ratio' | 'none';

const DRIVERS: GripDriver[] = ['none', 'pose', 'main', 'support', 'released'];
/** Words lbw_grip_hand_status writes (exports_grip.c). */
const STATUS_WORDS = 26;

function tipSource(hand: HandStatus | null, finger: FingerName, k: number, estimated: number, fromMesh: number): TipSource {
  if (!hand?.fingers[finger]) return 'none';
  if ((fromMesh >> k) & 1) return 'mesh';
  if ((estimated >> k) & 1) return 'ratio';
  return hand.endJoints.includes(finger) ? 'joint' : 'none';
}

/** What each hand of a character found and did (hands, fingers, driver, blend, contacts). Throws
 * LB_ERR_MISSING_COMPONENT when the entity has neither GripPose nor GripHolder. */
export function gripPoseStatus(world: World, entity: Entity): { right: HandGripStatus; left: HandGripStatus } {
  requireWorld(world, 'grip.status', '');
  entity = world.native(({ entity: live }) => live(entity, 'grip.status'));
  const one = (side: HandSide): HandGripStatus => {
    const st = world.native(({ ex, heap, w }) =>
      heap.scratch(STATUS_WORDS * 4, (p) => {
        const code = ex.lbw_grip_hand_status(w, entity >>> 0, side === 'Right' ? 0 : 1, p);
        if (code !== 0) {
          const name = heap.cstring(ex.lbw_result_name(code));
          throw new LimberError(name, `${name}: gripPoseStatus: ${entityLabel(entity)} has no GripPose or GripHolder`, { entity });
        }
        const u = new Uint32Array(ex.memory.buffer, p, STATUS_WORDS);
        const f = new Float32Array(ex.memory.buffer, p, STATUS_WORDS);
        const tips = FINGER_NAMES.map((_, k): Vec3 => [f[11 + 3 * k]!, f[12 + 3 * k]!, f[13 + 3 * k]!]);
        return { driver: DRIVERS[u[0]] ?? 'none', blend: f[3], palmDistance: f[4], contacts: u[5], indexLength: f[7], palmKnown: u[8] !== 0, tipEstimated: u[9]!, tipFromMesh: u[10]!, tips };
      }),
    );
    // The hand the grip resolved (with its finger mapping); before the first step, by names.
    let found: HandStatus | null = null;
    let report = '';
    const names = world.rig.skeleton(world.get(entity, Rig).asset).names;
    const code = world.native(({ ex, heap, w }) =>
      heap.scratch(PACKED_HAND_BYTES, (p) => {
        const c = ex.lbw_grip_hand_info(w, entity >>> 0, side === 'Right' ? 0 : 1, p, p + 4 * 26);
        const name = c === 0 ? '' : heap.cstring(ex.lbw_result_name(c));
        if (name === 'LB_ERR_MISSING_COMPONENT') return name;
        const hand = decodeHand(heap, p, names, side);
        if (c === 0) found = hand;
        report = readReport(heap, (buf, cap) => ex.lbw_grip_hand_report(w, entity >>> 0, side === 'Right' ? 0 : 1, buf, cap)) ?? hand.report;
        return name;
      }),
    );
    if (code === 'LB_ERR_MISSING_COMPONENT') {
      try {
        const key = side === 'Right' ? 'rightHand' : 'leftHand';
        const holderPath = world.has(entity, GripHolder) ? world.get(entity, GripHolder)[key] : '';
        const posePath = world.has(entity, GripPose) ? world.get(entity, GripPose)[key] : '';
        found = world.grip.findHand(entity, side, holderPath || posePath);
        report = found.report;
      } catch (err) {
        if (!(err instanceof LimberError) || err.code !== 'LB_ERR_JOINT_NOT_FOUND') throw err;
        report = err.message;
      }
    }
    const hand = found as HandStatus | null;
    return {
      side,
      hand: hand ? hand.hand : null,
      fingers: hand ? hand.fingers : (Object.fromEntries(FINGER_NAMES.map((f) => [f, null])) as Record<FingerName, null>),
      missing: hand ? hand.missing : [...FINGER_NAMES],
      report,
      driver: st.driver,
      blend: st.blend,
      palmDistance: st.palmDistance,
      contacts: FINGER_NAMES.filter((_, k) => (st.contacts >> k) & 1),
      indexLength: st.indexLength,
      palmKnown: st.palmKnown,
      tipEstimated: FINGER_NAMES.filter((_, k) => (st.tipEstimated >> k) & 1),
      tipSource: Object.fromEntries(FINGER_NAMES.map((n, k) => [n, tipSource(hand, n, k, st.tipEstimated, st.tipFromMesh)])) as Record<FingerName, TipSource>,
      tips: Object.fromEntries(FINGER_NAMES.map((n, k) => [n, st.palmKnown && hand?.fingers[n] ? st.tips[k]! : null])) as Record<FingerName, Vec3 | null>,
    };
  };
  return { right: one('Right'), left: one('Left') };
}

/** One finger of a grip pose (registerGripPose). Angles in degrees. */
export interface FingerShape {
  /** 0 rest .. 1 full grip (90°, 100°, 70° per joint) */
  curl?: number;
  /** the first joint's curl; default = curl */
  base?: number;
  /** -1 .. 1: fingers apart (index toward the thumb, pinky away) */
  spread?: number;
  /** degrees per joint from the root, relative to rest; overrides curl and base */
  bend?: [number, number, number];
  /** degrees off the palm midline (index, middle toward the thumb); overrides spread */
  fan?: number;
}

/** A grip pose: finger shapes and the thumb's reach; names no bone, so it fits any skeleton. */
export interface GripPoseDef {
  thumb?: { opposition?: number; to?: 'fingers' | 'index'; gap?: number };
  index?: FingerShape & { trigger?: FingerShape };
  middle?: FingerShape & { trigger?: FingerShape };
  ring?: FingerShape & { trigger?: FingerShape };
  pinky?: FingerShape & { trigger?: FingerShape };
}

/** Registers `def` under `name` in this world only. */
function registerIn(world: World, name: string, json: string): void {
  const fn = 'grip.registerPose';
  world.native(({ ex, heap, w, check }) =>
    heap.withStrings([name, json], fn, (n, j) => check(ex.lbw_register_grip_pose(w, n.ptr, j.ptr, j.len), { fn })),
  );
}

/** Adds a grip pose to `world`'s registry, or replaces one by name (built-ins too, in
 * this world only); other worlds, existing or created later, are not affected. Throws a
 * LimberError naming the bad key ("index.bend[1]: expected a number") and registers
 * nothing on bad input. */
export function registerGripPose(world: World, name: string, def: GripPoseDef | string): void {
  requireWorld(world, 'grip.registerPose', '');
  nameArg(name, 'grip.registerPose', 'name');
  registerIn(world, name, jsonArg(def, 'grip.registerPose', 'pose', 'a GripPoseDef object or its JSON text'));
}

function poseJson(world: World, pose: string | GripPoseDef, byJoint: boolean, fn: string): GripPoseDef {
  const isName = typeof pose === 'string';
  const name = isName ? nameArg(pose, fn, 'name') : '';
  const json = isName ? '' : jsonArg(pose, fn, 'pose', 'a pose name or a GripPoseDef object');
  return world.native(({ ex, heap, w, check }) =>
    heap.withStrings([name, json], fn, (n, j) => {
      const call = (buf: number, cap: number) => ex.lbw_grip_pose_json(w, n.ptr, j.ptr, j.len, byJoint ? 1 : 0, buf, cap);
      const needed = call(0, 0);
      if (needed < 0) check(-needed, { fn });
      return heap.scratch(needed + 1, (buf) => {
        const got = call(buf, needed + 1);
        if (got < 0) check(-got, { fn });
        return JSON.parse(heap.cstring(buf)) as GripPoseDef;
      }, fn);
    }),
  );
}

/** Expands a pose (a name in `world`'s registry or built-in, or a definition) to
 * per-joint form — bend [3] and fan per finger — giving the identical hand: the starting
 * point for editing single joints. */
export function gripPoseByJoint(world: World, pose: string | GripPoseDef): GripPoseDef {
  requireWorld(world, 'grip.poseByJoint', '');
  if (typeof pose !== 'string' && (pose === null || typeof pose !== 'object')) {
    throw badArgument('grip.poseByJoint', 'pose', `must be a pose name or a GripPoseDef object, got ${describe(pose)}`);
  }
  return poseJson(world, pose, true, 'grip.poseByJoint');
}

/** A pose by name (registered in `world` or built-in) as its definition. */
export function gripPoseDef(world: World, name: string): GripPoseDef {
  requireWorld(world, 'grip.poseDef', '');
  if (typeof name !== 'string') throw badArgument('grip.poseDef', 'name', `must be a string, got ${describe(name)}`);
  return poseJson(world, name, false, 'grip.poseDef');
}

export class GripApi {
  /** @internal use `world.grip` */
  constructor(private readonly world: World) {}

  /** Adds a grip pose to this world's registry, or replaces one by name (built-ins too, in
   * this world only); other worlds, existing or created later, are not affected. Throws a
   * LimberError naming the bad key ("index.bend[1]: expected a number") and registers
   * nothing on bad input. */
  readonly registerPose = (name: string, def: GripPoseDef | string): void => registerGripPose(this.world, name, def);
  /** A pose by name (registered in this world or built-in) as its definition. */
  readonly poseDef = (name: string): GripPoseDef => gripPoseDef(this.world, name);
  /** Expands a pose (a name or a definition) to per-joint form — bend [3] and fan per
   * finger — giving the identical hand: the starting point for editing single joints. */
  readonly poseByJoint = (pose: string | GripPoseDef): GripPoseDef => gripPoseByJoint(this.world, pose);
  /** What each hand of a character found and did (hands, fingers, driver, blend, contacts).
   * Throws LB_ERR_MISSING_COMPONENT when the entity has neither GripPose nor GripHolder. */
  readonly status = (entity: Entity): { right: HandGripStatus; left: HandGripStatus } => gripPoseStatus(this.world, entity);
  /** Stores a captured pose under `name` in this world, for GripProfile.mainPose /
   * supportPose. Every joint must exist in one of the world's skeletons; malformed input
   * throws and registers nothing. Captured poses are not mirrored. */
  readonly registerFingerPose = (name: string, pose: FingerPose | string): void => registerFingerPose(this.world, name, pose);
  /** Local rotations of every joint below `handJoint` (path or name) as of the last step:
   * plain JSON to save with the game. It names bones, so it belongs to that skeleton. */
  readonly captureFingerPose = (entity: Entity, handJoint: string): FingerPose => captureFingerPose(this.world, entity, handJoint);

  /** Which hand and finger joints the core finds on an entity's rig (names like RightHand,
   * hand_r, hand.R, mixamorig:RightHand; metacarpals skipped). `handPath` names the hand
   * joint when the names don't match. Throws LB_ERR_JOINT_NOT_FOUND (with the finder's
   * report) when there is no hand. */
  readonly findHand = (entity: Entity, side: 'Right' | 'Left', handPath = ''): HandStatus => {
    const fn = 'grip.findHand';
    const world = this.world;
    return world.native(({ ex, heap, w, check, entity: live }) => {
      const e = live(entity, fn);
      nameArg(handPath, fn, 'handPath');
      if (side !== 'Right' && side !== 'Left') {
        throw new LimberError('LB_ERR_UNKNOWN_NAME', `LB_ERR_UNKNOWN_NAME: ${fn} on ${entityLabel(e)}: field 'side' must be Right or Left, got ${describe(side)}`, { entity: e, field: 'side' });
      }
      const names = world.rig.skeleton(world.get(e, Rig).asset).names;
      const s = side === 'Right' ? 0 : 1;
      return heap.withString(handPath, fn, (path) =>
        heap.scratch(PACKED_HAND_BYTES, (p) => {
          check(ex.lbw_find_hand(w, e, s, path, p, p + 4 * 26), { entity: e, component: 'Rig', fn });
          const hand = decodeHand(heap, p, names, side);
          const full = readReport(heap, (buf, cap) => ex.lbw_find_hand_report(w, e, s, path, buf, cap));
          return full === null ? hand : { ...hand, report: full };
        }),
      );
    });
  };

  /** World transform of a GripHolder's anchor as the last step used it (mirrored when the
   * main hand is not the hand the anchors were placed for); null when nothing is held or
   * the object has no anchor for that role. */
  /** Hangs the held two-handed prop from the holder's chest joint (`placement: 'Object'`)
   * where both hands reach their anchors on every sampled frame of its clips (default idle,
   * walk, run), pointing along the character's forward; writes the prop's Transform and
   * returns it with the worst slack over the frames (grip-place.ts). */
  readonly placeTwoHanded = (holder: Entity, options: PlaceTwoHandedOptions = {}): TwoHandedPlacement => placeTwoHanded(this.world, holder, options);

  readonly anchor = (holder: Entity, role: 'main' | 'support'): JointTransform | null => {
    const fn = 'grip.anchor';
    return this.world.native(({ ex, heap, w, xf, check, entity }) => {
      const h = entity(holder, fn, 'holder');
      if (role !== 'main' && role !== 'support') throw badArgument(fn, 'role', `must be 'main' or 'support', got ${describe(role)}`, 'LB_ERR_UNKNOWN_NAME', h);
      return heap.scratch(xf.size, (p) => {
        const code = ex.lbw_grip_anchor(w, h, role === 'main' ? 0 : 1, p);
        if (code !== 0 && heap.cstring(ex.lbw_result_name(code)) === 'LB_ERR_MISSING_COMPONENT') return null;
        check(code, { entity: h, component: 'GripHolder', fn });
        return readTransforms(heap, xf, p, 1)[0]!;
      });
    });
  };
}
