/* Two-bone IK: the job (limber/ik.h) on synthetic arms, and the TwoBoneIK component through
 * the world. Errors are measured in double from the corrected joint positions and the worst
 * cases are printed, so drift shows in CI logs before it crosses a limit. */
#include "limber/limber.h"

#include <string.h>

#include "test.h"

#define TOL_REACH 1e-4     /* m, tip to a reachable target */
#define TOL_ANGLE_DEG 0.01 /* straight limb, pointing, tip rotation */
#define TOL_DISTANCE 1e-5  /* m, reported distance for unreachable targets */
#define N_SAMPLES 1000

/* ---- PRNG helpers over test.h's rng ---- */

/* [0, 1) with 24 random bits. */
static float rng_unit(rng *r) {
  return (float)(rng_u32(r) >> 8) * (1.0f / 16777216.0f);
}
static float rng_range(rng *r, float lo, float hi) {
  return lo + (hi - lo) * rng_unit(r);
}

static void rng_dir(rng *r, vec3 out) {
  for (;;) {
    vec3 v = {rng_range(r, -1, 1), rng_range(r, -1, 1), rng_range(r, -1, 1)};
    float l2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    if (l2 > 0.01f && l2 <= 1.0f) {
      lb_vec3_normalize_to(v, out);
      return;
    }
  }
}

static void rng_quat(rng *r, versor q) {
  vec3 axis;
  rng_dir(r, axis);
  lb_quat_from_axis_angle(axis, rng_range(r, -LB_PI, LB_PI), q);
}

/* ---- double-precision helpers for measuring ---------------------------------------------- */
static double dot3(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static double len3(const double *a) {
  return sqrt(dot3(a, a));
}
static void sub3(const float *a, const float *b, double *out) {
  for (int i = 0; i < 3; ++i) {
    out[i] = (double)a[i] - (double)b[i];
  }
}
static void cross3(const double *a, const double *b, double *out) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}
/* Angle between two vectors in degrees (atan2 form: accurate near 0 and 180). */
static double angle_deg(const double *a, const double *b) {
  double c[3];
  cross3(a, b, c);
  return atan2(len3(c), dot3(a, b)) * 180.0 / 3.14159265358979323846;
}
/* Angle of the rotation between two quaternions, in degrees. */
static double quat_diff_deg(const versor a, const versor b) {
  double na = 0, nb = 0, d = 0;
  for (int i = 0; i < 4; ++i) {
    na += (double)a[i] * a[i];
    nb += (double)b[i] * b[i];
    d += (double)a[i] * b[i];
  }
  double c = fabs(d) / sqrt(na * nb);
  c = c > 1.0 ? 1.0 : c;
  return 2.0 * acos(c) * 180.0 / 3.14159265358979323846;
}
/* Component of v perpendicular to unit-ish axis a. */
static void perp(const double *v, const double *a, double *out) {
  double k = dot3(v, a) / dot3(a, a);
  for (int i = 0; i < 3; ++i) {
    out[i] = v[i] - k * a[i];
  }
}

/* ---- arms ----------------------------------------------------------------------------------- */
typedef struct arm {
  lb_transform j[3];   /* root, mid, tip: model space */
  lb_transform out[3]; /* after applying the job's corrections */
} arm;

/* Root at `root`, upper bone along `dir` (l1), lower bone at `bend` radians from the upper
 * bone, turned toward unit `side` (perpendicular to dir), joint rotations `rot`. */
static void arm_make(arm *a, const vec3 root, const vec3 dir, const vec3 side, float l1, float l2,
                     float bend, const versor rot) {
  float c = lb_cos(bend), s = lb_sin(bend);
  for (int k = 0; k < 3; ++k) {
    lb_transform_identity(&a->j[k]);
    memcpy(a->j[k].r, rot, sizeof(versor));
  }
  for (int i = 0; i < 3; ++i) {
    a->j[0].t[i] = root[i];
    a->j[1].t[i] = root[i] + l1 * dir[i];
    a->j[2].t[i] = a->j[1].t[i] + l2 * (c * dir[i] + s * side[i]);
  }
}

static void arm_random(arm *a, rng *r, float *l1, float *l2) {
  vec3 root = {rng_range(r, -1, 1), rng_range(r, 0, 2), rng_range(r, -1, 1)};
  vec3 dir, any, side;
  rng_dir(r, dir);
  rng_dir(r, any);
  float d = dir[0] * any[0] + dir[1] * any[1] + dir[2] * any[2];
  vec3 p = {any[0] - d * dir[0], any[1] - d * dir[1], any[2] - d * dir[2]};
  if (lb_vec3_normalize_to(p, side) == 0.0f) {
    lb_vec3_any_perpendicular(dir, side);
  }
  *l1 = rng_range(r, 0.2f, 0.4f);
  *l2 = rng_range(r, 0.15f, 0.35f);
  versor q;
  rng_quat(r, q);
  arm_make(a, root, dir, side, *l1, *l2, rng_range(r, 10.0f, 170.0f) * LB_DEG2RAD, q);
}

static void job_for(lb_two_bone_ik_job *job, arm *a, const vec3 target) {
  *job = lb_two_bone_ik_default_job();
  job->root = &a->j[0];
  job->mid = &a->j[1];
  job->tip = &a->j[2];
  memcpy(job->target, target, sizeof(vec3));
}

/* Applies the corrections as documented: r' = corr * r, child offsets turned by the parent's
 * correction. */
static void arm_apply(arm *a, const lb_two_bone_ik_job *job) {
  vec3 u = {a->j[1].t[0] - a->j[0].t[0], a->j[1].t[1] - a->j[0].t[1], a->j[1].t[2] - a->j[0].t[2]};
  vec3 v = {a->j[2].t[0] - a->j[1].t[0], a->j[2].t[1] - a->j[1].t[1], a->j[2].t[2] - a->j[1].t[2]};
  vec3 ru, rv;
  lb_quat_rotate(job->root_correction, u, ru);
  lb_quat_rotate(job->mid_correction, v, rv);
  for (int k = 0; k < 3; ++k) {
    a->out[k] = a->j[k];
  }
  for (int i = 0; i < 3; ++i) {
    a->out[1].t[i] = a->j[0].t[i] + ru[i];
    a->out[2].t[i] = a->out[1].t[i] + rv[i];
  }
  lb_quat_mul(job->root_correction, a->j[0].r, a->out[0].r);
  lb_quat_mul(job->mid_correction, a->j[1].r, a->out[1].r);
  lb_quat_mul(job->tip_correction, a->j[2].r, a->out[2].r);
}

