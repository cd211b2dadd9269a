/* Analytic two-bone IK.
 *
 * 1. Bend: the mid joint turns about the limb's own bend axis until the root-tip
 *    distance matches the (softened, clamped) target distance (law of cosines).
 *    Using the animated bend axis keeps the elbow on the side animation put it.
 *    A straight limb has no bend axis: the hint decides, else a stable
 *    perpendicular of the upper bone.
 * 2. Swing: the root turns by the shortest arc that points root→tip at the target.
 * 3. Twist about root→target puts the mid joint on the animated bend side (or the
 *    hint's side for a straight limb), whatever the angle to the target.
 * Weights slerp each correction from identity. */
#include "../math/vec3_inline.h"
#include "limber/ik.h"
#include <string.h>

lb_two_bone_ik_job lb_two_bone_ik_default_job(void) {
  lb_two_bone_ik_job j;
  memset(&j, 0, sizeof j);
  lb_quat_identity(j.target_rotation);
  j.weight = 1.0f;
  j.rotation_weight = 0.0f;
  j.soften = 1.0f;
  lb_quat_identity(j.root_correction);
  lb_quat_identity(j.mid_correction);
  lb_quat_identity(j.tip_correction);
  return j;
}

static bool lb_vec3_finite(const vec3 v) {
  return lb_is_finite(v[0]) && lb_is_finite(v[1]) && lb_is_finite(v[2]);
}

lb_result lb_two_bone_ik_job_validate(const lb_two_bone_ik_job *job) {
  if (!job || !job->root || !job->mid || !job->tip) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!lb_vec3_finite(job->target) || (job->has_hint && !lb_vec3_finite(job->hint)) ||
      !lb_is_finite(job->weight) || !lb_is_finite(job->rotation_weight) ||
      !lb_is_finite(job->soften) || !lb_vec3_finite(job->root->t) || !lb_vec3_finite(job->mid->t) ||
      !lb_vec3_finite(job->tip->t)) {
    return LB_ERR_NOT_FINITE;
  }
  for (int i = 0; i < 4; ++i) {
    /* Joint rotations enter the tip correction; a NaN there would leak into the pose. */
    if (!lb_is_finite(job->target_rotation[i]) || !lb_is_finite(job->root->r[i]) ||
        !lb_is_finite(job->mid->r[i]) || !lb_is_finite(job->tip->r[i])) {
      return LB_ERR_NOT_FINITE;
    }
  }
  if (job->weight < 0.0f || job->weight > 1.0f || job->rotation_weight < 0.0f ||
      job->rotation_weight > 1.0f || job->soften < 0.0f || job->soften > 1.0f) {
    return LB_ERR_OUT_OF_RANGE;
  }
  return LB_OK;
}

/* Distance the limb should span: clamped to what it can, and eased near full
 * reach when soften < 1 so the limb approaches straight without a snap. */
static float lb_reach_distance(float d, float l1, float l2, float soften) {
  float dmax = l1 + l2;
  float dmin = l1 > l2 ? l1 - l2 : l2 - l1;
  if (soften < 1.0f) {
    float ds = soften * dmax;
    float band = dmax - ds;
    if (d > ds && band > 0.0f) {
      d = ds + band * (1.0f - lb_exp(-(d - ds) / band));
    }
  }
  return lb_clamp(d, dmin, dmax);
}

/* 1. The bend axis: the animated one (u x v), or the hint's, or a stable one. `bent`: the
 * limb is bent as animated; `use_hint`: the hint gave the axis. */
static void lb_bend_axis(const lb_two_bone_ik_job *job, const vec3 u, const vec3 v, float l1,
                         float l2, vec3 axis, bool *bent, bool *use_hint) {
  const float *a = job->root->t;
  vec3 n;
  lb_vec3_cross(u, v, n);
  *use_hint = false;
  *bent = lb_vec3_length(n) > 1e-6f * l1 * l2;
  if (!*bent) {
    vec3 h;
    float hl = 0.0f;
    if (job->has_hint) {
      lb_vec3_sub(job->hint, a, h);
      lb_vec3_cross(h, u, n);
      hl = lb_vec3_length(n);
    }
    if (job->has_hint && hl > 1e-6f * l1 * lb_vec3_length(h)) {
      *use_hint = true;
    } else {
      lb_vec3_any_perpendicular(u, n);
    }
  }
  lb_vec3_normalize_to(n, axis);
}

