/* Grip pose defs: defaults, validation, the angles a finger gets, by-joint expansion
 * (see limber/grip_pose.h). */
#include "limber/grip_pose.h"

#include <string.h>

lb_grip_pose_def lb_grip_pose_default_def(void) {
  lb_grip_pose_def d;
  memset(&d, 0, sizeof d); /* no stray padding: defs are compared and copied whole */
  d.thumb.to = LB_THUMB_TO_FINGERS;
  return d;
}

static bool lb_in(float v, float lo, float hi) {
  return v >= lo && v <= hi;
}

static lb_result lb_finger_shape_validate(const lb_finger_shape *s) {
  if (s->set & ~(uint32_t)LB_SHAPE_ALL) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  /* Inf * 0 and NaN * 0 are NaN: one test for all seven (the job validates every step). */
  float acc = s->curl * 0.0f + s->base * 0.0f + s->spread * 0.0f + s->fan * 0.0f +
              s->bend[0] * 0.0f + s->bend[1] * 0.0f + s->bend[2] * 0.0f;
  if (acc != 0.0f) {
    return LB_ERR_NOT_FINITE;
  }
  bool ok = true;
  if (s->set & LB_SHAPE_CURL) {
    ok = ok && lb_in(s->curl, 0.0f, 1.0f);
  }
  if (s->set & LB_SHAPE_BASE) {
    ok = ok && lb_in(s->base, 0.0f, 1.0f);
  }
  if (s->set & LB_SHAPE_SPREAD) {
    ok = ok && lb_in(s->spread, -1.0f, 1.0f);
  }
  if (s->set & LB_SHAPE_FAN) {
    ok = ok && lb_in(s->fan, -LB_GRIP_FAN_MAX_DEG, LB_GRIP_FAN_MAX_DEG);
  }
  if (s->set & LB_SHAPE_BEND) {
    for (int k = 0; k < 3; ++k) {
      ok = ok && lb_in(s->bend[k], LB_GRIP_BEND_MIN_DEG, LB_GRIP_BEND_MAX_DEG);
    }
  }
  return ok ? LB_OK : LB_ERR_OUT_OF_RANGE;
}

lb_result lb_grip_pose_validate(const lb_grip_pose_def *def) {
  if (!def) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  const lb_grip_finger_def *th = &def->fingers[LB_FINGER_THUMB];
  if (th->shape.set != 0 || th->has_trigger) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (def->thumb.to != LB_THUMB_TO_FINGERS && def->thumb.to != LB_THUMB_TO_INDEX) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  lb_result worst = LB_OK;
  for (int f = LB_FINGER_INDEX; f < LB_FINGER_COUNT; ++f) {
    const lb_grip_finger_def *fd = &def->fingers[f];
    /* The trigger shape is checked even when unused: garbage is never stored quietly. */
    const lb_result rs[2] = {lb_finger_shape_validate(&fd->shape),
                             lb_finger_shape_validate(&fd->trigger)};
    for (int k = 0; k < 2; ++k) {
      /* Structural errors first, then non-finite, then range: one order for every def. */
      if (rs[k] == LB_ERR_INVALID_ARGUMENT) {
        return rs[k];
      }
      if (rs[k] != LB_OK && (worst == LB_OK || rs[k] == LB_ERR_NOT_FINITE)) {
        worst = rs[k];
      }
    }
  }
  if (!lb_is_finite(def->thumb.opposition) || !lb_is_finite(def->thumb.gap)) {
    return LB_ERR_NOT_FINITE;
  }
  if (worst != LB_OK) {
    return worst;
  }
  if (!lb_in(def->thumb.opposition, 0.0f, 1.0f) || !lb_in(def->thumb.gap, 0.0f, LB_GRIP_GAP_MAX)) {
    return LB_ERR_OUT_OF_RANGE;
  }
  return LB_OK;
}

bool lb_grip_pose_has_trigger(const lb_grip_pose_def *def) {
  for (int f = LB_FINGER_INDEX; def && f < LB_FINGER_COUNT; ++f) {
    if (def->fingers[f].has_trigger) {
      return true;
    }
  }
  return false;
}

static bool lb_same_bits(float a, float b) {
  return memcmp(&a, &b, sizeof a) == 0;
}

static bool lb_shape_equal(const lb_finger_shape *a, const lb_finger_shape *b) {
  return a->set == b->set && lb_same_bits(a->curl, b->curl) && lb_same_bits(a->base, b->base) &&
         lb_same_bits(a->spread, b->spread) && lb_same_bits(a->fan, b->fan) &&
         lb_same_bits(a->bend[0], b->bend[0]) && lb_same_bits(a->bend[1], b->bend[1]) &&
         lb_same_bits(a->bend[2], b->bend[2]);
}

bool lb_grip_pose_equal(const lb_grip_pose_def *a, const lb_grip_pose_def *b) {
  if (!a || !b) {
    return a == b;
  }
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    const lb_grip_finger_def *fa = &a->fingers[f], *fb = &b->fingers[f];
    if (!lb_shape_equal(&fa->shape, &fb->shape) || fa->has_trigger != fb->has_trigger ||
        !lb_shape_equal(&fa->trigger, &fb->trigger)) {
      return false;
    }
  }
  return a->thumb.to == b->thumb.to && lb_same_bits(a->thumb.opposition, b->thumb.opposition) &&
         lb_same_bits(a->thumb.gap, b->thumb.gap);
}

