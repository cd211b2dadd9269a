/* Procedural humanoid test rig: 65 joints with full fingers (73 for Unreal naming,
 * which adds four metacarpals per hand). T-pose facing +Z, Y up, the character's
 * left = +X, palms down, metres. Joint frames are aligned with the model axes
 * (identity rest rotations), except Blender naming (local +Y along each bone).
 * Model-space rest positions are the same for every naming convention. */
#include "../base/format.h"
#include "limber/rig.h"
#include <string.h>

lb_humanoid_def lb_humanoid_default_def(void) {
  lb_humanoid_def d;
  memset(&d, 0, sizeof d);
  d.height = 1.8f;
  d.naming = LB_NAMING_MIXAMO;
  d.fingers = 1;
  return d;
}

#define LB_HUMANOID_MAX 80 /* >= 73 */

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
  lb_snprintf(b->names[i], LB_JOINT_NAME_MAX, "%s", name);
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

/* Joint names per convention. Sides: 0 = left, 1 = right. */
static const char *const lb_side_mixamo[2] = {"Left", "Right"};
static const char *const lb_finger_lower[5] = {"thumb", "index", "middle", "ring", "pinky"};

enum {
  LB_PART_SHOULDER,
  LB_PART_ARM,
  LB_PART_FOREARM,
  LB_PART_HAND,
  LB_PART_UPLEG,
  LB_PART_LEG,
  LB_PART_FOOT,
  LB_PART_TOE,
  LB_PART_TOE_END
};

static void lb_part_name(char *n, lb_humanoid_naming naming, int right, int part) {
  static const char *const mixamo[] = {"Shoulder", "Arm",  "ForeArm", "Hand",   "UpLeg",
                                       "Leg",      "Foot", "ToeBase", "Toe_End"};
  static const char *const unreal[] = {"clavicle", "upperarm", "lowerarm", "hand",    "thigh",
                                       "calf",     "foot",     "ball",     "ball_end"};
  static const char *const blender[] = {"shoulder", "upper_arm", "forearm", "hand",   "thigh",
                                        "shin",     "foot",      "toe",     "toe_end"};
  static const char *const digits[] = {"Clavicle", "UpperArm", "Forearm", "Hand",   "Thigh",
                                       "Calf",     "Foot",     "Toe",     "Toe_End"};
  switch (naming) {
  case LB_NAMING_UNREAL:
    lb_snprintf(n, LB_JOINT_NAME_MAX, "%s_%s", unreal[part], right ? "r" : "l");
    break;
  case LB_NAMING_BLENDER:
    lb_snprintf(n, LB_JOINT_NAME_MAX, "%s.%s", blender[part], right ? "R" : "L");
    break;
  case LB_NAMING_DIGITS:
    lb_snprintf(n, LB_JOINT_NAME_MAX, "%s_%s", right ? "R" : "L", digits[part]);
    break;
  default:
    lb_snprintf(n, LB_JOINT_NAME_MAX, "%s%s", lb_side_mixamo[right], mixamo[part]);
    break;
  }
}

/* Finger joint names; seg 0..2 are segments, 3 is the end joint, -1 the metacarpal. */
static void lb_finger_joint_name(char *n, lb_humanoid_naming naming, int right, int f, int seg) {
  const char *fl = lb_finger_lower[f];
  const char *r = right ? "r" : "l";
  const char *R = right ? "R" : "L";
  switch (naming) {
  case LB_NAMING_UNREAL:
    if (seg < 0) {
      lb_snprintf(n, LB_JOINT_NAME_MAX, "%s_metacarpal_%s", fl, r);
    } else if (seg == 3) {
      lb_snprintf(n, LB_JOINT_NAME_MAX, "%s_end_%s", fl, r);
    } else {
      lb_snprintf(n, LB_JOINT_NAME_MAX, "%s_0%d_%s", fl, seg + 1, r);
    }
    break;
  case LB_NAMING_BLENDER:
    if (seg == 3) {
      lb_snprintf(n, LB_JOINT_NAME_MAX, "%s%s.03.%s_end", f == 0 ? "" : "f_", fl, R);
    } else {
      lb_snprintf(n, LB_JOINT_NAME_MAX, "%s%s.0%d.%s", f == 0 ? "" : "f_", fl, seg + 1, R);
    }
    break;
  case LB_NAMING_DIGITS:
    if (seg == 3) {
      lb_snprintf(n, LB_JOINT_NAME_MAX, "%s_Digit%d_End", R, f);
    } else {
      lb_snprintf(n, LB_JOINT_NAME_MAX, "%s_Digit%d_%d", R, f, seg + 1);
    }
    break;
  default:
    lb_snprintf(n, LB_JOINT_NAME_MAX, "%sHand%s%d", lb_side_mixamo[right], lb_fingers[f].name,
                seg + 1);
    break;
  }
}

