/* Clip data, the sampling job and the root-motion job (limber/anim.h). One file because the
 * root motion reads the clip through the same track evaluation as sampling. */
#include "clip_internal.h"

#include "../base/bytes.h"
#include "../math/math_inline.h"

#include <stddef.h>
#include <string.h>

/* The per-track helpers of the sampling loop must inline: clang (so emcc) otherwise keeps
 * eval_quat and locate_fast as calls returning a struct, about a third of the sampling time. */
#if defined(__GNUC__) || defined(__clang__)
#define LB_ANIM_INLINE static inline __attribute__((always_inline))
#else
#define LB_ANIM_INLINE static inline
#endif

#define LB_ANIM_MAX_LOOPS 16777216.0f /* 2^24 */

/* Beyond 2^24 loops a float time no longer resolves a frame; such times are refused. */
static bool lb_loops_in_range(float t, float duration) {
  float q = t / duration;
  return q <= LB_ANIM_MAX_LOOPS && q >= -LB_ANIM_MAX_LOOPS;
}

uint32_t lb_clip_track_count(const lb_clip *clip) {
  return clip ? clip->joint_count * 3u : 0u;
}

/* ---- validation ---------------------------------------------------------------------------- */

/* Cheap structural check of one track (no key contents): the jobs run it over every track on
 * every call, so it is kept to a few predictable branches. */
static inline bool lb_track_ok(const lb_track *tr) {
  /* CUBICSPLINE (or an unknown value): not supported yet */
  return tr->count == 0u || (tr->times && tr->values && (uint32_t)tr->interp <= LB_INTERP_STEP);
}

static lb_result lb_clip_duration(const lb_clip *clip) {
  if (!lb_is_finite(clip->duration)) {
    return LB_ERR_NOT_FINITE;
  }
  return clip->duration > 0.0f ? LB_OK : LB_ERR_OUT_OF_RANGE;
}

lb_result lb_clip_structure(const lb_clip *clip) {
  if (!clip || !clip->joints || clip->joint_count == 0) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  lb_result r = lb_clip_duration(clip);
  if (r != LB_OK) {
    return r;
  }
  for (uint32_t j = 0; j < clip->joint_count; ++j) {
    const lb_joint_tracks *jt = &clip->joints[j];
    if (!lb_track_ok(&jt->translation) || !lb_track_ok(&jt->rotation) || !lb_track_ok(&jt->scale)) {
      return LB_ERR_INVALID_ARGUMENT;
    }
  }
  return LB_OK;
}

static lb_result lb_track_contents(const lb_track *tr, int comps, float duration) {
  for (uint32_t i = 0; i < tr->count; ++i) {
    float t = tr->times[i];
    if (!lb_is_finite(t)) {
      return LB_ERR_NOT_FINITE;
    }
    if (t < 0.0f || t > duration || (i > 0 && !(t > tr->times[i - 1]))) {
      return LB_ERR_OUT_OF_RANGE;
    }
    const float *v = tr->values + (size_t)i * (size_t)comps;
    for (int c = 0; c < comps; ++c) {
      if (!lb_is_finite(v[c])) {
        return LB_ERR_NOT_FINITE;
      }
    }
    if (comps == 4) {
      float n2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3];
      if (n2 == 0.0f) {
        return LB_ERR_DEGENERATE;
      }
      if (n2 < 0.999f || n2 > 1.001f) {
        return LB_ERR_OUT_OF_RANGE;
      }
    }
  }
  return LB_OK;
}

lb_result lb_clip_validate(const lb_clip *clip) {
  lb_result r = lb_clip_structure(clip);
  if (r != LB_OK) {
    return r;
  }
  for (uint32_t j = 0; j < clip->joint_count; ++j) {
    const lb_joint_tracks *jt = &clip->joints[j];
    r = lb_track_contents(&jt->translation, 3, clip->duration);
    if (r == LB_OK) {
      r = lb_track_contents(&jt->rotation, 4, clip->duration);
    }
    if (r == LB_OK) {
      r = lb_track_contents(&jt->scale, 3, clip->duration);
    }
    if (r != LB_OK) {
      return r;
    }
  }
  return LB_OK;
}

/* ---- time and key search ------------------------------------------------------------------ */

