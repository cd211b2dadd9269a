/* Component structs. Each component is defined once, by a field list macro
 * (LB_<NAME>_FIELDS): it generates the C struct below, the schema table the core
 * validates with (schema.h), and, through the schema, the TypeScript types
 * (web/bridge/components.generated.ts, `npm run gen`).
 *
 * A row is F(c_type, member, "jsonName", field_type, then the lb_field members it sets by
 * name (schema.h): .def = {default values}, .min = and .max = (inclusive range of numbers
 * and vectors), .enum_names = "A|B", .def_string = default text, .flags =, and always
 * .doc = "meaning and unit"). Members left out are zero (no range, no default, no flags).
 * Writable fields are the first 32 rows at most (a scene update's field mask has a bit per
 * row; outputs, LB_FIELD_READONLY, may follow beyond; tests/c/test_vault.c checks every
 * component).
 *
 * Name fields (LB_FIELD_NAME) hold an lb_name: an id in the world's name table
 * (lb_world_intern / lb_world_name_text in world.h). The TypeScript API and scene files
 * read and write them as strings. */
#ifndef LIMBER_COMPONENTS_H
#define LIMBER_COMPONENTS_H

#include "limber/base.h"
#include "limber/schema.h"
#include <cglm/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LB_POSE_NAME_MAX 32 /* grip / finger pose names, bytes including NUL */

/* Public component type ids, stable for a build (the module list, wasm/src/modules.h,
 * registers exactly these). */
typedef enum lb_component_type {
  LB_TRANSFORM = 0,
  LB_RIG = 1,
  LB_TWO_BONE_IK = 2,
  LB_GRIP_SURFACE = 3,
  LB_GRIP_PROFILE = 4,
  LB_GRIP_POSE = 5,
  LB_GRIP_HOLDER = 6,
  LB_ANIMATOR = 7,
  LB_COLLIDER = 8,
  LB_CHARACTER_CONTROLLER = 9,
  LB_ENV_INTERACTION = 10,
  LB_NAV_AGENT = 11,
  LB_VAULT = 12,
  LB_COMPONENT_TYPE_COUNT
} lb_component_type;

#define LB_COMPONENT_MEMBER_(ctype, member, ...) ctype member;
#define LB_COMPONENT_STRUCT(name, FIELDS)                                                          \
  typedef struct name {                                                                            \
    FIELDS(LB_COMPONENT_MEMBER_)                                                                   \
  } name

/* Supported world extent, metres: every Transform position coordinate is within
 * [-LB_WORLD_EXTENT, LB_WORLD_EXTENT]. It is the field's schema range, so a write beyond it
 * is refused naming entity, component and field, and the systems that write positions (the
 * character controller, root motion, nav agents; a vault moves through the controller) stop
 * there. Why this value: below 2^15 m a float's spacing is at most 2^-9 m (1.95 mm, a fifth of
 * the default 10 mm controller skin), so queries and moves stay exact to the skin. Measured
 * with a controller walking into a wall on a floor on every axis: at 1e4, 3e4, 6.5e4 and
 * 9.9e4 m its foot sits 1.2, 0.2, 1.7 and 5.6 mm off the skin height and it stops 9.6, 10.6,
 * 8.6 and 12.5 mm from the wall (spacing 1, 2, 3.9 and 7.8 mm there); beyond 1e5 m
 * (LB_COLLIDE_MAX_EXTENT) the queries are refused and it walked through walls and floors.
 * tests/c/test_world_extent.c walks it at +-(extent - 1 m). */
#define LB_WORLD_EXTENT 3.2e4f

/* Placement of an entity. Local to `parent` (and to `parentJoint` of the parent's rig
 * when set), world space otherwise. */
#define LB_TRANSFORM_FIELDS(F)                                                                     \
  F(vec3, position, "position", LB_FIELD_VEC3, .min = -LB_WORLD_EXTENT, .max = LB_WORLD_EXTENT,    \
    .doc = "metres, local to parent (the supported world extent)")                                 \
  F(versor, rotation, "rotation", LB_FIELD_QUAT, .def = {0, 0, 0, 1}, .min = -1e6f, .max = 1e6f,   \
    .doc = "unit quaternion [x, y, z, w], normalised on write")                                    \
  F(vec3, scale, "scale", LB_FIELD_VEC3, .def = {1, 1, 1}, .min = 1e-6f, .max = 1e4f,              \
    .doc = "per-axis scale")                                                                       \
  F(lb_entity, parent, "parent", LB_FIELD_ENTITY, .doc = "parent entity or null")                  \
  F(lb_name, parent_joint, "parentJoint", LB_FIELD_NAME, .def_string = "",                         \
    .doc = "joint path or name in the parent's rig, '' = the parent itself")
LB_COMPONENT_STRUCT(lb_transform_c, LB_TRANSFORM_FIELDS);

/* A skeleton instance on the entity; its Transform (if any) is the rig root. */
#define LB_RIG_FIELDS(F)                                                                           \
  F(uint32_t, asset, "asset", LB_FIELD_ASSET, .min = 1, .max = 4294967295.0f,                      \
    .doc = "skeleton asset handle")
LB_COMPONENT_STRUCT(lb_rig_c, LB_RIG_FIELDS);

/* Two-bone IK constraint: tip joint, its parent (mid) and grandparent (root) reach the
 * target entity's world position; the tip turns to its rotation. `soften` 1 = no
 * softening; lower eases the last (1 - soften) of the reach so the limb never snaps
 * straight. Outputs: reached (tip within 0.1 mm), distance (metres left). */
#define LB_TWO_BONE_IK_FIELDS(F)                                                                   \
  F(lb_entity, rig, "rig", LB_FIELD_ENTITY, .doc = "entity with the Rig; null = this entity")      \
  F(lb_name, tip, "tip", LB_FIELD_NAME, .def_string = "RightHand",                                 \
    .doc = "end joint path or name; its parent and grandparent are mid and root")                  \
  F(lb_entity, target, "target", LB_FIELD_ENTITY,                                                  \
    .doc = "entity whose world position (and rotation) the tip reaches")                           \
  F(lb_entity, hint, "hint", LB_FIELD_ENTITY, .doc = "optional pole entity for a straight limb")   \
  F(float, weight, "weight", LB_FIELD_F32, .def = {1}, .min = 0, .max = 1,                         \
    .doc = "position weight 0..1")                                                                 \
  F(float, rotation_weight, "rotationWeight", LB_FIELD_F32, .min = 0, .max = 1,                    \
    .doc = "tip rotation weight 0..1")                                                             \
  F(float, soften, "soften", LB_FIELD_F32, .def = {1}, .min = 0, .max = 1,                         \
    .doc = "reach share before easing, 1 = off")                                                   \
  F(uint32_t, reached, "reached", LB_FIELD_BOOL, .min = 0, .max = 1, .flags = LB_FIELD_READONLY,   \
    .doc = "output: tip within 0.1 mm of the target")                                              \
  F(float, distance, "distance", LB_FIELD_F32, .min = 0, .max = 1e9f, .flags = LB_FIELD_READONLY,  \
    .doc = "output: metres left to the target")