static void lb_add_arm(lb_humanoid_build *b, int16_t chest, lb_humanoid_naming naming, int right,
                       float k, int fingers) {
  char n[LB_JOINT_NAME_MAX];
  float sx = right ? -1.0f : 1.0f;
  lb_part_name(n, naming, right, LB_PART_SHOULDER);
  int16_t sh = lb_add(b, n, chest, sx * 0.06f, 0.12f, 0.0f, k);
  lb_part_name(n, naming, right, LB_PART_ARM);
  int16_t arm = lb_add(b, n, sh, sx * 0.11f, 0.0f, 0.0f, k);
  lb_part_name(n, naming, right, LB_PART_FOREARM);
  int16_t fore = lb_add(b, n, arm, sx * 0.28f, 0.0f, 0.0f, k);
  lb_part_name(n, naming, right, LB_PART_HAND);
  int16_t hand = lb_add(b, n, fore, sx * 0.25f, 0.0f, 0.0f, k);
  if (!fingers) {
    return;
  }
  for (int f = 0; f < 5; ++f) {
    int16_t parent = hand;
    const float *r = lb_fingers[f].root;
    float off[3] = {r[0], r[1], r[2]};
    if (naming == LB_NAMING_UNREAL && f > 0) {
      /* Palm bone from near the wrist; the finger root keeps its model position. */
      float m[3] = {0.02f, r[1], r[2] * 0.5f};
      lb_finger_joint_name(n, naming, right, f, -1);
      parent = lb_add(b, n, parent, sx * m[0], m[1], m[2], k);
      off[0] -= m[0];
      off[1] -= m[1];
      off[2] -= m[2];
    }
    lb_finger_joint_name(n, naming, right, f, 0);
    parent = lb_add(b, n, parent, sx * off[0], off[1], off[2], k);
    for (int s = 0; s < 3; ++s) {
      /* The thumb points forward-out; other fingers along the arm. */
      float l = lb_fingers[f].len[s];
      float x = f == 0 ? sx * l * 0.7f : sx * l;
      float z = f == 0 ? l * 0.7f : 0.0f;
      lb_finger_joint_name(n, naming, right, f, s + 1);
      parent = lb_add(b, n, parent, x, 0.0f, z, k);
    }
  }
}

static void lb_add_leg(lb_humanoid_build *b, int16_t hips, lb_humanoid_naming naming, int right,
                       float k) {
  char n[LB_JOINT_NAME_MAX];
  float sx = right ? -1.0f : 1.0f;
  lb_part_name(n, naming, right, LB_PART_UPLEG);
  int16_t up = lb_add(b, n, hips, sx * 0.09f, -0.06f, 0.0f, k);
  lb_part_name(n, naming, right, LB_PART_LEG);
  int16_t leg = lb_add(b, n, up, 0.0f, -0.42f, 0.0f, k);
  lb_part_name(n, naming, right, LB_PART_FOOT);
  int16_t foot = lb_add(b, n, leg, 0.0f, -0.40f, 0.0f, k);
  lb_part_name(n, naming, right, LB_PART_TOE);
  int16_t toe = lb_add(b, n, foot, 0.0f, -0.06f, 0.12f, k);
  lb_part_name(n, naming, right, LB_PART_TOE_END);
  lb_add(b, n, toe, 0.0f, 0.0f, 0.07f, k);
}

/* Re-expresses the identity-rotation rest pose with each joint's local +Y along its
 * bone (toward its first child; leaves keep the parent's frame). Model-space rest
 * positions stay the same up to float rounding. */
