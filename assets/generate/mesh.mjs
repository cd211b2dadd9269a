// The mannequin's skinned body: one smooth figure built in model space on the rest pose
// (the same vertices for every rig; only joint indices differ). Each limb, the torso with
// the neck, each finger and each foot is one tube along its chain of joints, elliptical in
// section, its radius easing between stations, closed by rounded caps; the head is an egg on
// the head bone. Weights blend across every joint the tube passes (50/50 at the joint,
// ramping to the bone over a few centimetres on either side), and a tube that starts inside
// its parent's body blends into that parent, so a bend folds the surface instead of opening
// a seam. Normals are smooth (area-weighted over each tube's faces).
//
// Fingertips and toes end exactly at their end joints, on the bone's axis, and each
// finger's sections are symmetric about its (straight) rest chain: the importer's fingertip
// estimate for rigs without end joints (wasm/src/io/gltf_skin_ends.c: the axis through the
// centroid of the vertices a joint holds at least half of, out to the farthest one) lands
// on the end joint, as it did with the boxes.
import { add, cross, dot, length, normalize, scale, sub } from './math.mjs';

const L = ['Left', 'Right'];
// Finger: radius [across, through] at its root, middle and tip joints.
const FINGER = [
  ['Thumb', [0.0115, 0.0105], [0.0105, 0.0095], [0.0085, 0.0075]],
  ['Index', [0.0095, 0.0085], [0.0085, 0.0075], [0.0072, 0.0064]],
  ['Middle', [0.01, 0.009], [0.009, 0.008], [0.0075, 0.0067]],
  ['Ring', [0.0095, 0.0085], [0.0085, 0.0075], [0.0072, 0.0064]],
  ['Pinky', [0.0082, 0.0074], [0.0074, 0.0066], [0.0064, 0.0057]],
];

/**
 * Tubes: `pts` the chain's points (a role, optionally offset in metres), `bones` the bone
 * (canonical role) carrying each segment, `r` the half-extents [across, through] at each
 * point, `mid` an optional [fraction, [across, through]] station inside each segment,
 * `parent`/`child` the bone the start/end blends into (inside the neighbouring body),
 * `caps` the rounded caps' lengths, `tip` when the end cap ends at the last point (else it
 * reaches past it), `sides` around and `rings` per segment, `blend` the ramp length.
 */
