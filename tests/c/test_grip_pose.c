/* Grip part 2: hand shapes. Rest exactness, fist / pistol / trigger / spread behaviour on
 * both hands, the same pose across four rig conventions and two heights, mirror
 * symmetry, thumb reach, by-joint expansion, JSON round trip and errors, the registry
 * and bad input to the jobs. */
#include "limber/grip_pose.h"
#include "limber/limber.h"

#include <string.h>

#include "humanoid_fixture.h"
#include "test.h"

#define MAXJ LB_TEST_MAX_JOINTS

typedef struct rig_fixture {
  lb_test_humanoid h; /* h.local is the rest pose, h.model its model pose */
  lb_humanoid_naming naming;
} rig_fixture;

static void fixture_init(rig_fixture *fx, lb_humanoid_naming naming, float height) {
  lb_test_humanoid_init(&fx->h, naming, height);
  fx->naming = naming;
}

static void fixture_free(rig_fixture *fx) {
  lb_world_destroy(fx->h.w);
}

typedef struct hand_fixture {
  lb_hand_info info;
  lb_hand_rig rig;
} hand_fixture;

static void hand_init(const rig_fixture *fx, lb_hand_side side, hand_fixture *h) {
  lb_hand_find_job job = lb_hand_find_default_job();
  job.joint_count = fx->h.count;
  job.names = fx->h.names;
  job.parents = fx->h.parents;
  job.side = side;
  char roots[5][16];
  if (fx->naming == LB_NAMING_DIGITS) {
    for (int f = 0; f < 5; ++f) {
      snprintf(roots[f], sizeof roots[f], "%s_Digit%d_1", side == LB_HAND_RIGHT ? "R" : "L", f);
      job.finger_roots[f] = roots[f];
    }
  }
  LB_CHECK(lb_hand_find_job_run(&job) == LB_OK);
  LB_CHECK(job.info.finger_count == 5);
  h->info = job.info;
  LB_CHECK(lb_hand_rig_build(&h->info, fx->h.parents, fx->h.local, fx->h.count, &h->rig) == LB_OK);
}

/* Model pose from a local pose (parents precede children). */
static void fk(const rig_fixture *fx, const lb_transform *local, lb_transform *model) {
  for (uint32_t j = 0; j < fx->h.count; ++j) {
    int p = fx->h.parents[j];
    if (p < 0) {
      model[j] = local[j];
    } else {
      lb_transform_mul(&model[p], &local[j], &model[j]);
    }
  }
}

typedef struct posed {
  lb_finger_pose_job job;
  lb_transform local[MAXJ];
  lb_transform model[MAXJ];      /* FK of local: checks what the job wrote */
  vec3 palm[LB_FINGER_COUNT][4]; /* positions in the palm frame / index length */
} posed;

static void to_palm(const lb_finger_pose_job *job, const float *p, vec3 out) {
  vec3 d = {p[0] - job->palm.t[0], p[1] - job->palm.t[1], p[2] - job->palm.t[2]};
  versor inv;
  lb_quat_conj(job->palm.r, inv);
  lb_quat_rotate(inv, d, out);
  for (int a = 0; a < 3; ++a) {
    out[a] /= job->index_length;
  }
}

static double fk_mismatch; /* max |job position - FK of written rotations| */

static void pose_hand(const rig_fixture *fx, const hand_fixture *h, const lb_grip_pose_def *def,
                      float trigger, posed *out) {
  memcpy(out->local, fx->h.local, fx->h.count * sizeof(lb_transform));
  lb_finger_pose_job job = lb_finger_pose_default_job();
  job.rig = &h->rig;
  job.pose = def;
  job.trigger = trigger;
  job.joint_count = fx->h.count;
  job.local = fx->h.local;
  job.model = fx->h.model;
  job.out_local = out->local;
  LB_CHECK(lb_finger_pose_job_run(&job) == LB_OK);
  out->job = job;
  fk(fx, out->local, out->model);
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    const lb_hand_rig_finger *rf = &h->rig.fingers[f];
    for (int k = 0; k < 4; ++k) {
      int j = k < rf->segment_count ? rf->joints[k] : k == 3 ? rf->tip : -1;
      if (j >= 0) {
        for (int a = 0; a < 3; ++a) {
          double d = fabs((double)out->model[j].t[a] - job.positions[f][k][a]);
          fk_mismatch = d > fk_mismatch ? d : fk_mismatch;
        }
      }
      to_palm(&job, job.positions[f][k], out->palm[f][k]);
    }
  }
}

static lb_grip_pose_def builtin(const char *name) {
  lb_grip_pose_def d;
  LB_CHECK(lb_grip_pose_builtin(name, &d) == LB_OK);
  return d;
}

static lb_grip_pose_def parse(const char *json) {
  lb_grip_pose_def d = lb_grip_pose_default_def();
  char err[160];
  lb_result r = lb_grip_pose_parse_json(json, strlen(json), &d, err, sizeof err);
  if (r != LB_OK) {
    fprintf(stderr, "  parse failed: %s\n", err);
  }
  LB_CHECK(r == LB_OK);
  return d;
}

static double angle_deg(const float *a, const float *b) {
  double d = (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2];
  double la = sqrt((double)a[0] * a[0] + (double)a[1] * a[1] + (double)a[2] * a[2]);
  double lb = sqrt((double)b[0] * b[0] + (double)b[1] * b[1] + (double)b[2] * b[2]);
  double c = d / (la * lb);
  c = c > 1.0 ? 1.0 : c < -1.0 ? -1.0 : c;
  return acos(c) * 180.0 / 3.14159265358979323846;
}

static double dist3(const float *a, const float *b) {
  double x = (double)a[0] - b[0], y = (double)a[1] - b[1], z = (double)a[2] - b[2];
  return sqrt(x * x + y * y + z * z);
}

static bool same_rotations(const lb_transform *a, const lb_transform *b, int j) {
  return memcmp(a[j].r, b[j].r, sizeof(versor)) == 0;
}

