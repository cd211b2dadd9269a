/* The Animator: controller assets (parameters, states with clips or 1D blend spaces,
 * transitions with cross-fades and conditions, one-shot states that return) and the
 * per-entity Animator component that plays them into the rig's local pose in the Animate
 * phase, with root motion applied in the Move phase or left as a request for other movers.
 *
 * Units: seconds, metres, radians (yaw about +Y). Parameter and state names are
 * 1 .. LB_ANIM_NAME_MAX - 1 bytes; clips are clip assets (limber/gltf.h) named per skeleton.
 *
 * ---- Playback (per Animator, every step of dt seconds; dt_a = dt * Animator.speed) ----------
 *  1. Transitions, unless a cross-fade is in progress (a fade is never interrupted): with the
 *     parameter values as set before this step and the state times as of the last step, the
 *     first transition in definition order whose source is the current state (or "any", which
 *     never re-enters the current state) and whose conditions all hold fires; then, for a
 *     one-shot state (loop false with `next`), the return to `next` fires once the state's
 *     remaining time is <= next_fade. Firing enters the target state at time 0 and consumes
 *     every trigger the transition tested. A fade of 0 switches at once.
 *  2. Every playing state (the current one and, during a fade, the previous one) advances:
 *     its phase (0..1 over one cycle) by dt_a * state.speed / cycle, where cycle is the
 *     clip's duration or, in a blend space, lerp(duration_a, duration_b, w) of the two
 *     neighbouring clips, which play at that common phase (so walk and run cycles stay in
 *     step and feet do not slide). A looping state wraps (counting loops); a non-looping one
 *     stops at phase 1 and holds its last frame. The fade advances by dt_a.
 *  3. The pose: every contributing clip is sampled at phase * duration and the clips are
 *     blended (lb_blend_job) with weights previous: (1 - f) * w_i, current: f * w_i, where
 *     f = min(fade elapsed / fade, 1) and w_i the blend-space weights; they sum to 1.
 *     When f reaches 1 the previous state is dropped.
 *  4. Root motion: per clip the lb_root_motion_job from the phase before to the phase after
 *     this step (unwrapped, so loops never unwind at the seam), weighted like the pose: the
 *     delta of the root joint (horizontal translation and yaw; vertical only with
 *     rootMotionVertical) in the character frame at the step's start. With applyRootMotion
 *     the same motion frame (the root's horizontal translation and yaw as the job reads it;
 *     channels the clip does not animate are left alone) is removed from every sampled pose
 *     before blending, so the mesh does not move twice.
 *  Move phase (applyRootMotion and a Transform): position += rotation * (scale * delta
 *  translation); rotation = rotation * R_y(delta yaw). This is state carried across steps by
 *  design: the Transform is where the character has walked to. Positions are clamped to the
 *  Transform range (+-LB_WORLD_EXTENT, the supported world extent), so the Transform stays
 *  writable. Without applyRootMotion the delta is only a request
 *  (lb_world_root_motion) that a later mover (nav) may consume.
 *
 * An Animator needs a Rig whose skeleton is the controller's; if the Rig is later removed or
 * given another skeleton the Animator idles (the rig takes the external animation pose).
 *
 * ---- Controller JSON (lb_world_add_controller_json; scenes: assets.controllers.NAME) --------
 *   { "rig": "mannequin",             scenes only: the rig asset whose clips are used
 *     "rootJoint": "Hips",            optional; default: the skeleton's first joint
 *     "parameters": { "MoveSpeed": { "type": "float", "default": 0 },
 *                     "Crouch": { "type": "bool", "default": false },
 *                     "Vault": { "type": "trigger" } },
 *     "entry": "Locomotion",          optional; default: the first state
 *     "states": {
 *       "Locomotion": { "blend": { "parameter": "MoveSpeed",
 *                                  "points": [ { "clip": "idle", "value": 0 },
 *                                              { "clip": "walk", "value": 1.4 } ] } },
 *       "Vault": { "clip": "vault", "loop": false, "next": "Locomotion", "nextFade": 0.3,
 *                  "speed": 1 } },
 *     "transitions": [
 *       { "from": "any", "to": "Vault", "fade": 0.15, "conditions": [ { "parameter": "Vault" } ] },
 *       { "from": "A", "to": "B", "conditions": [ { "parameter": "MoveSpeed", "greater": 0.1 },
 *                                                  { "parameter": "Crouch", "equals": true } ] },
 *       { "from": "Wave", "to": "A", "exitTime": 0.9 } ] }
 * State keys: "clip" or "blend", "speed" (default 1), "loop" (default true), "next",
 * "nextFade" (default 0.25). Transition keys: "from" (a state or "any"), "to", "fade"
 * (default 0.25), "exitTime", "conditions": each { "parameter": NAME } plus one of
 * "greater": n / "less": n (float), "equals": true|false (bool), nothing (trigger).
 * Unknown keys are errors.
 */
