/* Captured finger poses: a hand's joint rotations as JSON, and a per-world store of them
 * for GripProfile. They name bones, so they belong to one skeleton and never mirror. */
#include "cJSON.h"
#include "grip_internal.h"
#include <stdio.h>
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
  const lb_skeleton *sk = lb_skeleton_get(w, w->rigs[s].asset);
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
  const lb_transform *local = w->rigs[s].local;
  size_t n = 0;
  char tmp[256];
  /* Two passes in one: count everything, copy what fits. */
#define LB_EMIT(...)                                                                               \
  do {                                                                                             \
    int k_ = snprintf(tmp, sizeof tmp, __VA_ARGS__);                                               \
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
  w->error[0] = 0;
  return LB_OK;
}

static bool lb_joint_in_world(const lb_world *w, const char *name) {
  for (uint32_t a = 1; a <= w->skeleton_count; ++a) {
    const lb_skeleton *sk = lb_skeleton_get(w, a);
    for (uint32_t j = 0; sk && j < sk->joint_count; ++j) {
      if (strcmp(sk->names[j], name) == 0) {
        return true;
      }
    }
  }
  return false;
}

static lb_finger_pose *lb_find_finger_pose(const lb_world *w, const char *name) {
  for (uint32_t i = 0; i < w->finger_pose_count; ++i) {
    if (strcmp(w->finger_poses[i]->name, name) == 0) {
      return w->finger_poses[i];
    }
  }
  return NULL;
}

const lb_finger_pose *lb_grip_finger_pose(const lb_world *w, const char *name) {
  return name && name[0] ? lb_find_finger_pose(w, name) : NULL;
}

bool lb_world_has_finger_pose(const lb_world *w, const char *name) {
  return w && lb_grip_finger_pose(w, name) != NULL;
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
  lb_finger_pose *existing = lb_find_finger_pose(w, name);
  if (!existing && w->finger_pose_count == LB_FINGER_POSE_MAX) {
    return lb_fail(w, LB_ERR_CAPACITY, "registerFingerPose '%s': %d poses already registered", name,
                   LB_FINGER_POSE_MAX);
  }
  cJSON *root = cJSON_ParseWithLength(json, len);
  if (!root) {
    return lb_fail(w, LB_ERR_PARSE, "registerFingerPose '%s': malformed JSON", name);
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
  pose->serial = ++w->finger_pose_serial;
  if (existing) {
    for (uint32_t i = 0; i < w->finger_pose_count; ++i) {
      if (w->finger_poses[i] == existing) {
        w->finger_poses[i] = pose;
      }
    }
    lb_free(w, existing);
  } else {
    w->finger_poses[w->finger_pose_count++] = pose;
  }
  w->error[0] = 0;
  return LB_OK;
}