/* ---- rest exactness -------------------------------------------------------------- */
static void test_open_is_rest(void) {
  for (int naming = 0; naming < 4; ++naming) {
    rig_fixture fx;
    fixture_init(&fx, (lb_humanoid_naming)naming, 1.8f);
    for (int side = 0; side < 2; ++side) {
      hand_fixture h;
      hand_init(&fx, (lb_hand_side)side, &h);
      lb_grip_pose_def defs[3] = {
          builtin("open"), lb_grip_pose_default_def(),
          parse("{\"index\":{\"curl\":0,\"spread\":0},\"thumb\":{\"gap\":1},"
                "\"pinky\":{\"bend\":[0,0,0],\"fan\":0}}")};
      for (int d = 0; d < 3; ++d) {
        static posed p;
        pose_hand(&fx, &h, &defs[d], 1.0f, &p);
        int differ = 0;
        for (uint32_t j = 0; j < fx.h.count; ++j) {
          differ += !same_rotations(p.local, fx.h.local, (int)j);
        }
        LB_CHECK(differ == 0);
      }
    }
    fixture_free(&fx);
  }
}

/* ---- fist, pistol, trigger, spread ------------------------------------------------ */
static void test_fist_closes(void) {
  rig_fixture fx;
  fixture_init(&fx, LB_NAMING_MIXAMO, 1.8f);
  for (int side = 0; side < 2; ++side) {
    hand_fixture h;
    hand_init(&fx, (lb_hand_side)side, &h);
    static posed rest, fist;
    lb_grip_pose_def open = builtin("open"), def = builtin("fist");
    pose_hand(&fx, &h, &open, 0.0f, &rest);
    pose_hand(&fx, &h, &def, 0.0f, &fist);
    double worst_y = 0.0, min_z = 1.0;
    for (int f = LB_FINGER_INDEX; f < LB_FINGER_COUNT; ++f) {
      const float *t0 = rest.palm[f][3], *t1 = fist.palm[f][3];
      /* Palm side is +Y: the tip moves there, and ends near the palm plane. */
      LB_CHECK(t1[1] > t0[1] + 0.1f);
      double y = t1[1] * fist.job.index_length;
      worst_y = y > worst_y ? y : worst_y;
      min_z = t1[2] < min_z ? t1[2] : min_z;
      /* Closed: the tip comes back behind its knuckle, over the palm (palm z > 0). */
      LB_CHECK(t1[2] < fist.palm[f][0][2] && t1[2] > 0.0f);
    }
    printf("fist %s: tips at most %.4f m off the palm plane, over the palm (z >= %.3f index "
           "lengths from its centre)\n",
           side ? "left" : "right", worst_y, min_z);
    LB_CHECK(worst_y < 0.02);
  }
  fixture_free(&fx);
}

static void test_pistol_and_trigger(void) {
  rig_fixture fx;
  fixture_init(&fx, LB_NAMING_BLENDER, 1.8f);
  for (int side = 0; side < 2; ++side) {
    hand_fixture h;
    hand_init(&fx, (lb_hand_side)side, &h);
    lb_grip_pose_def def = builtin("pistol");
    LB_CHECK(lb_grip_pose_has_trigger(&def));
    static posed p0, p1;
    pose_hand(&fx, &h, &def, 0.0f, &p0);
    pose_hand(&fx, &h, &def, 1.0f, &p1);
    /* Index straight: consecutive segment directions within 2 degrees. */
    double worst = 0.0;
    const vec3 *ix = p0.job.positions[LB_FINGER_INDEX];
    for (int k = 0; k < 2; ++k) {
      vec3 a, b;
      for (int c = 0; c < 3; ++c) {
        a[c] = ix[k + 1][c] - ix[k][c];
        b[c] = ix[k + 2][c] - ix[k + 1][c]; /* [3] is the tip */
      }
      double ang = angle_deg(a, b);
      worst = ang > worst ? ang : worst;
    }
    LB_CHECK(worst < 2.0);
    for (int f = LB_FINGER_MIDDLE; f < LB_FINGER_COUNT; ++f) {
      /* The others curl round the grip: tips come back behind their knuckles. */
      LB_CHECK(p0.palm[f][3][2] < p0.palm[f][0][2]);
    }
    /* Trigger 1: only the index rotations change; the pull moves the tip palm-side. */
    int others_changed = 0, index_changed = 0;
    for (uint32_t j = 0; j < fx.h.count; ++j) {
      bool is_index = false;
      for (int s = 0; s < 3; ++s) {
        is_index = is_index || h.rig.fingers[LB_FINGER_INDEX].joints[s] == (int)j;
      }
      bool same = same_rotations(p0.local, p1.local, (int)j);
      if (is_index) {
        index_changed += !same;
      } else {
        others_changed += !same;
      }
    }
    double pull = (p1.palm[LB_FINGER_INDEX][3][1] - p0.palm[LB_FINGER_INDEX][3][1]);
    printf("pistol %s: index max segment angle %.2e deg; trigger moves the tip %.3f index "
           "lengths palm-side, %d index joints, %d other joints changed\n",
           side ? "left" : "right", worst, pull, index_changed, others_changed);
    LB_CHECK(index_changed == 3 && others_changed == 0);
    LB_CHECK(pull > 0.3);
  }
  fixture_free(&fx);
}

static void test_spread_and_fan_signs(void) {
  rig_fixture fx;
  fixture_init(&fx, LB_NAMING_UNREAL, 1.8f);
  const char *const shapes[2] = {
      "{\"index\":{\"spread\":1},\"middle\":{\"spread\":1},\"ring\":{\"spread\":1},"
      "\"pinky\":{\"spread\":1}}",
      "{\"index\":{\"fan\":10,\"curl\":0.3},\"middle\":{\"fan\":10,\"curl\":0.3},"
      "\"ring\":{\"fan\":10,\"curl\":0.3},\"pinky\":{\"fan\":10,\"curl\":0.3}}"};
  for (int side = 0; side < 2; ++side) {
    hand_fixture h;
    hand_init(&fx, (lb_hand_side)side, &h);
    /* Thumb side in palm X: -1 for the right hand, +1 for the left. */
    float thumb_side = side == LB_HAND_RIGHT ? -1.0f : 1.0f;
    static posed rest, curled, p;
    lb_grip_pose_def open = builtin("open");
    pose_hand(&fx, &h, &open, 0.0f, &rest);
    LB_CHECK(rest.palm[LB_FINGER_THUMB][3][0] * thumb_side > 0.2f);
    for (int s = 0; s < 2; ++s) {
      lb_grip_pose_def def = parse(shapes[s]);
      pose_hand(&fx, &h, &def, 0.0f, &p);
      lb_grip_pose_def ref = s == 0 ? open
                                    : parse("{\"index\":{\"curl\":0.3},\"middle\":{\"curl\":0.3},"
                                            "\"ring\":{\"curl\":0.3},\"pinky\":{\"curl\":0.3}}");
      pose_hand(&fx, &h, &ref, 0.0f, &curled);
      for (int f = LB_FINGER_INDEX; f < LB_FINGER_COUNT; ++f) {
        float dx = (p.palm[f][3][0] - curled.palm[f][3][0]) * thumb_side;
        float dy = p.palm[f][3][1] - curled.palm[f][3][1];
        /* + moves index and middle toward the thumb, ring and pinky away. */
        LB_CHECK(f <= LB_FINGER_MIDDLE ? dx > 0.01f : dx < -0.01f);
        /* In the palm plane: the height above the palm does not change. */
        LB_CHECK(fabsf(dy) < 1e-5f);
        if (f == LB_FINGER_INDEX || f == LB_FINGER_PINKY) {
          printf("%s %s: %s tip moves %+.3f index lengths toward the thumb, %.1e off-plane\n",
                 side ? "left" : "right", s ? "fan 10" : "spread 1", lb_finger_name((lb_finger)f),
                 (double)dx, (double)dy);
        }
      }
      /* Apart: index-to-pinky tip distance grows. */
      LB_CHECK(dist3(p.palm[1][3], p.palm[4][3]) > dist3(curled.palm[1][3], curled.palm[4][3]));
    }
  }
  fixture_free(&fx);
}

