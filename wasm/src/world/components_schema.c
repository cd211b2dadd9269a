/* The one place component fields are described: names as the TS API and scene
 * JSON spell them, defaults, ranges and units. */
#include "limber/components.h"
#include "limber/schema.h"
#include <stddef.h>
#include <string.h>

#define LB_F(st, member, nm, ty, d0, d1, d2, d3, lo, hi, en, ds, fl, dc)                           \
  {                                                                                                \
    nm, ty, (uint32_t)offsetof(st, member), (uint32_t)sizeof(((st *)0)->member), {d0, d1, d2, d3}, \
        lo, hi, en, ds, fl, dc                                                                     \
  }

static const lb_field lb_transform_fields[] = {
    LB_F(lb_transform_c, position, "position", LB_FIELD_VEC3, 0, 0, 0, 0, -1e6f, 1e6f, NULL, NULL,
         0, "metres, local to parent"),
    LB_F(lb_transform_c, rotation, "rotation", LB_FIELD_QUAT, 0, 0, 0, 1, -1e6f, 1e6f, NULL, NULL,
         0, "unit quaternion [x, y, z, w], normalised on write"),
    LB_F(lb_transform_c, scale, "scale", LB_FIELD_VEC3, 1, 1, 1, 0, 1e-6f, 1e4f, NULL, NULL, 0,
         "per-axis scale"),
    LB_F(lb_transform_c, parent, "parent", LB_FIELD_ENTITY, 0, 0, 0, 0, 0, 0, NULL, NULL, 0,
         "parent entity or null"),
    LB_F(lb_transform_c, parent_joint, "parentJoint", LB_FIELD_STRING, 0, 0, 0, 0, 0, 0, NULL, "",
         0, "joint path or name in the parent's rig, '' = the parent itself"),
};

static const lb_field lb_rig_fields[] = {
    LB_F(lb_rig_c, asset, "asset", LB_FIELD_ASSET, 0, 0, 0, 0, 1, 4294967295.0f, NULL, NULL, 0,
         "skeleton asset handle"),
};

static const lb_field lb_two_bone_ik_fields[] = {
    LB_F(lb_two_bone_ik_c, rig, "rig", LB_FIELD_ENTITY, 0, 0, 0, 0, 0, 0, NULL, NULL, 0,
         "entity with the Rig; null = this entity"),
    LB_F(lb_two_bone_ik_c, tip, "tip", LB_FIELD_STRING, 0, 0, 0, 0, 0, 0, NULL, "RightHand", 0,
         "end joint path or name; its parent and grandparent are mid and root"),
    LB_F(lb_two_bone_ik_c, target, "target", LB_FIELD_ENTITY, 0, 0, 0, 0, 0, 0, NULL, NULL, 0,
         "entity whose world position (and rotation) the tip reaches"),
    LB_F(lb_two_bone_ik_c, hint, "hint", LB_FIELD_ENTITY, 0, 0, 0, 0, 0, 0, NULL, NULL, 0,
         "optional pole entity for a straight limb"),
    LB_F(lb_two_bone_ik_c, weight, "weight", LB_FIELD_F32, 1, 0, 0, 0, 0, 1, NULL, NULL, 0,
         "position weight 0..1"),
    LB_F(lb_two_bone_ik_c, rotation_weight, "rotationWeight", LB_FIELD_F32, 0, 0, 0, 0, 0, 1, NULL,
         NULL, 0, "tip rotation weight 0..1"),
    LB_F(lb_two_bone_ik_c, soften, "soften", LB_FIELD_F32, 1, 0, 0, 0, 0, 1, NULL, NULL, 0,
         "reach share before easing, 1 = off"),
    LB_F(lb_two_bone_ik_c, reached, "reached", LB_FIELD_BOOL, 0, 0, 0, 0, 0, 1, NULL, NULL,
         LB_FIELD_READONLY, "output: tip within 0.1 mm of the target"),
    LB_F(lb_two_bone_ik_c, distance, "distance", LB_FIELD_F32, 0, 0, 0, 0, 0, 1e9f, NULL, NULL,
         LB_FIELD_READONLY, "output: metres left to the target"),
};

#define LB_STR(st, member, nm, def, doc)                                                           \
  LB_F(st, member, nm, LB_FIELD_STRING, 0, 0, 0, 0, 0, 0, NULL, def, 0, doc)
#define LB_UNIT(st, member, nm, def, doc)                                                          \
  LB_F(st, member, nm, LB_FIELD_F32, def, 0, 0, 0, 0, 1, NULL, NULL, 0, doc)
