/* The blend job and the subtree mask helper (limber/anim.h). */
#include "limber/anim.h"

#include "../base/bytes.h"
#include "../math/math_inline.h"
#include "../math/simd4.h"
#include "../math/simd4_xf.h"
#include "clip_internal.h"
#include <stddef.h>
#include <string.h>

lb_blend_job lb_blend_default_job(void) {
  lb_blend_job job = {0};
  job.threshold = 1e-6f;
  return job;
}

/* Finite and in [0, max] (max < 0: no upper limit). */
static lb_result lb_check_weights(float weight, const float *joint_weights, uint32_t n, float max) {
  if (!lb_is_finite(weight)) {
    return LB_ERR_NOT_FINITE;
  }
  if (weight < 0.0f || (max >= 0.0f && weight > max)) {
    return LB_ERR_OUT_OF_RANGE;
  }
  if (joint_weights) {
    for (uint32_t j = 0; j < n; ++j) {
      if (!lb_is_finite(joint_weights[j])) {
        return LB_ERR_NOT_FINITE;
      }
      if (joint_weights[j] < 0.0f || (max >= 0.0f && joint_weights[j] > max)) {
        return LB_ERR_OUT_OF_RANGE;
      }
    }
  }
  return LB_OK;
}

lb_result lb_blend_job_validate(const lb_blend_job *job) {
  if (!job || !job->rest || !job->output || job->joint_count == 0 ||
      (job->layer_count > 0 && !job->layers) || (job->additive_count > 0 && !job->additive) ||
      job->output == job->rest) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!lb_is_finite(job->threshold)) {
    return LB_ERR_NOT_FINITE;
  }
  if (job->threshold < 0.0f) {
    return LB_ERR_OUT_OF_RANGE;
  }
  for (uint32_t i = 0; i < job->layer_count; ++i) {
    const lb_blend_layer *l = &job->layers[i];
    if (!l->pose || l->pose == job->output) {
      return LB_ERR_INVALID_ARGUMENT;
    }
    lb_result r = lb_check_weights(l->weight, l->joint_weights, job->joint_count, -1.0f);
    if (r != LB_OK) {
      return r;
    }
  }
  for (uint32_t i = 0; i < job->additive_count; ++i) {
    const lb_additive_layer *l = &job->additive[i];
    if (!l->pose || !l->reference || l->pose == job->output || l->reference == job->output) {
      return LB_ERR_INVALID_ARGUMENT;
    }
    lb_result r = lb_check_weights(l->weight, l->joint_weights, job->joint_count, 1.0f);
    if (r != LB_OK) {
      return r;
    }
  }
  return LB_OK;
}

/* Vectors every weighted layer agrees on bit for bit (a joint no clip moves: the rest pose in
 * every layer) blend to themselves exactly, not to their renormalised weighted sum. */
static bool lb_same_vec3(const float *a, const float *b) {
  return lb_same_bytes(a, b, 3u * sizeof(float));
}

