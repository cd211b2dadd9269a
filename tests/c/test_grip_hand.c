/* Grip part 1: hand and finger finding across naming conventions, metacarpal and end
 * rules, explicit mapping, and the palm frame on the humanoid (T-pose, conventions with
 * different bone axes, rotated root). */
#include "limber/grip.h"
#include "limber/limber.h"

#include <string.h>

#include "humanoid_fixture.h"
#include "test.h"

#define MAXJ LB_TEST_MAX_JOINTS

/* A humanoid rig entity and its skeleton as flat arrays. */
typedef lb_test_humanoid rig_fixture;

static void fixture_init(rig_fixture *fx, lb_humanoid_naming naming) {
  lb_test_humanoid_init(fx, naming, 0.0f);
}

/* Report text of the jobs below (the job writes it into the caller's buffer). */
static char g_report[8192];

static lb_hand_find_job fixture_job(const rig_fixture *fx, lb_hand_side side) {
  lb_hand_find_job job = lb_hand_find_default_job();
  job.report = g_report;
  job.report_cap = sizeof g_report;
  job.joint_count = fx->count;
  job.names = fx->names;
  job.parents = fx->parents;
  job.side = side;
  return job;
}

static bool name_is(const char *const *names, int j, const char *want) {
  bool ok = j >= 0 && strcmp(names[j], want) == 0;
  if (!ok) {
    fprintf(stderr, "  joint %d is '%s', want '%s'\n", j, j >= 0 ? names[j] : "(none)", want);
  }
  return ok;
}

/* Expected joint names per convention; seg 0..2 segments, 3 end, -1 metacarpal. */
static void expected_name(char *n, lb_humanoid_naming naming, int right, int f, int seg) {
  static const char *const up[5] = {"Thumb", "Index", "Middle", "Ring", "Pinky"};
  static const char *const lo[5] = {"thumb", "index", "middle", "ring", "pinky"};
  switch (naming) {
  case LB_NAMING_MIXAMO:
    snprintf(n, 64, "%sHand%s%d", right ? "Right" : "Left", up[f], seg + 1);
    break;
  case LB_NAMING_UNREAL:
    if (seg < 0) {
      snprintf(n, 64, "%s_metacarpal_%s", lo[f], right ? "r" : "l");
    } else if (seg == 3) {
      snprintf(n, 64, "%s_end_%s", lo[f], right ? "r" : "l");
    } else {
      snprintf(n, 64, "%s_0%d_%s", lo[f], seg + 1, right ? "r" : "l");
    }
    break;
  case LB_NAMING_BLENDER:
    if (seg == 3) {
      snprintf(n, 64, "%s%s.03.%s_end", f ? "f_" : "", lo[f], right ? "R" : "L");
    } else {
      snprintf(n, 64, "%s%s.0%d.%s", f ? "f_" : "", lo[f], seg + 1, right ? "R" : "L");
    }
    break;
  default:
    if (seg == 3) {
      snprintf(n, 64, "%s_Digit%d_End", right ? "R" : "L", f);
    } else {
      snprintf(n, 64, "%s_Digit%d_%d", right ? "R" : "L", f, seg + 1);
    }
    break;
  }
}

static const char *const hand_names[4][2] = {
    {"LeftHand", "RightHand"}, {"hand_l", "hand_r"}, {"hand.L", "hand.R"}, {"L_Hand", "R_Hand"}};

/* Digit naming needs explicit finger roots. */
static void map_digits(lb_hand_find_job *job, char roots[5][16]) {
  for (int f = 0; f < 5; ++f) {
    snprintf(roots[f], 16, "%s_Digit%d_1", job->side == LB_HAND_RIGHT ? "R" : "L", f);
    job->finger_roots[f] = roots[f];
  }
}

