/* glTF animations → lb_clip: one clip per animation, one track per (joint, path). */
#include "../base/format.h"
#include "gltf_internal.h"
#include <string.h>

typedef enum path_kind { PATH_T, PATH_R, PATH_S, PATH_WEIGHTS } path_kind;

typedef struct channel_info {
  uint32_t index;
  int32_t node; /* -1: no target node */
  path_kind path;
  const char *path_name;
  uint32_t input, output;
  int interp; /* lb_interp */
} channel_info;

static lb_result lb_read_channel(gltf_ctx *c, const cJSON *anim, uint32_t k, const cJSON *ch,
                                 const char *alabel, channel_info *out) {
  char where[160];
  lb_snprintf(where, sizeof where, "%s channel %u", alabel, k);
  const cJSON *samplers = cJSON_GetObjectItemCaseSensitive(anim, "samplers");
  uint32_t sampler = 0;
  if (!cJSON_IsObject(ch)) {
    return gltf_fail(c, LB_ERR_PARSE, "%s is not an object", where);
  }
  lb_result r = gltf_json_index(c, ch, "sampler", true, (uint32_t)cJSON_GetArraySize(samplers),
                                where, &sampler);
  if (r != LB_OK) {
    return r;
  }
  const cJSON *target = cJSON_GetObjectItemCaseSensitive(ch, "target");
  if (!cJSON_IsObject(target)) {
    return gltf_fail(c, LB_ERR_PARSE, "%s: 'target' is missing", where);
  }
  uint32_t node = 0;
  out->node = -1;
  if (cJSON_GetObjectItemCaseSensitive(target, "node")) {
    r = gltf_json_index(c, target, "node", true, c->node_count, where, &node);
    if (r != LB_OK) {
      return r;
    }
    out->node = (int32_t)node;
  }
  const cJSON *path = cJSON_GetObjectItemCaseSensitive(target, "path");
  static const char *const paths[] = {"translation", "rotation", "scale", "weights"};
  int kind = -1;
  for (int i = 0; cJSON_IsString(path) && i < 4; ++i) {
    if (strcmp(path->valuestring, paths[i]) == 0) {
      kind = i;
    }
  }
  if (kind < 0) {
    return gltf_fail(c, LB_ERR_PARSE, "%s: target 'path' is missing or not one of %s", where,
                     "translation, rotation, scale, weights");
  }
  out->path = (path_kind)kind;
  out->path_name = paths[kind];
  const cJSON *s = cJSON_GetArrayItem(samplers, (int)sampler);
  char swhere[176];
  lb_snprintf(swhere, sizeof swhere, "%s sampler %u", alabel, sampler);
  if (!cJSON_IsObject(s)) {
    return gltf_fail(c, LB_ERR_PARSE, "%s is not an object", swhere);
  }
  r = gltf_json_index(c, s, "input", true, c->accessor_count, swhere, &out->input);
  if (r == LB_OK) {
    r = gltf_json_index(c, s, "output", true, c->accessor_count, swhere, &out->output);
  }
  if (r != LB_OK) {
    return r;
  }
  const cJSON *interp = cJSON_GetObjectItemCaseSensitive(s, "interpolation");
  out->interp = LB_INTERP_LINEAR;
  if (interp) {
    const char *v = cJSON_IsString(interp) ? interp->valuestring : "";
    if (strcmp(v, "LINEAR") == 0) {
      out->interp = LB_INTERP_LINEAR;
    } else if (strcmp(v, "STEP") == 0) {
      out->interp = LB_INTERP_STEP;
    } else if (strcmp(v, "CUBICSPLINE") == 0) {
      out->interp = LB_INTERP_CUBICSPLINE;
    } else {
      return gltf_fail(c, LB_ERR_PARSE, "%s: 'interpolation' is not LINEAR, STEP or CUBICSPLINE",
                       swhere);
    }
  }
  out->index = k;
  return LB_OK;
}

