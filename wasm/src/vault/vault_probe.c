/* The vault probe job (limber/vault.h): the height and depth casts, exact measures
 * by rays, and the far-side checks. */
#include "../collide/collide_internal.h"
#include "../math/vec3_inline.h"
#include "limber/vault.h"

#include <float.h>
#include <string.h>

lb_vault_probe_job lb_vault_probe_default_job(void) {
  lb_vault_probe_job j;
  memset(&j, 0, sizeof j);
  j.filter = lb_collide_default_filter();
  lb_transform_identity(&j.character);
  j.hand_origin[1] = 1.1f;
  j.hand_radius = 0.1f;
  j.max_distance = 1.5f;
  j.cast_down_limit = 6;
  j.cast_forward_limit = 7;
  j.landing_distance = 0.5f;
  j.drop_limit = 1.0f;
  j.capsule_radius = 0.3f;
  j.capsule_height = 1.8f;
  return j;
}

static bool vault_in_range(float x, float lo, float hi) {
  return x >= lo && x <= hi;
}

/* Forward of the character flattened onto the ground: unit, or false when it faces up. */
static bool vault_flat_forward(const lb_transform *c, vec3 out) {
  const vec3 z = {0.0f, 0.0f, 1.0f};
  vec3 f;
  lb_quat_rotate(c->r, z, f);
  f[1] = 0.0f;
  float n = lb_vec3_length(f);
  if (!(n > 1e-4f)) {
    return false;
  }
  out[0] = f[0] / n;
  out[1] = 0.0f;
  out[2] = f[2] / n;
  return true;
}

lb_result lb_vault_probe_job_validate(const lb_vault_probe_job *job) {
  if (!job || !job->world) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  const float scalars[8] = {job->hand_origin[0], job->hand_origin[1], job->hand_origin[2],
                            job->hand_radius,    job->max_distance,   job->landing_distance,
                            job->drop_limit,     job->capsule_radius};
  for (int i = 0; i < 8; ++i) {
    if (!lb_is_finite(scalars[i])) {
      return LB_ERR_NOT_FINITE;
    }
  }
  if (!lb_is_finite(job->capsule_height) || !lb_transform_valid(&job->character)) {
    return LB_ERR_NOT_FINITE;
  }
  vec3 f;
  bool ok = job->hand_radius > 0.0f && job->hand_radius <= 1.0f && job->max_distance > 0.0f &&
            job->max_distance <= 100.0f &&
            vault_in_range((float)job->cast_down_limit, 1.0f, 64.0f) &&
            vault_in_range((float)job->cast_forward_limit, 1.0f, 64.0f) &&
            vault_in_range(job->landing_distance, 0.0f, 10.0f) &&
            vault_in_range(job->drop_limit, 0.0f, 100.0f) &&
            vault_in_range(job->capsule_radius, 0.0f, 2.0f) &&
            (job->capsule_radius == 0.0f || job->capsule_height >= 2.0f * job->capsule_radius) &&
            job->capsule_height <= 10.0f && vault_flat_forward(&job->character, f);
  for (int i = 0; i < 3; ++i) {
    ok = ok && vault_in_range(job->hand_origin[i], -10.0f, 10.0f) &&
         vault_in_range(job->character.t[i], -LB_COLLIDE_MAX_EXTENT * 0.5f,
                        LB_COLLIDE_MAX_EXTENT * 0.5f);
  }
  return ok ? LB_OK : LB_ERR_OUT_OF_RANGE;
}

/* A sphere cast (radius > 0) or a ray (radius 0), recorded for drawing; through the colliders
 * near the height check's casts when given (vault_near_ahead). */
