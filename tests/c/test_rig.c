/* Rig: the procedural humanoid (joints, names, paths, depth-first order, rest pose in model
 * space), skeleton validation and the host-supplied animation pose. */
#include "limber/limber.h"

#include <string.h>

#include "../../wasm/src/rig/rig_internal.h" /* subtree_end */
#include "test.h"

#define RIGHT_HAND_PATH "Hips/Spine/Spine1/Spine2/RightShoulder/RightArm/RightForeArm/RightHand"

static lb_world *new_world(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  return w;
}

/* A world with one humanoid rig entity, stepped once. */
static lb_entity rig_entity(lb_world *w, const lb_humanoid_def *def, uint32_t *asset) {
  lb_entity e = LB_NULL_ENTITY;
  LB_CHECK(lb_world_add_humanoid(w, def, asset) == LB_OK);
  LB_CHECK(lb_world_spawn(w, &e) == LB_OK);
  lb_rig_c rig = {*asset};
  LB_CHECK(lb_world_insert(w, e, LB_RIG, &rig) == LB_OK);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  return e;
}

static bool descends(const lb_world *w, uint32_t asset, int k, int j) {
  for (int p = k; p >= 0; p = lb_skeleton_joint_parent(w, asset, (uint32_t)p)) {
    if (p == j) {
      return true;
    }
  }
  return false;
}

/* Parents precede children; [j, subtree_end[j]) is exactly j's subtree. */
static void check_depth_first(const lb_world *w, uint32_t asset) {
  const lb_skeleton *s = lb_skeleton_get(w, asset);
  LB_CHECK(s != NULL);
  if (!s) {
    return;
  }
  int roots = 0;
  for (uint32_t j = 0; j < s->joint_count; ++j) {
    int p = lb_skeleton_joint_parent(w, asset, j);
    LB_CHECK(p < (int)j);
    roots += p < 0;
    LB_CHECK(s->subtree_end[j] > j && s->subtree_end[j] <= s->joint_count);
    for (uint32_t k = 0; k < s->joint_count; ++k) {
      bool inside = k >= j && k < s->subtree_end[j];
      if (inside != descends(w, asset, (int)k, (int)j)) {
        fprintf(stderr, "joint %u (%s): %u inside=%d\n", j, s->names[j], k, inside);
        LB_CHECK(0);
      }
    }
  }
  LB_CHECK(roots >= 1);
  LB_CHECK(s->subtree_end[0] == s->joint_count || roots > 1);
}