/* The mid joint's rotation about the bend axis from the current bend angle to the one that
 * spans the reach distance. */
static void lb_bend_rotation(const lb_two_bone_ik_job *job, const vec3 u, const vec3 v,
                             const vec3 at, float l1, float l2, const vec3 axis, versor q_mid) {
  vec3 uxv;
  lb_vec3_cross(u, v, uxv);
  float phi_cur = lb_atan2(lb_vec3_length(uxv), lb_vec3_dot(u, v));
  float d = lb_reach_distance(lb_vec3_length(at), l1, l2, job->soften);
  /* Bend angle from tan^2(phi/2) = (dmax^2 - d^2) / (d^2 - dmin^2), the law of cosines in
   * half-angle form: exactly 0 at full reach and pi fully folded. The acos form loses up to
   * 0.05 degrees near straight (1 + cos cancels), so an unreachable target left the limb
   * visibly bent. */
  float dmax = l1 + l2, dmin = l1 > l2 ? l1 - l2 : l2 - l1;
  float phi_des =
      2.0f * lb_atan2(lb_sqrt((dmax - d) * (dmax + d)), lb_sqrt((d - dmin) * (d + dmin)));
  lb_quat_from_axis_angle(axis, phi_des - phi_cur, q_mid);
}

/* 2. Swing the root so root->tip (after the bend) points at the target; dir_want is the unit
 * root->target direction. */
static void lb_swing(const lb_two_bone_ik_job *job, const vec3 v, const vec3 at, const versor q_mid,
                     versor q_root, vec3 dir_want) {
  const float *a = job->root->t, *b = job->mid->t;
  vec3 v2, c2, ac2, dir_now;
  lb_quat_rotate(q_mid, v, v2);
  c2[0] = b[0] + v2[0];
  c2[1] = b[1] + v2[1];
  c2[2] = b[2] + v2[2];
  lb_vec3_sub(c2, a, ac2);
  lb_quat_identity(q_root);
  if (lb_vec3_normalize_to(ac2, dir_now) > 0.0f && lb_vec3_normalize_to(at, dir_want) > 0.0f) {
    lb_quat_from_to(dir_now, dir_want, q_root);
  }
}

/* 3. Twist about root->target so the mid joint lies on its side: the animated bend direction
 * (the elbow's offset from the root->tip line) or the hint. The shortest-arc swing alone
 * flips the elbow for targets more than 90 degrees from the limb. */
static void lb_twist(const lb_two_bone_ik_job *job, const vec3 u, float l1, bool bent,
                     bool use_hint, const vec3 at, const vec3 dir_want, versor q_root) {
  const float *a = job->root->t, *c = job->tip->t;
  vec3 pole = {0.0f, 0.0f, 0.0f};
  if (use_hint) {
    lb_vec3_sub(job->hint, a, pole);
  } else if (bent) {
    vec3 ac, chat;
    lb_vec3_sub(c, a, ac);
    if (lb_vec3_normalize_to(ac, chat) > 0.0f) {
      float uc = lb_vec3_dot(u, chat);
      for (int i = 0; i < 3; ++i) {
        pole[i] = u[i] - chat[i] * uc;
      }
    }
  }
  if (!((use_hint || bent) && lb_vec3_length(at) > 0.0f)) {
    return;
  }
  vec3 b2, e, hp, en, hn;
  lb_quat_rotate(q_root, u, b2);
  float be = lb_vec3_dot(b2, dir_want), hh = lb_vec3_dot(pole, dir_want);
  for (int i = 0; i < 3; ++i) {
    e[i] = b2[i] - dir_want[i] * be;
    hp[i] = pole[i] - dir_want[i] * hh;
  }
  /* Near-zero offsets have no reliable side; keep the swing's choice then. */
  if (lb_vec3_normalize_to(e, en) > 1e-6f * l1 && lb_vec3_normalize_to(hp, hn) > 1e-6f * l1) {
    /* About root->target itself: a from-to of near-opposite offsets could pick
     * another axis and move the tip off the target. */
    vec3 x;
    lb_vec3_cross(en, hn, x);
    versor twist;
    lb_quat_from_axis_angle(dir_want, lb_atan2(lb_vec3_dot(x, dir_want), lb_vec3_dot(en, hn)),
                            twist);
    lb_quat_mul(twist, q_root, q_root);
  }
}

