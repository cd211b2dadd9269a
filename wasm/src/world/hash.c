/* Bone hash: FNV-1a 64 over IEEE bit patterns, field by field, so padding and
 * struct layout never enter it. */
#include "world_internal.h"
#include <string.h>

static uint64_t lb_fnv_u32(uint64_t h, uint32_t v) {
  for (int i = 0; i < 4; ++i) {
    h ^= (v >> (8 * i)) & 0xFFu;
    h *= 0x100000001b3ull;
  }
  return h;
}

static uint64_t lb_fnv_f32(uint64_t h, float f) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  return lb_fnv_u32(h, bits);
}

static uint64_t lb_fnv_transform(uint64_t h, const lb_transform *x) {
  for (int i = 0; i < 3; ++i) {
    h = lb_fnv_f32(h, x->t[i]);
  }
  for (int i = 0; i < 4; ++i) {
    h = lb_fnv_f32(h, x->r[i]);
  }
  for (int i = 0; i < 3; ++i) {
    h = lb_fnv_f32(h, x->s[i]);
  }
  return h;
}

uint64_t lb_world_hash(const lb_world *w) {
  uint64_t h = 0xcbf29ce484222325ull;
  if (!w) {
    return h;
  }
  for (uint32_t s = 0; s < w->high_water; ++s) {
    if (!w->alive[s] || !lb_slot_has(w, s, LB_RIG)) {
      continue;
    }
    const lb_rig_instance *inst = &w->rigs[s];
    h = lb_fnv_u32(h, s);
    h = lb_fnv_u32(h, inst->joint_count);
    h = lb_fnv_transform(h, &w->world_xf[s]);
    for (uint32_t j = 0; j < inst->joint_count; ++j) {
      h = lb_fnv_transform(h, &inst->model[j]);
    }
  }
  return h;
}
