/* Finger wrap on the humanoid rig: a "fist" target (built here: every finger joint turned
 * 85° about the palm frame's X axis) closing onto cylinders across the palm. Checked: the
 * stop distance, never past the pose, contact whenever the pose would come too close, thicker
 * handles stop earlier, no surfaces = the pose, bones that start inside never go deeper,
 * extrapolated ends, the finger mask, validation and determinism. */
#include "limber/grip_wrap.h"
#include "limber/limber.h"

#include <string.h>
#include <time.h>

#include "humanoid_fixture.h"
#include "test.h"

#define MAXJ LB_TEST_MAX_JOINTS
#define FIST_DEG 85.0f

typedef struct hand_fx {
  lb_test_humanoid h; /* rest pose in h.local / h.model */
  lb_transform fist[MAXJ];
  lb_hand_info info;
  lb_palm_frame_job palm;
  float margin;
} hand_fx;

static hand_fx g_fx[2]; /* right, left */

static void fx_init(hand_fx *fx, lb_hand_side side, lb_humanoid_naming naming) {
  memset(fx, 0, sizeof *fx);
  lb_test_humanoid_init(&fx->h, naming, 0.0f);
  lb_hand_find_job hj = lb_hand_find_default_job();
  hj.joint_count = fx->h.count;
  hj.names = fx->h.names;
  hj.parents = fx->h.parents;
  hj.side = side;
  LB_CHECK(lb_hand_find_job_run(&hj) == LB_OK);
  LB_CHECK(hj.info.finger_count == 5);
  fx->info = hj.info;
  fx->palm = lb_palm_frame_default_job();
  fx->palm.hand = &fx->info;
  fx->palm.model = fx->h.model;
  fx->palm.joint_count = fx->h.count;
  fx->palm.parents = fx->h.parents;
  LB_CHECK(lb_palm_frame_job_run(&fx->palm) == LB_OK);
  fx->margin = LB_WRAP_MARGIN_FRACTION * fx->palm.index_length;

  /* Fist: each joint turns by the same angle about the palm X axis (fixed in model space),
   * so joint k's model rotation becomes Q^(k+1) R_k: local L_k Q_k, Q_k about R_k^-1 X.
   * The negative angle takes +Z (fingers) toward +Y (out of the palm): they curl in. */
  memcpy(fx->fist, fx->h.local, fx->h.count * sizeof(lb_transform));
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    const lb_finger_info *fi = &fx->info.fingers[f];
    for (int k = 0; k < fi->segment_count; ++k) {
      int j = fi->joints[k];
      versor inv, q;
      vec3 axis;
      lb_quat_conj(fx->h.model[j].r, inv);
      lb_quat_rotate(inv, fx->palm.x_axis, axis);
      lb_quat_from_axis_angle(axis, -FIST_DEG * LB_DEG2RAD, q);
      lb_quat_mul(fx->h.local[j].r, q, fx->fist[j].r);
    }
  }
}

static void fx_free(hand_fx *fx) {
  lb_world_destroy(fx->h.w);
}

/* Model pose for `local`'s finger rotations, built like the job: every non-finger joint
 * from the world's model pose, finger joints (and ends) from their parents. */
static void finger_fk(const hand_fx *fx, const lb_transform *local, lb_transform *out) {
  memcpy(out, fx->h.model, fx->h.count * sizeof(lb_transform));
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    const lb_finger_info *fi = &fx->info.fingers[f];
    for (int k = 0; k <= fi->segment_count; ++k) {
      int j = k < fi->segment_count ? fi->joints[k] : fi->tip;
      if (j >= 0) {
        lb_transform_mul(&out[fx->h.parents[j]], &local[j], &out[j]);
      }
    }
  }
}

/* Bone b's end: the next joint, the end joint, or (info without an end joint) the last
 * joint's local offset replayed one joint further, as the job documents. */
static void bone_end(const hand_fx *fx, const lb_hand_info *info, const lb_transform *local,
                     const lb_transform *model, int f, int b, vec3 out) {
  const lb_finger_info *fi = &info->fingers[f];
  if (b + 1 < fi->segment_count) {
    memcpy(out, model[fi->joints[b + 1]].t, sizeof(vec3));
  } else if (fi->tip >= 0) {
    memcpy(out, model[fi->tip].t, sizeof(vec3));
  } else {
    lb_transform_point(&model[fi->joints[b]], local[fi->joints[b]].t, out);
  }
  (void)fx;
}

static float min_dist(const lb_shape *shapes, int n, const vec3 p) {
  float best = 1e30f;
  for (int i = 0; i < n; ++i) {
    float d = lb_shape_distance(&shapes[i], p);
    best = d < best ? d : best;
  }
  return best;
}

/* Smallest distance over bone b's job samples (midpoint, end); *dense gets the smallest over
 * 17 points along the whole bone. */