/* ---- across rigs, sizes, hands ----------------------------------------------------- */
static double compare_tips(const posed *a, const posed *b, bool mirror) {
  double worst = 0.0;
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    for (int k = 0; k < 4; ++k) {
      for (int c = 0; c < 3; ++c) {
        float vb = mirror && c == 0 ? -b->palm[f][k][c] : b->palm[f][k][c];
        double d = fabs((double)a->palm[f][k][c] - vb);
        worst = d > worst ? d : worst;
      }
    }
  }
  return worst;
}

static void test_same_pose_on_every_rig(void) {
  static rig_fixture ref, fx;
  fixture_init(&ref, LB_NAMING_MIXAMO, 1.8f);
  hand_fixture rh[2];
  hand_init(&ref, LB_HAND_RIGHT, &rh[0]);
  hand_init(&ref, LB_HAND_LEFT, &rh[1]);
  double worst_rig = 0.0, worst_size = 0.0, worst_mirror = 0.0;
  const float trigger[2] = {0.0f, 1.0f};
  for (int variant = 1; variant < 6; ++variant) {
    /* 1..3: Unreal (metacarpals), Blender (bone +Y axes), Digits (mapped); 4, 5: heights. */
    lb_humanoid_naming naming = variant < 4 ? (lb_humanoid_naming)variant : LB_NAMING_BLENDER;
    float height = variant == 4 ? 1.4f : variant == 5 ? 2.0f : 1.8f;
    fixture_init(&fx, naming, height);
    for (int side = 0; side < 2; ++side) {
      hand_fixture h;
      hand_init(&fx, (lb_hand_side)side, &h);
      for (uint32_t i = 0; i < lb_grip_pose_builtin_count(); ++i) {
        lb_grip_pose_def def = builtin(lb_grip_pose_builtin_name(i));
        for (int t = 0; t < 2; ++t) {
          static posed a, b, m;
          pose_hand(&ref, &rh[side], &def, trigger[t], &a);
          pose_hand(&fx, &h, &def, trigger[t], &b);
          double d = compare_tips(&a, &b, false);
          if (variant < 4) {
            worst_rig = d > worst_rig ? d : worst_rig;
          } else {
            worst_size = d > worst_size ? d : worst_size;
          }
          if (side == LB_HAND_LEFT && variant == 1) {
            pose_hand(&ref, &rh[0], &def, trigger[t], &m);
            double dm = compare_tips(&m, &a, true);
            worst_mirror = dm > worst_mirror ? dm : worst_mirror;
          }
        }
      }
    }
    fixture_free(&fx);
  }
  /* 1 mm at the reference hand: index length 0.085 m. */
  double mm = 1e-3 / 0.085;
  printf("every built-in pose, both hands, trigger 0 and 1: fingertips and joints in palm frame "
         "/ index length agree across rigs within %.2e (%.2e mm), across heights 1.4/2.0 within "
         "%.2e (%.2e mm); left = mirrored right within %.2e (%.2e mm); job positions vs FK of "
         "the written rotations %.2e m\n",
         worst_rig, worst_rig / mm, worst_size, worst_size / mm, worst_mirror, worst_mirror / mm,
         fk_mismatch);
  LB_CHECK(worst_rig < mm);
  LB_CHECK(worst_size < mm);
  LB_CHECK(worst_mirror < mm);
  LB_CHECK(fk_mismatch < 1e-6);
  fixture_free(&ref);
}

/* ---- thumb ------------------------------------------------------------------------- */
static void test_thumb_reach(void) {
  rig_fixture fx;
  fixture_init(&fx, LB_NAMING_DIGITS, 1.8f);
  for (int side = 0; side < 2; ++side) {
    hand_fixture h;
    hand_init(&fx, (lb_hand_side)side, &h);
    static posed p;
    lb_grip_pose_def pinch = builtin("pinch");
    pose_hand(&fx, &h, &pinch, 0.0f, &p);
    const float *tt = p.job.positions[LB_FINGER_THUMB][3];
    const float *it = p.job.positions[LB_FINGER_INDEX][3];
    double gap = pinch.thumb.gap * p.job.index_length;
    double d = dist3(tt, it);
    printf("pinch %s: thumb tip %.6f m from the index tip (gap %.6f m, error %.2e m)\n",
           side ? "left" : "right", d, gap, fabs(d - gap));
    LB_CHECK(fabs(d - gap) < 2e-5);

    lb_grip_pose_def fist = builtin("fist");
    pose_hand(&fx, &h, &fist, 0.0f, &p);
    float ty = p.palm[LB_FINGER_THUMB][3][1], my = p.palm[LB_FINGER_MIDDLE][1][1];
    vec3 goal;
    for (int a = 0; a < 3; ++a) {
      goal[a] = p.palm[LB_FINGER_MIDDLE][1][a];
    }
    goal[1] += fist.thumb.gap;
    double miss = dist3(p.palm[LB_FINGER_THUMB][3], goal) * p.job.index_length;
    printf("fist %s: thumb tip palm-side height %.3f vs middle joint %.3f (index lengths); "
           "%.2e m from its goal\n",
           side ? "left" : "right", (double)ty, (double)my, miss);
    LB_CHECK(ty > my);
    LB_CHECK(miss < 2e-5);

    /* Out of reach: a straight hand and a far gap; the thumb points at the goal. */
    lb_grip_pose_def far = parse("{\"thumb\":{\"opposition\":1,\"gap\":2,\"to\":\"index\"}}");
    pose_hand(&fx, &h, &far, 0.0f, &p);
    const vec3 *th = p.job.positions[LB_FINGER_THUMB];
    vec3 y, g, dir_tip, dir_goal;
    lb_quat_rotate(p.job.palm.r, (vec3){0.0f, 1.0f, 0.0f}, y);
    for (int a = 0; a < 3; ++a) {
      g[a] = p.job.positions[LB_FINGER_INDEX][3][a] + 2.0f * p.job.index_length * y[a];
      dir_tip[a] = th[3][a] - th[0][a];
      dir_goal[a] = g[a] - th[0][a];
    }
    double aim = angle_deg(dir_tip, dir_goal);
    printf("out of reach %s: thumb points %.2e deg off the goal\n", side ? "left" : "right", aim);
    LB_CHECK(aim < 0.01);
  }
  fixture_free(&fx);
}

