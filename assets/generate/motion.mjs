// The motion of every clip, written once in anatomical terms on the canonical body
// (see body.mjs) and converted to each rig's own joint frames by clips.mjs.
// Units: metres, seconds; angle parameters in degrees (times DEG for radians).
// Model axes: facing +Z, Y up, the character's left = +X. A pose is sampled from
// time alone (no state), so every key is reproducible on its own.
import { add, curve, DEG, frac, lerp, lerp3, normalize, qbend, qchain, qFromFrames, qmul, qrot, qslerp, qx, qy, qz, QI, smooth, sub } from './math.mjs';

const SIDES = [
  { side: 'Left', sx: 1 },
  { side: 'Right', sx: -1 },
];
const FINGERS = ['Index', 'Middle', 'Ring', 'Pinky'];
/** Heel contact point in the foot joint's frame (the toe joint is the other contact). */
const HEEL = [0, -0.08, -0.05];
/** Legs stop just short of straight so knees never snap. */
const LEG_REACH = 0.995;

const rx = (a) => qx(a * DEG);

// ---- building blocks ---------------------------------------------------------

/** Relaxed finger curl (degrees at the first joint; later joints a bit more). */
function fingers(body, pose, side, sx, curl, thumb) {
  const palm = [0, -1, 0]; // palms face down in the T-pose
  for (const f of FINGERS) {
    for (let s = 1; s <= 3; s++) {
      const dir = normalize(body.offset[body.j(`${side}Hand${f}${s + 1}`)]);
      body.set(pose, `${side}Hand${f}${s}`, qbend(dir, palm, curl * [1, 1.25, 0.9][s - 1] * DEG));
    }
  }
  for (let s = 1; s <= 3; s++) {
    const dir = normalize(body.offset[body.j(`${side}HandThumb${s + 1}`)]);
    // The thumb folds toward the palm and across it.
    body.set(pose, `${side}HandThumb${s}`, qbend(dir, normalize([sx * 0.4, -1, -0.3]), thumb * DEG));
  }
}

/** Arm hanging `down` degrees from the T-pose, swung forward `swing` degrees, elbow bent. */
function armFK(body, pose, side, sx, { down, swing, elbow }) {
  body.set(pose, `${side}Arm`, qmul(rx(-swing), qz(-sx * down * DEG)));
  body.set(pose, `${side}ForeArm`, qbend([sx, 0, 0], [0, 0, 1], elbow * DEG));
  body.set(pose, `${side}Hand`, QI);
}

/** Spine chain: total lean (forward, degrees) and yaw spread over three joints. */
function spine(body, pose, lean, yaw, breathe = 0) {
  body.set(pose, 'Spine', qmul(qy((yaw / 3) * DEG), rx(lean / 3)));
  body.set(pose, 'Spine1', qmul(qy((yaw / 3) * DEG), rx(lean / 3 - breathe)));
  body.set(pose, 'Spine2', qmul(qy((yaw / 3) * DEG), rx(lean / 3 - breathe)));
}

/** Head level (or pitched `pitch` degrees down) whatever the spine does. */
function headLevel(body, pose, pitch = 0) {
  body.set(pose, 'Neck', QI);
  body.setModel(pose, 'Head', rx(pitch));
}

/** Foot joint (ankle) position for a toe position and foot pitch (+ = toes down). */
function ankleFromToe(body, side, toe, pf) {
  return sub(toe, qrot(rx(pf), body.offset[body.j(`${side}ToeBase`)]));
}

/** Leg to an ankle target, knee toward `pole`; foot and toes at model pitches. */
function leg(body, pose, side, ankle, pf, toePitch, pole) {
  const miss = body.limb(pose, `${side}UpLeg`, `${side}Leg`, `${side}Foot`, ankle, pole, [0, 0, 1]);
  body.setModel(pose, `${side}Foot`, rx(pf));
  body.setModel(pose, `${side}ToeBase`, rx(toePitch));
  return miss;
}

/** Highest root height at which the leg still reaches `ankle` (given root x/z and hip rotation). */
function rootLimit(body, pose, side, ankle) {
  const j = body.j(`${side}UpLeg`);
  const l = LEG_REACH * 0.999 * (Math.hypot(...body.offset[body.j(`${side}Leg`)]) + Math.hypot(...body.offset[body.j(`${side}Foot`)]));
  const off = qrot(pose.local[0], body.offset[j]);
  const dx = pose.root[0] + off[0] - ankle[0];
  const dz = pose.root[2] + off[2] - ankle[2];
  const h2 = l * l - dx * dx - dz * dz;
  return h2 > 0 ? ankle[1] + Math.sqrt(h2) - off[1] : Infinity;
}

// ---- gait (walk, run) -----------------------------------------------------------

