/* Grip pose JSON: the registerGripPose format read with cJSON, and a deterministic
 * writer whose text reads back bit-exactly (see limber/grip_pose.h). */
#include "pose_json.h"
#include "../base/alloc.h"
#include "../base/decimal.h"
#include "../base/diag.h"
#include "../base/format.h"
#include "../base/json.h"
#include "limber/grip_pose.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define LB_PATH_MAX 96

static lb_result lb_jfail(lb_diag *d, lb_result code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  lb_diag_vset(d, code, fmt, ap);
  va_end(ap);
  return code;
}

typedef struct lb_jctx {
  lb_diag *d;
} lb_jctx;

/* Key names are user bytes: quote at most 40 of them. */
static void lb_path(char *out, const char *parent, const char *key) {
  if (parent[0]) {
    lb_snprintf(out, LB_PATH_MAX, "%s.%.40s", parent, key);
  } else {
    lb_snprintf(out, LB_PATH_MAX, "%.40s", key);
  }
}

static lb_result lb_jnum(lb_jctx *c, const cJSON *item, const char *path, float lo, float hi,
                         float *out) {
  if (!cJSON_IsNumber(item)) {
    return lb_jfail(c->d, LB_ERR_PARSE, "%s: expected a number", path);
  }
  float v = (float)item->valuedouble; /* NaN stays NaN; beyond float range becomes Inf */
  if (!lb_is_finite(v)) {
    return lb_jfail(c->d, LB_ERR_NOT_FINITE, "%s: number is not finite as a float", path);
  }
  if (!(v >= lo && v <= hi)) {
    return lb_jfail(c->d, LB_ERR_OUT_OF_RANGE, "%s: %g is out of range [%g, %g]", path, (double)v,
                    (double)lo, (double)hi);
  }
  *out = v;
  return LB_OK;
}

/* Each key once: `seen` has a bit per known key. */
static lb_result lb_jkey(lb_jctx *c, const char *path, const char *key, const char *const *keys,
                         int nkeys, uint32_t *seen, int *which) {
  for (int i = 0; i < nkeys; ++i) {
    if (strcmp(key, keys[i]) == 0) {
      if (*seen & (1u << i)) {
        return lb_jfail(c->d, LB_ERR_PARSE, "%s: repeated key", path);
      }
      *seen |= 1u << i;
      *which = i;
      return LB_OK;
    }
  }
  return lb_jfail(c->d, LB_ERR_PARSE, "%s: unknown key", path);
}

static lb_result lb_jshape(lb_jctx *c, const cJSON *obj, const char *where, bool allow_trigger,
                           lb_grip_finger_def *fd) {
  static const char *const keys[] = {"curl", "base", "spread", "bend", "fan", "trigger"};
  if (!cJSON_IsObject(obj)) {
    return lb_jfail(c->d, LB_ERR_PARSE, "%s: expected an object", where);
  }
  lb_finger_shape *s = allow_trigger ? &fd->shape : &fd->trigger;
  uint32_t seen = 0;
  for (const cJSON *it = obj->child; it; it = it->next) {
    char path[LB_PATH_MAX];
    lb_path(path, where, it->string ? it->string : "");
    int k = -1;
    lb_result r =
        lb_jkey(c, path, it->string ? it->string : "", keys, allow_trigger ? 6 : 5, &seen, &k);
    if (r != LB_OK) {
      return r;
    }
    switch (k) {
    case 0:
      r = lb_jnum(c, it, path, 0.0f, 1.0f, &s->curl);
      s->set |= LB_SHAPE_CURL;
      break;
    case 1:
      r = lb_jnum(c, it, path, 0.0f, 1.0f, &s->base);
      s->set |= LB_SHAPE_BASE;
      break;
    case 2:
      r = lb_jnum(c, it, path, -1.0f, 1.0f, &s->spread);
      s->set |= LB_SHAPE_SPREAD;
      break;
    case 3: {
      int n = cJSON_IsArray(it) ? cJSON_GetArraySize(it) : -1;
      if (n != 3) {
        if (n < 0) {
          return lb_jfail(c->d, LB_ERR_PARSE, "%s: expected an array of 3 numbers", path);
        }
        return lb_jfail(c->d, LB_ERR_PARSE, "%s: expected 3 numbers, got %d", path, n);
      }
      int i = 0;
      for (const cJSON *e = it->child; e && r == LB_OK; e = e->next, ++i) {
        char ep[LB_PATH_MAX + 16];
        lb_snprintf(ep, sizeof ep, "%s[%d]", path, i);
        r = lb_jnum(c, e, ep, LB_GRIP_BEND_MIN_DEG, LB_GRIP_BEND_MAX_DEG, &s->bend[i]);
      }
      s->set |= LB_SHAPE_BEND;
      break;
    }
    case 4:
      r = lb_jnum(c, it, path, -LB_GRIP_FAN_MAX_DEG, LB_GRIP_FAN_MAX_DEG, &s->fan);
      s->set |= LB_SHAPE_FAN;
      break;
    default:
      fd->has_trigger = true;
      r = lb_jshape(c, it, path, false, fd);
      break;
    }
    if (r != LB_OK) {
      return r;
    }
  }
  return LB_OK;
}

