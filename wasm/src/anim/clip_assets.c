/* Clip assets of the anim module and adding an imported glTF file (skeleton + clips) to a world,
 * all or nothing. */
#include "../base/array.h"
#include "animator_internal.h"
#include "limber/gltf.h"
#include <string.h>

/* ---- clip copies --------------------------------------------------------------------------- */

static size_t lb_track_floats(const lb_track *t, size_t comps) {
  return (size_t)t->count * (1u + comps);
}

/* One block: the joint tracks array, then every track's times and values. With a skeleton,
 * the copy is reduced (lb_clip_reduce_job, default tolerance) before its frames are made; a
 * glTF asset's clips were reduced by their importer. */
static lb_result lb_clip_copy(lb_world *w, const lb_clip *src, const lb_skeleton *reduce_for,
                              lb_clip_asset *dst) {
  size_t floats = 0;
  for (uint32_t j = 0; j < src->joint_count; ++j) {
    const lb_joint_tracks *jt = &src->joints[j];
    floats += lb_track_floats(&jt->translation, 3) + lb_track_floats(&jt->rotation, 4) +
              lb_track_floats(&jt->scale, 3);
  }
  size_t head = (size_t)src->joint_count * sizeof(lb_joint_tracks);
  uint8_t *block = lb_alloc(w, head + floats * sizeof(float));
  if (!block) {
    return LB_ERR_OUT_OF_MEMORY;
  }
  lb_joint_tracks *joints = (lb_joint_tracks *)block;
  float *f = (float *)(block + head);
  for (uint32_t j = 0; j < src->joint_count; ++j) {
    const lb_track *in[3] = {&src->joints[j].translation, &src->joints[j].rotation,
                             &src->joints[j].scale};
    lb_track *out[3] = {&joints[j].translation, &joints[j].rotation, &joints[j].scale};
    for (int k = 0; k < 3; ++k) {
      size_t comps = k == 1 ? 4u : 3u;
      *out[k] = *in[k];
      if (in[k]->count == 0) {
        out[k]->times = NULL;
        out[k]->values = NULL;
        continue;
      }
      memcpy(f, in[k]->times, in[k]->count * sizeof(float));
      out[k]->times = f;
      f += in[k]->count;
      memcpy(f, in[k]->values, in[k]->count * comps * sizeof(float));
      out[k]->values = f;
      f += in[k]->count * comps;
    }
  }
  dst->clip = *src;
  dst->clip.joints = joints;
  dst->block = block;
  if (reduce_for) {
    lb_clip_reduce_job reduce = lb_clip_reduce_default_job();
    reduce.clip = &dst->clip;
    reduce.parents = reduce_for->parents;
    reduce.rest = reduce_for->rest;
    reduce.joint_count = reduce_for->joint_count;
    reduce.allocator = &w->allocator;
    if (lb_clip_reduce_job_run(&reduce) != LB_OK) { /* validated: only out of memory */
      lb_free(w, block);
      return LB_ERR_OUT_OF_MEMORY;
    }
    dst->reduction = lb_clip_reduce_job_result(&reduce);
  }
  /* Clips whose rotations do not share one LINEAR key grid sample without frames. */
  dst->frames = NULL;
  if (lb_clip_frames_create(&dst->clip, &w->allocator, &dst->frames) == LB_ERR_OUT_OF_MEMORY) {
    lb_free(w, block);
    return LB_ERR_OUT_OF_MEMORY;
  }
  return LB_OK;
}

static lb_result lb_reserve_clips(lb_world *w, uint32_t extra) {
  if (extra > UINT32_MAX - lb_anim_world_of(w)->clip_count) {
    return LB_ERR_CAPACITY;
  }
  lb_anim_world *aw = lb_anim_world_of(w);
  return lb_array_reserve(&w->allocator, (void **)&aw->clips, &aw->clip_capacity, aw->clip_count,
                          aw->clip_count + extra, sizeof(lb_clip_asset), 8u);
}

lb_result lb_clip_assets_reserve(lb_world *w, uint32_t upto) {
  lb_anim_world *aw = lb_anim_world_of(w);
  if (upto <= aw->clip_count) {
    return LB_OK;
  }
  if (lb_array_reserve(&w->allocator, (void **)&aw->clips, &aw->clip_capacity, aw->clip_count, upto,
                       sizeof(lb_clip_asset), 8u) != LB_OK) {
    return LB_ERR_OUT_OF_MEMORY;
  }
  memset(&aw->clips[aw->clip_count], 0, (size_t)(upto - aw->clip_count) * sizeof(lb_clip_asset));
  aw->clip_count = upto;
  return LB_OK;
}

void lb_clip_assets_release(lb_world *w, uint32_t keep) {
  lb_anim_world *aw = lb_anim_world_of(w);
  while (aw->clip_count > keep) {
    lb_clip_asset *a = &aw->clips[--aw->clip_count];
    lb_clip_frames_destroy(a->frames);
    lb_free(w, a->block);
  }
  if (keep == 0) {
    lb_free(w, aw->clips);
    aw->clips = NULL;
    aw->clip_capacity = 0;
  }
}