#ifndef LIMBER_ANIMATOR_H
#define LIMBER_ANIMATOR_H

#include "limber/base.h"
#include "limber/math.h"
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lb_world lb_world;

#define LB_ANIM_NAME_MAX 32                  /* parameter and state names, bytes including NUL */
#define LB_ANIM_MAX_PARAMS 32                /* per controller */
#define LB_ANIM_MAX_STATES 64                /* per controller */
#define LB_ANIM_MAX_POINTS 16                /* per blend space */
#define LB_ANIM_MAX_TRANSITIONS 256          /* per controller */
#define LB_ANIM_MAX_CONDITIONS 8             /* per transition */
#define LB_ANIM_MAX_SECONDS 3600.0f          /* upper bound of fades */
#define LB_ANIM_ANY_STATE "any"              /* transition source matching every state (reserved) */
#define LB_CONTROLLER_HANDLE_TAG 0x40000000u /* set in every controller handle */

typedef enum lb_anim_param_type {
  LB_ANIM_PARAM_FLOAT = 0,
  LB_ANIM_PARAM_BOOL = 1,
  LB_ANIM_PARAM_TRIGGER = 2, /* set until a transition that tests it fires, or reset */
} lb_anim_param_type;

typedef struct lb_anim_param_def {
  const char *name;
  lb_anim_param_type type;
  float value; /* default: float (finite); bool and trigger 0 or 1 */
  /* Float parameters: seconds the Animator takes to follow a new value (a critically damped
   * spring, as Unity's SmoothDamp: most of the way after 2 damp, never past it), default 0 =
   * at once; [0, 3600]. In a controller's JSON: "damp". Blend spaces and float conditions
   * read the damped value; get_animator_param reads the value set. LB_ANIM_DAMP_SUGGESTED
   * takes a run-to-stop over about 0.3 s instead of one frame. */
  float damp;
} lb_anim_param_def;
#define LB_ANIM_DAMP_SUGGESTED 0.1f

/* A point of a 1D blend space: a clip and the parameter value where it plays alone. */
typedef struct lb_anim_blend_point {
  const char *clip; /* clip asset name on the controller's skeleton */
  float value;      /* finite; points strictly ascending */
} lb_anim_blend_point;

typedef struct lb_anim_state_def {
  const char *name; /* unique, not "any" */
  /* Either one clip ... */
  const char *clip;
  /* ... or a 1D blend space (clip null): a float parameter and 2 .. LB_ANIM_MAX_POINTS points.
   * Below the first / above the last value the end clip plays alone. */
  const char *parameter;
  const lb_anim_blend_point *points;
  uint32_t point_count;
  float speed; /* playback rate of the state, [0, 10]; default 1 */
  bool loop;   /* default true */
  /* One-shot: with loop false, the state it cross-fades back to (over next_fade seconds,
   * [0, LB_ANIM_MAX_SECONDS], default 0.25) once its remaining time is <= next_fade.
   * Null: a non-looping state holds its last frame. */
  const char *next;
  float next_fade;
} lb_anim_state_def;