static float bone_dist(const hand_fx *fx, const lb_hand_info *info, const lb_transform *local,
                       const lb_transform *model, int f, int b, const lb_shape *shapes, int n,
                       float *dense) {
  vec3 a, e, mid;
  memcpy(a, model[info->fingers[f].joints[b]].t, sizeof a);
  bone_end(fx, info, local, model, f, b, e);
  for (int c = 0; c < 3; ++c) {
    mid[c] = 0.5f * (a[c] + e[c]);
  }
  float dm = min_dist(shapes, n, mid), de = min_dist(shapes, n, e);
  if (dense) {
    *dense = 1e30f;
    for (int i = 0; i <= 16; ++i) {
      vec3 p;
      for (int c = 0; c < 3; ++c) {
        p[c] = a[c] + (e[c] - a[c]) * (float)i / 16.0f;
      }
      float d = min_dist(shapes, n, p);
      *dense = d < *dense ? d : *dense;
    }
  }
  return dm < de ? dm : de;
}

/* Angle in degrees between two rotations, in double. */
static double rot_angle_deg(const float *a, const float *b) {
  double w = (double)a[3] * b[3] + (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2];
  double x = (double)a[3] * b[0] - (double)a[0] * b[3] - (double)a[1] * b[2] + (double)a[2] * b[1];
  double y = (double)a[3] * b[1] + (double)a[0] * b[2] - (double)a[1] * b[3] - (double)a[2] * b[0];
  double z = (double)a[3] * b[2] - (double)a[0] * b[1] + (double)a[1] * b[0] - (double)a[2] * b[3];
  double v = sqrt(x * x + y * y + z * z);
  return 2.0 * atan2(v, fabs(w)) * 180.0 / 3.14159265358979323846;
}

/* A cylinder across the palm (along palm X), its near side `gap` m out of the palm plane,
 * centred `along` m up the fingers from the palm origin. */
static lb_shape palm_cylinder(const hand_fx *fx, float radius, float gap, float along) {
  lb_shape_def d = lb_shape_default_def();
  d.type = LB_SHAPE_CYLINDER;
  d.direction = LB_AXIS_X;
  d.radius = radius;
  d.height = 0.12f;
  d.center[1] = radius + gap;
  d.center[2] = along;
  lb_shape s;
  LB_CHECK(lb_shape_resolve(&d, &fx->palm.frame, &s) == LB_OK);
  return s;
}

static lb_wrap_job fx_job(hand_fx *fx, const lb_shape *shapes, uint32_t n, lb_transform *out) {
  lb_wrap_job job = lb_wrap_default_job();
  job.hand = &fx->info;
  job.joint_count = fx->h.count;
  job.parents = fx->h.parents;
  job.local = fx->h.local;
  job.open_local = fx->h.local; /* the rest is the open hand */
  job.pose_local = fx->fist;
  job.model = fx->h.model;
  job.shapes = shapes;
  job.shape_count = n;
  job.margin = fx->margin;
  job.out_local = out;
  memcpy(out, fx->h.local, fx->h.count * sizeof(lb_transform));
  return job;
}

typedef struct wrap_check {
  double bend_sum[LB_FINGER_COUNT]; /* degrees from open, summed over the joints */
  float min_sample, min_dense;      /* over all fingers, after the wrap */
  float min_start;                  /* smallest bone distance with the hand open */
  double past_pose;                 /* max (angle from open - pose's angle), degrees */
  float slerp_err;                  /* max |out - lb_quat_slerp(open, pose, closing)| */
  int contacts;
} wrap_check;

static lb_transform g_out[MAXJ], g_out2[MAXJ], g_model[MAXJ], g_scratch[MAXJ];

/* The job's guarantees on a finished run, for any shapes: samples at or beyond each bone's
 * threshold (margin, or its own start when it started closer), no joint past the pose,
 * contact whenever the pose comes closer than the margin, rotations = slerp at the closing
 * fraction reported. */