static bool lb_name_ok(const char *name) {
  size_t n = 0;
  while (name && n < LB_JOINT_NAME_MAX && name[n]) {
    ++n;
  }
  return name && n > 0 && n < LB_JOINT_NAME_MAX;
}

/* ---- public: clip assets ------------------------------------------------------------------- */

lb_result lb_world_add_clip(lb_world *w, const char *name, uint32_t skeleton, const lb_clip *clip,
                            uint32_t *out_clip) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!clip || !out_clip) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "add_clip: null clip or out_clip");
  }
  if (!lb_name_ok(name)) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "add_clip: name must be 1..%d bytes",
                   LB_JOINT_NAME_MAX - 1);
  }
  const lb_skeleton *s = lb_skeleton_get(w, skeleton);
  if (!s) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "add_clip '%s': skeleton asset %u does not exist",
                   name, skeleton);
  }
  lb_result r = lb_clip_validate(clip);
  if (r != LB_OK) {
    return lb_fail(w, r, "add_clip '%s': the clip fails lb_clip_validate", name);
  }
  if (clip->joint_count > s->joint_count) {
    return lb_fail(w, LB_ERR_OUT_OF_RANGE,
                   "add_clip '%s': %u joint tracks for a skeleton of %u joints", name,
                   clip->joint_count, s->joint_count);
  }
  if (lb_reserve_clips(w, 1) != LB_OK) {
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "add_clip '%s': out of memory", name);
  }
  lb_clip_asset a;
  memset(&a, 0, sizeof a);
  if (lb_clip_copy(w, clip, s, &a) != LB_OK) {
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "add_clip '%s': out of memory", name);
  }
  memcpy(a.name, name, strlen(name) + 1u);
  a.skeleton = skeleton;
  lb_anim_world_of(w)->clips[lb_anim_world_of(w)->clip_count++] = a;
  *out_clip = lb_anim_world_of(w)->clip_count;
  return LB_OK;
}

static uint32_t lb_find_clip_named(const lb_world *w, uint32_t skeleton, const char *name) {
  for (uint32_t i = 0; w && name && i < lb_anim_world_of(w)->clip_count; ++i) {
    if (lb_anim_world_of(w)->clips[i].skeleton &&
        (skeleton == 0 || lb_anim_world_of(w)->clips[i].skeleton == skeleton) &&
        strcmp(lb_anim_world_of(w)->clips[i].name, name) == 0) {
      return i + 1u;
    }
  }
  return 0;
}

uint32_t lb_world_find_clip(const lb_world *w, uint32_t skeleton, const char *name) {
  uint32_t h = lb_find_clip_named(w, skeleton, name);
  if (h || !name || strncmp(name, "animation", 9) != 0) {
    return h;
  }
  /* Deprecated: unnamed glTF animations were "animation<i>" before they took three.js's
   * "animation_<i>"; a game or scene written then still finds its clip. */
  size_t digits = strspn(name + 9, "0123456789");
  if (digits == 0 || digits > 9 || name[9 + digits] != 0) {
    return 0;
  }
  char renamed[LB_JOINT_NAME_MAX];
  memcpy(renamed, "animation_", 10);
  memcpy(renamed + 10, name + 9, digits + 1u);
  return lb_find_clip_named(w, skeleton, renamed);
}

uint32_t lb_world_clip_count(const lb_world *w) {
  return w ? lb_anim_world_of(w)->clip_count : 0;
}

static const lb_clip_asset *lb_clip_get(const lb_world *w, uint32_t clip) {
  /* skeleton 0: a place lb_clip_assets_reserve padded, no clip (every clip animates one) */
  return w && clip >= 1 && clip <= lb_anim_world_of(w)->clip_count &&
                 lb_anim_world_of(w)->clips[clip - 1u].skeleton
             ? &lb_anim_world_of(w)->clips[clip - 1u]
             : NULL;
}

const lb_clip *lb_world_clip(const lb_world *w, uint32_t clip) {
  const lb_clip_asset *a = lb_clip_get(w, clip);
  return a ? &a->clip : NULL;
}

const lb_clip_frames *lb_world_clip_frames(const lb_world *w, uint32_t clip) {
  const lb_clip_asset *a = lb_clip_get(w, clip);
  return a ? a->frames : NULL;
}

const char *lb_world_clip_name(const lb_world *w, uint32_t clip) {
  const lb_clip_asset *a = lb_clip_get(w, clip);
  return a ? a->name : NULL;
}

lb_result lb_world_clip_reduction(const lb_world *w, uint32_t clip, lb_clip_reduction *out) {
  const lb_clip_asset *a = lb_clip_get(w, clip);
  if (!a || !out) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  *out = a->reduction;
  return LB_OK;
}

