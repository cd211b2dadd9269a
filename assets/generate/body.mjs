// The canonical body the motion is written for: the core's Mixamo-named humanoid,
// whose rest rotations are all identity, so a joint's local rotation is an
// "anatomical" rotation in model axes (facing +Z, Y up, the character's left = +X).
import { add, cross, length, normalize, qconj, qFromFrames, qmul, qrot, QI, scale, sub, dot, clamp } from './math.mjs';

export class Body {
  constructor(canon) {
    this.names = canon.names;
    this.parents = canon.parents;
    this.offset = canon.rest.map((x) => x.t);
    this.restPos = canon.pos;
    this.index = new Map(canon.names.map((n, j) => [n, j]));
  }

  j(role) {
    const i = this.index.get(role);
    if (i === undefined) throw new Error(`assets: the body has no joint ${role}`);
    return i;
  }

  /** A pose: root (Hips) position in model space and one local rotation per joint. */
  pose() {
    return { root: this.restPos[0].slice(), local: this.names.map(() => QI) };
  }

  /** Model-space positions and rotations of a pose. */
  fk(pose) {
    const pos = [];
    const rot = [];
    this.parents.forEach((p, j) => {
      if (p < 0) {
        pos.push(pose.root.slice());
        rot.push(pose.local[j]);
      } else {
        pos.push(add(pos[p], qrot(rot[p], this.offset[j])));
        rot.push(qmul(rot[p], pose.local[j]));
      }
    });
    return { pos, rot };
  }

  set(pose, role, q) {
    pose.local[this.j(role)] = q;
  }

  /** Sets a joint's local rotation so that its model rotation becomes `q`. */
  setModel(pose, role, q) {
    const j = this.j(role);
    const fk = this.fk(pose);
    pose.local[j] = qmul(qconj(fk.rot[this.parents[j]]), q);
  }

  /**
   * Two-bone limb: upper → mid → end joints (e.g. LeftUpLeg, LeftLeg, LeftFoot).
   * Places the end joint on `target` (clamped to 99.9 % reach) with the mid joint
   * bending toward `pole`; `restPole` is the bend direction at rest. Returns the
   * distance left (0 when reached).
   */
  limb(pose, upper, mid, end, target, pole, restPole) {
    const [ju, jm, je] = [this.j(upper), this.j(mid), this.j(end)];
    const l1 = length(this.offset[jm]);
    const l2 = length(this.offset[je]);
    const r = normalize(this.offset[jm]);
    const m = normalize(cross(restPole, r));
    const fk = this.fk(pose);
    const root = fk.pos[ju];
    const toT = sub(target, root);
    const want = length(toT);
    const dist = clamp(want, Math.abs(l1 - l2) + 1e-4, (l1 + l2) * 0.999);
    const u = normalize(toT);
    const v = normalize(sub(pole, scale(u, dot(u, pole))));
    const a = (l1 * l1 - l2 * l2 + dist * dist) / (2 * dist);
    const b = Math.sqrt(Math.max(0, l1 * l1 - a * a));
    const midPos = add(root, add(scale(u, a), scale(v, b)));
    const endPos = add(root, scale(u, dist));
    const n = normalize(cross(v, u));
    const r1 = qFromFrames(r, m, normalize(sub(midPos, root)), n);
    const r2 = qFromFrames(r, m, normalize(sub(endPos, midPos)), n);
    pose.local[ju] = qmul(qconj(fk.rot[this.parents[ju]]), r1);
    pose.local[jm] = qmul(qconj(r1), r2);
    return Math.max(0, want - dist);
  }
}