static void check_run(hand_fx *fx, const lb_hand_info *info, const lb_wrap_job *job,
                      const lb_shape *shapes, int n, wrap_check *wc, bool print) {
  const lb_transform *pose_local = job->pose_local, *open = job->open_local;
  const float margin = job->margin;
  memset(wc, 0, sizeof *wc);
  wc->min_sample = wc->min_dense = wc->min_start = 1e30f;
  finger_fk(fx, job->out_local, g_model);
  static lb_transform open_model[MAXJ], pose_model[MAXJ];
  finger_fk(fx, open, open_model);
  finger_fk(fx, pose_local, pose_model);
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    const lb_finger_info *fi = &info->fingers[f];
    const lb_wrap_finger *r = &job->fingers[f];
    float pose_min = 1e30f;
    double pose_bend = 0.0;
    int bones = fi->tip >= 0 || fi->segment_count >= 2 ? fi->segment_count : 0;
    for (int b = 0; b < bones; ++b) {
      /* Per shape: a bone that starts closer than the margin to one shape keeps the full
       * margin to every other shape. */
      for (int i = 0; i < n; ++i) {
        float dense;
        float start = bone_dist(fx, info, open, open_model, f, b, &shapes[i], 1, NULL);
        float end = bone_dist(fx, info, job->out_local, g_model, f, b, &shapes[i], 1, &dense);
        float thr = start < margin ? start : margin;
        if (!(end >= thr - 1e-4f)) {
          fprintf(stderr, "  finger %d bone %d shape %d: %.6f m < threshold %.6f m\n", f, b, i,
                  (double)end, (double)thr);
        }
        LB_CHECK(end >= thr - 1e-4f);
        if (start < margin) {
          LB_CHECK(end >= start - 1e-6f); /* started close: never deeper */
        } else {
          wc->min_sample = end < wc->min_sample ? end : wc->min_sample;
          wc->min_dense = dense < wc->min_dense ? dense : wc->min_dense;
        }
      }
      float start = bone_dist(fx, info, open, open_model, f, b, shapes, n, NULL);
      float pose = bone_dist(fx, info, pose_local, pose_model, f, b, shapes, n, NULL);
      pose_min = pose < pose_min ? pose : pose_min;
      wc->min_start = start < wc->min_start ? start : wc->min_start;
      int j = fi->joints[b];
      double a_out = rot_angle_deg(open[j].r, job->out_local[j].r);
      double a_pose = rot_angle_deg(open[j].r, pose_local[j].r);
      wc->bend_sum[f] += a_out;
      pose_bend += a_pose;
      double past = a_out - a_pose;
      wc->past_pose = past > wc->past_pose ? past : wc->past_pose;
      LB_CHECK(a_out <= a_pose + 1e-4);
      versor want;
      lb_quat_slerp(open[j].r, pose_local[j].r, r->closing[b], want);
      for (int i = 0; i < 4; ++i) {
        float e = fabsf(want[i] - job->out_local[j].r[i]);
        wc->slerp_err = e > wc->slerp_err ? e : wc->slerp_err;
      }
      if (r->closing[b] == 1.0f) { /* the pose itself, exactly */
        LB_CHECK(memcmp(pose_local[j].r, job->out_local[j].r, sizeof(versor)) == 0);
      }
      LB_CHECK(r->closing[b] >= 0.0f && r->closing[b] <= 1.0f);
    }
    if (pose_min < margin) {
      LB_CHECK(r->contact); /* the pose would come too close: the finger must stop */
    }
    if (!r->contact) {
      for (int b = 0; b < fi->segment_count; ++b) {
        LB_CHECK(r->closing[b] == 1.0f);
      }
    }
    wc->contacts += r->contact;
    LB_CHECK(wc->slerp_err < 1e-6f);
    if (print) {
      printf("  %-6s contact %d first bone %2d closing %.4f %.4f %.4f (bend %6.2f of %.0f deg) "
             "pose would be at %+.4f m; %3u queries\n",
             lb_finger_name((lb_finger)f), r->contact, r->first_bone, (double)r->closing[0],
             (double)r->closing[1], (double)r->closing[2], wc->bend_sum[f], pose_bend,
             (double)pose_min, r->queries);
    }
  }
}

static void test_fist_target(void) {
  /* The helper's fist curls toward the palm: index tip on the palm's +Y side. */
  for (int s = 0; s < 2; ++s) {
    hand_fx *fx = &g_fx[s];
    finger_fk(fx, fx->fist, g_model);
    const float *tip = g_model[fx->info.fingers[LB_FINGER_INDEX].tip].t;
    vec3 d = {tip[0] - fx->palm.frame.t[0], tip[1] - fx->palm.frame.t[1],
              tip[2] - fx->palm.frame.t[2]};
    float y = d[0] * fx->palm.y_axis[0] + d[1] * fx->palm.y_axis[1] + d[2] * fx->palm.y_axis[2];
    printf("%s fist: index tip %.4f m out of the palm plane; margin %.5f m (8%% of %.4f m)\n",
           s ? "left" : "right", (double)y, (double)fx->margin, (double)fx->palm.index_length);
    LB_CHECK(y > 0.02f);
  }
}

static void test_cylinders_thin_and_thick(void) {
  for (int s = 0; s < 2; ++s) {
    hand_fx *fx = &g_fx[s];
    wrap_check wc[2];
    const float radii[2] = {0.015f, 0.03f};
    for (int c = 0; c < 2; ++c) {
      lb_shape cyl = palm_cylinder(fx, radii[c], 0.01f, 0.04f);
      lb_wrap_job job = fx_job(fx, &cyl, 1, g_out);
      LB_CHECK(lb_wrap_job_run(&job) == LB_OK);
      printf("%s hand, cylinder radius %.3f m: %u queries\n", s ? "left" : "right",
             (double)radii[c], job.queries);
      check_run(fx, &fx->info, &job, &cyl, 1, &wc[c], true);
      printf("  closest sample %.5f m (margin %.5f), closest point on any bone %.5f m, max "
             "bend past the pose %.2e deg, max |q - lb_quat_slerp| %.1e\n",
             (double)wc[c].min_sample, (double)fx->margin, (double)wc[c].min_dense, wc[c].past_pose,
             (double)wc[c].slerp_err);
      LB_CHECK(wc[c].min_sample >= fx->margin - 1e-4f);
      LB_CHECK(wc[c].min_dense > 0.0f);        /* no bone crosses the surface between samples */
      LB_CHECK(wc[c].min_start >= fx->margin); /* this setup starts clear */
      LB_CHECK(job.queries < 600);
      for (int f = LB_FINGER_INDEX; f < LB_FINGER_COUNT; ++f) {
        LB_CHECK(job.fingers[f].contact);
        LB_CHECK(job.fingers[f].searched);
      }
    }
    /* Thicker handle: every long finger stops earlier (less bent). */
    for (int f = LB_FINGER_INDEX; f < LB_FINGER_COUNT; ++f) {
      LB_CHECK(wc[1].bend_sum[f] < wc[0].bend_sum[f] - 1.0);
    }
    printf("  bend thin vs thick (deg): index %.1f / %.1f, middle %.1f / %.1f, ring %.1f / "
           "%.1f, pinky %.1f / %.1f\n",
           wc[0].bend_sum[1], wc[1].bend_sum[1], wc[0].bend_sum[2], wc[1].bend_sum[2],
           wc[0].bend_sum[3], wc[1].bend_sum[3], wc[0].bend_sum[4], wc[1].bend_sum[4]);
  }
}