static void check_hand(const rig_fixture *fx, lb_humanoid_naming naming, int right,
                       const lb_hand_info *info) {
  char n[64];
  LB_CHECK(name_is(fx->names, info->hand, hand_names[naming][right]));
  LB_CHECK(info->finger_count == 5);
  LB_CHECK(strstr(info->report, "missing") == NULL);
  for (int f = 0; f < 5; ++f) {
    const lb_finger_info *fi = &info->fingers[f];
    LB_CHECK(fi->found);
    LB_CHECK(fi->segment_count == 3);
    LB_CHECK(fi->explicit_mapping == (naming == LB_NAMING_DIGITS));
    for (int s = 0; s < 3; ++s) {
      expected_name(n, naming, right, f, s);
      LB_CHECK(name_is(fx->names, fi->joints[s], n));
    }
    expected_name(n, naming, right, f, 3);
    LB_CHECK(name_is(fx->names, fi->tip, n));
    if (naming == LB_NAMING_UNREAL && f > 0) {
      expected_name(n, naming, right, f, -1);
      LB_CHECK(name_is(fx->names, fi->metacarpal, n));
      /* Skipped: the palm bone is the root's parent, not part of the chain. */
      LB_CHECK(fx->parents[fi->joints[0]] == fi->metacarpal);
    } else {
      LB_CHECK(fi->metacarpal == -1);
    }
  }
}

static void test_conventions_find_hands_and_fingers(void) {
  for (int naming = 0; naming < 4; ++naming) {
    rig_fixture fx;
    fixture_init(&fx, (lb_humanoid_naming)naming);
    for (int right = 0; right < 2; ++right) {
      lb_hand_find_job job = fixture_job(&fx, right ? LB_HAND_RIGHT : LB_HAND_LEFT);
      char roots[5][16];
      if (naming == LB_NAMING_DIGITS) {
        map_digits(&job, roots);
      }
      LB_CHECK(lb_hand_find_job_run(&job) == LB_OK);
      check_hand(&fx, (lb_humanoid_naming)naming, right, &job.info);
      if (naming == 1 && right) {
        printf("unreal: %s\n", job.info.report);
      }
    }
    lb_world_destroy(fx.w);
  }
}

/* Digit naming without mapping: numbered digits are found by name (digit 0 = thumb), the
 * same joints as the explicit mapping. With a wrong mapping the call fails and says which
 * one. */
static void test_explicit_mapping(void) {
  rig_fixture fx;
  fixture_init(&fx, LB_NAMING_DIGITS);
  lb_hand_find_job job = fixture_job(&fx, LB_HAND_RIGHT);
  LB_CHECK(lb_hand_find_job_run(&job) == LB_OK);
  LB_CHECK(name_is(fx.names, job.info.hand, "R_Hand"));
  LB_CHECK(job.info.finger_count == 5);
  LB_CHECK(strstr(job.info.report, "missing") == NULL);
  for (int f = 0; f < 5; ++f) {
    char n[64];
    expected_name(n, LB_NAMING_DIGITS, 1, f, 0);
    LB_CHECK(name_is(fx.names, job.info.fingers[f].joints[0], n));
    LB_CHECK(!job.info.fingers[f].explicit_mapping && job.info.fingers[f].segment_count == 3);
  }

  /* Relative path, full path and bare name all work; a hand path overrides. */
  job.hand_path = "C_Pelvis/C_Spine_1/C_Spine_2/C_Spine_3/R_Clavicle/R_UpperArm/R_Forearm/R_Hand";
  job.finger_roots[LB_FINGER_THUMB] = "R_Digit0_1";
  job.finger_roots[LB_FINGER_INDEX] = "R_Digit1_1";
  job.finger_roots[LB_FINGER_MIDDLE] = "R_Digit2_1";
  job.finger_roots[LB_FINGER_RING] =
      "C_Pelvis/C_Spine_1/C_Spine_2/C_Spine_3/R_Clavicle/R_UpperArm/R_Forearm/R_Hand/R_Digit3_1";
  job.finger_roots[LB_FINGER_PINKY] = "R_Digit4_1/R_Digit4_2";
  LB_CHECK(lb_hand_find_job_run(&job) == LB_OK);
  LB_CHECK(job.info.finger_count == 5);
  LB_CHECK(name_is(fx.names, job.info.fingers[LB_FINGER_RING].joints[0], "R_Digit3_1"));
  /* Mapping to the 2nd segment: the chain starts there; the named end leaf is the tip. */
  LB_CHECK(name_is(fx.names, job.info.fingers[LB_FINGER_PINKY].joints[0], "R_Digit4_2"));
  LB_CHECK(job.info.fingers[LB_FINGER_PINKY].segment_count == 2);
  LB_CHECK(name_is(fx.names, job.info.fingers[LB_FINGER_PINKY].tip, "R_Digit4_End"));

  /* The left hand's digit is not under the right hand. */
  job.finger_roots[LB_FINGER_PINKY] = "L_Digit4_1";
  LB_CHECK(lb_hand_find_job_run(&job) == LB_ERR_JOINT_NOT_FOUND);
  LB_CHECK(!job.info.fingers[LB_FINGER_PINKY].found);
  LB_CHECK(job.info.finger_count == 4);
  LB_CHECK(strstr(job.info.report, "pinky (mapped joint 'L_Digit4_1' not under the hand)"));

  job.hand_path = "R_Forearm/R_Hand"; /* not a path from the root */
  LB_CHECK(lb_hand_find_job_run(&job) == LB_ERR_JOINT_NOT_FOUND);
  LB_CHECK(job.info.hand == -1);
  LB_CHECK(strstr(job.info.report, "'R_Forearm/R_Hand' not found") != NULL);
  /* An explicit hand joint overrides the name search (here: a hand with no side); the
   * unmapped pinky is found by name below it. */
  job.hand_path = "R_Forearm";
  job.finger_roots[LB_FINGER_PINKY] = NULL;
  LB_CHECK(lb_hand_find_job_run(&job) == LB_OK);
  LB_CHECK(name_is(fx.names, job.info.hand, "R_Forearm"));
  LB_CHECK(job.info.finger_count == 5);
  LB_CHECK(!job.info.fingers[LB_FINGER_PINKY].explicit_mapping);
  /* A mapped joint that does not exist is told apart from one that is not under the hand. */
  job.hand_path = NULL;
  job.finger_roots[LB_FINGER_PINKY] = "R_Digit9_1";
  LB_CHECK(lb_hand_find_job_run(&job) == LB_ERR_JOINT_NOT_FOUND);
  LB_CHECK(strstr(job.info.report, "pinky (mapped joint 'R_Digit9_1': no such joint)"));
  LB_CHECK(strstr(job.info.report, "not under the hand") == NULL);
  lb_world_destroy(fx.w);
}