/* ---- by-joint ------------------------------------------------------------------------ */
static void test_by_joint_identical(void) {
  rig_fixture fx;
  fixture_init(&fx, LB_NAMING_BLENDER, 1.8f);
  hand_fixture h;
  hand_init(&fx, LB_HAND_LEFT, &h);
  lb_grip_pose_def defs[10];
  uint32_t n = lb_grip_pose_builtin_count();
  for (uint32_t i = 0; i < n; ++i) {
    defs[i] = builtin(lb_grip_pose_builtin_name(i));
  }
  defs[n++] = parse("{\"thumb\":{\"opposition\":0.5,\"gap\":0.2,\"to\":\"index\"},"
                    "\"index\":{\"curl\":0.9,\"base\":0.2,\"trigger\":{\"spread\":-1}},"
                    "\"middle\":{\"bend\":[30,45,20],\"fan\":4,\"trigger\":{\"curl\":1}},"
                    "\"pinky\":{\"spread\":0.5}}");
  int differ = 0, checked = 0;
  for (uint32_t i = 0; i < n; ++i) {
    lb_grip_pose_def bj;
    LB_CHECK(lb_grip_pose_by_joint(&defs[i], &bj) == LB_OK);
    LB_CHECK(lb_grip_pose_has_trigger(&bj) == lb_grip_pose_has_trigger(&defs[i]));
    for (int f = LB_FINGER_INDEX; f < LB_FINGER_COUNT; ++f) {
      LB_CHECK(bj.fingers[f].shape.set == (LB_SHAPE_BEND | LB_SHAPE_FAN));
    }
    const float triggers[4] = {0.0f, 0.25f, 0.5f, 1.0f};
    for (int t = 0; t < 4; ++t) {
      static posed a, b;
      pose_hand(&fx, &h, &defs[i], triggers[t], &a);
      pose_hand(&fx, &h, &bj, triggers[t], &b);
      for (uint32_t j = 0; j < fx.h.count; ++j) {
        differ += !same_rotations(a.local, b.local, (int)j);
        ++checked;
      }
    }
    /* Expanding twice changes nothing. */
    lb_grip_pose_def again;
    LB_CHECK(lb_grip_pose_by_joint(&bj, &again) == LB_OK && lb_grip_pose_equal(&bj, &again));
  }
  printf("by-joint: %d of %d joint rotations differ bitwise (%u poses x 4 trigger values)\n",
         differ, checked, n);
  LB_CHECK(differ == 0);
  /* The expanded middle finger of the custom pose. */
  lb_grip_pose_def bj;
  LB_CHECK(lb_grip_pose_by_joint(&defs[n - 1], &bj) == LB_OK);
  LB_CHECK(bj.fingers[LB_FINGER_MIDDLE].shape.bend[1] == 45.0f);
  LB_CHECK(bj.fingers[LB_FINGER_INDEX].shape.bend[0] == 0.2f * LB_GRIP_CURL_DEG_0);
  LB_CHECK(bj.fingers[LB_FINGER_PINKY].shape.fan == 0.5f * LB_GRIP_SPREAD_DEG_PINKY);
  LB_CHECK(bj.fingers[LB_FINGER_INDEX].trigger.fan == -LB_GRIP_SPREAD_DEG_INDEX);
  LB_CHECK(bj.fingers[LB_FINGER_INDEX].trigger.bend[1] == 0.9f * LB_GRIP_CURL_DEG_1);
  fixture_free(&fx);
}