static bool transforms_finite(const lb_transform *x, int n) {
  for (int k = 0; k < n; ++k) {
    const float *f = &x[k].t[0];
    float all[10] = {f[0],      f[1],      f[2],      x[k].r[0], x[k].r[1],
                     x[k].r[2], x[k].r[3], x[k].s[0], x[k].s[1], x[k].s[2]};
    for (int i = 0; i < 10; ++i) {
      if (!lb_is_finite(all[i])) {
        return false;
      }
    }
  }
  return true;
}

static bool job_finite(const lb_two_bone_ik_job *job) {
  for (int i = 0; i < 4; ++i) {
    if (!lb_is_finite(job->root_correction[i]) || !lb_is_finite(job->mid_correction[i]) ||
        !lb_is_finite(job->tip_correction[i])) {
      return false;
    }
  }
  return lb_is_finite(job->distance);
}

static double tip_error(const arm *a, const vec3 target) {
  double d[3];
  sub3(a->out[2].t, target, d);
  return len3(d);
}

/* The swing's shortest arc (lb_quat_from_to) must take a onto b at every angle, including
 * nearly opposite vectors, and be the shortest rotation (angle = angle between a and b). */
static void test_from_to(void) {
  rng r = {0x5EEDu};
  double worst = 0.0, worst_angle = 0.0;
  for (int n = 0; n < 20000; ++n) {
    vec3 a, b, rb;
    rng_dir(&r, a);
    rng_dir(&r, b);
    if (n % 2) { /* b within 0.001 .. 1 degree of -a */
      vec3 p;
      versor spin;
      lb_vec3_any_perpendicular(a, p);
      float tilt = rng_range(&r, 1e-3f, 1.0f) * LB_DEG2RAD;
      lb_quat_from_axis_angle(a, rng_range(&r, -LB_PI, LB_PI), spin);
      lb_quat_rotate(spin, p, b);
      for (int i = 0; i < 3; ++i) {
        b[i] = -a[i] * lb_cos(tilt) + b[i] * lb_sin(tilt);
      }
      lb_vec3_normalize_to(b, b);
    }
    versor q;
    lb_quat_from_to(a, b, q);
    lb_quat_rotate(q, a, rb);
    double e[3], da[3] = {a[0], a[1], a[2]}, db[3] = {b[0], b[1], b[2]};
    sub3(rb, b, e);
    double err = len3(e);
    worst = err > worst || err != err ? err : worst;
    double ang =
        fabs(2.0 *
                 atan2(sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2]),
                       fabs((double)q[3])) *
                 180.0 / 3.14159265358979323846 -
             angle_deg(da, db));
    worst_angle = ang > worst_angle ? ang : worst_angle;
  }
  const vec3 x = {1, 0, 0}, mx = {-1, 0, 0};
  versor q;
  vec3 rx;
  lb_quat_from_to(x, mx, q);
  lb_quat_rotate(q, x, rx);
  printf("quat from_to: max miss %.3g (unit vectors), max excess angle %.3g deg\n", worst,
         worst_angle);
  LB_CHECK(worst < 2e-6); /* float rounding of a ~180 degree turn; the old miss was 1.4e-3 */
  LB_CHECK(worst_angle < 1e-3);
  LB_CHECK_NEAR(rx[0], -1.0, 1e-7); /* exactly opposite */
}

/* ---- job: reachable targets ----------------------------------------------------------------- */
static void test_reachable(void) {
  rng r = {0x12345678u};
  double max_err = 0.0, max_len = 0.0, max_reported = 0.0;
  int not_reached = 0;
  for (int n = 0; n < N_SAMPLES; ++n) {
    arm a;
    float l1, l2;
    arm_random(&a, &r, &l1, &l2);
    float dmin = fabsf(l1 - l2), dmax = l1 + l2;
    vec3 dir, target;
    rng_dir(&r, dir);
    float dist = rng_range(&r, dmin + 1e-3f, dmax - 1e-3f);
    for (int i = 0; i < 3; ++i) {
      target[i] = a.j[0].t[i] + dist * dir[i];
    }
    lb_two_bone_ik_job job;
    job_for(&job, &a, target);
    LB_CHECK(lb_two_bone_ik_job_run(&job) == LB_OK);
    arm_apply(&a, &job);
    double err = tip_error(&a, target);
    max_err = err > max_err || err != err ? err : max_err;
    not_reached += !job.reached;
    double rep = fabs((double)job.distance - err);
    max_reported = rep > max_reported ? rep : max_reported;
    /* bones keep their lengths */
    double u[3], v[3];
    sub3(a.out[1].t, a.out[0].t, u);
    sub3(a.out[2].t, a.out[1].t, v);
    double le = fmax(fabs(len3(u) - l1), fabs(len3(v) - l2));
    max_len = le > max_len ? le : max_len;
  }
  printf("ik reachable: %d targets, max tip error %.3g m, max bone length change %.3g m, max "
         "|reported - measured| %.3g m\n",
         N_SAMPLES, max_err, max_len, max_reported);
  LB_CHECK(max_err < TOL_REACH);
  LB_CHECK(max_len < 1e-5);
  LB_CHECK(max_reported < 1e-5);
  LB_CHECK(not_reached == 0);
}

/* Targets almost straight behind the limb (the swing is close to 180 degrees). */
static void test_reachable_behind(void) {
  const vec3 root = {-0.17f, 1.44f, 0.0f}, dir = {-1.0f, 0.0f, 0.0f}, side = {0.0f, 0.0f, -1.0f};
  const versor id = {0, 0, 0, 1};
  double max_err = 0.0;
  const float offsets_deg[] = {0.0f, 0.005f, 0.02f, 0.05f, 0.07f, 0.1f, 0.3f, 1.0f, 5.0f};
  for (size_t k = 0; k < sizeof offsets_deg / sizeof offsets_deg[0]; ++k) {
    for (int axis = 0; axis < 2; ++axis) {
      arm a;
      arm_make(&a, root, dir, side, 0.28f, 0.25f, 60.0f * LB_DEG2RAD, id);
      /* Same distance as now, so the bend stays; direction = -(root→tip), tilted. */
      double at[3];
      sub3(a.j[2].t, a.j[0].t, at);
      double dist = len3(at), back[3] = {-at[0] / dist, -at[1] / dist, -at[2] / dist};
      double tilt = offsets_deg[k] * 3.14159265358979323846 / 180.0;
      double ortho[3] = {0.0, axis == 0 ? 1.0 : 0.0, axis == 1 ? 1.0 : 0.0};
      double o[3];
      perp(ortho, back, o);
      double ol = len3(o);
      vec3 target;
      for (int i = 0; i < 3; ++i) {
        target[i] = (float)(root[i] + dist * (cos(tilt) * back[i] + sin(tilt) * o[i] / ol));
      }
      lb_two_bone_ik_job job;
      job_for(&job, &a, target);
      LB_CHECK(lb_two_bone_ik_job_run(&job) == LB_OK);
      arm_apply(&a, &job);
      double err = tip_error(&a, target);
      if (!(err < TOL_REACH)) {
        fprintf(stderr, "  behind by %.3f deg (axis %d): tip error %.3g m\n",
                (double)offsets_deg[k], axis, err);
      }
      max_err = err > max_err || err != err ? err : max_err;
    }
  }
  printf("ik behind the limb: max tip error %.3g m\n", max_err);
  LB_CHECK(max_err < TOL_REACH);
}