function tubes() {
  const t = [
    {
      pts: [['Hips', [0, -0.1, 0]], ['Hips'], ['Spine'], ['Spine1'], ['Spine2'], ['Neck'], ['Head']],
      bones: ['Hips', 'Hips', 'Spine', 'Spine1', 'Spine2', 'Neck'],
      r: [[0.15, 0.095], [0.165, 0.102], [0.145, 0.092], [0.152, 0.096], [0.165, 0.1], [0.052, 0.05], [0.044, 0.044]],
      mid: [null, [0.5, [0.16, 0.1]], [0.5, [0.14, 0.09]], [0.5, [0.162, 0.1]], [0.5, [0.155, 0.094]], [0.5, [0.043, 0.043]]],
      child: 'Head', caps: [0.08, 0.03], sides: 24, rings: [2, 2, 3, 3, 8, 3], blend: 0.06,
    },
    {
      // The head: an ellipsoid on the head bone, a little forward of the neck, its crown at
      // the head's end joint.
      pts: [['HeadTop_End', [0, -0.11, 0.012]], ['HeadTop_End', [0, 0, 0.012]]],
      bones: ['Head'],
      r: [[0.083, 0.098], [0.083, 0.098]],
      mid: [null],
      caps: [0.085, 0.095], tip: true, capSteps: 7, sides: 18, rings: [1], blend: 0.05,
    },
  ];
  for (const side of L) {
    const s = (r) => `${side}${r}`;
    t.push(
      {
        pts: [[s('Shoulder')], [s('Arm')], [s('ForeArm')], [s('Hand')]],
        bones: [s('Shoulder'), s('Arm'), s('ForeArm')],
        r: [[0.05, 0.05], [0.06, 0.058], [0.041, 0.038], [0.029, 0.021]],
        mid: [null, [0.3, [0.053, 0.052]], [0.3, [0.044, 0.039]]],
        parent: 'Spine2', child: s('Hand'), caps: [0.04, 0.022], sides: 12, rings: [1, 3, 3], bends: true, blend: 0.05,
      },
      {
        // The palm: wrist to the middle finger's root, as wide as the four fingers.
        pts: [[s('Hand')], [s('HandMiddle1')]],
        bones: [s('Hand')],
        r: [[0.03, 0.02], [0.043, 0.013]],
        mid: [[0.55, [0.042, 0.017]]],
        parent: s('ForeArm'), caps: [0.015, 0.012], sides: 12, rings: [4], blend: 0.02,
      },
    );
    for (const [f, r1, r2, r3] of FINGER) {
      const j = (k) => s(`Hand${f}${k}`);
      t.push({
        pts: [[j(1)], [j(2)], [j(3)], [j(4)]],
        bones: [j(1), j(2), j(3)],
        r: [r1, r2, scale(add(r2, r3), 0.5), r3],
        mid: [null, null, null],
        parent: s('Hand'), caps: [0.008, r3[0]], tip: true, sides: 8, rings: [2, 2, 2], blend: 0.008,
      });
    }
    t.push(
      {
        pts: [[s('UpLeg')], [s('Leg')], [s('Foot'), [0, -0.01, 0]]],
        bones: [s('UpLeg'), s('Leg')],
        r: [[0.08, 0.08], [0.05, 0.053], [0.036, 0.038]],
        mid: [[0.25, [0.075, 0.078]], [0.3, [0.055, 0.06]]],
        parent: 'Hips', child: s('Foot'), caps: [0.08, 0.03], sides: 12, rings: [3, 3], bends: true, blend: 0.06,
      },
      {
        // Heel to toe tip: the sole sits on the ground (y = 0) in the rest pose.
        pts: [[s('Foot'), [0, -0.065, -0.05]], [s('ToeBase')], [s('Toe_End')]],
        bones: [s('Foot'), s('ToeBase')],
        r: [[0.035, 0.035], [0.047, 0.036], [0.04, 0.024]],
        mid: [[0.45, [0.043, 0.045]], null],
        child: null, caps: [0.04, 0.03], tip: true, sides: 12, rings: [4, 3], blend: 0.025,
      },
    );
  }
  return t;
}

/** Unit axes across a tube: `across` is the body's width direction where that makes sense. */
function sideAxes(u) {
  let ref;
  if (Math.abs(u[1]) >= 0.7) ref = [1, 0, 0]; // vertical: across = left-right
  else if (Math.abs(u[0]) >= 0.7) ref = [0, 0, 1]; // along an arm: across = front-back
  else ref = [1, 0, 0]; // along a foot: across = left-right
  const across = normalize(sub(ref, scale(u, dot(u, ref))));
  return [across, cross(u, across)];
}

const smooth = (x) => x * x * (3 - 2 * x);
const lerp2 = (a, b, t) => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
const clamp01 = (x) => Math.min(1, Math.max(0, x));

/** Radius [across, through] at fraction t of segment i: eased between its stations. */
function radiusAt(tube, i, t) {
  const st = [[0, tube.r[i]]];
  if (tube.mid[i]) st.push(tube.mid[i]);
  st.push([1, tube.r[i + 1]]);
  let k = 0;
  while (k + 2 < st.length && t > st[k + 1][0]) k++;
  const [t0, r0] = st[k];
  const [t1, r1] = st[k + 1];
  return lerp2(r0, r1, smooth(clamp01((t - t0) / (t1 - t0))));
}

/**
 * Weights at distance x along segment i (x < 0 or x > its length: in a cap): the bone,
 * ramping to 50/50 with the previous or next bone at each joint over `ramp` metres on each
 * side; past the tube's ends into the parent or child body, to that bone alone.
 */
