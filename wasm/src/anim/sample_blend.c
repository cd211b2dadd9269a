/* The sample-and-blend job (limber/anim.h): layers whose frames line up are sampled and
 * blended four joints at a time without storing their poses; any other set runs the sample
 * jobs and the blend job. Both give the bits of the second way: every value goes through
 * the same operations in the same order (the sums of blend.c, the samplers of clip.c and
 * clip_frames.c), which tests/c/test_anim.c checks bit for bit. */
#include "../base/bytes.h"
#include "../math/math_inline.h"
#include "../math/simd4.h"
#include "clip_internal.h"
#include "limber/rig.h"

#include <string.h>

lb_sample_blend_job lb_sample_blend_default_job(void) {
  lb_sample_blend_job job;
  memset(&job, 0, sizeof job);
  job.threshold = 1e-6f;
  return job;
}

/* The blend job the composition runs over the samples' outputs. */
static lb_blend_job lb_as_blend(const lb_sample_blend_job *job, lb_blend_layer *layers) {
  for (uint32_t i = 0; i < job->layer_count; ++i) {
    layers[i].pose = job->samples[i].output;
    layers[i].weight = job->weights[i];
    layers[i].joint_weights = NULL;
  }
  lb_blend_job blend = lb_blend_default_job();
  blend.layers = layers;
  blend.layer_count = job->layer_count;
  blend.rest = job->rest;
  blend.joint_count = job->joint_count;
  blend.threshold = job->threshold;
  blend.output = job->output;
  return blend;
}

lb_result lb_sample_blend_job_validate(const lb_sample_blend_job *job) {
  if (!job || !job->samples || !job->weights || !job->rest || !job->output ||
      job->joint_count == 0 || job->layer_count == 0 ||
      job->layer_count > LB_SAMPLE_BLEND_MAX_LAYERS ||
      (job->adjust && job->adjust_joint >= job->joint_count)) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  for (uint32_t i = 0; i < job->layer_count; ++i) {
    const lb_sample_job *s = &job->samples[i];
    lb_result r = lb_sample_job_validate(s);
    if (r != LB_OK) {
      return r;
    }
    if (s->rest != job->rest || s->joint_count != job->joint_count) {
      return LB_ERR_INVALID_ARGUMENT;
    }
    for (uint32_t k = 0; k < i; ++k) {
      if (job->samples[k].output == s->output) {
        return LB_ERR_INVALID_ARGUMENT;
      }
    }
  }
  lb_blend_layer layers[LB_SAMPLE_BLEND_MAX_LAYERS];
  lb_blend_job blend = lb_as_blend(job, layers);
  return lb_blend_job_validate(&blend);
}

/* The layers with a weight > 0 have frames with the same lanes (and no joint beyond what the
 * seen-marks below can hold). */
static bool lb_lines_up(const lb_sample_blend_job *job) {
  const lb_clip_frames *first = NULL;
  if (job->joint_count > LB_MAX_JOINTS) {
    return false;
  }
  for (uint32_t i = 0; i < job->layer_count; ++i) {
    const lb_sample_job *s = &job->samples[i];
    if (!(job->weights[i] > 0.0f)) {
      continue;
    }
    if (!lb_clip_frames_match(s->frames, s->clip)) {
      return false;
    }
    if (!first) {
      first = s->frames;
    } else if (!lb_clip_frames_same_lanes(first, s->frames)) {
      return false;
    }
  }
  return true;
}

static void lb_run_in_turn(lb_sample_blend_job *job) {
  for (uint32_t i = 0; i < job->layer_count; ++i) {
    lb_sample_job_run(&job->samples[i]); /* validated */
    if (job->adjust && job->weights[i] > 0.0f) {
      job->adjust(job->adjust_user, i, &job->samples[i].output[job->adjust_joint]);
    }
  }
  lb_blend_layer layers[LB_SAMPLE_BLEND_MAX_LAYERS];
  lb_blend_job blend = lb_as_blend(job, layers);
  lb_blend_job_run(&blend);
}

/* The layers taken (weight > 0), in layer order. */
typedef struct taken {
  uint32_t count;
  uint32_t layer[LB_SAMPLE_BLEND_MAX_LAYERS];
  float w[LB_SAMPLE_BLEND_MAX_LAYERS];
  const lb_clip_frames *frames[LB_SAMPLE_BLEND_MAX_LAYERS];
  key_span span[LB_SAMPLE_BLEND_MAX_LAYERS];
  lb_sample_at at[LB_SAMPLE_BLEND_MAX_LAYERS];
  float inv; /* 1 / the total weight */
} taken;

/* Joint j's translation (channel 0) or scale (2) where some layer has a track. */
static void lb_blend_track_vector(taken *tk, uint32_t j, uint32_t channel, float *out) {
  float acc[3] = {0.0f, 0.0f, 0.0f}, first[3];
  bool same = true;
  for (uint32_t u = 0; u < tk->count; ++u) {
    float v[3];
    lb_sample_at_vec3(&tk->at[u], j, channel, v);
    if (u == 0) {
      memcpy(first, v, sizeof first);
    }
    same = same && lb_same_bytes(first, v, sizeof v);
    for (int c = 0; c < 3; ++c) {
      acc[c] += tk->w[u] * v[c];
    }
  }
  for (int c = 0; c < 3; ++c) {
    out[c] = same ? first[c] : acc[c] * tk->inv; /* blend.c: agreeing layers give their vector */
  }
}