/* ---- job: unreachable targets ------------------------------------------------------------- */
static void test_unreachable(void) {
  rng r = {0xC0FFEEu};
  double max_straight = 0.0, max_point = 0.0, max_dist = 0.0;
  int reached = 0;
  for (int n = 0; n < N_SAMPLES; ++n) {
    arm a;
    float l1, l2;
    arm_random(&a, &r, &l1, &l2);
    vec3 dir, target;
    rng_dir(&r, dir);
    float dist = rng_range(&r, 1.001f, 3.0f) * (l1 + l2);
    for (int i = 0; i < 3; ++i) {
      target[i] = a.j[0].t[i] + dist * dir[i];
    }
    lb_two_bone_ik_job job;
    job_for(&job, &a, target);
    LB_CHECK(lb_two_bone_ik_job_run(&job) == LB_OK);
    arm_apply(&a, &job);
    double u[3], v[3], rt[3], rg[3];
    sub3(a.out[1].t, a.out[0].t, u);
    sub3(a.out[2].t, a.out[1].t, v);
    sub3(a.out[2].t, a.out[0].t, rt);
    sub3(target, a.out[0].t, rg);
    double straight = angle_deg(u, v), point = angle_deg(rt, rg);
    double want = len3(rg) - ((double)l1 + (double)l2);
    double derr = fabs((double)job.distance - want);
    max_straight = straight > max_straight || straight != straight ? straight : max_straight;
    max_point = point > max_point || point != point ? point : max_point;
    max_dist = derr > max_dist || derr != derr ? derr : max_dist;
    reached += job.reached;
  }
  printf("ik unreachable: max bend %.3g deg, max pointing error %.3g deg, max distance error "
         "%.3g m\n",
         max_straight, max_point, max_dist);
  LB_CHECK(max_straight < TOL_ANGLE_DEG);
  LB_CHECK(max_point < TOL_ANGLE_DEG);
  LB_CHECK(max_dist < TOL_DISTANCE);
  LB_CHECK(reached == 0);

  /* Too close (inside |l1 - l2|): folded as far as it goes, pointing at the target. */
  const vec3 root = {0, 0, 0}, dir = {1, 0, 0}, side = {0, 1, 0};
  const versor id = {0, 0, 0, 1};
  arm a;
  arm_make(&a, root, dir, side, 0.30f, 0.20f, 30.0f * LB_DEG2RAD, id);
  const vec3 near = {0.02f, 0.03f, 0.04f};
  lb_two_bone_ik_job job;
  job_for(&job, &a, near);
  LB_CHECK(lb_two_bone_ik_job_run(&job) == LB_OK);
  arm_apply(&a, &job);
  double rt[3], rg[3];
  sub3(a.out[2].t, a.out[0].t, rt);
  sub3(near, a.out[0].t, rg);
  LB_CHECK(!job.reached);
  LB_CHECK_NEAR(len3(rt), 0.10, 1e-5);
  LB_CHECK(angle_deg(rt, rg) < TOL_ANGLE_DEG);
  LB_CHECK_NEAR(job.distance, 0.10 - len3(rg), 1e-5);
}

/* ---- job: weights, bend side, hints, degenerate input ------------------------------------ */
static void test_job_weight_zero(void) {
  rng r = {99u};
  for (int n = 0; n < 50; ++n) {
    arm a;
    float l1, l2;
    arm_random(&a, &r, &l1, &l2);
    vec3 target = {a.j[0].t[0] + 0.1f, a.j[0].t[1] + 0.2f, a.j[0].t[2]};
    lb_two_bone_ik_job job;
    job_for(&job, &a, target);
    job.weight = 0.0f;
    LB_CHECK(lb_two_bone_ik_job_run(&job) == LB_OK);
    const versor id = {0, 0, 0, 1};
    LB_CHECK(memcmp(job.root_correction, id, sizeof id) == 0);
    LB_CHECK(memcmp(job.mid_correction, id, sizeof id) == 0);
    LB_CHECK(memcmp(job.tip_correction, id, sizeof id) == 0);
    double d[3];
    sub3(a.j[2].t, target, d);
    LB_CHECK_NEAR(job.distance, len3(d), 1e-6);
  }
}

/* The elbow stays on the side the animation bent it toward, for targets within 80 degrees of
 * the current root→tip direction. */
static void test_bend_side_kept(void) {
  rng r = {0xBEEFu};
  const vec3 root = {0, 0, 0};
  const versor id = {0, 0, 0, 1};
  int checked = 0;
  double min_offset = 1.0;
  for (int n = 0; n < 500; ++n) {
    arm a;
    vec3 dir, side;
    rng_dir(&r, dir);
    lb_vec3_any_perpendicular(dir, side);
    arm_make(&a, root, dir, side, 0.28f, 0.25f, rng_range(&r, 20.0f, 150.0f) * LB_DEG2RAD, id);
    double rt[3], um[3], bend[3];
    sub3(a.j[2].t, a.j[0].t, rt);
    sub3(a.j[1].t, a.j[0].t, um);
    perp(um, rt, bend); /* where the elbow points off the root→tip line */
    vec3 tdir, target;
    rng_dir(&r, tdir);
    double td[3] = {tdir[0], tdir[1], tdir[2]};
    double bp[3]; /* any direction, also behind the limb */
    perp(bend, td, bp);
    if (len3(bp) < 0.5 * len3(bend)) {
      continue; /* the bend direction is nearly along the new line: side undefined */
    }
    float dist = rng_range(&r, 0.06f, 0.52f);
    for (int i = 0; i < 3; ++i) {
      target[i] = root[i] + dist * tdir[i];
    }
    lb_two_bone_ik_job job;
    job_for(&job, &a, target);
    LB_CHECK(lb_two_bone_ik_job_run(&job) == LB_OK);
    arm_apply(&a, &job);
    LB_CHECK(tip_error(&a, target) < TOL_REACH);
    double um2[3], e[3];
    sub3(a.out[1].t, a.out[0].t, um2);
    perp(um2, td, e);
    double side_dot = dot3(e, bp) / (len3(bp) * (len3(e) + 1e-30));
    min_offset = side_dot < min_offset ? side_dot : min_offset;
    /* The twist puts the elbow exactly on the animated side, not just the same half. */
    LB_CHECK(side_dot > 0.9999);
    checked++;
  }
  printf("ik bend side: %d targets, min cos(elbow, original bend side) %.3f\n", checked,
         min_offset);
  LB_CHECK(checked > 100);
}

