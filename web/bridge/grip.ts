/** Grip functions beside the components: captured finger poses and per-hand status. */
import { type Entity, GripHolder, GripPose, type HandSide } from './components.js';
import { LimberError } from './errors.js';
import { entityLabel, FINGERS, type FingerName, type World } from './world.js';

/** A captured finger pose: local rotations [x, y, z, w] of the joints below a hand. */
export interface FingerPose {
  hand?: string;
  joints: Record<string, [number, number, number, number]>;
}

/** Local rotations of every joint below `handJoint` (path or name) as of the last step:
 * plain JSON to save with the game. It names bones, so it belongs to that skeleton. */
export function captureFingerPose(world: World, entity: Entity, handJoint: string): FingerPose {
  return world.native(({ ex, heap, w, check }) => {
    const hand = heap.string(handJoint);
    try {
      const needed = ex.lbw_capture_finger_pose(w, entity >>> 0, hand.ptr, 0, 0);
      if (needed < 0) check(-needed, { entity, component: 'Rig' });
      return heap.scratch(needed + 1, (buf) => {
        const n = ex.lbw_capture_finger_pose(w, entity >>> 0, hand.ptr, buf, needed + 1);
        if (n < 0) check(-n, { entity, component: 'Rig' });
        return JSON.parse(heap.cstring(buf)) as FingerPose;
      });
    } finally {
      ex.lbw_free(hand.ptr);
    }
  });
}

/** Stores a captured pose under `name` in this world, for GripProfile.mainPose /
 * supportPose. Every joint must exist in one of the world's skeletons; malformed input
 * throws and registers nothing. Captured poses are not mirrored. */
export function registerFingerPose(world: World, name: string, pose: FingerPose | string): void {
  const text = typeof pose === 'string' ? pose : JSON.stringify(pose);
  world.native(({ ex, heap, w, check }) => {
    const n = heap.string(name);
    const j = heap.string(text);
    try {
      check(ex.lbw_register_finger_pose(w, n.ptr, j.ptr, j.len));
    } finally {
      ex.lbw_free(n.ptr);
      ex.lbw_free(j.ptr);
    }
  });
}

export type GripDriver = 'none' | 'pose' | 'main' | 'support';

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
}

const DRIVERS: GripDriver[] = ['none', 'pose', 'main', 'support'];

/** What each hand of a character found and did (the seed's gripPoseStatus). Throws
 * LB_ERR_MISSING_COMPONENT when the entity has neither GripPose nor GripHolder. */
export function gripPoseStatus(world: World, entity: Entity): { right: HandGripStatus; left: HandGripStatus } {
  const one = (side: HandSide): HandGripStatus => {
    const st = world.native(({ ex, heap, w }) =>
      heap.scratch(32, (p) => {
        const code = ex.lbw_grip_hand_status(w, entity >>> 0, side === 'Right' ? 0 : 1, p);
        if (code !== 0) {
          const name = heap.cstring(ex.lbw_result_name(code));
          throw new LimberError(name, `${name}: gripPoseStatus: ${entityLabel(entity)} has no GripPose or GripHolder`, { entity });
        }
        const u = new Uint32Array(ex.memory.buffer, p, 8);
        const f = new Float32Array(ex.memory.buffer, p, 8);
        return { driver: DRIVERS[u[0]] ?? 'none', blend: f[3], palmDistance: f[4], contacts: u[5], indexLength: f[7] };
      }),
    );
    let found: ReturnType<World['findHand']> | null = null;
    let report = '';
    try {
      const key = side === 'Right' ? 'rightHand' : 'leftHand';
      const holderPath = world.has(entity, GripHolder) ? world.get(entity, GripHolder)[key] : '';
      const posePath = world.has(entity, GripPose) ? world.get(entity, GripPose)[key] : '';
      found = world.findHand(entity, side, holderPath || posePath);
      report = found.report;
    } catch (err) {
      if (!(err instanceof LimberError) || err.code !== 'LB_ERR_JOINT_NOT_FOUND') throw err;
      report = err.message;
    }
    return {
      side,
      hand: found ? found.hand : null,
      fingers: found ? found.fingers : (Object.fromEntries(FINGERS.map((f) => [f, null])) as Record<FingerName, null>),
      missing: found ? found.missing : [...FINGERS],
      report,
      driver: st.driver,
      blend: st.blend,
      palmDistance: st.palmDistance,
      contacts: FINGERS.filter((_, k) => (st.contacts >> k) & 1),
      indexLength: st.indexLength,
    };
  };
  return { right: one('Right'), left: one('Left') };
}