/* Key times: SCALAR FLOAT, >= 0, strictly increasing. Into scratch. */
static lb_result lb_read_times(gltf_ctx *c, const channel_info *ch, const char *label, float **out,
                               uint32_t *count) {
  char what[224];
  lb_snprintf(what, sizeof what, "%s input", label);
  gltf_accessor a;
  lb_result r = gltf_accessor_get(c, ch->input, what, &a);
  if (r != LB_OK) {
    return r;
  }
  if (a.comps != 1 || a.comp_type != GLTF_FLOAT || a.normalized) {
    return gltf_fail(c, LB_ERR_PARSE, "accessor %u (%s): SCALAR FLOAT expected, got %s of %u",
                     ch->input, what, gltf_type_name(a.comps), a.comp_type);
  }
  float *t = gltf_arena_array(&c->scratch, a.count, sizeof *t);
  if (!t) {
    return gltf_fail(c, LB_ERR_OUT_OF_MEMORY, "out of memory");
  }
  r = gltf_accessor_floats(c, &a, what, t);
  if (r != LB_OK) {
    return r;
  }
  for (uint32_t i = 0; i < a.count; ++i) {
    if (t[i] < 0.0f) {
      return gltf_fail(c, LB_ERR_OUT_OF_RANGE, "%s: key time %u = %g s is negative", label, i,
                       (double)t[i]);
    }
    if (i > 0 && !(t[i] > t[i - 1])) {
      return gltf_fail(c, LB_ERR_OUT_OF_RANGE,
                       "%s: key times not increasing at key %u (%.9g s after %.9g s)", label, i,
                       (double)t[i], (double)t[i - 1]);
    }
  }
  *out = t;
  *count = a.count;
  return LB_OK;
}

/* Rotation keys `stride` floats apart: never zero; float keys unit length within 1e-3;
 * quantised keys normalised (`normalize`) or left to the cubic resampler, which normalises. */
static lb_result lb_check_rotations(gltf_ctx *c, float *v, uint32_t keys, size_t stride,
                                    bool quantized, bool normalize, const char *label) {
  for (uint32_t i = 0; i < keys; ++i) {
    float *q = v + (size_t)i * stride;
    float n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    if (n2 == 0.0f) {
      return gltf_fail(c, LB_ERR_DEGENERATE, "%s: rotation key %u is a zero quaternion", label, i);
    }
    if (quantized) {
      if (normalize) {
        lb_quat_normalize(q);
      }
    } else if (n2 < 0.999f || n2 > 1.001f) {
      return gltf_fail(c, LB_ERR_OUT_OF_RANGE,
                       "%s: rotation key %u is not a unit quaternion (|q|^2 = %g)", label, i,
                       (double)n2);
    }
  }
  return LB_OK;
}

static lb_result lb_resample_cubic(gltf_ctx *c, const char *label, const float *times,
                                   const float *v, uint32_t keys, uint32_t comps, lb_track *track);

static lb_result lb_read_track(gltf_ctx *c, const channel_info *ch, const char *label,
                               const float *times, uint32_t keys, lb_track *track) {
  uint32_t comps = ch->path == PATH_R ? 4u : 3u;
  bool cubic = ch->interp == LB_INTERP_CUBICSPLINE;
  char what[224];
  lb_snprintf(what, sizeof what, "%s output", label);
  gltf_accessor a;
  lb_result r = gltf_accessor_get(c, ch->output, what, &a);
  if (r != LB_OK) {
    return r;
  }
  bool float_ok = a.comp_type == GLTF_FLOAT && !a.normalized;
  bool quant_ok = ch->path == PATH_R && a.normalized && a.comp_type != GLTF_UNSIGNED_INT;
  if (a.comps != comps || !(float_ok || quant_ok)) {
    return gltf_fail(c, LB_ERR_PARSE, "accessor %u (%s): %s of FLOAT%s expected, got %s of %u%s",
                     ch->output, what, gltf_type_name(comps),
                     ch->path == PATH_R ? " or normalized (UNSIGNED) BYTE/SHORT" : "",
                     gltf_type_name(a.comps), a.comp_type, a.normalized ? " normalized" : "");
  }
  uint32_t expect = cubic ? keys * 3u : keys;
  if (a.count != expect) {
    return gltf_fail(c, LB_ERR_PARSE, "accessor %u (%s): %u elements, expected %u (%u keys%s)",
                     ch->output, what, a.count, expect, keys, cubic ? " x 3 for CUBICSPLINE" : "");
  }
  gltf_arena *dst = cubic ? &c->scratch : c->out;
  float *v = gltf_arena_array(dst, (size_t)a.count * comps, sizeof *v);
  float *t = cubic ? NULL : gltf_arena_array(c->out, keys, sizeof *t);
  if (!v || (!cubic && !t)) {
    return gltf_fail(c, LB_ERR_OUT_OF_MEMORY, "out of memory");
  }
  r = gltf_accessor_floats(c, &a, what, v);
  if (r != LB_OK) {
    return r;
  }
  if (ch->path == PATH_R) {
    /* Cubic keys are (in-tangent, value, out-tangent): only the values are rotations. */
    float *first = cubic ? v + comps : v;
    size_t stride = cubic ? 3u * comps : comps;
    r = lb_check_rotations(c, first, keys, stride, !float_ok, !cubic, label);
    if (r != LB_OK) {
      return r;
    }
  }
  if (!cubic) {
    memcpy(t, times, (size_t)keys * sizeof *t);
    track->count = keys;
    track->times = t;
    track->values = v;
    track->interp = (lb_interp)ch->interp;
    return LB_OK;
  }
  return lb_resample_cubic(c, label, times, v, keys, comps, track);
}