typedef enum lb_anim_condition_op {
  LB_ANIM_IF_GREATER = 0, /* float parameter > value */
  LB_ANIM_IF_LESS = 1,    /* float parameter < value */
  LB_ANIM_IF_EQUALS = 2,  /* bool parameter == (value != 0) */
  LB_ANIM_IF_TRIGGER = 3, /* trigger parameter is set (consumed when the transition fires) */
} lb_anim_condition_op;

typedef struct lb_anim_condition {
  const char *parameter;
  lb_anim_condition_op op;
  float value; /* finite */
} lb_anim_condition;

typedef struct lb_anim_transition_def {
  const char *from; /* a state name or LB_ANIM_ANY_STATE */
  const char *to;   /* a state name, not `from` */
  float fade;       /* cross-fade seconds, [0, LB_ANIM_MAX_SECONDS]; default 0.25 */
  /* The source state's normalised time (cycles played: loops + phase) must be >= exit_time;
   * < 0 (default -1) = no exit-time condition; at most 1e6. */
  float exit_time;
  const lb_anim_condition *conditions; /* all must hold; 0 conditions and no exit time =
                                          fires as soon as the source is current */
  uint32_t condition_count;            /* <= LB_ANIM_MAX_CONDITIONS */
} lb_anim_transition_def;

typedef struct lb_animator_controller_def {
  const char *name;       /* for messages and lookups; optional ("" = unnamed) */
  uint32_t skeleton;      /* skeleton asset whose clips the states name */
  const char *root_joint; /* root-motion joint path or name; null or "" = joint 0 */
  const lb_anim_param_def *params;
  uint32_t param_count;
  const lb_anim_state_def *states;
  uint32_t state_count; /* >= 1 */
  const lb_anim_transition_def *transitions;
  uint32_t transition_count;
  const char *entry; /* entry state; null or "" = states[0] */
} lb_animator_controller_def;

lb_animator_controller_def lb_animator_controller_default_def(void);
lb_anim_state_def lb_anim_state_default_def(void);           /* speed 1, loop, next_fade 0.25 */
lb_anim_transition_def lb_anim_transition_default_def(void); /* fade 0.25, exit_time -1 */

/* Validates the whole def and adds a controller asset; *out receives its handle (tagged with
 * LB_CONTROLLER_HANDLE_TAG, so a skeleton or clip handle is never taken for one). On error
 * nothing is added and the message names the controller, state, transition, parameter or
 * clip:
 *  LB_ERR_INVALID_ARGUMENT  null pointers, missing clip/blend, a clip with blend settings,
 *                           a blend parameter that is not a float, a condition whose op does
 *                           not fit the parameter type, next on a looping state, a transition
 *                           to itself, a clip of another skeleton, a clip without the root
 *                           joint;
 *  LB_ERR_UNKNOWN_NAME      an unknown skeleton, clip, state, parameter or root joint, a name
 *                           used twice, the reserved name "any";
 *  LB_ERR_OUT_OF_RANGE      empty or too long names, speeds, fades, exit times out of range,
 *                           blend points not strictly ascending, fewer than 2 points;
 *  LB_ERR_NOT_FINITE        a NaN/Inf value;
 *  LB_ERR_CAPACITY          more than the LB_ANIM_MAX_* limits;
 *  LB_ERR_OUT_OF_MEMORY. */
lb_result lb_world_add_controller(lb_world *world, const lb_animator_controller_def *def,
                                  uint32_t *out);
/* The same from JSON (format above; "rig" is ignored: `skeleton` is given). `name` names the
 * controller (may be null). Malformed JSON, wrong value types and unknown keys are
 * LB_ERR_PARSE. */
lb_result lb_world_add_controller_json(lb_world *world, uint32_t skeleton, const char *name,
                                       const char *json, size_t len, uint32_t *out);

/* Read access (null / 0 / -1 for an invalid handle or index). */
uint32_t lb_controller_skeleton(const lb_world *world, uint32_t controller);
const char *lb_controller_name(const lb_world *world, uint32_t controller);
uint32_t lb_controller_param_count(const lb_world *world, uint32_t controller);
const char *lb_controller_param_name(const lb_world *world, uint32_t controller, uint32_t i);
int lb_controller_param_type(const lb_world *world, uint32_t controller, uint32_t i);
float lb_controller_param_default(const lb_world *world, uint32_t controller, uint32_t i);
uint32_t lb_controller_state_count(const lb_world *world, uint32_t controller);
const char *lb_controller_state_name(const lb_world *world, uint32_t controller, uint32_t i);
/* Blend parameter index of state i (-1: a single-clip state); *point_count receives the
 * number of points, and min_value / max_value (optional) the first and last point values. */
