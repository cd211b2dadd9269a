/* Controller JSON (format in limber/animator.h) → lb_animator_controller_def, then the same
 * validation as a def built in C. Strict: unknown keys and wrong value types are errors. */
#include "../base/format.h"
#include "../base/json.h"
#include "animator_internal.h"
#include <string.h>

/* Every array a def can need, so parsing never allocates per item. */
typedef struct json_defs {
  lb_anim_param_def params[LB_ANIM_MAX_PARAMS];
  lb_anim_state_def states[LB_ANIM_MAX_STATES];
  lb_anim_blend_point points[LB_ANIM_MAX_STATES][LB_ANIM_MAX_POINTS];
  lb_anim_transition_def transitions[LB_ANIM_MAX_TRANSITIONS];
  lb_anim_condition conds[LB_ANIM_MAX_TRANSITIONS][LB_ANIM_MAX_CONDITIONS];
} json_defs;

typedef struct parser {
  lb_world *w;
  char ctl[LB_JOINT_NAME_MAX + 16]; /* "controller 'x'" */
} parser;

static lb_result lb_bad(const parser *p, const char *path, const char *what) {
  return lb_fail(p->w, LB_ERR_PARSE, "%s: %s %s", p->ctl, path, what);
}

/* Refuses keys outside `keys` (null-terminated list). */
static lb_result lb_only_keys(const parser *p, const cJSON *obj, const char *path,
                              const char *const *keys) {
  for (const cJSON *it = obj->child; it; it = it->next) {
    const char *const *k = keys;
    while (*k && strcmp(*k, it->string) != 0) {
      ++k;
    }
    if (!*k) {
      return lb_fail(p->w, LB_ERR_PARSE, "%s: %s: unknown key '%s'", p->ctl, path, it->string);
    }
  }
  return LB_OK;
}

static const cJSON *lb_item(const cJSON *obj, const char *key) {
  return cJSON_GetObjectItemCaseSensitive(obj, key);
}

/* Optional number: leaves *out when absent. */
static lb_result lb_number(const parser *p, const cJSON *obj, const char *key, const char *path,
                           float *out) {
  const cJSON *j = lb_item(obj, key);
  if (!j) {
    return LB_OK;
  }
  if (!cJSON_IsNumber(j)) {
    char at[256];
    lb_snprintf(at, sizeof at, "%s.%s", path, key);
    return lb_bad(p, at, "must be a number");
  }
  *out = (float)j->valuedouble;
  return LB_OK;
}

static lb_result lb_boolean(const parser *p, const cJSON *obj, const char *key, const char *path,
                            bool *out) {
  const cJSON *j = lb_item(obj, key);
  if (!j) {
    return LB_OK;
  }
  if (!cJSON_IsBool(j)) {
    char at[256];
    lb_snprintf(at, sizeof at, "%s.%s", path, key);
    return lb_bad(p, at, "must be true or false");
  }
  *out = cJSON_IsTrue(j);
  return LB_OK;
}

/* Optional string (required when `required`): points into the cJSON tree. */
static lb_result lb_string(const parser *p, const cJSON *obj, const char *key, const char *path,
                           bool required, const char **out) {
  const cJSON *j = lb_item(obj, key);
  char at[256];
  lb_snprintf(at, sizeof at, "%s.%s", path, key);
  if (!j) {
    return required ? lb_bad(p, at, "is required") : LB_OK;
  }
  if (!cJSON_IsString(j)) {
    return lb_bad(p, at, "must be a string");
  }
  *out = j->valuestring;
  return LB_OK;
}

