/* Grab, release, switch and pose changes ease every joint from where it was. The old
 * result is carried as an offset from the animation, so a walk keeps swinging the arm
 * while it eases, and a change in the middle of a blend starts from the current pose. */
#include "grip_internal.h"
#include <string.h>

static float lb_ease(float t) {
  t = lb_clamp(t, 0.0f, 1.0f);
  return t * t * (3.0f - 2.0f * t); /* starts and stops with zero speed */
}

void lb_grip_refresh_joints(const lb_skeleton *sk, lb_rig_instance *inst, const int16_t *joints,
                            uint32_t count) {
  /* Depth-first order: [lowest joint, end of the furthest subtree) holds every changed
   * joint and its descendants; re-deriving an unchanged joint there is harmless. */
  uint32_t lo = UINT32_MAX, hi = 0;
  for (uint32_t k = 0; k < count; ++k) {
    uint32_t j = (uint32_t)joints[k];
    lo = j < lo ? j : lo;
    hi = sk->subtree_end[j] > hi ? sk->subtree_end[j] : hi;
  }
  if (lo < hi) {
    lb_rig_local_to_model(sk, inst, lo, hi);
  }
}

void lb_grip_blend_begin(lb_grip_hand *h, uint64_t key, float seconds) {
  if (key == h->driver_key) {
    return;
  }
  h->driver_key = key;
  lb_grip_hand_joints *j = h->joints;
  for (uint32_t k = 0; k < LB_GRIP_BLEND_MAX; ++k) {
    if ((j->pending >> k) & 1u) {
      versor inv;
      lb_quat_conj(j->last_anim[k], inv);
      lb_quat_mul(inv, j->last_out[k], j->last_off[k]);
    }
  }
  j->pending = 0;
  memcpy(j->from_off, j->last_off, sizeof j->from_off);
  h->blend_seconds = seconds;
  h->blend_t = seconds > 0.0f ? 0.0f : 1.0f;
}

void lb_grip_blend_snapshot(const lb_grip_hand *h, const lb_rig_instance *inst,
                            versor anim[LB_GRIP_BLEND_MAX]) {
  for (uint32_t k = 0; k < h->def->blend_count; ++k) {
    memcpy(anim[k], inst->local[h->def->blend_joints[k]].r, sizeof(versor));
  }
}

uint32_t lb_grip_blend_arm_count(const lb_grip_hand *h) {
  uint32_t n = 0;
  while (n < h->def->blend_count && h->def->blend_joints[n] != h->def->info.hand) {
    ++n;
  }
  return n < h->def->blend_count ? n + 1u : n;
}

void lb_grip_blend_apply(lb_grip_hand *h, const lb_skeleton *sk, lb_rig_instance *inst,
                         const versor anim[LB_GRIP_BLEND_MAX], uint32_t first, uint32_t end) {
  if (end > h->def->blend_count) {
    end = h->def->blend_count;
  }
  if (first >= end) {
    return;
  }
  float e = lb_ease(h->blend_t);
  bool easing = h->blend_t < 1.0f;
  for (uint32_t k = first; k < end; ++k) {
    float *out = inst->local[h->def->blend_joints[k]].r;
    if (easing) {
      versor from, target;
      memcpy(target, out, sizeof target);
      lb_quat_mul(anim[k], h->joints->from_off[k], from);
      lb_quat_slerp(from, target, e, out);
      lb_quat_normalize(out);
    }
    memcpy(h->joints->last_anim[k], anim[k], sizeof(versor));
    memcpy(h->joints->last_out[k], out, sizeof(versor));
    h->joints->pending |= 1u << k;
  }
  if (easing) {
    lb_grip_refresh_joints(sk, inst, &h->def->blend_joints[first], end - first);
  }
}

void lb_grip_blend_advance(lb_grip_hand *h, float dt) {
  if (h->blend_t < 1.0f) {
    h->blend_t = h->blend_seconds > 0.0f ? h->blend_t + dt / h->blend_seconds : 1.0f;
    if (h->blend_t > 1.0f) {
      h->blend_t = 1.0f;
    }
  }
}