/* A CUBICSPLINE track (in-tangent, value, out-tangent per key) as LINEAR keys within the
 * def's tolerance; the clip's cubic report counts it and its measured deviation. */
static lb_result lb_resample_cubic(gltf_ctx *c, const char *label, const float *times,
                                   const float *v, uint32_t keys, uint32_t comps, lb_track *track) {
  float tol = gltf_cubic_tolerance(c->def);
  uint32_t n = gltf_cubic_resample(times, v, keys, comps, tol, NULL, NULL, NULL);
  if (n > GLTF_MAX_RESAMPLED) {
    return gltf_fail(c, LB_ERR_CAPACITY,
                     "%s: CUBICSPLINE resampling needs more than %u keys; raise cubic_tolerance",
                     label, GLTF_MAX_RESAMPLED);
  }
  float *rt = gltf_arena_array(c->out, n, sizeof *rt);
  float *rv = gltf_arena_array(c->out, (size_t)n * comps, sizeof *rv);
  if (!rt || !rv) {
    return gltf_fail(c, LB_ERR_OUT_OF_MEMORY, "out of memory resampling %u keys", n);
  }
  float error = 0.0f;
  gltf_cubic_resample(times, v, keys, comps, tol, rt, rv, &error);
  c->cubic_tracks += 1u;
  c->cubic_error = error > c->cubic_error ? error : c->cubic_error;
  track->count = n;
  track->times = rt;
  track->values = rv;
  track->interp = LB_INTERP_LINEAR;
  return LB_OK;
}

/* The clip's name: the animation's, or animation_<N> when it has none (three.js's
 * GLTFLoader names them so, and a game looks its clips up by those names). */
static lb_result lb_clip_name(gltf_ctx *c, uint32_t ai, const cJSON *anim, char *name) {
  const cJSON *jname = cJSON_GetObjectItemCaseSensitive(anim, "name");
  if (jname && !cJSON_IsString(jname)) {
    return gltf_fail(c, LB_ERR_PARSE, "animation %u: 'name' is not a string", ai);
  }
  if (jname && strlen(jname->valuestring) >= LB_JOINT_NAME_MAX) {
    return gltf_fail(c, LB_ERR_OUT_OF_RANGE,
                     "animation %u: name '%.40s...' is longer than %d bytes", ai,
                     jname->valuestring, LB_JOINT_NAME_MAX - 1);
  }
  if (jname && jname->valuestring[0]) {
    lb_snprintf(name, LB_JOINT_NAME_MAX, "%s", jname->valuestring);
  } else {
    lb_snprintf(name, LB_JOINT_NAME_MAX, "animation_%u", ai);
  }
  return LB_OK;
}

/* Channel k: its key times lengthen the clip (*duration); a channel of a skeleton joint's
 * translation, rotation or scale becomes that joint's track (one per node and path). */