static void test_straight_with_hint(void) {
  const vec3 root = {0, 0, 0}, dir = {1, 0, 0}, side = {0, 1, 0};
  const versor id = {0, 0, 0, 1};
  const vec3 hints[] = {
      {0.2f, 0.0f, -0.5f}, {0.2f, 0.5f, 0.0f}, {0.3f, -0.5f, 0.1f}, {-0.2f, 0.1f, 0.4f}};
  const vec3 targets[] = {
      {0.3f, 0.1f, 0.2f}, {0.45f, 0.0f, 0.0f}, {0.2f, -0.2f, -0.1f}, {0.0f, 0.35f, 0.1f}};
  double worst = 0.0;
  for (int h = 0; h < 4; ++h) {
    for (int t = 0; t < 4; ++t) {
      arm a;
      arm_make(&a, root, dir, side, 0.28f, 0.25f, 0.0f, id); /* straight */
      lb_two_bone_ik_job job;
      job_for(&job, &a, targets[t]);
      job.has_hint = true;
      memcpy(job.hint, hints[h], sizeof(vec3));
      LB_CHECK(lb_two_bone_ik_job_run(&job) == LB_OK);
      arm_apply(&a, &job);
      LB_CHECK(tip_error(&a, targets[t]) < TOL_REACH);
      double td[3], um[3], hd[3], e[3], hp[3];
      sub3(targets[t], root, td);
      sub3(a.out[1].t, a.out[0].t, um);
      sub3(hints[h], root, hd);
      perp(um, td, e);
      perp(hd, td, hp);
      LB_CHECK(dot3(e, hp) > 0.0); /* toward the hint side */
      double ang = angle_deg(e, hp);
      worst = ang > worst || ang != ang ? ang : worst;
    }
  }
  printf("ik straight limb + hint: max angle between elbow and hint direction %.3g deg\n", worst);
  LB_CHECK(worst < TOL_ANGLE_DEG);

  /* A hint on the limb's own line gives no side: falls back, still finite and reaching. */
  arm a;
  arm_make(&a, root, dir, side, 0.28f, 0.25f, 0.0f, id);
  lb_two_bone_ik_job job;
  job_for(&job, &a, targets[0]);
  job.has_hint = true;
  job.hint[0] = 2.0f;
  LB_CHECK(lb_two_bone_ik_job_run(&job) == LB_OK);
  arm_apply(&a, &job);
  LB_CHECK(job_finite(&job) && tip_error(&a, targets[0]) < TOL_REACH);
}

static void test_straight_no_hint(void) {
  const vec3 root = {0.1f, 1.4f, 0.0f};
  const vec3 dirs[] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, 0, -1}};
  const vec3 side = {0, 0, 1};
  const versor id = {0, 0, 0, 1};
  for (int k = 0; k < 4; ++k) {
    vec3 sd;
    if (k == 3) {
      sd[0] = 1, sd[1] = 0, sd[2] = 0;
    } else {
      memcpy(sd, side, sizeof sd);
    }
    arm a, b;
    arm_make(&a, root, dirs[k], sd, 0.28f, 0.25f, 0.0f, id);
    arm_make(&b, root, dirs[k], sd, 0.28f, 0.25f, 0.0f, id);
    vec3 target = {root[0] + 0.2f, root[1] + 0.1f, root[2] + 0.15f};
    lb_two_bone_ik_job j1, j2;
    job_for(&j1, &a, target);
    job_for(&j2, &b, target);
    LB_CHECK(lb_two_bone_ik_job_run(&j1) == LB_OK);
    LB_CHECK(lb_two_bone_ik_job_run(&j2) == LB_OK);
    LB_CHECK(job_finite(&j1));
    LB_CHECK(memcmp(&j1.root_correction, &j2.root_correction, sizeof(versor)) == 0);
    LB_CHECK(memcmp(&j1.mid_correction, &j2.mid_correction, sizeof(versor)) == 0);
    LB_CHECK(memcmp(&j1.tip_correction, &j2.tip_correction, sizeof(versor)) == 0);
    arm_apply(&a, &j1);
    LB_CHECK(transforms_finite(a.out, 3));
    LB_CHECK(tip_error(&a, target) < TOL_REACH);
  }
  /* Folded back on itself (collinear, tip between root and mid). */
  arm a;
  const vec3 x = {1, 0, 0}, y = {0, 1, 0};
  arm_make(&a, root, x, y, 0.28f, 0.25f, LB_PI, id);
  vec3 target = {root[0] + 0.1f, root[1] - 0.3f, root[2] + 0.1f};
  lb_two_bone_ik_job job;
  job_for(&job, &a, target);
  LB_CHECK(lb_two_bone_ik_job_run(&job) == LB_OK);
  arm_apply(&a, &job);
  LB_CHECK(job_finite(&job) && transforms_finite(a.out, 3));
  LB_CHECK(tip_error(&a, target) < TOL_REACH);
  /* Target exactly on the root: folded to |l1 - l2|, finite. */
  job_for(&job, &a, root);
  LB_CHECK(lb_two_bone_ik_job_run(&job) == LB_OK);
  LB_CHECK(job_finite(&job));
}