void lb_blend_job_joint(const lb_blend_job *job, uint32_t j, lb_transform *out) {
  float total = 0.0f;
  const float *first_r = NULL;
  const float *first_t = NULL, *first_s = NULL;
  bool same_t = true, same_s = true;
  float t[3] = {0.0f, 0.0f, 0.0f}, s[3] = {0.0f, 0.0f, 0.0f}, r[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (uint32_t i = 0; i < job->layer_count; ++i) {
    const lb_blend_layer *l = &job->layers[i];
    float w = l->joint_weights ? l->weight * l->joint_weights[j] : l->weight;
    if (!(w > 0.0f)) {
      continue;
    }
    const lb_transform *p = &l->pose[j];
    if (!first_r) {
      first_r = p->r;
      first_t = p->t;
      first_s = p->s;
    }
    same_t = same_t && lb_same_vec3(first_t, p->t);
    same_s = same_s && lb_same_vec3(first_s, p->s);
    float d =
        first_r[0] * p->r[0] + first_r[1] * p->r[1] + first_r[2] * p->r[2] + first_r[3] * p->r[3];
    float wr = d < 0.0f ? -w : w;
    for (int c = 0; c < 3; ++c) {
      t[c] += w * p->t[c];
      s[c] += w * p->s[c];
    }
    for (int c = 0; c < 4; ++c) {
      r[c] += wr * p->r[c];
    }
    total += w;
  }
  if (!(total > job->threshold)) {
    *out = job->rest[j];
    return;
  }
  float inv = 1.0f / total;
  for (int c = 0; c < 3; ++c) {
    out->t[c] = same_t ? first_t[c] : t[c] * inv;
    out->s[c] = same_s ? first_s[c] : s[c] * inv;
  }
  for (int c = 0; c < 4; ++c) {
    out->r[c] = r[c];
  }
  lb_quat_normalize(out->r);
}

/* lb_quat_normalize, inlined (math_inline.h: same operations, same bits). */
static inline void lb_normalize_into(const float *q, float *out) {
  float n[4] = {q[0], q[1], q[2], q[3]};
  lb_qnormalize(n);
  for (int c = 0; c < 4; ++c) {
    out[c] = n[c];
  }
}

/* The rotation part of blend_uniform for joints j..j+3, lane by lane in its order. */
static void lb_blend_rotations4(const lb_transform *const *poses, const float *weights,
                                uint32_t used, uint32_t j, lb_transform *output) {
  const lb_f4 zero = lb_f4_set1(0.0f);
  const lb_transform *p = &poses[0][j];
  lb_f4 fx = lb_f4_load(p[0].r), fy = lb_f4_load(p[1].r), fz = lb_f4_load(p[2].r),
        fw = lb_f4_load(p[3].r);
  lb_f4_transpose(&fx, &fy, &fz, &fw);
  /* the first layer's dot with itself is >= 0 (or NaN): never negated */
  lb_f4 w0 = lb_f4_set1(weights[0]);
  lb_f4 ax = lb_f4_add(zero, lb_f4_mul(w0, fx)), ay = lb_f4_add(zero, lb_f4_mul(w0, fy)),
        az = lb_f4_add(zero, lb_f4_mul(w0, fz)), aw = lb_f4_add(zero, lb_f4_mul(w0, fw));
  for (uint32_t i = 1; i < used; ++i) {
    p = &poses[i][j];
    lb_f4 x = lb_f4_load(p[0].r), y = lb_f4_load(p[1].r), z = lb_f4_load(p[2].r),
          w = lb_f4_load(p[3].r);
    lb_f4_transpose(&x, &y, &z, &w);
    lb_f4 wi = lb_f4_set1(weights[i]);
    lb_f4 d = lb_f4_add(lb_f4_add(lb_f4_add(lb_f4_mul(fx, x), lb_f4_mul(fy, y)), lb_f4_mul(fz, z)),
                        lb_f4_mul(fw, w));
    lb_f4 wr = lb_f4_select(lb_f4_lt(d, zero), lb_f4_neg(wi), wi);
    ax = lb_f4_add(ax, lb_f4_mul(wr, x));
    ay = lb_f4_add(ay, lb_f4_mul(wr, y));
    az = lb_f4_add(az, lb_f4_mul(wr, z));
    aw = lb_f4_add(aw, lb_f4_mul(wr, w));
  }
  lb_f4 q[4] = {ax, ay, az, aw};
  lb_f4_qnormalize4(q);
  lb_f4_transpose(&q[0], &q[1], &q[2], &q[3]);
  lb_f4_store(output[j].r, q[0]);
  lb_f4_store(output[j + 1u].r, q[1]);
  lb_f4_store(output[j + 2u].r, q[2]);
  lb_f4_store(output[j + 3u].r, q[3]);
}

/* Joints j..j+3's vectors at `offset` in `pose`, transposed: lanes = joints. */
LB_F4_INLINE void load_vec3_4(const lb_transform *pose, uint32_t j, size_t offset, lb_f4 *x,
                              lb_f4 *y, lb_f4 *z) {
  const uint8_t *p = (const uint8_t *)&pose[j] + offset;
  *x = lb_f4_load((const float *)(const void *)p);
  *y = lb_f4_load((const float *)(const void *)(p + sizeof(lb_transform)));
  *z = lb_f4_load((const float *)(const void *)(p + 2u * sizeof(lb_transform)));
  lb_f4 pad = lb_f4_load((const float *)(const void *)(p + 3u * sizeof(lb_transform)));
  lb_f4_transpose(x, y, z, &pad); /* pad now holds the padding lanes: unused */
}

LB_F4_INLINE void blend_vec3_4(const lb_transform *const *poses, const float *weights,
                               uint32_t used, uint32_t j, float inv, size_t offset,
                               lb_transform *output) {
  const lb_f4 zero = lb_f4_set1(0.0f);
  /* the first layer's x y z (lanes = joints j..j+3), and where every layer's bits equal them */
  lb_f4 fx, fy, fz;
  load_vec3_4(poses[0], j, offset, &fx, &fy, &fz);
  lb_f4 same = lb_f4_same_bits(zero, zero);
  lb_f4 w = lb_f4_set1(weights[0]);
  lb_f4 ax = lb_f4_add(zero, lb_f4_mul(w, fx)), ay = lb_f4_add(zero, lb_f4_mul(w, fy)),
        az = lb_f4_add(zero, lb_f4_mul(w, fz));
  for (uint32_t i = 1; i < used; ++i) {
    lb_f4 x, y, z;
    load_vec3_4(poses[i], j, offset, &x, &y, &z);
    same = lb_f4_and(same, lb_f4_and(lb_f4_same_bits(fx, x),
                                     lb_f4_and(lb_f4_same_bits(fy, y), lb_f4_same_bits(fz, z))));
    w = lb_f4_set1(weights[i]);
    ax = lb_f4_add(ax, lb_f4_mul(w, x));
    ay = lb_f4_add(ay, lb_f4_mul(w, y));
    az = lb_f4_add(az, lb_f4_mul(w, z));
  }
  lb_f4 iv = lb_f4_set1(inv);
  /* lb_blend_job_joint's rule: a vector every layer agrees on is copied */
  ax = lb_f4_select(same, fx, lb_f4_mul(ax, iv));
  ay = lb_f4_select(same, fy, lb_f4_mul(ay, iv));
  az = lb_f4_select(same, fz, lb_f4_mul(az, iv));
  lb_f4 zw = zero;
  lb_f4_transpose(&ax, &ay, &az, &zw);
  uint8_t *o = (uint8_t *)&output[j] + offset;
  lb_f4_store((float *)(void *)o, ax);
  lb_f4_store((float *)(void *)(o + sizeof(lb_transform)), ay);
  lb_f4_store((float *)(void *)(o + 2u * sizeof(lb_transform)), az);
  lb_f4_store((float *)(void *)(o + 3u * sizeof(lb_transform)), zw);
}

/* lb_blend_job_joint for every joint when no layer has joint weights: which layers contribute,
 * their weights, the total and its reciprocal are then the same for every joint, so they
 * are worked out once. Per joint the sums run in lb_blend_job_joint's order (bit-identical). */
static void lb_blend_uniform(const lb_blend_job *job) {
  enum { MAX_FAST = 8 };
  const lb_transform *poses[MAX_FAST];
  float weights[MAX_FAST];
  uint32_t used = 0;
  float total = 0.0f;
  for (uint32_t i = 0; i < job->layer_count; ++i) {
    float w = job->layers[i].weight;
    if (w > 0.0f) {
      poses[used] = job->layers[i].pose;
      weights[used++] = w;
      total += w;
    }
  }
  if (!(total > job->threshold)) {
    for (uint32_t j = 0; j < job->joint_count; ++j) {
      job->output[j] = job->rest[j];
    }
    return;
  }
  float inv = 1.0f / total;
  uint32_t n = job->joint_count;
  /* Rotations four joints at a time (lanes = joints), the same sums per lane. */
  uint32_t grouped = n & ~3u;
  for (uint32_t j = 0; j < grouped; j += 4u) {
    lb_blend_rotations4(poses, weights, used, j, job->output);
    if (LB_BLEND_VEC4) {
      blend_vec3_4(poses, weights, used, j, inv, offsetof(lb_transform, t), job->output);
      blend_vec3_4(poses, weights, used, j, inv, offsetof(lb_transform, s), job->output);
    }
  }
  for (uint32_t j = LB_BLEND_VEC4 ? grouped : 0u; j < n; ++j) {
    const float *first_r = poses[0][j].r;
    float t[3] = {0.0f, 0.0f, 0.0f}, s[3] = {0.0f, 0.0f, 0.0f}, r[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    bool rot = j >= grouped, same_t = true, same_s = true;
    for (uint32_t i = 0; i < used; ++i) {
      const lb_transform *p = &poses[i][j];
      float w = weights[i];
      same_t = same_t && lb_same_vec3(poses[0][j].t, p->t);
      same_s = same_s && lb_same_vec3(poses[0][j].s, p->s);
      for (int c = 0; c < 3; ++c) {
        t[c] += w * p->t[c];
        s[c] += w * p->s[c];
      }
      if (rot) {
        float wr = w; /* the first layer's dot with itself is >= 0 (or NaN): never negated */
        if (i > 0) {
          float d = first_r[0] * p->r[0] + first_r[1] * p->r[1] + first_r[2] * p->r[2] +
                    first_r[3] * p->r[3];
          wr = d < 0.0f ? -w : w;
        }
        for (int c = 0; c < 4; ++c) {
          r[c] += wr * p->r[c];
        }
      }
    }
    lb_transform *out = &job->output[j];
    for (int c = 0; c < 3; ++c) {
      out->t[c] = same_t ? poses[0][j].t[c] : t[c] * inv;
      out->s[c] = same_s ? poses[0][j].s[c] : s[c] * inv;
    }
    if (rot) {
      lb_normalize_into(r, out->r);
    }
  }
}

static void lb_additive_joint(const lb_additive_layer *l, uint32_t j, lb_transform *out) {
  float w = l->joint_weights ? l->weight * l->joint_weights[j] : l->weight;
  if (!(w > 0.0f)) {
    return; /* bit-identical */
  }
  const lb_transform *a = &l->pose[j];
  const lb_transform *ref = &l->reference[j];
  for (int c = 0; c < 3; ++c) {
    out->t[c] += w * (a->t[c] - ref->t[c]);
    out->s[c] += w * (a->s[c] - ref->s[c]);
  }
  versor conj_ref, delta, id, part;
  lb_quat_conj(ref->r, conj_ref);
  lb_quat_mul(a->r, conj_ref, delta);
  lb_quat_normalize(delta);
  lb_quat_identity(id);
  lb_quat_slerp(id, delta, w, part);
  lb_quat_mul(part, out->r, out->r);
  lb_quat_normalize(out->r);
}

lb_result lb_blend_job_run(lb_blend_job *job) {
  lb_result r = lb_blend_job_validate(job);
  if (r != LB_OK) {
    return r;
  }
  bool uniform = job->layer_count > 0 && job->layer_count <= 8u;
  for (uint32_t i = 0; uniform && i < job->layer_count; ++i) {
    uniform = job->layers[i].joint_weights == NULL;
  }
  if (uniform) {
    lb_blend_uniform(job);
  }
  for (uint32_t j = 0; j < job->joint_count; ++j) {
    lb_transform *out = &job->output[j];
    if (!uniform) {
      lb_blend_job_joint(job, j, out);
    }
    for (uint32_t i = 0; i < job->additive_count; ++i) {
      lb_additive_joint(&job->additive[i], j, out);
    }
  }
  return LB_OK;
}

lb_result lb_mask_subtree(const int16_t *parents, uint32_t joint_count, uint32_t joint,
                          float inside, float outside, float *out) {
  if (!parents || !out || joint >= joint_count) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!lb_is_finite(inside) || !lb_is_finite(outside)) {
    return LB_ERR_NOT_FINITE;
  }
  for (uint32_t j = 0; j < joint_count; ++j) {
    if (parents[j] < -1 || (int32_t)parents[j] >= (int32_t)j) {
      return LB_ERR_INVALID_ARGUMENT;
    }
  }
  /* Depth-first order: the subtree is [joint, end), ended by the first joint whose parent
   * lies before `joint` (a parent inside the range would belong to the subtree). */
  uint32_t end = joint + 1u;
  while (end < joint_count && (int32_t)parents[end] >= (int32_t)joint) {
    ++end;
  }
  for (uint32_t j = 0; j < joint_count; ++j) {
    out[j] = (j >= joint && j < end) ? inside : outside;
  }
  return LB_OK;
}
