/* Captured finger poses: a hand's joint rotations as JSON, and a per-world store of them
 * for GripProfile. They name bones, so they belong to one skeleton and never mirror. */
#include "../base/format.h"
#include "../base/json.h"
#include "grip_internal.h"
#include <string.h>

lb_result lb_world_capture_finger_pose(lb_world *w, uint32_t e, const char *hand_joint, char *buf,
                                       size_t cap, size_t *needed) {
  if (!w || !hand_joint || !needed || (cap && !buf)) {
    return w ? lb_fail(w, LB_ERR_INVALID_ARGUMENT, "captureFingerPose: null argument")
             : LB_ERR_INVALID_ARGUMENT;
  }
  char lbl[48];
  int s = lb_slot_checked(w, e, "captureFingerPose");
  if (s < 0) {
    return LB_ERR_STALE_ENTITY;
  }
  if (!lb_slot_has(w, (uint32_t)s, LB_RIG)) {
    return lb_fail(w, LB_ERR_MISSING_COMPONENT, "captureFingerPose: %s has no Rig",
                   lb_entity_label(e, lbl, sizeof lbl));
  }
  const lb_rig_instance *inst = lb_rig_of_slot(w, (uint32_t)s);
  const lb_skeleton *sk = lb_skeleton_get(w, inst->asset);
  int hand = lb_skeleton_lookup(sk, hand_joint);
  if (hand < 0) {
    return lb_fail(w, LB_ERR_JOINT_NOT_FOUND, "captureFingerPose on %s: no joint '%s'",
                   lb_entity_label(e, lbl, sizeof lbl), hand_joint);
  }
  uint32_t end = sk->subtree_end[hand];
  if (end - (uint32_t)hand - 1u > LB_FINGER_POSE_JOINTS_MAX) {
    return lb_fail(w, LB_ERR_CAPACITY, "captureFingerPose on %s: more than %d joints below '%s'",
                   lb_entity_label(e, lbl, sizeof lbl), LB_FINGER_POSE_JOINTS_MAX, hand_joint);
  }
  const lb_transform *local = inst->local;
  size_t n = 0;
  char tmp[256];
  /* Two passes in one: count everything, copy what fits. */
#define LB_EMIT(...)                                                                               \
  do {                                                                                             \
    int k_ = lb_snprintf(tmp, sizeof tmp, __VA_ARGS__);                                            \
    if (k_ > 0) {                                                                                  \
      if (n + (size_t)k_ < cap) {                                                                  \
        memcpy(buf + n, tmp, (size_t)k_);                                                          \
      }                                                                                            \
      n += (size_t)k_;                                                                             \
    }                                                                                              \
  } while (0)
  LB_EMIT("{\"hand\":\"%s\",\"joints\":{", sk->names[hand]);
  for (uint32_t j = (uint32_t)hand + 1u; j < end; ++j) {
    const float *r = local[j].r;
    LB_EMIT("%s\"%s\":[%.9g,%.9g,%.9g,%.9g]", j == (uint32_t)hand + 1u ? "" : ",", sk->names[j],
            (double)r[0], (double)r[1], (double)r[2], (double)r[3]);
  }
  LB_EMIT("}}");
#undef LB_EMIT
  if (n < cap) {
    buf[n] = 0;
  } else if (cap) {
    buf[0] = 0;
  }
  *needed = n;
  lb_diag_clear(&w->diag);
  return LB_OK;
}

static bool lb_joint_in_world(const lb_world *w, const char *name) {
  for (uint32_t a = 1; a <= lb_rig_world_of(w)->skeleton_count; ++a) {
    const lb_skeleton *sk = lb_skeleton_get(w, a);
    for (uint32_t j = 0; sk && j < sk->joint_count; ++j) {
      if (strcmp(sk->names[j], name) == 0) {
        return true;
      }
    }
  }
  return false;
}

lb_finger_pose *lb_grip_find_finger_pose(const lb_world *w, const char *name) {
  const lb_grip_world *gw = lb_grip_world_of(w);
  for (uint32_t i = 0; name && name[0] && i < gw->finger_pose_count; ++i) {
    if (strcmp(gw->finger_poses[i]->name, name) == 0) {
      return gw->finger_poses[i];
    }
  }
  return NULL;
}

bool lb_world_has_finger_pose(const lb_world *w, const char *name) {
  return w && lb_grip_find_finger_pose(w, name) != NULL;
}