/* No surfaces (or none in reach) → the pose, bit for bit. */
static void test_no_surfaces_is_pose(void) {
  hand_fx *fx = &g_fx[0];
  for (int c = 0; c < 2; ++c) {
    lb_shape far;
    lb_shape_def d = lb_shape_default_def();
    d.type = LB_SHAPE_SPHERE;
    d.center[1] = 3.0f; /* 3 m up: out of every finger's reach */
    LB_CHECK(lb_shape_resolve(&d, NULL, &far) == LB_OK);
    lb_wrap_job job = fx_job(fx, c ? &far : NULL, c ? 1u : 0u, g_out);
    LB_CHECK(lb_wrap_job_run(&job) == LB_OK);
    int differ = 0;
    for (int f = 0; f < LB_FINGER_COUNT; ++f) {
      const lb_finger_info *fi = &fx->info.fingers[f];
      LB_CHECK(!job.fingers[f].contact && !job.fingers[f].searched);
      LB_CHECK(job.fingers[f].first_bone == -1);
      LB_CHECK(job.fingers[f].queries == (c ? 1u : 0u));
      for (int k = 0; k < fi->segment_count; ++k) {
        int j = fi->joints[k];
        differ += memcmp(g_out[j].r, fx->fist[j].r, sizeof(versor)) != 0;
        LB_CHECK(job.fingers[f].closing[k] == 1.0f);
      }
    }
    LB_CHECK(differ == 0);
    LB_CHECK(job.queries == (c ? 5u : 0u));
    printf("%s: out == pose bit for bit (%d joints differ), %u queries\n",
           c ? "sphere out of reach" : "no surfaces", differ, job.queries);
  }
}

/* Surfaces already within the margin (3 mm off the open fingers) or through the bones. */
static void test_start_inside_never_deeper(void) {
  hand_fx *fx = &g_fx[0];
  const struct {
    float radius, gap, along;
    const char *what;
  } cases[3] = {{0.015f, 0.003f, 0.06f, "3 mm off the open fingers"},
                {0.01f, -0.005f, 0.06f, "through the proximal bones"},
                {0.012f, -0.015f, 0.085f, "through the middle bones"}};
  for (int c = 0; c < 3; ++c) {
    lb_shape cyl = palm_cylinder(fx, cases[c].radius, cases[c].gap, cases[c].along);
    lb_wrap_job job = fx_job(fx, &cyl, 1, g_out);
    LB_CHECK(lb_wrap_job_run(&job) == LB_OK);
    wrap_check wc;
    check_run(fx, &fx->info, &job, &cyl, 1, &wc, false);
    /* Count bones that start close and joints that still moved. */
    static lb_transform open_model[MAXJ];
    finger_fk(fx, fx->h.local, open_model);
    finger_fk(fx, g_out, g_model);
    int close = 0, moved = 0;
    float worst = 1e30f;
    for (int f = 0; f < LB_FINGER_COUNT; ++f) {
      const lb_finger_info *fi = &fx->info.fingers[f];
      for (int b = 0; b < fi->segment_count; ++b) {
        float d0 = bone_dist(fx, &fx->info, fx->h.local, open_model, f, b, &cyl, 1, NULL);
        float d1 = bone_dist(fx, &fx->info, g_out, g_model, f, b, &cyl, 1, NULL);
        if (d0 < fx->margin) {
          close++;
          worst = d1 - d0 < worst ? d1 - d0 : worst;
        }
        moved += job.fingers[f].closing[b] > 0.0f;
      }
    }
    printf("cylinder %s: %d bones start within the margin (closest %.4f m), worst change of "
           "their distance %+.2e m (>= 0: never deeper); %d joints still closed some; %u "
           "queries\n",
           cases[c].what, close, (double)wc.min_start, (double)worst, moved, job.queries);
    LB_CHECK(close > 0);
    LB_CHECK(moved > 0);
    LB_CHECK(worst >= -1e-6f);
  }
}

/* A thin rod through the index finger's first bone, and the grip cylinder: the bone may leave
 * the rod but keeps the full margin to the cylinder (thresholds are per shape). */