int lb_controller_state_blend(const lb_world *world, uint32_t controller, uint32_t i,
                              uint32_t *point_count, float *min_value, float *max_value);

/* ---- per entity -------------------------------------------------------------------------- */

/* Parameters of an entity's Animator. Errors (nothing changes): LB_ERR_STALE_ENTITY,
 * LB_ERR_MISSING_COMPONENT (no Animator), LB_ERR_UNKNOWN_NAME (no such parameter in the
 * controller), LB_ERR_INVALID_ARGUMENT (the parameter has another type), LB_ERR_NOT_FINITE,
 * LB_ERR_BUSY (a system owns the parameter now: a NavAgent's locomotion parameter while it
 * heads for a destination in NavDestination or Both; lb_world_input_owner, world.h).
 * Messages name the entity and the parameter (and the owner). A value set before a step is
 * seen by that step's transitions. */
lb_result lb_world_set_animator_float(lb_world *world, lb_entity e, const char *name, float value);
/* The same with this parameter's damping set to `damp` seconds from now on (Unity's
 * SetFloat(name, value, dampTime, deltaTime), with the step's dt): finite, [0, 3600]. */
lb_result lb_world_set_animator_float_damped(lb_world *world, lb_entity e, const char *name,
                                             float value, float damp);
/* The damped value a float parameter has as of the last Animate phase (what the blend spaces
 * and conditions used); other types: the value set. */
lb_result lb_world_get_animator_damped(lb_world *world, lb_entity e, const char *name,
                                       float *value);
lb_result lb_world_set_animator_bool(lb_world *world, lb_entity e, const char *name, bool value);
/* Sets (true) or resets (false) a trigger. */
lb_result lb_world_set_animator_trigger(lb_world *world, lb_entity e, const char *name, bool set);
/* Current value (bool and trigger as 0 or 1); *type (optional) receives the type. */
lb_result lb_world_get_animator_param(lb_world *world, lb_entity e, const char *name, float *value,
                                      lb_anim_param_type *type);

/* Root motion of the last step's Animate phase: the request a mover consumes. Zero before
 * the first step and while the Animator idles. */
typedef struct lb_root_motion {
  vec3 translation; /* metres, in the character frame at the step's start (rig units) */
  float yaw;        /* radians about +Y */
} lb_root_motion;
lb_result lb_world_root_motion(lb_world *world, lb_entity e, lb_root_motion *out);

/* What the last step played (for tools and tests). */
#define LB_ANIM_MAX_LAYERS 4 /* clips blended at once: 2 per state, 2 states in a fade */
typedef struct lb_animator_status {
  int32_t state;         /* current state index */
  int32_t previous;      /* fading-out state index, -1 when no cross-fade is in progress */
  float weight;          /* cross-fade weight of `state` (previous has 1 - weight); 1 settled */
  float state_time;      /* seconds in the current state (Animator.speed applied) */
  float normalized_time; /* current state: loops + phase */
  float phase;           /* current state's phase in [0, 1] */
  float previous_phase;  /* previous state's phase (when previous >= 0) */
  uint32_t layer_count;  /* clips blended this step */
  uint32_t layer_clip[LB_ANIM_MAX_LAYERS]; /* clip asset handles */
  float layer_weight[LB_ANIM_MAX_LAYERS];  /* sum to 1 */
  float layer_time[LB_ANIM_MAX_LAYERS];    /* clip time sampled, seconds */
  bool idle; /* the Animator did not play (no matching Rig, or no step yet) */
} lb_animator_status;
lb_result lb_world_animator_status(lb_world *world, lb_entity e, lb_animator_status *out);

#ifdef __cplusplus
}
#endif
#endif
