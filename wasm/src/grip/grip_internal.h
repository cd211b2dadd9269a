/* Grip runtime state shared by the grip module's files. Not installed. */
#ifndef LIMBER_GRIP_INTERNAL_H
#define LIMBER_GRIP_INTERNAL_H

#include "../rig/rig_internal.h"
#include "limber/geom.h"
#include "limber/grip.h"
#include "limber/grip_pose.h"
#include "limber/grip_wrap.h"
#include "limber/ik.h"

/* Joints one hand's blend covers: clavicle, upper arm, forearm, hand, 5 x 3 finger
 * segments, and room for a skeleton's extra finger joints. */
#define LB_GRIP_BLEND_MAX 24

/* A captured finger pose (grip/finger_capture.c): named local rotations. */
typedef struct lb_finger_pose {
  char name[LB_POSE_NAME_MAX];
  uint32_t serial; /* changes when re-registered (invalidates joint maps) */
  uint32_t count;
  char joints[LB_FINGER_POSE_JOINTS_MAX][LB_JOINT_NAME_MAX];
  versor rotations[LB_FINGER_POSE_JOINTS_MAX];
} lb_finger_pose;

/* What drives a hand this step. */
typedef enum lb_grip_driver_kind {
  LB_GRIP_DRIVER_NONE = 0,     /* animation only (fading out if it was driven) */
  LB_GRIP_DRIVER_POSE = 1,     /* GripPose on the character */
  LB_GRIP_DRIVER_MAIN = 2,     /* GripHolder, main hand */
  LB_GRIP_DRIVER_SUPPORT = 3,  /* GripHolder, support hand */
  LB_GRIP_DRIVER_RELEASED = 4, /* status only: the support hand a higher owner took this step
                                  (lb_grip_release_support); the plan stays SUPPORT */
} lb_grip_driver_kind;

/* A hand as found on one skeleton: shared by every character with that skeleton and the
 * same hand path and finger roots (the grip module's cache), found on write, never in a
 * step. */
typedef struct lb_grip_hand_def {
  uint32_t asset;
  lb_hand_side side;
  lb_name path, finger_roots;
  lb_result found;   /* LB_OK or why not */
  lb_hand_info info; /* info.report points at `report` */
  char *report;      /* owned; NULL when out of memory */
  lb_hand_rig rig;   /* pose parameters from the rest hand (valid = 0 when degenerate) */
  int16_t spine, clavicle, upper, lower; /* -1 when absent; upper/lower required for arms */
  lb_transform palm_in_hand;             /* palm frame relative to the hand joint (t, r; s = 1) */
  float index_length;                    /* hand joint units (metres at scale 1) */
  uint32_t blend_count;
  int16_t blend_joints[LB_GRIP_BLEND_MAX];
  /* Each registered captured finger pose's joints mapped to this hand (-1 = not below the
   * hand), by pose index: mapped on registration and on creation, never in a step. */
  int16_t captured[LB_FINGER_POSE_MAX][LB_FINGER_POSE_JOINTS_MAX];
} lb_grip_hand_def;

/* Per-joint state of one character's hand (allocated with its GripHands). Blend: every
 * covered joint eases from where it was, carried along with the animation:
 * from_j = anim_j * from_off_j, out_j = slerp(from_j, target_j, ease(t)). */
typedef struct lb_grip_hand_joints {
  versor from_off[LB_GRIP_BLEND_MAX];
  versor last_off[LB_GRIP_BLEND_MAX];
  /* The last step's anim_j and out_j, kept instead of their offset anim_j^-1 out_j, which is
   * only read when a blend begins: joint j's last_off is that product while bit j of
   * `pending` is set (lb_grip_blend_begin works it out then). */
  versor last_anim[LB_GRIP_BLEND_MAX];
  versor last_out[LB_GRIP_BLEND_MAX];
  uint32_t pending;
} lb_grip_hand_joints;
_Static_assert(LB_GRIP_BLEND_MAX <= 32, "lb_grip_hand_joints.pending has a bit per joint");

/* One character's hand: the shared def, its per-joint buffers and a few scalars. */
typedef struct lb_grip_hand {
  const lb_grip_hand_def *def; /* null = not resolved */
  lb_grip_hand_joints *joints;
  bool params_ready; /* measured at first grip from that step's model pose */
  float arm_length;  /* upper + forearm, metres */
  uint64_t driver_key;
  float blend_t; /* 0 .. 1; 1 = settled */
  float blend_seconds;
  /* Status (gripPoseStatus). */
  lb_grip_driver_kind driver;
  float palm_distance; /* metres to the anchor, holder-driven hands */
  uint8_t contacts;    /* bit per finger touching a surface */
  /* Share (0..1) of this hand a higher owner took this step (lb_grip_release_support): set
   * in the Reach phase, applied and cleared by this step's Grip phase. */
  float released;
} lb_grip_hand;