static lb_result lb_add_channel(gltf_ctx *c, const cJSON *anim, uint32_t k, const cJSON *ch,
                                const char *alabel, lb_joint_tracks *joints, float *duration) {
  channel_info info;
  lb_result r = lb_read_channel(c, anim, k, ch, alabel, &info);
  if (r != LB_OK) {
    return r;
  }
  char node_label[80] = "no node";
  if (info.node >= 0) {
    gltf_node_label(c, (uint32_t)info.node, node_label, sizeof node_label);
  }
  char label[200];
  lb_snprintf(label, sizeof label, "%s channel %u (%s %s)", alabel, k, node_label, info.path_name);
  float *times = NULL;
  uint32_t keys = 0;
  r = lb_read_times(c, &info, label, &times, &keys);
  if (r != LB_OK) {
    return r;
  }
  if (times[keys - 1u] > *duration) {
    *duration = times[keys - 1u];
  }
  /* Morph weights and nodes outside the skeleton only lengthen the clip. */
  if (info.node < 0 || info.path == PATH_WEIGHTS || c->nodes[info.node].joint < 0) {
    return LB_OK;
  }
  lb_joint_tracks *jt = &joints[c->nodes[info.node].joint];
  lb_track *track =
      info.path == PATH_T ? &jt->translation : (info.path == PATH_R ? &jt->rotation : &jt->scale);
  if (track->count > 0) {
    return gltf_fail(c, LB_ERR_INVALID_ARGUMENT, "%s: a second channel for the same node and path",
                     label);
  }
  return lb_read_track(c, &info, label, times, keys, track);
}

static lb_result lb_build_clip(gltf_ctx *c, uint32_t ai, char *name, lb_clip *clip,
                               lb_clip_reduction *cubic) {
  const cJSON *anim = c->animations[ai];
  lb_result r = lb_clip_name(c, ai, anim, name);
  if (r != LB_OK) {
    return r;
  }
  char alabel[96];
  lb_snprintf(alabel, sizeof alabel, "animation %u '%s'", ai, name);
  const cJSON *channels = cJSON_GetObjectItemCaseSensitive(anim, "channels");
  const cJSON *samplers = cJSON_GetObjectItemCaseSensitive(anim, "samplers");
  if (!cJSON_IsArray(channels) || cJSON_GetArraySize(channels) == 0) {
    return gltf_fail(c, LB_ERR_PARSE, "%s: 'channels' must be a non-empty array", alabel);
  }
  if (!cJSON_IsArray(samplers)) {
    return gltf_fail(c, LB_ERR_PARSE, "%s: 'samplers' must be an array", alabel);
  }
  uint32_t jc = c->asset->skeleton.joint_count;
  lb_joint_tracks *joints = gltf_arena_array(c->out, jc, sizeof *joints);
  if (!joints) {
    return gltf_fail(c, LB_ERR_OUT_OF_MEMORY, "out of memory");
  }
  float duration = 0.0f;
  uint32_t k = 0;
  const cJSON *ch;
  c->cubic_tracks = 0;
  c->cubic_error = 0.0f;
  cJSON_ArrayForEach(ch, channels) {
    r = lb_add_channel(c, anim, k++, ch, alabel, joints, &duration);
    if (r != LB_OK) {
      return r;
    }
  }
  cubic->cubic_tracks = c->cubic_tracks;
  cubic->cubic_error = c->cubic_error;
  cubic->cubic_tolerance = c->cubic_tracks ? gltf_cubic_tolerance(c->def) : 0.0f;
  clip->duration = duration > 0.0f ? duration : 1.0f;
  clip->joint_count = jc;
  clip->joints = joints;
  r = lb_clip_validate(clip);
  if (r != LB_OK) {
    return gltf_fail(c, r, "%s: the clip fails lb_clip_validate (%s)", alabel, lb_result_name(r));
  }
  return LB_OK;
}