function ramps(tube, lens, i) {
  const n = lens.length;
  const k = (a, b) => Math.min(tube.blend, 0.4 * a, 0.4 * b);
  return {
    prev: i > 0 ? tube.bones[i - 1] : tube.parent,
    next: i < n - 1 ? tube.bones[i + 1] : tube.child,
    kp: k(lens[i], i > 0 ? lens[i - 1] : lens[i]),
    kn: k(lens[i], i < n - 1 ? lens[i + 1] : lens[i]),
  };
}

function weightsAt(tube, lens, i, x, jointOf) {
  const { prev, next, kp, kn } = ramps(tube, lens, i);
  const out = new Map();
  const put = (role, w) => {
    if (!role || w <= 0) return;
    const j = jointOf(role);
    out.set(j, (out.get(j) ?? 0) + w);
  };
  const wp = prev ? clamp01(0.5 - (0.5 * x) / kp) : 0;
  const wn = next ? clamp01(0.5 - (0.5 * (lens[i] - x)) / kn) : 0;
  put(prev, wp);
  put(next, wn);
  put(tube.bones[i], Math.max(0, 1 - wp - wn));
  return out;
}

/**
 * Where segment i's rings sit (fractions, 0 = its start joint): evenly spaced, and with `bends`
 * also across each weight ramp at a joint, so a bent elbow or shoulder rounds off instead of
 * folding at one ring.
 */
function ringFractions(tube, lens, i) {
  const ts = [];
  for (let k = 0; k < tube.rings[i]; k++) ts.push(k / tube.rings[i]);
  if (tube.bends) {
    const { prev, next, kp, kn } = ramps(tube, lens, i);
    if (prev) ts.push((0.5 * kp) / lens[i], kp / lens[i]);
    if (next) ts.push(1 - kn / lens[i], 1 - (0.5 * kn) / lens[i]);
  }
  ts.sort((a, b) => a - b);
  return ts.filter((t, k) => t < 1 && (k === 0 || t - ts[k - 1] > 0.04));
}

/** Rings (centre, tangent, radius, weights) along one tube, caps included, and its poles. */
function tubeRings(tube, pos, jointOf) {
  const P = tube.pts.map(([role, off]) => (off ? add(pos.get(role), off) : pos.get(role)));
  const n = P.length - 1;
  const dirs = [];
  const lens = [];
  for (let i = 0; i < n; i++) {
    lens.push(length(sub(P[i + 1], P[i])));
    dirs.push(normalize(sub(P[i + 1], P[i])));
  }
  const rings = [];
  const capRings = (end) => {
    const i = end ? n - 1 : 0;
    const u = dirs[i];
    const len = tube.caps[end ? 1 : 0];
    const base = end ? P[n] : P[0];
    const r = end ? tube.r[n] : tube.r[0];
    const out = [];
    // Latitudes 0 (equator) .. 90 degrees (pole); a tip's cap ends on the last point.
    const steps = tube.capSteps ?? 4;
    for (let s = 0; s <= steps; s++) {
      const phi = (s / steps) * (Math.PI / 2);
      let along = Math.sin(phi) * len;
      if (end && tube.tip) along -= len;
      const c = add(base, scale(u, end ? along : -along));
      const x = end ? lens[i] + along : -along;
      const ring = { c, u, r: scale(r, Math.cos(phi)), w: weightsAt(tube, lens, i, x, jointOf), pole: s === steps };
      if (s === steps && end && tube.tip) ring.c = P[n];
      out.push(ring);
    }
    return end ? out : out.reverse();
  };
  rings.push(...capRings(false));
  for (let i = 0; i < n; i++) {
    for (const t of ringFractions(tube, lens, i)) {
      if (i === 0 && t === 0) continue; // the start cap's equator is this ring
      const u = t === 0 ? normalize(add(dirs[i - 1], dirs[i])) : dirs[i];
      rings.push({ c: add(P[i], scale(sub(P[i + 1], P[i]), t)), u, r: radiusAt(tube, i, t), w: weightsAt(tube, lens, i, t * lens[i], jointOf) });
    }
  }
  const endCap = capRings(true);
  if (tube.tip) {
    // The tip's cap starts inside the last segment: its equator replaces the plain ring there.
    while (rings.length && dot(sub(rings[rings.length - 1].c, endCap[0].c), dirs[n - 1]) >= -1e-9) rings.pop();
  }
  rings.push(...endCap);
  return { rings, frame: sideAxes(normalize(sub(P[n], P[0]))) };
}