static void lb_bone_axes_y(lb_humanoid_build *b) {
  vec3 pos[LB_HUMANOID_MAX];
  versor rot[LB_HUMANOID_MAX];
  for (uint32_t i = 0; i < b->count; ++i) {
    int p = b->parents[i];
    for (int a = 0; a < 3; ++a) {
      pos[i][a] = (p >= 0 ? pos[p][a] : 0.0f) + b->rest[i].t[a];
    }
  }
  for (uint32_t i = 0; i < b->count; ++i) {
    int p = b->parents[i];
    int child = -1;
    for (uint32_t c = i + 1; c < b->count; ++c) {
      if (b->parents[c] == (int16_t)i) {
        child = (int)c;
        break;
      }
    }
    if (child >= 0) {
      vec3 d = {pos[child][0] - pos[i][0], pos[child][1] - pos[i][1], pos[child][2] - pos[i][2]};
      vec3 u;
      vec3 y = {0.0f, 1.0f, 0.0f};
      lb_vec3_normalize_to(d, u);
      lb_quat_from_to(y, u, rot[i]);
    } else if (p >= 0) {
      memcpy(rot[i], rot[p], sizeof(versor));
    } else {
      lb_quat_identity(rot[i]);
    }
    if (p >= 0) {
      versor inv;
      vec3 d = {pos[i][0] - pos[p][0], pos[i][1] - pos[p][1], pos[i][2] - pos[p][2]};
      lb_quat_conj(rot[p], inv);
      lb_quat_mul(inv, rot[i], b->rest[i].r);
      lb_quat_normalize(b->rest[i].r);
      lb_quat_rotate(inv, d, b->rest[i].t);
    } else {
      memcpy(b->rest[i].r, rot[i], sizeof(versor));
    }
  }
}

lb_result lb_world_add_humanoid(lb_world *world, const lb_humanoid_def *def, uint32_t *out_asset) {
  lb_humanoid_def d = def ? *def : lb_humanoid_default_def();
  if (!lb_is_finite(d.height) || d.height <= 0.3f || d.height > 3.0f) {
    return LB_ERR_OUT_OF_RANGE;
  }
  if (d.naming != LB_NAMING_MIXAMO && d.naming != LB_NAMING_UNREAL &&
      d.naming != LB_NAMING_BLENDER && d.naming != LB_NAMING_DIGITS) {
    return LB_ERR_UNKNOWN_NAME;
  }
  lb_humanoid_build b; /* ~10 KiB scratch; the world copies it */
  memset(&b, 0, sizeof b);
  float k = d.height / 1.8f;
  static const char *const body[4][7] = {
      {"Hips", "Spine", "Spine1", "Spine2", "Neck", "Head", "HeadTop_End"},
      {"pelvis", "spine_01", "spine_02", "spine_03", "neck_01", "head", "head_end"},
      {"hips", "spine", "spine.001", "chest", "neck", "head", "head_end"},
      {"C_Pelvis", "C_Spine_1", "C_Spine_2", "C_Spine_3", "C_Neck", "C_Head", "C_Head_End"}};
  const char *const *bn = body[d.naming];
  int16_t hips = lb_add(&b, bn[0], -1, 0.0f, 0.98f, 0.0f, k);
  int16_t spine = lb_add(&b, bn[1], hips, 0.0f, 0.10f, 0.0f, k);
  int16_t spine1 = lb_add(&b, bn[2], spine, 0.0f, 0.12f, 0.0f, k);
  int16_t spine2 = lb_add(&b, bn[3], spine1, 0.0f, 0.12f, 0.0f, k);
  int16_t neck = lb_add(&b, bn[4], spine2, 0.0f, 0.16f, 0.0f, k);
  int16_t head = lb_add(&b, bn[5], neck, 0.0f, 0.10f, 0.0f, k);
  lb_add(&b, bn[6], head, 0.0f, 0.18f, 0.0f, k);
  lb_add_arm(&b, spine2, d.naming, 0, k, d.fingers);
  lb_add_arm(&b, spine2, d.naming, 1, k, d.fingers);
  lb_add_leg(&b, hips, d.naming, 0, k);
  lb_add_leg(&b, hips, d.naming, 1, k);
  if (d.naming == LB_NAMING_BLENDER) {
    lb_bone_axes_y(&b);
  }
  lb_skeleton_def sd = lb_skeleton_default_def();
  sd.joint_count = b.count;
  sd.names = b.name_ptrs;
  sd.parents = b.parents;
  sd.rest = b.rest;
  return lb_world_add_skeleton(world, &sd, out_asset);
}