static bool lb_is_identity(const lb_transform *x) {
  return x->t[0] == 0.0f && x->t[1] == 0.0f && x->t[2] == 0.0f && x->r[0] == 0.0f &&
         x->r[1] == 0.0f && x->r[2] == 0.0f && x->r[3] == 1.0f && x->s[0] == 1.0f &&
         x->s[1] == 1.0f && x->s[2] == 1.0f;
}

/* The root joint's rest already carries the nodes above it (gltf_skin.c); its keys get
 * the same, channel by channel, so a sampled root equals root_parent * the file's root.
 * Each channel maps on its own (t' = P(t), r' = Pr r, s' = Ps s), which keeps every track's
 * key times. The values live in the asset's arena, written only here. */
static void lb_bake_root_parent(const lb_transform *p, lb_joint_tracks *root) {
  lb_track *tr[3] = {&root->translation, &root->rotation, &root->scale};
  for (int ch = 0; ch < 3; ++ch) {
    lb_track *k = tr[ch];
    float *v = (float *)(uintptr_t)k->values;
    uint32_t comps = ch == 1 ? 4u : 3u;
    for (uint32_t i = 0; i < k->count; ++i) {
      float *x = v + (size_t)i * comps;
      if (ch == 0) {
        lb_transform_point(p, x, x);
      } else if (ch == 1) {
        lb_quat_mul(p->r, x, x);
      } else {
        x[0] *= p->s[0];
        x[1] *= p->s[1];
        x[2] *= p->s[2];
      }
    }
  }
}

lb_result gltf_build_clips(gltf_ctx *c) {
  uint32_t n = c->animation_count;
  c->asset->clip_count = n;
  if (n == 0) {
    return LB_OK;
  }
  lb_gltf_clip *clips = gltf_arena_array(c->out, n, sizeof *clips);
  char(*names)[LB_JOINT_NAME_MAX] = gltf_arena_array(&c->scratch, n, LB_JOINT_NAME_MAX);
  int32_t *ids = gltf_arena_array(&c->scratch, n, sizeof *ids);
  if (!clips || !names || !ids) {
    return gltf_fail(c, LB_ERR_OUT_OF_MEMORY, "out of memory");
  }
  for (uint32_t i = 0; i < n; ++i) {
    ids[i] = (int32_t)i;
    lb_result r = lb_build_clip(c, i, names[i], &clips[i].clip, &clips[i].reduction);
    if (r != LB_OK) {
      return r;
    }
  }
  if (c->asset->skin_index >= 0 && !lb_is_identity(&c->asset->root_parent)) {
    for (uint32_t i = 0; i < n; ++i) {
      lb_bake_root_parent(&c->asset->root_parent,
                          (lb_joint_tracks *)(uintptr_t)clips[i].clip.joints);
    }
  }
  for (uint32_t i = 0; i < n; ++i) {
    /* the clips' keys live in the asset's arena: this copy is the importer's own */
    lb_clip_reduce_job reduce = lb_clip_reduce_default_job();
    reduce.clip = &clips[i].clip;
    reduce.parents = c->asset->skeleton.parents;
    reduce.rest = c->asset->skeleton.rest;
    reduce.joint_count = c->asset->skeleton.joint_count;
    reduce.tolerance = c->def->key_tolerance;
    reduce.skin_distance = c->def->skin_distance;
    reduce.allocator = &c->def->allocator;
    lb_result rr = lb_clip_reduce_job_run(&reduce);
    if (rr != LB_OK) {
      return gltf_fail(c, rr, "animation %u: key reduction failed (%s)", i, lb_result_name(rr));
    }
    lb_clip_reduction cubic = clips[i].reduction;
    clips[i].reduction = lb_clip_reduce_job_result(&reduce);
    clips[i].reduction.cubic_tracks = cubic.cubic_tracks;
    clips[i].reduction.cubic_error = cubic.cubic_error;
    clips[i].reduction.cubic_tolerance = cubic.cubic_tolerance;
  }
  lb_result r = gltf_unique_names(c, names, n, "animation", ids);
  if (r != LB_OK) {
    return r;
  }
  for (uint32_t i = 0; i < n; ++i) {
    memcpy(clips[i].name, names[i], LB_JOINT_NAME_MAX);
  }
  c->asset->clips = clips;
  return LB_OK;
}