typedef struct small_skel {
  uint32_t n;
  const char *names[32];
  int16_t parents[32];
} small_skel;

static int16_t add(small_skel *s, const char *name, int parent) {
  s->names[s->n] = name;
  s->parents[s->n] = (int16_t)parent;
  return (int16_t)s->n++;
}

static lb_hand_find_job small_job(const small_skel *s, lb_hand_side side) {
  lb_hand_find_job job = lb_hand_find_default_job();
  job.report = g_report;
  job.report_cap = sizeof g_report;
  job.joint_count = s->n;
  job.names = s->names;
  job.parents = s->parents;
  job.side = side;
  return job;
}

static void test_hand_name_variants(void) {
  static const char *const pairs[][2] = {{"RightHand", "LeftHand"},
                                         {"mixamorig:RightHand", "mixamorig:LeftHand"},
                                         {"hand_r", "hand_l"},
                                         {"Hand_R", "Hand_L"},
                                         {"hand.R", "hand.L"},
                                         {"R_Hand", "L_Hand"},
                                         {"RHand", "LHand"},
                                         {"right_hand", "left_hand"},
                                         {"HAND_R", "HAND_L"},
                                         {"handR", "handL"},
                                         {"Bip01 R Hand", "Bip01 L Hand"},
                                         {"DEF-hand.R", "DEF-hand.L"}};
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; ++i) {
    small_skel s = {0};
    int root = add(&s, "Root", -1);
    int l = add(&s, pairs[i][1], root);
    add(&s, "LeftHandle", l); /* "handle" is not "hand" */
    int r = add(&s, pairs[i][0], root);
    add(&s, "RightHandThumb1", r); /* a finger, not a hand */
    lb_hand_find_job job = small_job(&s, LB_HAND_RIGHT);
    LB_CHECK(lb_hand_find_job_run(&job) == LB_OK);
    LB_CHECK(name_is(s.names, job.info.hand, pairs[i][0]));
    job.side = LB_HAND_LEFT;
    LB_CHECK(lb_hand_find_job_run(&job) == LB_OK);
    LB_CHECK(name_is(s.names, job.info.hand, pairs[i][1]));
  }
  /* An IK hand without fingers loses to the real hand, wherever it is. */
  small_skel s = {0};
  int root = add(&s, "root", -1);
  add(&s, "ik_hand_r", root);
  int h = add(&s, "hand_r", root);
  add(&s, "index_01_r", h);
  lb_hand_find_job job = small_job(&s, LB_HAND_RIGHT);
  LB_CHECK(lb_hand_find_job_run(&job) == LB_OK);
  LB_CHECK(name_is(s.names, job.info.hand, "hand_r"));
  job.side = LB_HAND_LEFT;
  LB_CHECK(lb_hand_find_job_run(&job) == LB_ERR_JOINT_NOT_FOUND);
  LB_CHECK(job.info.hand == -1);
  LB_CHECK(strstr(job.info.report, "left hand: no joint") != NULL);
}

