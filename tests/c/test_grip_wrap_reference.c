/* The finger wrap job against a plain reference of the search its header documents: every
 * evaluation rebuilds the finger with lb_transform_mul and lb_quat_slerp and asks every moving
 * bone (the first one that touched first, then from the root), with no proven clearances,
 * no closed forms and no shape frames. The job takes shortcuts (sines by halving, positions in
 * the finger's frame, the lead bone in closed form, proven clearances and touches); it must
 * take the same decisions, so the closing fractions agree. They may differ only where a
 * sample sits within float rounding of its threshold, and then by at most one bisection
 * step; the test counts the joints that differ and prints the largest difference. */
#include "limber/grip_wrap.h"
#include "limber/limber.h"

#include <float.h>
#include <string.h>

#include "humanoid_fixture.h"
#include "test.h"

#define MAXJ LB_TEST_MAX_JOINTS
#define RESOLUTION (1.0f / (float)(LB_WRAP_MARCH_STEPS << LB_WRAP_BISECT_STEPS))
#define MAX_SHAPES 32

typedef struct hand_fx {
  lb_test_humanoid h; /* rest pose in h.local / h.model */
  lb_hand_info info;
  lb_hand_rig rig;
  lb_palm_frame_job palm;
} hand_fx;

static hand_fx g_fx;

static void fx_init(hand_fx *fx) {
  memset(fx, 0, sizeof *fx);
  lb_test_humanoid_init(&fx->h, LB_NAMING_MIXAMO, 0.0f);
  lb_hand_find_job hj = lb_hand_find_default_job();
  hj.joint_count = fx->h.count;
  hj.names = fx->h.names;
  hj.parents = fx->h.parents;
  hj.side = LB_HAND_RIGHT;
  LB_CHECK(lb_hand_find_job_run(&hj) == LB_OK);
  fx->info = hj.info;
  fx->palm = lb_palm_frame_default_job();
  fx->palm.hand = &fx->info;
  fx->palm.model = fx->h.model;
  fx->palm.joint_count = fx->h.count;
  fx->palm.parents = fx->h.parents;
  LB_CHECK(lb_palm_frame_job_run(&fx->palm) == LB_OK);
  LB_CHECK(lb_hand_rig_build(&fx->info, fx->h.parents, fx->h.local, fx->h.count, &fx->rig) ==
           LB_OK);
}

/* ---- the reference ----------------------------------------------------------------------- */

typedef struct ref_finger {
  const lb_finger_info *fi;
  const lb_wrap_job *job;
  int n, nb, active;
  float s[LB_FINGER_MAX_SEGMENTS];
  int near[MAX_SHAPES], near_count;
  bool near_all;
  float thr[LB_FINGER_MAX_SEGMENTS][MAX_SHAPES];
} ref_finger;

/* Joint positions p[0..n-1] and the last bone's end p[n], joints at closing s[]. */
static void ref_positions(const ref_finger *r, const float *s, vec3 p[LB_FINGER_MAX_SEGMENTS + 1]) {
  const lb_wrap_job *job = r->job;
  lb_transform m = job->model[job->parents[r->fi->joints[0]]];
  for (int k = 0; k < r->n; ++k) {
    int j = r->fi->joints[k];
    lb_transform l = job->local[j];
    lb_quat_slerp(job->open_local[j].r, job->pose_local[j].r, s[k], l.r);
    lb_transform_mul(&m, &l, &m);
    memcpy(p[k], m.t, sizeof(vec3));
  }
  int last = r->fi->joints[r->n - 1];
  const float *end = r->fi->tip >= 0 ? job->local[r->fi->tip].t : job->local[last].t;
  lb_transform_point(&m, end, p[r->n]);
}

static void ref_samples(vec3 p[LB_FINGER_MAX_SEGMENTS + 1], int b, vec3 out[2]) {
  memcpy(out[0], p[b + 1], sizeof(vec3));
  for (int a = 0; a < 3; ++a) {
    out[1][a] = 0.5f * (p[b][a] + p[b + 1][a]);
  }
}