LB_COMPONENT_STRUCT(lb_two_bone_ik_c, LB_TWO_BONE_IK_FIELDS);

/* ---- Grip (see grip_pose.h for the pose values, geom.h for shapes) ------------------ */

/* Right|Left enum fields hold lb_hand_side values (grip.h): 0 = right, 1 = left. */
typedef enum lb_grip_placement {
  LB_GRIP_PLACEMENT_HAND = 0,  /* the object follows the animated main hand */
  LB_GRIP_PLACEMENT_OBJECT = 1 /* the game places the object; the main arm reaches it */
} lb_grip_placement;

/* A simple shape a hand wraps onto, in the entity's own units (its Transform's scale
 * applies). On the held object or any entity below it. `shape` holds lb_shape_type,
 * `direction` lb_axis. */
#define LB_GRIP_SURFACE_FIELDS(F)                                                                  \
  F(uint32_t, shape, "shape", LB_FIELD_ENUM, .enum_names = "Cylinder|Capsule|Sphere|Box",          \
    .doc = "shape kind")                                                                           \
  F(uint32_t, direction, "direction", LB_FIELD_ENUM, .def = {1}, .enum_names = "X|Y|Z",            \
    .doc = "axis of a cylinder or capsule, in the entity's frame")                                 \
  F(vec3, center, "center", LB_FIELD_VEC3, .min = -1e4f, .max = 1e4f,                              \
    .doc = "centre, entity units")                                                                 \
  F(float, radius, "radius", LB_FIELD_F32, .def = {0.02f}, .min = 1e-5f, .max = 100,               \
    .doc = "cylinder, capsule or sphere radius, entity units")                                     \
  F(float, height, "height", LB_FIELD_F32, .def = {0.1f}, .min = 1e-5f, .max = 1e4f,               \
    .doc = "total length of a cylinder or capsule (capsule incl. caps), entity units")             \
  F(vec3, size, "size", LB_FIELD_VEC3, .def = {0.1f, 0.1f, 0.1f}, .min = 1e-5f, .max = 1e4f,       \
    .doc = "box full extents, entity units")
LB_COMPONENT_STRUCT(lb_grip_surface_c, LB_GRIP_SURFACE_FIELDS);

/* On the held object: where each palm goes (anchors are entities whose origin is the palm
 * centre, +Z along the fingers, +Y out of the palm) and how each hand's fingers hold.
 * Poses name a built-in or registered grip pose (lb_world_register_grip_pose, named or
 * per-joint) or a registered finger pose (lb_world_register_finger_pose). */
#define LB_GRIP_PROFILE_FIELDS(F)                                                                  \
  F(lb_entity, main_anchor, "mainAnchor", LB_FIELD_ENTITY,                                         \
    .doc = "palm anchor of the main hand (origin palm centre, +Z fingers, +Y palm)")               \
  F(lb_entity, support_anchor, "supportAnchor", LB_FIELD_ENTITY,                                   \
    .doc = "palm anchor of the support hand; null = one-handed")                                   \
  F(lb_name, main_pose, "mainPose", LB_FIELD_NAME, .def_string = "handle",                         \
    .doc = "grip pose or registered finger pose for the main hand; '' = none")                     \
  F(lb_name, support_pose, "supportPose", LB_FIELD_NAME, .def_string = "support",                  \
    .doc = "grip pose or registered finger pose for the support hand; '' = none")                  \
  F(uint32_t, hand, "hand", LB_FIELD_ENUM, .enum_names = "Right|Left",                             \
    .doc = "the hand the anchors were placed for")                                                 \
  F(uint32_t, mirror, "mirror", LB_FIELD_ENUM, .enum_names = "X|Y|Z",                              \
    .doc = "object plane (by its normal axis) that mirrors the anchors for the other hand")        \
  F(uint32_t, wrap, "wrap", LB_FIELD_BOOL, .def = {1}, .min = 0, .max = 1,                         \
    .doc = "fingers close onto the object's GripSurface shapes")
LB_COMPONENT_STRUCT(lb_grip_profile_c, LB_GRIP_PROFILE_FIELDS);

/* On a character (with Rig): hand shapes, independent of holding anything. Finger roots
 * are for rigs whose fingers are not named by finger: up to five comma-separated paths or
 * names, thumb, index, middle, ring, pinky ("" entries = by name), e.g.
 * "R_Digit0_1,R_Digit1_1,R_Digit2_1,R_Digit3_1,R_Digit4_1"; also used by a GripHolder on
 * the same entity. */
#define LB_GRIP_POSE_FIELDS(F)                                                                     \
  F(lb_name, right_pose, "rightPose", LB_FIELD_NAME, .def_string = "",                             \
    .doc = "right hand pose name; '' = animation")                                                 \
  F(lb_name, left_pose, "leftPose", LB_FIELD_NAME, .def_string = "",                               \
    .doc = "left hand pose name; '' = animation")                                                  \
  F(float, right_weight, "rightWeight", LB_FIELD_F32, .def = {1}, .min = 0, .max = 1,              \
    .doc = "right pose over the animation 0..1")                                                   \
  F(float, left_weight, "leftWeight", LB_FIELD_F32, .def = {1}, .min = 0, .max = 1,                \
    .doc = "left pose over the animation 0..1")                                                    \
  F(float, right_trigger, "rightTrigger", LB_FIELD_F32, .min = 0, .max = 1,                        \
    .doc = "right index resting 0 .. pulled 1")                                                    \
  F(float, left_trigger, "leftTrigger", LB_FIELD_F32, .min = 0, .max = 1,                          \
    .doc = "left index resting 0 .. pulled 1")                                                     \
  F(float, blend_seconds, "blendSeconds", LB_FIELD_F32, .def = {0.2f}, .min = 0, .max = 10,        \
    .doc = "seconds to ease from one pose to the next")                                            \
  F(lb_name, right_hand, "rightHand", LB_FIELD_NAME, .def_string = "",                             \
    .doc = "right hand joint path; '' = by name")                                                  \
  F(lb_name, left_hand, "leftHand", LB_FIELD_NAME, .def_string = "",                               \
    .doc = "left hand joint path; '' = by name")                                                   \
  F(lb_name, right_fingers, "rightFingerRoots", LB_FIELD_NAME, .def_string = "",                   \
    .doc = "right finger roots thumb,index,middle,ring,pinky for unnamed fingers; '' = by name")   \
  F(lb_name, left_fingers, "leftFingerRoots", LB_FIELD_NAME, .def_string = "",                     \
    .doc = "left finger roots thumb,index,middle,ring,pinky for unnamed fingers; '' = by name")
