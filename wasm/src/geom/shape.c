/* Shape definitions, their validation, and resolving them into a space (limber/geom.h). */
#include "limber/geom.h"

#include <string.h>

lb_shape_def lb_shape_default_def(void) {
  lb_shape_def d;
  memset(&d, 0, sizeof d);
  d.type = LB_SHAPE_CYLINDER;
  d.direction = LB_AXIS_Y;
  d.radius = 0.02f;
  d.height = 0.1f;
  d.size[0] = d.size[1] = d.size[2] = 0.1f;
  return d;
}

static bool lb_finite3(const float *v) {
  return lb_is_finite(v[0]) && lb_is_finite(v[1]) && lb_is_finite(v[2]);
}

static float lb_absf(float x) {
  return x < 0.0f ? -x : x;
}

/* A used size: > 0 and small enough that its square stays finite. */
static bool lb_size_ok(float x) {
  return x > 0.0f && x <= LB_SHAPE_MAX_EXTENT;
}

static lb_result lb_fail_field(const char **field, const char *name, lb_result r) {
  if (field) {
    *field = name;
  }
  return r;
}

lb_result lb_shape_check(const lb_shape_def *def, const char **field) {
  if (field) {
    *field = NULL;
  }
  if (!def) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  /* Compared as unsigned so that a negative enum value is rejected too. */
  if ((unsigned)def->type >= (unsigned)LB_SHAPE_TYPE_COUNT) {
    return lb_fail_field(field, "type", LB_ERR_INVALID_ARGUMENT);
  }
  if ((unsigned)def->direction >= (unsigned)LB_AXIS_COUNT) {
    return lb_fail_field(field, "direction", LB_ERR_INVALID_ARGUMENT);
  }
  if (!lb_finite3(def->center)) {
    return lb_fail_field(field, "center", LB_ERR_NOT_FINITE);
  }
  if (!lb_is_finite(def->radius)) {
    return lb_fail_field(field, "radius", LB_ERR_NOT_FINITE);
  }
  if (!lb_is_finite(def->height)) {
    return lb_fail_field(field, "height", LB_ERR_NOT_FINITE);
  }
  if (!lb_finite3(def->size)) {
    return lb_fail_field(field, "size", LB_ERR_NOT_FINITE);
  }
  for (int a = 0; a < 3; ++a) {
    if (lb_absf(def->center[a]) > LB_SHAPE_MAX_EXTENT) {
      return lb_fail_field(field, "center", LB_ERR_OUT_OF_RANGE);
    }
  }
  if (def->type != LB_SHAPE_BOX && !lb_size_ok(def->radius)) {
    return lb_fail_field(field, "radius", LB_ERR_OUT_OF_RANGE);
  }
  if (def->type == LB_SHAPE_CYLINDER || def->type == LB_SHAPE_CAPSULE) {
    if (!lb_size_ok(def->height)) {
      return lb_fail_field(field, "height", LB_ERR_OUT_OF_RANGE);
    }
    if (def->type == LB_SHAPE_CAPSULE && def->height < 2.0f * def->radius) {
      return lb_fail_field(field, "height", LB_ERR_OUT_OF_RANGE);
    }
  }
  if (def->type == LB_SHAPE_BOX) {
    for (int a = 0; a < 3; ++a) {
      if (!lb_size_ok(def->size[a])) {
        return lb_fail_field(field, "size", LB_ERR_OUT_OF_RANGE);
      }
    }
  }
  return LB_OK;
}

lb_result lb_shape_validate(const lb_shape_def *def) {
  return lb_shape_check(def, NULL);
}

static float lb_max2(float a, float b) {
  return a > b ? a : b;
}

