/* Skeletons (shared assets) and rig instances (per-entity pose buffers).
 *
 * Joints are stored in depth-first order, so a joint's subtree is the index range
 * [j, subtree_end[j]) and every parent precedes its children. Joint paths are
 * slash-separated names from the root joint: "Hips/Spine/Spine1/.../RightHand".
 * A lookup string without '/' matches a joint name anywhere in the skeleton.
 */
#ifndef LIMBER_RIG_H
#define LIMBER_RIG_H

#include "limber/base.h"
#include "limber/math.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LB_JOINT_NAME_MAX 64
#define LB_MAX_JOINTS 1024

typedef struct lb_world lb_world;

/* Where a joint's skinned mesh ends (lb_skeleton_def.mesh_ends): a point in the joint's own
 * local frame (in the units of a child's local translation, so it follows the joint like an
 * end joint would). A glTF import measures it from the skinned mesh in its bind pose: the
 * vertices weighted mostly to the joint (its weight >= 0.5), the axis from the joint through
 * their centroid, the point on that axis as far out as the farthest of them projects. */
typedef struct lb_joint_end {
  float point[3];
  uint32_t known; /* 0: no vertex is weighted mostly to the joint (point is 0) */
} lb_joint_end;

/* Input to lb_world_add_skeleton. Parents must precede children (parents[i] < i,
 * -1 for a root); the world reorders to depth-first order itself. */
typedef struct lb_skeleton_def {
  uint32_t joint_count;     /* 1 .. LB_MAX_JOINTS */
  const char *const *names; /* unique, non-empty, < LB_JOINT_NAME_MAX bytes, no '/' */
  const int16_t *parents;   /* -1 = root */
  const lb_transform *rest; /* local rest pose; finite, non-zero rotations */
  /* Optional (NULL = identity): the placement already included in the roots' rest poses,
   * e.g. the armature node above a glTF skeleton (axis change, centimetre scale). Kept only
   * to be read back (lb_skeleton_root_parent) by adapters that pose the root bone in the
   * file's own space. Finite, scale > 0. */
  const lb_transform *root_parent;
  /* Optional (NULL / 0 = none): the skin's joints in skin order, as indices into this def's
   * joints (each at most once). Skin joint i is what a renderer's skeleton calls bone i (a
   * glTF skin's joints[i], three.js SkinnedMesh.skeleton.bones[i]), so adapters can pair
   * bones and joints that have no names (lb_skeleton_skin_joints). */
  const uint16_t *skin_joints;
  uint32_t skin_joint_count; /* 0 .. joint_count */
  /* Optional (NULL = none): joint_count entries, where each joint's skinned mesh ends. A
   * grip hand uses them for a finger without an end joint (limber/grip.h). Finite points. */
  const lb_joint_end *mesh_ends;
} lb_skeleton_def;

lb_skeleton_def lb_skeleton_default_def(void);

/* Validates and copies the skeleton; *out_asset receives a handle (> 0). */
lb_result lb_world_add_skeleton(lb_world *world, const lb_skeleton_def *def, uint32_t *out_asset);

/* Read access to a skeleton asset (depth-first order). */
uint32_t lb_skeleton_joint_count(const lb_world *world, uint32_t asset);
const char *lb_skeleton_joint_name(const lb_world *world, uint32_t asset, uint32_t joint);
int lb_skeleton_joint_parent(const lb_world *world, uint32_t asset, uint32_t joint);
/* The def's root_parent (identity when none was given); LB_ERR_INVALID_ARGUMENT for a null
 * argument or an unknown asset. */
lb_result lb_skeleton_root_parent(const lb_world *world, uint32_t asset, lb_transform *out);
/* The def's skin joints in skin order as joint indices (depth-first, as the asset stores
 * them), *count entries; NULL and *count = 0 when the skeleton has no skin or the asset is
 * unknown. `count` may be null. */
const uint16_t *lb_skeleton_skin_joints(const lb_world *world, uint32_t asset, uint32_t *count);
/* Where joint `joint`'s skinned mesh ends (lb_joint_end; known = 0 when the def gave none).
 * LB_ERR_INVALID_ARGUMENT for a null out, an unknown asset or a joint out of range. */
lb_result lb_skeleton_joint_end(const lb_world *world, uint32_t asset, uint32_t joint,
                                lb_joint_end *out);
/* Joint index for a path or bare name, or -1. */
int lb_skeleton_find_joint(const lb_world *world, uint32_t asset, const char *path);

/* ---- procedural humanoid test rig ---------------------------------------- */
typedef enum lb_humanoid_naming {
  LB_NAMING_MIXAMO = 0, /* Hips, LeftArm, RightHandIndex1 ... */
  /* pelvis, upperarm_l, hand_r, thumb_01_r .. thumb_end_r; index/middle/ring/pinky
   * have a palm bone first: hand_r/index_metacarpal_r/index_01_r .. index_end_r. */
  LB_NAMING_UNREAL = 1,
  /* hips, upper_arm.L, hand.R, thumb.01.R .. thumb.03.R_end, f_index.01.R ..; joint
   * frames have local +Y along the bone (non-identity rest rotations). */
  LB_NAMING_BLENDER = 2,
  /* C_Pelvis, L_UpperArm, R_Hand, R_Digit0_1 .. R_Digit0_End (digit 0 = thumb .. 4 =
   * pinky): fingers are not named by finger, so they need an explicit mapping. */
  LB_NAMING_DIGITS = 3,
} lb_humanoid_naming;

typedef struct lb_humanoid_def {
  float height;              /* metres, (0.3, 3]; default 1.8 */
  lb_humanoid_naming naming; /* default Mixamo */
  int fingers;               /* 1 = five fingers of three joints plus ends (default) */
} lb_humanoid_def;

lb_humanoid_def lb_humanoid_default_def(void);
/* Builds the humanoid skeleton (T-pose, facing +Z, Y up, left = +X) and adds it. */
lb_result lb_world_add_humanoid(lb_world *world, const lb_humanoid_def *def, uint32_t *out_asset);

/* ---- rig instances --------------------------------------------------------- */
/* Limits of a host-supplied pose (the same as Transform's fields): translations within
 * +-LB_POSE_TRANSLATION_MAX metres, scales, per joint and multiplied along the parents
 * (model space), within [LB_POSE_SCALE_MIN, LB_POSE_SCALE_MAX], so nothing downstream
 * overflows the float range. */
#define LB_POSE_TRANSLATION_MAX 1e6f
#define LB_POSE_SCALE_MIN 1e-6f
#define LB_POSE_SCALE_MAX 1e4f
/* Host-supplied animation (external mode): the local pose each step starts from.
 * `count` must equal the joint count; values are validated (finite, non-zero
 * rotations, the limits above). Until set, the rest pose is used. */
lb_result lb_rig_set_animation_pose(lb_world *world, lb_entity e, const lb_transform *local,
                                    uint32_t count);
/* Pose buffers of the last step (depth-first joint order); null if no Rig. */
const lb_transform *lb_rig_local_pose(const lb_world *world, lb_entity e, uint32_t *count);
const lb_transform *lb_rig_model_pose(const lb_world *world, lb_entity e, uint32_t *count);
/* Model-space matrices (column-major mat4 per joint), written in the Output phase. */
const float *lb_rig_model_matrices(const lb_world *world, lb_entity e, uint32_t *count);

#ifdef __cplusplus
}
#endif
#endif