LB_COMPONENT_STRUCT(lb_grip_pose_c, LB_GRIP_POSE_FIELDS);

/* On a character (with Rig): the object it holds and how. `placement` holds
 * lb_grip_placement. */
#define LB_GRIP_HOLDER_FIELDS(F)                                                                   \
  F(lb_entity, held, "held", LB_FIELD_ENTITY,                                                      \
    .doc = "held object (with GripProfile); null = let go")                                        \
  F(uint32_t, main_hand, "mainHand", LB_FIELD_ENUM, .enum_names = "Right|Left",                    \
    .doc = "the hand at the main anchor")                                                          \
  F(uint32_t, placement, "placement", LB_FIELD_ENUM, .enum_names = "Hand|Object",                  \
    .doc = "Hand: object follows the main hand; Object: main arm reaches the object")              \
  F(float, weight, "weight", LB_FIELD_F32, .def = {1}, .min = 0, .max = 1,                         \
    .doc = "grip over the animation 0..1")                                                         \
  F(float, support_weight, "supportWeight", LB_FIELD_F32, .def = {1}, .min = 0, .max = 1,          \
    .doc = "support hand share 0..1")                                                              \
  F(float, blend_seconds, "blendSeconds", LB_FIELD_F32, .def = {0.25f}, .min = 0, .max = 10,       \
    .doc = "seconds to ease on grab, release and switch")                                          \
  F(float, shoulder_assist, "shoulderAssist", LB_FIELD_F32, .min = 0, .max = 1,                    \
    .doc = "share of an out-of-reach gap closed by clavicle and spine lean 0..1")                  \
  F(lb_name, right_hand, "rightHand", LB_FIELD_NAME, .def_string = "",                             \
    .doc = "right hand joint path; '' = by name")                                                  \
  F(lb_name, left_hand, "leftHand", LB_FIELD_NAME, .def_string = "",                               \
    .doc = "left hand joint path; '' = by name")                                                   \
  F(float, main_distance, "mainDistance", LB_FIELD_F32, .min = 0, .max = 1e9f,                     \
    .flags = LB_FIELD_READONLY, .doc = "output: metres from the main palm centre to its anchor")   \
  F(float, support_distance, "supportDistance", LB_FIELD_F32, .min = 0, .max = 1e9f,               \
    .flags = LB_FIELD_READONLY,                                                                    \
    .doc = "output: metres from the support palm centre to its anchor")                            \
  F(uint32_t, main_reached, "mainReached", LB_FIELD_BOOL, .min = 0, .max = 1,                      \
    .flags = LB_FIELD_READONLY, .doc = "output: main palm centre within 0.5 mm of its anchor")     \
  F(uint32_t, support_reached, "supportReached", LB_FIELD_BOOL, .min = 0, .max = 1,                \
    .flags = LB_FIELD_READONLY, .doc = "output: support palm centre within 0.5 mm of its anchor")  \
  F(float, support_release, "supportRelease", LB_FIELD_F32, .min = 0, .max = 1,                    \
    .flags = LB_FIELD_READONLY,                                                                    \
    .doc = "output: share of the support hand a vault plant took this step 0..1 (while > 0: "      \
           "supportDistance 0, supportReached false)")
LB_COMPONENT_STRUCT(lb_grip_holder_c, LB_GRIP_HOLDER_FIELDS);

/* ---- Animator (see animator.h for playback, root motion and the controller format) -------- */

/* On a character (with Rig): plays a controller asset into the rig's local pose. */
#define LB_ANIMATOR_FIELDS(F)                                                                      \
  F(uint32_t, controller, "controller", LB_FIELD_ASSET, .min = 1, .max = 4294967295.0f,            \
    .doc = "controller asset handle (scenes: its name)")                                           \
  F(uint32_t, apply_root_motion, "applyRootMotion", LB_FIELD_BOOL, .def = {1}, .min = 0, .max = 1, \
    .doc = "the Move phase moves the Transform by the root motion")                                \
  F(float, speed, "speed", LB_FIELD_F32, .def = {1}, .min = 0, .max = 10,                          \
    .doc = "playback multiplier 0..10")                                                            \
  F(uint32_t, root_motion_vertical, "rootMotionVertical", LB_FIELD_BOOL, .min = 0, .max = 1,       \
    .doc = "root motion includes the vertical axis")                                               \
  F(lb_name, state, "state", LB_FIELD_NAME, .def_string = "", .flags = LB_FIELD_READONLY,          \
    .doc = "output: current state name")                                                           \
  F(float, state_time, "stateTime", LB_FIELD_F32, .min = 0, .max = 1e9f,                           \
    .flags = LB_FIELD_READONLY, .doc = "output: seconds in the current state")                     \
  F(float, blend, "blend", LB_FIELD_F32, .min = 0, .max = 1e9f, .flags = LB_FIELD_READONLY,        \
    .doc = "output: cross-fade progress 0..1, 1 = settled")
LB_COMPONENT_STRUCT(lb_animator_c, LB_ANIMATOR_FIELDS);

/* ---- Collide (see collide.h for shapes, meshes and queries) --------------------------------- */

/* A collision shape on the entity, placed by its world Transform (the world transform as
 * the last step, or a write since, left it; scale applies as for GripSurface, geom.h).
 * `shape` holds lb_collider_shape (Cylinder|Capsule|Sphere|Box as lb_shape_type, then
 * Mesh); fields a shape does not use are only range-checked. */
#define LB_COLLIDER_FIELDS(F)                                                                      \
  F(uint32_t, shape, "shape", LB_FIELD_ENUM, .def = {3},                                           \
    .enum_names = "Cylinder|Capsule|Sphere|Box|Mesh", .doc = "shape kind")                         \
  F(uint32_t, direction, "direction", LB_FIELD_ENUM, .def = {1}, .enum_names = "X|Y|Z",            \
    .doc = "axis of a cylinder or capsule, in the entity's frame")                                 \
  F(vec3, center, "center", LB_FIELD_VEC3, .min = -1e4f, .max = 1e4f,                              \
    .doc = "shape centre in the entity's frame, entity units (not used by Mesh)")                  \
  F(float, radius, "radius", LB_FIELD_F32, .def = {0.5f}, .min = 1e-5f, .max = 1e4f,               \
    .doc = "sphere, capsule or cylinder radius, entity units")                                     \
  F(float, height, "height", LB_FIELD_F32, .def = {2}, .min = 1e-5f, .max = 1e4f,                  \
    .doc =                                                                                         \
        "total length of a cylinder or capsule (capsule incl. caps, >= 2 radius), entity units")   \
  F(vec3, size, "size", LB_FIELD_VEC3, .def = {1, 1, 1}, .min = 1e-5f, .max = 1e4f,                \
    .doc = "box full extents, entity units")                                                       \
  F(uint32_t, mesh, "mesh", LB_FIELD_ASSET, .min = 0, .max = 4294967295.0f,                        \
    .doc = "triangle mesh asset (lb_world_add_mesh) for shape Mesh; 0 = none")                     \
  F(uint32_t, layer, "layer", LB_FIELD_U32, .def = {1}, .min = 0, .max = 4294967295.0f,            \
    .doc = "layer bits; a query sees the collider when (layer & query layers) != 0")