/* ---- JSON ---------------------------------------------------------------------------- */
static void test_json_round_trip(void) {
  lb_grip_pose_def d =
      parse("{\"thumb\":{\"opposition\":1,\"gap\":0.2,\"to\":\"fingers\"},\"index\":{\"curl\":0.9,"
            "\"base\":0.2,\"trigger\":{\"curl\":0.7}},\"middle\":{\"bend\":[30,45,20],\"fan\":4},"
            "\"pinky\":{\"spread\":0.5}}");
  LB_CHECK(d.thumb.opposition == 1.0f && d.thumb.gap == 0.2f && d.thumb.to == LB_THUMB_TO_FINGERS);
  LB_CHECK(d.fingers[LB_FINGER_INDEX].shape.set == (LB_SHAPE_CURL | LB_SHAPE_BASE));
  LB_CHECK(d.fingers[LB_FINGER_INDEX].has_trigger);
  LB_CHECK(d.fingers[LB_FINGER_INDEX].trigger.set == LB_SHAPE_CURL);
  LB_CHECK(d.fingers[LB_FINGER_INDEX].trigger.curl == 0.7f);
  LB_CHECK(d.fingers[LB_FINGER_MIDDLE].shape.bend[2] == 20.0f);
  LB_CHECK(d.fingers[LB_FINGER_RING].shape.set == 0);
  LB_CHECK(d.fingers[LB_FINGER_PINKY].shape.spread == 0.5f);

  char buf[1024];
  size_t len = 0;
  LB_CHECK(lb_grip_pose_write_json(&d, buf, sizeof buf, &len) == LB_OK);
  printf("written: %s\n", buf);
  LB_CHECK(strcmp(buf, "{\"thumb\":{\"opposition\":1,\"gap\":0.2},\"index\":{\"curl\":0.9,"
                       "\"base\":0.2,\"trigger\":{\"curl\":0.7}},\"middle\":{\"bend\":[30,45,20],"
                       "\"fan\":4},\"pinky\":{\"spread\":0.5}}") == 0);
  lb_grip_pose_def back = parse(buf);
  LB_CHECK(lb_grip_pose_equal(&d, &back));
  LB_CHECK(len == strlen(buf));

  /* Capacity: the needed length is reported, the buffer is left empty. */
  size_t need = 0;
  LB_CHECK(lb_grip_pose_write_json(&d, NULL, 0, &need) == LB_ERR_CAPACITY && need == len);
  char small[16];
  LB_CHECK(lb_grip_pose_write_json(&d, small, sizeof small, &need) == LB_ERR_CAPACITY);
  LB_CHECK(small[0] == '\0');
  LB_CHECK(lb_grip_pose_write_json(&d, buf, len + 1, &need) == LB_OK);

  /* Every built-in, its by-joint form and random defs round-trip bit-exactly. */
  int trips = 0, bad = 0;
  for (uint32_t i = 0; i < lb_grip_pose_builtin_count(); ++i) {
    lb_grip_pose_def b[2];
    b[0] = builtin(lb_grip_pose_builtin_name(i));
    LB_CHECK(lb_grip_pose_by_joint(&b[0], &b[1]) == LB_OK);
    for (int k = 0; k < 2; ++k) {
      LB_CHECK(lb_grip_pose_write_json(&b[k], buf, sizeof buf, &len) == LB_OK);
      lb_grip_pose_def r = parse(buf);
      bad += !lb_grip_pose_equal(&b[k], &r);
      ++trips;
    }
  }
  rng g = {12345u};
  for (int i = 0; i < 2000; ++i) {
    lb_grip_pose_def r = lb_grip_pose_default_def();
    for (int f = LB_FINGER_INDEX; f < LB_FINGER_COUNT; ++f) {
      lb_finger_shape *s = &r.fingers[f].shape;
      for (int t = 0; t < 2; ++t, s = &r.fingers[f].trigger) {
        s->set = rng_u32(&g) & LB_SHAPE_ALL;
        s->curl = (float)(rng_u32(&g) >> 8) / 16777216.0f;
        s->base = (float)(rng_u32(&g) >> 8) / 16777216.0f;
        s->spread = (float)(rng_u32(&g) >> 8) / 8388608.0f - 1.0f;
        s->fan = ((float)(rng_u32(&g) >> 8) / 8388608.0f - 1.0f) * 90.0f;
        for (int k = 0; k < 3; ++k) {
          s->bend[k] = ((float)(rng_u32(&g) >> 8) / 8388608.0f - 1.0f) * 180.0f;
        }
        /* Fields that are not given are not written: keep them at the parser's 0. */
        float *fields[4] = {&s->curl, &s->base, &s->spread, &s->fan};
        const uint32_t flags[4] = {LB_SHAPE_CURL, LB_SHAPE_BASE, LB_SHAPE_SPREAD, LB_SHAPE_FAN};
        for (int q = 0; q < 4; ++q) {
          *fields[q] = (s->set & flags[q]) ? *fields[q] : 0.0f;
        }
        if (!(s->set & LB_SHAPE_BEND)) {
          s->bend[0] = s->bend[1] = s->bend[2] = 0.0f;
        }
      }
      r.fingers[f].has_trigger = rng_u32(&g) & 1u;
      if (!r.fingers[f].has_trigger) {
        memset(&r.fingers[f].trigger, 0, sizeof r.fingers[f].trigger);
      }
    }
    r.thumb.opposition = (float)(rng_u32(&g) >> 8) / 16777216.0f;
    r.thumb.gap = (float)(rng_u32(&g) >> 8) / 8388608.0f;
    r.thumb.to = (lb_thumb_target)(rng_u32(&g) & 1u);
    LB_CHECK(lb_grip_pose_validate(&r) == LB_OK);
    LB_CHECK(lb_grip_pose_write_json(&r, buf, sizeof buf, &len) == LB_OK);
    lb_grip_pose_def back2 = lb_grip_pose_default_def();
    LB_CHECK(lb_grip_pose_parse_json(buf, len, &back2, NULL, 0) == LB_OK);
    bad += !lb_grip_pose_equal(&r, &back2);
    ++trips;
  }
  printf("JSON round trips: %d, not bit-exact: %d\n", trips, bad);
  LB_CHECK(bad == 0);
}