static void test_degenerate_and_bad_input(void) {
  const versor id = {0, 0, 0, 1};
  const vec3 target = {0.2f, 0.1f, 0.0f};
  /* Zero-length upper bone, lower bone, and both. */
  for (int k = 0; k < 3; ++k) {
    arm a;
    for (int j = 0; j < 3; ++j) {
      lb_transform_identity(&a.j[j]);
    }
    const float mid_x[3] = {0.0f, 0.3f, 0.0f}, tip_x[3] = {0.25f, 0.3f, 0.0f};
    a.j[1].t[0] = mid_x[k];
    a.j[2].t[0] = tip_x[k];
    lb_two_bone_ik_job job;
    job_for(&job, &a, target);
    LB_CHECK(lb_two_bone_ik_job_run(&job) == LB_ERR_DEGENERATE);
    LB_CHECK(job_finite(&job));
    LB_CHECK(memcmp(job.root_correction, id, sizeof id) == 0);
    LB_CHECK(memcmp(job.mid_correction, id, sizeof id) == 0);
    LB_CHECK(memcmp(job.tip_correction, id, sizeof id) == 0);
    LB_CHECK(!job.reached);
  }

  /* Non-finite and out-of-range input: refused, outputs untouched. */
  arm a;
  const vec3 root = {0, 0, 0}, dir = {1, 0, 0}, side = {0, 1, 0};
  arm_make(&a, root, dir, side, 0.28f, 0.25f, 0.5f, id);
  lb_two_bone_ik_job job;
  job_for(&job, &a, target);
  job.target[1] = NAN;
  job.distance = -7.0f;
  LB_CHECK(lb_two_bone_ik_job_run(&job) == LB_ERR_NOT_FINITE);
  LB_CHECK(job.distance == -7.0f);
  LB_CHECK(lb_two_bone_ik_job_validate(&job) == LB_ERR_NOT_FINITE);
  job.target[1] = INFINITY;
  LB_CHECK(lb_two_bone_ik_job_run(&job) == LB_ERR_NOT_FINITE);
  job_for(&job, &a, target);
  job.has_hint = true;
  job.hint[2] = NAN;
  LB_CHECK(lb_two_bone_ik_job_run(&job) == LB_ERR_NOT_FINITE);
  job.has_hint = false; /* an unused hint is not read */
  LB_CHECK(lb_two_bone_ik_job_run(&job) == LB_OK);
  job_for(&job, &a, target);
  job.weight = NAN;
  LB_CHECK(lb_two_bone_ik_job_run(&job) == LB_ERR_NOT_FINITE);
  job.weight = 1.5f;
  LB_CHECK(lb_two_bone_ik_job_run(&job) == LB_ERR_OUT_OF_RANGE);
  job.weight = 1.0f;
  job.soften = -0.1f;
  LB_CHECK(lb_two_bone_ik_job_run(&job) == LB_ERR_OUT_OF_RANGE);
  job.soften = 1.0f;
  job.rotation_weight = INFINITY;
  LB_CHECK(lb_two_bone_ik_job_run(&job) == LB_ERR_NOT_FINITE);
  job.rotation_weight = 0.0f;
  job.target_rotation[0] = NAN;
  LB_CHECK(lb_two_bone_ik_job_run(&job) == LB_ERR_NOT_FINITE);
  job_for(&job, &a, target);
  a.j[1].t[0] = NAN;
  LB_CHECK(lb_two_bone_ik_job_run(&job) == LB_ERR_NOT_FINITE);
  a.j[1].t[0] = 0.28f;
  a.j[2].r[3] = NAN; /* a joint rotation */
  LB_CHECK(lb_two_bone_ik_job_run(&job) == LB_ERR_NOT_FINITE);
  a.j[2].r[3] = 1.0f;
  job.tip = NULL;
  LB_CHECK(lb_two_bone_ik_job_run(&job) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_two_bone_ik_job_run(NULL) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_two_bone_ik_job_validate(NULL) == LB_ERR_INVALID_ARGUMENT);
}

static void test_rotation_weight(void) {
  rng r = {0xABCDEFu};
  double worst = 0.0, worst_half = 0.0;
  for (int n = 0; n < N_SAMPLES; ++n) {
    arm a;
    float l1, l2;
    arm_random(&a, &r, &l1, &l2);
    vec3 dir, target;
    rng_dir(&r, dir);
    float dist = rng_range(&r, fabsf(l1 - l2) + 1e-3f, l1 + l2 - 1e-3f);
    for (int i = 0; i < 3; ++i) {
      target[i] = a.j[0].t[i] + dist * dir[i];
    }
    lb_two_bone_ik_job job;
    job_for(&job, &a, target);
    rng_quat(&r, job.target_rotation);
    job.rotation_weight = 1.0f;
    LB_CHECK(lb_two_bone_ik_job_run(&job) == LB_OK);
    arm_apply(&a, &job);
    LB_CHECK(tip_error(&a, target) < TOL_REACH);
    double d = quat_diff_deg(a.out[2].r, job.target_rotation);
    worst = d > worst || d != d ? d : worst;
    /* Half weight: between the carried-along rotation and the target rotation. */
    arm b = a;
    job.rotation_weight = 0.5f;
    LB_CHECK(lb_two_bone_ik_job_run(&job) == LB_OK);
    arm_apply(&b, &job);
    versor carried;
    lb_quat_mul(job.mid_correction, a.j[2].r, carried);
    double to_target = quat_diff_deg(b.out[2].r, job.target_rotation);
    double to_carried = quat_diff_deg(b.out[2].r, carried);
    double full = quat_diff_deg(carried, job.target_rotation);
    double e = fabs(to_target - to_carried) + fabs(to_target + to_carried - full);
    worst_half = e > worst_half ? e : worst_half;
  }
  printf("ik rotation weight 1: max tip rotation error %.3g deg; weight 0.5 off the midpoint by "
         "%.3g deg\n",
         worst, worst_half);
  LB_CHECK(worst < TOL_ANGLE_DEG);
  LB_CHECK(worst_half < 0.05);
}

/* Reach distance f(d) of a target moved along a line through full reach. */
static void soften_sweep(float soften, double *max_jump, double *max_kink, double *max_reach,
                         double *err_inside) {
  const vec3 root = {0, 1.4f, 0}, dir = {-1, 0, 0}, side = {0, -1, 0};
  const versor id = {0, 0, 0, 1};
  const vec3 line = {-0.6f, -0.3f, 0.742f}; /* any direction */
  vec3 ld;
  lb_vec3_normalize_to(line, ld);
  const float l1 = 0.28f, l2 = 0.25f, dmax = l1 + l2, step = 1e-3f;
  double prev_f = -1.0, prev_slope = 0.0;
  *max_jump = *max_kink = *max_reach = *err_inside = 0.0;
  const int steps = (int)(0.2f * dmax / step); /* 90% .. 110% of full reach */
  for (int k = 0; k <= steps; ++k) {
    float d = 0.9f * dmax + step * (float)k;
    arm a;
    arm_make(&a, root, dir, side, l1, l2, 40.0f * LB_DEG2RAD, id);
    vec3 target = {root[0] + d * ld[0], root[1] + d * ld[1], root[2] + d * ld[2]};
    lb_two_bone_ik_job job;
    job_for(&job, &a, target);
    job.soften = soften;
    LB_CHECK(lb_two_bone_ik_job_run(&job) == LB_OK);
    arm_apply(&a, &job);
    double rt[3];
    sub3(a.out[2].t, root, rt);
    double f = len3(rt);
    *max_reach = f > *max_reach ? f : *max_reach;
    if (d <= soften * dmax - 1e-4f) {
      double e = tip_error(&a, target);
      *err_inside = e > *err_inside ? e : *err_inside;
    }
    if (prev_f >= 0.0) {
      double slope = (f - prev_f) / (double)step;
      double jump = fabs(f - prev_f);
      *max_jump = jump > *max_jump ? jump : *max_jump;
      if (k >= 2) {
        double kink = fabs(slope - prev_slope);
        *max_kink = kink > *max_kink ? kink : *max_kink;
      }
      prev_slope = slope;
    }
    prev_f = f;
  }
}

