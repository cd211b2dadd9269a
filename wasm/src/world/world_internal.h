/* World internals shared by the world, rig, ik and io modules. Not installed. */
#ifndef LIMBER_WORLD_INTERNAL_H
#define LIMBER_WORLD_INTERNAL_H

#include "limber/anim.h"
#include "limber/components.h"
#include "limber/grip.h"
#include "limber/grip_pose.h"
#include "limber/rig.h"
#include "limber/schema.h"
#include "limber/world.h"
#include <stdarg.h>
#include <stdbool.h>

typedef struct lb_skeleton {
  uint32_t joint_count;
  char (*names)[LB_JOINT_NAME_MAX];
  int16_t *parents;
  uint16_t *subtree_end;
  lb_transform *rest;
} lb_skeleton;

/* A clip asset (world/assets_gltf.c): a deep copy of an lb_clip in one allocation. */
typedef struct lb_clip_asset {
  char name[LB_JOINT_NAME_MAX];
  uint32_t skeleton; /* skeleton asset the clip animates */
  lb_clip clip;      /* joints and keys point into block */
  void *block;
} lb_clip_asset;

/* Per-entity rig buffers, allocated on Rig insert, reused every step. */
typedef struct lb_rig_instance {
  uint32_t asset;
  uint32_t joint_count;
  bool has_anim;
  lb_transform *anim;  /* host-supplied animation pose (external mode) */
  lb_transform *local; /* working local pose of this step */
  lb_transform *model; /* model space (rig root space) */
  mat4 *matrices;      /* Output phase */
} lb_rig_instance;

/* Joint indices a TwoBoneIK resolved at insert time. */
typedef struct lb_ik_chain {
  uint32_t asset; /* skeleton the indices belong to; a changed Rig asset voids them */
  int16_t root, mid, tip;
} lb_ik_chain;

typedef struct lb_grip_slot lb_grip_slot; /* grip/grip_internal.h */

/* anim/animator_internal.h */
typedef struct lb_animator_controller lb_animator_controller;
typedef struct lb_animator_instance lb_animator_instance;

/* A captured finger pose (grip/finger_capture.c): named local rotations. */
typedef struct lb_finger_pose {
  char name[LB_POSE_NAME_MAX];
  uint32_t serial; /* changes when re-registered (invalidates joint maps) */
  uint32_t count;
  char joints[LB_FINGER_POSE_JOINTS_MAX][LB_JOINT_NAME_MAX];
  versor rotations[LB_FINGER_POSE_JOINTS_MAX];
} lb_finger_pose;

struct lb_world {
  lb_allocator allocator;
  uint32_t capacity;   /* slots allocated */
  uint32_t high_water; /* slots ever used */
  uint16_t *generation;
  uint8_t *alive;
  uint32_t *free_slots;
  uint32_t free_count;
  uint32_t *mask; /* bit per component type */
  uint8_t *components[LB_COMPONENT_TYPE_COUNT];
  lb_rig_instance *rigs;
  int16_t *attach_joint; /* Transform.parentJoint resolved, -1 = none */
  lb_ik_chain *ik_chains;
  lb_grip_slot **grip;    /* GripPose/GripHolder/GripProfile state, null until inserted */
  lb_transform *world_xf; /* entity world transforms (Model-space phase) */
  uint8_t *xf_state;      /* 0 = not computed this step, 1 = done */
  uint32_t *xf_stack;     /* scratch for the parent walk, one slot each */
  /* Animator runtime state per slot, null without an Animator */
  lb_animator_instance **animators;
  lb_skeleton *skeletons;
  uint32_t skeleton_count, skeleton_capacity;
  lb_clip_asset *clips; /* handle = index + 1 */
  uint32_t clip_count, clip_capacity;
  lb_animator_controller **controllers; /* handle = LB_CONTROLLER_HANDLE_TAG | (index + 1) */
  uint32_t controller_count, controller_capacity;
  uint64_t steps;
  lb_grip_pose_registry *grip_poses; /* registerGripPose; null until the first */
  lb_finger_pose *finger_poses[LB_FINGER_POSE_MAX];
  uint32_t finger_pose_count, finger_pose_serial;
  char error[320];
};

void *lb_alloc(lb_world *w, size_t size); /* zeroed; null on failure */
void lb_free(lb_world *w, void *p);
void *lb_alloc_array(lb_world *w, size_t count, size_t size);