static const float lb_spread_deg[LB_FINGER_COUNT] = {
    0.0f, LB_GRIP_SPREAD_DEG_INDEX, LB_GRIP_SPREAD_DEG_MIDDLE, LB_GRIP_SPREAD_DEG_RING,
    LB_GRIP_SPREAD_DEG_PINKY};

enum { LB_BEND_GROUP = LB_SHAPE_CURL | LB_SHAPE_BASE | LB_SHAPE_BEND };
enum { LB_FAN_GROUP = LB_SHAPE_SPREAD | LB_SHAPE_FAN };

static void lb_shape_bend(const lb_finger_shape *s, float bend[3]) {
  if (s->set & LB_SHAPE_BEND) {
    bend[0] = s->bend[0];
    bend[1] = s->bend[1];
    bend[2] = s->bend[2];
    return;
  }
  float curl = (s->set & LB_SHAPE_CURL) ? s->curl : 0.0f;
  float base = (s->set & LB_SHAPE_BASE) ? s->base : curl;
  bend[0] = base * LB_GRIP_CURL_DEG_0;
  bend[1] = curl * LB_GRIP_CURL_DEG_1;
  bend[2] = curl * LB_GRIP_CURL_DEG_2;
}

static float lb_shape_fan(const lb_finger_shape *s, lb_finger f) {
  if (s->set & LB_SHAPE_FAN) {
    return s->fan;
  }
  return (s->set & LB_SHAPE_SPREAD) ? s->spread * lb_spread_deg[f] : 0.0f;
}

/* Angles of the trigger-1 state: each group from the trigger shape if it gives any. */
static void lb_trigger_angles(const lb_grip_finger_def *fd, lb_finger f, float bend[3],
                              float *fan) {
  const lb_finger_shape *t = &fd->trigger;
  lb_shape_bend((t->set & LB_BEND_GROUP) ? t : &fd->shape, bend);
  *fan = lb_shape_fan((t->set & LB_FAN_GROUP) ? t : &fd->shape, f);
}

lb_result lb_grip_pose_finger_angles(const lb_grip_pose_def *def, lb_finger f, float trigger,
                                     float bend_deg[3], float *fan_deg) {
  if (!def || !bend_deg || !fan_deg || f < LB_FINGER_INDEX || f >= LB_FINGER_COUNT ||
      !lb_is_finite(trigger)) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  const lb_grip_finger_def *fd = &def->fingers[f];
  lb_shape_bend(&fd->shape, bend_deg);
  *fan_deg = lb_shape_fan(&fd->shape, f);
  if (!fd->has_trigger) {
    return LB_OK;
  }
  float t = lb_clamp(trigger, 0.0f, 1.0f);
  float tb[3], tf;
  lb_trigger_angles(fd, f, tb, &tf);
  /* a*(1-t) + b*t: exactly a at t = 0 and exactly b at t = 1, so a by-joint expansion
   * (which stores a and b) reproduces every value bit for bit. */
  float u = 1.0f - t;
  for (int k = 0; k < 3; ++k) {
    bend_deg[k] = bend_deg[k] * u + tb[k] * t;
  }
  *fan_deg = *fan_deg * u + tf * t;
  return LB_OK;
}

static void lb_joint_shape(lb_finger_shape *s, const float bend[3], float fan) {
  memset(s, 0, sizeof *s);
  s->set = LB_SHAPE_BEND | LB_SHAPE_FAN;
  s->bend[0] = bend[0];
  s->bend[1] = bend[1];
  s->bend[2] = bend[2];
  s->fan = fan;
}

lb_result lb_grip_pose_by_joint(const lb_grip_pose_def *in, lb_grip_pose_def *out) {
  lb_result r = lb_grip_pose_validate(in);
  if (r != LB_OK || !out) {
    return r != LB_OK ? r : LB_ERR_INVALID_ARGUMENT;
  }
  lb_grip_pose_def d = lb_grip_pose_default_def();
  d.thumb = in->thumb;
  for (int f = LB_FINGER_INDEX; f < LB_FINGER_COUNT; ++f) {
    const lb_grip_finger_def *fd = &in->fingers[f];
    float bend[3], fan;
    lb_shape_bend(&fd->shape, bend);
    fan = lb_shape_fan(&fd->shape, (lb_finger)f);
    lb_joint_shape(&d.fingers[f].shape, bend, fan);
    if (fd->has_trigger) {
      lb_trigger_angles(fd, (lb_finger)f, bend, &fan);
      d.fingers[f].has_trigger = true;
      lb_joint_shape(&d.fingers[f].trigger, bend, fan);
    }
  }
  /* Expanded angles can leave the by-joint ranges only through extreme user values
   * (e.g. fan beyond 90 from spread is impossible: at most 20), so this is a guard. */
  r = lb_grip_pose_validate(&d);
  if (r != LB_OK) {
    return r;
  }
  *out = d;
  return LB_OK;
}
