/* Clip reduction at import (limber/anim.h lb_clip_reduce_job).
 *
 * Why tracks are made constant rather than shortened: the four-wide frames need every
 * rotation track on one key grid, and sampling is compute-bound, so the saving is in the
 * sampler copying a segment whose two keys are bitwise equal instead of interpolating and
 * normalising it. The tolerance is checked where it matters, at joint positions and at
 * `skin_distance` from each joint, over the whole hierarchy at every key time; when the
 * per-track estimates add up beyond it along a chain, the per-track budget is halved and
 * the pass redone from the original keys. */
#include "../base/alloc.h"
#include "../math/math_inline.h"
#include "clip_internal.h"
#include "limber/rig.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

lb_clip_reduce_job lb_clip_reduce_default_job(void) {
  lb_clip_reduce_job job;
  memset(&job, 0, sizeof job);
  job.tolerance = 1e-4f;
  job.skin_distance = 0.1f;
  return job;
}

lb_clip_reduction lb_clip_reduce_job_result(const lb_clip_reduce_job *job) {
  lb_clip_reduction r = {job->track_count, job->constant_count, job->error, 0u, 0.0f, 0.0f};
  return r;
}

lb_result lb_clip_reduce_job_validate(const lb_clip_reduce_job *job) {
  if (!job || !job->clip || !job->parents || !job->rest || job->joint_count == 0 ||
      job->joint_count < job->clip->joint_count || job->joint_count > LB_MAX_JOINTS) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!lb_is_finite(job->tolerance) || !lb_is_finite(job->skin_distance)) {
    return LB_ERR_NOT_FINITE;
  }
  if (job->tolerance < 0.0f || job->tolerance > 1.0f || job->skin_distance < 0.0f ||
      job->skin_distance > 100.0f) {
    return LB_ERR_OUT_OF_RANGE;
  }
  for (uint32_t j = 0; j < job->joint_count; ++j) {
    if (job->parents[j] >= (int32_t)j || job->parents[j] < -1) {
      return LB_ERR_INVALID_ARGUMENT; /* depth-first: parents precede children */
    }
  }
  return lb_clip_validate(job->clip);
}

static float lb_max_abs3(const float *v) {
  float m = 0.0f;
  for (int c = 0; c < 3; ++c) {
    float a = v[c] < 0.0f ? -v[c] : v[c];
    m = a > m ? a : m;
  }
  return m;
}

/* Largest deviation of a track's keys from key 0: an angle in radians for rotations, the
 * largest component difference for vectors. */
static float lb_track_spread(const lb_track *tr, uint32_t comps) {
  float m = 0.0f;
  const float *v0 = tr->values;
  for (uint32_t k = 1; k < tr->count; ++k) {
    const float *v = tr->values + (size_t)k * comps;
    float e;
    if (comps == 4u) {
      /* From the chord between the two unit quaternions (on the shorter arc), not from the
       * acos of their dot: near 1 the dot rounds to 1 in float and hides small angles. */
      float d = v0[0] * v[0] + v0[1] * v[1] + v0[2] * v[2] + v0[3] * v[3];
      float sign = d < 0.0f ? -1.0f : 1.0f, c2 = 0.0f;
      for (int c = 0; c < 4; ++c) {
        float diff = v0[c] - sign * v[c];
        c2 += diff * diff;
      }
      e = 4.0f * lb_asin(0.5f * lb_sqrt(c2)); /* chord 2 sin(angle / 4) */
    } else {
      float diff[3] = {v[0] - v0[0], v[1] - v0[1], v[2] - v0[2]};
      e = lb_max_abs3(diff);
    }
    m = e > m ? e : m;
  }
  return m;
}

static bool lb_track_constant(const lb_track *tr, uint32_t comps) {
  for (uint32_t k = 1; k < tr->count; ++k) {
    if (memcmp(tr->values, tr->values + (size_t)k * comps, comps * sizeof(float)) != 0) {
      return false;
    }
  }
  return true;
}

/* Every key of the track set to key 0, bit for bit (the samplers copy such a segment). */
static void lb_track_flatten(const lb_track *tr, uint32_t comps) {
  float *values = (float *)(uintptr_t)tr->values; /* writable by the job's contract */
  for (uint32_t k = 1; k < tr->count; ++k) {
    memcpy(values + (size_t)k * comps, values, comps * sizeof(float));
  }
}

/* Scratch: the original keys, the key times to check, two poses in model space. */
typedef struct reduce_scratch {
  lb_joint_tracks *original;
  float *times;
  uint32_t time_count;
  lb_transform *local_a, *local_b, *model_a, *model_b;
  float *reach;        /* per joint: metres over which its own rotation or scale error is felt */
  float *parent_scale; /* per joint: its parent's largest rest model scale (1 for a root) */
} reduce_scratch;