static lb_result lb_parse_params(const parser *p, const cJSON *params,
                                 lb_animator_controller_def *d, json_defs *s) {
  if (!params) {
    return LB_OK;
  }
  if (!cJSON_IsObject(params)) {
    return lb_bad(p, "parameters", "must be an object");
  }
  static const char *const keys[] = {"type", "default", "damp", NULL};
  for (const cJSON *it = params->child; it; it = it->next) {
    char path[96];
    lb_snprintf(path, sizeof path, "parameters.%s", it->string);
    if (d->param_count == LB_ANIM_MAX_PARAMS) {
      return lb_fail(p->w, LB_ERR_CAPACITY, "%s: more than %d parameters", p->ctl,
                     LB_ANIM_MAX_PARAMS);
    }
    if (!cJSON_IsObject(it)) {
      return lb_bad(p, path, "must be an object like { \"type\": \"float\", \"default\": 0 }");
    }
    lb_result r = lb_only_keys(p, it, path, keys);
    if (r != LB_OK) {
      return r;
    }
    lb_anim_param_def *o = &s->params[d->param_count++];
    o->name = it->string;
    const char *type = NULL;
    r = lb_string(p, it, "type", path, true, &type);
    if (r != LB_OK) {
      return r;
    }
    if (strcmp(type, "float") == 0) {
      o->type = LB_ANIM_PARAM_FLOAT;
      r = lb_number(p, it, "default", path, &o->value);
      if (r == LB_OK) {
        r = lb_number(p, it, "damp", path, &o->damp);
      }
    } else if (lb_item(it, "damp")) {
      return lb_bad(p, path, "has \"damp\": only float parameters are damped");
    } else if (strcmp(type, "bool") == 0 || strcmp(type, "trigger") == 0) {
      o->type = type[0] == 'b' ? LB_ANIM_PARAM_BOOL : LB_ANIM_PARAM_TRIGGER;
      bool v = false;
      r = lb_boolean(p, it, "default", path, &v);
      o->value = v ? 1.0f : 0.0f;
    } else {
      return lb_fail(p->w, LB_ERR_PARSE, "%s: %s.type = '%s' must be float, bool or trigger",
                     p->ctl, path, type);
    }
    if (r != LB_OK) {
      return r;
    }
  }
  return LB_OK;
}

static lb_result lb_parse_blend(const parser *p, const cJSON *blend, const char *path,
                                lb_anim_state_def *o, lb_anim_blend_point *points) {
  static const char *const keys[] = {"parameter", "points", NULL};
  char at[128];
  lb_snprintf(at, sizeof at, "%s.blend", path);
  if (!cJSON_IsObject(blend)) {
    return lb_bad(p, at, "must be an object { \"parameter\": ..., \"points\": [...] }");
  }
  lb_result r = lb_only_keys(p, blend, at, keys);
  if (r == LB_OK) {
    r = lb_string(p, blend, "parameter", at, true, &o->parameter);
  }
  if (r != LB_OK) {
    return r;
  }
  const cJSON *pts = lb_item(blend, "points");
  if (!cJSON_IsArray(pts)) {
    return lb_bad(p, at, "needs 'points': an array of { \"clip\": ..., \"value\": ... }");
  }
  if (cJSON_GetArraySize(pts) > LB_ANIM_MAX_POINTS) {
    return lb_fail(p->w, LB_ERR_CAPACITY, "%s: %s.points: more than %d points", p->ctl, at,
                   LB_ANIM_MAX_POINTS);
  }
  static const char *const point_keys[] = {"clip", "value", NULL};
  o->points = points;
  for (const cJSON *pt = pts->child; pt; pt = pt->next) {
    char pp[160];
    lb_snprintf(pp, sizeof pp, "%s.points[%u]", at, o->point_count);
    if (!cJSON_IsObject(pt)) {
      return lb_bad(p, pp, "must be an object { \"clip\": ..., \"value\": ... }");
    }
    lb_anim_blend_point *b = &points[o->point_count++];
    r = lb_only_keys(p, pt, pp, point_keys);
    if (r == LB_OK) {
      r = lb_string(p, pt, "clip", pp, true, &b->clip);
    }
    if (r == LB_OK && !lb_item(pt, "value")) {
      r = lb_bad(p, pp, "needs a 'value'");
    }
    if (r == LB_OK) {
      r = lb_number(p, pt, "value", pp, &b->value);
    }
    if (r != LB_OK) {
      return r;
    }
  }
  return LB_OK;
}