/**
 * One foot of a gait at time t. The left foot strikes at phase 0, the right at 0.5.
 * Stance: heel rocker (toes come down), flat, toe rocker (heel lifts) with the toe
 * joint fixed on the ground; swing: the ankle travels to the next heel strike.
 */
function gaitFoot(body, g, side, t, offset) {
  const restToe = body.restPos[body.j(`${side}ToeBase`)];
  const toeOff = body.offset[body.j(`${side}ToeBase`)];
  // Toe joint z of the stance that starts at time s: the stance is centred `centre` m ahead of the root.
  const plant = (s) => g.v * (s + (g.duty * g.T) / 2) + g.centre + restToe[2];
  const stance = (strike, sg) => {
    const toe = [restToe[0], restToe[1], plant(strike)];
    if (sg < g.heelRock) {
      const pf = -g.toeUp * (1 - smooth(sg / g.heelRock));
      const heel = add(sub(toe, toeOff), HEEL);
      return { ankle: sub(heel, qrot(rx(pf), HEEL)), pf, toePitch: pf, contact: true, planted: false };
    }
    const pf = sg > g.roll ? g.pfOff * smooth((sg - g.roll) / (1 - g.roll)) : 0;
    return { ankle: ankleFromToe(body, side, toe, pf), pf, toePitch: 0, contact: true, planted: true };
  };
  const tau = t / g.T - offset;
  const c = Math.floor(tau);
  const psi = tau - c;
  const strike = (c + offset) * g.T;
  if (psi < g.duty) return stance(strike, psi / g.duty);
  const s = (psi - g.duty) / (1 - g.duty);
  const from = stance(strike, 1).ankle;
  const to = stance(strike + g.T, 0).ankle;
  const ankle = lerp3(from, to, smooth(s ** g.swingBias));
  ankle[1] += g.lift * Math.sin(Math.PI * s ** g.liftBias);
  const pf = lerp(g.pfOff, -g.toeUp, smooth(s));
  return { ankle, pf, toePitch: pf * smooth(s / 0.3), contact: false, planted: false };
}

function gaitPose(body, g, t) {
  const pose = body.pose();
  const phase = frac(t / g.T);
  const w = 2 * Math.PI * phase;
  // The pelvis turns its swinging side forward and dips toward it, and sways over the stance foot.
  pose.root = [g.sway * Math.sin(w), 0, g.v * t];
  pose.local[0] = qchain(qy(-g.hipYaw * Math.cos(w) * DEG), qz(g.hipRoll * Math.sin(w) * DEG), rx(g.hipPitch));
  const feet = SIDES.map(({ side }, i) => gaitFoot(body, g, side, t, i * 0.5));
  // Root height: as high as `nominal` allows while each foot can still be reached.
  const flight = g.bounce * Math.sin(2 * w - g.bouncePhase) ** 2;
  let y = body.restPos[0][1] - g.drop + flight;
  SIDES.forEach(({ side }, i) => {
    y = Math.min(y, rootLimit(body, pose, side, feet[i].ankle));
  });
  pose.root[1] = y;
  spine(body, pose, g.lean - g.hipPitch, g.chestYaw * Math.cos(w));
  headLevel(body, pose, 4);
  const pole = qrot(pose.local[0], [0, 0, 1]);
  SIDES.forEach(({ side }, i) => leg(body, pose, side, feet[i].ankle, feet[i].pf, feet[i].toePitch, pole));
  SIDES.forEach(({ side, sx }) => {
    // Each arm swings with the opposite leg: the left arm is forward at phase 0.5.
    const swing = -sx * g.armSwing * Math.cos(w);
    armFK(body, pose, side, sx, { down: g.armDown, swing, elbow: g.elbow + g.elbowSwing * Math.max(0, swing / g.armSwing) });
    fingers(body, pose, side, sx, g.curl, g.thumb);
  });
  return { pose, contact: feet.map((f) => f.contact), planted: feet.map((f) => f.planted) };
}

export const WALK = {
  T: 1.0, v: 1.4, duty: 0.58, centre: -0.05, heelRock: 0.12, roll: 0.45, toeUp: 12, pfOff: 30,
  lift: 0.05, liftBias: 1, swingBias: 1, drop: 0.02, bounce: 0, bouncePhase: 0, sway: 0.02,
  hipYaw: 5, hipRoll: 3, hipPitch: 2, lean: 5, chestYaw: 8,
  armDown: 76, armSwing: 16, elbow: 12, elbowSwing: 16, curl: 18, thumb: 12,
};
export const RUN = {
  T: 0.7, v: 3.5, duty: 0.32, centre: -0.05, heelRock: 0.12, roll: 0.35, toeUp: 6, pfOff: 35,
  lift: 0.2, liftBias: 0.7, swingBias: 1.3, drop: 0.07, bounce: 0.05, bouncePhase: 0.6, sway: 0.01,
  hipYaw: 8, hipRoll: 3, hipPitch: 5, lean: 14, chestYaw: 14,
  armDown: 72, armSwing: 30, elbow: 80, elbowSwing: 12, curl: 50, thumb: 25,
};