LB_COMPONENT_STRUCT(lb_collider_c, LB_COLLIDER_FIELDS);

/* ---- CharacterController (see controller.h for the move, steps, slopes and sizes) ----------- */

/* An upright capsule that moves the entity (a root with a Transform, no parent) by
 * collide-and-slide against the colliders (collide.h). The Move phase sends the entity's
 * movement requests through it: root motion from its Animator and the `move` field. The
 * capsule is centred at position + `center` (world axes, unscaled), `height` long including
 * its caps. */
#define LB_CHARACTER_CONTROLLER_FIELDS(F)                                                          \
  F(float, radius, "radius", LB_FIELD_F32, .def = {0.3f}, .min = 1e-3f, .max = 100,                \
    .doc = "capsule radius, metres")                                                               \
  F(float, height, "height", LB_FIELD_F32, .def = {1.8f}, .min = 2e-3f, .max = 1000,               \
    .doc = "capsule length including the caps (>= 2 radius), metres; changes wait until there is " \
           "room")                                                                                 \
  F(vec3, center, "center", LB_FIELD_VEC3, .def = {0, 0.9f}, .min = -1000, .max = 1000,            \
    .doc =                                                                                         \
        "capsule centre from the position, world axes, metres; changes wait until there is room")  \
  F(float, step_offset, "stepOffset", LB_FIELD_F32, .def = {0.3f}, .min = 0, .max = 1000,          \
    .doc = "highest step climbed, metres (<= height)")                                             \
  F(float, slope_limit, "slopeLimit", LB_FIELD_F32, .def = {45}, .min = 0, .max = 89,              \
    .doc = "steepest walkable slope, degrees")                                                     \
  F(float, skin_width, "skinWidth", LB_FIELD_F32, .def = {0.01f}, .min = 1e-4f, .max = 1,          \
    .doc = "gap kept between the capsule and colliders, metres (< radius)")                        \
  F(float, snap_distance, "snapDistance", LB_FIELD_F32, .def = {0.3f}, .min = 0, .max = 100,       \
    .doc = "ground within this distance below is snapped to, metres")                              \
  F(uint32_t, layers, "layers", LB_FIELD_U32, .def = {16777215.0f}, .min = 0,                      \
    .max = 4294967295.0f,                                                                          \
    .doc = "collider layers it collides with (default 0xFFFFFF: layers 0-23)")                     \
  F(uint32_t, backend, "backend", LB_FIELD_ENUM, .enum_names = "Builtin|Host",                     \
    .doc =                                                                                         \
        "Builtin: the Move phase moves the capsule; Host: it only reports `requested` for a host " \
        "backend (limber/rapier) to move")                                                         \
  F(vec3, move, "move", LB_FIELD_VEC3, .min = -1e4f, .max = 1e4f,                                  \
    .doc = "script movement request, metres; the next Move phase adds it to the root motion and "  \
           "clears "                                                                               \
           "it")                                                                                   \
  F(vec3, requested, "requested", LB_FIELD_VEC3, .min = -1e9f, .max = 1e9f,                        \
    .flags = LB_FIELD_READONLY,                                                                    \
    .doc = "output: the movement requested in the last Move phase, metres")                        \
  F(uint32_t, grounded, "grounded", LB_FIELD_BOOL, .min = 0, .max = 1, .flags = LB_FIELD_READONLY, \
    .doc = "output: standing on walkable ground after the last move")                              \
  F(vec3, velocity, "velocity", LB_FIELD_VEC3, .min = -1e9f, .max = 1e9f,                          \
    .flags = LB_FIELD_READONLY, .doc = "output: displacement of the last move / dt, m/s")          \
  F(uint32_t, hit_count, "hitCount", LB_FIELD_U32, .min = 0, .max = 4294967295.0f,                 \
    .flags = LB_FIELD_READONLY,                                                                    \
    .doc = "output: contacts of the last move (slides, steps, ground)")                            \
  F(vec3, hit_normal0, "hitNormal0", LB_FIELD_VEC3, .min = -1, .max = 1,                           \
    .flags = LB_FIELD_READONLY,                                                                    \
    .doc = "output: first contact's normal (unit, out of the collider)")                           \
  F(vec3, hit_normal1, "hitNormal1", LB_FIELD_VEC3, .min = -1, .max = 1,                           \
    .flags = LB_FIELD_READONLY, .doc = "output: second contact's normal")                          \
  F(vec3, hit_normal2, "hitNormal2", LB_FIELD_VEC3, .min = -1, .max = 1,                           \
    .flags = LB_FIELD_READONLY, .doc = "output: third contact's normal")                           \
  F(lb_entity, hit_entity0, "hitEntity0", LB_FIELD_ENTITY, .flags = LB_FIELD_READONLY,             \
    .doc = "output: first contact's collider entity")                                              \
  F(lb_entity, hit_entity1, "hitEntity1", LB_FIELD_ENTITY, .flags = LB_FIELD_READONLY,             \
    .doc = "output: second contact's collider entity")                                             \
  F(lb_entity, hit_entity2, "hitEntity2", LB_FIELD_ENTITY, .flags = LB_FIELD_READONLY,             \
    .doc = "output: third contact's collider entity")                                              \
  F(float, applied_height, "appliedHeight", LB_FIELD_F32, .min = 0, .max = 1000,                   \
    .flags = LB_FIELD_READONLY,                                                                    \
    .doc = "output: the capsule length in use (height once there was room)")                       \
  F(vec3, applied_center, "appliedCenter", LB_FIELD_VEC3, .min = -1000, .max = 1000,               \
    .flags = LB_FIELD_READONLY, .doc = "output: the capsule centre in use")
LB_COMPONENT_STRUCT(lb_character_controller_c, LB_CHARACTER_CONTROLLER_FIELDS);

/* ---- Interact (see interact.h for the states, the rules and the per-step bounds) ---------- */

/* On a character (with Rig): a hand reaches out and rests on nearby walls (colliders on
 * `interactableLayers`) as it walks. `state` holds lb_interact_state, `side` lb_interact_side.
 * Box, targets and outputs are in world space, metres. */