static void test_humanoid_joints(void) {
  lb_world *w = new_world();
  uint32_t asset = 0;
  LB_CHECK(lb_world_add_humanoid(w, NULL, &asset) == LB_OK);
  LB_CHECK(asset > 0);
  LB_CHECK(lb_skeleton_joint_count(w, asset) == 65);
  LB_CHECK(lb_skeleton_find_joint(w, asset, "Hips") == 0);
  LB_CHECK(lb_skeleton_joint_parent(w, asset, 0) == -1);

  int by_name = lb_skeleton_find_joint(w, asset, "RightHand");
  int by_path = lb_skeleton_find_joint(w, asset, RIGHT_HAND_PATH);
  LB_CHECK(by_name > 0 && by_name == by_path);
  LB_CHECK(strcmp(lb_skeleton_joint_name(w, asset, (uint32_t)by_name), "RightHand") == 0);
  int fore = lb_skeleton_joint_parent(w, asset, (uint32_t)by_name);
  LB_CHECK(fore >= 0 &&
           strcmp(lb_skeleton_joint_name(w, asset, (uint32_t)fore), "RightForeArm") == 0);
  int left = lb_skeleton_find_joint(w, asset, "LeftHand");
  LB_CHECK(left > 0 && left != by_name);
  LB_CHECK(lb_skeleton_find_joint(w, asset, "RightHandIndex3") > by_name);
  LB_CHECK(lb_skeleton_find_joint(w, asset, "Hips/Spine") == 1);
  LB_CHECK(lb_skeleton_find_joint(w, asset, "LeftToe_End") > 0);

  /* Wrong paths and names. */
  LB_CHECK(lb_skeleton_find_joint(w, asset, "Hips/Spine/RightHand") == -1);
  LB_CHECK(lb_skeleton_find_joint(
               w, asset, "Hips/Spine/Spine1/Spine2/RightShoulder/RightArm/RightForeArm/LeftHand") ==
           -1);
  LB_CHECK(lb_skeleton_find_joint(w, asset, "Spine/Spine1") == -1); /* paths start at a root */
  LB_CHECK(lb_skeleton_find_joint(w, asset, "/Hips") == -1);
  LB_CHECK(lb_skeleton_find_joint(w, asset, "Hips//Spine") == -1);
  LB_CHECK(lb_skeleton_find_joint(w, asset, "RightHan") == -1);
  LB_CHECK(lb_skeleton_find_joint(w, asset, "RightHandd") == -1);
  LB_CHECK(lb_skeleton_find_joint(w, asset, "righthand") == -1);
  LB_CHECK(lb_skeleton_find_joint(w, asset, "") == -1);
  LB_CHECK(lb_skeleton_find_joint(w, asset, NULL) == -1);
  LB_CHECK(lb_skeleton_find_joint(w, asset + 1, "Hips") == -1);
  LB_CHECK(lb_skeleton_find_joint(w, 0, "Hips") == -1);
  LB_CHECK(lb_skeleton_joint_count(w, asset + 1) == 0);
  LB_CHECK(lb_skeleton_joint_name(w, asset, 65) == NULL);
  LB_CHECK(lb_skeleton_joint_parent(w, asset, 65) == -1);

  /* Every joint's bare name and full path resolve to it. */
  for (uint32_t j = 0; j < 65; ++j) {
    const char *n = lb_skeleton_joint_name(w, asset, j);
    LB_CHECK(lb_skeleton_find_joint(w, asset, n) == (int)j);
    char path[1024] = "";
    int chain[64], depth = 0;
    for (int p = (int)j; p >= 0; p = lb_skeleton_joint_parent(w, asset, (uint32_t)p)) {
      chain[depth++] = p;
    }
    for (int d = depth - 1; d >= 0; --d) {
      strcat(path, lb_skeleton_joint_name(w, asset, (uint32_t)chain[d]));
      if (d) {
        strcat(path, "/");
      }
    }
    LB_CHECK(lb_skeleton_find_joint(w, asset, path) == (int)j);
  }
  check_depth_first(w, asset);

  /* Without fingers: 65 - 2 * 20. */
  lb_humanoid_def d = lb_humanoid_default_def();
  d.fingers = 0;
  uint32_t plain = 0;
  LB_CHECK(lb_world_add_humanoid(w, &d, &plain) == LB_OK);
  LB_CHECK(plain != asset && lb_skeleton_joint_count(w, plain) == 25);
  LB_CHECK(lb_skeleton_find_joint(w, plain, "RightHandIndex1") == -1);
  LB_CHECK(lb_skeleton_find_joint(w, plain, RIGHT_HAND_PATH) > 0);
  check_depth_first(w, plain);

  /* Bad builder input: an error and no asset. */
  const float heights[] = {0.3f, 0.1f, -1.0f, 3.01f, NAN, INFINITY};
  for (size_t i = 0; i < sizeof heights / sizeof heights[0]; ++i) {
    d = lb_humanoid_default_def();
    d.height = heights[i];
    uint32_t a = 0;
    LB_CHECK(lb_world_add_humanoid(w, &d, &a) == LB_ERR_OUT_OF_RANGE);
    LB_CHECK(a == 0);
  }
  d = lb_humanoid_default_def();
  d.naming = (lb_humanoid_naming)7;
  LB_CHECK(lb_world_add_humanoid(w, &d, &plain) != LB_OK);
  LB_CHECK(lb_skeleton_joint_count(w, 3) == 0); /* still two assets */
  lb_world_destroy(w);
}

