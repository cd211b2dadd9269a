/* Animation layer (limber/anim.h): clip validation, sampling (exact keys, midpoints, the loop
 * seam, the cursor), blending (weights, masks, additive) and root motion over whole loops.
 * Errors are measured in double and the worst cases printed, so drift shows in CI logs. */
#include "limber/anim.h"
#include "limber/gltf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../wasm/src/math/simd4.h"
#include "rig_fixture.h"
#include "test.h"

#define LB_TEST_SIMD_NAME LB_SIMD4_NAME

#define TOL_LERP 1e-6      /* translation / scale / blended components */
#define TOL_ANGLE_DEG 0.01 /* rotation against the analytic slerp */
#define TOL_ROOT 1e-5      /* m, accumulated root motion */
#define DEG (3.14159265358979323846 / 180.0)

/* ---- PRNG helpers over test.h's rng ---- */
static float rng_range(rng *r, float lo, float hi) {
  return lo + (hi - lo) * ((float)(rng_u32(r) >> 8) * (1.0f / 16777216.0f));
}
static void rng_transform(rng *r, lb_transform *xf) {
  vec3 axis = {rng_range(r, -1, 1), rng_range(r, -1, 1), rng_range(r, -1, 1)}, n;
  if (lb_vec3_normalize_to(axis, n) == 0.0f) {
    n[0] = 1.0f;
    n[1] = n[2] = 0.0f;
  }
  lb_quat_from_axis_angle(n, rng_range(r, -3.0f, 3.0f), xf->r);
  for (int i = 0; i < 3; ++i) {
    xf->t[i] = rng_range(r, -1, 1);
    xf->s[i] = rng_range(r, 0.5f, 1.5f);
  }
}

/* ---- double helpers ------------------------------------------------------------------------ */
/* Angle of the rotation between two quaternions, degrees (sign-insensitive). */
static double quat_diff_deg(const float *a, const double *b) {
  double na = 0, nb = 0, d = 0;
  for (int i = 0; i < 4; ++i) {
    na += (double)a[i] * a[i];
    nb += b[i] * b[i];
    d += (double)a[i] * b[i];
  }
  double c = fabs(d) / sqrt(na * nb);
  c = c > 1.0 ? 1.0 : c;
  return 2.0 * acos(c) / DEG;
}
/* Analytic slerp on the shorter arc, in double. */
static void slerp_d(const float *a, const float *b, double u, double *out) {
  double d = 0, bb[4];
  for (int i = 0; i < 4; ++i) {
    d += (double)a[i] * b[i];
  }
  double sg = d < 0 ? -1.0 : 1.0;
  for (int i = 0; i < 4; ++i) {
    bb[i] = sg * b[i];
  }
  d = fabs(d);
  d = d > 1.0 ? 1.0 : d;
  double th = acos(d);
  double wa = 1.0 - u, wb = u;
  if (th > 1e-9) {
    wa = sin((1.0 - u) * th) / sin(th);
    wb = sin(u * th) / sin(th);
  }
  double n = 0;
  for (int i = 0; i < 4; ++i) {
    out[i] = wa * a[i] + wb * bb[i];
    n += out[i] * out[i];
  }
  for (int i = 0; i < 4; ++i) {
    out[i] /= sqrt(n);
  }
}
static double maxd(double a, double b) {
  return a > b ? a : b;
}

/* ---- the procedural clip ------------------------------------------------------------------- *
 * 3 joints, duration 1 s.
 *  joint 0 (root): a straight walk along +Z, 1.5 m per loop, with a vertical bob; LINEAR keys
 *    at 0 .. 1 (first and last keys at 0 and duration).
 *  joint 1: translation LINEAR keys at 0.2 and 0.7 (both inside: the loop seam is spanned
 *    by the wrap segment); rotation LINEAR keys at 0, 0.3, 0.8 about X (0, 40, -30 deg; the
 *    last one stored negated to exercise hemisphere alignment); scale STEP at 0 and 0.5.
 *  joint 2: translation STEP keys at 0.1 and 0.6; no rotation or scale (rest pose). */
#define DUR 1.0f
static const float k_root_times[5] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f};
static const float k_root_t[15] = {0,     0, 0,     0,      0.02f, 0.375f, 0,   0,
                                   0.75f, 0, 0.02f, 1.125f, 0,     0,      1.5f};
static const float k_j1_ttimes[2] = {0.2f, 0.7f};
static const float k_j1_t[6] = {0.0f, 0.3f, 0.0f, 0.1f, 0.25f, -0.05f};
static const float k_j1_rtimes[3] = {0.0f, 0.3f, 0.8f};
static float k_j1_r[12]; /* filled by make_clip */
static const float k_j1_stimes[2] = {0.0f, 0.5f};
static const float k_j1_s[6] = {1, 1, 1, 1.2f, 1.2f, 1.2f};
static const float k_j2_ttimes[2] = {0.1f, 0.6f};
static const float k_j2_t[6] = {0.0f, 0.2f, 0.0f, 0.05f, 0.2f, 0.0f};

static lb_joint_tracks g_tracks[3];
static lb_clip g_clip;
static lb_transform g_rest[3];

static void make_clip(void) {
  vec3 x = {1, 0, 0};
  const float ang[3] = {0.0f, 40.0f, -30.0f};
  for (int k = 0; k < 3; ++k) {
    lb_quat_from_axis_angle(x, ang[k] * LB_DEG2RAD, &k_j1_r[4 * k]);
  }
  for (int c = 0; c < 4; ++c) {
    k_j1_r[8 + c] = -k_j1_r[8 + c];
  }
  memset(g_tracks, 0, sizeof(g_tracks));
  g_tracks[0].translation = (lb_track){5, k_root_times, k_root_t, LB_INTERP_LINEAR};
  g_tracks[1].translation = (lb_track){2, k_j1_ttimes, k_j1_t, LB_INTERP_LINEAR};
  g_tracks[1].rotation = (lb_track){3, k_j1_rtimes, k_j1_r, LB_INTERP_LINEAR};
  g_tracks[1].scale = (lb_track){2, k_j1_stimes, k_j1_s, LB_INTERP_STEP};
  g_tracks[2].translation = (lb_track){2, k_j2_ttimes, k_j2_t, LB_INTERP_STEP};
  g_clip = (lb_clip){DUR, 3, g_tracks};
  for (int j = 0; j < 3; ++j) {
    lb_transform_identity(&g_rest[j]);
    g_rest[j].t[1] = 0.1f * (float)(j + 1);
  }
}

static lb_result sample(float t, bool loop, lb_sample_cursor *cursor, lb_transform *out) {
  lb_sample_job job = {0};
  job.clip = &g_clip;
  job.time = t;
  job.loop = loop;
  job.cursor = cursor;
  job.rest = g_rest;
  job.joint_count = 3;
  job.output = out;
  return lb_sample_job_run(&job);
}