/* The weights, then the corrections in model space (the tip's toward the target rotation by
 * rotation_weight); wr is the weighted root rotation. */
static void lb_corrections(lb_two_bone_ik_job *job, const versor q_root, const versor q_mid,
                           versor wr) {
  versor wm;
  versor id;
  lb_quat_identity(id);
  lb_quat_slerp(id, q_root, job->weight, wr);
  lb_quat_slerp(id, q_mid, job->weight, wm);
  lb_quat_mul(wr, wm, job->mid_correction);
  memcpy(job->root_correction, wr, sizeof(versor));
  versor tip_rot;
  lb_quat_mul(job->mid_correction, job->tip->r, tip_rot);
  if (job->rotation_weight > 0.0f) {
    versor want, tq, inv;
    memcpy(want, job->target_rotation, sizeof want);
    lb_quat_normalize(want);
    lb_quat_slerp(tip_rot, want, job->rotation_weight, tq);
    lb_quat_conj(job->tip->r, inv);
    lb_quat_mul(tq, inv, job->tip_correction);
  } else {
    memcpy(job->tip_correction, job->mid_correction, sizeof(versor));
  }
}

/* Where the tip ends up: its distance to the target and whether it reached it. */
static void lb_tip_result(lb_two_bone_ik_job *job, const vec3 u, const vec3 v, const versor wr) {
  const float *a = job->root->t;
  vec3 ru, rv;
  lb_quat_rotate(wr, u, ru);
  lb_quat_rotate(job->mid_correction, v, rv);
  vec3 tip_now = {a[0] + ru[0] + rv[0] - job->target[0], a[1] + ru[1] + rv[1] - job->target[1],
                  a[2] + ru[2] + rv[2] - job->target[2]};
  job->distance = lb_vec3_length(tip_now);
  job->reached = job->distance <= 1e-4f;
}

lb_result lb_two_bone_ik_job_run(lb_two_bone_ik_job *job) {
  lb_result r = lb_two_bone_ik_job_validate(job);
  if (r != LB_OK) {
    return r;
  }
  lb_quat_identity(job->root_correction);
  lb_quat_identity(job->mid_correction);
  lb_quat_identity(job->tip_correction);
  const float *a = job->root->t, *b = job->mid->t, *c = job->tip->t;
  vec3 u, v, at;
  lb_vec3_sub(b, a, u);
  lb_vec3_sub(c, b, v);
  lb_vec3_sub(job->target, a, at);
  float l1 = lb_vec3_length(u), l2 = lb_vec3_length(v);
  vec3 ct;
  lb_vec3_sub(c, job->target, ct);
  job->distance = lb_vec3_length(ct);
  job->reached = job->distance <= 1e-4f;
  if (!(l1 > 1e-6f) || !(l2 > 1e-6f)) {
    return LB_ERR_DEGENERATE;
  }
  vec3 axis, dir_want;
  bool bent, use_hint;
  versor q_mid, q_root, wr;
  lb_bend_axis(job, u, v, l1, l2, axis, &bent, &use_hint);
  lb_bend_rotation(job, u, v, at, l1, l2, axis, q_mid);
  lb_swing(job, v, at, q_mid, q_root, dir_want);
  lb_twist(job, u, l1, bent, use_hint, at, dir_want, q_root);
  lb_corrections(job, q_root, q_mid, wr);
  lb_tip_result(job, u, v, wr);
  return LB_OK;
}
