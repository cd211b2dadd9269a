/* Animated nodes above a skin's joints (an armature node that carries the character):
 * three.js plays their channels, so the skeleton starts at the topmost one and they become
 * joints; a channel that only holds the node's rest value moves nothing and does not count
 * (exporters that bake every object write those). */
#include "gltf_internal.h"
#include <string.h>

/* Exact equality, q and -q being one rotation. */
static bool lb_same_value(const float *v, const float *rest, uint32_t comps) {
  bool same = memcmp(v, rest, comps * sizeof(float)) == 0;
  if (!same && comps == 4u) {
    same = v[0] == -rest[0] && v[1] == -rest[1] && v[2] == -rest[2] && v[3] == -rest[3];
  }
  return same;
}

static bool lb_all_zero(const float *v, uint32_t comps) {
  for (uint32_t i = 0; i < comps; ++i) {
    if (v[i] != 0.0f) {
      return false;
    }
  }
  return true;
}

/* The output accessor of a channel's sampler, or false when the channel is malformed (the
 * clip import reports that). */
static bool lb_channel_output(const gltf_ctx *c, const cJSON *anim, const cJSON *ch,
                              uint32_t *output, bool *cubic) {
  const cJSON *samplers = cJSON_GetObjectItemCaseSensitive(anim, "samplers");
  const cJSON *si = cJSON_GetObjectItemCaseSensitive(ch, "sampler");
  if (!cJSON_IsArray(samplers) || !cJSON_IsNumber(si) || !(si->valuedouble >= 0.0) ||
      si->valuedouble >= (double)cJSON_GetArraySize(samplers)) {
    return false;
  }
  const cJSON *s = cJSON_GetArrayItem(samplers, (int)si->valuedouble);
  const cJSON *out = cJSON_GetObjectItemCaseSensitive(s, "output");
  const cJSON *interp = cJSON_GetObjectItemCaseSensitive(s, "interpolation");
  if (!cJSON_IsNumber(out) || !(out->valuedouble >= 0.0) ||
      out->valuedouble >= (double)c->accessor_count) {
    return false;
  }
  *output = (uint32_t)out->valuedouble;
  *cubic = cJSON_IsString(interp) && strcmp(interp->valuestring, "CUBICSPLINE") == 0;
  return true;
}

/* Whether the channel's keys (and, for CUBICSPLINE, zero tangents) hold `rest` throughout.
 * Anything that cannot be read counts as moving: the clip import then names the problem. */
static bool lb_keys_hold(gltf_ctx *c, uint32_t output, bool cubic, const float *rest,
                         uint32_t comps) {
  gltf_accessor a;
  if (gltf_accessor_get(c, output, "armature check", &a) != LB_OK || a.comps != comps ||
      a.count == 0) {
    c->message[0] = 0;
    return false;
  }
  float *v = gltf_arena_array(&c->scratch, (size_t)a.count * comps, sizeof *v);
  if (!v || gltf_accessor_floats(c, &a, "armature check", v) != LB_OK) {
    c->message[0] = 0;
    return false;
  }
  for (uint32_t k = 0; k < a.count; ++k) {
    const float *x = v + (size_t)k * comps;
    /* CUBICSPLINE elements are (in-tangent, value, out-tangent) per key */
    bool ok = cubic && k % 3u != 1u ? lb_all_zero(x, comps) : lb_same_value(x, rest, comps);
    if (!ok) {
      return false;
    }
  }
  return true;
}

/* Whether a channel of `anim` moves `node` away from its rest TRS. */
static bool lb_anim_moves(gltf_ctx *c, const cJSON *anim, uint32_t node, const lb_transform *rest) {
  const cJSON *channels = cJSON_GetObjectItemCaseSensitive(anim, "channels");
  const cJSON *ch;
  cJSON_ArrayForEach(ch, channels) {
    const cJSON *target = cJSON_GetObjectItemCaseSensitive(ch, "target");
    const cJSON *tn = cJSON_GetObjectItemCaseSensitive(target, "node");
    const cJSON *path = cJSON_GetObjectItemCaseSensitive(target, "path");
    if (!cJSON_IsNumber(tn) || tn->valuedouble != (double)node || !cJSON_IsString(path)) {
      continue;
    }
    const char *p = path->valuestring;
    const float *value = strcmp(p, "translation") == 0 ? rest->t
                         : strcmp(p, "rotation") == 0  ? rest->r
                         : strcmp(p, "scale") == 0     ? rest->s
                                                       : NULL;
    uint32_t output = 0;
    bool cubic = false;
    if (!value) {
      continue; /* morph weights move no node */
    }
    if (!lb_channel_output(c, anim, ch, &output, &cubic) ||
        !lb_keys_hold(c, output, cubic, value, value == rest->r ? 4u : 3u)) {
      return true;
    }
  }
  return false;
}

static bool lb_node_animated(gltf_ctx *c, uint32_t node) {
  const lb_transform *rest = NULL;
  if (gltf_node_rest(c, node, &rest) != LB_OK) {
    c->message[0] = 0; /* the root placement reads it again and names the problem */
    return false;
  }
  for (uint32_t a = 0; a < c->animation_count; ++a) {
    if (lb_anim_moves(c, c->animations[a], node, rest)) {
      return true;
    }
  }
  return false;
}

int32_t gltf_animated_top(gltf_ctx *c, int32_t node) {
  int32_t top = node;
  for (int32_t p = c->nodes[node].parent; p >= 0 && c->animation_count > 0;
       p = c->nodes[p].parent) {
    if (lb_node_animated(c, (uint32_t)p)) {
      top = p;
    }
  }
  return top;
}