/* A joint without rotation tracks: the blend of its rest rotation (dot with itself >= 0, so no
 * layer is negated). */
static void lb_blend_rest_rotation(const taken *tk, const float *r, float *out) {
  float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (uint32_t u = 0; u < tk->count; ++u) {
    for (int c = 0; c < 4; ++c) {
      acc[c] += tk->w[u] * r[c];
    }
  }
  lb_qnormalize(acc);
  memcpy(out, acc, sizeof acc);
}

/* The adjusted joint: each layer's sample of it adjusted, then blended alone. */
static void lb_blend_adjusted(lb_sample_blend_job *job, taken *tk) {
  uint32_t j = job->adjust_joint;
  lb_transform local[LB_SAMPLE_BLEND_MAX_LAYERS];
  lb_blend_layer layers[LB_SAMPLE_BLEND_MAX_LAYERS];
  for (uint32_t u = 0; u < tk->count; ++u) {
    lb_sample_at_joint(&tk->at[u], j, &local[u]);
    job->adjust(job->adjust_user, tk->layer[u], &local[u]);
    layers[u].pose = &local[u];
    layers[u].weight = tk->w[u];
    layers[u].joint_weights = NULL;
  }
  lb_blend_job blend = lb_blend_default_job();
  blend.layers = layers;
  blend.layer_count = tk->count;
  blend.rest = &job->rest[j];
  blend.joint_count = 1u;
  blend.threshold = job->threshold;
  blend.output = &job->output[j];
  lb_blend_job_joint(&blend, 0u, &job->output[j]);
}

static void lb_run_together(lb_sample_blend_job *job) {
  taken tk;
  tk.count = 0;
  float total = 0.0f;
  for (uint32_t i = 0; i < job->layer_count; ++i) {
    if (job->weights[i] > 0.0f) {
      tk.layer[tk.count] = i;
      tk.w[tk.count++] = job->weights[i];
      total += job->weights[i];
    }
  }
  uint32_t n = job->joint_count;
  lb_transform *out = job->output;
  if (!(total > job->threshold)) {
    memcpy(out, job->rest, (size_t)n * sizeof(lb_transform));
    return;
  }
  tk.inv = 1.0f / total;
  for (uint32_t u = 0; u < tk.count; ++u) {
    const lb_sample_job *s = &job->samples[tk.layer[u]];
    lb_sample_at_init(s, &tk.at[u]);
    tk.frames[u] = s->frames;
    tk.span[u] = lb_sample_at_grid(&tk.at[u], s->frames);
  }
  /* Every layer gives a joint without translation or scale tracks its rest vectors, and the
   * blend of vectors the layers agree on is that vector (blend.c): the rest's, copied. */
  memcpy(out, job->rest, (size_t)n * sizeof(lb_transform));
  uint8_t seen[LB_MAX_JOINTS];
  memset(seen, 0, n);
  for (uint32_t u = 0; u < tk.count; ++u) {
    const lb_joint_lists *ls = lb_clip_frames_lists(tk.frames[u]);
    for (uint32_t i = 0; i < ls->translated_count; ++i) {
      uint32_t j = ls->translated[i];
      if (!(seen[j] & 1u)) {
        seen[j] |= 1u;
        lb_blend_track_vector(&tk, j, 0u, out[j].t);
      }
    }
    for (uint32_t i = 0; i < ls->scaled_count; ++i) {
      uint32_t j = ls->scaled[i];
      if (!(seen[j] & 2u)) {
        seen[j] |= 2u;
        lb_blend_track_vector(&tk, j, 2u, out[j].s);
      }
    }
  }
  lb_clip_frames_blend(tk.frames, tk.span, tk.w, tk.count, out);
  /* Same lanes: the same joints are unrotated in every layer, and so is every joint past the
   * clips' own. */
  const lb_joint_lists *ls = lb_clip_frames_lists(tk.frames[0]);
  for (uint32_t i = 0; i < ls->unrotated_count; ++i) {
    uint32_t j = ls->unrotated[i];
    lb_blend_rest_rotation(&tk, job->rest[j].r, out[j].r);
  }
  for (uint32_t j = job->samples[tk.layer[0]].clip->joint_count; j < n; ++j) {
    lb_blend_rest_rotation(&tk, job->rest[j].r, out[j].r);
  }
  if (job->adjust) {
    lb_blend_adjusted(job, &tk);
  }
}

lb_result lb_sample_blend_job_run(lb_sample_blend_job *job) {
  lb_result r = lb_sample_blend_job_validate(job);
  if (r != LB_OK) {
    return r;
  }
  if (lb_lines_up(job)) {
    lb_run_together(job);
  } else {
    lb_run_in_turn(job);
  }
  return LB_OK;
}