/* A four-fingered hand, with the metacarpal rules, palm bones, end names and little. */
static void test_missing_finger_and_metacarpals(void) {
  small_skel s = {0};
  int root = add(&s, "Root", -1);
  int h = add(&s, "Hand_R", root);
  int t0 = add(&s, "Thumb_Metacarpal_R", h); /* a thumb joint, not a palm bone */
  int t1 = add(&s, "Thumb1_R", t0);
  int t2 = add(&s, "Thumb2_R", t1);
  add(&s, "Thumb3_R", t2);
  int i0 = add(&s, "Index0_R", h); /* rule (b): number 0 with Index below */
  int i1 = add(&s, "Index1_R", i0);
  int i2 = add(&s, "Index2_R", i1);
  int i3 = add(&s, "Index3_R", i2);
  add(&s, "Index4_R", i3); /* 4th joint: end */
  int palm = add(&s, "Palm_R", h);
  int m0 = add(&s, "MiddleMeta_R", palm); /* token "meta"; below an unnamed palm bone */
  int m1 = add(&s, "Middle1_R", m0);
  int m2 = add(&s, "Middle2_R", m1);
  add(&s, "Middle_Nub_R", m2);      /* leaf with an end token after 2 segments */
  int l1 = add(&s, "Little1_R", h); /* little = pinky; 3 segments, no end joint */
  int l2 = add(&s, "Little2_R", l1);
  add(&s, "Little3_R", l2);
  add(&s, "Ring0_R", h); /* number 0 but nothing named Ring below: a (1-joint) finger */
  lb_hand_find_job job = small_job(&s, LB_HAND_RIGHT);
  LB_CHECK(lb_hand_find_job_validate(&job) == LB_OK);
  LB_CHECK(lb_hand_find_job_run(&job) == LB_OK);
  const lb_hand_info *info = &job.info;
  LB_CHECK(info->hand == h);
  LB_CHECK(info->finger_count == 5);
  LB_CHECK(info->fingers[LB_FINGER_RING].segment_count == 1);
  LB_CHECK(info->fingers[LB_FINGER_RING].metacarpal == -1);
  LB_CHECK(name_is(s.names, info->fingers[LB_FINGER_RING].joints[0], "Ring0_R"));
  job.joint_count = --s.n; /* drop Ring0_R: four fingers */
  LB_CHECK(lb_hand_find_job_run(&job) == LB_OK);
  printf("4 fingers: %s\n", info->report);
  LB_CHECK(info->finger_count == 4);
  LB_CHECK(!info->fingers[LB_FINGER_RING].found);
  LB_CHECK(info->fingers[LB_FINGER_RING].segment_count == 0);
  LB_CHECK(strstr(info->report, "fingers: thumb index middle pinky; missing: ring") != NULL);
  const lb_finger_info *th = &info->fingers[LB_FINGER_THUMB];
  /* The thumb's metacarpal is its first joint; the 4th joint is the end. */
  LB_CHECK(th->metacarpal == -1 && th->joints[0] == t0 && th->joints[1] == t1 &&
           th->joints[2] == t2 && th->segment_count == 3 && name_is(s.names, th->tip, "Thumb3_R"));
  const lb_finger_info *ix = &info->fingers[LB_FINGER_INDEX];
  LB_CHECK(ix->metacarpal == i0 && ix->joints[0] == i1 && ix->joints[2] == i3);
  LB_CHECK(name_is(s.names, ix->tip, "Index4_R"));
  const lb_finger_info *mi = &info->fingers[LB_FINGER_MIDDLE];
  LB_CHECK(mi->metacarpal == m0 && mi->joints[0] == m1 && mi->joints[1] == m2);
  LB_CHECK(mi->segment_count == 2 && name_is(s.names, mi->tip, "Middle_Nub_R"));
  const lb_finger_info *pk = &info->fingers[LB_FINGER_PINKY];
  LB_CHECK(pk->metacarpal == -1 && pk->joints[0] == l1 && pk->segment_count == 3);

  /* Palm frame still works without the ring finger; index length without an end joint
   * estimates the last bone as LB_HAND_TIP_ESTIMATE times the one before it. */
  lb_transform model[32];
  for (uint32_t j = 0; j < s.n; ++j) {
    lb_transform_identity(&model[j]);
  }
  model[i1].t[2] = 1.0f;
  model[i2].t[2] = 2.0f;
  model[i3].t[2] = 4.0f;
  model[i3 + 1].t[2] = 7.0f;
  lb_palm_frame_job pj = lb_palm_frame_default_job();
  pj.hand = info;
  pj.model = model;
  pj.joint_count = s.n;
  /* All roots coincide with the hand except index: no across-palm direction. */
  LB_CHECK(lb_palm_frame_job_run(&pj) == LB_ERR_DEGENERATE);
  LB_CHECK_NEAR(pj.index_length, 6.0f, 1e-6);
  job.info.fingers[LB_FINGER_INDEX].tip = -1;
  LB_CHECK(lb_palm_frame_job_run(&pj) == LB_ERR_DEGENERATE);
  LB_CHECK_NEAR(pj.index_length, 3.0f + LB_HAND_TIP_ESTIMATE * 2.0f, 1e-6);
}