static void test_soften(void) {
  double jump, kink, reach, inside;
  const float dmax = 0.53f;
  soften_sweep(0.97f, &jump, &kink, &reach, &inside);
  printf("ik soften 0.97: max step of reach %.3g m per 1 mm, max slope change %.3g, max reach "
         "%.6f m of %.2f, error before the band %.3g m\n",
         jump, kink, reach, (double)dmax, inside);
  LB_CHECK(jump <= 1e-3 * 1.001 + 1e-6); /* continuous, never faster than the target */
  LB_CHECK(kink < 0.2);                  /* no corner */
  LB_CHECK(reach < dmax - 1e-5);         /* never snaps straight within 110% of reach */
  LB_CHECK(inside < TOL_REACH);          /* below the band the target is reached */
  soften_sweep(0.8f, &jump, &kink, &reach, &inside);
  printf("ik soften 0.8: max step %.3g m, max slope change %.3g\n", jump, kink);
  LB_CHECK(jump <= 1e-3 * 1.001 + 1e-6);
  LB_CHECK(kink < 0.2);
  LB_CHECK(inside < TOL_REACH);
  /* Without softening the same sweep has a corner at full reach: the measure can see it. */
  soften_sweep(1.0f, &jump, &kink, &reach, &inside);
  printf("ik soften 1: max slope change %.3g (corner at full reach)\n", kink);
  LB_CHECK(kink > 0.5);
  LB_CHECK_NEAR(reach, dmax, 1e-5);
}

/* ---- through the world ------------------------------------------------------------------- */
typedef struct scene {
  lb_world *w;
  uint32_t asset;
  lb_entity hero, target, arm;
} scene;

static void scene_init(scene *s, bool with_ik, float weight) {
  LB_CHECK(lb_world_create(NULL, &s->w) == LB_OK);
  LB_CHECK(lb_world_add_humanoid(s->w, NULL, &s->asset) == LB_OK);
  LB_CHECK(lb_world_spawn(s->w, &s->hero) == LB_OK);
  LB_CHECK(lb_world_spawn(s->w, &s->target) == LB_OK);
  LB_CHECK(lb_world_spawn(s->w, &s->arm) == LB_OK);
  lb_transform_c t;
  lb_component_defaults(LB_TRANSFORM, &t);
  t.position[0] = 2.0f;
  t.position[2] = -1.0f;
  const vec3 ay = {0, 1, 0};
  lb_quat_from_axis_angle(ay, 30.0f * LB_DEG2RAD, t.rotation);
  LB_CHECK(lb_world_insert(s->w, s->hero, LB_TRANSFORM, &t) == LB_OK);
  lb_rig_c rig = {s->asset};
  LB_CHECK(lb_world_insert(s->w, s->hero, LB_RIG, &rig) == LB_OK);
  /* A target in front of the right shoulder, in the hero's frame. */
  lb_transform hero_xf = {
      {2.0f, 0.0f, -1.0f}, {t.rotation[0], t.rotation[1], t.rotation[2], t.rotation[3]}, {1, 1, 1}};
  const vec3 local = {-0.35f, 1.25f, 0.3f};
  lb_component_defaults(LB_TRANSFORM, &t);
  lb_transform_point(&hero_xf, local, t.position);
  LB_CHECK(lb_world_insert(s->w, s->target, LB_TRANSFORM, &t) == LB_OK);
  if (with_ik) {
    lb_two_bone_ik_c ik;
    lb_component_defaults(LB_TWO_BONE_IK, &ik);
    ik.rig = s->hero;
    ik.target = s->target;
    ik.weight = weight;
    LB_CHECK(lb_world_insert(s->w, s->arm, LB_TWO_BONE_IK, &ik) == LB_OK);
  }
}

static void hand_world(const scene *s, vec3 out) {
  uint32_t n = 0;
  const lb_transform *m = lb_rig_model_pose(s->w, s->hero, &n);
  int hand = lb_skeleton_find_joint(s->w, s->asset, "RightHand");
  lb_transform hx;
  LB_CHECK(lb_world_entity_transform(s->w, s->hero, &hx) == LB_OK);
  lb_transform_point(&hx, m[hand].t, out);
}

