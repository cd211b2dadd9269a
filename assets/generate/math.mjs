// Small vector / quaternion helpers in float64 for the asset generator.
// Quaternions are [x, y, z, w] (glTF order). Values are rounded to float32 only
// when written, so every intermediate step keeps double precision.

export const DEG = Math.PI / 180;

export const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a, s) => [a[0] * s, a[1] * s, a[2] * s];
export const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
export const length = (a) => Math.sqrt(dot(a, a));
export const normalize = (a) => scale(a, 1 / length(a));
export const lerp = (a, b, t) => a + (b - a) * t;
export const lerp3 = (a, b, t) => [lerp(a[0], b[0], t), lerp(a[1], b[1], t), lerp(a[2], b[2], t)];
export const clamp = (x, lo, hi) => (x < lo ? lo : x > hi ? hi : x);
/** Cubic ease 0→1 over x in [0, 1] (clamped), zero slope at both ends. */
export const smooth = (x) => {
  const t = clamp(x, 0, 1);
  return t * t * (3 - 2 * t);
};
/** Fractional part in [0, 1). */
export const frac = (x) => x - Math.floor(x);

export const QI = Object.freeze([0, 0, 0, 1]);

export function qaxis(axis, angle) {
  const n = normalize(axis);
  const s = Math.sin(angle / 2);
  return [n[0] * s, n[1] * s, n[2] * s, Math.cos(angle / 2)];
}
export const qx = (a) => qaxis([1, 0, 0], a);
export const qy = (a) => qaxis([0, 1, 0], a);
export const qz = (a) => qaxis([0, 0, 1], a);

export function qmul(a, b) {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}
/** Product of several rotations, applied right to left. */
export const qchain = (...qs) => qs.reduce((acc, q) => qmul(acc, q), QI);
export const qconj = (q) => [-q[0], -q[1], -q[2], q[3]];
export function qnormalize(q) {
  const n = Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}
export function qrot(q, v) {
  const u = [q[0], q[1], q[2]];
  const t = scale(cross(u, v), 2);
  return add(add(v, scale(t, q[3])), cross(u, t));
}
/** Spherical interpolation along the shorter arc. */
export function qslerp(a, b, t) {
  let d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  let bb = b;
  if (d < 0) {
    d = -d;
    bb = [-b[0], -b[1], -b[2], -b[3]];
  }
  if (d > 0.9995) {
    return qnormalize([lerp(a[0], bb[0], t), lerp(a[1], bb[1], t), lerp(a[2], bb[2], t), lerp(a[3], bb[3], t)]);
  }
  const th = Math.acos(d);
  const s = Math.sin(th);
  const wa = Math.sin((1 - t) * th) / s;
  const wb = Math.sin(t * th) / s;
  return [a[0] * wa + bb[0] * wb, a[1] * wa + bb[1] * wb, a[2] * wa + bb[2] * wb, a[3] * wa + bb[3] * wb];
}

/** Rotation from a 3x3 matrix given as its three columns (orthonormal). */
export function qFromColumns(c0, c1, c2) {
  const m00 = c0[0], m10 = c0[1], m20 = c0[2];
  const m01 = c1[0], m11 = c1[1], m21 = c1[2];
  const m02 = c2[0], m12 = c2[1], m22 = c2[2];
  const tr = m00 + m11 + m22;
  let q;
  if (tr > 0) {
    const s = 0.5 / Math.sqrt(tr + 1);
    q = [(m21 - m12) * s, (m02 - m20) * s, (m10 - m01) * s, 0.25 / s];
  } else if (m00 > m11 && m00 > m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    q = [0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s];
  } else if (m11 > m22) {
    const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
    q = [(m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s];
  } else {
    const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
    q = [(m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s];
  }
  return qnormalize(q);
}

/** The rotation taking unit direction r to d and unit normal m (m ⟂ r) to n (n ⟂ d). */
export function qFromFrames(r, m, d, n) {
  const from = qFromColumns(r, m, cross(r, m));
  const to = qFromColumns(d, n, cross(d, n));
  return qmul(to, qconj(from));
}

/** Rotation that turns direction `dir` toward `toward` by `angle` (radians). */
export function qbend(dir, toward, angle) {
  return qaxis(cross(dir, toward), angle);
}

/** Rounds every number of an array to float32. */
export const f32 = (a) => a.map((x) => Math.fround(x));

/** Monotone cubic (Fritsch–Carlson) through knots [[t, v], ...]; held outside.
 * `slopes` sets the end tangents (default 0: starts and stops smoothly). */
export function curve(knots, slopes = { start: 0, end: 0 }) {
  const n = knots.length;
  const t = knots.map((k) => k[0]);
  const v = knots.map((k) => k[1]);
  const d = [];
  for (let i = 0; i < n - 1; i++) d.push((v[i + 1] - v[i]) / (t[i + 1] - t[i]));
  const m = new Array(n).fill(0);
  m[0] = slopes.start;
  m[n - 1] = slopes.end;
  // Interior tangents: Fritsch–Carlson weighted harmonic mean (no overshoot);
  for (let i = 1; i < n - 1; i++) {
    if (d[i - 1] * d[i] <= 0) {
      m[i] = 0;
    } else {
      const h0 = t[i] - t[i - 1], h1 = t[i + 1] - t[i];
      const w1 = 2 * h1 + h0, w2 = h1 + 2 * h0;
      m[i] = (w1 + w2) / (w1 / d[i - 1] + w2 / d[i]);
    }
  }
  return (x) => {
    if (x <= t[0]) return v[0];
    if (x >= t[n - 1]) return v[n - 1];
    let i = 0;
    while (x > t[i + 1]) i++;
    const h = t[i + 1] - t[i];
    const s = (x - t[i]) / h;
    const s2 = s * s, s3 = s2 * s;
    return (2 * s3 - 3 * s2 + 1) * v[i] + (s3 - 2 * s2 + s) * h * m[i] + (-2 * s3 + 3 * s2) * v[i + 1] + (s3 - s2) * h * m[i + 1];
  };
}