static void test_start_inside_one_shape_margin_to_others(void) {
  hand_fx *fx = &g_fx[0];
  lb_shape shapes[2] = {palm_cylinder(fx, 0.004f, -0.004f, 0.0f),
                        palm_cylinder(fx, 0.015f, 0.01f, 0.04f)};
  /* Move the rod onto the index finger's first bone midpoint. */
  const lb_finger_info *ix = &fx->info.fingers[LB_FINGER_INDEX];
  for (int a = 0; a < 3; ++a) {
    shapes[0].center[a] =
        0.5f * (fx->h.model[ix->joints[0]].t[a] + fx->h.model[ix->joints[1]].t[a]);
  }
  lb_wrap_job job = fx_job(fx, shapes, 2, g_out);
  LB_CHECK(lb_wrap_job_run(&job) == LB_OK);
  wrap_check wc;
  check_run(fx, &fx->info, &job, shapes, 2, &wc, false);
  static lb_transform open_model[MAXJ];
  finger_fk(fx, fx->h.local, open_model);
  finger_fk(fx, g_out, g_model);
  float rod0 = bone_dist(fx, &fx->info, fx->h.local, open_model, 1, 0, &shapes[0], 1, NULL);
  float rod1 = bone_dist(fx, &fx->info, g_out, g_model, 1, 0, &shapes[0], 1, NULL);
  float cyl1 = bone_dist(fx, &fx->info, g_out, g_model, 1, 0, &shapes[1], 1, NULL);
  printf("rod through the index bone: rod distance %.4f -> %.4f m, grip cylinder %.5f m "
         "(margin %.5f); index closing %.4f %.4f %.4f, contact %d\n",
         (double)rod0, (double)rod1, (double)cyl1, (double)fx->margin,
         (double)job.fingers[1].closing[0], (double)job.fingers[1].closing[1],
         (double)job.fingers[1].closing[2], job.fingers[1].contact);
  LB_CHECK(rod0 < 0.0f);                      /* starts inside the rod */
  LB_CHECK(rod1 >= rod0);                     /* never deeper */
  LB_CHECK(job.fingers[1].closing[0] > 0.1f); /* and it still closed */
  LB_CHECK(cyl1 >= fx->margin - 1e-4f);
}

/* Without end joints, the last bones are extrapolated; a one-joint finger without an end
 * takes its pose. */
static void test_extrapolated_ends(void) {
  hand_fx *fx = &g_fx[0];
  lb_hand_info info = fx->info;
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    info.fingers[f].tip = -1;
  }
  info.fingers[LB_FINGER_THUMB].segment_count = 1;
  lb_shape cyl = palm_cylinder(fx, 0.015f, 0.01f, 0.04f);
  lb_wrap_job job = fx_job(fx, &cyl, 1, g_out);
  job.hand = &info;
  LB_CHECK(lb_wrap_job_run(&job) == LB_OK);
  wrap_check wc;
  check_run(fx, &info, &job, &cyl, 1, &wc, false);
  LB_CHECK(!job.fingers[LB_FINGER_THUMB].searched);
  int t0 = info.fingers[LB_FINGER_THUMB].joints[0];
  LB_CHECK(memcmp(g_out[t0].r, fx->fist[t0].r, sizeof(versor)) == 0);
  for (int f = LB_FINGER_INDEX; f < LB_FINGER_COUNT; ++f) {
    LB_CHECK(job.fingers[f].contact);
  }
  printf("extrapolated ends: closest sample %.5f m (margin %.5f), %d fingers in contact, %u "
         "queries\n",
         (double)wc.min_sample, (double)fx->margin, wc.contacts, job.queries);
  LB_CHECK(wc.min_sample >= fx->margin - 1e-4f);
}

static void test_finger_mask(void) {
  hand_fx *fx = &g_fx[0];
  lb_shape cyl = palm_cylinder(fx, 0.015f, 0.01f, 0.04f);
  lb_wrap_job job = fx_job(fx, &cyl, 1, g_out);
  job.finger_mask = 1u << LB_FINGER_INDEX;
  LB_CHECK(lb_wrap_job_run(&job) == LB_OK);
  LB_CHECK(job.fingers[LB_FINGER_INDEX].contact);
  LB_CHECK(job.queries == job.fingers[LB_FINGER_INDEX].queries);
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    if (f == LB_FINGER_INDEX) {
      continue;
    }
    const lb_finger_info *fi = &fx->info.fingers[f];
    LB_CHECK(!job.fingers[f].contact && job.fingers[f].queries == 0);
    for (int k = 0; k < fi->segment_count; ++k) {
      LB_CHECK(memcmp(g_out[fi->joints[k]].r, fx->fist[fi->joints[k]].r, sizeof(versor)) == 0);
    }
  }
}