#define LB_OUT_F32(st, member, nm, doc)                                                            \
  LB_F(st, member, nm, LB_FIELD_F32, 0, 0, 0, 0, 0, 1e9f, NULL, NULL, LB_FIELD_READONLY, doc)
#define LB_OUT_BOOL(st, member, nm, doc)                                                           \
  LB_F(st, member, nm, LB_FIELD_BOOL, 0, 0, 0, 0, 0, 1, NULL, NULL, LB_FIELD_READONLY, doc)

static const lb_field lb_grip_surface_fields[] = {
    LB_F(lb_grip_surface_c, shape, "shape", LB_FIELD_ENUM, 0, 0, 0, 0, 0, 0,
         "Cylinder|Capsule|Sphere|Box", NULL, 0, "shape kind"),
    LB_F(lb_grip_surface_c, direction, "direction", LB_FIELD_ENUM, 1, 0, 0, 0, 0, 0, "X|Y|Z", NULL,
         0, "axis of a cylinder or capsule, in the entity's frame"),
    LB_F(lb_grip_surface_c, center, "center", LB_FIELD_VEC3, 0, 0, 0, 0, -1e4f, 1e4f, NULL, NULL, 0,
         "centre, entity units"),
    LB_F(lb_grip_surface_c, radius, "radius", LB_FIELD_F32, 0.02f, 0, 0, 0, 1e-5f, 100, NULL, NULL,
         0, "cylinder, capsule or sphere radius, entity units"),
    LB_F(lb_grip_surface_c, height, "height", LB_FIELD_F32, 0.1f, 0, 0, 0, 1e-5f, 1e4f, NULL, NULL,
         0, "total length of a cylinder or capsule (capsule incl. caps), entity units"),
    LB_F(lb_grip_surface_c, size, "size", LB_FIELD_VEC3, 0.1f, 0.1f, 0.1f, 0, 1e-5f, 1e4f, NULL,
         NULL, 0, "box full extents, entity units"),
};

static const lb_field lb_grip_profile_fields[] = {
    LB_F(lb_grip_profile_c, main_anchor, "mainAnchor", LB_FIELD_ENTITY, 0, 0, 0, 0, 0, 0, NULL,
         NULL, 0, "palm anchor of the main hand (origin palm centre, +Z fingers, +Y palm)"),
    LB_F(lb_grip_profile_c, support_anchor, "supportAnchor", LB_FIELD_ENTITY, 0, 0, 0, 0, 0, 0,
         NULL, NULL, 0, "palm anchor of the support hand; null = one-handed"),
    LB_STR(lb_grip_profile_c, main_pose, "mainPose", "handle",
           "GripPose name or registered finger pose for the main hand; '' = none"),
    LB_STR(lb_grip_profile_c, support_pose, "supportPose", "support",
           "GripPose name or registered finger pose for the support hand; '' = none"),
    LB_STR(lb_grip_profile_c, main_fingers, "mainFingers", "",
           "per-joint GripPose JSON for the main hand; overrides mainPose"),
    LB_STR(lb_grip_profile_c, support_fingers, "supportFingers", "",
           "per-joint GripPose JSON for the support hand; overrides supportPose"),
    LB_F(lb_grip_profile_c, hand, "hand", LB_FIELD_ENUM, 0, 0, 0, 0, 0, 0, "Right|Left", NULL, 0,
         "the hand the anchors were placed for"),
    LB_F(lb_grip_profile_c, mirror, "mirror", LB_FIELD_ENUM, 0, 0, 0, 0, 0, 0, "X|Y|Z", NULL, 0,
         "object plane (by its normal axis) that mirrors the anchors for the other hand"),
    LB_F(lb_grip_profile_c, wrap, "wrap", LB_FIELD_BOOL, 1, 0, 0, 0, 0, 1, NULL, NULL, 0,
         "fingers close onto the object's GripSurface shapes"),
};