static bool ref_bone_touches(const ref_finger *r, vec3 p[LB_FINGER_MAX_SEGMENTS + 1], int b) {
  vec3 pts[2];
  ref_samples(p, b, pts);
  for (int k = 0; k < 2; ++k) {
    for (int n = 0; n < r->near_count; ++n) {
      float d = lb_shape_distance(&r->job->shapes[r->near[n]], pts[k]);
      if (d < r->thr[b][r->near_all ? 0 : n]) {
        return true;
      }
    }
  }
  return false;
}

static int ref_touch(const ref_finger *r, float sv, int first) {
  float s[LB_FINGER_MAX_SEGMENTS];
  for (int k = 0; k < r->n; ++k) {
    s[k] = k >= r->active ? sv : r->s[k];
  }
  vec3 p[LB_FINGER_MAX_SEGMENTS + 1];
  ref_positions(r, s, p);
  if (first >= r->active && ref_bone_touches(r, p, first)) {
    return first;
  }
  for (int b = r->active; b < r->nb; ++b) {
    if (b != first && ref_bone_touches(r, p, b)) {
      return b;
    }
  }
  return -1;
}

/* The documented search for one finger; r->s gets the closing fractions. */
static void ref_wrap_finger(ref_finger *r) {
  for (int k = 0; k < r->n; ++k) {
    r->s[k] = 1.0f;
  }
  if (r->nb == 0 || r->job->shape_count == 0) {
    return;
  }
  float zero[LB_FINGER_MAX_SEGMENTS] = {0.0f, 0.0f, 0.0f};
  vec3 p[LB_FINGER_MAX_SEGMENTS + 1];
  ref_positions(r, zero, p);
  float reach = 0.0f;
  for (int b = 0; b < r->nb; ++b) {
    vec3 d = {p[b + 1][0] - p[b][0], p[b + 1][1] - p[b][1], p[b + 1][2] - p[b][2]};
    reach += lb_vec3_length(d);
  }
  r->near_count = 0;
  for (uint32_t i = 0; i < r->job->shape_count; ++i) {
    if (lb_shape_distance(&r->job->shapes[i], p[0]) - reach < r->job->margin + 1e-5f) {
      r->near[r->near_count++] = (int)i;
    }
  }
  if (r->near_count == 0) {
    return;
  }
  r->near_all = r->near_count > 16;
  for (int b = 0; b < r->nb; ++b) {
    vec3 pts[2];
    ref_samples(p, b, pts);
    float dmin = FLT_MAX;
    for (int n = 0; n < r->near_count; ++n) {
      const lb_shape *sh = &r->job->shapes[r->near[n]];
      float d0 = lb_shape_distance(sh, pts[0]), d1 = lb_shape_distance(sh, pts[1]);
      float d = d0 < d1 ? d0 : d1;
      r->thr[b][n] = d < r->job->margin ? d : r->job->margin;
      dmin = d < dmin ? d : dmin;
    }
    if (r->near_all) {
      r->thr[b][0] = dmin < r->job->margin ? dmin : r->job->margin;
    }
  }
  for (int k = 0; k < r->n; ++k) {
    r->s[k] = 0.0f;
  }
  r->active = 0;
  while (r->active < r->n) {
    float lo = r->s[r->active];
    int hit = -1;
    for (int k = (int)(lo * LB_WRAP_MARCH_STEPS) + 1; k <= LB_WRAP_MARCH_STEPS && hit < 0; ++k) {
      float sk = (float)k / (float)LB_WRAP_MARCH_STEPS;
      if (sk <= lo) {
        continue;
      }
      hit = ref_touch(r, sk, -1);
      if (hit < 0) {
        lo = sk;
        continue;
      }
      float hi = sk;
      for (int i = 0; i < LB_WRAP_BISECT_STEPS; ++i) {
        float mid = 0.5f * (lo + hi);
        int h = ref_touch(r, mid, hit);
        if (h >= 0) {
          hi = mid;
          hit = h;
        } else {
          lo = mid;
        }
      }
    }
    for (int k = r->active; k < r->n; ++k) {
      r->s[k] = hit < 0 ? 1.0f : lo;
    }
    if (hit < 0) {
      return;
    }
    r->active = hit + 1;
  }
}

/* ---- comparisons ------------------------------------------------------------------------- */

typedef struct cmp_total {
  int joints, differ;
  float worst;
} cmp_total;

