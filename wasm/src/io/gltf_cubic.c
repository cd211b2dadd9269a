/* CUBICSPLINE keys resampled into LINEAR keys. The sampler has no cubic mode, so each key
 * span is bisected until lerp (slerp for rotations, as the sampling job interpolates) between
 * the new keys stays within the tolerance of the glTF Hermite curve at the quarter points of
 * every sub-span (the largest deviation measured there is reported). The Hermite form and the
 * rotation normalisation follow the glTF spec (Appendix C) in the operation order three.js's
 * GLTFCubicSplineInterpolant uses. */
#include "gltf_internal.h"

#define CUBIC_MAX_DEPTH 10 /* at most 1024 sub-spans per key span */

typedef struct cubic_span {
  const float *p0, *out0; /* value and out-tangent of key k */
  const float *p1, *in1;  /* value and in-tangent of key k + 1 */
  float t0, t1;
  uint32_t comps;
  float tol;
  float worst; /* largest deviation measured on an accepted sub-span */
} cubic_span;

static void lb_hermite(const cubic_span *s, float u, float *out) {
  float td = s->t1 - s->t0;
  float uu = u * u, uuu = uu * u;
  float s2 = -2.0f * uuu + 3.0f * uu;
  float s3 = uuu - uu;
  float s0 = 1.0f - s2;
  float s1 = s3 - uu + u;
  for (uint32_t i = 0; i < s->comps; ++i) {
    float m0 = s->out0[i] * td;
    float m1 = s->in1[i] * td;
    out[i] = s0 * s->p0[i] + s1 * m0 + s2 * s->p1[i] + s3 * m1;
  }
  if (s->comps == 4u) {
    lb_quat_normalize(out);
  }
}

static void lb_chord(const float *a, const float *b, float f, uint32_t comps, float *out) {
  if (comps == 4u) {
    lb_quat_slerp(a, b, f, out);
    return;
  }
  for (uint32_t i = 0; i < comps; ++i) {
    out[i] = a[i] + (b[i] - a[i]) * f;
  }
}

static float lb_deviation(const float *curve, const float *line, uint32_t comps) {
  float sign = 1.0f;
  if (comps == 4u) {
    float d = curve[0] * line[0] + curve[1] * line[1] + curve[2] * line[2] + curve[3] * line[3];
    sign = d < 0.0f ? -1.0f : 1.0f; /* q and -q are one rotation */
  }
  float worst = 0.0f;
  for (uint32_t i = 0; i < comps; ++i) {
    float e = curve[i] - sign * line[i];
    e = e < 0.0f ? -e : e;
    worst = e > worst ? e : worst;
  }
  return worst;
}

static void lb_emit(float t, const float *v, uint32_t comps, float *times, float *values,
                    uint32_t n) {
  if (!times) {
    return;
  }
  times[n] = t;
  for (uint32_t i = 0; i < comps; ++i) {
    values[(size_t)n * comps + i] = v[i];
  }
}

/* Emits keys in (ua, ub]; va is the curve at ua, vb at ub. Returns the new key count. */
static uint32_t lb_subdivide(cubic_span *s, float ua, const float *va, float ub, const float *vb,
                             int depth, float *times, float *values, uint32_t n) {
  float td = s->t1 - s->t0;
  float ta = s->t0 + td * ua, tb = s->t0 + td * ub;
  float um = 0.5f * (ua + ub);
  float tm = s->t0 + td * um;
  bool can_split = depth < CUBIC_MAX_DEPTH && tm > ta && tm < tb;
  float dev = 0.0f;
  for (int q = 1; q <= 3 && dev <= s->tol; ++q) {
    float f = 0.25f * (float)q;
    float curve[4], line[4];
    lb_hermite(s, ua + (ub - ua) * f, curve);
    lb_chord(va, vb, f, s->comps, line);
    float e = lb_deviation(curve, line, s->comps);
    dev = e > dev ? e : dev;
  }
  bool ok = dev <= s->tol;
  if (ok || !can_split) {
    s->worst = dev > s->worst ? dev : s->worst;
    lb_emit(ub >= 1.0f ? s->t1 : tb, vb, s->comps, times, values, n);
    return n + 1u;
  }
  float vm[4];
  lb_hermite(s, um, vm);
  n = lb_subdivide(s, ua, va, um, vm, depth + 1, times, values, n);
  return lb_subdivide(s, um, vm, ub, vb, depth + 1, times, values, n);
}

float gltf_cubic_tolerance(const lb_gltf_def *def) {
  return def->cubic_tolerance > 0.0f ? def->cubic_tolerance : LB_GLTF_CUBIC_TOLERANCE;
}

uint32_t gltf_cubic_resample(const float *times, const float *values, uint32_t count,
                             uint32_t comps, float tolerance, float *out_times, float *out_values,
                             float *out_error) {
  float worst = 0.0f;
  size_t key = 3u * comps; /* floats per key: in-tangent, value, out-tangent */
  float v0[4];
  for (uint32_t i = 0; i < comps; ++i) {
    v0[i] = values[comps + i];
  }
  if (comps == 4u) {
    lb_quat_normalize(v0);
  }
  lb_emit(times[0], v0, comps, out_times, out_values, 0);
  uint32_t n = 1;
  for (uint32_t k = 0; k + 1u < count; ++k) {
    cubic_span s;
    s.p0 = values + k * key + comps;
    s.out0 = values + k * key + 2u * comps;
    s.in1 = values + (k + 1u) * key;
    s.p1 = values + (k + 1u) * key + comps;
    s.t0 = times[k];
    s.t1 = times[k + 1u];
    s.comps = comps;
    s.tol = tolerance;
    s.worst = 0.0f;
    float va[4], vb[4];
    lb_hermite(&s, 0.0f, va);
    lb_hermite(&s, 1.0f, vb);
    n = lb_subdivide(&s, 0.0f, va, 1.0f, vb, 0, out_times, out_values, n);
    worst = s.worst > worst ? s.worst : worst;
    if (n > GLTF_MAX_RESAMPLED) {
      return n; /* the caller refuses it; no need to count on */
    }
  }
  if (out_error) {
    *out_error = worst;
  }
  return n;
}