static const lb_field lb_grip_pose_fields[] = {
    LB_STR(lb_grip_pose_c, right_pose, "rightPose", "", "right hand pose name; '' = animation"),
    LB_STR(lb_grip_pose_c, left_pose, "leftPose", "", "left hand pose name; '' = animation"),
    LB_UNIT(lb_grip_pose_c, right_weight, "rightWeight", 1, "right pose over the animation 0..1"),
    LB_UNIT(lb_grip_pose_c, left_weight, "leftWeight", 1, "left pose over the animation 0..1"),
    LB_UNIT(lb_grip_pose_c, right_trigger, "rightTrigger", 0, "right index resting 0 .. pulled 1"),
    LB_UNIT(lb_grip_pose_c, left_trigger, "leftTrigger", 0, "left index resting 0 .. pulled 1"),
    LB_F(lb_grip_pose_c, blend_seconds, "blendSeconds", LB_FIELD_F32, 0.2f, 0, 0, 0, 0, 10, NULL,
         NULL, 0, "seconds to ease from one pose to the next"),
    LB_STR(lb_grip_pose_c, right_hand, "rightHand", "", "right hand joint path; '' = by name"),
    LB_STR(lb_grip_pose_c, left_hand, "leftHand", "", "left hand joint path; '' = by name"),
    LB_STR(lb_grip_pose_c, right_fingers, "rightFingerRoots", "",
           "right finger roots thumb,index,middle,ring,pinky for unnamed fingers; '' = by name"),
    LB_STR(lb_grip_pose_c, left_fingers, "leftFingerRoots", "",
           "left finger roots thumb,index,middle,ring,pinky for unnamed fingers; '' = by name"),
};

static const lb_field lb_grip_holder_fields[] = {
    LB_F(lb_grip_holder_c, held, "held", LB_FIELD_ENTITY, 0, 0, 0, 0, 0, 0, NULL, NULL, 0,
         "held object (with GripProfile); null = let go"),
    LB_F(lb_grip_holder_c, main_hand, "mainHand", LB_FIELD_ENUM, 0, 0, 0, 0, 0, 0, "Right|Left",
         NULL, 0, "the hand at the main anchor"),
    LB_F(lb_grip_holder_c, placement, "placement", LB_FIELD_ENUM, 0, 0, 0, 0, 0, 0, "Hand|Object",
         NULL, 0, "Hand: object follows the main hand; Object: main arm reaches the object"),
    LB_UNIT(lb_grip_holder_c, weight, "weight", 1, "grip over the animation 0..1"),
    LB_UNIT(lb_grip_holder_c, support_weight, "supportWeight", 1, "support hand share 0..1"),
    LB_F(lb_grip_holder_c, blend_seconds, "blendSeconds", LB_FIELD_F32, 0.25f, 0, 0, 0, 0, 10, NULL,
         NULL, 0, "seconds to ease on grab, release and switch"),
    LB_UNIT(lb_grip_holder_c, shoulder_assist, "shoulderAssist", 0,
            "share of an out-of-reach gap closed by clavicle and spine lean 0..1"),
    LB_STR(lb_grip_holder_c, right_hand, "rightHand", "", "right hand joint path; '' = by name"),
    LB_STR(lb_grip_holder_c, left_hand, "leftHand", "", "left hand joint path; '' = by name"),
    LB_OUT_F32(lb_grip_holder_c, main_distance, "mainDistance",
               "output: metres from the main palm centre to its anchor"),
    LB_OUT_F32(lb_grip_holder_c, support_distance, "supportDistance",
               "output: metres from the support palm centre to its anchor"),
    LB_OUT_BOOL(lb_grip_holder_c, main_reached, "mainReached",
                "output: main palm centre within 0.5 mm of its anchor"),
    LB_OUT_BOOL(lb_grip_holder_c, support_reached, "supportReached",
                "output: support palm centre within 0.5 mm of its anchor"),
};

static const lb_field lb_animator_fields[] = {
    LB_F(lb_animator_c, controller, "controller", LB_FIELD_ASSET, 0, 0, 0, 0, 1, 4294967295.0f,
         NULL, NULL, 0, "controller asset handle (scenes: its name)"),
    LB_F(lb_animator_c, apply_root_motion, "applyRootMotion", LB_FIELD_BOOL, 1, 0, 0, 0, 0, 1, NULL,
         NULL, 0, "the Move phase moves the Transform by the root motion"),
    LB_F(lb_animator_c, speed, "speed", LB_FIELD_F32, 1, 0, 0, 0, 0, 10, NULL, NULL, 0,
         "playback multiplier 0..10"),
    LB_F(lb_animator_c, root_motion_vertical, "rootMotionVertical", LB_FIELD_BOOL, 0, 0, 0, 0, 0, 1,
         NULL, NULL, 0, "root motion includes the vertical axis"),
    LB_F(lb_animator_c, state, "state", LB_FIELD_STRING, 0, 0, 0, 0, 0, 0, NULL, "",
         LB_FIELD_READONLY, "output: current state name"),
    LB_OUT_F32(lb_animator_c, state_time, "stateTime", "output: seconds in the current state"),
    LB_OUT_F32(lb_animator_c, blend, "blend", "output: cross-fade progress 0..1, 1 = settled"),
};