static cmp_total g_total;

static void compare(const char *what, const lb_transform *pose_local, const lb_shape *shapes,
                    uint32_t shape_count, const lb_hand_info *info) {
  static lb_transform out[MAXJ];
  memcpy(out, g_fx.h.local, g_fx.h.count * sizeof(lb_transform));
  lb_wrap_job job = lb_wrap_default_job();
  job.hand = info;
  job.joint_count = g_fx.h.count;
  job.parents = g_fx.h.parents;
  job.local = g_fx.h.local;
  job.open_local = g_fx.h.local;
  job.pose_local = pose_local;
  job.model = g_fx.h.model;
  job.shapes = shapes;
  job.shape_count = shape_count;
  job.margin = LB_WRAP_MARGIN_FRACTION * g_fx.palm.index_length;
  job.out_local = out;
  LB_CHECK(lb_wrap_job_run(&job) == LB_OK);
  int differ = 0, joints = 0, contacts = 0;
  float worst = 0.0f;
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    const lb_finger_info *fi = &info->fingers[f];
    if (!fi->found) {
      continue;
    }
    ref_finger r;
    memset(&r, 0, sizeof r);
    r.fi = fi;
    r.job = &job;
    r.n = fi->segment_count;
    r.nb = (fi->tip >= 0 || r.n >= 2) ? r.n : 0;
    ref_wrap_finger(&r);
    contacts += job.fingers[f].contact;
    for (int k = 0; k < r.n; ++k) {
      float d = fabsf(job.fingers[f].closing[k] - r.s[k]);
      worst = d > worst ? d : worst;
      differ += d != 0.0f;
      joints++;
      if (d > RESOLUTION) {
        fprintf(stderr, "  %s: finger %d joint %d: job %.6f, reference %.6f\n", what, f, k,
                (double)job.fingers[f].closing[k], (double)r.s[k]);
      }
      LB_CHECK(d <= RESOLUTION);
    }
  }
  printf("%-34s %d of %d joints as the reference (largest difference %.2e, one step = %.2e); "
         "%d fingers in contact, %u queries\n",
         what, joints - differ, joints, (double)worst, (double)RESOLUTION, contacts, job.queries);
  g_total.joints += joints;
  g_total.differ += differ;
  g_total.worst = worst > g_total.worst ? worst : g_total.worst;
}

/* A cylinder across the palm (along palm X), near side `gap` m out of the palm plane,
 * centred `along` m up the fingers. */
static lb_shape palm_cylinder(float radius, float gap, float along) {
  lb_shape_def d = lb_shape_default_def();
  d.direction = LB_AXIS_X;
  d.radius = radius;
  d.height = 0.12f;
  d.center[1] = radius + gap;
  d.center[2] = along;
  lb_shape s;
  LB_CHECK(lb_shape_resolve(&d, &g_fx.palm.frame, &s) == LB_OK);
  return s;
}

static lb_shape palm_shape(lb_shape_type type, float x, float y, float z, float size) {
  lb_shape_def d = lb_shape_default_def();
  d.type = type;
  d.direction = LB_AXIS_Z;
  d.radius = 0.5f * size;
  d.height = 2.5f * size;
  d.size[0] = 2.0f * size;
  d.size[1] = size;
  d.size[2] = 3.0f * size;
  d.center[0] = x;
  d.center[1] = y;
  d.center[2] = z;
  lb_shape s;
  LB_CHECK(lb_shape_resolve(&d, &g_fx.palm.frame, &s) == LB_OK);
  return s;
}

static void pose_of(const char *name, lb_transform *out) {
  lb_grip_pose_def def;
  LB_CHECK(lb_grip_pose_registry_find(NULL, name, &def) == LB_OK);
  lb_finger_pose_job pj = lb_finger_pose_default_job();
  pj.rig = &g_fx.rig;
  pj.pose = &def;
  pj.joint_count = g_fx.h.count;
  pj.local = g_fx.h.local;
  pj.model = g_fx.h.model;
  memcpy(out, g_fx.h.local, g_fx.h.count * sizeof(lb_transform));
  pj.out_local = out;
  LB_CHECK(lb_finger_pose_job_run(&pj) == LB_OK);
}