/* Input not in depth-first order: the world reorders and keeps names, parents and rest. */
static void test_reorder(void) {
  lb_world *w = new_world();
  const char *names[] = {"Root", "A", "B", "A1", "B1", "A2", "A1x"};
  const int16_t parents[] = {-1, 0, 0, 1, 2, 1, 3};
  lb_transform rest[7];
  for (int i = 0; i < 7; ++i) {
    lb_transform_identity(&rest[i]);
    rest[i].t[0] = (float)(i + 1);
  }
  lb_skeleton_def def = lb_skeleton_default_def();
  def.joint_count = 7;
  def.names = names;
  def.parents = parents;
  def.rest = rest;
  uint32_t asset = 0;
  LB_CHECK(lb_world_add_skeleton(w, &def, &asset) == LB_OK);
  const char *order[] = {"Root", "A", "A1", "A1x", "A2", "B", "B1"};
  for (uint32_t j = 0; j < 7; ++j) {
    LB_CHECK(strcmp(lb_skeleton_joint_name(w, asset, j), order[j]) == 0);
  }
  const lb_skeleton *s = lb_skeleton_get(w, asset);
  const uint16_t ends[] = {7, 5, 4, 4, 5, 7, 7};
  for (uint32_t j = 0; j < 7; ++j) {
    LB_CHECK(s->subtree_end[j] == ends[j]);
    /* rest travelled with its joint: x was input index + 1 */
    int input = -1;
    for (int i = 0; i < 7; ++i) {
      input = strcmp(names[i], order[j]) == 0 ? i : input;
    }
    LB_CHECK(s->rest[j].t[0] == (float)(input + 1));
  }
  LB_CHECK(lb_skeleton_find_joint(w, asset, "Root/A/A1/A1x") == 3);
  LB_CHECK(lb_skeleton_find_joint(w, asset, "Root/B/B1") == 6);
  LB_CHECK(lb_skeleton_find_joint(w, asset, "Root/A/B1") == -1);
  check_depth_first(w, asset);
  /* the whole-pose walk order: by depth, then index (Root | A B | A1 A2 B1 | A1x) */
  const uint16_t by_depth[] = {0, 1, 5, 2, 4, 6, 3};
  for (uint32_t j = 0; j < 7; ++j) {
    LB_CHECK(s->by_depth[j] == by_depth[j]);
  }
  lb_world_destroy(w);
}

static void test_rest_model_pose(void) {
  lb_world *w = new_world();
  uint32_t asset = 0;
  lb_entity e = rig_entity(w, NULL, &asset);
  uint32_t n = 0;
  const lb_transform *m = lb_rig_model_pose(w, e, &n);
  LB_CHECK(m != NULL && n == 65);
  int rh = lb_skeleton_find_joint(w, asset, "RightHand");
  int lh = lb_skeleton_find_joint(w, asset, "LeftHand");
  int ra = lb_skeleton_find_joint(w, asset, "RightArm");
  int la = lb_skeleton_find_joint(w, asset, "LeftArm");
  int hips = lb_skeleton_find_joint(w, asset, "Hips");
  int head = lb_skeleton_find_joint(w, asset, "HeadTop_End");
  int toe = lb_skeleton_find_joint(w, asset, "RightToe_End");
  /* Character's right is -X, left +X; T-pose: hands at shoulder height, arms 0.53 m. */
  LB_CHECK(m[rh].t[0] < 0.0f && m[lh].t[0] > 0.0f);
  LB_CHECK_NEAR(m[rh].t[1], m[ra].t[1], 1e-6);
  LB_CHECK_NEAR(m[lh].t[1], m[la].t[1], 1e-6);
  LB_CHECK_NEAR(m[rh].t[0], -0.70, 1e-6);
  LB_CHECK_NEAR(m[rh].t[1], 1.44, 1e-6);
  LB_CHECK_NEAR(m[ra].t[0] - m[rh].t[0], 0.53, 1e-6);
  LB_CHECK_NEAR(m[hips].t[1], 0.98, 1e-6);
  LB_CHECK(m[head].t[1] > 1.7f && m[head].t[1] <= 1.8f);
  LB_CHECK(m[toe].t[1] >= 0.0f && m[toe].t[1] < 0.06f);
  LB_CHECK(m[toe].t[2] > 0.0f); /* facing +Z */
  /* Fingers of the right hand point along -X, thumb toward +Z. */
  int rm3 = lb_skeleton_find_joint(w, asset, "RightHandMiddle4");
  int rt4 = lb_skeleton_find_joint(w, asset, "RightHandThumb4");
  LB_CHECK(rm3 >= 0 && m[rm3].t[0] < m[rh].t[0]);
  LB_CHECK(rt4 >= 0 && m[rt4].t[2] > m[rh].t[2]);

  /* Mirror: every Left joint is its Right twin with x negated. */
  int pairs = 0;
  for (uint32_t j = 0; j < n; ++j) {
    const char *name = lb_skeleton_joint_name(w, asset, j);
    if (strncmp(name, "Left", 4) == 0) {
      char twin[LB_JOINT_NAME_MAX];
      snprintf(twin, sizeof twin, "Right%s", name + 4);
      int k = lb_skeleton_find_joint(w, asset, twin);
      LB_CHECK(k >= 0);
      if (k >= 0) {
        LB_CHECK_NEAR(m[j].t[0], -m[k].t[0], 0.0);
        LB_CHECK_NEAR(m[j].t[1], m[k].t[1], 0.0);
        LB_CHECK_NEAR(m[j].t[2], m[k].t[2], 0.0);
        pairs++;
      }
    }
  }
  LB_CHECK(pairs == 29);
  /* Identity rest rotations, unit scale; matrices carry the translation. */
  uint32_t mc = 0;
  const float *mats = lb_rig_model_matrices(w, e, &mc);
  LB_CHECK(mats && mc == n);
  for (uint32_t j = 0; j < n; ++j) {
    LB_CHECK(m[j].r[3] == 1.0f && m[j].s[0] == 1.0f);
    LB_CHECK(mats[16 * j + 12] == m[j].t[0] && mats[16 * j + 13] == m[j].t[1] &&
             mats[16 * j + 14] == m[j].t[2] && mats[16 * j + 15] == 1.0f);
    LB_CHECK(mats[16 * j + 0] == 1.0f && mats[16 * j + 5] == 1.0f && mats[16 * j + 10] == 1.0f);
  }

  /* Height scales every position. */
  lb_humanoid_def half = lb_humanoid_default_def();
  half.height = 0.9f;
  uint32_t small_asset = 0;
  lb_entity small = rig_entity(w, &half, &small_asset);
  const lb_transform *ms = lb_rig_model_pose(w, small, &n);
  m = lb_rig_model_pose(w, e, &n);
  for (uint32_t j = 0; j < n; ++j) {
    for (int i = 0; i < 3; ++i) {
      LB_CHECK_NEAR(ms[j].t[i], 0.5 * m[j].t[i], 1e-6);
    }
  }
  /* No Rig: null buffers. */
  lb_entity bare;
  LB_CHECK(lb_world_spawn(w, &bare) == LB_OK);
  LB_CHECK(lb_rig_model_pose(w, bare, &n) == NULL && n == 0);
  LB_CHECK(lb_rig_local_pose(w, bare, &n) == NULL && n == 0);
  LB_CHECK(lb_rig_model_matrices(w, bare, &n) == NULL && n == 0);
  lb_world_destroy(w);
}

