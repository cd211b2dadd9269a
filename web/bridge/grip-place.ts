/** world.grip.placeTwoHanded: where to hang a two-handed prop (a rifle, a box carried in
 * both arms) on a character so both hands reach their anchors on every frame of its clips.
 *
 * With `placement: 'Hand'` the prop follows the main hand, so a clip that swings the arms
 * (a walk) drags the support anchor out of the other arm's reach: measured 0.31-0.33 m short
 * on the generated mannequin's walk. The prop is instead attached to the chest joint
 * (`placement: 'Object'`, the Transform's `parentJoint`), which moves with the body but not
 * with the arms, at the point that leaves both arms the most slack over every sampled frame:
 * each arm's reach (upper arm + forearm) minus its shoulder-to-anchor distance, kept out of
 * the body too (at least 35 % of the reach). A grid search in the chest's frame, 2.5 cm apart. */
import { badArgument, describe } from './args.js';
import { type ClipHandle, type Entity, GripHolder, GripProfile, Rig, Transform, type Vec3 } from './components.js';
import type { JointTransform, World } from './world.js';

export interface PlaceTwoHandedOptions {
  /** Clips the hold must survive (handles or names of the holder's skeleton); default the
   * clips named idle, walk and run where present, plus the current pose. */
  clips?: readonly (ClipHandle | number | string)[];
  /** Joint the prop hangs from (path or name); default the first of Spine2, spine_03, Chest,
   * chest, Spine1, spine_02, Spine the rig has. */
  joint?: string;
  /** Frames sampled per clip (default 12, 1-120). */
  samples?: number;
}

export interface TwoHandedPlacement {
  joint: string;
  /** The prop's Transform, local to `joint` (metres, quaternion x y z w), now written. */
  position: Vec3;
  rotation: [number, number, number, number];
  /** Worst slack over the sampled frames, metres: >= 0 when both hands reach on every frame. */
  margin: number;
  reached: boolean;
  frames: number;
}

type V = [number, number, number];
type Q = [number, number, number, number];

const CHEST_NAMES = ['Spine2', 'spine_03', 'Chest', 'chest', 'Spine1', 'spine_02', 'Spine'];
const STEP = 0.025;
const NEAR = 0.35; // an anchor closer to its shoulder than this share of the reach folds the arm into the body
const FAR = 0.97; // a straight arm has no slack for the hand's own turn

const add = (a: V, b: V): V => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const scale = (a: V, s: number): V => [a[0] * s, a[1] * s, a[2] * s];
const dot = (a: V, b: V): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V, b: V): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const len = (a: V): number => Math.sqrt(dot(a, a));
const unit = (a: V): V => scale(a, 1 / (len(a) || 1));

function qmul(a: Q, b: Q): Q {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}
const qconj = (q: Q): Q => [-q[0], -q[1], -q[2], q[3]];
function qrot(q: Q, v: V): V {
  const t = scale(cross([q[0], q[1], q[2]], v), 2);
  return add(add(v, scale(t, q[3])), cross([q[0], q[1], q[2]], t));
}

/** The rotation whose columns are x, y, z (orthonormal, right-handed). */
function basisQuat(x: V, y: V, z: V): Q {
  const tr = x[0] + y[1] + z[2];
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    return [(y[2] - z[1]) / s, (z[0] - x[2]) / s, (x[1] - y[0]) / s, s / 4];
  }
  if (x[0] > y[1] && x[0] > z[2]) {
    const s = Math.sqrt(1 + x[0] - y[1] - z[2]) * 2;
    return [s / 4, (y[0] + x[1]) / s, (z[0] + x[2]) / s, (y[2] - z[1]) / s];
  }
  if (y[1] > z[2]) {
    const s = Math.sqrt(1 + y[1] - x[0] - z[2]) * 2;
    return [(y[0] + x[1]) / s, s / 4, (z[1] + y[2]) / s, (z[0] - x[2]) / s];
  }
  const s = Math.sqrt(1 + z[2] - x[0] - y[1]) * 2;
  return [(z[0] + x[2]) / s, (z[1] + y[2]) / s, s / 4, (x[1] - y[0]) / s];
}

/** An orthonormal frame with z along `fwd` and y as near `up` as it can be. */
function frame(fwd: V, up: V): [V, V, V] {
  const z = unit(fwd);
  const x = unit(cross(up, z));
  return [x, cross(z, x), z];
}

/** Model-space positions, rotations and scales of every joint of one local pose (a scale is
 * carried per axis: rigs scale uniformly, a cm rig's root by 0.01). */
