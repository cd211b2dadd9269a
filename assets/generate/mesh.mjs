// A low-poly mannequin: one tapered box per bone, flat-shaded, built in model
// space on the rest pose (the same vertices for every rig; only joint indices
// differ). A box's far end moves with its bone; its near end is shared 50/50 with
// the parent bone where the two meet along a limb, so elbows and knees bend
// without tearing open.
import { add, cross, dot, normalize, scale, sub } from './math.mjs';

const L = ['Left', 'Right'];
const FINGER = [
  ['Thumb', 0.011, 0.009],
  ['Index', 0.009, 0.0075],
  ['Middle', 0.0095, 0.008],
  ['Ring', 0.009, 0.0075],
  ['Pinky', 0.0075, 0.0065],
];

/**
 * Segments: the bone (canonical role) that carries the box, where it starts and
 * ends (a role, optionally offset in metres), half-extents [across, through] at
 * each end, and whether the near end blends with the parent bone.
 */
function segments() {
  const s = [
    { bone: 'Hips', from: ['Hips', [0, -0.1, 0]], to: ['Spine'], a: [0.15, 0.1], b: [0.14, 0.09] },
    { bone: 'Spine', from: ['Spine'], to: ['Spine1'], a: [0.14, 0.09], b: [0.15, 0.095], blend: true },
    { bone: 'Spine1', from: ['Spine1'], to: ['Spine2'], a: [0.15, 0.095], b: [0.165, 0.1], blend: true },
    { bone: 'Spine2', from: ['Spine2'], to: ['Neck'], a: [0.165, 0.1], b: [0.13, 0.08], blend: true },
    { bone: 'Neck', from: ['Neck'], to: ['Head'], a: [0.045, 0.045], b: [0.045, 0.045], blend: true },
    { bone: 'Head', from: ['Head', [0, -0.02, 0]], to: ['HeadTop_End'], a: [0.075, 0.085], b: [0.07, 0.08] },
  ];
  for (const side of L) {
    s.push(
      { bone: `${side}Shoulder`, from: [`${side}Shoulder`], to: [`${side}Arm`], a: [0.04, 0.04], b: [0.055, 0.05] },
      { bone: `${side}Arm`, from: [`${side}Arm`], to: [`${side}ForeArm`], a: [0.055, 0.05], b: [0.045, 0.04], blend: true },
      { bone: `${side}ForeArm`, from: [`${side}ForeArm`], to: [`${side}Hand`], a: [0.042, 0.036], b: [0.03, 0.022], blend: true },
      // The palm: from the wrist to the middle finger's root, wide enough for all four fingers.
      { bone: `${side}Hand`, from: [`${side}Hand`], to: [`${side}HandMiddle1`], a: [0.032, 0.016], b: [0.045, 0.013], blend: true },
    );
    for (const [f, wa, wb] of FINGER) {
      for (let k = 1; k <= 3; k++) {
        s.push({ bone: `${side}Hand${f}${k}`, from: [`${side}Hand${f}${k}`], to: [`${side}Hand${f}${k + 1}`], a: [wa, wa * 0.85], b: [wb, wb * 0.85], blend: true });
      }
    }
    s.push(
      { bone: `${side}UpLeg`, from: [`${side}UpLeg`], to: [`${side}Leg`], a: [0.075, 0.075], b: [0.055, 0.055] },
      { bone: `${side}Leg`, from: [`${side}Leg`], to: [`${side}Foot`], a: [0.052, 0.052], b: [0.036, 0.036], blend: true },
      // Heel to toe joint: the sole sits on the ground (y = 0) in the rest pose.
      { bone: `${side}Foot`, from: [`${side}Foot`, [0, -0.07, -0.06]], to: [`${side}ToeBase`], a: [0.04, 0.03], b: [0.045, 0.04] },
      { bone: `${side}ToeBase`, from: [`${side}ToeBase`], to: [`${side}Toe_End`], a: [0.045, 0.04], b: [0.04, 0.03], blend: true },
    );
  }
  return s;
}