/* ---- skeleton validation -------------------------------------------------------------- */
typedef struct skel {
  const char *names[4];
  int16_t parents[4];
  lb_transform rest[4];
  lb_skeleton_def def;
} skel;

static void skel_init(skel *s) {
  static const char *const n[4] = {"Root", "Upper", "Lower", "End"};
  for (int i = 0; i < 4; ++i) {
    s->names[i] = n[i];
    s->parents[i] = (int16_t)(i - 1);
    lb_transform_identity(&s->rest[i]);
    s->rest[i].t[1] = i ? 0.3f : 0.0f;
  }
  s->def = lb_skeleton_default_def();
  s->def.joint_count = 4;
  s->def.names = s->names;
  s->def.parents = s->parents;
  s->def.rest = s->rest;
}

/* Refused with `code`, no asset created, message contains `sub` (if any). */
static void expect_refused(lb_world *w, const skel *s, lb_result code, const char *sub) {
  uint32_t asset = 77;
  lb_result r = lb_world_add_skeleton(w, &s->def, &asset);
  if (r != code) {
    fprintf(stderr, "  got %s, want %s (%s)\n", lb_result_name(r), lb_result_name(code),
            lb_world_last_error(w));
  }
  LB_CHECK(r == code);
  LB_CHECK(asset == 77);
  LB_CHECK(lb_skeleton_joint_count(w, 1) == 0);
  if (sub && !strstr(lb_world_last_error(w), sub)) {
    fprintf(stderr, "  message \"%s\" lacks \"%s\"\n", lb_world_last_error(w), sub);
    LB_CHECK(0);
  }
}