static void test_world_ik(void) {
  scene s;
  scene_init(&s, true, 1.0f);
  LB_CHECK(lb_world_step(s.w, 1.0f / 60.0f) == LB_OK);
  vec3 hand;
  hand_world(&s, hand);
  lb_transform tx;
  LB_CHECK(lb_world_entity_transform(s.w, s.target, &tx) == LB_OK);
  double d[3];
  sub3(hand, tx.t, d);
  lb_two_bone_ik_c ik;
  LB_CHECK(lb_world_get(s.w, s.arm, LB_TWO_BONE_IK, &ik) == LB_OK);
  printf("ik world: hand to target %.3g m (reported %.3g m)\n", len3(d), (double)ik.distance);
  LB_CHECK(len3(d) < TOL_REACH);
  LB_CHECK(ik.reached == 1 && ik.distance < TOL_REACH);
  uint32_t n = 0;
  LB_CHECK(transforms_finite(lb_rig_model_pose(s.w, s.hero, &n), 65));
  /* No feedback between steps: the same inputs give the same pose, bit for bit. */
  lb_transform once[65];
  memcpy(once, lb_rig_model_pose(s.w, s.hero, &n), sizeof once);
  uint64_t h = lb_world_hash(s.w);
  LB_CHECK(lb_world_step(s.w, 1.0f / 60.0f) == LB_OK);
  LB_CHECK(lb_test_same_transforms(once, lb_rig_model_pose(s.w, s.hero, &n),
                                   sizeof once / sizeof once[0]));
  LB_CHECK(lb_world_hash(s.w) == h);

  /* Out of reach: arm straight toward the target, distance reported. */
  lb_transform_c t;
  LB_CHECK(lb_world_get(s.w, s.target, LB_TRANSFORM, &t) == LB_OK);
  lb_transform hero_xf;
  LB_CHECK(lb_world_entity_transform(s.w, s.hero, &hero_xf) == LB_OK);
  const vec3 far_local = {-1.5f, 1.6f, 0.6f};
  lb_transform_point(&hero_xf, far_local, t.position);
  LB_CHECK(lb_world_set(s.w, s.target, LB_TRANSFORM, &t) == LB_OK);
  LB_CHECK(lb_world_step(s.w, 1.0f / 60.0f) == LB_OK);
  LB_CHECK(lb_world_get(s.w, s.arm, LB_TWO_BONE_IK, &ik) == LB_OK);
  const lb_transform *m = lb_rig_model_pose(s.w, s.hero, &n);
  int sh = lb_skeleton_find_joint(s.w, s.asset, "RightArm");
  int el = lb_skeleton_find_joint(s.w, s.asset, "RightForeArm");
  int wr = lb_skeleton_find_joint(s.w, s.asset, "RightHand");
  double u[3], v[3], rg[3];
  sub3(m[el].t, m[sh].t, u);
  sub3(m[wr].t, m[el].t, v);
  sub3(far_local, m[sh].t, rg);
  LB_CHECK(ik.reached == 0);
  LB_CHECK_NEAR(ik.distance, len3(rg) - 0.53, 1e-5);
  LB_CHECK(angle_deg(u, v) < TOL_ANGLE_DEG);
  LB_CHECK(angle_deg(u, rg) < TOL_ANGLE_DEG);

  /* Target rotation with rotationWeight 1: the hand takes it (in rig space). */
  const vec3 axis = {0.3f, 0.8f, -0.52f};
  vec3 an;
  lb_vec3_normalize_to(axis, an);
  lb_quat_from_axis_angle(an, 1.1f, t.rotation);
  const vec3 near_local = {-0.3f, 1.2f, 0.35f};
  lb_transform_point(&hero_xf, near_local, t.position);
  LB_CHECK(lb_world_set(s.w, s.target, LB_TRANSFORM, &t) == LB_OK);
  LB_CHECK(lb_world_get(s.w, s.arm, LB_TWO_BONE_IK, &ik) == LB_OK);
  ik.rotation_weight = 1.0f;
  LB_CHECK(lb_world_set(s.w, s.arm, LB_TWO_BONE_IK, &ik) == LB_OK);
  LB_CHECK(lb_world_step(s.w, 1.0f / 60.0f) == LB_OK);
  m = lb_rig_model_pose(s.w, s.hero, &n);
  versor inv, want;
  lb_quat_conj(hero_xf.r, inv);
  lb_quat_mul(inv, t.rotation, want);
  double rot_err = quat_diff_deg(m[wr].r, want);
  hand_world(&s, hand);
  sub3(hand, t.position, d);
  printf("ik world rotationWeight 1: tip rotation error %.3g deg, position error %.3g m\n", rot_err,
         len3(d));
  LB_CHECK(rot_err < TOL_ANGLE_DEG);
  LB_CHECK(len3(d) < TOL_REACH);
  /* The fingers follow the hand (subtree refreshed). */
  int mid1 = lb_skeleton_find_joint(s.w, s.asset, "RightHandMiddle1");
  double off[3];
  sub3(m[mid1].t, m[wr].t, off);
  LB_CHECK_NEAR(len3(off), sqrt(0.097 * 0.097 + 0.008 * 0.008), 1e-5);

  /* A despawned target: the constraint idles, the step is fine. */
  LB_CHECK(lb_world_despawn(s.w, s.target) == LB_OK);
  LB_CHECK(lb_world_step(s.w, 1.0f / 60.0f) == LB_OK);
  LB_CHECK(lb_world_get(s.w, s.arm, LB_TWO_BONE_IK, &ik) == LB_OK);
  LB_CHECK(ik.reached == 0);
  lb_world_destroy(s.w);
}

static void test_world_weight_zero(void) {
  scene with, without;
  scene_init(&with, true, 0.0f);
  scene_init(&without, false, 0.0f);
  for (int k = 0; k < 3; ++k) {
    LB_CHECK(lb_world_step(with.w, 1.0f / 60.0f) == LB_OK);
    LB_CHECK(lb_world_step(without.w, 1.0f / 60.0f) == LB_OK);
  }
  uint32_t n1 = 0, n2 = 0;
  const lb_transform *a = lb_rig_model_pose(with.w, with.hero, &n1);
  const lb_transform *b = lb_rig_model_pose(without.w, without.hero, &n2);
  LB_CHECK(n1 == 65 && n2 == 65);
  LB_CHECK(lb_test_same_transforms(a, b, n1));
  LB_CHECK(lb_test_same_transforms(lb_rig_local_pose(with.w, with.hero, &n1),
                                   lb_rig_local_pose(without.w, without.hero, &n2), n1));
  LB_CHECK(lb_world_hash(with.w) == lb_world_hash(without.w));
  lb_two_bone_ik_c ik;
  LB_CHECK(lb_world_get(with.w, with.arm, LB_TWO_BONE_IK, &ik) == LB_OK);
  LB_CHECK(ik.reached == 0 && ik.distance > 0.1f); /* the distance is still reported */
  /* Weight 1 in the same world does change the pose. */
  ik.weight = 1.0f;
  LB_CHECK(lb_world_set(with.w, with.arm, LB_TWO_BONE_IK, &ik) == LB_OK);
  LB_CHECK(lb_world_step(with.w, 1.0f / 60.0f) == LB_OK);
  LB_CHECK(lb_world_hash(with.w) != lb_world_hash(without.w));
  lb_world_destroy(with.w);
  lb_world_destroy(without.w);
}

/* Joints whose output matrix differs from the one their model transform gives, bit for bit. */
static int stale_matrices(const scene *s) {
  uint32_t n = 0, nm = 0;
  const lb_transform *m = lb_rig_model_pose(s->w, s->hero, &n);
  const float *mats = lb_rig_model_matrices(s->w, s->hero, &nm);
  LB_CHECK(n == nm && n > 0);
  int stale = 0;
  for (uint32_t j = 0; j < n; ++j) {
    mat4 want;
    lb_transform_to_mat4(&m[j], want);
    stale += memcmp(want, mats + 16u * j, sizeof want) != 0;
  }
  return stale;
}

/* The Model phase writes the matrices early, leaving the joints the IK moved last step to the
 * Output phase: whatever the IK does from step to step (on, off, back on, gone), every matrix
 * after a step is its model transform's. */
static void test_world_matrices_follow_edits(void) {
  scene s;
  scene_init(&s, true, 1.0f);
  lb_two_bone_ik_c ik;
  LB_CHECK(lb_world_get(s.w, s.arm, LB_TWO_BONE_IK, &ik) == LB_OK);
  const float weights[8] = {1.0f, 1.0f, 0.0f, 0.0f, 1.0f, 0.5f, 0.0f, 1.0f};
  int stale = 0, steps = 0;
  uint32_t n = 0;
  lb_transform before[65];
  for (int k = 0; k < 8; ++k) {
    ik.weight = weights[k];
    LB_CHECK(lb_world_set(s.w, s.arm, LB_TWO_BONE_IK, &ik) == LB_OK);
    memcpy(before, lb_rig_model_pose(s.w, s.hero, &n), sizeof before);
    LB_CHECK(lb_world_step(s.w, 1.0f / 60.0f) == LB_OK);
    stale += stale_matrices(&s);
    ++steps;
    /* the sequence does move the arm (else the late joints would be written anyway) */
    if (k == 2) {
      LB_CHECK(!lb_test_same_transforms(before, lb_rig_model_pose(s.w, s.hero, &n),
                                        sizeof before / sizeof before[0]));
    }
  }
  LB_CHECK(lb_world_despawn(s.w, s.arm) == LB_OK);
  LB_CHECK(lb_world_step(s.w, 1.0f / 60.0f) == LB_OK);
  stale += stale_matrices(&s);
  ++steps;
  printf("ik world matrices: %d steps (IK on, off, on, half, off, on, gone), %d stale matrices\n",
         steps, stale);
  LB_CHECK(stale == 0);
  lb_world_destroy(s.w);
}