static lb_result lb_parse_states(const parser *p, const cJSON *states,
                                 lb_animator_controller_def *d, json_defs *s) {
  if (!cJSON_IsObject(states) || !states->child) {
    return lb_bad(p, "states", "must be an object with at least one state");
  }
  static const char *const keys[] = {"clip", "blend", "speed", "loop", "next", "nextFade", NULL};
  for (const cJSON *it = states->child; it; it = it->next) {
    char path[96];
    lb_snprintf(path, sizeof path, "states.%s", it->string);
    if (d->state_count == LB_ANIM_MAX_STATES) {
      return lb_fail(p->w, LB_ERR_CAPACITY, "%s: more than %d states", p->ctl, LB_ANIM_MAX_STATES);
    }
    if (!cJSON_IsObject(it)) {
      return lb_bad(p, path, "must be an object");
    }
    uint32_t index = d->state_count++;
    lb_anim_state_def *o = &s->states[index];
    *o = lb_anim_state_default_def();
    o->name = it->string;
    lb_result r = lb_only_keys(p, it, path, keys);
    if (r == LB_OK) {
      r = lb_string(p, it, "clip", path, false, &o->clip);
    }
    if (r == LB_OK && lb_item(it, "blend")) {
      r = lb_parse_blend(p, lb_item(it, "blend"), path, o, s->points[index]);
    }
    if (r == LB_OK) {
      r = lb_number(p, it, "speed", path, &o->speed);
    }
    if (r == LB_OK) {
      r = lb_boolean(p, it, "loop", path, &o->loop);
    }
    if (r == LB_OK) {
      r = lb_string(p, it, "next", path, false, &o->next);
    }
    if (r == LB_OK) {
      r = lb_number(p, it, "nextFade", path, &o->next_fade);
    }
    if (r != LB_OK) {
      return r;
    }
  }
  return LB_OK;
}

static lb_result lb_parse_condition(const parser *p, const cJSON *c, const char *path,
                                    lb_anim_condition *o) {
  static const char *const keys[] = {"parameter", "greater", "less", "equals", NULL};
  if (!cJSON_IsObject(c)) {
    return lb_bad(p, path,
                  "must be an object { \"parameter\": ..., \"greater\" | \"less\" | \"equals\" }");
  }
  lb_result r = lb_only_keys(p, c, path, keys);
  if (r == LB_OK) {
    r = lb_string(p, c, "parameter", path, true, &o->parameter);
  }
  if (r != LB_OK) {
    return r;
  }
  int ops = (lb_item(c, "greater") != NULL) + (lb_item(c, "less") != NULL) +
            (lb_item(c, "equals") != NULL);
  if (ops > 1) {
    return lb_bad(p, path, "may have only one of greater, less, equals");
  }
  o->op = LB_ANIM_IF_TRIGGER;
  o->value = 0.0f;
  if (lb_item(c, "greater")) {
    o->op = LB_ANIM_IF_GREATER;
    r = lb_number(p, c, "greater", path, &o->value);
  } else if (lb_item(c, "less")) {
    o->op = LB_ANIM_IF_LESS;
    r = lb_number(p, c, "less", path, &o->value);
  } else if (lb_item(c, "equals")) {
    bool v = false;
    o->op = LB_ANIM_IF_EQUALS;
    r = lb_boolean(p, c, "equals", path, &v);
    o->value = v ? 1.0f : 0.0f;
  }
  return r;
}