#define LB_COUNT(a) (uint32_t)(sizeof(a) / sizeof((a)[0]))

static const lb_component_info lb_components[LB_COMPONENT_TYPE_COUNT] = {
    [LB_TRANSFORM] = {"Transform", sizeof(lb_transform_c), LB_COUNT(lb_transform_fields),
                      lb_transform_fields},
    [LB_RIG] = {"Rig", sizeof(lb_rig_c), LB_COUNT(lb_rig_fields), lb_rig_fields},
    [LB_TWO_BONE_IK] = {"TwoBoneIK", sizeof(lb_two_bone_ik_c), LB_COUNT(lb_two_bone_ik_fields),
                        lb_two_bone_ik_fields},
    [LB_GRIP_SURFACE] = {"GripSurface", sizeof(lb_grip_surface_c), LB_COUNT(lb_grip_surface_fields),
                         lb_grip_surface_fields},
    [LB_GRIP_PROFILE] = {"GripProfile", sizeof(lb_grip_profile_c), LB_COUNT(lb_grip_profile_fields),
                         lb_grip_profile_fields},
    [LB_GRIP_POSE] = {"GripPose", sizeof(lb_grip_pose_c), LB_COUNT(lb_grip_pose_fields),
                      lb_grip_pose_fields},
    [LB_GRIP_HOLDER] = {"GripHolder", sizeof(lb_grip_holder_c), LB_COUNT(lb_grip_holder_fields),
                        lb_grip_holder_fields},
    [LB_ANIMATOR] = {"Animator", sizeof(lb_animator_c), LB_COUNT(lb_animator_fields),
                     lb_animator_fields},
};

_Static_assert(sizeof(lb_transform_c) <= LB_COMPONENT_MAX_SIZE &&
                   sizeof(lb_two_bone_ik_c) <= LB_COMPONENT_MAX_SIZE &&
                   sizeof(lb_grip_surface_c) <= LB_COMPONENT_MAX_SIZE &&
                   sizeof(lb_grip_profile_c) <= LB_COMPONENT_MAX_SIZE &&
                   sizeof(lb_grip_pose_c) <= LB_COMPONENT_MAX_SIZE &&
                   sizeof(lb_grip_holder_c) <= LB_COMPONENT_MAX_SIZE &&
                   sizeof(lb_animator_c) <= LB_COMPONENT_MAX_SIZE,
               "a component outgrew LB_COMPONENT_MAX_SIZE");

uint32_t lb_component_count(void) {
  return LB_COMPONENT_TYPE_COUNT;
}

const lb_component_info *lb_component_info_get(uint32_t type) {
  return type < LB_COMPONENT_TYPE_COUNT ? &lb_components[type] : NULL;
}

int lb_component_find(const char *name) {
  for (uint32_t t = 0; name && t < LB_COMPONENT_TYPE_COUNT; ++t) {
    if (strcmp(lb_components[t].name, name) == 0) {
      return (int)t;
    }
  }
  return -1;
}

void lb_component_defaults(uint32_t type, void *out) {
  const lb_component_info *info = lb_component_info_get(type);
  if (!info) {
    return;
  }
  memset(out, 0, info->size);
  for (uint32_t i = 0; i < info->field_count; ++i) {
    const lb_field *f = &info->fields[i];
    uint8_t *p = (uint8_t *)out + f->offset;
    switch (f->type) {
    case LB_FIELD_F32:
    case LB_FIELD_VEC3:
    case LB_FIELD_QUAT:
      memcpy(p, f->def, f->size);
      break;
    case LB_FIELD_U32:
    case LB_FIELD_BOOL:
    case LB_FIELD_ENUM:
    case LB_FIELD_ASSET:
    case LB_FIELD_ENTITY: {
      uint32_t v = (uint32_t)f->def[0];
      memcpy(p, &v, sizeof v);
      break;
    }
    case LB_FIELD_STRING:
      if (f->def_string) {
        strncpy((char *)p, f->def_string, f->size - 1u);
      }
      break;
    }
  }
}

int lb_enum_index(const char *names, const char *name, size_t len) {
  int idx = 0;
  const char *p = names;
  while (p && *p) {
    const char *e = strchr(p, '|');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n == len && strncmp(p, name, len) == 0) {
      return idx;
    }
    ++idx;
    p = e ? e + 1 : NULL;
  }
  return -1;
}