/* Two joints at the same position in a real rig: the job reports it, the world steps on. */
static void test_world_degenerate(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  const char *names[] = {"Root", "Same", "Elbow", "Wrist", "Hand"};
  const int16_t parents[] = {-1, 0, 1, 2, 3};
  lb_transform rest[5];
  for (int i = 0; i < 5; ++i) {
    lb_transform_identity(&rest[i]);
  }
  rest[2].t[0] = 0.3f; /* Root and Same coincide, so do Wrist and Hand */
  rest[3].t[0] = 0.25f;
  lb_skeleton_def def = lb_skeleton_default_def();
  def.joint_count = 5;
  def.names = names;
  def.parents = parents;
  def.rest = rest;
  uint32_t asset;
  LB_CHECK(lb_world_add_skeleton(w, &def, &asset) == LB_OK);
  lb_entity hero, target;
  LB_CHECK(lb_world_spawn(w, &hero) == LB_OK);
  LB_CHECK(lb_world_spawn(w, &target) == LB_OK);
  lb_rig_c rig = {asset};
  LB_CHECK(lb_world_insert(w, hero, LB_RIG, &rig) == LB_OK);
  lb_transform_c t;
  lb_component_defaults(LB_TRANSFORM, &t);
  t.position[1] = 0.2f;
  LB_CHECK(lb_world_insert(w, target, LB_TRANSFORM, &t) == LB_OK);
  LB_CHECK(lb_world_step(w, 0.0f) == LB_OK);
  uint32_t n = 0;
  lb_transform before[5];
  memcpy(before, lb_rig_model_pose(w, hero, &n), sizeof before);
  const char *tips[] = {"Elbow", "Hand"}; /* upper bone zero, then lower bone zero */
  for (int k = 0; k < 2; ++k) {
    lb_two_bone_ik_c ik;
    lb_component_defaults(LB_TWO_BONE_IK, &ik);
    ik.tip = lb_world_name(w, tips[k]);
    ik.target = target;
    LB_CHECK(lb_world_insert(w, hero, LB_TWO_BONE_IK, &ik) == LB_OK);
    LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
    const lb_transform *m = lb_rig_model_pose(w, hero, &n);
    LB_CHECK(lb_test_same_transforms(m, before,
                                     sizeof before / sizeof before[0])); /* identity corrections */
    LB_CHECK(transforms_finite(m, 5));
    LB_CHECK(lb_world_get(w, hero, LB_TWO_BONE_IK, &ik) == LB_OK);
    LB_CHECK(lb_is_finite(ik.distance));
  }
  /* The job itself says LB_ERR_DEGENERATE for this chain. */
  const lb_transform *m = lb_rig_model_pose(w, hero, &n);
  lb_two_bone_ik_job job = lb_two_bone_ik_default_job();
  job.root = &m[0];
  job.mid = &m[1];
  job.tip = &m[2];
  job.target[1] = 0.2f;
  LB_CHECK(lb_two_bone_ik_job_run(&job) == LB_ERR_DEGENERATE);
  lb_world_destroy(w);
}

/* A TwoBoneIK finds its joints again when its Rig changes skeleton (here to a humanoid of
 * another height): written by name once, it keeps reaching (it used to idle). */
static void test_rig_change_re_resolves(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  uint32_t a = 0, b = 0;
  LB_CHECK(lb_world_add_humanoid(w, NULL, &a) == LB_OK);
  lb_humanoid_def hd = lb_humanoid_default_def();
  hd.height = 1.6f;
  LB_CHECK(lb_world_add_humanoid(w, &hd, &b) == LB_OK);
  lb_entity hero = LB_NULL_ENTITY, target = LB_NULL_ENTITY;
  LB_CHECK(lb_world_spawn(w, &hero) == LB_OK);
  LB_CHECK(lb_world_spawn(w, &target) == LB_OK);
  lb_transform_c t;
  lb_component_defaults(LB_TRANSFORM, &t);
  LB_CHECK(lb_world_insert(w, hero, LB_TRANSFORM, &t) == LB_OK);
  t.position[0] = -0.3f;
  t.position[1] = 1.1f;
  t.position[2] = 0.25f;
  LB_CHECK(lb_world_insert(w, target, LB_TRANSFORM, &t) == LB_OK);
  lb_rig_c rig = {a};
  LB_CHECK(lb_world_insert(w, hero, LB_RIG, &rig) == LB_OK);
  lb_two_bone_ik_c ik;
  lb_component_defaults(LB_TWO_BONE_IK, &ik);
  ik.target = target;
  LB_CHECK(lb_world_insert(w, hero, LB_TWO_BONE_IK, &ik) == LB_OK);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  LB_CHECK(lb_world_get(w, hero, LB_TWO_BONE_IK, &ik) == LB_OK && ik.reached);
  rig.asset = b; /* same joint names, another height: the chain is found again */
  LB_CHECK(lb_world_set(w, hero, LB_RIG, &rig) == LB_OK);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  LB_CHECK(lb_world_get(w, hero, LB_TWO_BONE_IK, &ik) == LB_OK);
  printf("rig change: reached %u, %.2e m left\n", ik.reached, (double)ik.distance);
  LB_CHECK(ik.reached && ik.distance < 1e-4f);
  lb_world_destroy(w);
}

int main(void) {
  LB_RUN(test_from_to);
  LB_RUN(test_rig_change_re_resolves);
  LB_RUN(test_reachable);
  LB_RUN(test_reachable_behind);
  LB_RUN(test_unreachable);
  LB_RUN(test_job_weight_zero);
  LB_RUN(test_bend_side_kept);
  LB_RUN(test_straight_with_hint);
  LB_RUN(test_straight_no_hint);
  LB_RUN(test_degenerate_and_bad_input);
  LB_RUN(test_rotation_weight);
  LB_RUN(test_soften);
  LB_RUN(test_world_ik);
  LB_RUN(test_world_weight_zero);
  LB_RUN(test_world_matrices_follow_edits);
  LB_RUN(test_world_degenerate);
  LB_TEST_MAIN_END();
}