static lb_result lb_jthumb(lb_jctx *c, const cJSON *obj, lb_grip_thumb_def *th) {
  static const char *const keys[] = {"opposition", "to", "gap"};
  if (!cJSON_IsObject(obj)) {
    return lb_jfail(c->d, LB_ERR_PARSE, "thumb: expected an object");
  }
  uint32_t seen = 0;
  for (const cJSON *it = obj->child; it; it = it->next) {
    char path[LB_PATH_MAX];
    lb_path(path, "thumb", it->string ? it->string : "");
    int k = -1;
    lb_result r = lb_jkey(c, path, it->string ? it->string : "", keys, 3, &seen, &k);
    if (r != LB_OK) {
      return r;
    }
    if (k == 0) {
      r = lb_jnum(c, it, path, 0.0f, 1.0f, &th->opposition);
    } else if (k == 2) {
      r = lb_jnum(c, it, path, 0.0f, LB_GRIP_GAP_MAX, &th->gap);
    } else if (cJSON_IsString(it) && strcmp(it->valuestring, "fingers") == 0) {
      th->to = LB_THUMB_TO_FINGERS;
    } else if (cJSON_IsString(it) && strcmp(it->valuestring, "index") == 0) {
      th->to = LB_THUMB_TO_INDEX;
    } else {
      r = lb_jfail(c->d, LB_ERR_PARSE, "%s: expected \"fingers\" or \"index\"", path);
    }
    if (r != LB_OK) {
      return r;
    }
  }
  return LB_OK;
}

static lb_result lb_jroot(lb_jctx *c, const cJSON *root, lb_grip_pose_def *d) {
  static const char *const keys[] = {"thumb", "index", "middle", "ring", "pinky"};
  if (!cJSON_IsObject(root)) {
    return lb_jfail(c->d, LB_ERR_PARSE, "pose: expected an object");
  }
  uint32_t seen = 0;
  for (const cJSON *it = root->child; it; it = it->next) {
    char path[LB_PATH_MAX];
    lb_path(path, "", it->string ? it->string : "");
    int k = -1;
    lb_result r = lb_jkey(c, path, it->string ? it->string : "", keys, 5, &seen, &k);
    if (r == LB_OK) {
      /* keys[] follows lb_finger order: thumb 0, index 1 .. pinky 4. */
      r = k == 0 ? lb_jthumb(c, it, &d->thumb) : lb_jshape(c, it, path, true, &d->fingers[k]);
    }
    if (r != LB_OK) {
      return r;
    }
  }
  return LB_OK;
}

lb_result lb_grip_pose_parse_json_diag(const char *json, size_t len, lb_grip_pose_def *out,
                                       lb_diag *diag) {
  if (!json || !out) {
    return lb_jfail(diag, LB_ERR_INVALID_ARGUMENT, "pose: null argument");
  }
  if (len == 0) {
    return lb_jfail(diag, LB_ERR_PARSE, "pose: empty input");
  }
  lb_json_error jerr;
  cJSON *root = lb_json_parse(json, len, &jerr);
  if (!root) {
    return lb_jfail(diag, LB_ERR_PARSE, "pose: %s", jerr.what);
  }
  lb_jctx c = {diag};
  lb_grip_pose_def d = lb_grip_pose_default_def();
  lb_result r = lb_jroot(&c, root, &d);
  cJSON_Delete(root);
  if (r == LB_OK) {
    r = lb_grip_pose_validate(&d); /* the per-key checks above already cover it */
    if (r != LB_OK) {
      return lb_jfail(diag, r, "pose: %s", lb_result_text(r));
    }
    *out = d;
  }
  return r;
}

/* The public form: the message (without its code prefix) into a caller's buffer. */
lb_result lb_grip_pose_parse_json(const char *json, size_t len, lb_grip_pose_def *out, char *err,
                                  size_t errcap) {
  lb_allocator a = lb_allocator_default();
  lb_diag d;
  lb_diag_init(&d, &a);
  lb_result r = lb_grip_pose_parse_json_diag(json, len, out, &d);
  if (err && errcap > 0) {
    const char *text = lb_diag_text(&d);
    const char *body = r != LB_OK ? strstr(text, ": ") : NULL;
    lb_snprintf(err, errcap, "%s", body ? body + 2 : "");
  }
  lb_diag_release(&d);
  return r;
}