static void test_skeleton_validation(void) {
  lb_world *w = new_world();
  skel s;
  skel_init(&s);
  s.names[2] = "Upper";
  expect_refused(w, &s, LB_ERR_INVALID_ARGUMENT, "'Upper'");
  skel_init(&s);
  s.parents[1] = 2; /* parent after child */
  expect_refused(w, &s, LB_ERR_INVALID_ARGUMENT, "'Upper'");
  skel_init(&s);
  s.parents[2] = 2; /* own parent */
  expect_refused(w, &s, LB_ERR_INVALID_ARGUMENT, "'Lower'");
  skel_init(&s);
  s.parents[3] = -2;
  expect_refused(w, &s, LB_ERR_INVALID_ARGUMENT, "'End'");
  skel_init(&s);
  s.rest[2].t[0] = NAN;
  expect_refused(w, &s, LB_ERR_NOT_FINITE, "'Lower'");
  skel_init(&s);
  s.rest[1].r[2] = INFINITY;
  expect_refused(w, &s, LB_ERR_NOT_FINITE, "'Upper'");
  skel_init(&s);
  s.rest[3].s[1] = -INFINITY;
  expect_refused(w, &s, LB_ERR_NOT_FINITE, "'End'");
  skel_init(&s);
  memset(s.rest[0].r, 0, sizeof(versor));
  expect_refused(w, &s, LB_ERR_OUT_OF_RANGE, "'Root'");
  skel_init(&s);
  s.names[1] = "Up/per";
  expect_refused(w, &s, LB_ERR_INVALID_ARGUMENT, "'/'");
  skel_init(&s);
  s.names[1] = "";
  expect_refused(w, &s, LB_ERR_INVALID_ARGUMENT, "joint 1");
  skel_init(&s);
  s.names[3] = NULL;
  expect_refused(w, &s, LB_ERR_INVALID_ARGUMENT, "joint 3");
  char long_name[LB_JOINT_NAME_MAX + 1];
  memset(long_name, 'j', LB_JOINT_NAME_MAX);
  long_name[LB_JOINT_NAME_MAX] = 0;
  skel_init(&s);
  s.names[2] = long_name;
  expect_refused(w, &s, LB_ERR_INVALID_ARGUMENT, "joint 2");
  long_name[LB_JOINT_NAME_MAX - 1] = 0; /* 63 bytes fits */
  skel_init(&s);
  s.def.joint_count = 0;
  expect_refused(w, &s, LB_ERR_OUT_OF_RANGE, "joint_count");
  s.def.joint_count = LB_MAX_JOINTS + 1u;
  expect_refused(w, &s, LB_ERR_OUT_OF_RANGE, "joint_count");
  skel_init(&s);
  s.def.parents = NULL;
  expect_refused(w, &s, LB_ERR_INVALID_ARGUMENT, NULL);
  skel_init(&s);
  LB_CHECK(lb_world_add_skeleton(w, NULL, NULL) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_world_add_skeleton(NULL, &s.def, NULL) == LB_ERR_INVALID_ARGUMENT);

  /* After all that, the first valid skeleton is asset 1; non-unit rest rotations are
   * normalised; a 63-byte name is accepted. */
  s.names[2] = long_name;
  s.rest[1].r[3] = 2.0f;
  uint32_t asset = 0;
  LB_CHECK(lb_world_add_skeleton(w, &s.def, &asset) == LB_OK);
  LB_CHECK(asset == 1 && lb_skeleton_joint_count(w, 1) == 4);
  LB_CHECK(lb_skeleton_find_joint(w, asset, long_name) == 2);
  LB_CHECK(lb_skeleton_get(w, asset)->rest[1].r[3] == 1.0f);
  /* Two roots are allowed; both subtrees stay contiguous. */
  skel_init(&s);
  s.parents[2] = -1;
  LB_CHECK(lb_world_add_skeleton(w, &s.def, &asset) == LB_OK && asset == 2);
  LB_CHECK(lb_skeleton_find_joint(w, asset, "Lower/End") == 3);
  check_depth_first(w, asset);
  lb_world_destroy(w);
}

