// Bakes the canonical motion (motion.mjs) into keyframes for one rig: 30 Hz,
// LINEAR, a rotation channel per joint and a translation channel on the root (Hips).
//
// Conversion to a rig's own joint frames: the canonical body has identity rest
// rotations, so its model rotation D_j of a joint is the anatomical rotation away
// from the T-pose. A rig whose joint has the rest model rotation B_j (Blender's
// bone-along-+Y frames, for one) gets the model rotation D_j·B_j, hence the local
// rotation L_j = (D_p·B_p)⁻¹·D_j·B_j with p its own parent. Joints the canonical body
// lacks (Unreal's metacarpals) move rigidly with their nearest mapped ancestor. Model
// positions of all joints then agree across rigs (rest offsets are the same).
import { qconj, qmul } from './math.mjs';

export const FPS = 30;

/** Key times and canonical poses of a clip (shared by every rig). */
export function sampleClip(body, clip) {
  const n = Math.round(clip.duration * FPS);
  if (Math.abs(n / FPS - clip.duration) > 1e-9) throw new Error(`assets: clip ${clip.name} is not a whole number of 1/${FPS} s frames`);
  const keys = [];
  for (let k = 0; k <= n; k++) {
    // A loop's last key repeats its first, moved by the loop's displacement: an exact seam.
    const kk = clip.loop && k === n ? 0 : k;
    const s = clip.sample(body, kk / FPS);
    const fk = body.fk(s.pose);
    const root = s.pose.root.slice();
    if (clip.loop && k === n) clip.displacement.forEach((d, i) => (root[i] += d));
    keys.push({ t: k / FPS, root, rot: fk.rot, info: s });
  }
  return keys;
}

/** Local rotations per rig joint for one canonical key (float64). */
export function rigLocal(rig, canonIndex, key) {
  const model = rig.names.map(() => null);
  const local = [];
  rig.parents.forEach((p, j) => {
    let d;
    const role = rig.roles[j];
    if (role !== null) {
      d = key.rot[canonIndex.get(role)];
    } else {
      let a = p;
      while (rig.roles[a] === null) a = rig.parents[a];
      d = key.rot[canonIndex.get(rig.roles[a])];
    }
    // A rig posed otherwise at rest (an A-pose) gives its T-pose frames as motionRot.
    model[j] = qmul(d, (rig.motionRot ?? rig.rot)[j]);
    local.push(p < 0 ? model[j] : qmul(qconj(model[p]), model[j]));
  });
  return local;
}

/**
 * The clip as arrays ready for glTF: times, one Float32Array of quaternions per
 * joint (consecutive keys kept in one hemisphere so LINEAR blends the short way),
 * and the root translation. Every value is rounded to float32.
 */
export function bakeClip(rig, canonIndex, keys) {
  if (rig.roles[0] !== 'Hips' || rig.parents[0] !== -1) throw new Error(`assets: ${rig.naming} root is not the hips`);
  const n = keys.length;
  const times = new Float32Array(keys.map((k) => k.t));
  const rotations = rig.names.map(() => new Float32Array(4 * n));
  const translation = new Float32Array(3 * n);
  keys.forEach((key, k) => {
    const local = rigLocal(rig, canonIndex, key);
    local.forEach((q, j) => {
      const out = rotations[j];
      let s = 1;
      if (k > 0) {
        const dot = q[0] * out[4 * k - 4] + q[1] * out[4 * k - 3] + q[2] * out[4 * k - 2] + q[3] * out[4 * k - 1];
        if (dot < 0) s = -1;
      }
      for (let i = 0; i < 4; i++) out[4 * k + i] = s * q[i];
    });
    translation.set(key.root, 3 * k);
  });
  return { times, rotations, translation };
}