/* More shapes near a finger than the per-finger list holds: a bumpy handle of 24 beads. */
static void test_many_shapes(void) {
  hand_fx *fx = &g_fx[0];
  lb_shape beads[24];
  for (int i = 0; i < 24; ++i) {
    lb_shape_def d = lb_shape_default_def();
    d.type = i % 2 ? LB_SHAPE_SPHERE : LB_SHAPE_BOX;
    d.radius = 0.012f;
    d.size[0] = d.size[1] = d.size[2] = 0.02f;
    d.center[0] = -0.06f + 0.12f * (float)i / 23.0f;
    d.center[1] = 0.022f;
    d.center[2] = 0.045f;
    LB_CHECK(lb_shape_resolve(&d, &fx->palm.frame, &beads[i]) == LB_OK);
  }
  lb_wrap_job job = fx_job(fx, beads, 24, g_out);
  LB_CHECK(lb_wrap_job_run(&job) == LB_OK);
  wrap_check wc;
  check_run(fx, &fx->info, &job, beads, 24, &wc, false);
  LB_CHECK(wc.contacts >= 4);
  LB_CHECK(wc.min_sample >= fx->margin - 1e-4f);
  printf("24 beads: %d fingers in contact, closest sample %.5f m, %u queries\n", wc.contacts,
         (double)wc.min_sample, job.queries);
}

/* Same model-space hand, other bone axes and hierarchies (Unreal: palm bones between hand and
 * finger roots; Blender: joint frames with +Y along the bones): the same wrap. */
static hand_fx g_conv;

static void test_other_conventions(void) {
  hand_fx *ref = &g_fx[0];
  lb_shape cyl = palm_cylinder(ref, 0.015f, 0.01f, 0.04f);
  lb_wrap_job a = fx_job(ref, &cyl, 1, g_out);
  LB_CHECK(lb_wrap_job_run(&a) == LB_OK);
  const lb_humanoid_naming namings[2] = {LB_NAMING_UNREAL, LB_NAMING_BLENDER};
  for (int c = 0; c < 2; ++c) {
    fx_init(&g_conv, LB_HAND_RIGHT, namings[c]);
    lb_wrap_job b = fx_job(&g_conv, &cyl, 1, g_out2);
    LB_CHECK(lb_wrap_job_run(&b) == LB_OK);
    wrap_check wc;
    check_run(&g_conv, &g_conv.info, &b, &cyl, 1, &wc, false);
    LB_CHECK(wc.contacts == 4);
    double worst = 0.0, worst_tip = 0.0;
    finger_fk(ref, g_out, g_model);
    static lb_transform m2[MAXJ];
    finger_fk(&g_conv, g_out2, m2);
    for (int f = 0; f < LB_FINGER_COUNT; ++f) {
      for (int k = 0; k < 3; ++k) {
        double d = fabs((double)a.fingers[f].closing[k] - b.fingers[f].closing[k]);
        worst = d > worst ? d : worst;
      }
      const float *t1 = g_model[ref->info.fingers[f].tip].t;
      const float *t2 = m2[g_conv.info.fingers[f].tip].t;
      double e = sqrt(pow(t1[0] - t2[0], 2) + pow(t1[1] - t2[1], 2) + pow(t1[2] - t2[2], 2));
      worst_tip = e > worst_tip ? e : worst_tip;
    }
    const double step = 1.0 / (LB_WRAP_MARCH_STEPS << LB_WRAP_BISECT_STEPS);
    printf("%s naming: %d contacts, closing differs from Mixamo by at most %.2e (one search "
           "step = %.2e), fingertips by %.2e m\n",
           c ? "blender" : "unreal", wc.contacts, worst, step, worst_tip);
    LB_CHECK(worst <= 2.0 * step);
    LB_CHECK(worst_tip < 1e-3);
    fx_free(&g_conv);
  }
}

static double now_seconds(void);

/* The real pose job (grip_pose.h) feeding the wrap, as the grip phase chains them: the
 * built-in fist closes every long finger onto the handle; the pistol's straight index
 * stays exactly as posed while the others wrap. */
static void test_with_pose_job(void) {
  hand_fx *fx = &g_fx[0];
  static lb_hand_rig hr;
  LB_CHECK(lb_hand_rig_build(&fx->info, fx->h.parents, fx->h.local, fx->h.count, &hr) == LB_OK);
  lb_shape cyl = palm_cylinder(fx, 0.015f, 0.01f, 0.04f);
  const char *const names[2] = {"fist", "pistol"};
  for (int p = 0; p < 2; ++p) {
    lb_grip_pose_def def;
    LB_CHECK(lb_grip_pose_registry_find(NULL, names[p], &def) == LB_OK);
    lb_finger_pose_job pj = lb_finger_pose_default_job();
    pj.rig = &hr;
    pj.pose = &def;
    pj.joint_count = fx->h.count;
    pj.local = fx->h.local;
    pj.model = fx->h.model;
    memcpy(g_scratch, fx->h.local, fx->h.count * sizeof(lb_transform));
    pj.out_local = g_scratch;
    LB_CHECK(lb_finger_pose_job_run(&pj) == LB_OK);
    lb_wrap_job job = fx_job(fx, &cyl, 1, g_out);
    job.pose_local = g_scratch;
    job.margin = LB_WRAP_MARGIN_FRACTION * pj.index_length;
    LB_CHECK(lb_wrap_job_run(&job) == LB_OK);
    printf("pose job '%s' + wrap on the 1.5 cm handle: %u queries\n", names[p], job.queries);
    wrap_check wc;
    check_run(fx, &fx->info, &job, &cyl, 1, &wc, true);
    LB_CHECK(wc.min_sample >= job.margin - 1e-4f);
    for (int f = LB_FINGER_MIDDLE; f < LB_FINGER_COUNT; ++f) {
      LB_CHECK(job.fingers[f].contact);
    }
    const lb_finger_info *ix = &fx->info.fingers[LB_FINGER_INDEX];
    if (p == 1) {
      LB_CHECK(!job.fingers[LB_FINGER_INDEX].contact);
      for (int k = 0; k < ix->segment_count; ++k) {
        LB_CHECK(memcmp(g_out[ix->joints[k]].r, g_scratch[ix->joints[k]].r, sizeof(versor)) == 0);
      }
    } else {
      LB_CHECK(job.fingers[LB_FINGER_INDEX].contact);
    }
    /* Informational: pose + wrap for one hand. */
    const int runs = 1000;
    double t0 = now_seconds();
    for (int i = 0; i < runs; ++i) {
      LB_CHECK(lb_finger_pose_job_run(&pj) == LB_OK);
      LB_CHECK(lb_wrap_job_run(&job) == LB_OK);
    }
    printf("  pose + wrap: %.2f us per hand on this build (informational)\n",
           (now_seconds() - t0) / runs * 1e6);
  }
}