function modelSpace(pose: JointTransform[], parents: number[]): { p: V[]; r: Q[]; s: V[] } {
  const p: V[] = [];
  const r: Q[] = [];
  const s: V[] = [];
  pose.forEach((j, i) => {
    const [t, q, sc] = [[...j.t] as V, [...j.r] as Q, [...j.s] as V];
    const k = parents[i]!;
    if (k < 0) {
      p.push(t);
      r.push(q);
      s.push(sc);
      return;
    }
    const ps = s[k]!;
    p.push(add(p[k]!, qrot(r[k]!, [t[0] * ps[0], t[1] * ps[1], t[2] * ps[2]])));
    r.push(qmul(r[k]!, q));
    s.push([ps[0] * sc[0], ps[1] * sc[1], ps[2] * sc[2]]);
  });
  return { p, r, s };
}

interface Arm {
  shoulder: V[];
  reach: number;
}
interface Rigging {
  chest: number;
  chestName: string;
  /** chest-local: shoulder per frame and reach, main arm then support arm */
  arms: [Arm, Arm];
  /** chest-local: the character's forward (+Z) and up (+Y) in the first frame */
  forward: V;
  up: V;
  /** the chest joint's model-space scale (a child's position is in its scaled units) */
  chestScale: number;
  frames: number;
}

function clipHandles(world: World, asset: number, clips: PlaceTwoHandedOptions['clips'], fn: string): ClipHandle[] {
  if (clips === undefined) return ['idle', 'walk', 'run'].map((n) => world.anim.findClip(n, asset)).filter((h) => h !== 0);
  if (!Array.isArray(clips)) throw badArgument(fn, 'options.clips', `must be an array of clip handles or names, got ${describe(clips)}`);
  return clips.map((c, i) => {
    const h = typeof c === 'string' ? world.anim.findClip(c, asset) : c;
    if (typeof h !== 'number' || h === 0) throw badArgument(fn, `options.clips[${i}]`, `= ${describe(c)} is not a clip of the holder's skeleton`, 'LB_ERR_UNKNOWN_NAME');
    return h as ClipHandle;
  });
}

function rigging(world: World, holder: Entity, mainSide: 'Right' | 'Left', options: PlaceTwoHandedOptions, fn: string): Rigging {
  const asset = world.get(holder, Rig).asset;
  const { names, parents } = world.rig.skeleton(asset);
  const chestName = options.joint ?? CHEST_NAMES.find((n) => world.rig.findJoint(asset, n) >= 0);
  const chest = chestName === undefined ? -1 : world.rig.findJoint(asset, chestName);
  if (chestName === undefined || chest < 0) throw badArgument(fn, 'options.joint', `= ${describe(options.joint)}: no chest joint found (${CHEST_NAMES.join(', ')}); name one`, 'LB_ERR_JOINT_NOT_FOUND', holder);
  const samples = options.samples ?? 12;
  if (!Number.isInteger(samples) || samples < 1 || samples > 120) throw badArgument(fn, 'options.samples', `must be a whole number in [1, 120], got ${describe(samples)}`, 'LB_ERR_OUT_OF_RANGE', holder);
  const poses: JointTransform[][] = [world.localPose(holder)];
  for (const clip of clipHandles(world, asset, options.clips, fn)) {
    const duration = world.anim.listClips(asset).find((c) => c.handle === clip)?.duration ?? 0;
    for (let k = 0; k < samples; k++) poses.push(world.anim.sampleClip(clip, (duration * k) / samples, { loop: true }));
  }
  const armJoints = (side: 'Right' | 'Left'): [number, number, number] => {
    const hand = names.indexOf(world.grip.findHand(holder, side).hand);
    const fore = parents[hand]!;
    return [parents[fore]!, fore, hand];
  };
  const joints = [armJoints(mainSide), armJoints(mainSide === 'Right' ? 'Left' : 'Right')];
  const arms: [Arm, Arm] = [
    { shoulder: [], reach: 0 },
    { shoulder: [], reach: 0 },
  ];
  let forward: V = [0, 0, 1];
  let up: V = [0, 1, 0];
  let chestScale = 1;
  poses.forEach((pose, f) => {
    const m = modelSpace(pose, parents);
    const inv = qconj(m.r[chest]!);
    const local = (v: V): V => qrot(inv, sub(v, m.p[chest]!));
    if (f === 0) [forward, up, chestScale] = [qrot(inv, [0, 0, 1]), qrot(inv, [0, 1, 0]), m.s[chest]![0]];
    joints.forEach(([s, e, h], a) => {
      arms[a]!.shoulder.push(local(m.p[s]!));
      if (f === 0) arms[a]!.reach = len(sub(m.p[e]!, m.p[s]!)) + len(sub(m.p[h]!, m.p[e]!));
    });
  });
  return { chest, chestName, arms, forward, up, chestScale, frames: poses.length };
}