static bool vault_probe_near(lb_vault_probe_job *job, const cl_region *near, const vec3 origin,
                             float radius, const vec3 dir, float length, lb_collide_hit *hit) {
  lb_result r =
      radius > 0.0f
          ? cl_region_sphere_cast(job->world, near, origin, radius, dir, length, &job->filter, hit)
          : cl_region_raycast(job->world, near, origin, dir, length, &job->filter, hit);
  bool found = r == LB_OK && hit->entity != LB_NULL_ENTITY;
  if (job->cast_count < LB_VAULT_MAX_CASTS) {
    lb_vault_cast *c = &job->casts[job->cast_count++];
    memcpy(c->origin, origin, sizeof(vec3));
    memcpy(c->dir, dir, sizeof(vec3));
    c->radius = radius;
    c->length = length;
    c->hit = found ? hit->distance : -1.0f;
  }
  return found;
}

static bool vault_probe(lb_vault_probe_job *job, const vec3 origin, float radius, const vec3 dir,
                        float length, lb_collide_hit *hit) {
  return vault_probe_near(job, NULL, origin, radius, dir, length, hit);
}

/* A height check cast: through the colliders near them, or, when there are none
 * (vault_near_ahead), a miss recorded as vault_probe records one. */
static bool vault_cast(lb_vault_probe_job *job, const cl_region *near, const vec3 origin,
                       float radius, const vec3 dir, float length, lb_collide_hit *hit) {
  if (near->count > 0) {
    return vault_probe_near(job, near, origin, radius, dir, length, hit);
  }
  if (job->cast_count < LB_VAULT_MAX_CASTS) {
    lb_vault_cast *c = &job->casts[job->cast_count++];
    memcpy(c->origin, origin, sizeof(vec3));
    memcpy(c->dir, dir, sizeof(vec3));
    c->radius = radius;
    c->length = length;
    c->hit = -1.0f;
  }
  return false;
}

/* Grows [lo, hi] by a sphere of radius `r` swept from p along dir for `len`. */
static void vault_sweep_grow(float *lo, float *hi, const vec3 p, float r, const vec3 dir,
                             float len) {
  for (int k = 0; k < 3; ++k) {
    float e = p[k] + dir[k] * len;
    float a = (p[k] < e ? p[k] : e) - r, b = (p[k] > e ? p[k] : e) + r;
    lo[k] = a < lo[k] ? a : lo[k];
    hi[k] = b > hi[k] ? b : hi[k];
  }
}

/* The colliders near the height check's forward casts (the hand spheres from `origin` down
 * cast_down_limit radii and the ankle sphere), found once on the colliders' bounds (a margin of
 * a millimetre and some float steps of the coordinates covers the casts' own box tests'
 * rounding) instead of cast by cast. None: the common case of a character walking in the open,
 * where the casts would all miss. Else the casts test just those. */
static void vault_near_ahead(lb_vault_probe_job *job, const vec3 origin, const vec3 ankle,
                             float ankle_r, const vec3 fwd, cl_region *near) {
  const float r = job->hand_radius, len = job->max_distance;
  const vec3 up = {0.0f, 1.0f, 0.0f};
  vec3 low;
  lb_vec3_mad(origin, up, -r * (float)job->cast_down_limit, low);
  float lo[3] = {origin[0], origin[1], origin[2]}, hi[3] = {origin[0], origin[1], origin[2]};
  vault_sweep_grow(lo, hi, origin, r, fwd, len);
  vault_sweep_grow(lo, hi, low, r, fwd, len);
  vault_sweep_grow(lo, hi, ankle, ankle_r, fwd, len);
  cl_region_gather(job->world, lo, hi, cl_rounding_margin(lo, hi, len), &job->filter, near);
}

/* How far a ray down "at the near face" is moved into the obstacle: 64 float steps of the
 * near point's magnitude (1.1e-5 m within 1.5 m of the origin, 0.3 mm at 40 m): beyond the
 * rounding of the near point (6e-6 m at 40 m), where a ray in the face's plane would hit or
 * miss by chance, and far below the thinnest obstacle the probe takes (1 mm). */
