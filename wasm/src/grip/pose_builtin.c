/* Built-in grip poses and the fixed-capacity pose registry (see limber/grip_pose.h).
 * Values were tuned on the procedural humanoid; the thumb targets of fist, pistol,
 * handle and pinch are within its reach (checked by tests/c/test_grip_pose.c). */
#include "limber/grip_pose.h"

#include <string.h>

typedef struct lb_builtin_finger {
  float curl, base, spread;
} lb_builtin_finger;

typedef struct lb_builtin_pose {
  const char *name;
  lb_builtin_finger fingers[4]; /* index, middle, ring, pinky */
  float opposition, gap;
  lb_thumb_target to;
  bool pistol_index; /* index: curl 0 + trigger shape (curl, base) below */
  float trigger_curl, trigger_base;
} lb_builtin_pose;

static const lb_builtin_pose lb_builtins[] = {
    {"open", {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}}, 0.0f, 0.0f, LB_THUMB_TO_FINGERS},
    {"relaxed",
     {{0.15f, 0.1f, 0.1f}, {0.2f, 0.15f, 0.05f}, {0.25f, 0.2f, 0.1f}, {0.3f, 0.25f, 0.2f}},
     0.25f,
     0.5f,
     LB_THUMB_TO_FINGERS},
    {"fist",
     {{1.0f, 1.0f, 0.0f}, {1.0f, 1.0f, 0.0f}, {1.0f, 1.0f, 0.0f}, {1.0f, 1.0f, 0.0f}},
     1.0f,
     0.05f,
     LB_THUMB_TO_FINGERS},
    {"pistol",
     {{0.0f, 0.15f, 0.0f}, {0.9f, 0.85f, 0.0f}, {0.9f, 0.85f, 0.0f}, {0.9f, 0.85f, 0.0f}},
     0.9f,
     0.15f,
     LB_THUMB_TO_FINGERS,
     true,
     0.55f,
     0.35f},
    {"support",
     {{0.55f, 0.5f, 0.1f}, {0.6f, 0.5f, 0.0f}, {0.6f, 0.5f, 0.1f}, {0.6f, 0.5f, 0.2f}},
     0.6f,
     0.5f,
     LB_THUMB_TO_FINGERS},
    {"handle",
     {{0.8f, 0.7f, 0.0f}, {0.85f, 0.7f, 0.0f}, {0.85f, 0.7f, 0.0f}, {0.9f, 0.75f, 0.0f}},
     1.0f,
     0.3f,
     LB_THUMB_TO_FINGERS},
    {"pinch",
     {{0.7f, 0.6f, 0.0f}, {0.7f, 0.6f, 0.0f}, {0.8f, 0.7f, 0.0f}, {0.85f, 0.75f, 0.0f}},
     1.0f,
     0.1f,
     LB_THUMB_TO_INDEX},
    {"cup",
     {{0.85f, 0.5f, 0.5f}, {0.85f, 0.5f, 0.5f}, {0.85f, 0.5f, 0.5f}, {0.85f, 0.5f, 0.5f}},
     0.7f,
     0.8f,
     LB_THUMB_TO_FINGERS},
};

#define LB_BUILTIN_COUNT (sizeof lb_builtins / sizeof lb_builtins[0])

static void lb_builtin_shape(lb_finger_shape *s, const lb_builtin_finger *b) {
  memset(s, 0, sizeof *s);
  if (b->curl != 0.0f) {
    s->set |= LB_SHAPE_CURL;
    s->curl = b->curl;
  }
  if (b->base != b->curl) {
    s->set |= LB_SHAPE_BASE;
    s->base = b->base;
  }
  if (b->spread != 0.0f) {
    s->set |= LB_SHAPE_SPREAD;
    s->spread = b->spread;
  }
}

static void lb_builtin_def(const lb_builtin_pose *p, lb_grip_pose_def *out) {
  lb_grip_pose_def d = lb_grip_pose_default_def();
  for (int i = 0; i < 4; ++i) {
    lb_builtin_shape(&d.fingers[LB_FINGER_INDEX + i].shape, &p->fingers[i]);
  }
  if (p->pistol_index) {
    lb_grip_finger_def *ix = &d.fingers[LB_FINGER_INDEX];
    ix->has_trigger = true;
    lb_builtin_finger t = {p->trigger_curl, p->trigger_base, 0.0f};
    lb_builtin_shape(&ix->trigger, &t);
  }
  d.thumb.opposition = p->opposition;
  d.thumb.gap = p->gap;
  d.thumb.to = p->to;
  *out = d;
}

lb_result lb_grip_pose_builtin(const char *name, lb_grip_pose_def *out) {
  if (!name || !out) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  for (size_t i = 0; i < LB_BUILTIN_COUNT; ++i) {
    if (strcmp(lb_builtins[i].name, name) == 0) {
      lb_builtin_def(&lb_builtins[i], out);
      return LB_OK;
    }
  }
  return LB_ERR_UNKNOWN_NAME;
}

uint32_t lb_grip_pose_builtin_count(void) {
  return (uint32_t)LB_BUILTIN_COUNT;
}

const char *lb_grip_pose_builtin_name(uint32_t i) {
  return i < LB_BUILTIN_COUNT ? lb_builtins[i].name : NULL;
}

/* Length of name up to `cap` (strnlen is POSIX, not C11). */
static size_t lb_name_len(const char *name, size_t cap) {
  size_t n = 0;
  while (n < cap && name[n] != '\0') {
    ++n;
  }
  return n;
}

static int lb_registry_slot(const lb_grip_pose_registry *reg, const char *name) {
  uint32_t n = reg->count < LB_GRIP_POSE_REGISTRY_MAX ? reg->count : LB_GRIP_POSE_REGISTRY_MAX;
  for (uint32_t i = 0; i < n; ++i) {
    if (strncmp(reg->names[i], name, LB_GRIP_POSE_NAME_MAX) == 0) {
      return (int)i;
    }
  }
  return -1;
}

lb_result lb_grip_pose_registry_set(lb_grip_pose_registry *reg, const char *name,
                                    const lb_grip_pose_def *def) {
  if (!reg || !name || !def) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  size_t len = lb_name_len(name, LB_GRIP_POSE_NAME_MAX);
  if (len == 0 || len >= LB_GRIP_POSE_NAME_MAX) {
    return LB_ERR_OUT_OF_RANGE;
  }
  lb_result r = lb_grip_pose_validate(def);
  if (r != LB_OK) {
    return r;
  }
  int slot = lb_registry_slot(reg, name);
  if (slot < 0) {
    if (reg->count >= LB_GRIP_POSE_REGISTRY_MAX) {
      return LB_ERR_CAPACITY;
    }
    slot = (int)reg->count++;
    memset(reg->names[slot], 0, LB_GRIP_POSE_NAME_MAX);
    memcpy(reg->names[slot], name, len);
  }
  reg->defs[slot] = *def;
  return LB_OK;
}

lb_result lb_grip_pose_registry_find(const lb_grip_pose_registry *reg, const char *name,
                                     lb_grip_pose_def *out) {
  if (!name || !out) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (reg) {
    int slot = lb_registry_slot(reg, name);
    if (slot >= 0 && lb_name_len(name, LB_GRIP_POSE_NAME_MAX) < LB_GRIP_POSE_NAME_MAX) {
      *out = reg->defs[slot];
      return LB_OK;
    }
  }
  return lb_grip_pose_builtin(name, out);
}