static lb_transform g_pose[MAXJ];

static void test_handles(void) {
  const char *const poses[3] = {"fist", "pistol", "handle"};
  for (int p = 0; p < 3; ++p) {
    pose_of(poses[p], g_pose);
    const float radii[3] = {0.01f, 0.015f, 0.03f};
    for (int c = 0; c < 3; ++c) {
      char what[64];
      snprintf(what, sizeof what, "%s, cylinder r %.3f m", poses[p], (double)radii[c]);
      lb_shape cyl = palm_cylinder(radii[c], 0.01f, 0.04f);
      compare(what, g_pose, &cyl, 1, &g_fx.info);
    }
  }
}

static void test_start_inside(void) {
  pose_of("fist", g_pose);
  const float cases[3][3] = {
      {0.015f, 0.003f, 0.06f}, {0.01f, -0.005f, 0.06f}, {0.012f, -0.015f, 0.085f}};
  for (int c = 0; c < 3; ++c) {
    char what[64];
    snprintf(what, sizeof what, "fist, cylinder through bones %d", c);
    lb_shape cyl = palm_cylinder(cases[c][0], cases[c][1], cases[c][2]);
    compare(what, g_pose, &cyl, 1, &g_fx.info);
  }
}

/* Several shapes of every type near the fingers, at pseudo-random places. */
static void test_mixed_shapes(void) {
  rng r = {0x9e3779b9u};
  const char *const poses[2] = {"fist", "support"};
  for (int trial = 0; trial < 12; ++trial) {
    pose_of(poses[trial % 2], g_pose);
    lb_shape shapes[4];
    int count = 1 + trial % 4;
    for (int i = 0; i < count; ++i) {
      float u = (float)(rng_u32(&r) % 1000) / 1000.0f, v = (float)(rng_u32(&r) % 1000) / 1000.0f,
            w = (float)(rng_u32(&r) % 1000) / 1000.0f;
      shapes[i] = palm_shape((lb_shape_type)((trial + i) % LB_SHAPE_TYPE_COUNT), -0.04f + 0.08f * u,
                             0.015f + 0.03f * v, 0.02f + 0.07f * w, 0.012f + 0.012f * u);
    }
    char what[64];
    snprintf(what, sizeof what, "%s, %d mixed shapes (trial %d)", poses[trial % 2], count, trial);
    compare(what, g_pose, shapes, (uint32_t)count, &g_fx.info);
  }
}

/* More shapes within reach than a finger keeps apart (one threshold per bone then), and
 * fingers without end joints (extrapolated last bones). */
static void test_many_shapes_and_no_ends(void) {
  pose_of("fist", g_pose);
  lb_shape beads[24];
  for (int i = 0; i < 24; ++i) {
    beads[i] = palm_shape(i % 2 ? LB_SHAPE_SPHERE : LB_SHAPE_BOX, -0.06f + 0.12f * (float)i / 23.0f,
                          0.022f, 0.045f, 0.02f);
  }
  compare("fist, 24 beads", g_pose, beads, 24, &g_fx.info);
  lb_hand_info info = g_fx.info;
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    info.fingers[f].tip = -1;
  }
  lb_shape cyl = palm_cylinder(0.015f, 0.01f, 0.04f);
  compare("fist, no end joints", g_pose, &cyl, 1, &info);
}

static void test_summary(void) {
  printf("all: %d of %d joints as the reference, largest difference %.2e (allowed: one step, "
         "%.2e)\n",
         g_total.joints - g_total.differ, g_total.joints, (double)g_total.worst,
         (double)RESOLUTION);
  LB_CHECK(g_total.joints > 300);
  LB_CHECK(g_total.worst <= RESOLUTION);
  /* Disagreements only come from samples within rounding of a threshold: rare. */
  LB_CHECK(g_total.differ * 20 <= g_total.joints);
}

int main(void) {
  fx_init(&g_fx);
  LB_RUN(test_handles);
  LB_RUN(test_start_inside);
  LB_RUN(test_mixed_shapes);
  LB_RUN(test_many_shapes_and_no_ends);
  LB_RUN(test_summary);
  lb_world_destroy(g_fx.h.w);
  LB_TEST_MAIN_END();
}