#define LB_ENV_INTERACTION_FIELDS(F)                                                               \
  F(uint32_t, enabled, "enabled", LB_FIELD_BOOL, .def = {1}, .min = 0, .max = 1,                   \
    .doc = "0 = let go (Reset) and stop searching")                                                \
  F(uint32_t, layers, "interactableLayers", LB_FIELD_U32, .def = {2}, .min = 0,                    \
    .max = 4294967295.0f,                                                                          \
    .doc = "collider layer bits that count as walls (default bit 1, 'Interactable')")              \
  F(float, height, "height", LB_FIELD_F32, .def = {1.8f}, .min = 0.3f, .max = 5,                   \
    .doc =                                                                                         \
        "character height, metres: the detection box side (a CharacterController's height wins)")  \
  F(vec3, box_size, "boxSize", LB_FIELD_VEC3, .min = 0, .max = 100,                                \
    .doc = "detection box full extents override, metres; 0,0,0 = a cube of side height")           \
  F(float, box_raise, "boxRaise", LB_FIELD_F32, .def = {0.25f}, .min = -2, .max = 2,               \
    .doc = "box centre above the character's middle (height / 2), share of the side")              \
  F(float, box_forward, "boxForward", LB_FIELD_F32, .def = {0.5f}, .min = -2, .max = 2,            \
    .doc = "box centre ahead of the root, share of the side")                                      \
  F(float, hand_offset, "handOffset", LB_FIELD_F32, .def = {0.05f}, .min = 0, .max = 0.5f,         \
    .doc =                                                                                         \
        "palm centre kept this far from the wall point, toward the shoulder (hand thickness), m")  \
  F(float, engage_reach, "engageReach", LB_FIELD_F32, .def = {0.9f}, .min = 0.1f, .max = 2,        \
    .doc = "engage when the target is within this share of the arm's length from the shoulder")    \
  F(float, release_reach, "releaseReach", LB_FIELD_F32, .def = {1.0f}, .min = 0.1f, .max = 3,      \
    .doc = "release beyond this share of the arm's length (> engageReach)")                        \
  F(float, min_switch_seconds, "minSwitchSeconds", LB_FIELD_F32, .def = {0.3f}, .min = 0,          \
    .max = 10, .doc = "least time in a state before a chosen switch (releases are at once)")       \
  F(float, blend_seconds, "blendSeconds", LB_FIELD_F32, .def = {0.25f}, .min = 0.02f, .max = 10,   \
    .doc = "weights change by at most dt / blendSeconds per step")                                 \
  F(float, max_hand_speed, "maxHandSpeed", LB_FIELD_F32, .def = {3}, .min = 0.05f, .max = 100,     \
    .doc = "the target moves at most maxHandSpeed * dt per step, m/s")                             \
  F(float, slide_speed, "slideSpeed", LB_FIELD_F32, .def = {0.6f}, .min = 0, .max = 100,           \
    .doc = "Touch: the planted hand slides after the character at most this fast, m/s")            \
  F(float, stretch_limit, "stretchLimit", LB_FIELD_F32, .def = {0.97f}, .min = 0.3f, .max = 2,     \
    .doc = "Touch: re-plant when the hand is beyond this share of the arm's length")               \
  F(float, lag_limit, "lagLimit", LB_FIELD_F32, .def = {0.2f}, .min = 0, .max = 5,                 \
    .doc = "Touch: re-plant when the hand lags this far behind the shoulder, m")                   \
  F(float, replant_ahead, "replantAhead", LB_FIELD_F32, .def = {0.15f}, .min = 0, .max = 5,        \
    .doc = "Touch: a re-plant goes this far ahead of the shoulder's wall point, m")                \
  F(lb_name, right_hand, "rightHand", LB_FIELD_NAME, .def_string = "",                             \
    .doc = "right hand joint path; '' = by name")                                                  \
  F(lb_name, left_hand, "leftHand", LB_FIELD_NAME, .def_string = "",                               \
    .doc = "left hand joint path; '' = by name")                                                   \
  F(uint32_t, state, "state", LB_FIELD_ENUM, .enum_names = "Search|Approach|Rise|Touch|Reset",     \
    .flags = LB_FIELD_READONLY, .doc = "output: interaction state")                                \
  F(uint32_t, side, "side", LB_FIELD_ENUM, .enum_names = "None|Right|Left",                        \
    .flags = LB_FIELD_READONLY, .doc = "output: the active arm")                                   \
  F(lb_entity, wall, "wall", LB_FIELD_ENTITY, .flags = LB_FIELD_READONLY,                          \
    .doc = "output: the collider touched or approached, null in Search")                           \
  F(float, state_time, "stateTime", LB_FIELD_F32, .min = 0, .max = 1e9f,                           \
    .flags = LB_FIELD_READONLY, .doc = "output: seconds in the current state")                     \
  F(float, right_weight, "rightWeight", LB_FIELD_F32, .min = 0, .max = 1,                          \
    .flags = LB_FIELD_READONLY, .doc = "output: right arm IK weight 0..1")                         \
  F(float, left_weight, "leftWeight", LB_FIELD_F32, .min = 0, .max = 1,                            \
    .flags = LB_FIELD_READONLY, .doc = "output: left arm IK weight 0..1")                          \
  F(float, rise, "rise", LB_FIELD_F32, .min = 0, .max = 1, .flags = LB_FIELD_READONLY,             \
    .doc = "output: hand height, 0 = hip, 1 = shoulder")                                           \
  F(vec3, box_center, "boxCenter", LB_FIELD_VEC3, .min = -1e9f, .max = 1e9f,                       \
    .flags = LB_FIELD_READONLY, .doc = "output: detection box centre (rotation: the root's)")      \
  F(vec3, box_half, "boxHalfExtents", LB_FIELD_VEC3, .min = 0, .max = 1e9f,                        \
    .flags = LB_FIELD_READONLY, .doc = "output: detection box half extents")                       \
  F(vec3, closest, "closestPoint", LB_FIELD_VEC3, .min = -1e9f, .max = 1e9f,                       \
    .flags = LB_FIELD_READONLY,                                                                    \
    .doc = "output: wall point closest to (root x, shoulder height, root z)")                      \
  F(vec3, normal, "normal", LB_FIELD_VEC3, .min = -1, .max = 1, .flags = LB_FIELD_READONLY,        \
    .doc = "output: wall normal there (out of the wall)")                                          \
  F(vec3, target, "target", LB_FIELD_VEC3, .min = -1e9f, .max = 1e9f, .flags = LB_FIELD_READONLY,  \
    .doc = "output: where the palm centre is sent (smoothed)")                                     \
  F(float, palm_distance, "palmDistance", LB_FIELD_F32, .min = -1e9f, .max = 1e9f,                 \
    .flags = LB_FIELD_READONLY,                                                                    \
    .doc = "output: signed metres from the active palm centre to the wall, 0 = none")              \
  F(uint32_t, plants, "plants", LB_FIELD_U32, .min = 0, .max = 4294967295.0f,                      \
    .flags = LB_FIELD_READONLY, .doc = "output: hand plants so far (Touch entries and re-plants)")
LB_COMPONENT_STRUCT(lb_env_interaction_c, LB_ENV_INTERACTION_FIELDS);

