/* Animator internals shared by the animator files (controller, instance, phase, JSON) and
 * the world. Not installed. */
#ifndef LIMBER_ANIMATOR_INTERNAL_H
#define LIMBER_ANIMATOR_INTERNAL_H

#include "../rig/rig_internal.h"
#include "limber/animator.h"
#include "limber/gltf.h"

typedef struct lb_animator_controller lb_animator_controller;
typedef struct lb_animator_instance lb_animator_instance;

typedef struct lb_anim_param {
  char name[LB_ANIM_NAME_MAX];
  uint32_t type; /* lb_anim_param_type */
  float value;   /* default */
  float damp;    /* seconds (lb_anim_param_def.damp) */
} lb_anim_param;

typedef struct lb_anim_point {
  uint32_t clip;   /* clip asset handle */
  float value;     /* blend parameter value */
  uint32_t cursor; /* offset of this point's sampling cursor in the instance's keys */
  bool bake_yaw;   /* the clip does not turn overall (< 1 deg a loop): its yaw stays in the pose */
} lb_anim_point;

typedef struct lb_anim_state {
  char name[LB_ANIM_NAME_MAX];
  lb_name name_id; /* the name in the world's table, for Animator.state */
  int32_t param;   /* float parameter of a blend space, -1 for a single clip */
  uint32_t first_point, point_count;
  float speed;
  uint32_t loop; /* bool */
  int32_t next;  /* one-shot return state, -1 none */
  float next_fade;
} lb_anim_state;

typedef struct lb_anim_cond {
  uint32_t param;
  uint32_t op; /* lb_anim_condition_op */
  float value;
} lb_anim_cond;

typedef struct lb_anim_transition {
  int32_t from; /* -1 = any state */
  int32_t to;
  float fade;
  float exit_time; /* < 0: none */
  uint32_t first_cond, cond_count;
} lb_anim_transition;

/* One allocation: this header, then the arrays the pointers refer to. */
struct lb_animator_controller {
  char name[LB_JOINT_NAME_MAX];
  uint32_t skeleton;
  uint32_t root_joint;
  int32_t entry;
  uint32_t param_count, state_count, point_count, transition_count, cond_count;
  lb_anim_param *params;
  lb_anim_state *states;
  lb_anim_point *points;
  lb_anim_transition *transitions;
  lb_anim_cond *conds;
  uint32_t cursor_keys; /* sampling cursor entries an instance needs (all points) */
};

/* Where one playing state is. */
typedef struct lb_anim_playback {
  int32_t state;  /* -1 = none */
  float phase;    /* [0, 1): looping, [0, 1]: one pass */
  uint32_t loops; /* whole cycles played (saturates) */
  float time;     /* seconds since entered (Animator.speed applied) */
} lb_anim_playback;

/* Per-entity runtime state, allocated on insert, never during a step. */
struct lb_animator_instance {
  uint32_t controller; /* handle the instance was built for */
  uint32_t skeleton;
  uint32_t joint_count;
  float *params; /* as set by the game (4 x param_count floats: params, damped, rate, damp) */
  float *damped; /* what the Animate phase plays: params followed by a damped spring */
  float *rate;   /* the spring's velocity, per second */
  float *damp;   /* seconds, from the definition or the last damped set */
  lb_anim_playback cur, prev; /* prev.state >= 0 only during a cross-fade */
  float fade, fade_elapsed;
  uint32_t *keys;            /* sampling cursors of every point */
  lb_transform *poses;       /* LB_ANIM_MAX_LAYERS * joint_count scratch poses */
  lb_animator_status status; /* of the last step */
  lb_root_motion motion;     /* of the last step */
};

/* A clip asset: a deep copy of an lb_clip in one allocation. */
typedef struct lb_clip_asset {
  char name[LB_JOINT_NAME_MAX];
  uint32_t skeleton; /* skeleton asset the clip animates */
  lb_clip clip;      /* joints and keys point into block */
  void *block;
  lb_clip_frames *frames; /* rotations for four-wide sampling; null if the keys do not allow */
  lb_clip_reduction reduction;
} lb_clip_asset;

/* Per-world state of the anim module: clip and controller assets. */
typedef struct lb_anim_world {
  lb_clip_asset *clips; /* handle = index + 1 */
  uint32_t clip_count, clip_capacity;
  lb_animator_controller **controllers; /* handle = LB_CONTROLLER_HANDLE_TAG | (index + 1) */
  uint32_t controller_count, controller_capacity;
} lb_anim_world;

static inline lb_anim_world *lb_anim_world_of(const lb_world *w) {
  return (lb_anim_world *)lb_world_module_state(w, LB_MODULE_anim);
}

/* The Animator's runtime state of a slot, or null. */
static inline lb_animator_instance *lb_animator_of_slot(const lb_world *w, uint32_t slot) {
  return lb_slot_has(w, slot, LB_ANIMATOR)
             ? *(lb_animator_instance **)lb_component_state(w, slot, LB_ANIMATOR)
             : NULL;
}

/* Frees clip and controller assets past the given counts (world destroy: 0, 0). */
void lb_clip_assets_release(lb_world *w, uint32_t keep);
/* Pads the table to `upto` with places that name no clip (skeleton 0). */
lb_result lb_clip_assets_reserve(lb_world *w, uint32_t upto);
/* The clip's four-wide rotation layout, or null (no such clip, or keys that do not allow). */
const lb_clip_frames *lb_world_clip_frames(const lb_world *w, uint32_t clip);
void lb_controllers_release(lb_world *w, uint32_t keep);
/* Pads the table to `upto` with null places (no controller). */
lb_result lb_controllers_reserve(lb_world *w, uint32_t upto);
/* The Animator component's hooks (animator_instance.c) and systems (animator_phase.c). */
lb_result lb_animator_stage(lb_write *wr);
void lb_animator_commit(lb_write *wr, void *state);
void lb_animator_remove(lb_world *w, uint32_t slot, void *value, void *state);
void lb_system_animator(lb_world *w, float dt);
/* The rig is not animated this step after all: its animation pose, as rig.start_pose would
 * have copied it (null or an undriven rig: nothing to do). */
void lb_animator_release_rig(lb_rig_instance *rig);
void lb_system_root_motion(lb_world *w, float dt);

const lb_animator_controller *lb_controller_get(const lb_world *w, uint32_t handle);
/* Parameter index by name, or -1. */
int lb_controller_find_param(const lb_animator_controller *c, const char *name);
/* A controller from a parsed JSON object (cJSON *); see lb_world_add_controller_json. */
lb_result lb_controller_from_cjson(lb_world *w, uint32_t skeleton, const char *name,
                                   const void *json_object, uint32_t *out);
/* Writes a float parameter at once, undamped (the value set and the value played): a system
 * that owns the parameter (a NavAgent's locomotion value). */
static inline void lb_animator_param_set_now(lb_animator_instance *inst, uint32_t i, float value) {
  inst->params[i] = inst->damped[i] = value;
  inst->rate[i] = 0.0f;
}
/* Sets a parameter with the public API's checks; `where` prefixes messages. */
lb_result lb_animator_set_param(lb_world *w, lb_entity e, const char *name, float value,
                                lb_anim_param_type type);

#endif