/* ---- writer ------------------------------------------------------------------------ */
typedef struct lb_jout {
  char *buf;
  size_t cap, n;
  bool full; /* a piece did not fit: write nothing more, only count */
} lb_jout;

static void lb_put(lb_jout *o, const char *s) {
  size_t len = strlen(s);
  /* Keep room for the NUL. */
  if (o->buf && !o->full && o->n + len < o->cap) {
    memcpy(o->buf + o->n, s, len);
  } else {
    o->full = true;
  }
  o->n += len;
}

static void lb_put_float(lb_jout *o, float v) {
  char tmp[32];
  for (int prec = 6; prec <= 9; ++prec) {
    lb_snprintf(tmp, sizeof tmp, "%.*g", prec, (double)v);
    float back = (float)lb_strtod(tmp, NULL);
    if (memcmp(&back, &v, sizeof v) == 0) {
      break;
    }
  }
  lb_put(o, tmp);
}

static void lb_put_key_float(lb_jout *o, bool *first, const char *key, float v) {
  lb_put(o, *first ? "\"" : ",\"");
  *first = false;
  lb_put(o, key);
  lb_put(o, "\":");
  lb_put_float(o, v);
}

static void lb_put_shape(lb_jout *o, const lb_finger_shape *s, const lb_finger_shape *trigger) {
  bool first = true;
  lb_put(o, "{");
  if (s->set & LB_SHAPE_CURL) {
    lb_put_key_float(o, &first, "curl", s->curl);
  }
  if (s->set & LB_SHAPE_BASE) {
    lb_put_key_float(o, &first, "base", s->base);
  }
  if (s->set & LB_SHAPE_SPREAD) {
    lb_put_key_float(o, &first, "spread", s->spread);
  }
  if (s->set & LB_SHAPE_BEND) {
    lb_put(o, first ? "\"bend\":[" : ",\"bend\":[");
    first = false;
    for (int k = 0; k < 3; ++k) {
      if (k) {
        lb_put(o, ",");
      }
      lb_put_float(o, s->bend[k]);
    }
    lb_put(o, "]");
  }
  if (s->set & LB_SHAPE_FAN) {
    lb_put_key_float(o, &first, "fan", s->fan);
  }
  if (trigger) {
    lb_put(o, first ? "\"trigger\":" : ",\"trigger\":");
    lb_put_shape(o, trigger, NULL);
  }
  lb_put(o, "}");
}

static bool lb_is_pos_zero(float v) {
  float z = 0.0f;
  return memcmp(&v, &z, sizeof v) == 0;
}

lb_result lb_grip_pose_write_json(const lb_grip_pose_def *def, char *buf, size_t cap,
                                  size_t *written) {
  lb_result r = lb_grip_pose_validate(def);
  if (r != LB_OK) {
    return r;
  }
  if (!written || (!buf && cap > 0)) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  lb_jout o = {buf, cap, 0, false};
  bool first = true;
  lb_put(&o, "{");
  const lb_grip_thumb_def *th = &def->thumb;
  if (!lb_is_pos_zero(th->opposition) || th->to != LB_THUMB_TO_FINGERS ||
      !lb_is_pos_zero(th->gap)) {
    bool tf = true;
    lb_put(&o, "\"thumb\":{");
    first = false;
    if (!lb_is_pos_zero(th->opposition)) {
      lb_put_key_float(&o, &tf, "opposition", th->opposition);
    }
    if (th->to != LB_THUMB_TO_FINGERS) {
      lb_put(&o, tf ? "\"to\":\"index\"" : ",\"to\":\"index\"");
      tf = false;
    }
    if (!lb_is_pos_zero(th->gap)) {
      lb_put_key_float(&o, &tf, "gap", th->gap);
    }
    lb_put(&o, "}");
  }
  for (int f = LB_FINGER_INDEX; f < LB_FINGER_COUNT; ++f) {
    const lb_grip_finger_def *fd = &def->fingers[f];
    if (fd->shape.set == 0 && !fd->has_trigger) {
      continue;
    }
    lb_put(&o, first ? "\"" : ",\"");
    first = false;
    lb_put(&o, lb_finger_name((lb_finger)f));
    lb_put(&o, "\":");
    lb_put_shape(&o, &fd->shape, fd->has_trigger ? &fd->trigger : NULL);
  }
  lb_put(&o, "}");
  *written = o.n;
  if (o.n + 1 > cap) {
    if (buf && cap > 0) {
      buf[0] = '\0';
    }
    return LB_ERR_CAPACITY;
  }
  buf[o.n] = '\0';
  return LB_OK;
}