/** Worst slack of one main-anchor position over every frame (metres). */
function slack(rig: Rigging, main: V, span: V): number {
  let worst = Infinity;
  const ends = [main, add(main, span)];
  rig.arms.forEach((arm, a) => {
    for (const s of arm.shoulder) {
      const d = len(sub(ends[a]!, s));
      worst = Math.min(worst, FAR * arm.reach - d, d - NEAR * arm.reach);
    }
  });
  return worst;
}

/** Grid search over main-anchor positions in the chest's frame. Most slack is not the most
 * natural hold (it drifts to wherever the arms are longest), so among the positions with
 * enough slack (5 cm, or half the best when less is possible) the one nearest a low-ready
 * hold wins: 0.25 m in front of the chest joint, 0.25 m below it, 0.12 m to the main side. */
function search(rig: Rigging, span: V): { main: V; margin: number } {
  const [x, y, z] = frame(rig.forward, rig.up);
  const side = dot(rig.arms[0].shoulder[0]!, x) >= 0 ? 1 : -1;
  const natural = add(add(scale(z, 0.25), scale(y, -0.25)), scale(x, 0.12 * side));
  const grid: { main: V; margin: number }[] = [];
  for (let i = -14; i <= 14; i++) {
    for (let j = -24; j <= 8; j++) {
      for (let k = 2; k <= 24; k++) {
        const main = add(add(scale(x, i * STEP), scale(y, j * STEP)), scale(z, k * STEP));
        grid.push({ main, margin: slack(rig, main, span) });
      }
    }
  }
  const best = Math.max(...grid.map((g) => g.margin));
  const enough = best > 0 ? Math.min(0.05, best / 2) : best;
  let pick = grid[0]!;
  let off = Infinity;
  for (const g of grid) {
    const d = len(sub(g.main, natural));
    if (g.margin >= enough && d < off) [pick, off] = [g, d];
  }
  return pick;
}

export function placeTwoHanded(world: World, holder: Entity, options: PlaceTwoHandedOptions = {}): TwoHandedPlacement {
  const fn = 'grip.placeTwoHanded';
  if (options === null || typeof options !== 'object') throw badArgument(fn, 'options', `must be an object, got ${describe(options)}`);
  const held = world.get(holder, GripHolder);
  if (held.held === null) throw badArgument(fn, 'holder', `holds nothing (GripHolder.held is null)`, 'LB_ERR_INVALID_ARGUMENT', holder);
  const prop = held.held;
  const profile = world.get(prop, GripProfile);
  const anchor = (e: Entity | null, role: string): JointTransform => {
    const t = e === null ? null : world.get(e, Transform);
    if (t === null || t.parent !== prop) throw badArgument(fn, `GripProfile.${role}Anchor`, `must be an entity whose Transform's parent is the held object`, 'LB_ERR_INVALID_ARGUMENT', prop);
    return { t: t.position, r: t.rotation, s: t.scale };
  };
  const [mainA, supA] = [anchor(profile.mainAnchor, 'main'), anchor(profile.supportAnchor, 'support')];
  const rig = rigging(world, holder, held.mainHand, options, fn);
  // The prop points along the character's forward: its main -> support axis on the chest's
  // forward, its own +Y as near the chest's up as that allows.
  const axis = sub(supA.t as V, mainA.t as V);
  const [px, py, pz] = frame(axis, [0, 1, 0]);
  const [cx, cy, cz] = frame(rig.forward, rig.up);
  const rotation = qmul(basisQuat(cx, cy, cz), qconj(basisQuat(px, py, pz)));
  const span = qrot(rotation, axis);
  const { main, margin } = search(rig, span);
  const position = scale(sub(main, qrot(rotation, mainA.t as V)), 1 / rig.chestScale);
  // Under a scaled joint (a centimetre rig) the prop keeps its own size.
  const size = scale(world.get(prop, Transform).scale as V, 1 / rig.chestScale);
  world.update(prop, Transform, () => ({ parent: holder, parentJoint: rig.chestName, position, rotation, scale: size }));
  world.update(holder, GripHolder, () => ({ placement: 'Object' as const }));
  return { joint: rig.chestName, position, rotation, margin, reached: margin >= 0, frames: rig.frames };
}