/* ---- validation ---------------------------------------------------------------------------- */
static void test_validate(void) {
  make_clip();
  LB_CHECK(lb_clip_validate(&g_clip) == LB_OK);
  LB_CHECK(lb_clip_track_count(&g_clip) == 9u);
  LB_CHECK(lb_clip_validate(NULL) == LB_ERR_INVALID_ARGUMENT);

  lb_joint_tracks tr[3];
  lb_clip c;
  float times[3], vals[12];
#define RESET()                                                                                    \
  do {                                                                                             \
    memcpy(tr, g_tracks, sizeof(tr));                                                              \
    c = g_clip;                                                                                    \
    c.joints = tr;                                                                                 \
    memcpy(times, k_j1_rtimes, sizeof(times));                                                     \
    memcpy(vals, k_j1_r, sizeof(vals));                                                            \
    tr[1].rotation.times = times;                                                                  \
    tr[1].rotation.values = vals;                                                                  \
  } while (0)
  RESET();
  LB_CHECK(lb_clip_validate(&c) == LB_OK);
  times[1] = 0.9f; /* unsorted */
  LB_CHECK(lb_clip_validate(&c) == LB_ERR_OUT_OF_RANGE);
  RESET();
  times[1] = times[0]; /* duplicate */
  LB_CHECK(lb_clip_validate(&c) == LB_ERR_OUT_OF_RANGE);
  RESET();
  times[2] = 1.5f; /* beyond duration */
  LB_CHECK(lb_clip_validate(&c) == LB_ERR_OUT_OF_RANGE);
  RESET();
  times[0] = -0.1f;
  LB_CHECK(lb_clip_validate(&c) == LB_ERR_OUT_OF_RANGE);
  RESET();
  times[1] = NAN;
  LB_CHECK(lb_clip_validate(&c) == LB_ERR_NOT_FINITE);
  RESET();
  vals[5] = NAN;
  LB_CHECK(lb_clip_validate(&c) == LB_ERR_NOT_FINITE);
  RESET();
  vals[6] = INFINITY;
  LB_CHECK(lb_clip_validate(&c) == LB_ERR_NOT_FINITE);
  RESET();
  memset(&vals[4], 0, 4 * sizeof(float)); /* zero quat */
  LB_CHECK(lb_clip_validate(&c) == LB_ERR_DEGENERATE);
  RESET();
  vals[7] *= 2.0f; /* not unit */
  LB_CHECK(lb_clip_validate(&c) == LB_ERR_OUT_OF_RANGE);
  RESET();
  tr[1].rotation.times = NULL; /* count 3, no times */
  LB_CHECK(lb_clip_validate(&c) == LB_ERR_INVALID_ARGUMENT);
  RESET();
  tr[0].translation.values = NULL;
  LB_CHECK(lb_clip_validate(&c) == LB_ERR_INVALID_ARGUMENT);
  RESET();
  tr[1].rotation.interp = LB_INTERP_CUBICSPLINE;
  LB_CHECK(lb_clip_validate(&c) == LB_ERR_INVALID_ARGUMENT);
  RESET();
  tr[1].rotation.interp = (lb_interp)7;
  LB_CHECK(lb_clip_validate(&c) == LB_ERR_INVALID_ARGUMENT);
  RESET();
  c.joint_count = 0;
  LB_CHECK(lb_clip_validate(&c) == LB_ERR_INVALID_ARGUMENT);
  RESET();
  c.duration = 0.0f;
  LB_CHECK(lb_clip_validate(&c) == LB_ERR_OUT_OF_RANGE);
  RESET();
  c.duration = NAN;
  LB_CHECK(lb_clip_validate(&c) == LB_ERR_NOT_FINITE);
  RESET();
  c.duration = 0.5f; /* keys now beyond duration */
  LB_CHECK(lb_clip_validate(&c) == LB_ERR_OUT_OF_RANGE);
#undef RESET

  /* Sampling job: bad arguments leave output and cursor untouched. */
  lb_transform out[3], before[3];
  memset(out, 0x5a, sizeof(out));
  memcpy(before, out, sizeof(out));
  uint32_t keys[9] = {0}, keys_before[9];
  memcpy(keys_before, keys, sizeof(keys));
  lb_sample_cursor small = {keys, 8};
  lb_sample_cursor nullkeys = {NULL, 9};
  LB_CHECK(sample(0.5f, false, &small, out) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(sample(0.5f, false, &nullkeys, out) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(sample(NAN, false, NULL, out) == LB_ERR_NOT_FINITE);
  LB_CHECK(sample(INFINITY, true, NULL, out) == LB_ERR_NOT_FINITE);
  LB_CHECK(sample(1e30f, true, NULL, out) == LB_ERR_OUT_OF_RANGE);
  lb_sample_job job = {0};
  job.clip = &g_clip;
  job.rest = g_rest;
  job.output = out;
  job.joint_count = 2; /* fewer than the clip's joints */
  LB_CHECK(lb_sample_job_run(&job) == LB_ERR_INVALID_ARGUMENT);
  job.joint_count = 3;
  job.rest = NULL;
  LB_CHECK(lb_sample_job_run(&job) == LB_ERR_INVALID_ARGUMENT);
  job.rest = out; /* aliasing */
  LB_CHECK(lb_sample_job_run(&job) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_sample_job_run(NULL) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(memcmp(out, before, sizeof(out)) == 0);
  LB_CHECK(memcmp(keys, keys_before, sizeof(keys)) == 0);
  /* Clamped far times are fine without loop. */
  LB_CHECK(sample(1e30f, false, NULL, out) == LB_OK);
}

/* ---- exact keys ------------------------------------------------------------------------------ */
static void check_track_keys(const lb_track *tr, int joint, int channel, int *checked) {
  lb_transform out[3];
  for (uint32_t k = 0; k < tr->count; ++k) {
    for (int loop = 0; loop < 2; ++loop) {
      float t = tr->times[k];
      if (loop && t >= DUR) {
        continue; /* duration wraps to 0 */
      }
      LB_CHECK(sample(t, loop != 0, NULL, out) == LB_OK);
      const float *v = channel == 0 ? out[joint].t : (channel == 1 ? out[joint].r : out[joint].s);
      int comps = channel == 1 ? 4 : 3;
      LB_CHECK(memcmp(v, tr->values + k * comps, (size_t)comps * sizeof(float)) == 0);
      ++*checked;
    }
  }
}

static void test_exact_keys(void) {
  make_clip();
  int checked = 0;
  check_track_keys(&g_tracks[0].translation, 0, 0, &checked);
  check_track_keys(&g_tracks[1].translation, 1, 0, &checked);
  check_track_keys(&g_tracks[1].rotation, 1, 1, &checked);
  check_track_keys(&g_tracks[1].scale, 1, 2, &checked);
  check_track_keys(&g_tracks[2].translation, 2, 0, &checked);
  /* Channels without tracks keep the rest pose. */
  lb_transform out[3];
  LB_CHECK(sample(0.37f, true, NULL, out) == LB_OK);
  LB_CHECK(memcmp(out[2].r, g_rest[2].r, sizeof(versor)) == 0);
  LB_CHECK(memcmp(out[2].s, g_rest[2].s, sizeof(vec3)) == 0);
  LB_CHECK(memcmp(out[0].r, g_rest[0].r, sizeof(versor)) == 0);
  printf("exact keys: %d samples bit-equal to their keys (LINEAR and STEP, loop on/off)\n",
         checked);
}

/* ---- midpoints ------------------------------------------------------------------------------- */
static void test_midpoints(void) {
  make_clip();
  lb_transform out[3];
  double max_t = 0, max_deg = 0;
  const double fr[5] = {0.5, 0.1, 0.25, 0.75, 0.9};
  /* Root translation and joint 1 rotation, inside segments. */
  for (int k = 0; k < 4; ++k) {
    for (int f = 0; f < 5; ++f) {
      float t0 = k_root_times[k], t1 = k_root_times[k + 1];
      float t = t0 + (t1 - t0) * (float)fr[f];
      double u = ((double)t - t0) / ((double)t1 - t0);
      LB_CHECK(sample(t, false, NULL, out) == LB_OK);
      for (int c = 0; c < 3; ++c) {
        double e = (double)k_root_t[3 * k + c] +
                   ((double)k_root_t[3 * (k + 1) + c] - k_root_t[3 * k + c]) * u;
        max_t = maxd(max_t, fabs(out[0].t[c] - e));
      }
    }
  }
  for (int k = 0; k < 2; ++k) {
    for (int f = 0; f < 5; ++f) {
      float t0 = k_j1_rtimes[k], t1 = k_j1_rtimes[k + 1];
      float t = t0 + (t1 - t0) * (float)fr[f];
      double u = ((double)t - t0) / ((double)t1 - t0), q[4];
      LB_CHECK(sample(t, false, NULL, out) == LB_OK);
      slerp_d(&k_j1_r[4 * k], &k_j1_r[4 * (k + 1)], u, q);
      max_deg = maxd(max_deg, quat_diff_deg(out[1].r, q));
    }
  }
  /* Midpoint of the second segment (40 deg -> -30 deg, stored negated): about X at +5 deg. */
  LB_CHECK(sample(0.55f, false, NULL, out) == LB_OK);
  double mid[4] = {sin(2.5 * DEG), 0, 0, cos(2.5 * DEG)};
  double mid_err = quat_diff_deg(out[1].r, mid);
  LB_CHECK_NEAR(mid_err, 0.0, TOL_ANGLE_DEG);
  LB_CHECK(out[1].r[3] > 0.0f); /* result stays in the first key's hemisphere */
  /* STEP holds the previous key between keys. */
  LB_CHECK(sample(0.45f, false, NULL, out) == LB_OK);
  LB_CHECK(memcmp(out[1].s, &k_j1_s[0], sizeof(vec3)) == 0);
  LB_CHECK(memcmp(out[2].t, &k_j2_t[0], sizeof(vec3)) == 0);
  LB_CHECK(sample(0.05f, false, NULL, out) == LB_OK); /* before the first STEP key, no loop */
  LB_CHECK(memcmp(out[2].t, &k_j2_t[0], sizeof(vec3)) == 0);
  printf("midpoints: max translation error %.3g m, max rotation error %.3g deg (mid %.3g)\n", max_t,
         max_deg, mid_err);
  LB_CHECK_NEAR(max_t, 0.0, TOL_LERP);
  LB_CHECK_NEAR(max_deg, 0.0, TOL_ANGLE_DEG);
}

/* ---- loop seam --------------------------------------------------------------------------------
 */
static void test_loop_seam(void) {
  make_clip();
  lb_transform a[3], b[3];
  /* Joint 1 rotation: wrap span 0.8 -> 1.0 from the last key (-30 deg, stored negated) to the
   * first (0 deg): 30 deg over 0.2 s. Translation: wrap span 0.7 -> 1.2 over 0.5 s. */
  double rot_speed = 30.0 / 0.2; /* deg/s */
  double tr_speed = 0;
  for (int c = 0; c < 3; ++c) {
    double d = (double)k_j1_t[c] - k_j1_t[3 + c];
    tr_speed += d * d;
  }
  tr_speed = sqrt(tr_speed) / 0.5; /* m/s */
  double worst_ratio = 0;
  const float eps[3] = {1e-2f, 1e-3f, 1e-4f};
  for (int i = 0; i < 3; ++i) {
    LB_CHECK(sample(DUR - eps[i], true, NULL, a) == LB_OK);
    LB_CHECK(sample(eps[i], true, NULL, b) == LB_OK);
    double q[4] = {b[1].r[0], b[1].r[1], b[1].r[2], b[1].r[3]};
    double deg = quat_diff_deg(a[1].r, q);
    double dt = 0;
    for (int c = 0; c < 3; ++c) {
      double d = (double)a[1].t[c] - b[1].t[c];
      dt += d * d;
    }
    dt = sqrt(dt);
    double allowed_deg = rot_speed * 2.0 * eps[i], allowed_t = tr_speed * 2.0 * eps[i];
    printf("seam eps %.0e: rotation jump %.4g deg (interp %.4g), translation %.4g m (interp "
           "%.4g)\n",
           (double)eps[i], deg, allowed_deg, dt, allowed_t);
    LB_CHECK(deg <= allowed_deg * 1.01 + 1e-3);
    LB_CHECK(dt <= allowed_t * 1.01 + 1e-6);
    worst_ratio = maxd(worst_ratio, deg / allowed_deg);
  }
  /* duration wraps to 0 exactly; negative times wrap backward. */
  LB_CHECK(sample(DUR, true, NULL, a) == LB_OK);
  LB_CHECK(sample(0.0f, true, NULL, b) == LB_OK);
  LB_CHECK(lb_test_same_transforms(a, b, 3));
  LB_CHECK(sample(-0.25f, true, NULL, a) == LB_OK);
  LB_CHECK(sample(0.75f, true, NULL, b) == LB_OK);
  LB_CHECK(lb_test_same_transforms(a, b, 3));
  LB_CHECK(sample(3.75f, true, NULL, a) == LB_OK);
  LB_CHECK(lb_test_same_transforms(a, b, 3));
  /* Without loop the last key holds to the end. */
  LB_CHECK(sample(0.95f, false, NULL, a) == LB_OK);
  LB_CHECK(memcmp(a[1].r, &k_j1_r[8], sizeof(versor)) == 0);
  /* Wrap-span midpoint (t = 0.9): halfway from -30 deg to 0 deg. */
  LB_CHECK(sample(0.9f, true, NULL, a) == LB_OK);
  double m[4] = {sin(-7.5 * DEG), 0, 0, cos(-7.5 * DEG)};
  double wrap_mid = quat_diff_deg(a[1].r, m);
  printf("seam: worst jump / interpolation ratio %.3f, wrap-span midpoint error %.3g deg\n",
         worst_ratio, wrap_mid);
  LB_CHECK_NEAR(wrap_mid, 0.0, TOL_ANGLE_DEG);
}

/* ---- cursor ------------------------------------------------------------------------------------
 */
static void test_cursor(void) {
  make_clip();
  uint32_t keys[9];
  lb_sample_cursor cur = {keys, 9};
  lb_sample_cursor_reset(&cur);
  lb_transform a[3], b[3];
  int n = 0, mismatches = 0;
  for (int loop = 0; loop < 2; ++loop) {
    for (int i = -30; i <= 180; ++i) { /* forward sweep, -0.5 s .. 3 s */
      float t = (float)i * (1.0f / 60.0f);
      LB_CHECK(sample(t, loop != 0, &cur, a) == LB_OK);
      LB_CHECK(sample(t, loop != 0, NULL, b) == LB_OK);
      mismatches += !lb_test_same_transforms(a, b, 3);
      ++n;
    }
  }
  rng r = {0x9e3779b9u};
  for (int i = 0; i < 2000; ++i) { /* random seeks, both directions, loop on and off */
    float t = rng_range(&r, -2.0f, 4.0f);
    bool loop = (rng_u32(&r) & 1u) != 0;
    if ((i & 63) == 0) {
      t = g_tracks[1].rotation.times[i % 3]; /* exact key times too */
    }
    LB_CHECK(sample(t, loop, &cur, a) == LB_OK);
    LB_CHECK(sample(t, loop, NULL, b) == LB_OK);
    mismatches += !lb_test_same_transforms(a, b, 3);
    ++n;
  }
  for (int i = 0; i < 9; ++i) {
    keys[i] = 0xffffffffu; /* garbage hints: still correct */
  }
  LB_CHECK(sample(0.33f, true, &cur, a) == LB_OK);
  LB_CHECK(sample(0.33f, true, NULL, b) == LB_OK);
  mismatches += !lb_test_same_transforms(a, b, 3);
  printf("cursor: %d samples, %d differ from a fresh search (bit-compare)\n", n + 1, mismatches);
  LB_CHECK(mismatches == 0);
}

/* ---- blending ----------------------------------------------------------------------------------
 */
#define NJ 6
static const int16_t k_parents[NJ] = {-1, 0, 1, 1, 3, 0}; /* subtree of 3 = {3, 4} */

static lb_result blend(const lb_blend_layer *layers, uint32_t n, const lb_additive_layer *add,
                       uint32_t nadd, const lb_transform *rest, lb_transform *out) {
  lb_blend_job job = lb_blend_default_job();
  job.layers = layers;
  job.layer_count = n;
  job.additive = add;
  job.additive_count = nadd;
  job.rest = rest;
  job.joint_count = NJ;
  job.output = out;
  return lb_blend_job_run(&job);
}

static void test_blend_weights(void) {
  rng r = {12345u};
  lb_transform pa[NJ], pb[NJ], rest[NJ], out[NJ], out2[NJ];
  for (int j = 0; j < NJ; ++j) {
    rng_transform(&r, &pa[j]);
    rng_transform(&r, &pb[j]);
    rng_transform(&r, &rest[j]);
  }
  lb_blend_layer layers[2] = {{pa, 0.25f, NULL}, {pb, 0.75f, NULL}};
  LB_CHECK(blend(layers, 2, NULL, 0, rest, out) == LB_OK);
  double max_err = 0;
  for (int j = 0; j < NJ; ++j) {
    double sg = 0, q[4], n = 0;
    for (int c = 0; c < 4; ++c) {
      sg += (double)pa[j].r[c] * pb[j].r[c];
    }
    sg = sg < 0 ? -1.0 : 1.0;
    for (int c = 0; c < 4; ++c) {
      q[c] = 0.25 * pa[j].r[c] + 0.75 * sg * pb[j].r[c];
      n += q[c] * q[c];
    }
    for (int c = 0; c < 4; ++c) {
      max_err = maxd(max_err, fabs(out[j].r[c] - q[c] / sqrt(n)));
    }
    for (int c = 0; c < 3; ++c) {
      max_err = maxd(max_err, fabs(out[j].t[c] - (0.25 * pa[j].t[c] + 0.75 * pb[j].t[c])));
      max_err = maxd(max_err, fabs(out[j].s[c] - (0.25 * pa[j].s[c] + 0.75 * pb[j].s[c])));
    }
  }
  /* Normalisation: weights 2 and 6 give the same pose. */
  lb_blend_layer scaled[2] = {{pa, 2.0f, NULL}, {pb, 6.0f, NULL}};
  LB_CHECK(blend(scaled, 2, NULL, 0, rest, out2) == LB_OK);
  double max_norm = 0;
  for (int j = 0; j < NJ; ++j) {
    for (int c = 0; c < 3; ++c) {
      max_norm = maxd(max_norm, fabs(out[j].t[c] - out2[j].t[c]));
    }
    for (int c = 0; c < 4; ++c) {
      max_norm = maxd(max_norm, fabs(out[j].r[c] - out2[j].r[c]));
    }
  }
  printf("blend 0.25/0.75: max component error %.3g; weights 2/6 vs 0.25/0.75 %.3g\n", max_err,
         max_norm);
  LB_CHECK_NEAR(max_err, 0.0, TOL_LERP);
  LB_CHECK_NEAR(max_norm, 0.0, TOL_LERP);
  /* Zero total weight: the rest pose, bit-equal; no layers at all too. */
  lb_blend_layer zero[2] = {{pa, 0.0f, NULL}, {pb, 0.0f, NULL}};
  LB_CHECK(blend(zero, 2, NULL, 0, rest, out) == LB_OK);
  LB_CHECK(lb_test_same_transforms(out, rest, NJ));
  LB_CHECK(blend(NULL, 0, NULL, 0, rest, out) == LB_OK);
  LB_CHECK(lb_test_same_transforms(out, rest, NJ));
  /* Bad input leaves the output untouched. */
  memset(out2, 0x33, sizeof(out2));
  memcpy(out, out2, sizeof(out));
  lb_blend_layer bad[2] = {{pa, -1.0f, NULL}, {pb, 1.0f, NULL}};
  LB_CHECK(blend(bad, 2, NULL, 0, rest, out) == LB_ERR_OUT_OF_RANGE);
  bad[0].weight = NAN;
  LB_CHECK(blend(bad, 2, NULL, 0, rest, out) == LB_ERR_NOT_FINITE);
  float mask[NJ] = {1, 1, 1, NAN, 1, 1};
  bad[0] = (lb_blend_layer){pa, 1.0f, mask};
  LB_CHECK(blend(bad, 2, NULL, 0, rest, out) == LB_ERR_NOT_FINITE);
  bad[0] = (lb_blend_layer){NULL, 1.0f, NULL};
  LB_CHECK(blend(bad, 2, NULL, 0, rest, out) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(blend(NULL, 2, NULL, 0, rest, out) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(blend(layers, 2, NULL, 0, rest, rest) == LB_ERR_INVALID_ARGUMENT);
  lb_additive_layer add_bad = {pa, pb, 1.5f, NULL};
  LB_CHECK(blend(layers, 2, &add_bad, 1, rest, out) == LB_ERR_OUT_OF_RANGE);
  LB_CHECK(lb_test_same_transforms(out, out2, NJ));
}

static void test_blend_mask(void) {
  float mask[NJ];
  LB_CHECK(lb_mask_subtree(k_parents, NJ, 3, 1.0f, 0.0f, mask) == LB_OK);
  const float want[NJ] = {0, 0, 0, 1, 1, 0};
  LB_CHECK(memcmp(mask, want, sizeof(mask)) == 0);
  float all[NJ];
  LB_CHECK(lb_mask_subtree(k_parents, NJ, 0, 1.0f, 0.0f, all) == LB_OK);
  for (int j = 0; j < NJ; ++j) {
    LB_CHECK(all[j] == 1.0f);
  }
  LB_CHECK(lb_mask_subtree(k_parents, NJ, 1, 0.5f, 0.0f, all) == LB_OK);
  const float want1[NJ] = {0, 0.5f, 0.5f, 0.5f, 0.5f, 0};
  LB_CHECK(memcmp(all, want1, sizeof(all)) == 0);
  LB_CHECK(lb_mask_subtree(k_parents, NJ, NJ, 1.0f, 0.0f, all) == LB_ERR_INVALID_ARGUMENT);
  const int16_t bad_parents[NJ] = {-1, 0, 2, 1, 3, 0}; /* parent not before child */
  LB_CHECK(lb_mask_subtree(bad_parents, NJ, 0, 1.0f, 0.0f, all) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_mask_subtree(k_parents, NJ, 0, NAN, 0.0f, all) == LB_ERR_NOT_FINITE);

  rng r = {777u};
  lb_transform base[NJ], other[NJ], rest[NJ], only_base[NJ], masked[NJ];
  for (int j = 0; j < NJ; ++j) {
    rng_transform(&r, &base[j]);
    rng_transform(&r, &other[j]);
    rng_transform(&r, &rest[j]);
  }
  lb_blend_layer one[1] = {{base, 1.0f, NULL}};
  lb_blend_layer two[2] = {{base, 1.0f, NULL}, {other, 1.0f, mask}};
  LB_CHECK(blend(one, 1, NULL, 0, rest, only_base) == LB_OK);
  LB_CHECK(blend(two, 2, NULL, 0, rest, masked) == LB_OK);
  int same_outside = 1, changed_inside = 1;
  double max_in = 0;
  for (int j = 0; j < NJ; ++j) {
    bool in = mask[j] > 0.0f;
    int eq = lb_test_same_transforms(&masked[j], &only_base[j], 1);
    if (in) {
      changed_inside &= !eq;
      for (int c = 0; c < 3; ++c) {
        max_in = maxd(max_in, fabs(masked[j].t[c] - 0.5 * ((double)base[j].t[c] + other[j].t[c])));
      }
    } else {
      same_outside &= eq;
    }
  }
  printf("mask: outside subtree bit-equal %d, inside changed %d, inside 50/50 error %.3g m\n",
         same_outside, changed_inside, max_in);
  LB_CHECK(same_outside);
  LB_CHECK(changed_inside);
  LB_CHECK_NEAR(max_in, 0.0, TOL_LERP);
}

static void test_additive(void) {
  rng r = {4242u};
  lb_transform base[NJ], ref[NJ], add[NJ], rest[NJ], plain[NJ], out[NJ];
  versor delta[NJ];
  vec3 dt[NJ];
  for (int j = 0; j < NJ; ++j) {
    rng_transform(&r, &base[j]);
    rng_transform(&r, &ref[j]);
    rng_transform(&r, &rest[j]);
    vec3 axis = {0, 1, 0};
    lb_quat_from_axis_angle(axis, (10.0f + 10.0f * (float)j) * LB_DEG2RAD, delta[j]);
    add[j] = ref[j];
    lb_quat_mul(delta[j], ref[j].r, add[j].r);
    for (int c = 0; c < 3; ++c) {
      dt[j][c] = 0.1f * (float)(c + 1);
      add[j].t[c] = ref[j].t[c] + dt[j][c];
    }
  }
  lb_blend_layer layer[1] = {{base, 1.0f, NULL}};
  LB_CHECK(blend(layer, 1, NULL, 0, rest, plain) == LB_OK);
  lb_additive_layer al = {add, ref, 0.0f, NULL};
  LB_CHECK(blend(layer, 1, &al, 1, rest, out) == LB_OK);
  LB_CHECK(lb_test_same_transforms(out, plain, NJ)); /* weight 0: bit-identical */
  double max_t = 0, max_deg = 0;
  const float weights[2] = {1.0f, 0.5f};
  for (int wi = 0; wi < 2; ++wi) {
    al.weight = weights[wi];
    LB_CHECK(blend(layer, 1, &al, 1, rest, out) == LB_OK);
    for (int j = 0; j < NJ; ++j) {
      double ang = (10.0 + 10.0 * j) * DEG * weights[wi];
      double d[4] = {0, sin(0.5 * ang), 0, cos(0.5 * ang)}, e[4];
      const float *p = plain[j].r;
      e[0] = d[3] * p[0] + d[0] * p[3] + d[1] * p[2] - d[2] * p[1];
      e[1] = d[3] * p[1] - d[0] * p[2] + d[1] * p[3] + d[2] * p[0];
      e[2] = d[3] * p[2] + d[0] * p[1] - d[1] * p[0] + d[2] * p[3];
      e[3] = d[3] * p[3] - d[0] * p[0] - d[1] * p[1] - d[2] * p[2];
      max_deg = maxd(max_deg, quat_diff_deg(out[j].r, e));
      for (int c = 0; c < 3; ++c) {
        max_t = maxd(max_t, fabs(out[j].t[c] - ((double)plain[j].t[c] + weights[wi] * dt[j][c])));
      }
    }
  }
  /* A mask keeps unmasked joints bit-identical. */
  float mask[NJ];
  LB_CHECK(lb_mask_subtree(k_parents, NJ, 3, 1.0f, 0.0f, mask) == LB_OK);
  al.weight = 1.0f;
  al.joint_weights = mask;
  LB_CHECK(blend(layer, 1, &al, 1, rest, out) == LB_OK);
  int same = 1;
  for (int j = 0; j < NJ; ++j) {
    if (mask[j] == 0.0f) {
      same &= lb_test_same_transforms(&out[j], &plain[j], 1);
    }
  }
  printf("additive: weight 0 bit-identical; weights 1, 0.5: max translation error %.3g m, "
         "rotation %.3g deg; masked-out joints bit-identical %d\n",
         max_t, max_deg, same);
  LB_CHECK_NEAR(max_t, 0.0, TOL_LERP);
  LB_CHECK_NEAR(max_deg, 0.0, TOL_ANGLE_DEG);
  LB_CHECK(same);
}

/* ---- root motion -------------------------------------------------------------------------------
 */
static lb_result root_motion(const lb_clip *clip, float t0, float t1, bool loop, bool vertical,
                             lb_root_motion_job *job) {
  *job = (lb_root_motion_job){0};
  job->clip = clip;
  job->t0 = t0;
  job->t1 = t1;
  job->loop = loop;
  job->vertical = vertical;
  return lb_root_motion_job_run(job);
}

/* Accumulates per-step deltas from t = 0 to t_end (steps of duration / steps_per_loop) into a
 * character frame, in double: position += R(heading) * delta; heading += yaw. */
static void accumulate(const lb_clip *clip, int steps, int steps_per_loop, bool vertical,
                       double *pos, double *heading) {
  pos[0] = pos[1] = pos[2] = 0;
  *heading = 0;
  for (int i = 0; i < steps; ++i) {
    float t0 = (float)i * clip->duration / (float)steps_per_loop;
    float t1 = (float)(i + 1) * clip->duration / (float)steps_per_loop;
    lb_root_motion_job job;
    LB_CHECK(root_motion(clip, t0, t1, true, vertical, &job) == LB_OK);
    double c = cos(*heading), s = sin(*heading);
    pos[0] += c * job.translation[0] + s * job.translation[2];
    pos[1] += job.translation[1];
    pos[2] += -s * job.translation[0] + c * job.translation[2];
    *heading += job.yaw;
  }
}

static void test_root_motion_walk(void) {
  make_clip();
  double pos[3], heading, err1 = 0, err25 = 0, err_call = 0, err_v = 0;
  accumulate(&g_clip, 600, 600, false, pos, &heading);
  err1 = sqrt(pos[0] * pos[0] + pos[1] * pos[1] + (pos[2] - 1.5) * (pos[2] - 1.5));
  LB_CHECK_NEAR(heading, 0.0, 1e-9);
  accumulate(&g_clip, 1500, 600, false, pos, &heading);
  err25 = sqrt(pos[0] * pos[0] + pos[1] * pos[1] + (pos[2] - 3.75) * (pos[2] - 3.75));
  accumulate(&g_clip, 1500, 600, true, pos, &heading); /* vertical: bob ends where it started */
  err_v = sqrt(pos[0] * pos[0] + pos[1] * pos[1] + (pos[2] - 3.75) * (pos[2] - 3.75));
  lb_root_motion_job job;
  LB_CHECK(root_motion(&g_clip, 0.0f, 2.5f, true, false, &job) == LB_OK);
  err_call = fabs(job.translation[2] - 3.75) + fabs(job.translation[0]) + fabs(job.translation[1]);
  /* A step across the seam moves as much as any other step (no unwinding). */
  LB_CHECK(root_motion(&g_clip, 0.99f, 1.01f, true, false, &job) == LB_OK);
  LB_CHECK_NEAR(job.translation[2], 0.03, 1e-6);
  /* Reverse playback: the inverse motion. */
  LB_CHECK(root_motion(&g_clip, 2.5f, 0.0f, true, false, &job) == LB_OK);
  LB_CHECK_NEAR(job.translation[2], -3.75, TOL_ROOT);
  /* Without loop the times clamp to the clip. */
  LB_CHECK(root_motion(&g_clip, 0.0f, 7.0f, false, false, &job) == LB_OK);
  LB_CHECK_NEAR(job.translation[2], 1.5, TOL_ROOT);
  /* Vertical: mid-bob (t = 0.25) is 2 cm up. */
  LB_CHECK(root_motion(&g_clip, 0.0f, 0.25f, true, true, &job) == LB_OK);
  LB_CHECK_NEAR(job.translation[1], 0.02, 1e-7);
  LB_CHECK(root_motion(&g_clip, 0.0f, 0.25f, true, false, &job) == LB_OK);
  LB_CHECK(job.translation[1] == 0.0f);
  printf("root motion walk: 1 loop in 600 steps error %.3g m; 2.5 loops %.3g m (vertical %.3g); "
         "one call over 2.5 loops %.3g m\n",
         err1, err25, err_v, err_call);
  LB_CHECK_NEAR(err1, 0.0, TOL_ROOT);
  LB_CHECK_NEAR(err25, 0.0, TOL_ROOT);
  LB_CHECK_NEAR(err_v, 0.0, TOL_ROOT);
  LB_CHECK_NEAR(err_call, 0.0, TOL_ROOT);

  /* Bad input. */
  LB_CHECK(root_motion(&g_clip, NAN, 0.0f, true, false, &job) == LB_ERR_NOT_FINITE);
  LB_CHECK(root_motion(&g_clip, 0.0f, 1e30f, true, false, &job) == LB_ERR_OUT_OF_RANGE);
  LB_CHECK(root_motion(NULL, 0.0f, 1.0f, true, false, &job) == LB_ERR_INVALID_ARGUMENT);
  job = (lb_root_motion_job){0};
  job.clip = &g_clip;
  job.root_joint = 3;
  LB_CHECK(lb_root_motion_job_run(&job) == LB_ERR_INVALID_ARGUMENT);
}

/* Root motion of `clip` at `root` with and without a cursor (fresh, carried from call to call,
 * or filled with nonsense), across loop seams and in reverse; returns the calls compared and
 * adds those whose bits differ to *differ. */
static int root_motion_cursor_calls(const lb_clip *clip, uint32_t root, int *differ) {
  uint32_t keys[64];
  lb_sample_cursor cursor = {keys, lb_clip_track_count(clip)};
  LB_CHECK(cursor.capacity <= 64u);
  memset(keys, 0, sizeof keys);
  int compared = 0;
  for (int fill = 0; fill < 3; ++fill) {
    for (int i = -40; i < 260; ++i) {
      float t0 = (float)i * 0.013f, t1 = (float)(i + (i % 7 == 0 ? -3 : 1)) * 0.013f;
      if (i % 50 == 0) {
        t1 = t0 + 2.3f * clip->duration; /* more than a whole loop in one call */
      }
      if (fill == 1) {
        lb_sample_cursor_reset(&cursor);
      } else if (fill == 2) {
        for (uint32_t k = 0; k < cursor.capacity; ++k) {
          keys[k] = (uint32_t)i * 2654435761u ^ k * 40503u; /* any index, in range or not */
        }
      }
      for (int loop = 0; loop < 2; ++loop) {
        lb_root_motion_job plain = {0}, hinted;
        plain.clip = clip;
        plain.root_joint = root;
        plain.t0 = t0;
        plain.t1 = t1;
        plain.loop = loop != 0;
        plain.vertical = true;
        hinted = plain;
        hinted.cursor = &cursor;
        lb_result a = lb_root_motion_job_run(&plain);
        lb_result b = lb_root_motion_job_run(&hinted);
        LB_CHECK(a == b);
        if (a == LB_OK) {
          ++compared;
          *differ += memcmp(plain.translation, hinted.translation, sizeof plain.translation) != 0 ||
                     memcmp(&plain.yaw, &hinted.yaw, sizeof plain.yaw) != 0;
        }
      }
    }
  }
  return compared;
}

/* A cursor is a hint only: root motion with one has the bits of root motion without one, on
 * a root with translation keys only, on one whose translation and rotation keys differ, and on
 * one whose tracks share their key times (the memo path); a cursor too small for the clip or
 * without keys is refused. */
static void test_root_motion_cursor(void) {
  make_clip();
  static const float times[3] = {0.0f, 0.9f, 2.0f};
  static const float tr[9] = {0, 0, 0, 0.1f, 0.02f, 0.4f, 0, 0, 1};
  float rot[12];
  vec3 y = {0, 1, 0};
  for (int k = 0; k < 3; ++k) {
    lb_quat_from_axis_angle(y, (float)k * 50.0f * LB_DEG2RAD, &rot[4 * k]);
  }
  lb_joint_tracks jt = {0};
  jt.translation = (lb_track){3, times, tr, LB_INTERP_LINEAR};
  jt.rotation = (lb_track){3, times, rot, LB_INTERP_LINEAR};
  lb_clip turning = {2.0f, 1, &jt};
  LB_CHECK(lb_clip_validate(&turning) == LB_OK);
  int differ = 0;
  int compared = root_motion_cursor_calls(&g_clip, 0u, &differ);
  compared += root_motion_cursor_calls(&g_clip, 1u, &differ);
  compared += root_motion_cursor_calls(&turning, 0u, &differ);
  printf("root motion cursor: %d calls compared bit for bit, %d differ\n", compared, differ);
  LB_CHECK(compared > 3000);
  LB_CHECK(differ == 0);
  uint32_t keys[64] = {0};
  lb_root_motion_job job = {0};
  job.clip = &g_clip;
  job.t1 = 0.5f;
  lb_sample_cursor small = {keys, lb_clip_track_count(&g_clip) - 1u};
  job.cursor = &small;
  LB_CHECK(lb_root_motion_job_run(&job) == LB_ERR_INVALID_ARGUMENT);
  lb_sample_cursor none = {NULL, lb_clip_track_count(&g_clip)};
  job.cursor = &none;
  LB_CHECK(lb_root_motion_job_run(&job) == LB_ERR_INVALID_ARGUMENT);
  lb_sample_cursor fits = {keys, lb_clip_track_count(&g_clip)};
  job.cursor = &fits;
  LB_CHECK(lb_root_motion_job_run(&job) == LB_OK);
}

/* A turning clip: each loop walks 1 m forward while turning 90 deg left; four loops close a
 * square, so the motion over 4 loops is the identity (loops compose, they do not unwind). */
static void test_root_motion_turn(void) {
  static const float times[2] = {0.0f, 2.0f};
  static const float tr[6] = {0, 0, 0, 0, 0, 1};
  float rot[8];
  vec3 y = {0, 1, 0};
  lb_quat_from_axis_angle(y, 0.0f, &rot[0]);
  lb_quat_from_axis_angle(y, 90.0f * LB_DEG2RAD, &rot[4]);
  lb_joint_tracks jt = {0};
  jt.translation = (lb_track){2, times, tr, LB_INTERP_LINEAR};
  jt.rotation = (lb_track){2, times, rot, LB_INTERP_LINEAR};
  lb_clip clip = {2.0f, 1, &jt};
  LB_CHECK(lb_clip_validate(&clip) == LB_OK);
  lb_root_motion_job job;
  LB_CHECK(root_motion(&clip, 0.0f, 2.0f, true, false, &job) == LB_OK);
  double one_t = fabs(job.translation[0]) + fabs(job.translation[2] - 1.0);
  double one_yaw = fabs(job.yaw - 90.0 * DEG);
  LB_CHECK(root_motion(&clip, 0.0f, 8.0f, true, false, &job) == LB_OK);
  double square =
      sqrt(job.translation[0] * job.translation[0] + job.translation[2] * job.translation[2]);
  double square_yaw = fabs(job.yaw);
  LB_CHECK(root_motion(&clip, 0.0f, 4.0f, true, false, &job) == LB_OK);
  double two_t = fabs(job.translation[0] - 1.0) + fabs(job.translation[2] - 1.0);
  double pos[3], heading;
  accumulate(&clip, 4 * 240, 240, false, pos, &heading);
  double acc = sqrt(pos[0] * pos[0] + pos[2] * pos[2]);
  double acc_yaw = fabs(heading - 2.0 * 3.14159265358979323846);
  printf("root motion turn: 1 loop error %.3g m / %.3g deg; 2 loops %.3g m; 4 loops (square) "
         "%.3g m / %.3g deg; 960 steps %.3g m / %.3g deg\n",
         one_t, one_yaw / DEG, two_t, square, square_yaw / DEG, acc, acc_yaw / DEG);
  LB_CHECK_NEAR(one_t, 0.0, TOL_ROOT);
  LB_CHECK_NEAR(one_yaw / DEG, 0.0, TOL_ANGLE_DEG);
  LB_CHECK_NEAR(two_t, 0.0, TOL_ROOT);
  LB_CHECK_NEAR(square, 0.0, TOL_ROOT);
  LB_CHECK_NEAR(square_yaw / DEG, 0.0, TOL_ANGLE_DEG);
  LB_CHECK_NEAR(acc, 0.0, 1e-4);
  LB_CHECK_NEAR(acc_yaw / DEG, 0.0, TOL_ANGLE_DEG);
}

/* ---- nlerp against slerp on the mannequin's clips ------------------------------------------ */

/* Rotation keys interpolate with nlerp unless the two keys are more than 8 deg apart. On the
 * generated Mixamo mannequin (30 Hz keys) this measures, for every rotation track of every
 * clip, the widest key-to-key arc and, at fractions around nlerp's worst case, the angle
 * between the sampled rotation and the exact (double) slerp, and the largest component
 * difference (tests/node/gltf.test.mjs compares to three.js, which slerps, at 1e-5). */
static void test_nlerp_mannequin(void) {
  size_t size = 0;
  uint8_t *bytes = lb_test_read_file("assets/rigs/mannequin-mixamo.glb", &size);
  LB_CHECK(bytes != NULL);
  if (!bytes) {
    return;
  }
  lb_gltf_def def = lb_gltf_default_def();
  def.data = bytes;
  def.size = size;
  lb_gltf_asset *asset = NULL;
  char msg[LB_GLTF_MESSAGE_MAX];
  lb_result r = lb_gltf_import(&def, &asset, msg, sizeof msg);
  free(bytes);
  LB_CHECK(r == LB_OK);
  if (r != LB_OK) {
    return;
  }
  uint32_t n = asset->skeleton.joint_count;
  lb_transform *out = malloc(n * sizeof *out);
  LB_CHECK(out != NULL);
  const double fr[7] = {0.1, 0.2, 0.21, 0.5, 0.79, 0.8, 0.9};
  double max_arc = 0, max_deg = 0, max_comp = 0;
  uint32_t segments = 0, wide = 0, samples = 0;
  for (uint32_t c = 0; out && c < asset->clip_count; ++c) {
    const lb_clip *clip = &asset->clips[c].clip;
    LB_CHECK(lb_clip_validate(clip) == LB_OK);
    for (uint32_t j = 0; j < clip->joint_count; ++j) {
      const lb_track *tr = &clip->joints[j].rotation;
      for (uint32_t k = 0; tr->interp == LB_INTERP_LINEAR && k + 1u < tr->count; ++k) {
        const float *qa = tr->values + 4u * k, *qb = qa + 4;
        double d = 0;
        for (int i = 0; i < 4; ++i) {
          d += (double)qa[i] * qb[i];
        }
        d = fabs(d) > 1.0 ? 1.0 : fabs(d);
        double arc = 2.0 * acos(d) / DEG;
        max_arc = maxd(max_arc, arc);
        ++segments;
        if (arc > 8.0) {
          ++wide;
        }
        for (int f = 0; f < 7; ++f) {
          float t0 = tr->times[k], t1 = tr->times[k + 1u];
          float t = t0 + (t1 - t0) * (float)fr[f];
          double u = ((double)t - t0) / ((double)t1 - t0), q[4];
          lb_sample_job job = {0};
          job.clip = clip;
          job.time = t;
          job.rest = asset->skeleton.rest;
          job.joint_count = n;
          job.output = out;
          LB_CHECK(lb_sample_job_run(&job) == LB_OK);
          slerp_d(qa, qb, u, q);
          max_deg = maxd(max_deg, quat_diff_deg(out[j].r, q));
          double dq = 0;
          for (int i = 0; i < 4; ++i) {
            dq += out[j].r[i] * q[i];
          }
          for (int i = 0; i < 4; ++i) {
            max_comp = maxd(max_comp, fabs(out[j].r[i] - (dq < 0 ? -q[i] : q[i])));
          }
          ++samples;
        }
      }
    }
  }
  printf("nlerp vs slerp, mannequin-mixamo: %u segments, widest key arc %.3g deg, %u above 8 deg "
         "(slerp); %u samples: max error %.3g deg, max component difference %.3g\n",
         segments, max_arc, wide, samples, max_deg, max_comp);
  LB_CHECK(segments > 0u);
  LB_CHECK_NEAR(max_deg, 0.0, 1e-3);
  LB_CHECK_NEAR(max_comp, 0.0, 1e-5); /* the three.js cross-check tolerance */
  free(out);
  lb_gltf_free(asset);
}

/* ---- four-wide sampling (lb_clip_frames) ---------------------------------------------------- */

/* Samples `clip` at many times (before, on and between keys, wrapping, clamped) with and
 * without frames, with and without cursors: every output bit must agree. Returns the
 * number of poses compared. */
static uint32_t frames_compare(const lb_clip *clip, const lb_clip_frames *fr,
                               const lb_transform *rest, uint32_t n) {
  lb_transform *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  uint32_t tracks = lb_clip_track_count(clip);
  uint32_t *ka = calloc(tracks, sizeof *ka), *kb = calloc(tracks, sizeof *kb);
  uint32_t poses = 0;
  LB_CHECK(a && b && ka && kb);
  for (int loop = 0; a && b && ka && kb && loop < 2; ++loop) {
    for (int cur = 0; cur < 2; ++cur) {
      lb_sample_cursor ca = {ka, tracks}, cb = {kb, tracks};
      for (int i = -40; i < 400; ++i) {
        float t = (float)i * clip->duration / 157.0f;
        if (i % 37 == 0) {
          t = clip->duration; /* the end exactly */
        }
        lb_sample_job j1 = {0}, j2 = {0};
        j1.clip = j2.clip = clip;
        j2.frames = fr;
        j1.time = j2.time = t;
        j1.loop = j2.loop = loop != 0;
        j1.cursor = cur ? &ca : NULL;
        j2.cursor = cur ? &cb : NULL;
        j1.rest = j2.rest = rest;
        j1.joint_count = j2.joint_count = n;
        j1.output = a;
        j2.output = b;
        LB_CHECK(lb_sample_job_run(&j1) == LB_OK && lb_sample_job_run(&j2) == LB_OK);
        if (!lb_test_same_transforms(a, b, n)) {
          LB_CHECK(!"frames change the sampled bits");
          printf("  differs at t = %.9g loop %d cursor %d\n", (double)t, loop, cur);
          goto done;
        }
        ++poses;
      }
    }
  }
done:
  free(a);
  free(b);
  free(ka);
  free(kb);
  return poses;
}

/* The generated rigs' clips (glTF, one 30 Hz grid), and a synthetic clip with keys far apart
 * (slerp lanes), hemisphere flips, a joint without a rotation track and a lane count that is
 * not a multiple of four. */
static void test_frames_bit_identical(void) {
  uint32_t poses = 0, clips = 0;
  for (size_t fi = 0; fi < sizeof k_rig_files / sizeof k_rig_files[0]; ++fi) {
    lb_gltf_asset *asset = lb_test_import_rig(k_rig_files[fi], lb_gltf_default_def().key_tolerance);
    for (uint32_t c = 0; asset && c < asset->clip_count; ++c) {
      lb_clip_frames *fr = NULL;
      LB_CHECK(lb_clip_frames_create(&asset->clips[c].clip, NULL, &fr) == LB_OK);
      poses += frames_compare(&asset->clips[c].clip, fr, asset->skeleton.rest,
                              asset->skeleton.joint_count);
      ++clips;
      lb_clip_frames_destroy(fr);
    }
    lb_gltf_free(asset);
  }
  /* Synthetic: 7 joints, joint 3 without rotation, keys 25 degrees apart on joint 0, a sign
   * flip on joint 5. */
  enum { J = 7, K = 5 };
  static float times[K] = {0.0f, 0.25f, 0.5f, 0.9f, 1.0f};
  static float q[J][K][4];
  lb_joint_tracks tracks[J];
  memset(tracks, 0, sizeof tracks);
  lb_transform rest[J];
  for (int j = 0; j < J; ++j) {
    lb_transform_identity(&rest[j]);
    for (int k = 0; k < K; ++k) {
      float deg = (j == 0 ? 25.0f : 3.0f + (float)j) * (float)k;
      float h = deg * 0.5f * 3.14159265f / 180.0f;
      float s = sinf(h), co = cosf(h);
      float ax[3] = {0.3f * (float)j, 1.0f, 0.2f};
      float l = sqrtf(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
      float sign = (j == 5 && k % 2) ? -1.0f : 1.0f;
      q[j][k][0] = sign * s * ax[0] / l;
      q[j][k][1] = sign * s * ax[1] / l;
      q[j][k][2] = sign * s * ax[2] / l;
      q[j][k][3] = sign * co;
    }
    if (j != 3) {
      tracks[j].rotation.count = K;
      tracks[j].rotation.times = times;
      tracks[j].rotation.values = &q[j][0][0];
    }
  }
  /* Bitwise-equal keys (lb_clip_reduce_job's constant stretches), which both samplers copy:
   * joint 2's keys 1 and 2 (one lane of a group), joints 5 and 6 from key 2 on (every lane of
   * the second group, its padding lanes included). */
  memcpy(q[2][2], q[2][1], sizeof q[2][1]);
  for (int k = 3; k < K; ++k) {
    memcpy(q[5][k], q[5][2], sizeof q[5][2]);
    memcpy(q[6][k], q[6][2], sizeof q[6][2]);
  }
  lb_clip clip = {1.2f, J, tracks};
  LB_CHECK(lb_clip_validate(&clip) == LB_OK);
  lb_clip_frames *fr = NULL;
  LB_CHECK(lb_clip_frames_create(&clip, NULL, &fr) == LB_OK);
  poses += frames_compare(&clip, fr, rest, J);
  {
    /* between two equal keys the sample is the key itself, bit for bit */
    lb_transform out[J];
    lb_sample_job job = {0};
    job.clip = &clip;
    job.frames = fr;
    job.time = 0.37f;
    job.rest = rest;
    job.joint_count = J;
    job.output = out;
    LB_CHECK(lb_sample_job_run(&job) == LB_OK);
    LB_CHECK(memcmp(out[2].r, q[2][1], sizeof q[2][1]) == 0);
    job.time = 0.95f;
    LB_CHECK(lb_sample_job_run(&job) == LB_OK);
    LB_CHECK(memcmp(out[5].r, q[5][2], sizeof q[5][2]) == 0);
    LB_CHECK(memcmp(out[6].r, q[6][2], sizeof q[6][2]) == 0);
  }
  lb_clip_frames_destroy(fr);
  /* Another key grid on one track, or STEP: no frames (the caller samples without). */
  static float other[K] = {0.0f, 0.2f, 0.5f, 0.9f, 1.0f};
  tracks[6].rotation.times = other;
  LB_CHECK(lb_clip_frames_create(&clip, NULL, &fr) == LB_ERR_INVALID_ARGUMENT && fr == NULL);
  tracks[6].rotation.times = times;
  tracks[6].rotation.interp = LB_INTERP_STEP;
  LB_CHECK(lb_clip_frames_create(&clip, NULL, &fr) == LB_ERR_INVALID_ARGUMENT && fr == NULL);
  printf("frames (%s): %u clips, %u poses sampled with and without frames, bit-identical\n",
         LB_TEST_SIMD_NAME, clips + 1u, poses);
}

/* The uniform blend (four joints per lane group) against the per-joint path (joint weights of
 * 1, which multiply exactly): same bits, on random poses with opposite hemispheres, 3 layers,
 * joint counts that are not multiples of four. */
static void test_blend_uniform_bits(void) {
  rng r = {0x2545f491u};
  uint32_t differ = 0, joints_total = 0;
  for (uint32_t round = 0; round < 200; ++round) {
    uint32_t n = 1u + round % 23u;
    lb_transform pose[3][23], rest[23], a[23], b[23];
    float ones[23];
    for (uint32_t j = 0; j < n; ++j) {
      ones[j] = 1.0f;
      lb_transform_identity(&rest[j]);
      for (int l = 0; l < 3; ++l) {
        lb_transform *x = &pose[l][j];
        for (int c = 0; c < 3; ++c) {
          x->t[c] = (float)(int32_t)(rng_u32(&r) % 2001u - 1000u) * 1e-3f;
          x->s[c] = 0.5f + (float)(rng_u32(&r) % 1000u) * 1e-3f;
        }
        for (int c = 0; c < 4; ++c) {
          x->r[c] = (float)(int32_t)(rng_u32(&r) % 2001u - 1000u) * 1e-3f;
        }
        lb_quat_normalize(x->r);
      }
      /* layers that agree on a vector give it back exactly (every third translation, every
       * fifth scale, a -0 against +0 that must not count as agreeing) */
      if (j % 3u == 0u) {
        memcpy(pose[1][j].t, pose[0][j].t, sizeof pose[0][j].t);
        memcpy(pose[2][j].t, pose[0][j].t, sizeof pose[0][j].t);
      }
      if (j % 5u == 0u) {
        memcpy(pose[1][j].s, pose[0][j].s, sizeof pose[0][j].s);
        memcpy(pose[2][j].s, pose[0][j].s, sizeof pose[0][j].s);
      }
      if (j == 7u) {
        pose[0][j].t[1] = 0.0f;
        pose[1][j].t[1] = -0.0f;
        pose[2][j].t[1] = 0.0f;
        pose[1][j].t[0] = pose[2][j].t[0] = pose[0][j].t[0];
        pose[1][j].t[2] = pose[2][j].t[2] = pose[0][j].t[2];
      }
    }
    const float w[3] = {0.2f, 0.5f, 0.3f};
    lb_blend_layer la[3], lb[3];
    for (int l = 0; l < 3; ++l) {
      la[l].pose = lb[l].pose = pose[l];
      la[l].weight = lb[l].weight = w[l] * (float)(1u + round % 3u);
      la[l].joint_weights = NULL;
      lb[l].joint_weights = ones;
    }
    lb_blend_job ja = lb_blend_default_job(), jb = lb_blend_default_job();
    ja.layers = la;
    jb.layers = lb;
    ja.layer_count = jb.layer_count = 3;
    ja.rest = jb.rest = rest;
    ja.joint_count = jb.joint_count = n;
    ja.output = a;
    jb.output = b;
    LB_CHECK(lb_blend_job_run(&ja) == LB_OK && lb_blend_job_run(&jb) == LB_OK);
    differ += lb_test_same_transforms(a, b, n) ? 0u : 1u;
    for (uint32_t j = 0; j < n; ++j) {
      LB_CHECK(j % 3u != 0u || memcmp(a[j].t, pose[0][j].t, sizeof a[j].t) == 0);
      LB_CHECK(j % 5u != 0u || memcmp(a[j].s, pose[0][j].s, sizeof a[j].s) == 0);
    }
    joints_total += n;
  }
  printf("blend (%s): 200 blends, %u joints, uniform vs per-joint path: %u differ\n",
         LB_TEST_SIMD_NAME, joints_total, differ);
  LB_CHECK(differ == 0);
}

/* ---- sampling and blending in one pass (lb_sample_blend_job) ----------------------------------
 */

/* A root-motion-like adjustment: the horizontal translation removed, the rotation turned. */
static void sb_adjust(void *user, uint32_t layer, lb_transform *local) {
  (void)user;
  local->t[0] = 0.0f;
  local->t[2] = 0.25f * (float)layer;
  versor turn = {0.0f, 0.38268343f, 0.0f, 0.92387953f};
  lb_quat_mul(turn, local->r, local->r);
  lb_quat_normalize(local->r);
}

typedef struct sb_rig {
  const lb_clip *clips[8];
  lb_clip_frames *frames[8];
  uint32_t clip_count;
  const lb_transform *rest;
  uint32_t joint_count;
} sb_rig;

/* Random layer sets (1..4 layers, repeated clips, zero weights, times before, on and between
 * keys, looping or clamped, with and without the adjusted joint, cursors kept between calls)
 * through lb_sample_blend_job_run and through the sample jobs + adjust + lb_blend_job_run.
 * Returns the poses compared; *together counts the calls that left the scratch untouched
 * (the one-pass path). */
static uint32_t sample_blend_compare(const sb_rig *rig, rng *r, uint32_t rounds, bool drop_frames,
                                     uint32_t *together, uint32_t *differ) {
  enum { L = 4 };
  uint32_t n = rig->joint_count, poses = 0;
  lb_transform *scratch = malloc((size_t)L * n * sizeof *scratch);
  lb_transform *ref = malloc((size_t)L * n * sizeof *ref);
  lb_transform *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  uint32_t tracks = lb_clip_track_count(rig->clips[0]) + 3u * n;
  uint32_t *keys = calloc((size_t)L * tracks, sizeof *keys);
  LB_CHECK(scratch && ref && a && b && keys);
  for (uint32_t round = 0; scratch && ref && a && b && keys && round < rounds; ++round) {
    uint32_t count = 1u + rng_u32(r) % L;
    lb_sample_job samples[L], plain[L];
    float weights[L];
    lb_sample_cursor cursors[L];
    bool loop = rng_u32(r) % 4u != 0u;
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t c = rng_u32(r) % rig->clip_count;
      const lb_clip *clip = rig->clips[c];
      cursors[i] = (lb_sample_cursor){keys + (size_t)i * tracks, lb_clip_track_count(clip)};
      memset(&samples[i], 0, sizeof samples[i]);
      samples[i].clip = clip;
      samples[i].frames = drop_frames && i == count - 1u ? NULL : rig->frames[c];
      samples[i].time = rng_range(r, -0.2f, 1.3f) * clip->duration;
      if (rng_u32(r) % 8u == 0u) {
        samples[i].time = clip->duration * (float)(rng_u32(r) % 3u) * 0.5f;
      }
      samples[i].loop = loop;
      samples[i].cursor = rng_u32(r) % 2u ? &cursors[i] : NULL;
      samples[i].rest = rig->rest;
      samples[i].joint_count = n;
      samples[i].output = scratch + (size_t)i * n;
      plain[i] = samples[i];
      plain[i].cursor = NULL;
      plain[i].output = ref + (size_t)i * n;
      weights[i] = rng_u32(r) % 5u == 0u ? 0.0f : rng_range(r, 0.05f, 2.0f);
    }
    bool adjust = rng_u32(r) % 2u != 0u;
    uint32_t adjust_joint = rng_u32(r) % n;
    for (size_t k = 0; k < (size_t)L * n; ++k) {
      lb_transform_identity(&scratch[k]);
      scratch[k].t[0] = 12345.0f; /* a sentinel the one-pass path never overwrites */
    }
    lb_sample_blend_job job = lb_sample_blend_default_job();
    job.samples = samples;
    job.weights = weights;
    job.layer_count = count;
    job.rest = rig->rest;
    job.joint_count = n;
    job.output = a;
    if (adjust) {
      job.adjust = sb_adjust;
      job.adjust_joint = adjust_joint;
    }
    LB_CHECK(lb_sample_blend_job_run(&job) == LB_OK);
    bool untouched = true;
    for (size_t k = 0; k < (size_t)count * n; ++k) {
      untouched = untouched && scratch[k].t[0] == 12345.0f;
    }
    *together += untouched;
    lb_blend_layer layers[L];
    for (uint32_t i = 0; i < count; ++i) {
      LB_CHECK(lb_sample_job_run(&plain[i]) == LB_OK);
      if (adjust && weights[i] > 0.0f) {
        sb_adjust(NULL, i, &plain[i].output[adjust_joint]);
      }
      layers[i] = (lb_blend_layer){plain[i].output, weights[i], NULL};
    }
    lb_blend_job blend = lb_blend_default_job();
    blend.layers = layers;
    blend.layer_count = count;
    blend.rest = rig->rest;
    blend.joint_count = n;
    blend.output = b;
    LB_CHECK(lb_blend_job_run(&blend) == LB_OK);
    *differ += lb_test_same_transforms(a, b, n) ? 0u : 1u;
    ++poses;
  }
  free(scratch);
  free(ref);
  free(a);
  free(b);
  free(keys);
  return poses;
}

static void test_sample_blend_bits(void) {
  rng r = {0x9e3779b9u};
  uint32_t poses = 0, together = 0, differ = 0, apart = 0, apart_together = 0;
  for (size_t fi = 0; fi < sizeof k_rig_files / sizeof k_rig_files[0]; ++fi) {
    lb_gltf_asset *asset = lb_test_import_rig(k_rig_files[fi], lb_gltf_default_def().key_tolerance);
    if (!asset) {
      continue;
    }
    sb_rig rig;
    memset(&rig, 0, sizeof rig);
    rig.rest = asset->skeleton.rest;
    rig.joint_count = asset->skeleton.joint_count;
    for (uint32_t c = 0; c < asset->clip_count && rig.clip_count < 8u; ++c) {
      rig.clips[rig.clip_count] = &asset->clips[c].clip;
      LB_CHECK(lb_clip_frames_create(rig.clips[rig.clip_count], NULL,
                                     &rig.frames[rig.clip_count]) == LB_OK);
      ++rig.clip_count;
    }
    poses += sample_blend_compare(&rig, &r, 400, false, &together, &differ);
    apart += sample_blend_compare(&rig, &r, 100, true, &apart_together, &differ);
    for (uint32_t c = 0; c < rig.clip_count; ++c) {
      lb_clip_frames_destroy(rig.frames[c]);
    }
    lb_gltf_free(asset);
  }
  printf("sample+blend (%s): %u layer sets in one pass (%u left the scratch untouched), %u with "
         "a layer without frames (%u untouched), %u differ from sample jobs + blend job\n",
         LB_TEST_SIMD_NAME, poses, together, apart, apart_together, differ);
  LB_CHECK(differ == 0);
  LB_CHECK(together == poses);
  /* A layer without frames and a weight > 0 sends the set through the sample jobs. */
  LB_CHECK(apart_together < apart);
  /* Synthetic: two clips of 7 joints (joint 3 without a rotation track, a translation track on
   * joint 1, a scale track on joint 2, keys 25 degrees apart on joint 0) on a 9-joint rest
   * pose: the joints past the clips and the unrotated one blend their rest values. */
  enum { J = 7, K = 5 };
  static float times[K] = {0.0f, 0.25f, 0.5f, 0.9f, 1.0f};
  static float q[2][J][K][4], tv[K][3], sv[K][3];
  lb_joint_tracks tracks[2][J];
  memset(tracks, 0, sizeof tracks);
  lb_transform rest[9];
  for (int j = 0; j < 9; ++j) {
    rng_transform(&r, &rest[j]);
  }
  for (int k = 0; k < K; ++k) {
    for (int c = 0; c < 3; ++c) {
      tv[k][c] = 0.1f * (float)(k + c);
      sv[k][c] = 1.0f + 0.05f * (float)(k * c);
    }
  }
  lb_clip clips[2];
  sb_rig rig;
  memset(&rig, 0, sizeof rig);
  for (int v = 0; v < 2; ++v) {
    for (int j = 0; j < J; ++j) {
      for (int k = 0; k < K; ++k) {
        float deg = (j == 0 ? 25.0f : 3.0f + (float)j) * (float)k + 40.0f * (float)v;
        float h = deg * 0.5f * 3.14159265f / 180.0f;
        float ax[3] = {0.3f * (float)j, 1.0f, 0.2f * (float)(v + 1)};
        float l = sqrtf(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
        for (int c = 0; c < 3; ++c) {
          q[v][j][k][c] = sinf(h) * ax[c] / l;
        }
        q[v][j][k][3] = cosf(h);
      }
      if (j != 3) {
        tracks[v][j].rotation = (lb_track){K, times, &q[v][j][0][0], LB_INTERP_LINEAR};
      }
    }
    tracks[v][1].translation = (lb_track){K, times, &tv[0][0], LB_INTERP_LINEAR};
    if (v == 1) {
      tracks[v][2].scale = (lb_track){K, times, &sv[0][0], LB_INTERP_LINEAR};
    }
    clips[v] = (lb_clip){1.2f, J, tracks[v]};
    LB_CHECK(lb_clip_validate(&clips[v]) == LB_OK);
    rig.clips[v] = &clips[v];
    LB_CHECK(lb_clip_frames_create(&clips[v], NULL, &rig.frames[v]) == LB_OK);
  }
  rig.clip_count = 2;
  rig.rest = rest;
  rig.joint_count = 9;
  uint32_t synth_together = 0, synth_differ = 0;
  uint32_t synth = sample_blend_compare(&rig, &r, 400, false, &synth_together, &synth_differ);
  lb_clip_frames_destroy(rig.frames[0]);
  lb_clip_frames_destroy(rig.frames[1]);
  printf("sample+blend synthetic (unrotated joint, joints past the clip, slerp lanes): %u sets, "
         "%u in one pass, %u differ\n",
         synth, synth_together, synth_differ);
  LB_CHECK(synth_differ == 0 && synth_together == synth);
  /* Bad input: named by the result code, output and cursor untouched. */
  lb_sample_blend_job job = lb_sample_blend_default_job();
  LB_CHECK(lb_sample_blend_job_run(NULL) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_sample_blend_job_run(&job) == LB_ERR_INVALID_ARGUMENT);
  lb_transform scratch[2][9], out[9], other_rest[9];
  memcpy(other_rest, rest, sizeof rest);
  uint32_t keys[2][27];
  memset(keys, 0, sizeof keys);
  lb_sample_cursor cur[2] = {{keys[0], 27}, {keys[1], 27}};
  lb_sample_job s2[2];
  for (int v = 0; v < 2; ++v) {
    memset(&s2[v], 0, sizeof s2[v]);
    s2[v].clip = &clips[v];
    s2[v].time = 0.4f;
    s2[v].loop = true;
    s2[v].cursor = &cur[v];
    s2[v].rest = rest;
    s2[v].joint_count = 9;
    s2[v].output = scratch[v];
  }
  float w2[2] = {0.5f, 0.5f};
  const float sentinel = 4321.0f;
  struct {
    const char *what;
    lb_result code;
  } cases[] = {{"ok", LB_OK},
               {"9 layers", LB_ERR_INVALID_ARGUMENT},
               {"NaN weight", LB_ERR_NOT_FINITE},
               {"negative weight", LB_ERR_OUT_OF_RANGE},
               {"sample with another rest", LB_ERR_INVALID_ARGUMENT},
               {"two layers sharing scratch", LB_ERR_INVALID_ARGUMENT},
               {"output is a sample's output", LB_ERR_INVALID_ARGUMENT},
               {"adjust joint past the pose", LB_ERR_INVALID_ARGUMENT},
               {"NaN sample time", LB_ERR_NOT_FINITE}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    lb_sample_job sj[2] = {s2[0], s2[1]};
    float w[2] = {w2[0], w2[1]};
    job = lb_sample_blend_default_job();
    job.samples = sj;
    job.weights = w;
    job.layer_count = 2;
    job.rest = rest;
    job.joint_count = 9;
    job.output = out;
    switch (c) {
    case 1:
      job.layer_count = 9;
      break;
    case 2:
      w[1] = NAN;
      break;
    case 3:
      w[0] = -0.5f;
      break;
    case 4:
      sj[1].rest = other_rest;
      break;
    case 5:
      sj[1].output = scratch[0];
      break;
    case 6:
      job.output = scratch[1];
      break;
    case 7:
      job.adjust = sb_adjust;
      job.adjust_joint = 9;
      break;
    case 8:
      sj[0].time = NAN;
      break;
    default:
      break;
    }
    for (int j = 0; j < 9; ++j) {
      lb_transform_identity(&out[j]);
      out[j].t[0] = sentinel;
    }
    memset(keys, 0xab, sizeof keys);
    lb_result got = lb_sample_blend_job_run(&job);
    bool untouched = true;
    for (int j = 0; j < 9; ++j) {
      untouched = untouched && out[j].t[0] == sentinel;
    }
    bool keys_kept = keys[0][0] == 0xababababu && keys[1][3] == 0xababababu;
    if (got != cases[c].code || (c > 0 && (!untouched || !keys_kept))) {
      printf("  sample+blend bad input '%s': %s (expected %s), output %s\n", cases[c].what,
             lb_result_name(got), lb_result_name(cases[c].code), untouched ? "kept" : "changed");
      LB_CHECK(!"sample+blend bad input");
    }
  }
}

int main(void) {
  LB_RUN(test_validate);
  LB_RUN(test_exact_keys);
  LB_RUN(test_midpoints);
  LB_RUN(test_loop_seam);
  LB_RUN(test_cursor);
  LB_RUN(test_blend_weights);
  LB_RUN(test_blend_mask);
  LB_RUN(test_additive);
  LB_RUN(test_root_motion_walk);
  LB_RUN(test_root_motion_turn);
  LB_RUN(test_root_motion_cursor);
  LB_RUN(test_nlerp_mannequin);
  LB_RUN(test_frames_bit_identical);
  LB_RUN(test_blend_uniform_bits);
  LB_RUN(test_sample_blend_bits);
  LB_TEST_MAIN_END();
}
