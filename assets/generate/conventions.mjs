// Test rigs in the conventions of other tools, derived from the canonical (Mixamo-named)
// humanoid so that they share its hand geometry (bone lengths and rest positions in the
// palm frame) while differing in everything else a grip has to cope with:
//
//   vrm         VRM 1.0 humanoid names (rightThumbMetacarpal, rightIndexProximal, ...),
//               no end joints, identity rest rotations.
//   biped       3ds Max Biped names (Bip01 R Hand, Bip01 R Finger0 = thumb, Finger01,
//               Finger0Nub, ...), each joint's local +X along its bone, the skeleton under
//               an armature node turned -90 degrees about X and scaled 0.01: joint units
//               are centimetres in a Z-up frame.
//   daz4        Daz/Genesis-style names (rThumb1, rIndex1, rMid1, rRing1), four fingers
//               (no pinky), no end joints, arms in an A-pose (45 degrees down) and an
//               arbitrary roll on every joint.
//
// Each rig has the fields rigGlb expects ({naming, names, parents, rest, pos, rot, roles,
// jointOf}) plus, where needed, `motionRot` (the joint frames in the T-pose the canonical
// motion is written for) and `armature` (rotation and uniform scale of the node above
// the root). Positions and rotations here are model space in metres (Y up).
import { add, cross, DEG, dot, normalize, qaxis, qconj, qmul, qrot, QI, sub } from './math.mjs';

const SIDES = [
  ['Left', 'left', 'L', 'l'],
  ['Right', 'right', 'R', 'r'],
];
const FINGERS = ['Thumb', 'Index', 'Middle', 'Ring', 'Pinky'];

/** Joint name per canonical (Mixamo) name, or null to leave the joint out. */
function vrmName(role) {
  const body = {
    Hips: 'hips', Spine: 'spine', Spine1: 'chest', Spine2: 'upperChest', Neck: 'neck', Head: 'head', HeadTop_End: null,
  };
  if (role in body) return body[role];
  for (const [S, s] of SIDES) {
    const limb = { Shoulder: 'Shoulder', Arm: 'UpperArm', ForeArm: 'LowerArm', Hand: 'Hand', UpLeg: 'UpperLeg', Leg: 'LowerLeg', Foot: 'Foot', ToeBase: 'Toes', Toe_End: null };
    for (const [k, v] of Object.entries(limb)) if (role === `${S}${k}`) return v && `${s}${v}`;
    const m = new RegExp(`^${S}Hand(${FINGERS.join('|')})([1-4])$`).exec(role);
    if (m) {
      const f = m[1] === 'Pinky' ? 'Little' : m[1];
      const seg = m[1] === 'Thumb' ? ['Metacarpal', 'Proximal', 'Distal', null] : ['Proximal', 'Intermediate', 'Distal', null];
      const part = seg[Number(m[2]) - 1];
      return part && `${s}${f}${part}`;
    }
  }
  throw new Error(`assets: no VRM name for ${role}`);
}

function bipedName(role) {
  const body = {
    Hips: 'Bip01 Pelvis', Spine: 'Bip01 Spine', Spine1: 'Bip01 Spine1', Spine2: 'Bip01 Spine2', Neck: 'Bip01 Neck', Head: 'Bip01 Head', HeadTop_End: 'Bip01 HeadNub',
  };
  if (role in body) return body[role];
  for (const [S, , L] of SIDES) {
    const limb = { Shoulder: 'Clavicle', Arm: 'UpperArm', ForeArm: 'Forearm', Hand: 'Hand', UpLeg: 'Thigh', Leg: 'Calf', Foot: 'Foot', ToeBase: 'Toe0', Toe_End: 'Toe0Nub' };
    for (const [k, v] of Object.entries(limb)) if (role === `${S}${k}`) return `Bip01 ${L} ${v}`;
    const m = new RegExp(`^${S}Hand(${FINGERS.join('|')})([1-4])$`).exec(role);
    if (m) {
      const f = FINGERS.indexOf(m[1]);
      const seg = Number(m[2]);
      return `Bip01 ${L} Finger${f}${seg === 1 ? '' : seg === 4 ? 'Nub' : seg - 1}`;
    }
  }
  throw new Error(`assets: no Biped name for ${role}`);
}

function dazName(role) {
  const body = {
    Hips: 'hip', Spine: 'abdomenLower', Spine1: 'abdomenUpper', Spine2: 'chestUpper', Neck: 'neckLower', Head: 'head', HeadTop_End: null,
  };
  if (role in body) return body[role];
  for (const [S, , , l] of SIDES) {
    const limb = { Shoulder: 'Collar', Arm: 'ShldrBend', ForeArm: 'ForearmBend', Hand: 'Hand', UpLeg: 'ThighBend', Leg: 'Shin', Foot: 'Foot', ToeBase: 'Toe', Toe_End: null };
    for (const [k, v] of Object.entries(limb)) if (role === `${S}${k}`) return v && `${l}${v}`;
    const m = new RegExp(`^${S}Hand(${FINGERS.join('|')})([1-4])$`).exec(role);
    if (m) {
      if (m[1] === 'Pinky' || m[2] === '4') return null;
      return `${l}${m[1] === 'Middle' ? 'Mid' : m[1]}${m[2]}`;
    }
  }
  throw new Error(`assets: no Daz name for ${role}`);
}

/** Rotation whose +X is `x` (unit), with +Y as close to `up` as the bone allows. */
function frameAlong(x, up) {
  let ref = Math.abs(dot(x, up)) > 0.95 ? [0, 0, 1] : up;
  const z = normalize(cross(x, ref));
  const y = cross(z, x);
  return fromColumns(x, y, z);
}