/* t = k * d + s with s in [0, d). |t / d| must be <= 2^24 (validated). */
static float lb_wrap_time(float t, float d, int64_t *loops) {
  float q = t / d;
  int64_t k = (int64_t)q;
  if ((float)k > q) {
    k -= 1; /* floor for negative non-integers */
  }
  float s = t - (float)k * d;
  if (s < 0.0f) {
    s = 0.0f; /* rounding: t sits on the loop boundary */
  }
  if (s >= d) {
    s = 0.0f;
    k += 1;
  }
  if (loops) {
    *loops = k;
  }
  return s;
}

static float lb_clamp_time(float t, float d) {
  return t < 0.0f ? 0.0f : (t > d ? d : t);
}

/* Largest i in [lo, hi) with times[i] <= t, or lo when none is. */
static uint32_t lb_key_bsearch(const float *times, uint32_t lo, uint32_t hi, float t) {
  while (hi - lo > 1u) {
    uint32_t mid = lo + (hi - lo) / 2u;
    if (times[mid] <= t) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/* Largest i with times[i] <= t, or 0 when t < times[0]. The hint only changes the cost:
 * a few linear steps forward from it, else a binary search on the right side. */
static uint32_t lb_find_key(const float *times, uint32_t n, float t, uint32_t hint) {
  uint32_t k = hint < n ? hint : n - 1u;
  if (times[k] > t) {
    return lb_key_bsearch(times, 0u, k, t); /* backward seek */
  }
  for (int step = 0; step < 4; ++step) {
    if (k + 1u >= n || times[k + 1u] > t) {
      return k;
    }
    ++k;
  }
  return lb_key_bsearch(times, k, n, t);
}

/* Where a track (count > 0) stands at t in [0, duration]: copy key a (copy), or interpolate
 * keys a -> b by u in (0, 1). With `wrap`, the span from the last key to duration + the first
 * key interpolates last -> first. */

LB_ANIM_INLINE key_span span_finish(const lb_track *tr, key_span sp) {
  if (sp.u <= 0.0f || tr->interp == LB_INTERP_STEP) {
    return sp; /* copy a */
  }
  if (sp.u >= 1.0f) {
    sp.a = sp.b;
    return sp;
  }
  sp.copy = false;
  return sp;
}

/* Any position of t. */
static key_span lb_locate(const lb_track *tr, float t, float duration, bool wrap, uint32_t *hint) {
  const float *times = tr->times;
  uint32_t n = tr->count;
  uint32_t k = lb_find_key(times, n, t, hint ? *hint : 0u);
  if (hint) {
    *hint = k;
  }
  key_span sp = {k, k, 0.0f, true};
  if (t < times[0]) {
    if (!wrap || n == 1u) {
      sp.a = 0u;
      return sp;
    }
    sp.a = n - 1u;
    sp.b = 0u;
    sp.u = (t + duration - times[sp.a]) / (times[0] + duration - times[sp.a]);
  } else if (k == n - 1u) {
    float span = times[0] + duration - times[k];
    if (!wrap || n == 1u || !(span > 0.0f) || t == times[k]) {
      return sp;
    }
    sp.b = 0u;
    sp.u = (t - times[k]) / span;
  } else {
    sp.b = k + 1u;
    sp.u = (t - times[k]) / (times[k + 1u] - times[k]);
  }
  return span_finish(tr, sp);
}

/* The last middle span found in this call: key k of a track of n keys, with the bits of its
 * key times ta = times[k] <= t < tb = times[k + 1]. The tracks of one clip usually share
 * their key times (a sampled 30 Hz grid), so the next track of n keys whose times[k] and
 * times[k + 1] have the same bits brackets t at the same k with the very same u: its span is
 * reused without a search or a division. Any other track searches (from its cursor hint) and
 * becomes the memo. */

static inline uint32_t lb_time_bits(float x) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

/* locate() for the common cases, inlined: the memo's span (shared key times), else forward
 * playback, where the cursor's key (or the next one) still brackets t. That is the span
 * find_key() would step to from the same hint. */
LB_ANIM_INLINE key_span locate_fast(const lb_track *tr, float t, float duration, bool wrap,
                                    uint32_t *hint, span_memo *memo) {
  const float *times = tr->times;
  uint32_t n = tr->count;
  if (memo->n == n && lb_time_bits(times[memo->k]) == memo->ta &&
      lb_time_bits(times[memo->k + 1u]) == memo->tb) {
    if (hint) {
      *hint = memo->k;
    }
    if (tr->interp == LB_INTERP_STEP) {
      key_span sp = {memo->k, memo->k + 1u, memo->u, true};
      return sp;
    }
    return memo->linear;
  }
  uint32_t k = hint ? *hint : 0u;
  if (k < n - 1u && times[k] <= t) {
    if (!(t < times[k + 1u])) {
      if (!(k + 2u < n && t < times[k + 2u])) {
        return lb_locate(tr, t, duration, wrap, hint);
      }
      ++k;
      if (hint) {
        *hint = k;
      }
    }
    key_span sp = {k, k + 1u, 0.0f, true};
    uint32_t ta = lb_time_bits(times[k]), tb = lb_time_bits(times[k + 1u]);
    if (memo->n != 0u && memo->ta == ta && memo->tb == tb) {
      sp.u = memo->u; /* same key times, another key count */
    } else {
      sp.u = (t - times[k]) / (times[k + 1u] - times[k]);
    }
    memo->n = n;
    memo->k = k;
    memo->ta = ta;
    memo->tb = tb;
    memo->u = sp.u;
    lb_track linear = *tr;
    linear.interp = LB_INTERP_LINEAR;
    memo->linear = span_finish(&linear, sp);
    return span_finish(tr, sp);
  }
  return lb_locate(tr, t, duration, wrap, hint);
}

/* Vector track (translation, scale): lerp. */
LB_ANIM_INLINE void eval_vec3(const lb_track *tr, float t, float duration, bool wrap,
                              uint32_t *hint, span_memo *memo, float *out) {
  key_span sp = locate_fast(tr, t, duration, wrap, hint, memo);
  const float *va = tr->values + (size_t)sp.a * 3u;
  if (sp.copy) {
    out[0] = va[0];
    out[1] = va[1];
    out[2] = va[2];
    return;
  }
  const float *vb = tr->values + (size_t)sp.b * 3u;
  for (int c = 0; c < 3; ++c) {
    out[c] = va[c] + (vb[c] - va[c]) * sp.u;
  }
}

/* Rotation track: normalised lerp on the shorter arc (as ozz-animation does for dense keys),
 * slerp only between keys more than 8 deg apart. nlerp's angle deviates
 * from slerp's by at most about 1.22e-6 deg * arc^3 (arc in degrees, worst near u = 0.2 and
 * 0.8): 6.3e-4 deg at the 8 deg limit, 1.2e-6 deg between keys 1 deg apart. The choice
 * depends only on the segment's two keys (|dot| against a constant), never on t, so each
 * segment is always interpolated one way and the output stays continuous in t. */

LB_ANIM_INLINE void eval_quat(const lb_track *tr, float t, float duration, bool wrap,
                              uint32_t *hint, span_memo *memo, float *out) {
  key_span sp = locate_fast(tr, t, duration, wrap, hint, memo);
  const float *va = tr->values + (size_t)sp.a * 4u;
  /* between bitwise-equal keys (a constant stretch, lb_clip_reduce_job): the key itself, not
   * its renormalisation */
  if (sp.copy || lb_same_bytes(va, tr->values + (size_t)sp.b * 4u, 4u * sizeof(float))) {
    out[0] = va[0];
    out[1] = va[1];
    out[2] = va[2];
    out[3] = va[3];
    return;
  }
  const float *vb = tr->values + (size_t)sp.b * 4u;
  float u = sp.u;
  float d = va[0] * vb[0] + va[1] * vb[1] + va[2] * vb[2] + va[3] * vb[3];
  float ad = d < 0.0f ? -d : d;
  if (!(ad >= LB_ANIM_NLERP_MIN_DOT)) {
    lb_quat_slerp(va, vb, u, out);
    return;
  }
  float sb = d < 0.0f ? -u : u;
  float sa = 1.0f - u;
  float q[4];
  for (int c = 0; c < 4; ++c) {
    q[c] = va[c] * sa + vb[c] * sb;
  }
  lb_qnormalize(q);
  out[0] = q[0];
  out[1] = q[1];
  out[2] = q[2];
  out[3] = q[3];
}

/* ---- sampling job -------------------------------------------------------------------------- */

void lb_sample_cursor_reset(lb_sample_cursor *cursor) {
  if (!cursor || !cursor->keys) {
    return;
  }
  for (uint32_t i = 0; i < cursor->capacity; ++i) {
    cursor->keys[i] = 0u;
  }
}

lb_result lb_sample_job_validate(const lb_sample_job *job) {
  if (!job) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  /* Frames were made from a clip whose tracks passed the structural check (and are
   * read-only since): only the duration, a plain field, is checked again. */
  lb_result r = lb_clip_frames_match(job->frames, job->clip) ? lb_clip_duration(job->clip)
                                                             : lb_clip_structure(job->clip);
  if (r != LB_OK) {
    return r;
  }
  if (!job->rest || !job->output || job->joint_count == 0 ||
      job->joint_count < job->clip->joint_count || job->output == job->rest) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (job->cursor &&
      (!job->cursor->keys || job->cursor->capacity < lb_clip_track_count(job->clip))) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!lb_is_finite(job->time)) {
    return LB_ERR_NOT_FINITE;
  }
  if (job->loop && !lb_loops_in_range(job->time, job->clip->duration)) {
    return LB_ERR_OUT_OF_RANGE;
  }
  return LB_OK;
}

void lb_sample_at_init(const lb_sample_job *job, lb_sample_at *at) {
  memset(at, 0, sizeof *at);
  at->job = job;
  at->d = job->clip->duration;
  at->t = job->loop ? lb_wrap_time(job->time, at->d, NULL) : lb_clamp_time(job->time, at->d);
  at->hints = job->cursor ? job->cursor->keys : NULL;
  at->memo.linear.copy = true;
}

key_span lb_sample_at_grid(lb_sample_at *at, const lb_clip_frames *f) {
  uint32_t gj = 0;
  const lb_track *grid = lb_clip_frames_grid(f, &gj);
  return lb_locate(grid, at->t, at->d, at->job->loop, at->hints ? &at->hints[gj * 3u + 1u] : NULL);
}

void lb_sample_at_vec3(lb_sample_at *at, uint32_t j, uint32_t channel, float *out) {
  const float *rest = channel == 0u ? at->job->rest[j].t : at->job->rest[j].s;
  const lb_joint_tracks *jt = j < at->job->clip->joint_count ? &at->job->clip->joints[j] : NULL;
  const lb_track *tr = !jt ? NULL : channel == 0u ? &jt->translation : &jt->scale;
  if (!tr || tr->count == 0) {
    memcpy(out, rest, 3u * sizeof(float));
    return;
  }
  eval_vec3(tr, at->t, at->d, at->job->loop, at->hints ? &at->hints[j * 3u + channel] : NULL,
            &at->memo, out);
}

void lb_sample_at_joint(lb_sample_at *at, uint32_t j, lb_transform *out) {
  *out = at->job->rest[j];
  if (j >= at->job->clip->joint_count) {
    return;
  }
  const lb_track *rot = &at->job->clip->joints[j].rotation;
  if (rot->count > 0) {
    eval_quat(rot, at->t, at->d, at->job->loop, at->hints ? &at->hints[j * 3u + 1u] : NULL,
              &at->memo, out->r);
  }
  lb_sample_at_vec3(at, j, 0u, out->t);
  lb_sample_at_vec3(at, j, 2u, out->s);
}

lb_result lb_sample_job_run(lb_sample_job *job) {
  lb_result r = lb_sample_job_validate(job);
  if (r != LB_OK) {
    return r;
  }
  lb_sample_at at;
  lb_sample_at_init(job, &at);
  const lb_clip *clip = job->clip;
  float d = at.d;
  float t = at.t;
  bool loop = job->loop;
  uint32_t *hints = at.hints;
  uint32_t animated = clip->joint_count < job->joint_count ? clip->joint_count : job->joint_count;
  const lb_joint_tracks *joints = clip->joints;
  lb_transform *output = job->output;
  const lb_transform *rest = job->rest;
  span_memo memo = at.memo;
  /* Rotations four at a time when the clip has frames: one key search for all of them. */
  const lb_clip_frames *frames = lb_clip_frames_match(job->frames, clip) ? job->frames : NULL;
  if (frames) {
    /* Rest translations and scales first, the tracks over them: no per-joint branches. */
    for (uint32_t j = 0; j < animated; ++j) {
      memcpy(output[j].t, rest[j].t, sizeof output[j].t);
      memcpy(output[j].s, rest[j].s, sizeof output[j].s);
    }
    const lb_joint_lists *ls = lb_clip_frames_lists(frames);
    for (uint32_t i = 0; i < ls->unrotated_count; ++i) {
      memcpy(output[ls->unrotated[i]].r, rest[ls->unrotated[i]].r, sizeof output->r);
    }
    lb_clip_frames_sample(frames, lb_sample_at_grid(&at, frames), output);
    for (uint32_t i = 0; i < ls->translated_count; ++i) {
      uint32_t j = ls->translated[i];
      eval_vec3(&joints[j].translation, t, d, loop, hints ? &hints[j * 3u] : NULL, &memo,
                output[j].t);
    }
    for (uint32_t i = 0; i < ls->scaled_count; ++i) {
      uint32_t j = ls->scaled[i];
      eval_vec3(&joints[j].scale, t, d, loop, hints ? &hints[j * 3u + 2u] : NULL, &memo,
                output[j].s);
    }
    for (uint32_t j = animated; j < job->joint_count; ++j) {
      output[j] = rest[j];
    }
    return LB_OK;
  }
  /* Track by track: channels without a track take the rest pose. */
  for (uint32_t j = 0; j < animated; ++j) {
    lb_sample_at_joint(&at, j, &output[j]);
  }
  for (uint32_t j = animated; j < job->joint_count; ++j) {
    output[j] = rest[j];
  }
  return LB_OK;
}

/* ---- root motion --------------------------------------------------------------------------- */

/* A motion frame: position and yaw about +Y. R(yaw) maps (x, z) to (c x + s z, -s x + c z),
 * so R(yaw) * (0, 0, 1) = (sin yaw, 0, cos yaw). */
typedef struct motion_frame {
  float p[3];
  float yaw;
} motion_frame;

static void lb_frame_rotate(float yaw, const float *v, float *out) {
  float s, c;
  lb_sincos(yaw, &s, &c);
  float x = c * v[0] + s * v[2];
  float z = -s * v[0] + c * v[2];
  out[0] = x;
  out[1] = v[1];
  out[2] = z;
}

/* a * b */
static motion_frame lb_frame_mul(const motion_frame *a, const motion_frame *b) {
  motion_frame o;
  float rb[3];
  lb_frame_rotate(a->yaw, b->p, rb);
  for (int i = 0; i < 3; ++i) {
    o.p[i] = a->p[i] + rb[i];
  }
  o.yaw = a->yaw + b->yaw;
  return o;
}

static motion_frame lb_frame_inverse(const motion_frame *a) {
  motion_frame o;
  float np[3] = {-a->p[0], -a->p[1], -a->p[2]};
  lb_frame_rotate(-a->yaw, np, o.p);
  o.yaw = -a->yaw;
  return o;
}

static motion_frame lb_frame_identity(void) {
  motion_frame o = {{0.0f, 0.0f, 0.0f}, 0.0f};
  return o;
}

/* The root's frame at clip time s in [0, duration], without the loop wrap span. `hints`:
 * the cursor's keys or NULL; the translation and rotation tracks share one span memo (baked
 * clips share their key times, so the second track's span costs no search). */
static motion_frame lb_root_frame(const lb_clip *clip, uint32_t root, bool vertical, bool bake_yaw,
                                  uint32_t *hints, float s) {
  motion_frame f = lb_frame_identity();
  const lb_joint_tracks *jt = &clip->joints[root];
  span_memo memo = {0u, 0u, 0u, 0u, 0.0f, {0u, 0u, 0.0f, true}};
  if (jt->translation.count > 0) {
    eval_vec3(&jt->translation, s, clip->duration, false, hints ? &hints[root * 3u] : NULL, &memo,
              f.p);
    if (!vertical) {
      f.p[1] = 0.0f;
    }
  }
  if (jt->rotation.count > 0 && !bake_yaw) {
    versor q;
    vec3 z = {0.0f, 0.0f, 1.0f}, fwd;
    eval_quat(&jt->rotation, s, clip->duration, false, hints ? &hints[root * 3u + 1u] : NULL, &memo,
              q);
    lb_quat_rotate(q, z, fwd);
    f.yaw = lb_atan2(fwd[0], fwd[2]);
  }
  return f;
}

/* Motion from (k0 loops, s0) to (k0 + n loops, s1), n >= 0, in the frame at s0. The frame at
 * s1 is sampled last: the cursor's hints then stand where the sample job reads next. */
static motion_frame lb_motion_forward(const lb_clip *clip, uint32_t root, bool vertical, bool bake,
                                      uint32_t *hints, float s0, int64_t n, float s1) {
  motion_frame m0 = lb_root_frame(clip, root, vertical, bake, hints, s0);
  motion_frame inv0 = lb_frame_inverse(&m0);
  if (n == 0) {
    motion_frame m1 = lb_root_frame(clip, root, vertical, bake, hints, s1);
    return lb_frame_mul(&inv0, &m1);
  }
  /* M(s0)^-1 * M(d) * C^(n-1) * M(0)^-1 * M(s1), with C = M(0)^-1 * M(d) one whole loop. */
  motion_frame start = lb_root_frame(clip, root, vertical, bake, hints, 0.0f);
  motion_frame end = lb_root_frame(clip, root, vertical, bake, hints, clip->duration);
  motion_frame m1 = lb_root_frame(clip, root, vertical, bake, hints, s1);
  motion_frame inv_start = lb_frame_inverse(&start);
  motion_frame cycle = lb_frame_mul(&inv_start, &end);
  motion_frame acc = lb_frame_mul(&inv0, &end);
  motion_frame power = lb_frame_identity(), base = cycle;
  for (int64_t e = n - 1; e > 0; e >>= 1) {
    if (e & 1) {
      power = lb_frame_mul(&power, &base);
    }
    base = lb_frame_mul(&base, &base);
  }
  acc = lb_frame_mul(&acc, &power);
  acc = lb_frame_mul(&acc, &inv_start);
  return lb_frame_mul(&acc, &m1);
}

static float lb_wrap_pi(float a) {
  const float two_pi = 2.0f * LB_PI;
  if (a > LB_PI || a <= -LB_PI) {
    float q = (a + LB_PI) / two_pi;
    int64_t k = (int64_t)q;
    if ((float)k > q) {
      k -= 1;
    }
    a = a - (float)k * two_pi;
    while (a > LB_PI) {
      a -= two_pi;
    }
    while (a <= -LB_PI) {
      a += two_pi;
    }
  }
  return a;
}

float lb_clip_root_turn(const lb_clip *clip, uint32_t root_joint) {
  if (!clip || root_joint >= clip->joint_count || lb_clip_structure(clip) != LB_OK) {
    return 0.0f;
  }
  motion_frame a = lb_root_frame(clip, root_joint, false, false, NULL, 0.0f);
  motion_frame b = lb_root_frame(clip, root_joint, false, false, NULL, clip->duration);
  return lb_wrap_pi(b.yaw - a.yaw);
}

lb_result lb_root_motion_job_validate(const lb_root_motion_job *job) {
  if (!job) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  /* The job reads the root joint's tracks only: those are the ones checked (a check of
   * every track took 3% of a crowd's step). */
  const lb_clip *clip = job->clip;
  if (!clip || !clip->joints || job->root_joint >= clip->joint_count) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  lb_result r = lb_clip_duration(clip);
  if (r != LB_OK) {
    return r;
  }
  const lb_joint_tracks *jt = &clip->joints[job->root_joint];
  if (!lb_track_ok(&jt->translation) || !lb_track_ok(&jt->rotation) || !lb_track_ok(&jt->scale)) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (job->cursor &&
      (!job->cursor->keys || job->cursor->capacity < lb_clip_track_count(job->clip))) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!lb_is_finite(job->t0) || !lb_is_finite(job->t1)) {
    return LB_ERR_NOT_FINITE;
  }
  if (!lb_loops_in_range(job->t0, job->clip->duration) ||
      !lb_loops_in_range(job->t1, job->clip->duration)) {
    return LB_ERR_OUT_OF_RANGE;
  }
  return LB_OK;
}