/* Records the message for lb_world_last_error and returns `code`. */
lb_result lb_fail(lb_world *w, lb_result code, const char *fmt, ...);
/* "entity 3v1" into buf. */
const char *lb_entity_label(lb_entity e, char *buf, size_t n);

/* Slot of an alive entity, or -1 (with an error recorded naming `what`). */
int lb_slot_checked(lb_world *w, lb_entity e, const char *what);
int lb_slot_of(const lb_world *w, lb_entity e); /* -1 if stale, no error */
lb_entity lb_entity_of_slot(const lb_world *w, uint32_t slot);

static inline bool lb_slot_has(const lb_world *w, uint32_t slot, uint32_t type) {
  return (w->mask[slot] >> type) & 1u;
}
static inline void *lb_component_ptr(const lb_world *w, uint32_t slot, uint32_t type) {
  return w->components[type] + (size_t)slot * lb_component_info_get(type)->size;
}

const lb_skeleton *lb_skeleton_get(const lb_world *w, uint32_t asset);
int lb_skeleton_lookup(const lb_skeleton *s, const char *path);

/* Frees every clip asset (world destroy). */
void lb_clip_assets_release(lb_world *w);

/* Rig lifecycle (rig module). */
lb_result lb_rig_instance_init(lb_world *w, lb_rig_instance *inst, uint32_t asset);
void lb_rig_instance_release(lb_world *w, lb_rig_instance *inst);
/* local → model over the joint range [first, end). */
void lb_rig_local_to_model(const lb_skeleton *s, lb_rig_instance *inst, uint32_t first,
                           uint32_t end);

/* Phases (world/phases.c). */
void lb_phase_model_space(lb_world *w);
/* True when `slot`'s Transform parent chain reaches `ancestor`. */
bool lb_world_is_below(const lb_world *w, uint32_t slot, uint32_t ancestor);
/* Recomputes the world transforms of every entity below `slot` (after the grip phase
 * moved it). */
void lb_world_refresh_below(lb_world *w, uint32_t slot);
/* Sets joint j's local rotation so that its model rotation becomes model_r (the parent's
 * model transform must be current). */
void lb_apply_rotation(lb_rig_instance *inst, const lb_skeleton *sk, int j, const versor model_r);
struct lb_two_bone_ik_job;
/* Applies a solved two-bone job's corrections to the chain's locals and refreshes the
 * model pose of the root's subtree. */
void lb_rig_commit_two_bone(const lb_skeleton *sk, lb_rig_instance *inst, int root, int mid,
                            int tip, const struct lb_two_bone_ik_job *job);
/* Grip component rules (grip/validate.c), called by the generic write on a staging
 * copy: prepare checks and allocates, commit cannot fail, release undoes a prepare. */
typedef struct lb_grip_prepared {
  lb_grip_slot *slot_state; /* newly allocated grip state, or null */
  bool has_fingers[2];      /* GripProfile: main / support per-joint fingers parsed */
  lb_grip_pose_def fingers[2];
} lb_grip_prepared;
lb_result lb_grip_prepare(lb_world *w, const char *where, uint32_t slot, uint32_t type,
                          const void *staging, lb_grip_prepared *out);
void lb_grip_commit(lb_world *w, uint32_t slot, uint32_t type, lb_grip_prepared *prep);
void lb_grip_prepared_release(lb_world *w, lb_grip_prepared *prep);
/* Animator component rules and phases (anim/animator_*.c), like the grip's: prepare checks
 * and allocates the runtime state, commit cannot fail, release undoes a prepare. */
typedef struct lb_animator_prepared {
  lb_animator_instance *inst; /* new runtime state, or null to keep the current one */
} lb_animator_prepared;
lb_result lb_animator_prepare(lb_world *w, const char *where, uint32_t slot, const void *staging,
                              lb_animator_prepared *out);
void lb_animator_commit(lb_world *w, uint32_t slot, lb_animator_prepared *prep);
void lb_animator_prepared_release(lb_world *w, lb_animator_prepared *prep);
void lb_animator_remove(lb_world *w, uint32_t slot); /* the Animator was removed */
void lb_controllers_release(lb_world *w);            /* world destroy */
/* 1 Animate, after the external pose copy: Animator entities play their controller. */
void lb_phase_animator(lb_world *w, float dt);
/* 2 Move: applyRootMotion moves the Transform. */
void lb_phase_root_motion(lb_world *w);
/* 5 Grip (grip/phase_grip.c). */
void lb_phase_grip(lb_world *w, float dt);
void lb_phase_reach(lb_world *w);
void lb_phase_output(lb_world *w);

#endif