static float vault_into_face(const vec3 near) {
  float m = 1.0f;
  for (int i = 0; i < 3; ++i) {
    float a = near[i] < 0.0f ? -near[i] : near[i];
    m = a > m ? a : m;
  }
  return m * (64.0f * FLT_EPSILON);
}

/* Top of the obstacle at its near face: a ray down from `from_y` to the feet just inside the
 * near face (into_face). No top: a miss, a start inside something (nothing above it is a
 * top), or a hit below the near point (the ray passed an obstacle thinner than that, a mesh
 * sheet, onto the floor). */
static bool vault_find_top(lb_vault_probe_job *job, const vec3 near, const vec3 fwd, float from_y,
                           float feet_y) {
  const vec3 down = {0.0f, -1.0f, 0.0f};
  float in = vault_into_face(near);
  vec3 o = {near[0] + in * fwd[0], from_y, near[2] + in * fwd[2]};
  lb_collide_hit h;
  if (!vault_probe(job, o, 0.0f, down, from_y - feet_y, &h) || !(h.distance > 0.0f) ||
      h.point[1] < near[1] - in) {
    return false;
  }
  memcpy(job->top, h.point, sizeof(vec3));
  memcpy(job->top_normal, h.normal, sizeof(vec3));
  job->height = h.point[1] - feet_y;
  return true;
}

/* Every output back to "nothing found" before a run. */
static void vault_reset(lb_vault_probe_job *job) {
  job->verdict = LB_VAULT_CLASS_NONE;
  job->refusal = LB_VAULT_NOT_VAULTABLE;
  job->obstacle = LB_NULL_ENTITY;
  job->distance = job->height = job->depth = 0.0f;
  memset(job->near_point, 0, sizeof(vec3));
  memset(job->near_normal, 0, sizeof(vec3));
  memset(job->top, 0, sizeof(vec3));
  memset(job->top_normal, 0, sizeof(vec3));
  memset(job->landing, 0, sizeof(vec3));
  job->cast_count = 0;
}

/* Height check: the forward sphere from one radius above the hand (a hit: too tall), then
 * one radius lower at a time (a hit: vaultable height), then the ankle sphere (a hit: step
 * over). Sets the verdict; *hit is the cast that decided it. */
static void vault_height_check(lb_vault_probe_job *job, const vec3 origin, const vec3 fwd,
                               lb_collide_hit *hit) {
  const float r = job->hand_radius, lr = 0.5f * r;
  const vec3 up = {0.0f, 1.0f, 0.0f};
  const float *feet = job->character.t;
  vec3 ankle = {feet[0], feet[1] + lr + 0.02f, feet[2]};
  cl_region near;
  vault_near_ahead(job, origin, ankle, lr, fwd, &near);
  if (vault_cast(job, &near, origin, r, fwd, job->max_distance, hit)) {
    job->verdict = LB_VAULT_CLASS_TOO_TALL;
    return;
  }
  bool found = false;
  for (uint32_t i = 1; i <= job->cast_down_limit && !found; ++i) {
    vec3 p;
    lb_vec3_mad(origin, up, -r * (float)i, p);
    found = vault_cast(job, &near, p, r, fwd, job->max_distance, hit);
  }
  if (found) {
    job->verdict = LB_VAULT_CLASS_VAULT; /* unless the depth check says otherwise */
    return;
  }
  if (vault_cast(job, &near, ankle, lr, fwd, job->max_distance, hit)) {
    job->verdict = LB_VAULT_CLASS_STEP_OVER;
  }
}

/* The colliders near the rays of a vault's measures (the depth rays, the far face, the landing
 * floor), found once: around forward from the origin past the height cast's hit by the depth
 * rays' reach, the landing distance and some room, from the hand's height (the top is below it)
 * down to the drop limit. A ray outside it walks the tree, with the same answer. */