static void test_json_errors(void) {
  static const struct {
    const char *json;
    lb_result code;
    const char *msg; /* expected in the message */
  } cases[] = {
      {"", LB_ERR_PARSE, "empty"},
      {"{", LB_ERR_PARSE, "malformed"},
      {"[]", LB_ERR_PARSE, "pose: expected an object"},
      {"{} x", LB_ERR_PARSE, "text after the JSON value at byte 3"},
      {"{\"claw\":{}}", LB_ERR_PARSE, "claw: unknown key"},
      {"{\"index\":{\"curl\":0.5,\"curl\":0.6}}", LB_ERR_PARSE, "index.curl: repeated key"},
      {"{\"index\":{},\"index\":{}}", LB_ERR_PARSE, "index: repeated key"},
      {"{\"index\":3}", LB_ERR_PARSE, "index: expected an object"},
      {"{\"index\":{\"curl\":\"0.5\"}}", LB_ERR_PARSE, "index.curl: expected a number"},
      {"{\"index\":{\"curl\":1.5}}", LB_ERR_OUT_OF_RANGE, "index.curl: 1.5 is out of range [0, 1]"},
      {"{\"ring\":{\"base\":-0.1}}", LB_ERR_OUT_OF_RANGE, "ring.base"},
      {"{\"pinky\":{\"spread\":2}}", LB_ERR_OUT_OF_RANGE, "pinky.spread"},
      {"{\"middle\":{\"fan\":91}}", LB_ERR_OUT_OF_RANGE, "middle.fan"},
      {"{\"index\":{\"curl\":1e999}}", LB_ERR_NOT_FINITE, "index.curl: number is not finite"},
      {"{\"index\":{\"fan\":1e39}}", LB_ERR_NOT_FINITE, "index.fan"},
      {"{\"index\":{\"bend\":[1,2]}}", LB_ERR_PARSE, "index.bend: expected 3 numbers, got 2"},
      {"{\"index\":{\"bend\":[1,2,3,4]}}", LB_ERR_PARSE, "index.bend: expected 3 numbers, got 4"},
      {"{\"index\":{\"bend\":{}}}", LB_ERR_PARSE, "index.bend: expected an array of 3 numbers"},
      {"{\"index\":{\"bend\":[1,null,3]}}", LB_ERR_PARSE, "index.bend[1]: expected a number"},
      {"{\"index\":{\"bend\":[1,2,200]}}", LB_ERR_OUT_OF_RANGE, "index.bend[2]"},
      {"{\"index\":{\"trigger\":{\"trigger\":{}}}}", LB_ERR_PARSE,
       "index.trigger.trigger: unknown key"},
      {"{\"index\":{\"trigger\":{\"curl\":2}}}", LB_ERR_OUT_OF_RANGE, "index.trigger.curl"},
      {"{\"index\":{\"trigger\":[]}}", LB_ERR_PARSE, "index.trigger: expected an object"},
      {"{\"thumb\":{\"to\":\"ring\"}}", LB_ERR_PARSE,
       "thumb.to: expected \"fingers\" or \"index\""},
      {"{\"thumb\":{\"to\":1}}", LB_ERR_PARSE, "thumb.to"},
      {"{\"thumb\":{\"opposition\":-1}}", LB_ERR_OUT_OF_RANGE, "thumb.opposition"},
      {"{\"thumb\":{\"gap\":3}}", LB_ERR_OUT_OF_RANGE, "thumb.gap"},
      {"{\"thumb\":{\"curl\":1}}", LB_ERR_PARSE, "thumb.curl: unknown key"},
      {"{\"thumb\":true}", LB_ERR_PARSE, "thumb: expected an object"},
      {"{\"index\":{\"curl\":NaN}}", LB_ERR_PARSE, "malformed"},
  };
  lb_grip_pose_def sentinel = builtin("pistol");
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    lb_grip_pose_def out = sentinel;
    char err[160];
    lb_result r =
        lb_grip_pose_parse_json(cases[i].json, strlen(cases[i].json), &out, err, sizeof err);
    bool ok = r == cases[i].code && strstr(err, cases[i].msg) != NULL &&
              lb_grip_pose_equal(&out, &sentinel);
    if (!ok) {
      fprintf(stderr, "  case %zu %s: got %s '%s'\n", i, cases[i].json, lb_result_name(r), err);
    }
    LB_CHECK(ok);
  }
  printf("JSON errors: %zu malformed inputs rejected, output untouched; e.g. '%s'\n",
         sizeof cases / sizeof cases[0], "index.bend[1]: expected a number");
  /* Length is honoured: the same text cut short is malformed; embedded NUL ends it. */
  const char *txt = "{\"index\":{\"curl\":0.5}}";
  lb_grip_pose_def out = sentinel;
  LB_CHECK(lb_grip_pose_parse_json(txt, strlen(txt) - 1, &out, NULL, 0) == LB_ERR_PARSE);
  LB_CHECK(lb_grip_pose_parse_json(txt, strlen(txt) + 1, &out, NULL, 0) == LB_OK);
  LB_CHECK(out.fingers[LB_FINGER_INDEX].shape.curl == 0.5f);
  LB_CHECK(lb_grip_pose_parse_json(NULL, 3, &out, NULL, 0) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_grip_pose_parse_json(txt, strlen(txt), NULL, NULL, 0) == LB_ERR_INVALID_ARGUMENT);
  char tiny[8];
  LB_CHECK(lb_grip_pose_parse_json("{\"x\":1}", 7, &out, tiny, sizeof tiny) == LB_ERR_PARSE);
  LB_CHECK(strlen(tiny) == 7);
}