/**
 * Builds the mesh for a rig. `jointOf(role)` gives the rig's joint index for a
 * canonical role. Returns typed arrays: positions, normals (float32 xyz), joints
 * (uint8 or uint16 x4), weights (float32 x4), indices (uint16).
 */
export function buildMesh(canon, jointOf, jointCount) {
  const pos = new Map(canon.names.map((n, j) => [n, canon.pos[j]]));
  const P = [];
  const N = [];
  const J = [];
  const W = [];
  const I = [];
  for (const tube of tubes()) {
    const { rings, frame } = tubeRings(tube, pos, jointOf);
    const m = tube.sides;
    const base = P.length / 3;
    const ringStart = [];
    for (const ring of rings) {
      ringStart.push(P.length / 3 - base);
      // The tube-wide frame, made square to this ring's tangent.
      const e1 = normalize(sub(frame[0], scale(ring.u, dot(ring.u, frame[0]))));
      const e2 = cross(ring.u, e1);
      const count = ring.pole ? 1 : m;
      const weights = [...ring.w].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 4);
      const wsum = weights.reduce((s, [, w]) => s + w, 0);
      const wf = weights.map(([, w]) => Math.fround(w / wsum));
      if (wf.length) wf[0] = Math.fround(1 - wf.slice(1).reduce((s, w) => s + w, 0));
      for (let k = 0; k < count; k++) {
        const a = (2 * Math.PI * k) / m;
        const p = ring.pole ? ring.c : add(ring.c, add(scale(e1, Math.cos(a) * ring.r[0]), scale(e2, Math.sin(a) * ring.r[1])));
        P.push(...p);
        for (let q = 0; q < 4; q++) {
          J.push(q < weights.length ? weights[q][0] : 0);
          W.push(q < weights.length ? wf[q] : 0);
        }
      }
    }
    // Faces between consecutive rings (fans at the poles), counter-clockwise from outside.
    const tri = [];
    for (let r = 0; r + 1 < rings.length; r++) {
      const a0 = base + ringStart[r];
      const b0 = base + ringStart[r + 1];
      for (let k = 0; k < m; k++) {
        const k1 = (k + 1) % m;
        if (rings[r].pole) tri.push([a0, b0 + k1, b0 + k]);
        else if (rings[r + 1].pole) tri.push([a0 + k, a0 + k1, b0]);
        else tri.push([a0 + k, a0 + k1, b0 + k1], [a0 + k, b0 + k1, b0 + k]);
      }
    }
    // Smooth normals: each vertex's faces summed (area-weighted). The frame is right-handed
    // (e1 x e2 = u), so the windings above face outward.
    const v = (i) => P.slice(3 * i, 3 * i + 3);
    const nrm = new Float64Array(P.length - 3 * base);
    for (const t of tri) {
      const [p0, p1, p2] = t.map(v);
      const fn = cross(sub(p1, p0), sub(p2, p0));
      for (const i of t) for (let c = 0; c < 3; c++) nrm[3 * (i - base) + c] += fn[c];
    }
    for (let i = 0; i < nrm.length; i += 3) N.push(...normalize([nrm[i], nrm[i + 1], nrm[i + 2]]));
    for (const t of tri) I.push(...t);
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