static void vault_near_beyond(lb_vault_probe_job *job, const vec3 origin, const vec3 fwd,
                              float hit_distance, cl_region *near) {
  const float r = job->hand_radius;
  float len = hit_distance + r * (float)(job->cast_forward_limit + 2u) + job->landing_distance;
  float pad = 2.0f * r + 0.01f;
  vec3 end;
  lb_vec3_mad(origin, fwd, len, end);
  float lo[3], hi[3];
  for (int k = 0; k < 3; k += 2) {
    lo[k] = (origin[k] < end[k] ? origin[k] : end[k]) - pad;
    hi[k] = (origin[k] > end[k] ? origin[k] : end[k]) + pad;
  }
  lo[1] = job->character.t[1] - job->drop_limit - pad;
  hi[1] = origin[1] + r + 0.1f + pad;
  cl_region_gather(job->world, lo, hi, cl_rounding_margin(lo, hi, len + hi[1] - lo[1]),
                   &job->filter, near);
}

/* Depth check: rays down from the height cast's height to one radius below the top (the
 * floor beyond stays out of reach), r apart along forward from the near face. They start
 * just inside the near face (into_face), not at the height cast's hit distance + r: that is
 * the near face only for a face contact (the first ray, in the face's plane, then missed or
 * hit by rounding: a 0.601 m deep box 0.8 m high, hit by the cast at its top's height, was
 * measured 0.1 m deep and vaulted), and up to r past it when the sphere meets the top edge
 * (a 0.601 m deep box 0.501 m high was vaulted). Returns the first ray (1..) that missed, 0
 * when every one hit. */
static uint32_t vault_depth_check(lb_vault_probe_job *job, const cl_region *near, const vec3 origin,
                                  const vec3 fwd) {
  const float r = job->hand_radius;
  const vec3 down = {0.0f, -1.0f, 0.0f};
  float reach = origin[1] - job->top[1] + r;
  float in = vault_into_face(job->near_point);
  uint32_t miss = 0;
  for (uint32_t i = 1; i <= job->cast_forward_limit && !miss; ++i) {
    vec3 p;
    lb_vec3_mad(job->near_point, fwd, in + r * (float)(i - 1u), p);
    p[1] = origin[1];
    lb_collide_hit h;
    if (!vault_probe_near(job, near, p, 0.0f, down, reach, &h)) {
      miss = i;
    }
  }
  return miss;
}

/* The far face exactly: a ray back toward the character just under the top, from at least r
 * past the ray that missed (the height cast's sphere stops at or past the near face). Sets
 * depth; far_point receives the far face point. */
static void vault_far_face(lb_vault_probe_job *job, const cl_region *near, const vec3 origin,
                           const vec3 fwd, float hit_distance, uint32_t miss, vec3 far_point) {
  const float r = job->hand_radius;
  vec3 back, beyond, far_from;
  lb_vec3_mad((const float[3]){0.0f, 0.0f, 0.0f}, fwd, -1.0f, back);
  lb_vec3_mad(origin, fwd, hit_distance + r * (float)(miss + 1u), beyond);
  far_from[0] = beyond[0];
  far_from[1] = job->top[1] - 0.01f;
  far_from[2] = beyond[2];
  float span = lb_vec3_dot(
      (const float[3]){beyond[0] - job->near_point[0], 0.0f, beyond[2] - job->near_point[2]}, fwd);
  lb_collide_hit fh;
  if (vault_probe_near(job, near, far_from, 0.0f, back, span, &fh)) {
    memcpy(far_point, fh.point, sizeof(vec3));
  } else {
    lb_vec3_mad(job->near_point, fwd, r * (float)miss, far_point); /* the depth rays' bound */
  }
  vec3 d = {far_point[0] - job->near_point[0], 0.0f, far_point[2] - job->near_point[2]};
  job->depth = lb_vec3_dot(d, fwd);
}

