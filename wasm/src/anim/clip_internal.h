/* Shared between the scalar sampler (clip.c) and the four-wide one (clip_frames.c). */
#ifndef LIMBER_ANIM_CLIP_INTERNAL_H
#define LIMBER_ANIM_CLIP_INTERNAL_H

#include "limber/anim.h"

#include <stddef.h>

/* Rotation keys closer than 8 degrees (|dot| >= cos 4 deg) are nlerped, others slerped. */
#define LB_ANIM_NLERP_MIN_DOT 0.99756405f

/* Where a track (count > 0) stands at t in [0, duration]: copy key a (copy), or interpolate
 * keys a -> b by u in (0, 1). */
typedef struct key_span {
  uint32_t a, b;
  float u;
  bool copy;
} key_span;

/* The last middle span found in one sampling call (clip.c locate_fast). */
typedef struct span_memo {
  uint32_t n, k; /* n == 0: empty (tracks here have keys) */
  uint32_t ta, tb;
  float u;
  key_span linear; /* the span as span_finish() leaves it for a LINEAR track */
} span_memo;

/* One sample job at its time, as lb_sample_job_run works it out before reading tracks (the
 * job validated). lb_sample_blend_job_run reads the layers' tracks through it. */
typedef struct lb_sample_at {
  const lb_sample_job *job;
  float t, d;
  uint32_t *hints; /* the cursor's keys, or null */
  span_memo memo;
} lb_sample_at;
void lb_sample_at_init(const lb_sample_job *job, lb_sample_at *at);
/* The span of the frames' shared key grid (one key search for every rotation track). */
key_span lb_sample_at_grid(lb_sample_at *at, const lb_clip_frames *f);
/* Joint j's translation (channel 0) or scale (channel 2) as the job samples it. */
void lb_sample_at_vec3(lb_sample_at *at, uint32_t j, uint32_t channel, float *out);
/* Joint j's whole local transform as the job samples it (with or without frames: same bits). */
void lb_sample_at_joint(lb_sample_at *at, uint32_t j, lb_transform *out);

/* Translations and scales are whole lanes of four floats (vec3 + padding) when the
 * transform is 48 bytes with the scale at 32: then joints j..j+3 blend them four at a time
 * (each lane the scalar sum t += w * p.t in layer order, then * inv). */
#define LB_BLEND_VEC4 (sizeof(lb_transform) == 48u && offsetof(lb_transform, s) == 32u)

/* The per-track structure (pointers, interpolation) and duration of a clip, no key contents. */
lb_result lb_clip_structure(const lb_clip *clip);
bool lb_clip_frames_match(const lb_clip_frames *f, const lb_clip *clip);
/* The track whose key times all rotation tracks share, and its joint. */
const lb_track *lb_clip_frames_grid(const lb_clip_frames *f, uint32_t *joint);
typedef struct lb_joint_lists {
  const uint16_t *translated;
  uint32_t translated_count;
  const uint16_t *scaled;
  uint32_t scaled_count;
  const uint16_t *unrotated; /* no rotation track: the rest rotation */
  uint32_t unrotated_count;
} lb_joint_lists;
/* Which joints have which tracks besides the rotations in the frames. */
const lb_joint_lists *lb_clip_frames_lists(const lb_clip_frames *f);
/* Writes output[j].r for every joint with a rotation track: key a (copy), or a -> b by u. */
void lb_clip_frames_sample(const lb_clip_frames *f, key_span sp, lb_transform *output);
/* Whether two clips' frames animate the same joints' rotations in the same lanes. */
bool lb_clip_frames_same_lanes(const lb_clip_frames *a, const lb_clip_frames *b);
/* Joint j of a blend job into *out (blend.c), without the job's validation: for a caller
 * whose layers are valid by construction (the one-pass sample+blend's adjusted joint). The
 * job's uniform path gives the same bits. Additive layers are not applied. */
void lb_blend_job_joint(const lb_blend_job *job, uint32_t j, lb_transform *out);
/* For every joint with a rotation track: output[j].r = the uniform blend (lb_blend_job) of
 * the `count` (1 .. LB_SAMPLE_BLEND_MAX_LAYERS) layers' samples at their spans with weights w
 * (> 0), four joints at a time. */
void lb_clip_frames_blend(const lb_clip_frames *const *f, const key_span *spans, const float *w,
                          uint32_t count, lb_transform *output);

#endif