static int lb_cmp_float(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

static size_t lb_clip_values(const lb_clip *clip) {
  size_t n = 0;
  for (uint32_t j = 0; j < clip->joint_count; ++j) {
    n += (size_t)clip->joints[j].translation.count * 3u +
         (size_t)clip->joints[j].rotation.count * 4u + (size_t)clip->joints[j].scale.count * 3u;
  }
  return n;
}

static size_t lb_clip_keys(const lb_clip *clip) {
  size_t n = 0;
  for (uint32_t j = 0; j < clip->joint_count; ++j) {
    n += (size_t)clip->joints[j].translation.count + clip->joints[j].rotation.count +
         clip->joints[j].scale.count;
  }
  return n;
}

static lb_result lb_scratch_make(const lb_clip_reduce_job *job, const lb_allocator *al,
                                 reduce_scratch *s, void **block_out) {
  const lb_clip *clip = job->clip;
  uint32_t jn = job->joint_count;
  size_t values = lb_clip_values(clip), keys = lb_clip_keys(clip);
  size_t bytes = (size_t)clip->joint_count * sizeof(lb_joint_tracks) +
                 4u * jn * sizeof(lb_transform) + (values + keys + 2u * jn) * sizeof(float);
  uint8_t *block = lb_mem_alloc(al, bytes);
  if (!block) {
    return LB_ERR_OUT_OF_MEMORY;
  }
  *block_out = block;
  s->original = (lb_joint_tracks *)(void *)block;
  uint8_t *p = block + (size_t)clip->joint_count * sizeof(lb_joint_tracks);
  s->local_a = (lb_transform *)(void *)p;
  s->local_b = s->local_a + jn;
  s->model_a = s->local_b + jn;
  s->model_b = s->model_a + jn;
  float *f = (float *)(void *)(s->model_b + jn);
  s->reach = f;
  f += jn;
  s->parent_scale = f;
  f += jn;
  s->times = f;
  f += keys;
  s->time_count = 0;
  for (uint32_t j = 0; j < clip->joint_count; ++j) {
    const lb_track *in[3] = {&clip->joints[j].translation, &clip->joints[j].rotation,
                             &clip->joints[j].scale};
    lb_track *out[3] = {&s->original[j].translation, &s->original[j].rotation,
                        &s->original[j].scale};
    for (int ch = 0; ch < 3; ++ch) {
      size_t comps = ch == 1 ? 4u : 3u;
      *out[ch] = *in[ch];
      if (in[ch]->count == 0) {
        continue;
      }
      memcpy(f, in[ch]->values, in[ch]->count * comps * sizeof(float));
      out[ch]->values = f;
      f += in[ch]->count * comps;
      memcpy(s->times + s->time_count, in[ch]->times, in[ch]->count * sizeof(float));
      s->time_count += in[ch]->count;
    }
  }
  qsort(s->times, s->time_count, sizeof(float), lb_cmp_float);
  uint32_t unique = 0;
  for (uint32_t i = 0; i < s->time_count; ++i) {
    if (unique == 0 || s->times[i] != s->times[unique - 1u]) {
      s->times[unique++] = s->times[i];
    }
  }
  s->time_count = unique;
  return LB_OK;
}

static void lb_to_model(const lb_clip_reduce_job *job, const lb_transform *local,
                        lb_transform *model) {
  for (uint32_t j = 0; j < job->joint_count; ++j) {
    int32_t p = job->parents[j];
    if (p < 0) {
      model[j] = local[j];
    } else {
      lb_transform_mul(&model[p], &local[j], &model[j]);
    }
  }
}

/* Per joint, the farthest descendant in the rest pose, at least skin_distance (a leaf's
 * rotation moves the mesh beyond it), in metres of model space. */
static void lb_joint_reach(const lb_clip_reduce_job *job, reduce_scratch *s) {
  lb_to_model(job, job->rest, s->model_a);
  for (uint32_t j = 0; j < job->joint_count; ++j) {
    int32_t p = job->parents[j];
    s->reach[j] = job->skin_distance * lb_max_abs3(s->model_a[j].s);
    s->parent_scale[j] = p >= 0 ? lb_max_abs3(s->model_a[p].s) : 1.0f;
  }
  for (uint32_t j = 0; j < job->joint_count; ++j) {
    for (int32_t p = job->parents[j]; p >= 0; p = job->parents[p]) {
      float d[3] = {s->model_a[j].t[0] - s->model_a[p].t[0],
                    s->model_a[j].t[1] - s->model_a[p].t[1],
                    s->model_a[j].t[2] - s->model_a[p].t[2]};
      float dist = lb_sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
      s->reach[p] = dist > s->reach[p] ? dist : s->reach[p];
    }
  }
}

/* One pass: tracks whose estimated error is within `budget` metres become constant. */
static uint32_t lb_flatten_pass(const lb_clip_reduce_job *job, const reduce_scratch *s,
                                float budget) {
  const lb_clip *clip = job->clip;
  uint32_t made = 0;
  for (uint32_t j = 0; j < clip->joint_count; ++j) {
    const lb_joint_tracks *jt = &clip->joints[j];
    const lb_track *tr[3] = {&jt->translation, &jt->rotation, &jt->scale};
    float lever[3] = {s->parent_scale[j], s->reach[j], s->reach[j]};
    for (int ch = 0; ch < 3; ++ch) {
      uint32_t comps = ch == 1 ? 4u : 3u;
      if (tr[ch]->count < 2u || lb_track_constant(tr[ch], comps)) {
        continue;
      }
      if (lb_track_spread(tr[ch], comps) * lever[ch] <= budget) {
        lb_track_flatten(tr[ch], comps);
        ++made;
      }
    }
  }
  return made;
}

/* Largest distance between the original and the reduced clip's joints, and points at
 * skin_distance along each joint's axes, at every key time. */
static float lb_measure(const lb_clip_reduce_job *job, reduce_scratch *s) {
  lb_clip original = *job->clip;
  original.joints = s->original;
  lb_sample_job sa, sb;
  memset(&sa, 0, sizeof sa);
  sa.clip = &original;
  sa.rest = job->rest;
  sa.joint_count = job->joint_count;
  sa.output = s->local_a;
  sb = sa;
  sb.clip = job->clip;
  sb.output = s->local_b;
  float worst = 0.0f;
  for (uint32_t i = 0; i < s->time_count; ++i) {
    sa.time = sb.time = s->times[i];
    if (lb_sample_job_run(&sa) != LB_OK || lb_sample_job_run(&sb) != LB_OK) {
      return FLT_MAX;
    }
    lb_to_model(job, s->local_a, s->model_a);
    lb_to_model(job, s->local_b, s->model_b);
    for (uint32_t j = 0; j < job->joint_count; ++j) {
      for (int axis = -1; axis < 3; ++axis) {
        float off[3] = {0.0f, 0.0f, 0.0f}, pa[3], pb[3];
        if (axis >= 0) {
          off[axis] = job->skin_distance;
        }
        lb_transform_point(&s->model_a[j], off, pa);
        lb_transform_point(&s->model_b[j], off, pb);
        float d[3] = {pa[0] - pb[0], pa[1] - pb[1], pa[2] - pb[2]};
        float e = lb_sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        worst = e > worst || e != e ? e : worst;
      }
    }
  }
  return worst;
}

static void lb_restore(const lb_clip_reduce_job *job, const reduce_scratch *s) {
  const lb_clip *clip = job->clip;
  for (uint32_t j = 0; j < clip->joint_count; ++j) {
    const lb_track *src[3] = {&s->original[j].translation, &s->original[j].rotation,
                              &s->original[j].scale};
    const lb_track *dst[3] = {&clip->joints[j].translation, &clip->joints[j].rotation,
                              &clip->joints[j].scale};
    for (int ch = 0; ch < 3; ++ch) {
      size_t comps = ch == 1 ? 4u : 3u;
      if (src[ch]->count) {
        memcpy((float *)(uintptr_t)dst[ch]->values, src[ch]->values,
               src[ch]->count * comps * sizeof(float));
      }
    }
  }
}

static uint32_t lb_count_tracks(const lb_clip *clip, bool constant_only) {
  uint32_t n = 0;
  for (uint32_t j = 0; j < clip->joint_count; ++j) {
    const lb_track *tr[3] = {&clip->joints[j].translation, &clip->joints[j].rotation,
                             &clip->joints[j].scale};
    for (int ch = 0; ch < 3; ++ch) {
      if (tr[ch]->count > 0) {
        n += !constant_only || lb_track_constant(tr[ch], ch == 1 ? 4u : 3u);
      }
    }
  }
  return n;
}

/* Budget halvings before giving up on flattening (2^-12 of the tolerance). */
#define LB_REDUCE_TRIES 12

lb_result lb_clip_reduce_job_run(lb_clip_reduce_job *job) {
  lb_result r = lb_clip_reduce_job_validate(job);
  if (r != LB_OK) {
    return r;
  }
  job->track_count = lb_count_tracks(job->clip, false);
  job->constant_before = lb_count_tracks(job->clip, true);
  job->constant_count = job->constant_before;
  job->error = 0.0f;
  if (!(job->tolerance > 0.0f)) {
    return LB_OK;
  }
  lb_allocator al = job->allocator && job->allocator->alloc && job->allocator->free
                        ? *job->allocator
                        : lb_allocator_default();
  reduce_scratch s;
  void *block = NULL;
  r = lb_scratch_make(job, &al, &s, &block);
  if (r != LB_OK) {
    return r;
  }
  lb_joint_reach(job, &s);
  float budget = job->tolerance;
  for (int i = 0; i < LB_REDUCE_TRIES; ++i, budget *= 0.5f) {
    if (lb_flatten_pass(job, &s, budget) == 0) {
      job->error = 0.0f;
      break;
    }
    float e = lb_measure(job, &s);
    if (e <= job->tolerance) {
      job->error = e;
      break;
    }
    lb_restore(job, &s);
  }
  job->constant_count = lb_count_tracks(job->clip, true);
  lb_mem_free(&al, block);
  return LB_OK;
}