static lb_result lb_parse_transitions(const parser *p, const cJSON *tr,
                                      lb_animator_controller_def *d, json_defs *s) {
  if (!tr) {
    return LB_OK;
  }
  if (!cJSON_IsArray(tr)) {
    return lb_bad(p, "transitions", "must be an array");
  }
  static const char *const keys[] = {"from", "to", "fade", "exitTime", "conditions", NULL};
  for (const cJSON *it = tr->child; it; it = it->next) {
    char path[48];
    lb_snprintf(path, sizeof path, "transitions[%u]", d->transition_count);
    if (d->transition_count == LB_ANIM_MAX_TRANSITIONS) {
      return lb_fail(p->w, LB_ERR_CAPACITY, "%s: more than %d transitions", p->ctl,
                     LB_ANIM_MAX_TRANSITIONS);
    }
    if (!cJSON_IsObject(it)) {
      return lb_bad(p, path, "must be an object");
    }
    uint32_t index = d->transition_count++;
    lb_anim_transition_def *o = &s->transitions[index];
    *o = lb_anim_transition_default_def();
    lb_result r = lb_only_keys(p, it, path, keys);
    if (r == LB_OK) {
      r = lb_string(p, it, "from", path, true, &o->from);
    }
    if (r == LB_OK) {
      r = lb_string(p, it, "to", path, true, &o->to);
    }
    if (r == LB_OK) {
      r = lb_number(p, it, "fade", path, &o->fade);
    }
    if (r == LB_OK) {
      r = lb_number(p, it, "exitTime", path, &o->exit_time);
    }
    if (r == LB_OK && lb_item(it, "exitTime") && o->exit_time < 0.0f) {
      r = lb_bad(p, path, "exitTime must be >= 0 (leave it out for none)");
    }
    const cJSON *conds = lb_item(it, "conditions");
    if (r == LB_OK && conds) {
      if (!cJSON_IsArray(conds)) {
        r = lb_bad(p, path, "conditions must be an array");
      } else if (cJSON_GetArraySize(conds) > LB_ANIM_MAX_CONDITIONS) {
        r = lb_fail(p->w, LB_ERR_CAPACITY, "%s: %s: more than %d conditions", p->ctl, path,
                    LB_ANIM_MAX_CONDITIONS);
      }
      o->conditions = s->conds[index];
      for (const cJSON *c = r == LB_OK ? conds->child : NULL; c && r == LB_OK; c = c->next) {
        char cp[80];
        lb_snprintf(cp, sizeof cp, "%s.conditions[%u]", path, o->condition_count);
        r = lb_parse_condition(p, c, cp, &s->conds[index][o->condition_count++]);
      }
    }
    if (r != LB_OK) {
      return r;
    }
  }
  return LB_OK;
}

lb_result lb_controller_from_cjson(lb_world *w, uint32_t skeleton, const char *name,
                                   const void *json_object, uint32_t *out) {
  const cJSON *root = json_object;
  parser p;
  p.w = w;
  lb_snprintf(p.ctl, sizeof p.ctl, "controller '%s'", name ? name : "");
  if (!cJSON_IsObject(root)) {
    return lb_fail(w, LB_ERR_PARSE, "%s: the controller must be a JSON object", p.ctl);
  }
  static const char *const keys[] = {"rig",    "rootJoint",   "parameters", "entry",
                                     "states", "transitions", NULL};
  lb_result r = lb_only_keys(&p, root, "(top level)", keys);
  if (r != LB_OK) {
    return r;
  }
  json_defs *s = lb_alloc(w, sizeof *s);
  if (!s) {
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "%s: out of memory", p.ctl);
  }
  lb_animator_controller_def d = lb_animator_controller_default_def();
  d.name = name;
  d.skeleton = skeleton;
  d.params = s->params;
  d.states = s->states;
  d.transitions = s->transitions;
  r = lb_string(&p, root, "rootJoint", "(top level)", false, &d.root_joint);
  if (r == LB_OK) {
    r = lb_string(&p, root, "entry", "(top level)", false, &d.entry);
  }
  if (r == LB_OK) {
    r = lb_parse_params(&p, lb_item(root, "parameters"), &d, s);
  }
  if (r == LB_OK) {
    r = lb_parse_states(&p, lb_item(root, "states"), &d, s);
  }
  if (r == LB_OK) {
    r = lb_parse_transitions(&p, lb_item(root, "transitions"), &d, s);
  }
  if (r == LB_OK) {
    r = lb_world_add_controller(w, &d, out);
  }
  lb_free(w, s);
  return r;
}

lb_result lb_world_add_controller_json(lb_world *w, uint32_t skeleton, const char *name,
                                       const char *json, size_t len, uint32_t *out) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!json || !out) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "add_controller_json: null json or out");
  }
  lb_json_error jerr;
  cJSON *root = lb_json_parse(json, len, &jerr);
  if (!root) {
    return lb_fail(w, LB_ERR_PARSE, "controller '%s': %s", name ? name : "", jerr.what);
  }
  lb_result r = lb_controller_from_cjson(w, skeleton, name, root, out);
  cJSON_Delete(root);
  return r;
}