/* The module-internal component a character with GripPose or GripHolder carries: both
 * hands' runtime state. Attached by the first of them, detached with the last. */
#define LB_GRIP_HANDS ((uint32_t)LB_COMPONENT_TYPE_COUNT)
typedef struct lb_grip_hands {
  lb_grip_hand hands[2];       /* lb_hand_side */
  lb_grip_hand_joints *joints; /* both hands' per-joint buffers, one allocation */
} lb_grip_hands;

/* A pose name's meaning, by name id (lb_grip_world.ref_by_name): 0 none, 1..64 a registered
 * grip pose (registry slot + 1), LB_GRIP_REF_BUILTIN + i a built-in, -(i + 1) a captured
 * finger pose. Kept current by registrations, so a step never looks a name up. */
#define LB_GRIP_REF_BUILTIN 1000
#define LB_GRIP_BUILTIN_MAX 16

/* Per-world state of the grip module. */
typedef struct lb_grip_world {
  lb_grip_pose_registry *poses; /* registerGripPose; null until the first */
  lb_grip_pose_def builtins[LB_GRIP_BUILTIN_MAX];
  lb_finger_pose *finger_poses[LB_FINGER_POSE_MAX];
  uint32_t finger_pose_count, finger_pose_serial;
  int32_t *ref_by_name;
  uint32_t ref_cap;
  lb_grip_hand_def **hand_defs; /* found hands, shared by characters */
  uint32_t hand_def_count, hand_def_cap;
  char *find_report; /* the last lb_world_find_hand's report (owned) */
} lb_grip_world;

static inline lb_grip_world *lb_grip_world_of(const lb_world *w) {
  return (lb_grip_world *)lb_world_module_state(w, LB_MODULE_grip);
}
static inline int32_t lb_grip_pose_ref(const lb_world *w, lb_name name) {
  const lb_grip_world *gw = lb_grip_world_of(w);
  return name < gw->ref_cap ? gw->ref_by_name[name] : 0;
}
/* Sets what `name` refers to (allocates: registrations only). */
lb_result lb_grip_set_ref(lb_world *w, lb_name name, int32_t ref);
/* The grip pose a ref names, or false (none, or a finger pose). */
bool lb_grip_pose_of_ref(const lb_world *w, int32_t ref, lb_grip_pose_def *out);
/* The captured finger pose a ref names, or null. */
const lb_finger_pose *lb_grip_finger_pose_of_ref(const lb_world *w, int32_t ref);

/* The shared hand def for (asset, side, path, finger roots), found and added when new
 * (string work and allocation: writes only). Null when out of memory. */
const lb_grip_hand_def *lb_grip_hand_def_get(lb_world *w, uint32_t asset, lb_hand_side side,
                                             lb_name path, lb_name finger_roots);
/* Maps captured finger pose `index` onto the def's skeleton (registrations only). */
void lb_grip_hand_def_map_pose(const lb_world *w, lb_grip_hand_def *d, uint32_t index);
/* Points the hand at a def; a different def resets the hand's blend and measurements. */
void lb_grip_hand_bind(lb_grip_hand *h, const lb_grip_hand_def *def);
/* True when the hand is resolved, found, and belongs to `asset`. */
static inline bool lb_grip_hand_ready(const lb_grip_hand *h, uint32_t asset) {
  return h->def && h->def->found == LB_OK && h->def->asset == asset;
}
/* The hand inputs of a character as its GripPose / GripHolder / Rig are now. */
void lb_grip_hand_inputs(const lb_world *w, uint32_t slot, int side, lb_name *path, lb_name *roots);
/* Resolves both hands of a character from its GripPose / GripHolder / Rig as they are now. */
void lb_grip_hands_refresh(lb_world *w, uint32_t slot);
/* Hand finding on a skeleton asset (shared with lb_world_find_hand). `finger_roots`:
 * NULL/"" or the GripPose comma list (thumb..pinky). `report` NULL: no report (no
 * allocation, out->report = ""); else *report receives the whole report, allocated
 * (lb_free it; NULL when out of memory: out->report then says so). */
lb_result lb_grip_find_hand(lb_world *w, const lb_skeleton *sk, lb_hand_side side, const char *path,
                            const char *finger_roots, lb_hand_info *out, char **report);

