/* The rig module's data, shared with the modules that pose rigs (anim, ik, grip). */
#ifndef LIMBER_RIG_INTERNAL_H
#define LIMBER_RIG_INTERNAL_H

#include "../modules.h"
#include "../world/world_core.h"
#include "limber/rig.h"

typedef struct lb_skeleton {
  uint32_t joint_count;
  char (*names)[LB_JOINT_NAME_MAX];
  int16_t *parents;
  uint16_t *subtree_end;
  /* Every joint, shallowest first (parents before children; siblings and cousins side by
   * side), for the whole-pose local->model: consecutive joints then seldom wait on each other,
   * so the CPU overlaps their work (-11% on anim.stage.model natively). Null: depth-first. */
  uint16_t *by_depth;
  lb_transform *rest;
  lb_transform root_parent; /* lb_skeleton_def.root_parent, identity if none */
  uint16_t *skin_joints;    /* lb_skeleton_def.skin_joints remapped to depth-first; or null */
  uint32_t skin_joint_count;
  lb_joint_end *mesh_ends; /* lb_skeleton_def.mesh_ends in depth-first order, or null */
} lb_skeleton;

/* The Rig component's private state: pose buffers, allocated on insert, reused every step. */
typedef struct lb_rig_instance {
  uint32_t asset;
  uint32_t joint_count;
  bool has_anim;
  /* An Animator wrote the whole local pose in the last Animate phase and will again: the
   * start pose copy (anim -> local) is skipped; the anim module clears it whenever it does
   * not animate the rig (and then copies itself) or the Animator goes away. */
  bool driven;
  lb_transform *anim;  /* host-supplied animation pose (external mode) */
  lb_transform *local; /* working local pose of this step */
  lb_transform *model; /* model space (rig root space) */
  mat4 *matrices;      /* lb_rig_pose_update, then lb_rig_write_late (Output) */
  /* Joints [edited_first, edited_end) whose model transforms changed since the matrices were
   * written (empty when edited_first >= edited_end): lb_rig_local_to_model marks what it
   * writes, lb_rig_mark_edited what a module writes into `model` itself. */
  uint32_t edited_first, edited_end;
  /* Joints whose matrices lb_rig_pose_update leaves to the Output phase: the ones edited after
   * it last step (a steady IK or grip edits the same joints each step; written early, their
   * matrices would be written twice). */
  uint32_t late_first, late_end;
  /* lb_rig_pose_final took this step's local pose to model space and matrices already: the
   * Model phase skips the rig (and clears this). */
  bool model_done;
} lb_rig_instance;

/* Per-world state: skeleton assets (handle = index + 1). */
typedef struct lb_rig_world {
  lb_skeleton *skeletons;
  uint32_t skeleton_count, skeleton_capacity;
} lb_rig_world;

static inline lb_rig_world *lb_rig_world_of(const lb_world *w) {
  return (lb_rig_world *)lb_world_module_state(w, LB_MODULE_rig);
}
const lb_skeleton *lb_skeleton_get(const lb_world *w, uint32_t asset);
/* Joint index of a path or bare name, or -1 (string work: writes and assets only). */
int lb_skeleton_lookup(const lb_skeleton *s, const char *path);
void lb_skeletons_release(lb_world *w, lb_rig_world *rw, uint32_t keep);
/* Pads the table to `upto` with places that name no skeleton (lb_skeleton_get: null). */
lb_result lb_skeletons_reserve(lb_world *w, lb_rig_world *rw, uint32_t upto);

/* The rig instance of a slot with a Rig, else null. */
static inline lb_rig_instance *lb_rig_of_slot(const lb_world *w, uint32_t slot) {
  return lb_slot_has(w, slot, LB_RIG) ? (lb_rig_instance *)lb_component_state(w, slot, LB_RIG)
                                      : NULL;
}

lb_result lb_rig_instance_init(lb_world *w, lb_rig_instance *inst, uint32_t asset);
void lb_rig_instance_release(lb_world *w, lb_rig_instance *inst);
/* 4x4 model matrices (column-major, what skinning reads) over the joint range [first, end). */
void lb_rig_write_matrices(lb_rig_instance *inst, uint32_t first, uint32_t end);
/* Joints [first, end) of `model` changed outside lb_rig_local_to_model: the Output phase
 * rewrites their matrices. */
void lb_rig_mark_edited(lb_rig_instance *inst, uint32_t first, uint32_t end);
/* Local->model and the matrices of the whole rig, the late joints' matrices left to
 * lb_rig_write_late. */
void lb_rig_pose_update(const lb_skeleton *s, lb_rig_instance *inst);
/* The Animate phase wrote this step's final local pose (no later phase before Model space
 * changes it): lb_rig_pose_update now, while the pose is in cache, and the Model phase skips
 * the rig (with thousands of rigs, its pass would read every pose back from memory). */
void lb_rig_pose_final(const lb_skeleton *s, lb_rig_instance *inst);
/* The Output phase: the matrices of the late joints and of the ones edited since
 * lb_rig_pose_update; this step's edits become the next step's late joints. */
void lb_rig_write_late(lb_rig_instance *inst);
/* out = the joints 0..n-1 ordered by depth, then index (lb_skeleton.by_depth); `depth` is
 * n entries of scratch. Parents must precede children. */
void lb_skeleton_order_by_depth(const int16_t *parents, uint32_t n, uint16_t *depth, uint16_t *out);
/* model = parent model * local for joints first..end-1 (depth-first ranges: a subtree is
 * [j, subtree_end[j])); the whole pose walks by_depth when the skeleton has it. */
void lb_rig_local_to_model(const lb_skeleton *s, lb_rig_instance *inst, uint32_t first,
                           uint32_t end);
/* Sets joint j's local rotation so that its model rotation becomes model_r (the parent's
 * model transform must be current). */
void lb_apply_rotation(lb_rig_instance *inst, const lb_skeleton *sk, int j, const versor model_r);
struct lb_two_bone_ik_job;
/* Applies a solved two-bone job's corrections to the chain's locals, refreshing the model
 * transforms of root and mid on the way; the joints below are left for the caller to refresh
 * (lb_rig_commit_two_bone refreshes the root's whole subtree). */
void lb_rig_set_two_bone(const lb_skeleton *sk, lb_rig_instance *inst, int root, int mid, int tip,
                         const struct lb_two_bone_ik_job *job);
/* Applies a solved two-bone job's corrections to the chain's locals and refreshes the
 * model pose of the root's subtree. */
void lb_rig_commit_two_bone(const lb_skeleton *sk, lb_rig_instance *inst, int root, int mid,
                            int tip, const struct lb_two_bone_ik_job *job);

#endif
