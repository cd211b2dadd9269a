/* Component structs. Field names, defaults and ranges are documented in the schema
 * tables (wasm/src/world/components_schema.c) that the TS bridge reads; the
 * comments here repeat the unit and default for C users. */
#ifndef LIMBER_COMPONENTS_H
#define LIMBER_COMPONENTS_H

#include "limber/base.h"
#include <cglm/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LB_JOINT_PATH_MAX 128
#define LB_POSE_NAME_MAX 32      /* grip / finger pose names, bytes including NUL */
#define LB_FINGERS_JSON_MAX 1024 /* per-joint finger pose JSON in a GripProfile */
#define LB_FINGER_ROOTS_MAX 256  /* GripPose finger root list */

typedef enum lb_component_type {
  LB_TRANSFORM = 0,
  LB_RIG = 1,
  LB_TWO_BONE_IK = 2,
  LB_GRIP_SURFACE = 3,
  LB_GRIP_PROFILE = 4,
  LB_GRIP_POSE = 5,
  LB_GRIP_HOLDER = 6,
  LB_ANIMATOR = 7,
  LB_COMPONENT_TYPE_COUNT
} lb_component_type;

/* Placement of an entity. Local to `parent` (and to `parentJoint` of the parent's
 * rig when set), world space otherwise. */
typedef struct lb_transform_c {
  vec3 position;    /* metres; default 0 */
  versor rotation;  /* unit quaternion x,y,z,w; default identity; normalised on write */
  vec3 scale;       /* per axis, (0, 1e4]; default 1 */
  lb_entity parent; /* default null */
  char parent_joint[LB_JOINT_PATH_MAX]; /* joint path or name in the parent's rig; default "" */
} lb_transform_c;

/* A skeleton instance on the entity; its Transform (if any) is the rig root. */
typedef struct lb_rig_c {
  uint32_t asset; /* skeleton asset handle from lb_world_add_skeleton; required */
} lb_rig_c;

/* Two-bone IK constraint: tip joint, its parent (mid) and grandparent (root) reach
 * the target entity's world position; the tip turns to its rotation. */
typedef struct lb_two_bone_ik_c {
  lb_entity rig;               /* entity with Rig; null = this entity */
  char tip[LB_JOINT_PATH_MAX]; /* joint path or name of the end joint, e.g. "RightHand" */
  lb_entity target;            /* entity with Transform; required */
  lb_entity hint;              /* optional pole entity used when the limb is straight */
  float weight;                /* [0,1] position weight; default 1 */
  float rotation_weight;       /* [0,1] tip rotation weight; default 0 */
  float soften;                /* [0,1]; 1 = no softening (default), lower eases the last
                                  (1-soften) of the reach so the limb never snaps straight */
  uint32_t reached;            /* output: 1 when the tip is within 0.1 mm of the target */
  float distance;              /* output: metres left between tip and target */
} lb_two_bone_ik_c;

/* ---- Grip (see grip_pose.h for the pose values, geom.h for shapes) ------------------ */

/* Right|Left enum fields hold lb_hand_side values (grip.h): 0 = right, 1 = left. */
typedef enum lb_grip_placement {
  LB_GRIP_PLACEMENT_HAND = 0,  /* the object follows the animated main hand */
  LB_GRIP_PLACEMENT_OBJECT = 1 /* the game places the object; the main arm reaches it */
} lb_grip_placement;

/* A simple shape a hand wraps onto, in the entity's own units (its Transform's scale
 * applies). On the held object or any entity below it. */
typedef struct lb_grip_surface_c {
  uint32_t shape;     /* Cylinder|Capsule|Sphere|Box (lb_shape_type); default Cylinder */
  uint32_t direction; /* X|Y|Z axis of a cylinder or capsule; default Y */
  vec3 center;        /* entity units; default 0 */
  float radius;       /* cylinder/capsule/sphere, (0, 100]; default 0.02 */
  float height;       /* total length of a cylinder/capsule (capsule incl. caps); default 0.1 */
  vec3 size;          /* box full extents; default 0.1 each */
} lb_grip_surface_c;

/* On the held object: where each palm goes (anchors are entities whose origin is the palm
 * centre, +Z along the fingers, +Y out of the palm) and how each hand's fingers hold. */