static void test_validate(void) {
  small_skel s = {0};
  add(&s, "Root", -1);
  add(&s, "A", 0);
  add(&s, "B", 0);
  add(&s, "A1", 1); /* parent before it but not depth-first */
  lb_hand_find_job job = small_job(&s, LB_HAND_RIGHT);
  LB_CHECK(lb_hand_find_job_validate(&job) == LB_ERR_INVALID_ARGUMENT);
  s.parents[3] = 3;
  LB_CHECK(lb_hand_find_job_validate(&job) == LB_ERR_CYCLE);
  s.parents[3] = 2;
  LB_CHECK(lb_hand_find_job_validate(&job) == LB_OK);
  LB_CHECK(lb_hand_find_job_run(&job) == LB_ERR_JOINT_NOT_FOUND);
  job.side = (lb_hand_side)2;
  LB_CHECK(lb_hand_find_job_validate(&job) == LB_ERR_INVALID_ARGUMENT);
  job.side = LB_HAND_LEFT;
  job.joint_count = 0;
  LB_CHECK(lb_hand_find_job_validate(&job) == LB_ERR_OUT_OF_RANGE);
  job.joint_count = s.n;
  s.names[1] = NULL;
  LB_CHECK(lb_hand_find_job_run(&job) == LB_ERR_INVALID_ARGUMENT);
  job.names = NULL;
  LB_CHECK(lb_hand_find_job_validate(&job) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_hand_find_job_validate(NULL) == LB_ERR_INVALID_ARGUMENT);

  lb_palm_frame_job pj = lb_palm_frame_default_job();
  LB_CHECK(lb_palm_frame_job_validate(&pj) == LB_ERR_INVALID_ARGUMENT);
  lb_hand_info info;
  memset(&info, 0, sizeof info);
  info.hand = 0;
  lb_transform model[1];
  lb_transform_identity(&model[0]);
  pj.hand = &info;
  pj.model = model;
  pj.joint_count = 1;
  LB_CHECK(lb_palm_frame_job_validate(&pj) == LB_OK);
  LB_CHECK(lb_palm_frame_job_run(&pj) == LB_ERR_DEGENERATE);
  info.fingers[1].found = true;
  info.fingers[1].segment_count = 1;
  info.fingers[1].joints[0] = 1; /* out of range */
  info.fingers[1].tip = -1;
  LB_CHECK(lb_palm_frame_job_validate(&pj) == LB_ERR_INVALID_ARGUMENT);
  info.fingers[1].joints[0] = 0;
  model[0].t[1] = NAN;
  LB_CHECK(lb_palm_frame_job_validate(&pj) == LB_ERR_NOT_FINITE);
}

static float angle_deg(const float *a, const float *b) {
  double d = (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2];
  double la = sqrt((double)a[0] * a[0] + (double)a[1] * a[1] + (double)a[2] * a[2]);
  double lb = sqrt((double)b[0] * b[0] + (double)b[1] * b[1] + (double)b[2] * b[2]);
  double c = d / (la * lb);
  c = c > 1.0 ? 1.0 : c < -1.0 ? -1.0 : c;
  return (float)(acos(c) * 180.0 / 3.14159265358979323846);
}