static lb_result lb_parse_finger_pose(lb_world *w, const char *name, const cJSON *root,
                                      lb_finger_pose *out) {
  const char *where = "registerFingerPose";
  if (!cJSON_IsObject(root)) {
    return lb_fail(w, LB_ERR_PARSE, "%s '%s': the pose must be a JSON object", where, name);
  }
  for (const cJSON *k = root->child; k; k = k->next) {
    if (strcmp(k->string, "hand") != 0 && strcmp(k->string, "joints") != 0) {
      return lb_fail(w, LB_ERR_PARSE, "%s '%s': unknown key '%s' (expected hand, joints)", where,
                     name, k->string);
    }
  }
  const cJSON *hand = cJSON_GetObjectItemCaseSensitive(root, "hand");
  if (hand && !cJSON_IsString(hand)) {
    return lb_fail(w, LB_ERR_PARSE, "%s '%s': 'hand' must be a string", where, name);
  }
  const cJSON *joints = cJSON_GetObjectItemCaseSensitive(root, "joints");
  if (!cJSON_IsObject(joints)) {
    return lb_fail(w, LB_ERR_PARSE, "%s '%s': 'joints' must be an object of name: [x,y,z,w]", where,
                   name);
  }
  for (const cJSON *j = joints->child; j; j = j->next) {
    if (out->count == LB_FINGER_POSE_JOINTS_MAX) {
      return lb_fail(w, LB_ERR_CAPACITY, "%s '%s': more than %d joints", where, name,
                     LB_FINGER_POSE_JOINTS_MAX);
    }
    if (strlen(j->string) >= LB_JOINT_NAME_MAX || !lb_joint_in_world(w, j->string)) {
      return lb_fail(w, LB_ERR_JOINT_NOT_FOUND,
                     "%s '%s': joint '%.63s' is not in any skeleton of this world", where, name,
                     j->string);
    }
    if (!cJSON_IsArray(j) || cJSON_GetArraySize(j) != 4) {
      return lb_fail(w, LB_ERR_PARSE, "%s '%s': joints.%s must be [x, y, z, w]", where, name,
                     j->string);
    }
    float *q = out->rotations[out->count];
    int i = 0;
    for (const cJSON *v = j->child; v; v = v->next, ++i) {
      /* cJSON turns overflowing literals into +-Inf and "nan" is not JSON, so finite
       * doubles are the only numbers that pass. */
      if (!cJSON_IsNumber(v) || !(v->valuedouble >= -1e30 && v->valuedouble <= 1e30)) {
        return lb_fail(w, cJSON_IsNumber(v) ? LB_ERR_NOT_FINITE : LB_ERR_PARSE,
                       "%s '%s': joints.%s[%d] must be a finite number", where, name, j->string, i);
      }
      q[i] = (float)v->valuedouble;
    }
    float n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    if (!(n2 > 1e-12f) || !lb_is_finite(n2)) {
      return lb_fail(w, LB_ERR_OUT_OF_RANGE, "%s '%s': joints.%s is not a rotation", where, name,
                     j->string);
    }
    lb_quat_normalize(q);
    strcpy(out->joints[out->count], j->string);
    out->count++;
  }
  return LB_OK;
}

lb_result lb_world_register_finger_pose(lb_world *w, const char *name, const char *json,
                                        size_t len) {
  if (!w || !name || !json) {
    return w ? lb_fail(w, LB_ERR_INVALID_ARGUMENT, "registerFingerPose: null argument")
             : LB_ERR_INVALID_ARGUMENT;
  }
  size_t nl = strlen(name);
  if (nl == 0 || nl >= LB_POSE_NAME_MAX) {
    return lb_fail(w, LB_ERR_OUT_OF_RANGE, "registerFingerPose: name must be 1..%d bytes",
                   LB_POSE_NAME_MAX - 1);
  }
  if (lb_names_refusal(name, nl)) {
    return lb_fail(w, LB_ERR_OUT_OF_RANGE, "registerFingerPose: the name %s",
                   lb_names_refusal(name, nl));
  }
  lb_grip_world *gw = lb_grip_world_of(w);
  /* One name, one pose: a GripPose.pose naming both kinds would silently pick one. */
  lb_grip_pose_def shadowed;
  if (lb_grip_pose_registry_find(gw->poses, name, &shadowed) == LB_OK) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT,
                   "registerFingerPose '%s': a grip pose has that name (built-in or from "
                   "registerGripPose); finger poses and grip poses share one namespace: pick "
                   "another name",
                   name);
  }
  lb_finger_pose *existing = lb_grip_find_finger_pose(w, name);
  if (!existing && gw->finger_pose_count == LB_FINGER_POSE_MAX) {
    return lb_fail(w, LB_ERR_CAPACITY, "registerFingerPose '%s': %d poses already registered", name,
                   LB_FINGER_POSE_MAX);
  }
  /* The name's id and room in the ref table, before anything changes. */
  lb_name id = 0;
  if (lb_names_intern(&w->names, name, nl, &id) != LB_OK || lb_grip_set_ref(w, id, 0) != LB_OK) {
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "registerFingerPose '%s': out of memory", name);
  }
  lb_json_error jerr;
  cJSON *root = lb_json_parse(json, len, &jerr);
  if (!root) {
    return lb_fail(w, LB_ERR_PARSE, "registerFingerPose '%s': %s", name, jerr.what);
  }
  lb_finger_pose *pose = lb_alloc(w, sizeof *pose);
  lb_result r = pose ? lb_parse_finger_pose(w, name, root, pose)
                     : lb_fail(w, LB_ERR_OUT_OF_MEMORY, "registerFingerPose: out of memory");
  cJSON_Delete(root);
  if (r != LB_OK) {
    lb_free(w, pose);
    return r;
  }
  strcpy(pose->name, name);
  pose->serial = ++gw->finger_pose_serial;
  int32_t index = -1;
  if (existing) {
    for (uint32_t i = 0; i < gw->finger_pose_count; ++i) {
      if (gw->finger_poses[i] == existing) {
        gw->finger_poses[i] = pose;
        index = (int32_t)i;
      }
    }
    lb_free(w, existing);
  } else {
    index = (int32_t)gw->finger_pose_count;
    gw->finger_poses[gw->finger_pose_count++] = pose;
  }
  for (uint32_t i = 0; i < gw->hand_def_count; ++i) {
    lb_grip_hand_def_map_pose(w, gw->hand_defs[i], (uint32_t)index);
  }
  /* A grip pose of the same name keeps the name (grip poses come first). */
  if (lb_grip_pose_ref(w, id) <= 0) {
    lb_grip_set_ref(w, id, -(index + 1));
  }
  lb_diag_clear(&w->diag);
  return LB_OK;
}