/** Unit axes across a segment: `across` is the body's width direction where that makes sense. */
function sideAxes(u) {
  let ref;
  if (Math.abs(u[1]) >= 0.7) ref = [1, 0, 0]; // vertical: across = left-right
  else if (Math.abs(u[0]) >= 0.7) ref = [0, 0, 1]; // along an arm: across = front-back
  else ref = [1, 0, 0]; // along a foot: across = left-right
  const across = normalize(sub(ref, scale(u, dot(u, ref))));
  return [across, cross(u, across)];
}

/**
 * Builds the mesh for a rig. `jointOf(role)` gives the rig's joint index for a
 * canonical role. Returns typed arrays: positions, normals (float32 xyz), joints
 * (uint8 or uint16 x4), weights (float32 x4), indices (uint16).
 */
export function buildMesh(canon, jointOf, jointCount) {
  const pos = new Map(canon.names.map((n, j) => [n, canon.pos[j]]));
  const parentRole = new Map(canon.names.map((n, j) => [n, canon.parents[j] >= 0 ? canon.names[canon.parents[j]] : null]));
  const P = [];
  const N = [];
  const J = [];
  const W = [];
  const I = [];
  for (const seg of segments()) {
    const a = seg.from[1] ? add(pos.get(seg.from[0]), seg.from[1]) : pos.get(seg.from[0]);
    const b = seg.to[1] ? add(pos.get(seg.to[0]), seg.to[1]) : pos.get(seg.to[0]);
    const u = normalize(sub(b, a));
    const [e1, e2] = sideAxes(u);
    const corner = (c, [w, h], s1, s2) => add(add(c, scale(e1, s1 * w)), scale(e2, s2 * h));
    // Eight corners: index bit 0 = far end, bit 1 = +across, bit 2 = +through.
    const cs = [];
    for (let i = 0; i < 8; i++) {
      const far = i & 1;
      cs.push(corner(far ? b : a, far ? seg.b : seg.a, i & 2 ? 1 : -1, i & 4 ? 1 : -1));
    }
    const bone = jointOf(seg.bone);
    const parent = seg.blend ? jointOf(parentRole.get(seg.bone)) : -1;
    // Faces as corner quads, counter-clockwise seen from outside.
    const faces = [
      [0, 4, 6, 2], // near cap (−u)
      [1, 3, 7, 5], // far cap (+u)
      [0, 1, 5, 4], // −across
      [2, 6, 7, 3], // +across
      [0, 2, 3, 1], // −through
      [4, 5, 7, 6], // +through
    ];
    for (const f of faces) {
      const q = f.map((i) => cs[i]);
      let n = normalize(cross(sub(q[1], q[0]), sub(q[3], q[0])));
      const centre = scale(add(add(q[0], q[1]), add(q[2], q[3])), 0.25);
      const mid = scale(add(a, b), 0.5);
      if (dot(n, sub(centre, mid)) < 0) n = scale(n, -1);
      const flip = dot(cross(sub(q[1], q[0]), sub(q[2], q[0])), n) < 0;
      const base = P.length / 3;
      f.forEach((ci, k) => {
        P.push(...q[k]);
        N.push(...n);
        if (!(ci & 1) && parent >= 0) {
          J.push(bone, parent, 0, 0);
          W.push(0.5, 0.5, 0, 0);
        } else {
          J.push(bone, 0, 0, 0);
          W.push(1, 0, 0, 0);
        }
      });
      const tri = flip ? [0, 2, 1, 0, 3, 2] : [0, 1, 2, 0, 2, 3];
      I.push(...tri.map((k) => base + k));
    }
  }
  const Joints = jointCount <= 256 ? Uint8Array : Uint16Array;
  return {
    positions: new Float32Array(P),
    normals: new Float32Array(N),
    joints: new Joints(J),
    weights: new Float32Array(W),
    indices: new Uint16Array(I),
  };
}