/* ---- registry and validation --------------------------------------------------------- */
static void test_registry(void) {
  static lb_grip_pose_registry reg; /* zero-initialised = empty */
  lb_grip_pose_def d, claw = parse("{\"index\":{\"curl\":0.9,\"base\":0.2}}");
  LB_CHECK(lb_grip_pose_registry_find(&reg, "claw", &d) == LB_ERR_UNKNOWN_NAME);
  LB_CHECK(lb_grip_pose_registry_find(&reg, "fist", &d) == LB_OK);
  lb_grip_pose_def fist = builtin("fist");
  LB_CHECK(lb_grip_pose_equal(&d, &fist));
  LB_CHECK(lb_grip_pose_registry_find(NULL, "cup", &d) == LB_OK);
  LB_CHECK(lb_grip_pose_registry_set(&reg, "claw", &claw) == LB_OK);
  LB_CHECK(lb_grip_pose_registry_find(&reg, "claw", &d) == LB_OK && lb_grip_pose_equal(&d, &claw));
  /* Replace by name, including a built-in. */
  LB_CHECK(lb_grip_pose_registry_set(&reg, "claw", &fist) == LB_OK && reg.count == 1);
  LB_CHECK(lb_grip_pose_registry_find(&reg, "claw", &d) == LB_OK && lb_grip_pose_equal(&d, &fist));
  LB_CHECK(lb_grip_pose_registry_set(&reg, "fist", &claw) == LB_OK && reg.count == 2);
  LB_CHECK(lb_grip_pose_registry_find(&reg, "fist", &d) == LB_OK && lb_grip_pose_equal(&d, &claw));
  /* Bad names and defs change nothing. */
  lb_grip_pose_def bad = claw;
  bad.fingers[LB_FINGER_INDEX].shape.curl = NAN;
  LB_CHECK(lb_grip_pose_registry_set(&reg, "nan", &bad) == LB_ERR_NOT_FINITE);
  LB_CHECK(lb_grip_pose_registry_set(&reg, "", &claw) == LB_ERR_OUT_OF_RANGE);
  LB_CHECK(lb_grip_pose_registry_set(&reg, "0123456789012345678901234567890123", &claw) ==
           LB_ERR_OUT_OF_RANGE);
  LB_CHECK(lb_grip_pose_registry_set(&reg, "0123456789012345678901234567890", &claw) == LB_OK);
  LB_CHECK(lb_grip_pose_registry_set(NULL, "x", &claw) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(reg.count == 3);
  /* Full: new names fail, replacing still works. */
  char name[32];
  for (int i = 0; reg.count < LB_GRIP_POSE_REGISTRY_MAX; ++i) {
    snprintf(name, sizeof name, "user%d", i);
    LB_CHECK(lb_grip_pose_registry_set(&reg, name, &claw) == LB_OK);
  }
  LB_CHECK(lb_grip_pose_registry_set(&reg, "one-too-many", &claw) == LB_ERR_CAPACITY);
  LB_CHECK(lb_grip_pose_registry_find(&reg, "one-too-many", &d) == LB_ERR_UNKNOWN_NAME);
  LB_CHECK(lb_grip_pose_registry_set(&reg, "claw", &claw) == LB_OK);
  LB_CHECK(reg.count == LB_GRIP_POSE_REGISTRY_MAX);
  printf("registry: %u user poses, full → %s\n", reg.count, lb_result_name(LB_ERR_CAPACITY));
  LB_CHECK(lb_grip_pose_builtin("Fist", &d) == LB_ERR_UNKNOWN_NAME);
  LB_CHECK(lb_grip_pose_builtin_name(lb_grip_pose_builtin_count()) == NULL);
}

static void test_validation(void) {
  lb_grip_pose_def d = lb_grip_pose_default_def();
  LB_CHECK(lb_grip_pose_validate(&d) == LB_OK);
  LB_CHECK(lb_grip_pose_validate(NULL) == LB_ERR_INVALID_ARGUMENT);
  d.fingers[LB_FINGER_THUMB].shape.set = LB_SHAPE_CURL;
  LB_CHECK(lb_grip_pose_validate(&d) == LB_ERR_INVALID_ARGUMENT);
  d = lb_grip_pose_default_def();
  d.fingers[LB_FINGER_RING].shape.set = 0x40;
  LB_CHECK(lb_grip_pose_validate(&d) == LB_ERR_INVALID_ARGUMENT);
  d = lb_grip_pose_default_def();
  d.fingers[LB_FINGER_RING].shape.curl = 3.0f; /* not given: ignored */
  LB_CHECK(lb_grip_pose_validate(&d) == LB_OK);
  d.fingers[LB_FINGER_RING].shape.set = LB_SHAPE_CURL;
  LB_CHECK(lb_grip_pose_validate(&d) == LB_ERR_OUT_OF_RANGE);
  d.fingers[LB_FINGER_PINKY].trigger.bend[1] = INFINITY; /* non-finite beats range */
  d.fingers[LB_FINGER_PINKY].has_trigger = true;
  LB_CHECK(lb_grip_pose_validate(&d) == LB_ERR_NOT_FINITE);
  d = lb_grip_pose_default_def();
  d.fingers[LB_FINGER_INDEX].trigger.set = LB_SHAPE_CURL; /* unused trigger: still checked */
  d.fingers[LB_FINGER_INDEX].trigger.curl = 5.0f;
  LB_CHECK(lb_grip_pose_validate(&d) == LB_ERR_OUT_OF_RANGE);
  d = lb_grip_pose_default_def();
  d.thumb.to = (lb_thumb_target)2;
  LB_CHECK(lb_grip_pose_validate(&d) == LB_ERR_INVALID_ARGUMENT);
  d.thumb.to = LB_THUMB_TO_INDEX;
  d.thumb.gap = -0.5f;
  LB_CHECK(lb_grip_pose_validate(&d) == LB_ERR_OUT_OF_RANGE);
  lb_grip_pose_def out = builtin("cup"), keep = out;
  LB_CHECK(lb_grip_pose_by_joint(&d, &out) == LB_ERR_OUT_OF_RANGE &&
           lb_grip_pose_equal(&out, &keep));
  char buf[64];
  size_t n = 0;
  LB_CHECK(lb_grip_pose_write_json(&d, buf, sizeof buf, &n) == LB_ERR_OUT_OF_RANGE);
  float bend[3], fan;
  LB_CHECK(lb_grip_pose_finger_angles(&keep, LB_FINGER_THUMB, 0.0f, bend, &fan) ==
           LB_ERR_INVALID_ARGUMENT);

  /* Jobs: bad rigs and inputs are refused and write nothing. */
  rig_fixture fx;
  fixture_init(&fx, LB_NAMING_MIXAMO, 1.8f);
  hand_fixture h;
  hand_init(&fx, LB_HAND_RIGHT, &h);
  static lb_transform local[MAXJ], model[MAXJ], outl[MAXJ];
  memcpy(local, fx.h.local, sizeof local);
  memcpy(model, fx.h.model, sizeof model);
  memcpy(outl, fx.h.local, sizeof outl);
  lb_grip_pose_def fist = builtin("fist");
  lb_finger_pose_job job = lb_finger_pose_default_job();
  LB_CHECK(lb_finger_pose_job_validate(&job) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_finger_pose_job_validate(NULL) == LB_ERR_INVALID_ARGUMENT);
  job.rig = &h.rig;
  job.pose = &fist;
  job.joint_count = fx.h.count;
  job.local = local;
  job.model = model;
  job.out_local = outl;
  LB_CHECK(lb_finger_pose_job_validate(&job) == LB_OK);
  job.trigger = NAN;
  LB_CHECK(lb_finger_pose_job_run(&job) == LB_ERR_NOT_FINITE);
  job.trigger = 1.5f;
  LB_CHECK(lb_finger_pose_job_run(&job) == LB_ERR_OUT_OF_RANGE);
  job.trigger = 0.0f;
  job.joint_count = fx.h.count - 1;
  LB_CHECK(lb_finger_pose_job_run(&job) == LB_ERR_INVALID_ARGUMENT);
  job.joint_count = fx.h.count;
  local[h.rig.fingers[LB_FINGER_RING].joints[1]].t[0] = NAN;
  LB_CHECK(lb_finger_pose_job_run(&job) == LB_ERR_NOT_FINITE);
  memcpy(local, fx.h.local, sizeof local);
  model[h.rig.hand].r[2] = INFINITY;
  LB_CHECK(lb_finger_pose_job_run(&job) == LB_ERR_NOT_FINITE);
  memcpy(model, fx.h.model, sizeof model);
  lb_grip_pose_def badpose = fist;
  badpose.thumb.opposition = 2.0f;
  job.pose = &badpose;
  LB_CHECK(lb_finger_pose_job_run(&job) == LB_ERR_OUT_OF_RANGE);
  lb_hand_rig unbuilt;
  memset(&unbuilt, 0, sizeof unbuilt);
  job.rig = &unbuilt;
  job.pose = &fist;
  LB_CHECK(lb_finger_pose_job_run(&job) == LB_ERR_INVALID_ARGUMENT);
  int written = 0;
  for (uint32_t j = 0; j < fx.h.count; ++j) {
    written += !same_rotations(outl, fx.h.local, (int)j);
  }
  LB_CHECK(written == 0);
  /* In place (out_local == local) equals a separate output. */
  job.rig = &h.rig;
  job.out_local = local;
  LB_CHECK(lb_finger_pose_job_run(&job) == LB_OK);
  job.local = fx.h.local;
  job.out_local = outl;
  LB_CHECK(lb_finger_pose_job_run(&job) == LB_OK);
  LB_CHECK(lb_test_same_transforms(local, outl, fx.h.count));

  /* Rig build: nulls, out-of-range indices, chains that are not parent → child, NaN rest. */
  lb_hand_rig r = h.rig, keep_rig = h.rig;
  LB_CHECK(lb_hand_rig_build(NULL, fx.h.parents, fx.h.local, fx.h.count, &r) ==
           LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_hand_rig_build(&h.info, fx.h.parents, fx.h.local, 0, &r) == LB_ERR_OUT_OF_RANGE);
  lb_hand_info info = h.info;
  info.fingers[LB_FINGER_INDEX].joints[1] = info.fingers[LB_FINGER_MIDDLE].joints[1];
  LB_CHECK(lb_hand_rig_build(&info, fx.h.parents, fx.h.local, fx.h.count, &r) ==
           LB_ERR_INVALID_ARGUMENT);
  info = h.info;
  info.fingers[LB_FINGER_PINKY].tip = (int16_t)fx.h.count;
  LB_CHECK(lb_hand_rig_build(&info, fx.h.parents, fx.h.local, fx.h.count, &r) ==
           LB_ERR_INVALID_ARGUMENT);
  info = h.info;
  info.hand = 0; /* fingers are under the hips, but the chain check needs them under the hand */
  info.fingers[LB_FINGER_INDEX].joints[0] = 0;
  LB_CHECK(lb_hand_rig_build(&info, fx.h.parents, fx.h.local, fx.h.count, &r) ==
           LB_ERR_INVALID_ARGUMENT);
  memcpy(local, fx.h.local, sizeof local);
  local[h.info.fingers[LB_FINGER_MIDDLE].joints[0]].r[1] = NAN;
  LB_CHECK(lb_hand_rig_build(&h.info, fx.h.parents, local, fx.h.count, &r) == LB_ERR_NOT_FINITE);
  LB_CHECK(memcmp(&r, &keep_rig, sizeof r) == 0);
  /* Fewer fingers: a hand without ring and pinky still builds and poses the rest. */
  info = h.info;
  info.fingers[LB_FINGER_RING].found = false;
  info.fingers[LB_FINGER_PINKY].found = false;
  /* The across-palm direction then comes from index → middle. */
  LB_CHECK(lb_hand_rig_build(&info, fx.h.parents, fx.h.local, fx.h.count, &r) == LB_OK);
  LB_CHECK(!r.fingers[LB_FINGER_RING].found && r.fingers[LB_FINGER_INDEX].found);
  info.fingers[LB_FINGER_RING].found = true;
  info.fingers[LB_FINGER_INDEX].found = false;
  LB_CHECK(lb_hand_rig_build(&info, fx.h.parents, fx.h.local, fx.h.count, &r) == LB_OK);
  LB_CHECK(r.index_length > 0.08f && !r.fingers[LB_FINGER_INDEX].found);
  fixture_free(&fx);
}

/* ---- determinism ---------------------------------------------------------------------
 * FNV-1a over every written rotation and every position, field by field, for every
 * built-in on both hands of two rigs at three trigger values. The same value is expected
 * from gcc, clang and the wasm SIMD and scalar builds (checked: emcc of this file run in
 * Node);
 * changing a built-in's numbers changes it. */
static uint64_t fnv(uint64_t h, const float *v, int n) {
  for (int i = 0; i < n; ++i) {
    uint32_t bits;
    memcpy(&bits, &v[i], sizeof bits);
    for (int b = 0; b < 4; ++b) {
      h ^= (bits >> (8 * b)) & 0xffu;
      h *= 1099511628211ull;
    }
  }
  return h;
}

#define LB_GRIP_POSE_EXPECTED_HASH 0x377a6f3f2a640535ull

static void test_determinism_hash(void) {
  uint64_t h = 14695981039346656037ull;
  const float triggers[3] = {0.0f, 0.5f, 1.0f};
  for (int naming = 0; naming < 3; naming += 2) {
    static rig_fixture fx;
    fixture_init(&fx, (lb_humanoid_naming)naming, 1.7f);
    for (int side = 0; side < 2; ++side) {
      hand_fixture hf;
      hand_init(&fx, (lb_hand_side)side, &hf);
      for (uint32_t i = 0; i < lb_grip_pose_builtin_count(); ++i) {
        lb_grip_pose_def def = builtin(lb_grip_pose_builtin_name(i));
        for (int t = 0; t < 3; ++t) {
          static posed p;
          pose_hand(&fx, &hf, &def, triggers[t], &p);
          for (uint32_t j = 0; j < fx.h.count; ++j) {
            h = fnv(h, p.local[j].r, 4);
          }
          h = fnv(h, &p.job.positions[0][0][0], LB_FINGER_COUNT * 4 * 3);
        }
      }
    }
    fixture_free(&fx);
  }
  printf("grip pose hash %016llx (expected %016llx)\n", (unsigned long long)h,
         (unsigned long long)LB_GRIP_POSE_EXPECTED_HASH);
  LB_CHECK(h == LB_GRIP_POSE_EXPECTED_HASH);
}

int main(void) {
  LB_RUN(test_open_is_rest);
  LB_RUN(test_fist_closes);
  LB_RUN(test_pistol_and_trigger);
  LB_RUN(test_spread_and_fan_signs);
  LB_RUN(test_same_pose_on_every_rig);
  LB_RUN(test_thumb_reach);
  LB_RUN(test_by_joint_identical);
  LB_RUN(test_json_round_trip);
  LB_RUN(test_json_errors);
  LB_RUN(test_registry);
  LB_RUN(test_validation);
  LB_RUN(test_determinism_hash);
  LB_TEST_MAIN_END();
}