// ---- idle, reach, vault -----------------------------------------------------------

/** Standing: both toes on their rest spots, pelvis swaying; `phase` in [0, 1). */
function standing(body, phase) {
  const pose = body.pose();
  const w = 2 * Math.PI * phase;
  pose.root = [0.012 * Math.sin(w), 0, 0];
  pose.local[0] = qz(-1.5 * Math.sin(w) * DEG);
  const ankles = SIDES.map(({ side }) => ankleFromToe(body, side, body.restPos[body.j(`${side}ToeBase`)], 0));
  let y = body.restPos[0][1] - 0.003;
  SIDES.forEach(({ side }, i) => {
    y = Math.min(y, rootLimit(body, pose, side, ankles[i]));
  });
  pose.root[1] = y;
  return { pose, ankles };
}

function standingLegs(body, pose, ankles) {
  const pole = [0, 0, 1];
  SIDES.forEach(({ side }, i) => leg(body, pose, side, ankles[i], 0, 0, pole));
}

function idlePose(body, t) {
  const phase = frac(t / 2);
  const { pose, ankles } = standing(body, phase);
  const breath = Math.sin(2 * Math.PI * phase);
  spine(body, pose, 1, 0, 1.2 * breath);
  headLevel(body, pose, 2 - 1.2 * breath);
  SIDES.forEach(({ side, sx }) => {
    body.set(pose, `${side}Shoulder`, qz(sx * 1.5 * (0.5 + 0.5 * breath) * DEG));
    armFK(body, pose, side, sx, { down: 80, swing: 0, elbow: 10 });
    fingers(body, pose, side, sx, 15, 10);
  });
  standingLegs(body, pose, ankles);
  return { pose, contact: [true, true], planted: [true, true] };
}

/** Wrist target of the reach and the hand's model rotation there (palm facing left, fingers forward). */
export const REACH_TARGET = [-0.2, 1.2, 0.45];
const REACH_HAND = qFromFrames([-1, 0, 0], [0, -1, 0], normalize([0, -0.15, 1]), [1, 0, 0]);

/** Blends an arm from its current (FK) local rotations to an IK solution by weight w. */
function armBlendIK(body, pose, side, w, target, handModel, pole, restPole) {
  const ik = { root: pose.root, local: pose.local.slice() };
  const miss = body.limb(ik, `${side}Arm`, `${side}ForeArm`, `${side}Hand`, target, pole, restPole);
  body.setModel(ik, `${side}Hand`, handModel);
  for (const r of [`${side}Arm`, `${side}ForeArm`, `${side}Hand`]) {
    const j = body.j(r);
    pose.local[j] = qslerp(pose.local[j], ik.local[j], w);
  }
  return miss;
}

function reachPose(body, t) {
  const { pose, ankles } = standing(body, 0);
  const w = smooth(t / 0.45) * (1 - smooth((t - 0.8) / 0.4));
  const grasp = smooth((t - 0.45) / 0.2) * (1 - smooth((t - 0.8) / 0.25));
  spine(body, pose, 1 + 9 * w, 12 * w);
  headLevel(body, pose, 2 + 10 * w);
  SIDES.forEach(({ side, sx }) => {
    armFK(body, pose, side, sx, { down: 80, swing: 0, elbow: 10 });
    fingers(body, pose, side, sx, side === 'Right' ? 15 - 11 * w + 45 * grasp : 15, side === 'Right' ? 10 + 25 * grasp : 10);
  });
  // The right elbow stays down and out; its rest bend direction is backward (-Z).
  const miss = w > 0 ? armBlendIK(body, pose, 'Right', w, REACH_TARGET, REACH_HAND, [-0.5, -1, -0.2], [0, 0, -1]) : 0;
  standingLegs(body, pose, ankles);
  return { pose, contact: [true, true], planted: [true, true], miss };
}

/** The vault's obstacle (for the record and the tests): a box, metres, model space. */
export const VAULT_BOX = { min: [-0.6, 0, 0.7], max: [0.6, 0.75, 1.1] };
/** Wrist plant spots on top of the box, and when both hands are fully planted. */
export const VAULT_PLANT = { left: [0.2, 0.78, 0.9], right: [-0.2, 0.78, 0.9], from: 0.22, to: 0.38 };
const VAULT_END_Z = 2.1;
const VAULT_LAND_Z = VAULT_END_Z - 0.05; // toes land a little behind where they stand at the end