lb_result lb_root_motion_job_run(lb_root_motion_job *job) {
  lb_result r = lb_root_motion_job_validate(job);
  if (r != LB_OK) {
    return r;
  }
  const lb_clip *clip = job->clip;
  uint32_t *hints = job->cursor ? job->cursor->keys : NULL;
  float d = clip->duration;
  int64_t k0 = 0, k1 = 0;
  float s0, s1;
  if (job->loop) {
    s0 = lb_wrap_time(job->t0, d, &k0);
    s1 = lb_wrap_time(job->t1, d, &k1);
  } else {
    s0 = lb_clamp_time(job->t0, d);
    s1 = lb_clamp_time(job->t1, d);
  }
  motion_frame m;
  if (k1 > k0 || (k1 == k0 && s1 >= s0)) {
    m = lb_motion_forward(clip, job->root_joint, job->vertical, job->bake_yaw, hints, s0, k1 - k0,
                          s1);
  } else {
    motion_frame back = lb_motion_forward(clip, job->root_joint, job->vertical, job->bake_yaw,
                                          hints, s1, k0 - k1, s0);
    m = lb_frame_inverse(&back);
  }
  job->translation[0] = m.p[0];
  job->translation[1] = m.p[1];
  job->translation[2] = m.p[2];
  job->yaw = lb_wrap_pi(m.yaw);
  return LB_OK;
}