function fromColumns(c0, c1, c2) {
  const m00 = c0[0], m10 = c0[1], m20 = c0[2], m01 = c1[0], m11 = c1[1], m21 = c1[2], m02 = c2[0], m12 = c2[1], m22 = c2[2];
  const tr = m00 + m11 + m22;
  let q;
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    q = [(m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, 0.25 * s];
  } else if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
    q = [0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s];
  } else if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
    q = [(m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s];
  } else {
    const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
    q = [(m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s];
  }
  const n = Math.hypot(...q);
  return q.map((v) => v / n);
}

/** Whether canonical joint j lies in the arm below (and including) a side's Arm joint. */
function armSide(canon, j) {
  for (let k = j; k >= 0; k = canon.parents[k]) {
    if (canon.names[k] === 'LeftArm') return 'Left';
    if (canon.names[k] === 'RightArm') return 'Right';
  }
  return null;
}

/**
 * Derives a rig from the canonical one. `name(role)` gives the joint name or null to
 * drop it; `frames(j, ctx)` the T-pose model rotation of kept canonical joint j; `apose`
 * (radians) lowers both arms; `armature` places the skeleton under a node.
 */
function derive(canon, naming, { name, frames, apose = 0, armature = null }) {
  const keep = canon.names.map((role) => name(role) !== null);
  const index = new Map();
  const names = [];
  const parents = [];
  const roles = [];
  const canonOf = [];
  canon.names.forEach((role, j) => {
    if (!keep[j]) return;
    let p = canon.parents[j];
    while (p >= 0 && !keep[p]) p = canon.parents[p];
    index.set(j, names.length);
    names.push(name(role));
    parents.push(p < 0 ? -1 : index.get(p));
    roles.push(role);
    canonOf.push(j);
  });
  // T-pose frames and positions, then the A-pose: each arm turned down about +Z at its
  // shoulder joint (Left arm along +X goes down with -angle, Right with +angle).
  const tpos = canonOf.map((j) => canon.pos[j].slice());
  const motionRot = canonOf.map((j, k) => frames(j, { canon, k, canonOf, index, tpos }));
  const pos = tpos.map((p) => p.slice());
  const rot = motionRot.map((q) => q.slice());
  if (apose) {
    for (const side of ['Left', 'Right']) {
      const q = qaxis([0, 0, 1], side === 'Left' ? -apose : apose);
      const pivot = tpos[index.get(canon.names.indexOf(`${side}Arm`))];
      canonOf.forEach((j, k) => {
        if (armSide(canon, j) !== side) return;
        pos[k] = add(pivot, qrot(q, sub(tpos[k], pivot)));
        rot[k] = qmul(q, motionRot[k]);
      });
    }
  }
  const rest = names.map((_, k) => {
    const p = parents[k];
    if (p < 0) return { t: pos[k].slice(), r: rot[k].slice(), s: [1, 1, 1] };
    const inv = qconj(rot[p]);
    return { t: qrot(inv, sub(pos[k], pos[p])), r: qmul(inv, rot[k]), s: [1, 1, 1] };
  });
  // Mesh segments and clips name canonical joints: a dropped one follows its nearest kept ancestor.
  const jointOf = new Map();
  canon.names.forEach((role, j) => {
    let a = j;
    while (!keep[a]) a = canon.parents[a];
    jointOf.set(role, index.get(a));
  });
  const rig = { naming, height: canon.height, names, parents, rest, pos, rot, roles, jointOf };
  // The mesh is built in the T-pose, so it binds there (glTF allows a bind pose other than
  // the rest pose: the inverse bind matrices say where).
  if (apose) Object.assign(rig, { motionRot, bind: { pos: tpos, rot: motionRot } });
  if (armature) rig.armature = armature;
  return rig;
}

/** Frame of kept joint k with +X toward its first kept child (leaves: the parent's frame). */
function boneAlongX(j, { canon, k, canonOf, index, tpos }) {
  const child = canonOf.findIndex((c, i) => i > k && canonParentKept(canon, c, index) === k);
  if (child < 0) return null;
  const up = /Hand|Finger|Thumb|Index|Middle|Ring|Pinky/.test(canon.names[j]) ? [0, 0, 1] : [0, 1, 0];
  return frameAlong(normalize(sub(tpos[child], tpos[k])), up);
}

function canonParentKept(canon, j, index) {
  let p = canon.parents[j];
  while (p >= 0 && !index.has(p)) p = canon.parents[p];
  return p < 0 ? -1 : index.get(p);
}

/** The three test rigs. */
export function conventionRigs(canon) {
  const vrm = derive(canon, 'vrm', { name: vrmName, frames: () => QI.slice() });
  const bipedFrames = [];
  const biped = derive(canon, 'biped', {
    name: bipedName,
    frames: (j, ctx) => {
      const q = boneAlongX(j, ctx) ?? (ctx.k > 0 ? bipedFrames[canonParentKept(canon, j, ctx.index)] : QI.slice());
      bipedFrames[ctx.k] = q;
      return q;
    },
    armature: { rotation: qaxis([1, 0, 0], -90 * DEG), scale: 0.01 },
  });
  const daz4 = derive(canon, 'daz4', {
    name: dazName,
    // A roll per joint from a fixed sequence: the grip must not depend on bone axes.
    frames: (j, { k }) => qaxis(normalize([Math.sin(1.7 * k + 0.3), Math.cos(2.3 * k), 0.6]), ((k * 47) % 360) * DEG),
    apose: 45 * DEG,
  });
  return [vrm, biped, daz4];
}