/* ---- NavAgent (see nav.h for the mesh and the queries) ------------------------------------- */

/* An agent on a navmesh, coupled to the entity's Transform (a root Transform: agents with a
 * parent are skipped) and, when present, its Animator. Runs in the Move phase after root
 * motion (nav.agents, order 10). Drive modes:
 *   NavDestination: the agent moves the Transform along the path at movementSpeed (root
 *     motion of the step is discarded) and turns it; the locomotion parameter =
 *     baseLocomotionParam * speed / movementSpeed.
 *   RootMotion: root motion moves the Transform; the agent only clamps it onto the mesh (and
 *     turns nothing; facing is the game's).
 *   Both: the path steers (the agent turns the Transform toward the steering target), root
 *     motion moves it, the agent clamps it to the mesh; velocity from that displacement; the
 *     locomotion parameter attenuates with the turn angle: beyond `radius` from the goal
 *     base * (1 - (angle/180)^3), within it base * remaining/radius * 2^(10 (1 - angle/180) - 10)
 *     (0 facing straight away), so a goal right behind is reached without circling.
 * With a CharacterController on the entity (any module that takes its movement requests) the
 * agent never writes the position: NavDestination sends the step's displacement along the path
 * as the controller's request (root motion is dropped; across from the Transform, down with the
 * mesh, up slopes and steps by the controller); RootMotion/Both leave root motion to the
 * controller, re-sync the mesh point from where the controller left the Transform (move along
 * the surface from the previous point) and send the clamp onto the mesh as a request. Turning
 * still writes the rotation. `velocity` is then the requested step / dt (NavDestination) or the
 * re-synced point's displacement / dt (RootMotion, Both).
 * A new destination (different from the stored one) clears `stopped` in the same write, and
 * takes effect in the next step. Turning: toward the steering target at turningSpeed, never
 * past it. Positions on the mesh: the Transform's y is the mesh height + baseOffset (without a
 * controller; with one, the controller's). The Transform stays within LB_WORLD_EXTENT: a mesh
 * point (meshes go to LB_NAV_COORD_MAX) or offset beyond it leaves the Transform at the edge
 * while nextPosition follows the mesh, so the Transform stays writable. */
#define LB_NAV_AGENT_FIELDS(F)                                                                     \
  F(uint32_t, nav_mesh, "navMesh", LB_FIELD_ASSET, .min = 1, .max = 4294967295.0f,                 \
    .doc = "navmesh asset handle (scenes: its name)")                                              \
  F(uint32_t, drive_mode, "driveMode", LB_FIELD_ENUM,                                              \
    .enum_names = "NavDestination|RootMotion|Both|Manual",                                         \
    .doc = "who moves the character (see nav.h); Manual: the game, the agent only reports")        \
  F(vec3, destination, "destination", LB_FIELD_VEC3, .min = -1e6f, .max = 1e6f,                    \
    .doc = "metres, world space; a new value also sets hasDestination and clears stopped")         \
  F(uint32_t, has_destination, "hasDestination", LB_FIELD_BOOL, .min = 0, .max = 1,                \
    .doc = "the agent heads for destination")                                                      \
  F(uint32_t, stopped, "stopped", LB_FIELD_BOOL, .min = 0, .max = 1,                               \
    .doc = "holds still (stop()); a new destination clears it")                                    \
  F(float, turning_speed, "turningSpeed", LB_FIELD_F32, .def = {720}, .min = 0, .max = 3600,       \
    .doc = "degrees per second toward the steering target, never past it")                         \
  F(float, movement_speed, "movementSpeed", LB_FIELD_F32, .def = {1.4f}, .min = 0, .max = 1000,    \
    .doc = "metres per second (NavDestination; with a CharacterController: the request's speed)")  \
  F(float, stopping_distance, "stoppingDistance", LB_FIELD_F32, .def = {0.05f}, .min = 0,          \
    .max = 100, .doc = "metres from the goal counted as arrived")                                  \
  F(float, radius, "radius", LB_FIELD_F32, .def = {0.35f}, .min = 0.01f, .max = 10,                \
    .doc = "metres; the Both mode's near-goal attenuation starts within it; a body whose "         \
           "nearest mesh point is farther from the agent's (a gap crossed) places it there")       \
  F(float, base_offset, "baseOffset", LB_FIELD_F32, .min = -10, .max = 10,                         \
    .doc = "metres from the mesh surface to the Transform (Recast meshes sit a cell above the "    \
           "floor)")                                                                               \
  F(float, base_locomotion_param, "baseLocomotionParam", LB_FIELD_F32, .def = {1}, .min = 0,       \
    .max = 1000, .doc = "locomotion parameter value at full speed")                                \
  F(lb_name, locomotion_param, "locomotionParam", LB_FIELD_NAME, .def_string = "MoveSpeed",        \
    .doc = "Animator float parameter written each step; '' = none")                                \
  F(vec3, steering_target, "steeringTarget", LB_FIELD_VEC3, .min = -1e6f, .max = 1e6f,             \
    .flags = LB_FIELD_READONLY, .doc = "output: the next corner of the path")                      \
  F(float, remaining_distance, "remainingDistance", LB_FIELD_F32, .min = 0, .max = 1e9f,           \
    .flags = LB_FIELD_READONLY, .doc = "output: metres along the path to its end")                 \
  F(vec3, velocity, "velocity", LB_FIELD_VEC3, .min = -1e6f, .max = 1e6f,                          \
    .flags = LB_FIELD_READONLY, .doc = "output: metres per second over the last step")             \
  F(vec3, next_position, "nextPosition", LB_FIELD_VEC3, .min = -1e6f, .max = 1e6f,                 \
    .flags = LB_FIELD_READONLY, .doc = "output: the agent's point on the mesh")                    \
  F(uint32_t, path_status, "pathStatus", LB_FIELD_ENUM, .enum_names = "None|Complete|Partial",     \
    .flags = LB_FIELD_READONLY,                                                                    \
    .doc = "output: Partial = the goal is unreachable, the path ends nearest it")                  \
  F(uint32_t, arrived, "arrived", LB_FIELD_BOOL, .min = 0, .max = 1, .flags = LB_FIELD_READONLY,   \
    .doc = "output: within stoppingDistance of the path's end")                                    \
  F(float, locomotion_value, "locomotionValue", LB_FIELD_F32, .min = 0, .max = 1e9f,               \
    .flags = LB_FIELD_READONLY, .doc = "output: the locomotion parameter value of the last step")  \
  F(float, turn_angle, "turnAngle", LB_FIELD_F32, .min = -180, .max = 180,                         \
    .flags = LB_FIELD_READONLY,                                                                    \
    .doc = "output: degrees from facing to the steering target before the turn")                   \
  F(vec3, desired_velocity, "desiredVelocity", LB_FIELD_VEC3, .min = -1e6f, .max = 1e6f,           \
    .flags = LB_FIELD_READONLY,                                                                    \
    .doc = "output: m/s toward the steering target at movementSpeed (slower for the last step), "  \
           "after avoidance; what a game steers by in Manual")                                     \
  F(uint32_t, avoidance, "avoidance", LB_FIELD_BOOL, .def = {1}, .min = 0, .max = 1,               \
    .doc = "avoids other agents (ORCA, nav.h); off: it does not, and others avoid it alone")       \
  F(float, avoidance_radius, "avoidanceRadius", LB_FIELD_F32, .min = 0, .max = 10,                 \
    .doc = "metres kept clear of other agents; 0 = the CharacterController's radius, else 0.3")    \
  F(uint32_t, avoidance_priority, "avoidancePriority", LB_FIELD_U32, .def = {50}, .min = 0,        \
    .max = 99,                                                                                     \
    .doc = "0 = most important: of two agents the higher number takes 3/4 of the avoidance, "      \
           "equal numbers half each")                                                              \
  F(uint32_t, avoidance_layers, "avoidanceLayers", LB_FIELD_U32, .def = {1}, .min = 0,             \
    .max = 4294967295.0f, .doc = "layer bits the agent is on, for other agents' avoidanceMask")    \
  F(uint32_t, avoidance_mask, "avoidanceMask", LB_FIELD_U32, .def = {16777215.0f}, .min = 0,       \
    .max = 4294967295.0f,                                                                          \
    .doc = "agents it avoids: those whose avoidanceLayers share a bit (default 0xFFFFFF)")         \
  F(uint32_t, neighbours, "neighbours", LB_FIELD_U32, .min = 0, .max = 4294967295.0f,              \
    .flags = LB_FIELD_READONLY, .doc = "output: agents avoided in the last step")