typedef struct lb_grip_profile_c {
  lb_entity main_anchor;                  /* required: palm anchor of the main hand */
  lb_entity support_anchor;               /* null = one-handed */
  char main_pose[LB_POSE_NAME_MAX];       /* GripPose name or registered finger pose; "" = none */
  char support_pose[LB_POSE_NAME_MAX];    /* default "support" */
  char main_fingers[LB_FINGERS_JSON_MAX]; /* per-joint pose JSON; overrides main_pose */
  char support_fingers[LB_FINGERS_JSON_MAX];
  uint32_t hand;   /* Right|Left: the hand the anchors were placed for; default Right */
  uint32_t mirror; /* X|Y|Z: the object's plane (normal axis) used to mirror; default X */
  uint32_t wrap;   /* bool: fingers close onto GripSurface shapes; default 1 */
} lb_grip_profile_c;

/* On a character (with Rig): hand shapes, independent of holding anything. */
typedef struct lb_grip_pose_c {
  char right_pose[LB_POSE_NAME_MAX]; /* pose name; "" = the hand fades back to animation */
  char left_pose[LB_POSE_NAME_MAX];
  float right_weight; /* [0,1] over the animated fingers; default 1 */
  float left_weight;
  float right_trigger; /* [0,1] index finger resting → pulled (poses with a trigger); 0 */
  float left_trigger;
  float blend_seconds;                /* [0,10] ease between poses; default 0.2 */
  char right_hand[LB_JOINT_PATH_MAX]; /* hand joint path; "" = found by name */
  char left_hand[LB_JOINT_PATH_MAX];
  /* Finger root joints for rigs whose fingers are not named by finger: up to five
   * comma-separated paths or names, thumb, index, middle, ring, pinky ("" entries =
   * by name), e.g. "R_Digit0_1,R_Digit1_1,R_Digit2_1,R_Digit3_1,R_Digit4_1". Also used
   * by a GripHolder on the same entity. Default "". */
  char right_fingers[LB_FINGER_ROOTS_MAX];
  char left_fingers[LB_FINGER_ROOTS_MAX];
} lb_grip_pose_c;

/* On a character (with Rig): the object it holds and how. */
typedef struct lb_grip_holder_c {
  lb_entity held;        /* entity with GripProfile; null = let go */
  uint32_t main_hand;    /* Right|Left; default Right */
  uint32_t placement;    /* Hand|Object (lb_grip_placement); default Hand */
  float weight;          /* [0,1] grip over the animation; default 1 */
  float support_weight;  /* [0,1] support hand, times weight; default 1 */
  float blend_seconds;   /* [0,10] grab, release and switch ease; default 0.25 */
  float shoulder_assist; /* [0,1] share of an out-of-reach gap closed by clavicle and spine; 0 */
  char right_hand[LB_JOINT_PATH_MAX]; /* hand joint path; "" = found by name */
  char left_hand[LB_JOINT_PATH_MAX];
  float main_distance;    /* output: metres from the main palm centre to its anchor */
  float support_distance; /* output: metres from the support palm centre to its anchor */
  uint32_t main_reached;  /* output: main palm within 0.5 mm of its anchor */
  uint32_t support_reached;
} lb_grip_holder_c;

/* ---- Animator (see animator.h for playback, root motion and the controller format) -------- */

#define LB_ANIM_STATE_NAME_MAX 32 /* = LB_ANIM_NAME_MAX */

/* On a character (with Rig): plays a controller asset into the rig's local pose. */
typedef struct lb_animator_c {
  uint32_t controller;                /* controller asset handle; required */
  uint32_t apply_root_motion;         /* bool: the Move phase moves the Transform; default 1 */
  float speed;                        /* [0, 10] playback multiplier; default 1 */
  uint32_t root_motion_vertical;      /* bool: root motion includes the vertical axis; default 0 */
  char state[LB_ANIM_STATE_NAME_MAX]; /* output: current state name */
  float state_time;                   /* output: seconds in the current state */
  float blend;                        /* output: cross-fade progress 0..1 (1 = settled) */
} lb_animator_c;

#ifdef __cplusplus
}
#endif
#endif