/* Far side: a floor within the drop limit, and room to stand. Sets landing and the refusal. */
static void vault_far_side(lb_vault_probe_job *job, const cl_region *near, const vec3 fwd,
                           const vec3 far_point) {
  const vec3 down = {0.0f, -1.0f, 0.0f};
  const float *feet = job->character.t;
  vec3 land_col;
  lb_vec3_mad(far_point, fwd, job->landing_distance, land_col);
  vec3 land_from = {land_col[0], job->top[1] + 0.1f, land_col[2]};
  float land_len = land_from[1] - (feet[1] - job->drop_limit);
  lb_collide_hit lh;
  if (!vault_probe_near(job, near, land_from, 0.0f, down, land_len, &lh)) {
    job->refusal = LB_VAULT_NO_FLOOR;
    return;
  }
  memcpy(job->landing, lh.point, sizeof(vec3));
  if (job->capsule_radius > 0.0f) {
    /* Standing just clear of the floor: touching it is not a lack of room. */
    float cr = job->capsule_radius, lift = cr + 0.02f;
    vec3 a = {lh.point[0], lh.point[1] + lift, lh.point[2]};
    vec3 b = {lh.point[0], lh.point[1] + lift + (job->capsule_height - 2.0f * cr), lh.point[2]};
    uint32_t count = 0;
    lb_entity first;
    if (lb_world_overlap_capsule(job->world, a, b, cr, &job->filter, &first, 1, &count) == LB_OK &&
        count > 0) {
      job->refusal = LB_VAULT_NO_ROOM;
      return;
    }
  }
  job->refusal = LB_VAULT_ACCEPTED;
}

lb_result lb_vault_probe_job_run(lb_vault_probe_job *job) {
  lb_result res = lb_vault_probe_job_validate(job);
  if (res != LB_OK) {
    return res;
  }
  vault_reset(job);
  const float r = job->hand_radius;
  const vec3 up = {0.0f, 1.0f, 0.0f};
  const float *feet = job->character.t;
  vec3 fwd, hand, origin;
  vault_flat_forward(&job->character, fwd);
  memcpy(job->forward, fwd, sizeof(vec3));
  lb_transform_point(&job->character, job->hand_origin, hand);
  lb_vec3_mad(hand, up, r, origin);
  lb_collide_hit hit;
  vault_height_check(job, origin, fwd, &hit);
  if (job->verdict == LB_VAULT_CLASS_NONE) {
    return LB_OK;
  }
  job->obstacle = hit.entity;
  memcpy(job->near_point, hit.point, sizeof(vec3));
  memcpy(job->near_normal, hit.normal, sizeof(vec3));
  vec3 rel = {hit.point[0] - feet[0], 0.0f, hit.point[2] - feet[2]};
  job->distance = lb_vec3_dot(rel, fwd);
  /* The top at the near face (from above the tallest cast for a tall obstacle). Its class
   * does not depend on it but for a vault: the depth rays reach down to it, so a vault
   * without a top is refused, never measured against a floor (height 0, rays that all hit:
   * an obstacle thinner than a fixed step past the near face was once classed Mantle). */
  float from_y = origin[1] + (job->verdict == LB_VAULT_CLASS_TOO_TALL ? 4.0f * r : r);
  bool top = vault_find_top(job, hit.point, fwd, from_y, feet[1]);
  if (job->verdict != LB_VAULT_CLASS_VAULT) {
    return LB_OK;
  }
  if (!top) {
    job->refusal = LB_VAULT_NO_TOP;
    return LB_OK;
  }
  cl_region near;
  vault_near_beyond(job, origin, fwd, hit.distance, &near);
  uint32_t miss = vault_depth_check(job, &near, origin, fwd);
  if (!miss) {
    job->verdict = LB_VAULT_CLASS_MANTLE;
    return LB_OK;
  }
  vec3 far_point;
  vault_far_face(job, &near, origin, fwd, hit.distance, miss, far_point);
  vault_far_side(job, &near, fwd, far_point);
  return LB_OK;
}