LB_COMPONENT_STRUCT(lb_nav_agent_c, LB_NAV_AGENT_FIELDS);

typedef enum lb_nav_drive_mode {
  LB_NAV_DRIVE_DESTINATION = 0,
  LB_NAV_DRIVE_ROOT_MOTION = 1,
  LB_NAV_DRIVE_BOTH = 2,
  /* the game moves, turns and animates the character (world.controller.move, Animator parameters,
   * root motion); the agent follows the Transform on the mesh and only reports (steeringTarget,
   * desiredVelocity, locomotionValue: the value the game may set) */
  LB_NAV_DRIVE_MANUAL = 3
} lb_nav_drive_mode;

/* The schema rows of a field list, for `static const lb_field rows[] =
 * {LB_<NAME>_FIELDS(LB_SCHEMA_ROW)}` with LB_SCHEMA_STRUCT defined as the struct. */
#define LB_SCHEMA_ROW(ctype, member, nm, ty, ...)                                                  \
  {.name = nm,                                                                                     \
   .type = ty,                                                                                     \
   .offset = (uint32_t)offsetof(LB_SCHEMA_STRUCT, member),                                         \
   .size = (uint32_t)sizeof(((LB_SCHEMA_STRUCT *)0)->member),                                      \
   __VA_ARGS__},

/* ---- Vault (see vault.h for the probe, the states and the rules) ---------------------------- */

/* On a character with a CharacterController (an Animator and a Rig are optional): a request
 * probes the obstacle ahead (sphere casts, vault.h) and, when it is vaultable,
 * vaults it: the Animator's trigger, the controller shrunk over the obstacle and restored, a
 * hand planted on the top. Character-space and world-space outputs in metres. */