/* ---- animation pose ------------------------------------------------------------------- */
static void test_animation_pose(void) {
  lb_world *w = new_world();
  uint32_t asset = 0;
  lb_entity e = rig_entity(w, NULL, &asset);
  uint32_t n = 0;
  const lb_transform *model = lb_rig_model_pose(w, e, &n);
  lb_transform rest_model[65], pose[65];
  memcpy(rest_model, model, sizeof rest_model);
  memcpy(pose, lb_rig_local_pose(w, e, &n), sizeof pose);
  int ra = lb_skeleton_find_joint(w, asset, "RightArm");
  int rh = lb_skeleton_find_joint(w, asset, "RightHand");
  int lh = lb_skeleton_find_joint(w, asset, "LeftHand");

  /* Refusals: wrong count, NaN, zero rotation, no Rig, stale entity. */
  LB_CHECK(lb_rig_set_animation_pose(w, e, pose, 64) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(strstr(lb_world_last_error(w), "64") != NULL);
  LB_CHECK(lb_rig_set_animation_pose(w, e, pose, 66) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_rig_set_animation_pose(w, e, NULL, 65) == LB_ERR_INVALID_ARGUMENT);
  lb_transform bad[65];
  memcpy(bad, pose, sizeof bad);
  lb_quat_identity(bad[ra].r);
  bad[ra].r[2] = 1.0f; /* a valid change that must not land */
  bad[rh].t[1] = NAN;
  LB_CHECK(lb_rig_set_animation_pose(w, e, bad, 65) == LB_ERR_NOT_FINITE);
  LB_CHECK(strstr(lb_world_last_error(w), "'RightHand'") != NULL);
  bad[rh].t[1] = pose[rh].t[1];
  bad[lh].s[0] = INFINITY;
  LB_CHECK(lb_rig_set_animation_pose(w, e, bad, 65) == LB_ERR_NOT_FINITE);
  LB_CHECK(strstr(lb_world_last_error(w), "'LeftHand'") != NULL);
  bad[lh].s[0] = 1.0f;
  memset(bad[lh].r, 0, sizeof(versor));
  LB_CHECK(lb_rig_set_animation_pose(w, e, bad, 65) == LB_ERR_OUT_OF_RANGE);
  LB_CHECK(strstr(lb_world_last_error(w), "'LeftHand'") != NULL);
  lb_entity bare, gone;
  LB_CHECK(lb_world_spawn(w, &bare) == LB_OK);
  LB_CHECK(lb_world_spawn(w, &gone) == LB_OK);
  LB_CHECK(lb_world_despawn(w, gone) == LB_OK);
  LB_CHECK(lb_rig_set_animation_pose(w, bare, pose, 65) == LB_ERR_MISSING_COMPONENT);
  LB_CHECK(lb_rig_set_animation_pose(w, gone, pose, 65) == LB_ERR_STALE_ENTITY);
  LB_CHECK(lb_rig_set_animation_pose(w, LB_NULL_ENTITY, pose, 65) == LB_ERR_STALE_ENTITY);
  LB_CHECK(lb_rig_set_animation_pose(NULL, e, pose, 65) == LB_ERR_INVALID_ARGUMENT);
  /* Nothing landed: the next step still gives the rest pose, bit for bit. */
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  model = lb_rig_model_pose(w, e, &n);
  LB_CHECK(lb_test_same_transforms(model, rest_model, sizeof rest_model / sizeof rest_model[0]));

  /* A valid pose (RightArm +90° about Z, unnormalised) is used from the next step on. */
  const vec3 az = {0.0f, 0.0f, 1.0f};
  lb_quat_from_axis_angle(az, 90.0f * LB_DEG2RAD, pose[ra].r);
  for (int i = 0; i < 4; ++i) {
    pose[ra].r[i] *= 3.0f;
  }
  LB_CHECK(lb_rig_set_animation_pose(w, e, pose, 65) == LB_OK);
  LB_CHECK(lb_test_same_transforms(lb_rig_model_pose(w, e, &n), rest_model,
                                   sizeof rest_model / sizeof rest_model[0]));
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  model = lb_rig_model_pose(w, e, &n);
  const lb_transform *local = lb_rig_local_pose(w, e, &n);
  double qn = 0.0;
  for (int i = 0; i < 4; ++i) {
    qn += (double)local[ra].r[i] * local[ra].r[i];
  }
  LB_CHECK_NEAR(qn, 1.0, 1e-6);
  /* Arm hangs: hand 0.53 m straight below the shoulder. */
  LB_CHECK_NEAR(model[rh].t[0], model[ra].t[0], 1e-6);
  LB_CHECK_NEAR(model[rh].t[1], 1.44 - 0.53, 1e-6);
  LB_CHECK_NEAR(model[rh].t[2], 0.0, 1e-6);
  LB_CHECK(lb_test_same_transforms(&model[lh], &rest_model[lh], 1)); /* untouched */
  /* No feedback: another step gives the same pose bit for bit. */
  lb_transform once[65];
  memcpy(once, model, sizeof once);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  LB_CHECK(
      lb_test_same_transforms(lb_rig_model_pose(w, e, &n), once, sizeof once / sizeof once[0]));
  lb_world_destroy(w);
}

int main(void) {
  LB_RUN(test_humanoid_joints);
  LB_RUN(test_reorder);
  LB_RUN(test_rest_model_pose);
  LB_RUN(test_skeleton_validation);
  LB_RUN(test_animation_pose);
  LB_TEST_MAIN_END();
}