/* Hand ownership. Each hand has one owner per step; a higher owner's pose is what the step
 * leaves, whatever ran before it:
 *   1 grip main hand (Grip phase): never released to anyone;
 *   2 vault plant (vault.reach, Reach phase);
 *   3 grip support hand (Grip phase): yields to the vault by lb_grip_release_support;
 *   4 wall touch (interact.reach, Reach phase): never uses a holding hand;
 *   5 TwoBoneIK (ik.two_bone, Reach phase): runs first, any later owner overrides it.
 * The phases run lower owners first except for the support hand, whose Grip phase comes after
 * the vault's Reach: hence the explicit release. */
typedef enum lb_grip_holding {
  LB_GRIP_HOLDING_NONE = 0,
  LB_GRIP_HOLDING_MAIN = 1,    /* the hand at the held object's main anchor */
  LB_GRIP_HOLDING_SUPPORT = 2, /* the other hand, on a live support anchor, supportWeight > 0 */
} lb_grip_holding;
/* What a character's hand holds through its GripHolder: the one test every module makes
 * before it uses a hand (interact's wall touch, vault's plant). */
lb_grip_holding lb_grip_hand_holding(const lb_world *w, uint32_t slot, int side);
/* A higher owner (the vault's plant) takes the support hand this step, `share` (0..1) of the
 * way: the Grip phase leaves the support arm to it whole, drives the fingers by (1 - share)
 * of the grip's weight and reports the hand released. The owner keeps the arm continuous by
 * solving it from the grip's hold (lb_grip_support_anchor) at share 0 to its own at 1.
 * Called in the Reach phase, every step the owner wants the hand; no-op without GripHands. */
void lb_grip_release_support(lb_world *w, uint32_t slot, int side, float share);
/* The support anchor in the rig's model space where the held object is now, and the grip's
 * support weight (GripHolder weight x supportWeight); false when nothing with a support
 * anchor is held. */
bool lb_grip_support_anchor(const lb_world *w, uint32_t slot, lb_transform *model_out,
                            float *weight);

/* Palm centre of a hand in rig model space, from the current model pose. */
void lb_grip_palm_model(const lb_grip_hand *h, const lb_rig_instance *inst, lb_transform *out);

/* Arm reach: the hand joint goes where the palm meets `anchor_model` (rig model space,
 * t and r). `assist` (0..1) lets clavicle (and, if `lean_spine`, spine) close part of an
 * out-of-reach gap. Leaves the arm's subtree model pose current. */
void lb_grip_arm_reach(const lb_skeleton *sk, lb_rig_instance *inst, const lb_grip_hand *h,
                       const lb_transform *anchor_model, float weight, float assist,
                       bool lean_spine);
/* lb_grip_arm_reach for the Grip phase's arms part: when every finger hangs off the hand
 * joint, the joints below the hand keep their model transforms until the fingers part, which
 * poses them and refreshes the hand's subtree (lb_grip_fingers); nothing reads them between. */
void lb_grip_arm_reach_held(const lb_skeleton *sk, lb_rig_instance *inst, const lb_grip_hand *h,
                            const lb_transform *anchor_model, float weight, float assist,
                            bool lean_spine);

/* Anchor placement relative to the object, mirrored through the object's plane when the
 * holding hand differs from the profile's hand. */
void lb_grip_anchor_world(const lb_world *w, uint32_t object_slot, lb_entity anchor, bool mirror,
                          uint32_t mirror_axis, lb_transform *out);

/* Surfaces a held object offers for the wrap (at most 16, entity order), in the rig's model
 * space. Both hands of one character hold the same object and no transform changes between
 * their fingers, so they are gathered once per character step: `object` -1 before that. */
#define LB_GRIP_SHAPES_MAX 16
typedef struct lb_grip_shapes {
  int object;
  uint32_t count;
  lb_shape shapes[LB_GRIP_SHAPES_MAX];
} lb_grip_shapes;
/* GripSurface shapes on the object or any entity below it (its subtree only, in entity
 * order, the first LB_GRIP_SHAPES_MAX), in the rig's model space. Shared with the contact
 * measurement (tests/c/test_grip_contact.c). */
uint32_t lb_grip_gather_shapes(const lb_world *w, uint32_t rig_slot, int object,
                               lb_shape out[LB_GRIP_SHAPES_MAX]);

/* Fingers of one hand (grip/hand_fingers.c): the pose's target shape (GripProfile
 * per-joint fingers, a GripPose name or a captured finger pose), wrapped onto the held
 * object's surfaces (gathered into `shapes` unless it holds this object's already),
 * applied by `weight` over the animated fingers. LB_GRIP_DRIVER_NONE leaves the animated
 * fingers (the blend eases them back). */
void lb_grip_hand_fingers(lb_world *w, uint32_t s, lb_grip_hand *h, lb_grip_driver_kind kind,
                          lb_name pose, float weight, float trigger, int object,
                          lb_grip_shapes *shapes);