static float dot3(const float *a, const float *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

typedef struct palm_result {
  lb_palm_frame_job job;
  lb_hand_info info;
  vec3 index_tip;
} palm_result;

static void palm_of(const rig_fixture *fx, lb_hand_side side, palm_result *out) {
  lb_hand_find_job job = fixture_job(fx, side);
  char roots[5][16];
  if (strcmp(fx->names[0], "C_Pelvis") == 0) {
    map_digits(&job, roots);
  }
  LB_CHECK(lb_hand_find_job_run(&job) == LB_OK);
  out->info = job.info;
  uint32_t n = 0;
  const lb_transform *model = lb_rig_model_pose(fx->w, fx->e, &n);
  LB_CHECK(model != NULL && n == fx->count);
  out->job = lb_palm_frame_default_job();
  out->job.hand = &out->info;
  out->job.model = model;
  out->job.joint_count = n;
  out->job.parents = fx->parents;
  LB_CHECK(lb_palm_frame_job_run(&out->job) == LB_OK);
  memcpy(out->index_tip, model[out->info.fingers[LB_FINGER_INDEX].tip].t, sizeof(vec3));
}

static void test_palm_frame_tpose(void) {
  rig_fixture fx;
  fixture_init(&fx, LB_NAMING_MIXAMO);
  uint32_t n = 0;
  const lb_transform *model = lb_rig_model_pose(fx.w, fx.e, &n);
  for (int right = 0; right < 2; ++right) {
    palm_result pr;
    palm_of(&fx, right ? LB_HAND_RIGHT : LB_HAND_LEFT, &pr);
    const lb_palm_frame_job *pj = &pr.job;
    const float *h = model[pr.info.hand].t;
    const float *mid = model[pr.info.fingers[LB_FINGER_MIDDLE].joints[0]].t;
    for (int a = 0; a < 3; ++a) {
      LB_CHECK_NEAR(pj->frame.t[a], 0.5f * (h[a] + mid[a]), 1e-6);
    }
    /* +Z is exactly hand → middle root. The humanoid's middle root sits 0.008 m toward
     * the thumb (+Z world) over 0.097 m along the arm, so +Z is the outward arm axis
     * (-X world right, +X left) turned atan(0.008 / 0.097) = 4.715 deg toward the thumb. */
    vec3 hm = {mid[0] - h[0], mid[1] - h[1], mid[2] - h[2]};
    vec3 want_z = {right ? -1.0f : 1.0f, 0.0f, 0.0f};
    vec3 want_y = {0.0f, -1.0f, 0.0f}; /* palms down */
    vec3 want_x = {0.0f, 0.0f, right ? -1.0f : 1.0f};
    float tilt = (float)(atan(0.008 / 0.097) * 180.0 / 3.14159265358979323846);
    float ehm = angle_deg(pj->z_axis, hm);
    float ez = angle_deg(pj->z_axis, want_z), ey = angle_deg(pj->y_axis, want_y);
    float ex = angle_deg(pj->x_axis, want_x);
    printf("%s palm: origin (%.4f %.4f %.4f); z vs hand->middle %.2e deg, vs arm axis %.4f deg "
           "(expected %.4f); y vs -Y %.2e deg; x %.4f deg; index %.5f m\n",
           right ? "right" : "left", (double)pj->frame.t[0], (double)pj->frame.t[1],
           (double)pj->frame.t[2], (double)ehm, (double)ez, (double)tilt, (double)ey, (double)ex,
           (double)pj->index_length);
    LB_CHECK(ehm < 0.01f && ey < 0.01f);
    LB_CHECK_NEAR(ez, tilt, 0.01);
    LB_CHECK_NEAR(ex, tilt, 0.01);
    LB_CHECK(right ? pj->x_axis[2] < -0.99f : pj->x_axis[2] > 0.99f);
    /* The quaternion carries the same basis. */
    vec3 e[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    const float *axes[3] = {pj->x_axis, pj->y_axis, pj->z_axis};
    for (int a = 0; a < 3; ++a) {
      vec3 v;
      lb_quat_rotate(pj->frame.r, e[a], v);
      LB_CHECK(angle_deg(v, axes[a]) < 0.01f);
    }
    /* Thumb side: palm -X for the right hand, +X for the left (both thumbs forward). */
    const lb_finger_info *th = &pr.info.fingers[LB_FINGER_THUMB];
    int thumb_joints[2] = {th->joints[0], th->tip};
    for (int k = 0; k < 2; ++k) {
      vec3 d;
      for (int a = 0; a < 3; ++a) {
        d[a] = model[thumb_joints[k]].t[a] - pj->frame.t[a];
      }
      float x = dot3(d, pj->x_axis);
      LB_CHECK(right ? x < -0.005f : x > 0.005f);
      LB_CHECK(model[thumb_joints[k]].t[2] > 0.0f);
    }
    /* Fingers lie on +Z; the middle root sits on the +Z axis. */
    vec3 dm = {mid[0] - pj->frame.t[0], mid[1] - pj->frame.t[1], mid[2] - pj->frame.t[2]};
    LB_CHECK(dot3(dm, pj->z_axis) > 0.04f);
    LB_CHECK_NEAR(pj->index_length, 0.085f, 1e-5);
  }
  lb_world_destroy(fx.w);
}

/* The same model-space rest gives the same frame, whatever the names, metacarpals or bone
 * axes (Blender naming has non-identity joint rotations). */
static void test_palm_frame_across_conventions(void) {
  rig_fixture ref;
  fixture_init(&ref, LB_NAMING_MIXAMO);
  double worst = 0.0;
  for (int naming = 1; naming < 4; ++naming) {
    rig_fixture fx;
    fixture_init(&fx, (lb_humanoid_naming)naming);
    for (int right = 0; right < 2; ++right) {
      lb_hand_side side = right ? LB_HAND_RIGHT : LB_HAND_LEFT;
      palm_result a, b;
      palm_of(&ref, side, &a);
      palm_of(&fx, side, &b);
      const float *va[5] = {a.job.frame.t, a.job.x_axis, a.job.y_axis, a.job.z_axis, a.index_tip};
      const float *vb[5] = {b.job.frame.t, b.job.x_axis, b.job.y_axis, b.job.z_axis, b.index_tip};
      for (int v = 0; v < 5; ++v) {
        for (int c = 0; c < 3; ++c) {
          LB_CHECK_NEAR(va[v][c], vb[v][c], 1e-5);
          double d = fabs((double)va[v][c] - vb[v][c]);
          worst = d > worst ? d : worst;
        }
      }
      LB_CHECK_NEAR(a.job.index_length, b.job.index_length, 1e-5);
      LB_CHECK(fabsf(dot3(a.job.frame.r, b.job.frame.r)) > 1.0f - 1e-6f);
    }
    lb_world_destroy(fx.w);
  }
  printf("conventions: max frame/tip difference %.2e\n", worst);
  lb_world_destroy(ref.w);
}

/* Rotating the root 90 deg about +Y rotates the frame with it (about the hips). */
static void test_palm_frame_rotated_root(void) {
  for (int naming = 0; naming < 3; naming += 2) {
    rig_fixture fx;
    fixture_init(&fx, (lb_humanoid_naming)naming);
    palm_result before[2], after[2];
    palm_of(&fx, LB_HAND_RIGHT, &before[0]);
    palm_of(&fx, LB_HAND_LEFT, &before[1]);
    vec3 hips;
    uint32_t n = 0;
    memcpy(hips, lb_rig_model_pose(fx.w, fx.e, &n)[0].t, sizeof hips);
    const lb_transform *local = lb_rig_local_pose(fx.w, fx.e, &n);
    static lb_transform pose[MAXJ];
    memcpy(pose, local, n * sizeof *pose);
    versor q, r0;
    vec3 up = {0.0f, 1.0f, 0.0f};
    lb_quat_from_axis_angle(up, 0.5f * LB_PI, q);
    memcpy(r0, pose[0].r, sizeof r0);
    lb_quat_mul(q, r0, pose[0].r);
    LB_CHECK(lb_rig_set_animation_pose(fx.w, fx.e, pose, n) == LB_OK);
    LB_CHECK(lb_world_step(fx.w, 1.0f / 60.0f) == LB_OK);
    palm_of(&fx, LB_HAND_RIGHT, &after[0]);
    palm_of(&fx, LB_HAND_LEFT, &after[1]);
    for (int s = 0; s < 2; ++s) {
      const lb_palm_frame_job *b = &before[s].job, *a = &after[s].job;
      vec3 d, want;
      for (int c = 0; c < 3; ++c) {
        d[c] = b->frame.t[c] - hips[c];
      }
      lb_quat_rotate(q, d, want);
      for (int c = 0; c < 3; ++c) {
        LB_CHECK_NEAR(a->frame.t[c], want[c] + hips[c], 1e-5);
      }
      const float *ab[3] = {b->x_axis, b->y_axis, b->z_axis};
      const float *aa[3] = {a->x_axis, a->y_axis, a->z_axis};
      for (int k = 0; k < 3; ++k) {
        lb_quat_rotate(q, ab[k], want);
        LB_CHECK(angle_deg(aa[k], want) < 0.01f);
      }
      versor qr;
      lb_quat_mul(q, b->frame.r, qr);
      LB_CHECK(fabsf(dot3(qr, a->frame.r) + qr[3] * a->frame.r[3]) > 1.0f - 1e-6f);
    }
    /* After a quarter turn the right hand's fingers point +Z (it was -X). */
    LB_CHECK(angle_deg(after[0].job.z_axis, (vec3){0.0f, 0.0f, 1.0f}) < 4.72f);
    LB_CHECK(angle_deg(after[0].job.y_axis, (vec3){0.0f, -1.0f, 0.0f}) < 0.01f);
    lb_world_destroy(fx.w);
  }
}

/* Fallbacks: no middle finger → index root; no middle or index → centroid of the hand's
 * children (with parents) or of the finger roots (without). */
static void test_palm_frame_fallbacks(void) {
  rig_fixture fx;
  fixture_init(&fx, LB_NAMING_MIXAMO);
  palm_result pr;
  palm_of(&fx, LB_HAND_RIGHT, &pr);
  uint32_t n = 0;
  const lb_transform *model = lb_rig_model_pose(fx.w, fx.e, &n);
  const float *h = model[pr.info.hand].t;
  lb_hand_info info = pr.info;
  info.fingers[LB_FINGER_MIDDLE].found = false;
  pr.job.hand = &info;
  LB_CHECK(lb_palm_frame_job_run(&pr.job) == LB_OK);
  const float *ix = model[info.fingers[LB_FINGER_INDEX].joints[0]].t;
  for (int a = 0; a < 3; ++a) {
    LB_CHECK_NEAR(pr.job.frame.t[a], 0.5f * (h[a] + ix[a]), 1e-6);
  }
  LB_CHECK(angle_deg(pr.job.y_axis, (vec3){0.0f, -1.0f, 0.0f}) < 0.01f);
  info.fingers[LB_FINGER_INDEX].found = false;
  LB_CHECK(lb_palm_frame_job_run(&pr.job) == LB_OK); /* ring → pinky across the palm */
  vec3 c = {0.0f, 0.0f, 0.0f};
  for (int f = 0; f < 5; ++f) {
    for (int a = 0; a < 3; ++a) {
      c[a] += model[pr.info.fingers[f].joints[0]].t[a] / 5.0f;
    }
  }
  for (int a = 0; a < 3; ++a) {
    LB_CHECK_NEAR(pr.job.frame.t[a], 0.5f * (h[a] + c[a]), 1e-6);
  }
  pr.job.parents = NULL; /* thumb, ring, pinky roots only */
  LB_CHECK(lb_palm_frame_job_run(&pr.job) == LB_OK);
  LB_CHECK(pr.job.z_axis[0] < -0.9f);
  info.fingers[LB_FINGER_RING].found = false;
  info.fingers[LB_FINGER_PINKY].found = false;
  LB_CHECK(lb_palm_frame_job_run(&pr.job) == LB_ERR_DEGENERATE); /* thumb alone */
  LB_CHECK(pr.job.frame.t[0] == h[0] && pr.job.frame.r[3] == 1.0f);
  lb_world_destroy(fx.w);
}

int main(void) {
  LB_RUN(test_hand_name_variants);
  LB_RUN(test_conventions_find_hands_and_fingers);
  LB_RUN(test_explicit_mapping);
  LB_RUN(test_missing_finger_and_metacarpals);
  LB_RUN(test_validate);
  LB_RUN(test_palm_frame_tpose);
  LB_RUN(test_palm_frame_across_conventions);
  LB_RUN(test_palm_frame_rotated_root);
  LB_RUN(test_palm_frame_fallbacks);
  LB_TEST_MAIN_END();
}