lb_result lb_shape_resolve(const lb_shape_def *def, const lb_transform *space_from_entity,
                           lb_shape *out) {
  lb_result r = lb_shape_validate(def);
  if (r != LB_OK) {
    return r;
  }
  if (!out) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  lb_transform xf;
  if (space_from_entity) {
    xf = *space_from_entity;
  } else {
    lb_transform_identity(&xf);
  }
  if (!lb_finite3(xf.t) || !lb_finite3(xf.s) || !lb_is_finite(xf.r[0]) || !lb_is_finite(xf.r[1]) ||
      !lb_is_finite(xf.r[2]) || !lb_is_finite(xf.r[3])) {
    return LB_ERR_NOT_FINITE;
  }
  float n2 = xf.r[0] * xf.r[0] + xf.r[1] * xf.r[1] + xf.r[2] * xf.r[2] + xf.r[3] * xf.r[3];
  if (!(n2 > 1e-12f) || xf.s[0] == 0.0f || xf.s[1] == 0.0f || xf.s[2] == 0.0f) {
    return LB_ERR_OUT_OF_RANGE;
  }
  lb_quat_normalize(xf.r);

  lb_shape s;
  memset(&s, 0, sizeof s);
  lb_transform_point(&xf, def->center, s.center);
  memcpy(s.rotation, xf.r, sizeof s.rotation);
  s.type = def->type;
  s.axis = def->direction;
  vec3 as = {lb_absf(xf.s[0]), lb_absf(xf.s[1]), lb_absf(xf.s[2])};
  int ax = (int)def->direction;
  float along = as[ax];
  float across = lb_max2(as[(ax + 1) % 3], as[(ax + 2) % 3]);
  float all = lb_max2(along, across);
  switch (def->type) {
  case LB_SHAPE_CYLINDER:
    s.radius = def->radius * across;
    s.half_height = 0.5f * def->height * along;
    break;
  case LB_SHAPE_CAPSULE:
    /* The caps need the largest of all three scales; the straight part only the axis
     * scale (see the header's conservative rule). */
    s.radius = def->radius * all;
    s.half_height = (0.5f * def->height - def->radius) * along + s.radius;
    break;
  case LB_SHAPE_SPHERE:
    s.radius = def->radius * all;
    break;
  default:
    for (int a = 0; a < 3; ++a) {
      s.half_extents[a] = 0.5f * def->size[a] * as[a];
    }
    break;
  }
  r = lb_shape_validate_resolved(&s);
  if (r != LB_OK) {
    return r;
  }
  *out = s;
  return LB_OK;
}

lb_result lb_shape_validate_resolved(const lb_shape *s) {
  if (!s || (unsigned)s->type >= (unsigned)LB_SHAPE_TYPE_COUNT ||
      (unsigned)s->axis >= (unsigned)LB_AXIS_COUNT) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!lb_finite3(s->center) || !lb_finite3(s->half_extents) || !lb_is_finite(s->radius) ||
      !lb_is_finite(s->half_height) || !lb_is_finite(s->rotation[0]) ||
      !lb_is_finite(s->rotation[1]) || !lb_is_finite(s->rotation[2]) ||
      !lb_is_finite(s->rotation[3])) {
    return LB_ERR_NOT_FINITE;
  }
  const float *q = s->rotation;
  float n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  if (lb_absf(n2 - 1.0f) > 1e-3f) {
    return LB_ERR_OUT_OF_RANGE;
  }
  for (int a = 0; a < 3; ++a) {
    if (lb_absf(s->center[a]) > LB_SHAPE_MAX_EXTENT) {
      return LB_ERR_OUT_OF_RANGE;
    }
  }
  switch (s->type) {
  case LB_SHAPE_CYLINDER:
    return lb_size_ok(s->radius) && lb_size_ok(s->half_height) ? LB_OK : LB_ERR_OUT_OF_RANGE;
  case LB_SHAPE_CAPSULE:
    return lb_size_ok(s->radius) && lb_size_ok(s->half_height) && s->half_height >= s->radius
               ? LB_OK
               : LB_ERR_OUT_OF_RANGE;
  case LB_SHAPE_SPHERE:
    return lb_size_ok(s->radius) ? LB_OK : LB_ERR_OUT_OF_RANGE;
  default:
    for (int a = 0; a < 3; ++a) {
      if (!lb_size_ok(s->half_extents[a])) {
        return LB_ERR_OUT_OF_RANGE;
      }
    }
    return LB_OK;
  }
}
