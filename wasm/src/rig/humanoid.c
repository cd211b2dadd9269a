/* Procedural humanoid test rig: 65 joints with full fingers, Mixamo-style names.
 * T-pose facing +Z, Y up, the character's left = +X, palms down, metres. Joint
 * frames are aligned with the model axes (identity rest rotations). */
#include "limber/rig.h"
#include <stdio.h>
#include <string.h>

lb_humanoid_def lb_humanoid_default_def(void) {
  lb_humanoid_def d;
  memset(&d, 0, sizeof d);
  d.height = 1.8f;
  d.naming = LB_NAMING_MIXAMO;
  d.fingers = 1;
  return d;
}

#define LB_HUMANOID_MAX 80

typedef struct lb_humanoid_build {
  uint32_t count;
  char names[LB_HUMANOID_MAX][LB_JOINT_NAME_MAX];
  const char *name_ptrs[LB_HUMANOID_MAX];
  int16_t parents[LB_HUMANOID_MAX];
  lb_transform rest[LB_HUMANOID_MAX];
} lb_humanoid_build;

static int16_t lb_add(lb_humanoid_build *b, const char *name, int16_t parent, float x, float y,
                      float z, float k) {
  uint32_t i = b->count++;
  snprintf(b->names[i], LB_JOINT_NAME_MAX, "%s", name);
  b->name_ptrs[i] = b->names[i];
  b->parents[i] = parent;
  lb_transform_identity(&b->rest[i]);
  b->rest[i].t[0] = x * k;
  b->rest[i].t[1] = y * k;
  b->rest[i].t[2] = z * k;
  return (int16_t)i;
}

/* Finger offsets (x along the arm, z toward the thumb side), in metres at 1.8 m. */
static const struct {
  const char *name;
  float root[3];
  float len[3];
} lb_fingers[5] = {
    {"Thumb", {0.025f, -0.012f, 0.030f}, {0.032f, 0.030f, 0.024f}},
    {"Index", {0.095f, 0.0f, 0.030f}, {0.040f, 0.025f, 0.020f}},
    {"Middle", {0.097f, 0.0f, 0.008f}, {0.043f, 0.028f, 0.022f}},
    {"Ring", {0.092f, 0.0f, -0.014f}, {0.040f, 0.026f, 0.020f}},
    {"Pinky", {0.084f, 0.0f, -0.034f}, {0.030f, 0.020f, 0.018f}},
};

static void lb_add_arm(lb_humanoid_build *b, int16_t chest, const char *side, float sx, float k,
                       int fingers) {
  char n[LB_JOINT_NAME_MAX];
  snprintf(n, sizeof n, "%sShoulder", side);
  int16_t sh = lb_add(b, n, chest, sx * 0.06f, 0.12f, 0.0f, k);
  snprintf(n, sizeof n, "%sArm", side);
  int16_t arm = lb_add(b, n, sh, sx * 0.11f, 0.0f, 0.0f, k);
  snprintf(n, sizeof n, "%sForeArm", side);
  int16_t fore = lb_add(b, n, arm, sx * 0.28f, 0.0f, 0.0f, k);
  snprintf(n, sizeof n, "%sHand", side);
  int16_t hand = lb_add(b, n, fore, sx * 0.25f, 0.0f, 0.0f, k);
  if (!fingers) {
    return;
  }
  for (int f = 0; f < 5; ++f) {
    int16_t parent = hand;
    const float *r = lb_fingers[f].root;
    snprintf(n, sizeof n, "%sHand%s1", side, lb_fingers[f].name);
    parent = lb_add(b, n, parent, sx * r[0], r[1], r[2], k);
    for (int s = 0; s < 3; ++s) {
      /* The thumb points forward-out; other fingers along the arm. */
      float l = lb_fingers[f].len[s];
      float x = f == 0 ? sx * l * 0.7f : sx * l;
      float z = f == 0 ? l * 0.7f : 0.0f;
      snprintf(n, sizeof n, "%sHand%s%d", side, lb_fingers[f].name, s + 2);
      parent = lb_add(b, n, parent, x, 0.0f, z, k);
    }
  }
}

static void lb_add_leg(lb_humanoid_build *b, int16_t hips, const char *side, float sx, float k) {
  char n[LB_JOINT_NAME_MAX];
  snprintf(n, sizeof n, "%sUpLeg", side);
  int16_t up = lb_add(b, n, hips, sx * 0.09f, -0.06f, 0.0f, k);
  snprintf(n, sizeof n, "%sLeg", side);
  int16_t leg = lb_add(b, n, up, 0.0f, -0.42f, 0.0f, k);
  snprintf(n, sizeof n, "%sFoot", side);
  int16_t foot = lb_add(b, n, leg, 0.0f, -0.40f, 0.0f, k);
  snprintf(n, sizeof n, "%sToeBase", side);
  int16_t toe = lb_add(b, n, foot, 0.0f, -0.06f, 0.12f, k);
  snprintf(n, sizeof n, "%sToe_End", side);
  lb_add(b, n, toe, 0.0f, 0.0f, 0.07f, k);
}

lb_result lb_world_add_humanoid(lb_world *world, const lb_humanoid_def *def, uint32_t *out_asset) {
  lb_humanoid_def d = def ? *def : lb_humanoid_default_def();
  if (!lb_is_finite(d.height) || d.height <= 0.3f || d.height > 3.0f) {
    return LB_ERR_OUT_OF_RANGE;
  }
  if (d.naming != LB_NAMING_MIXAMO) {
    return LB_ERR_UNKNOWN_NAME;
  }
  lb_humanoid_build b; /* ~10 KiB scratch; the world copies it */
  memset(&b, 0, sizeof b);
  float k = d.height / 1.8f;
  int16_t hips = lb_add(&b, "Hips", -1, 0.0f, 0.98f, 0.0f, k);
  int16_t spine = lb_add(&b, "Spine", hips, 0.0f, 0.10f, 0.0f, k);
  int16_t spine1 = lb_add(&b, "Spine1", spine, 0.0f, 0.12f, 0.0f, k);
  int16_t spine2 = lb_add(&b, "Spine2", spine1, 0.0f, 0.12f, 0.0f, k);
  int16_t neck = lb_add(&b, "Neck", spine2, 0.0f, 0.16f, 0.0f, k);
  int16_t head = lb_add(&b, "Head", neck, 0.0f, 0.10f, 0.0f, k);
  lb_add(&b, "HeadTop_End", head, 0.0f, 0.18f, 0.0f, k);
  lb_add_arm(&b, spine2, "Left", 1.0f, k, d.fingers);
  lb_add_arm(&b, spine2, "Right", -1.0f, k, d.fingers);
  lb_add_leg(&b, hips, "Left", 1.0f, k);
  lb_add_leg(&b, hips, "Right", -1.0f, k);
  lb_skeleton_def sd = lb_skeleton_default_def();
  sd.joint_count = b.count;
  sd.names = b.name_ptrs;
  sd.parents = b.parents;
  sd.rest = b.rest;
  return lb_world_add_skeleton(world, &sd, out_asset);
}