static double now_seconds(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Same inputs twice → the same bits; out may alias pose_local. */
static void test_determinism_and_aliasing(void) {
  hand_fx *fx = &g_fx[0];
  lb_shape shapes[2] = {palm_cylinder(fx, 0.015f, 0.01f, 0.04f),
                        palm_cylinder(fx, 0.01f, 0.03f, 0.09f)};
  lb_wrap_job a = fx_job(fx, shapes, 2, g_out);
  lb_wrap_job b = fx_job(fx, shapes, 2, g_out2);
  LB_CHECK(lb_wrap_job_run(&a) == LB_OK);
  LB_CHECK(lb_wrap_job_run(&b) == LB_OK);
  LB_CHECK(lb_test_same_transforms(g_out, g_out2, fx->h.count));
  LB_CHECK(memcmp(a.fingers, b.fingers, sizeof a.fingers) == 0);
  wrap_check wc;
  check_run(fx, &fx->info, &a, shapes, 2, &wc, false);
  /* Aliased: pose_local and out_local are one array. */
  memcpy(g_scratch, fx->fist, fx->h.count * sizeof(lb_transform));
  lb_wrap_job c = fx_job(fx, shapes, 2, g_out2);
  c.pose_local = g_scratch;
  c.out_local = g_scratch;
  LB_CHECK(lb_wrap_job_run(&c) == LB_OK);
  LB_CHECK(lb_test_same_transforms(g_scratch, g_out, fx->h.count));
  uint32_t h = 2166136261u;
  for (uint32_t j = 0; j < fx->h.count; ++j) {
    const float *v[3] = {g_out[j].t, g_out[j].r, g_out[j].s};
    const int len[3] = {3, 4, 3};
    for (int k = 0; k < 3; ++k) {
      for (int i = 0; i < len[k]; ++i) {
        uint32_t bits;
        memcpy(&bits, &v[k][i], sizeof bits);
        h = (h ^ bits) * 16777619u;
      }
    }
  }
  /* Informational timing (not checked): the whole job for one hand. */
  const int runs = 2000;
  double t0 = now_seconds();
  for (int i = 0; i < runs; ++i) {
    LB_CHECK(lb_wrap_job_run(&b) == LB_OK);
  }
  double us = (now_seconds() - t0) / runs * 1e6;
  printf("two surfaces: %d contacts, %u queries, pose hash %08x; %.2f us per hand on this build "
         "(informational)\n",
         wc.contacts, a.queries, h, us);
}

static void test_validate(void) {
  hand_fx *fx = &g_fx[0];
  lb_shape cyl = palm_cylinder(fx, 0.015f, 0.01f, 0.04f);
  lb_wrap_job good = fx_job(fx, &cyl, 1, g_out);
  LB_CHECK(lb_wrap_job_validate(&good) == LB_OK);
  LB_CHECK(lb_wrap_job_validate(NULL) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_wrap_job_run(NULL) == LB_ERR_INVALID_ARGUMENT);
  memcpy(g_out2, g_out, fx->h.count * sizeof(lb_transform));
  static lb_transform bad_local[MAXJ];
  static int16_t bad_parents[MAXJ];
  lb_hand_info info;
  lb_shape bad_shape;
  int n = 0;
#define EXPECT(edit, code)                                                                         \
  do {                                                                                             \
    lb_wrap_job job = good;                                                                        \
    info = fx->info;                                                                               \
    memcpy(bad_local, fx->fist, fx->h.count * sizeof(lb_transform));                               \
    memcpy(bad_parents, fx->h.parents, fx->h.count * sizeof(int16_t));                             \
    bad_shape = cyl;                                                                               \
    job.hand = &info;                                                                              \
    edit;                                                                                          \
    lb_result got = lb_wrap_job_run(&job);                                                         \
    if (got != (code)) {                                                                           \
      fprintf(stderr, "  '%s': got %s\n", #edit, lb_result_name(got));                             \
    }                                                                                              \
    LB_CHECK(got == (code));                                                                       \
    LB_CHECK(lb_test_same_transforms(g_out, g_out2, fx->h.count));                                 \
    LB_CHECK(job.queries == 0 && !job.fingers[1].contact && job.fingers[1].first_bone == -1);      \
    n++;                                                                                           \
  } while (0)
  const int ix0 = fx->info.fingers[LB_FINGER_INDEX].joints[0];
  const int ix1 = fx->info.fingers[LB_FINGER_INDEX].joints[1];
  EXPECT(job.hand = NULL, LB_ERR_INVALID_ARGUMENT);
  EXPECT(job.parents = NULL, LB_ERR_INVALID_ARGUMENT);
  EXPECT(job.local = NULL, LB_ERR_INVALID_ARGUMENT);
  EXPECT(job.open_local = NULL, LB_ERR_INVALID_ARGUMENT);
  EXPECT(job.pose_local = NULL, LB_ERR_INVALID_ARGUMENT);
  EXPECT(job.model = NULL, LB_ERR_INVALID_ARGUMENT);
  EXPECT(job.out_local = NULL, LB_ERR_INVALID_ARGUMENT);
  EXPECT(job.shapes = NULL, LB_ERR_INVALID_ARGUMENT);
  EXPECT(job.finger_mask = 0x20u, LB_ERR_INVALID_ARGUMENT);
  EXPECT(job.joint_count = 0, LB_ERR_OUT_OF_RANGE);
  EXPECT(job.joint_count = 2000, LB_ERR_OUT_OF_RANGE);
  EXPECT(job.margin = NAN, LB_ERR_NOT_FINITE);
  EXPECT(job.margin = INFINITY, LB_ERR_NOT_FINITE);
  EXPECT(job.margin = -0.001f, LB_ERR_OUT_OF_RANGE);
  EXPECT(job.joint_count = (uint32_t)ix1, LB_ERR_INVALID_ARGUMENT); /* index out of range */
  EXPECT(info.fingers[1].segment_count = 0, LB_ERR_INVALID_ARGUMENT);
  EXPECT(info.fingers[1].segment_count = 4, LB_ERR_INVALID_ARGUMENT);
  EXPECT(info.fingers[1].joints[1] = (int16_t)(ix1 + 1), LB_ERR_INVALID_ARGUMENT); /* chain */
  EXPECT(info.fingers[1].tip = info.fingers[1].joints[2], LB_ERR_INVALID_ARGUMENT);
  EXPECT((job.parents = bad_parents, bad_parents[ix0] = -1), LB_ERR_INVALID_ARGUMENT);
  EXPECT(info.fingers[2] = info.fingers[1], LB_ERR_INVALID_ARGUMENT); /* shared joints */
  EXPECT((job.pose_local = bad_local, bad_local[ix1].r[2] = NAN), LB_ERR_NOT_FINITE);
  EXPECT((job.open_local = bad_local, memset(bad_local[ix1].r, 0, sizeof(versor))),
         LB_ERR_OUT_OF_RANGE);
  EXPECT((job.local = bad_local, bad_local[ix0].t[0] = INFINITY), LB_ERR_NOT_FINITE);
  EXPECT((job.local = bad_local, bad_local[info.fingers[1].tip].s[1] = NAN), LB_ERR_NOT_FINITE);
  EXPECT((job.model = bad_local, bad_local[fx->h.parents[ix0]].t[1] = NAN), LB_ERR_NOT_FINITE);
  EXPECT((job.shapes = &bad_shape, bad_shape.radius = -1.0f), LB_ERR_OUT_OF_RANGE);
  EXPECT((job.shapes = &bad_shape, bad_shape.center[0] = NAN), LB_ERR_NOT_FINITE);
  EXPECT((job.shapes = &bad_shape, bad_shape.type = (lb_shape_type)9), LB_ERR_INVALID_ARGUMENT);
#undef EXPECT
  /* A NaN in a non-finger joint is not read. */
  lb_wrap_job job = good;
  memcpy(bad_local, fx->fist, fx->h.count * sizeof(lb_transform));
  bad_local[0].r[0] = NAN;
  job.pose_local = bad_local;
  LB_CHECK(lb_wrap_job_run(&job) == LB_OK);
  printf("validate: %d bad jobs rejected with the expected code, outputs untouched\n", n);
}

int main(void) {
  fx_init(&g_fx[0], LB_HAND_RIGHT, LB_NAMING_MIXAMO);
  fx_init(&g_fx[1], LB_HAND_LEFT, LB_NAMING_MIXAMO);
  LB_RUN(test_fist_target);
  LB_RUN(test_cylinders_thin_and_thick);
  LB_RUN(test_no_surfaces_is_pose);
  LB_RUN(test_start_inside_never_deeper);
  LB_RUN(test_start_inside_one_shape_margin_to_others);
  LB_RUN(test_extrapolated_ends);
  LB_RUN(test_finger_mask);
  LB_RUN(test_many_shapes);
  LB_RUN(test_other_conventions);
  LB_RUN(test_with_pose_job);
  LB_RUN(test_determinism_and_aliasing);
  LB_RUN(test_validate);
  fx_free(&g_fx[0]);
  fx_free(&g_fx[1]);
  LB_TEST_MAIN_END();
}