const vaultZ = curve([[0, 0], [0.2, 0.32], [0.38, 0.55], [0.6, 1.3], [0.9, 1.85], [1.2, VAULT_END_Z]], { start: 1.6, end: 0.8 });
const vaultY = curve([[0, 0.95], [0.12, 0.86], [0.2, 0.98], [0.38, 1.17], [0.52, 1.32], [0.7, 1.25], [0.85, 0.98], [0.95, 0.86], [1.05, 0.84], [1.2, 0.95]]);
const vaultLean = curve([[0, 10], [0.12, 30], [0.2, 65], [0.38, 95], [0.56, 45], [0.8, 20], [0.95, 25], [1.2, 5]]);
const vaultDown = curve([[0, 70], [0.6, 35], [0.9, 45], [1.2, 75]]);
const vaultSwing = curve([[0, 10], [0.6, 40], [0.9, 30], [1.2, 5]]);
const vaultElbow = curve([[0, 30], [0.6, 40], [1.2, 15]]);
const PALM_DOWN = (sx) => qFromFrames([sx, 0, 0], [0, -1, 0], [0, 0, 1], [0, -1, 0]);

function vaultPose(body, t) {
  const pose = body.pose();
  const lean = vaultLean(t);
  pose.root = [0, vaultY(t), vaultZ(t)];
  pose.local[0] = rx(lean * 0.5);
  spine(body, pose, lean * 0.5, 0);
  headLevel(body, pose, 0.3 * lean);
  const tuck = smooth((t - 0.15) / 0.2) * (1 - smooth((t - 0.62) / 0.2));
  const plant = smooth((t - (VAULT_PLANT.from - 0.12)) / 0.12) * (1 - smooth((t - VAULT_PLANT.to) / 0.12));
  const fk = body.fk(pose);
  const pole = qrot(pose.local[0], [0, 0.3, 1]);
  const contact = [];
  const legMiss = [];
  SIDES.forEach(({ side }) => {
    const restToe = body.restPos[body.j(`${side}ToeBase`)];
    const toe = t < 0.5 ? restToe : add(restToe, [0, 0, VAULT_LAND_Z]);
    const planted = ankleFromToe(body, side, toe, 0);
    const tucked = add(fk.pos[body.j(`${side}UpLeg`)], qrot(pose.local[0], [0, -0.2, 0.15]));
    const miss = leg(body, pose, side, lerp3(planted, tucked, tuck), -15 * tuck, -15 * tuck, pole);
    legMiss.push(miss);
    contact.push(tuck === 0 && miss === 0);
  });
  const miss = [];
  SIDES.forEach(({ side, sx }) => {
    armFK(body, pose, side, sx, { down: vaultDown(t), swing: vaultSwing(t), elbow: vaultElbow(t) });
    fingers(body, pose, side, sx, lerp(20, 4, plant), lerp(15, 5, plant));
    const target = side === 'Left' ? VAULT_PLANT.left : VAULT_PLANT.right;
    miss.push(plant > 0 ? armBlendIK(body, pose, side, plant, target, PALM_DOWN(sx), [sx * 0.5, 0, -1], [0, 0, -1]) : 0);
  });
  return { pose, contact, planted: contact, miss, legMiss, plant };
}

/**
 * The clips. `sample(body, t)` gives the canonical pose at t seconds; looping
 * clips are sampled on [0, cycle) and the last key repeats the first, shifted by
 * the loop's root displacement, so the seam is exact.
 */
export const CLIPS = [
  { name: 'idle', duration: 2.0, loop: true, displacement: [0, 0, 0], sample: idlePose, note: 'breathing and a slow sway; one breath per loop' },
  { name: 'walk', duration: WALK.T, loop: true, displacement: [0, 0, WALK.v * WALK.T], speed: WALK.v, sample: (b, t) => gaitPose(b, WALK, t), note: 'left heel strikes at phase 0, right at 0.5; root motion in the Hips translation' },
  { name: 'run', duration: RUN.T, loop: true, displacement: [0, 0, RUN.v * RUN.T], speed: RUN.v, sample: (b, t) => gaitPose(b, RUN, t), note: 'same phase layout as walk: left foot down at phase 0, right at 0.5' },
  { name: 'vault', duration: 1.2, loop: false, sample: vaultPose, note: 'one-shot over a box 0.75 m high from z 0.7 to 1.1 m: hands plant on top, legs tuck, land 2.1 m ahead' },
  { name: 'reach', duration: 1.2, loop: false, sample: reachPose, note: 'one-shot: the right hand reaches forward to a point 1.2 m high, grasps, returns' },
];