uint32_t lb_world_clip_skeleton(const lb_world *w, uint32_t clip) {
  const lb_clip_asset *a = lb_clip_get(w, clip);
  return a ? a->skeleton : 0;
}

lb_result lb_world_sample_clip(lb_world *w, uint32_t clip, float time, bool loop, lb_transform *out,
                               uint32_t count) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  const lb_clip_asset *a = lb_clip_get(w, clip);
  if (!a) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "sample_clip: clip %u does not exist", clip);
  }
  const lb_skeleton *s = lb_skeleton_get(w, a->skeleton);
  if (!out || count != s->joint_count) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT,
                   "sample_clip '%s': out needs %u transforms (count = %u)", a->name,
                   s->joint_count, count);
  }
  lb_sample_job job;
  memset(&job, 0, sizeof job);
  job.clip = &a->clip;
  job.frames = a->frames;
  job.time = time;
  job.loop = loop;
  job.rest = s->rest;
  job.joint_count = s->joint_count;
  job.output = out;
  lb_result r = lb_sample_job_run(&job);
  if (r != LB_OK) {
    return lb_fail(w, r, "sample_clip '%s': time = %g s is not a valid sampling time", a->name,
                   (double)time);
  }
  return LB_OK;
}

const lb_transform *lb_world_skeleton_rest(const lb_world *w, uint32_t skeleton, uint32_t *count) {
  const lb_skeleton *s = lb_skeleton_get(w, skeleton);
  if (count) {
    *count = s ? s->joint_count : 0;
  }
  return s ? s->rest : NULL;
}

/* ---- public: glTF ------------------------------------------------------------------------- */

lb_result lb_world_add_gltf_asset(lb_world *w, const lb_gltf_asset *asset, lb_gltf_added *out) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!asset || !out) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "add_gltf: null asset or out");
  }
  for (uint32_t i = 0; i < asset->clip_count; ++i) {
    const lb_gltf_clip *c = &asset->clips[i];
    lb_result r = lb_clip_validate(&c->clip);
    if (r != LB_OK || !lb_name_ok(c->name) || c->clip.joint_count > asset->skeleton.joint_count) {
      return lb_fail(w, r != LB_OK ? r : LB_ERR_INVALID_ARGUMENT,
                     "add_gltf: clip %u does not fit the asset's skeleton", i);
    }
  }
  /* Everything that can fail happens before the world changes visibly: the clip array may
   * grow (no handle is handed out), the copies are made, then the skeleton is added. */
  if (lb_reserve_clips(w, asset->clip_count) != LB_OK) {
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "add_gltf: out of memory for %u clips",
                   asset->clip_count);
  }
  uint32_t base = lb_anim_world_of(w)->clip_count;
  uint32_t done = 0;
  lb_result r = LB_OK;
  for (; done < asset->clip_count && r == LB_OK; ++done) {
    lb_clip_asset *a = &lb_anim_world_of(w)->clips[base + done];
    memset(a, 0, sizeof *a);
    r = lb_clip_copy(w, &asset->clips[done].clip, NULL, a);
    if (r != LB_OK) {
      break;
    }
    a->reduction = asset->clips[done].reduction;
    memcpy(a->name, asset->clips[done].name, LB_JOINT_NAME_MAX);
    a->name[LB_JOINT_NAME_MAX - 1] = 0;
  }
  uint32_t skeleton = 0;
  if (r == LB_OK) {
    r = lb_world_add_skeleton(w, &asset->skeleton, &skeleton); /* records its own message */
  } else {
    lb_fail(w, r, "add_gltf: out of memory copying clip %u", done);
  }
  if (r != LB_OK) {
    for (uint32_t i = 0; i < done; ++i) {
      lb_clip_asset *a = &lb_anim_world_of(w)->clips[base + i];
      lb_clip_frames_destroy(a->frames);
      lb_free(w, a->block);
      a->frames = NULL;
      a->block = NULL;
    }
    return r;
  }
  for (uint32_t i = 0; i < asset->clip_count; ++i) {
    lb_anim_world_of(w)->clips[base + i].skeleton = skeleton;
  }
  lb_anim_world_of(w)->clip_count = base + asset->clip_count;
  out->skeleton = skeleton;
  out->first_clip = asset->clip_count ? base + 1u : 0u;
  out->clip_count = asset->clip_count;
  return LB_OK;
}

lb_result lb_world_add_gltf(lb_world *w, const lb_gltf_def *def, lb_gltf_added *out) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!def || !out) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "add_gltf: null def or out");
  }
  lb_gltf_def d = *def;
  if (!d.allocator.alloc && !d.allocator.free) {
    d.allocator = w->allocator;
  }
  lb_gltf_asset *asset = NULL;
  char msg[LB_GLTF_MESSAGE_MAX];
  lb_result r = lb_gltf_import(&d, &asset, msg, sizeof msg);
  if (r != LB_OK) {
    return lb_fail(w, r, "%s", msg);
  }
  r = lb_world_add_gltf_asset(w, asset, out);
  lb_gltf_free(asset);
  return r;
}