/* lb_finger_pose_job_run for the Grip phase (grip/finger_pose.c): the same rotations, palm
 * and index length for a pose from the world's registry (checked when it was registered, so
 * not again); job->positions hold only the thumb's target finger (the one the thumb reaches
 * for) and the thumb, the others stay zero. */
lb_result lb_finger_pose_job_run_registered(lb_finger_pose_job *job);

/* lb_wrap_job_run for the Grip phase's own jobs (grip/wrap.c): the same result for a job whose
 * values a successful lb_finger_pose_job_run just checked or wrote (the hand's model, the
 * fingers' locals, their posed rotations), with rest rotations and the hand rig's tip
 * estimates from a loaded skeleton and shapes from lb_shape_resolve. Only the layout
 * (pointers, counts, margin, the fingers' chains) is checked again, not every value. */
lb_result lb_wrap_job_run_posed(lb_wrap_job *job);

/* A registered captured pose by name, or null (string work: registrations only). */
lb_finger_pose *lb_grip_find_finger_pose(const lb_world *w, const char *name);

/* Validation shared by component writes (grip/grip_module.c). "" is always accepted. */
lb_result lb_grip_check_pose_name(lb_world *w, const char *where, const char *field, lb_name name);
/* The grip system (grip/phase_grip.c). */
void lb_system_grip(lb_world *w, float dt);

/* What drives one hand this step (grip/phase_grip.c). */
typedef struct lb_grip_plan {
  lb_grip_driver_kind kind;
  lb_name pose;     /* pose name (0 = none) */
  float weight;     /* fingers over the animation */
  float arm_weight; /* arms (holder) */
  float trigger;
  float seconds; /* blend time of the component driving the hand */
  int object;    /* held object's slot, holder-driven hands, else -1 */
  lb_entity anchor;
} lb_grip_plan;

/* One character's Grip phase between its two parts: what the arms part decided and read,
 * what the fingers part needs. */
typedef struct lb_grip_step {
  lb_grip_plan plan[2];
  uint32_t placement;
  bool active[2];
  int main, support;                 /* hand sides, or -1 */
  versor anim[2][LB_GRIP_BLEND_MAX]; /* covered joints as they entered the phase */
  lb_transform anchor_world[2];      /* held object's anchor per hand */
  /* Scratch for the walk below a held object the hand places (lb_world_refresh_below): the
   * world's xf_stack, or the worker's own in the parallel section. */
  uint32_t *walk;
} lb_grip_step;

/* Entities of a held object's subtree searched for surfaces, and the most the parallel Grip
 * section walks below an object with a stack of its own. */
#define LB_GRIP_SUBTREE_MAX 256

/* The Grip phase of character slot s (GripHands and Rig) is lb_grip_arms then
 * lb_grip_fingers; they are separate so that the benches time each part. Arms: the plan,
 * the blends' snapshots, the main arm, the object (Hand placement), the support arm. */
void lb_grip_arms(lb_world *w, uint32_t s, lb_grip_step *step); /* step->walk set by the caller */
/* Fingers of both hands, the hands' local->model, the blends' clocks, the palm gaps. */
void lb_grip_fingers(lb_world *w, uint32_t s, const lb_grip_step *step, float dt);
lb_result lb_grip_check_surface(lb_world *w, const char *where, const lb_grip_surface_c *c);
/* The shape a GripSurface component describes. */
lb_shape_def lb_grip_surface_def(const lb_grip_surface_c *c);

/* Blend (grip/hand_blend.c). Starts a blend when the hand's driver key changed. */
void lb_grip_blend_begin(lb_grip_hand *h, uint64_t key, float seconds);
/* Rotations of the blend joints as they entered the grip phase. */
void lb_grip_blend_snapshot(const lb_grip_hand *h, const lb_rig_instance *inst,
                            versor anim[LB_GRIP_BLEND_MAX]);
/* Eases blend joints [first, end) from where they were toward the current locals and
 * records the offsets; refreshes the model pose below the first joint. */
void lb_grip_blend_apply(lb_grip_hand *h, const lb_skeleton *sk, lb_rig_instance *inst,
                         const versor anim[LB_GRIP_BLEND_MAX], uint32_t first, uint32_t end);
/* Refreshes the model pose of the given joints and everything below them. */
void lb_grip_refresh_joints(const lb_skeleton *sk, lb_rig_instance *inst, const int16_t *joints,
                            uint32_t count);
/* Advances the blend clock after both parts were applied. */
void lb_grip_blend_advance(lb_grip_hand *h, float dt);
/* Number of arm joints at the front of the blend list. */
uint32_t lb_grip_blend_arm_count(const lb_grip_hand *h);

#endif