#define LB_VAULT_FIELDS(F)                                                                         \
  F(uint32_t, layer_mask, "layerMask", LB_FIELD_U32, .def = {16777215.0f}, .min = 0,               \
    .max = 4294967295.0f,                                                                          \
    .doc = "collider layers the probe and the casts see (default 0xFFFFFF: layers 0-23)")          \
  F(float, max_distance, "maxDistance", LB_FIELD_F32, .def = {1.5f}, .min = 0.01f, .max = 100,     \
    .doc = "metres ahead the forward casts search for an obstacle")                                \
  F(float, hand_radius, "handRadius", LB_FIELD_F32, .def = {0.1f}, .min = 0.001f, .max = 1,        \
    .doc = "radius of the probe spheres (the hand), metres")                                       \
  F(vec3, hand_origin, "handLocalOrigin", LB_FIELD_VEC3, .def = {0, 1.1f}, .min = -10, .max = 10,  \
    .doc = "where the casts start, character space (feet at 0, +Z forward), metres")               \
  F(uint32_t, cast_down_limit, "castDownCountLimit", LB_FIELD_U32, .def = {6}, .min = 1,           \
    .max = 64,                                                                                     \
    .doc = "height check: the forward cast steps down one radius at most this many times")         \
  F(uint32_t, cast_forward_limit, "castForwardCountLimit", LB_FIELD_U32, .def = {7}, .min = 1,     \
    .max = 64,                                                                                     \
    .doc = "depth check: the downward casts step forward one radius at most this many times")      \
  F(float, landing_distance, "landingDistance", LB_FIELD_F32, .def = {0.5f}, .min = 0, .max = 10,  \
    .doc =                                                                                         \
        "the landing spot is this far past the far face, metres (floor and room checks, scripted " \
        "travel)")                                                                                 \
  F(float, drop_limit, "dropLimit", LB_FIELD_F32, .def = {1}, .min = 0, .max = 100,                \
    .doc = "refuse when the floor at the landing is further than this below the feet, metres")     \
  F(float, clearance, "clearance", LB_FIELD_F32, .def = {0.2f}, .min = 0, .max = 2,                \
    .doc = "extra height the capsule is shrunk by above top - feet + hand diameter, metres")       \
  F(float, vault_duration, "vaultDuration", LB_FIELD_F32, .min = 0, .max = 60,                     \
    .doc = "seconds; 0 = the Animator's animState clip length / speeds (1.2 s without one)")       \
  F(lb_name, trigger, "trigger", LB_FIELD_NAME, .def_string = "Vault",                             \
    .doc = "Animator trigger parameter set on a vault ('' = none)")                                \
  F(lb_name, anim_state, "animState", LB_FIELD_NAME, .def_string = "Vault",                        \
    .doc = "Animator state the trigger enters: its clip gives the duration and the root motion")   \
  F(uint32_t, hand, "hand", LB_FIELD_ENUM, .def = {1}, .enum_names = "Right|Left",                 \
    .doc = "the hand planted on the top (needs a Rig)")                                            \
  F(lb_name, hand_joint, "handJoint", LB_FIELD_NAME, .def_string = "",                             \
    .doc = "that hand's joint path; '' = by name")                                                 \
  F(uint32_t, busy_hand, "busyHand", LB_FIELD_ENUM,                                                \
    .enum_names = "ReleaseAndRegrip|FreeHand|Refuse",                                              \
    .doc = "`hand` holds (GripHolder): ReleaseAndRegrip plants it if it is the support hand "      \
           "(the grip takes it back after), else the other hand; FreeHand plants a hand that "     \
           "holds nothing; Refuse refuses (HandBusy). The main hand is never planted")             \
  F(float, plant_time, "plantTime", LB_FIELD_F32, .def = {0.2f}, .min = 0.01f, .max = 1,           \
    .doc = "hand weight = normalised time / plantTime (capped at 1) until over the obstacle")      \
  F(float, body_shift, "bodyShift", LB_FIELD_F32, .def = {0.3f}, .min = 0, .max = 1,               \
    .doc = "a plant out of the arm's reach moves the whole pose toward it by up to this much, "    \
           "metres")                                                                               \
  F(float, release_seconds, "releaseSeconds", LB_FIELD_F32, .def = {0.15f}, .min = 0.01f,          \
    .max = 10, .doc = "after passing over, the hand weight falls to 0 over this many seconds")     \
  F(uint32_t, probe_every_step, "probeEveryStep", LB_FIELD_BOOL, .min = 0, .max = 1,               \
    .doc =                                                                                         \
        "when idle, probe every step so the outputs show what is ahead (else only on a request)")  \
  F(uint32_t, request, "request", LB_FIELD_BOOL, .min = 0, .max = 1,                               \
    .doc = "1 = vault now (the next Move phase takes and clears it; lb_world_vault_request)")      \
  F(uint32_t, state, "state", LB_FIELD_ENUM, .enum_names = "Idle|Vaulting|Over|Landing",           \
    .flags = LB_FIELD_READONLY, .doc = "output: vault state")                                      \
  F(uint32_t, obstacle_class, "obstacleClass", LB_FIELD_ENUM,                                      \
    .enum_names = "None|StepOver|Vault|Mantle|TooTall", .flags = LB_FIELD_READONLY,                \
    .doc = "output: the last probe's class of the obstacle ahead")                                 \
  F(uint32_t, refusal, "refusal", LB_FIELD_ENUM,                                                   \
    .enum_names = "None|NotVaultable|NoFloor|NoRoom|Busy|NoTop|HandBusy",                          \
    .flags = LB_FIELD_READONLY,                                                                    \
    .doc = "output: why the last request was refused (None: accepted)")                            \
  F(lb_entity, obstacle, "obstacle", LB_FIELD_ENTITY, .flags = LB_FIELD_READONLY,                  \
    .doc = "output: the obstacle's collider entity, null if none")                                 \
  F(vec3, top, "top", LB_FIELD_VEC3, .min = -1e9f, .max = 1e9f, .flags = LB_FIELD_READONLY,        \
    .doc = "output: top point at the near face, world (follows a moving obstacle in a vault)")     \
  F(float, height, "height", LB_FIELD_F32, .min = -1e9f, .max = 1e9f, .flags = LB_FIELD_READONLY,  \
    .doc = "output: the obstacle's top above the feet, metres")                                    \
  F(float, depth, "depth", LB_FIELD_F32, .min = 0, .max = 1e9f, .flags = LB_FIELD_READONLY,        \
    .doc = "output: near face to far face along forward, metres (Vault class only)")               \
  F(float, distance, "distance", LB_FIELD_F32, .min = 0, .max = 1e9f, .flags = LB_FIELD_READONLY,  \
    .doc = "output: feet to the near face along forward, metres")                                  \
  F(float, height_delta, "heightDelta", LB_FIELD_F32, .min = 0, .max = 1e9f,                       \
    .flags = LB_FIELD_READONLY,                                                                    \
    .doc = "output: capsule shrink of the vault (top - feet + 2 handRadius + clearance)")          \
  F(vec3, hand_target, "handTarget", LB_FIELD_VEC3, .min = -1e9f, .max = 1e9f,                     \
    .flags = LB_FIELD_READONLY, .doc = "output: palm centre target on the top, world")             \
  F(vec3, hand_normal, "handNormal", LB_FIELD_VEC3, .min = -1, .max = 1,                           \
    .flags = LB_FIELD_READONLY,                                                                    \
    .doc = "output: the top's normal at the target (the palm faces against it)")                   \
  F(float, hand_weight, "handWeight", LB_FIELD_F32, .min = 0, .max = 1,                            \
    .flags = LB_FIELD_READONLY, .doc = "output: hand IK weight 0..1")                              \
  F(uint32_t, planted_hand, "plantedHand", LB_FIELD_ENUM, .enum_names = "None|Right|Left",         \
    .flags = LB_FIELD_READONLY, .doc = "output: the hand the vault drives (handWeight > 0)")       \
  F(uint32_t, hand_reached, "handReached", LB_FIELD_BOOL, .min = 0, .max = 1,                      \
    .flags = LB_FIELD_READONLY,                                                                    \
    .doc = "output: handWeight 1 and the final pose's palm centre within 5 mm of handTarget")      \
  F(float, body_offset, "bodyOffset", LB_FIELD_F32, .min = 0, .max = 1e9f,                         \
    .flags = LB_FIELD_READONLY,                                                                    \
    .doc = "output: how far the pose was moved toward the plant this step, metres")                \
  F(float, palm_gap, "palmGap", LB_FIELD_F32, .min = -1e9f, .max = 1e9f,                           \
    .flags = LB_FIELD_READONLY,                                                                    \
    .doc = "output: palm centre above the top's plane on the step's final pose, metres")           \
  F(float, palm_error, "palmError", LB_FIELD_F32, .min = 0, .max = 1e9f,                           \
    .flags = LB_FIELD_READONLY,                                                                    \
    .doc = "output: palm centre to handTarget on the step's final pose, metres")                   \
  F(float, time, "normalizedTime", LB_FIELD_F32, .min = 0, .max = 1, .flags = LB_FIELD_READONLY,   \
    .doc = "output: vault progress 0..1")                                                          \
  F(float, duration, "duration", LB_FIELD_F32, .min = 0, .max = 1e9f, .flags = LB_FIELD_READONLY,  \
    .doc = "output: seconds the current (last) vault takes")                                       \
  F(uint32_t, root_motion, "rootMotion", LB_FIELD_BOOL, .min = 0, .max = 1,                        \
    .flags = LB_FIELD_READONLY,                                                                    \
    .doc = "output: the vault moves by the Animator's root motion (else scripted)")                \
  F(uint32_t, vaults, "vaults", LB_FIELD_U32, .min = 0, .max = 4294967295.0f,                      \
    .flags = LB_FIELD_READONLY, .doc = "output: vaults started so far")                            \
  F(uint32_t, refusals, "refusals", LB_FIELD_U32, .min = 0, .max = 4294967295.0f,                  \
    .flags = LB_FIELD_READONLY, .doc = "output: requests refused so far")
LB_COMPONENT_STRUCT(lb_vault_c, LB_VAULT_FIELDS);

#ifdef __cplusplus
}
#endif
#endif
