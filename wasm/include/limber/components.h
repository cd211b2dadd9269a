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

typedef enum lb_component_type {
  LB_TRANSFORM = 0,
  LB_RIG = 1,
  LB_TWO_BONE_IK = 2,
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

#ifdef __cplusplus
}
#endif
#endif
