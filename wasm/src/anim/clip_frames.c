/* Rotation keys in groups of four tracks (limber/anim.h lb_clip_frames) and their sampler.
 *
 * Bit-identity with the scalar sampler (clip.c eval_quat) is the contract: each lane does
 * the same IEEE operations in the same order, keys more than 8 degrees apart take the
 * scalar slerp's operations (its sines four lanes at a time where that is cheaper, else lane
 * by lane), and the key span (a, b, u) comes from the scalar key search.
 * tests/c/test_anim.c compares every output bit with and without frames. */
#include "../base/alloc.h"
#include "../base/bytes.h"
#include "../math/math_inline.h"
#include "../math/simd4.h"
#include "../math/simd4_trig.h"
#include "../math/simd4_xf.h"
#include "clip_internal.h"

#include <string.h>

struct lb_clip_frames {
  /* The clip is known by its tracks array, which stays put when a clip struct is copied or
   * moved (the world's clip table grows). */
  const lb_joint_tracks *tracks;
  uint32_t joint_count;
  lb_allocator allocator;
  uint32_t key_count;
  uint32_t lane_count;  /* animated rotation tracks */
  uint32_t group_count; /* ceil(lane_count / 4); padding lanes repeat the last track */
  uint32_t first;       /* joint of the first animated rotation track (its times and cursor) */
  uint16_t *joints;     /* group_count * 4: the joint of each lane */
  /* Joints with a translation track, with a scale track, without a rotation track. */
  lb_joint_lists lists;
  float *values; /* [key][group][x y z w][lane] */
  /* Segments (key k to k + 1, the last to the first) whose keys are more than 8 degrees
   * apart in some lane are slerped; their angle terms depend only on the keys, so they are
   * worked out here, by lb_quat_slerp's own operations: per (key, group) an offset into
   * `wide` (UINT32_MAX: no wide lane), then theta, 1 / sin(theta) and sign, each for the four
   * lanes (zeros in a lane that is not wide), so they load as lanes. */
  uint32_t *wide_at;
  float *wide;
  /* Per (key, group): bit l set where lane l's keys k and k + 1 have a negative dot (the
   * lerp takes -u on key k + 1), bit 4 + l where lane l is slerped, bit 8 + l where the two
   * keys are bitwise equal (copied). Worked out here with the sampler's own operations, so
   * the sampler reads them instead of a dot per lane. */
  uint16_t *lane_bits;
  size_t bytes;
};

/* The dot of two keys, as the sampler sums it. */
static float lb_key_dot(const float *a, const float *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}

/* What the sampler decides per lane: keys more than 8 degrees apart (or a NaN dot). */
static bool lb_dot_is_wide(float d) {
  float ad = d < 0.0f ? -d : d;
  return !(ad >= LB_ANIM_NLERP_MIN_DOT);
}

static bool lb_segment_is_wide(const float *a, const float *b) {
  return lb_dot_is_wide(lb_key_dot(a, b));
}

/* Whether rotation track `lane` (the lane-th animated one) is wide from key k. */
static bool lb_lane_is_wide(const lb_clip *clip, uint32_t lane, uint32_t k, uint32_t keys) {
  uint32_t seen = 0;
  for (uint32_t j = 0; j < clip->joint_count; ++j) {
    const lb_track *tr = &clip->joints[j].rotation;
    if (tr->count == 0) {
      continue;
    }
    if (seen++ == lane) {
      return lb_segment_is_wide(tr->values + (size_t)k * 4u,
                                tr->values + (size_t)((k + 1u) % keys) * 4u);
    }
  }
  return false;
}

static bool lb_same_grid(const lb_track *a, const lb_track *b) {
  return a->count == b->count && b->interp == LB_INTERP_LINEAR &&
         memcmp(a->times, b->times, (size_t)a->count * sizeof(float)) == 0;
}

/* The rotation tracks' shared key grid (the first animated one's, linear), their count and
 * the first animated joint; false when some rotation track is on another grid. */
static bool lb_rotation_grid(const lb_clip *clip, const lb_track **grid, uint32_t *lanes,
                             uint32_t *first) {
  *grid = NULL;
  *lanes = *first = 0;
  for (uint32_t j = 0; j < clip->joint_count; ++j) {
    const lb_track *tr = &clip->joints[j].rotation;
    if (tr->count == 0) {
      continue;
    }
    if (!*grid) {
      *grid = tr;
      *first = j;
    }
    if (!tr->times || !tr->values || !lb_same_grid(*grid, tr)) {
      return false;
    }
    ++*lanes;
  }
  return *grid && (*grid)->interp == LB_INTERP_LINEAR;
}

/* Wide segments (any lane of a group from key k), counted on the source tracks. */
static uint32_t lb_count_wide(const lb_clip *clip, uint32_t lanes, uint32_t groups, uint32_t keys) {
  uint32_t wide_count = 0;
  for (uint32_t k = 0; keys > 1u && k < keys; ++k) {
    for (uint32_t g = 0; g < groups; ++g) {
      bool any = false;
      for (uint32_t l = 0; l < 4u; ++l) {
        uint32_t lane = g * 4u + l < lanes ? g * 4u + l : lanes - 1u;
        any = any || lb_lane_is_wide(clip, lane, k, keys);
      }
      wide_count += any;
    }
  }
  return wide_count;
}

/* The sizes of one block's parts (each 16-byte aligned but the last): the header, the joint
 * lists, the key values, the wide-segment index, the wide segments and the lane bits. */
typedef struct frames_layout {
  uint32_t nt, ns, nr; /* translated, scaled, unrotated joints */
  size_t head, jbytes, floats, wide_at_bytes, wide_bytes, bytes;
} frames_layout;

static frames_layout lb_layout_of(const lb_clip *clip, uint32_t lanes, uint32_t groups,
                                  uint32_t keys) {
  frames_layout L;
  L.head = (sizeof(lb_clip_frames) + 15u) & ~(size_t)15u;
  L.nt = L.ns = 0;
  for (uint32_t j = 0; j < clip->joint_count; ++j) {
    L.nt += clip->joints[j].translation.count > 0;
    L.ns += clip->joints[j].scale.count > 0;
  }
  L.nr = clip->joint_count - lanes;
  size_t jcount = (size_t)groups * 4u + L.nt + L.ns + L.nr;
  L.jbytes = (jcount * sizeof(uint16_t) + 15u) & ~(size_t)15u;
  L.floats = (size_t)keys * groups * 16u;
  uint32_t wide_count = lb_count_wide(clip, lanes, groups, keys);
  L.wide_at_bytes = ((size_t)keys * groups * sizeof(uint32_t) + 15u) & ~(size_t)15u;
  L.wide_bytes = (size_t)wide_count * 12u * sizeof(float);
  L.bytes = L.head + L.jbytes + L.floats * sizeof(float) + L.wide_at_bytes + L.wide_bytes +
            (size_t)keys * groups * sizeof(uint16_t);
  return L;
}

/* The header and the parts' pointers into the block. */
static lb_clip_frames *lb_place_frames(uint8_t *block, const frames_layout *L) {
  lb_clip_frames *f = (lb_clip_frames *)(void *)block;
  size_t at = L->head;
  f->joints = (uint16_t *)(void *)(block + at);
  at += L->jbytes;
  f->values = (float *)(void *)(block + at);
  at += L->floats * sizeof(float);
  f->wide_at = (uint32_t *)(void *)(block + at);
  at += L->wide_at_bytes;
  f->wide = (float *)(void *)(block + at);
  at += L->wide_bytes;
  f->lane_bits = (uint16_t *)(void *)(block + at);
  f->bytes = L->bytes;
  return f;
}

/* The lanes' joints (the last one repeated to fill the last group) and the translated,
 * scaled and unrotated joint lists. */
static void lb_fill_joint_lists(lb_clip_frames *f, const lb_clip *clip, const frames_layout *L) {
  uint16_t *tj = f->joints + (size_t)f->group_count * 4u, *sj = tj + L->nt, *rj = sj + L->ns;
  f->lists = (lb_joint_lists){tj, L->nt, sj, L->ns, rj, L->nr};
  uint32_t lane = 0, nt = 0, ns = 0, nr = 0;
  for (uint32_t j = 0; j < clip->joint_count; ++j) {
    const lb_joint_tracks *jt = &clip->joints[j];
    if (jt->rotation.count > 0) {
      f->joints[lane++] = (uint16_t)j;
    } else {
      rj[nr++] = (uint16_t)j;
    }
    if (jt->translation.count > 0) {
      tj[nt++] = (uint16_t)j;
    }
    if (jt->scale.count > 0) {
      sj[ns++] = (uint16_t)j;
    }
  }
  for (; lane < f->group_count * 4u; ++lane) {
    f->joints[lane] = f->joints[f->lane_count - 1u];
  }
}

/* Rotation keys transposed: per key and group, x of the four lanes, then y, z, w. */
static void lb_transpose_keys(lb_clip_frames *f, const lb_clip *clip) {
  const uint32_t groups = f->group_count;
  for (uint32_t k = 0; k < f->key_count; ++k) {
    for (uint32_t g = 0; g < groups; ++g) {
      float *dst = f->values + ((size_t)k * groups + g) * 16u;
      for (uint32_t l = 0; l < 4u; ++l) {
        const float *q = clip->joints[f->joints[g * 4u + l]].rotation.values + (size_t)k * 4u;
        for (uint32_t c = 0; c < 4u; ++c) {
          dst[c * 4u + l] = q[c];
        }
      }
    }
  }
}

/* Per key and group: which lanes repeat, flip or are wide, and the wide lanes' slerp angle
 * terms (lb_quat_slerp's, the same operations), placed from *next on. */
static void lb_mark_segment(lb_clip_frames *f, uint32_t k, uint32_t g, uint32_t *next) {
  const uint32_t keys = f->key_count, groups = f->group_count;
  uint32_t *at = &f->wide_at[(size_t)k * groups + g];
  uint16_t *bits = &f->lane_bits[(size_t)k * groups + g];
  *at = UINT32_MAX;
  *bits = 0u;
  if (keys < 2u) {
    return;
  }
  const float *va = f->values + ((size_t)k * groups + g) * 16u;
  const float *vb = f->values + ((size_t)((k + 1u) % keys) * groups + g) * 16u;
  for (uint32_t l = 0; l < 4u; ++l) {
    float a[4], b[4];
    for (uint32_t c = 0; c < 4u; ++c) {
      a[c] = va[c * 4u + l];
      b[c] = vb[c * 4u + l];
    }
    if (memcmp(a, b, sizeof a) == 0) {
      *bits = (uint16_t)(*bits | 256u << l);
      continue;
    }
    float d = lb_key_dot(a, b);
    *bits = (uint16_t)(*bits | (d < 0.0f ? 1u << l : 0u));
    if (!lb_dot_is_wide(d)) {
      continue;
    }
    *bits = (uint16_t)(*bits | 16u << l);
    if (*at == UINT32_MAX) {
      *at = *next;
      *next += 12u;
      memset(f->wide + *at, 0, 12u * sizeof(float));
    }
    float sign = 1.0f;
    if (d < 0.0f) {
      d = -d;
      sign = -1.0f;
    }
    float theta = lb_acos(d);
    float *e = f->wide + *at + l;
    e[0] = theta;
    e[4] = 1.0f / lb_sin(theta);
    e[8] = sign;
  }
}

lb_result lb_clip_frames_create(const lb_clip *clip, const lb_allocator *allocator,
                                lb_clip_frames **out) {
  if (!out) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  *out = NULL;
  if (lb_clip_structure(clip) != LB_OK || clip->joint_count > UINT16_MAX) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  const lb_track *grid;
  uint32_t lanes, first;
  if (!lb_rotation_grid(clip, &grid, &lanes, &first)) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  lb_allocator al =
      allocator && allocator->alloc && allocator->free ? *allocator : lb_allocator_default();
  uint32_t groups = (lanes + 3u) / 4u;
  uint32_t keys = grid->count;
  frames_layout L = lb_layout_of(clip, lanes, groups, keys);
  uint8_t *block = lb_mem_alloc(&al, L.bytes);
  if (!block) {
    return LB_ERR_OUT_OF_MEMORY;
  }
  lb_clip_frames *f = lb_place_frames(block, &L);
  f->tracks = clip->joints;
  f->joint_count = clip->joint_count;
  f->allocator = al;
  f->key_count = keys;
  f->lane_count = lanes;
  f->group_count = groups;
  f->first = first;
  lb_fill_joint_lists(f, clip, &L);
  lb_transpose_keys(f, clip);
  uint32_t next = 0;
  for (uint32_t k = 0; k < keys; ++k) {
    for (uint32_t g = 0; g < groups; ++g) {
      lb_mark_segment(f, k, g, &next);
    }
  }
  *out = f;
  return LB_OK;
}

void lb_clip_frames_destroy(lb_clip_frames *frames) {
  if (frames) {
    lb_allocator al = frames->allocator;
    lb_mem_free(&al, frames);
  }
}

size_t lb_clip_frames_size(const lb_clip_frames *frames) {
  return frames ? frames->bytes : 0u;
}

bool lb_clip_frames_match(const lb_clip_frames *f, const lb_clip *clip) {
  return f && clip && f->tracks == clip->joints && f->joint_count == clip->joint_count;
}

const lb_track *lb_clip_frames_grid(const lb_clip_frames *f, uint32_t *joint) {
  *joint = f->first;
  return &f->tracks[f->first].rotation;
}

const lb_joint_lists *lb_clip_frames_lists(const lb_clip_frames *f) {
  return &f->lists;
}

/* lb_quat_slerp(a, b, u) for u in (0, 1) with its angle terms from `e`, lane l alone (the
 * lanes whose sine lb_f4_sin_low does not do). */
static void lb_lane_slerp(const float *va, const float *vb, uint32_t l, float u, const float *e,
                          float *out) {
  float theta = e[l], inv_sin = e[4u + l], sign = e[8u + l];
  float wa = lb_sin((1.0f - u) * theta) * inv_sin;
  float wb = lb_sin(u * theta) * inv_sin * sign;
  for (uint32_t c = 0; c < 4u; ++c) {
    out[c] = va[c * 4u + l] * wa + vb[c * 4u + l] * wb;
  }
  lb_quat_normalize(out);
}

/* +-1 per lane: u * -1 is -u exactly, what a select of -u would give */
static const float k_sign[16][4] = {
    {1, 1, 1, 1},   {-1, 1, 1, 1},   {1, -1, 1, 1},   {-1, -1, 1, 1},
    {1, 1, -1, 1},  {-1, 1, -1, 1},  {1, -1, -1, 1},  {-1, -1, -1, 1},
    {1, 1, 1, -1},  {-1, 1, 1, -1},  {1, -1, 1, -1},  {-1, -1, 1, -1},
    {1, 1, -1, -1}, {-1, 1, -1, -1}, {1, -1, -1, -1}, {-1, -1, -1, -1}};

/* The slerp is the rare path: out of line in the SIMD builds, so the lerp's three inlined
 * copies stay small (and the wasm blend kernel spills less: 20,842 against 21,649
 * instructions per anim.character); inline in the portable one, where V8 spills every
 * live lane around the call instead (45,136 against 43,676). */
#if defined(LB_SIMD4_WASM) || defined(LB_SIMD4_SSE2)
#define LB_FRAMES_SLERP LB_F4_NOINLINE
#else
#define LB_FRAMES_SLERP LB_F4_INLINE
#endif

/* Over q, group g's normalised lerp, the lanes `slerp` (keys more than 8 degrees apart)
 * slerped. */
LB_FRAMES_SLERP void group_slerp(const lb_clip_frames *f, key_span sp, uint32_t g, uint32_t slerp,
                                 lb_f4 *q) {
  const uint32_t groups = f->group_count;
  const float *va = f->values + ((size_t)sp.a * groups + g) * 16u;
  const float *vb = f->values + ((size_t)sp.b * groups + g) * 16u;
  /* lb_quat_slerp on the four lanes at once (lanes that are not wide have theta 0 and are
   * not kept); padding lanes repeat a real track, so their slerp is as good as any value. */
  const float *e = f->wide + f->wide_at[(size_t)sp.a * groups + g];
  /* Four lanes' sines at once cost natively about what two lanes' lb_sin calls do, in wasm
   * about one (the calls cost more there); the portable lanes would run all four. */
#if defined(LB_SIMD4_WASM)
  const bool together = true;
#elif defined(LB_SIMD4_SSE2)
  const bool together = (slerp & (slerp - 1u)) != 0u;
#else
  const bool together = false;
#endif
  if (together) {
    const lb_f4 theta = lb_f4_load(e), inv_sin = lb_f4_load(e + 4), u = lb_f4_set1(sp.u);
    int outside = 0;
    lb_f4 wa = lb_f4_sin_low(lb_f4_mul(lb_f4_sub(lb_f4_set1(1.0f), u), theta), &outside);
    lb_f4 wb = lb_f4_sin_low(lb_f4_mul(u, theta), &outside);
    if ((outside & (int)slerp) == 0) {
      wa = lb_f4_mul(wa, inv_sin);
      wb = lb_f4_mul(lb_f4_mul(wb, inv_sin), lb_f4_load(e + 8));
      lb_f4 s[4];
      for (uint32_t c = 0; c < 4u; ++c) {
        s[c] = lb_f4_add(lb_f4_mul(lb_f4_load(va + 4u * c), wa),
                         lb_f4_mul(lb_f4_load(vb + 4u * c), wb));
      }
      lb_f4_qnormalize4(s);
      const lb_f4 wide = lb_f4_lt(lb_f4_load(k_sign[slerp]), lb_f4_set1(0.0f));
      for (uint32_t c = 0; c < 4u; ++c) {
        q[c] = lb_f4_select(wide, s[c], q[c]);
      }
      return;
    }
  }
  float lanes[4][4];
  for (uint32_t c = 0; c < 4u; ++c) {
    lb_f4_store(lanes[c], q[c]);
  }
  for (uint32_t l = 0; l < 4u; ++l) {
    if ((slerp >> l) & 1u) {
      float r[4];
      lb_lane_slerp(va, vb, l, sp.u, e, r);
      for (uint32_t c = 0; c < 4u; ++c) {
        lanes[c][l] = r[c];
      }
    }
  }
  for (uint32_t c = 0; c < 4u; ++c) {
    q[c] = lb_f4_load(lanes[c]);
  }
}

/* A span's two keys' rows (group 0): a loop over the groups steps from here instead of
 * working out each group's place in the frames' arrays again. */
typedef struct frames_row {
  const float *va, *vb; /* rotations of key a and key b */
  const uint16_t *bits; /* key a's lane bits */
} frames_row;

LB_F4_INLINE frames_row frames_row_at(const lb_clip_frames *f, key_span sp) {
  const size_t groups = f->group_count;
  frames_row r = {f->values + (size_t)sp.a * groups * 16u, f->values + (size_t)sp.b * groups * 16u,
                  f->lane_bits + (size_t)sp.a * groups};
  return r;
}

/* Group g's four lanes at span sp, lanes x y z w in q: key a (copy), else the normalised
 * lerp, with the lanes whose keys are more than 8 degrees apart slerped. */
LB_F4_INLINE void group_lanes(const lb_clip_frames *f, key_span sp, frames_row row, uint32_t g,
                              lb_f4 *q) {
  const float *va = row.va + (size_t)g * 16u;
  const float *vb = row.vb + (size_t)g * 16u;
  lb_f4 ax = lb_f4_load(va), ay = lb_f4_load(va + 4), az = lb_f4_load(va + 8),
        aw = lb_f4_load(va + 12);
  const uint32_t bits = sp.copy ? 0u : row.bits[g];
  const uint32_t same = bits >> 8;
  if (sp.copy || same == 15u) {
    q[0] = ax;
    q[1] = ay;
    q[2] = az;
    q[3] = aw;
    return;
  }
  const uint32_t slerp = (bits >> 4) & 15u;
  const lb_f4 sa = lb_f4_set1(1.0f - sp.u);
  lb_f4 bx = lb_f4_load(vb), by = lb_f4_load(vb + 4), bz = lb_f4_load(vb + 8),
        bw = lb_f4_load(vb + 12);
  lb_f4 sb = lb_f4_mul(lb_f4_set1(sp.u), lb_f4_load(k_sign[bits & 15u]));
  lb_f4 qx = lb_f4_add(lb_f4_mul(ax, sa), lb_f4_mul(bx, sb));
  lb_f4 qy = lb_f4_add(lb_f4_mul(ay, sa), lb_f4_mul(by, sb));
  lb_f4 qz = lb_f4_add(lb_f4_mul(az, sa), lb_f4_mul(bz, sb));
  lb_f4 qw = lb_f4_add(lb_f4_mul(aw, sa), lb_f4_mul(bw, sb));
  q[0] = qx;
  q[1] = qy;
  q[2] = qz;
  q[3] = qw;
  lb_f4_qnormalize4(q);
  if (same != 0u) {
    /* lanes whose keys are equal keep the key (the scalar sampler copies them) */
    const lb_f4 keep = lb_f4_lt(lb_f4_load(k_sign[same]), lb_f4_set1(0.0f));
    q[0] = lb_f4_select(keep, ax, q[0]);
    q[1] = lb_f4_select(keep, ay, q[1]);
    q[2] = lb_f4_select(keep, az, q[2]);
    q[3] = lb_f4_select(keep, aw, q[3]);
  }
  if (slerp != 0u) {
    group_slerp(f, sp, g, slerp, q);
  }
}

/* Lanes x y z w of group g to the rotations of its joints (padding lanes dropped). */
LB_F4_INLINE void group_store(const lb_clip_frames *f, uint32_t g, lb_f4 *q, lb_transform *output) {
  const uint16_t *joints = f->joints + g * 4u;
  uint32_t valid = f->lane_count - g * 4u;
  lb_f4_transpose(&q[0], &q[1], &q[2], &q[3]);
  if (valid >= 4u) {
    lb_f4_store(output[joints[0]].r, q[0]);
    lb_f4_store(output[joints[1]].r, q[1]);
    lb_f4_store(output[joints[2]].r, q[2]);
    lb_f4_store(output[joints[3]].r, q[3]);
    return;
  }
  for (uint32_t l = 0; l < valid; ++l) {
    lb_f4_store(output[joints[l]].r, q[l]);
  }
}

void lb_clip_frames_sample(const lb_clip_frames *f, key_span sp, lb_transform *output) {
  const frames_row row = frames_row_at(f, sp);
  for (uint32_t g = 0; g < f->group_count; ++g) {
    lb_f4 q[4];
    group_lanes(f, sp, row, g, q);
    group_store(f, g, q, output);
  }
}

bool lb_clip_frames_same_lanes(const lb_clip_frames *a, const lb_clip_frames *b) {
  return a->joint_count == b->joint_count && a->lane_count == b->lane_count &&
         lb_same_bytes(a->joints, b->joints, (size_t)a->group_count * 4u * sizeof(uint16_t));
}

/* Groups blended per block: the block's sums stay in a small stack buffer (L1) while the
 * layers pass over it one after the other, so no layer's lanes wait on register spills. */
#define LB_FRAMES_BLOCK 16u

void lb_clip_frames_blend(const lb_clip_frames *const *f, const key_span *spans, const float *w,
                          uint32_t count, lb_transform *output) {
  const lb_f4 zero = lb_f4_set1(0.0f);
  const uint32_t groups = f[0]->group_count;
  lb_f4 first[LB_FRAMES_BLOCK][4], acc[LB_FRAMES_BLOCK][4];
  frames_row rows[LB_SAMPLE_BLEND_MAX_LAYERS]; /* count <= this (the one-pass job's limit) */
  for (uint32_t i = 0; i < count; ++i) {
    rows[i] = frames_row_at(f[i], spans[i]);
  }
  for (uint32_t g0 = 0; g0 < groups; g0 += LB_FRAMES_BLOCK) {
    uint32_t end = groups - g0 < LB_FRAMES_BLOCK ? groups : g0 + LB_FRAMES_BLOCK;
    /* lb_blend_job's sums per lane (blend.c blend_rotations4): 0 + w * q for layer 0, then
     * +- w * q, negated where the dot with layer 0 is negative. */
    const lb_f4 w0 = lb_f4_set1(w[0]);
    for (uint32_t g = g0; g < end; ++g) {
      lb_f4 *q = first[g - g0], *a = acc[g - g0];
      group_lanes(f[0], spans[0], rows[0], g, q);
      for (uint32_t c = 0; c < 4u; ++c) {
        a[c] = lb_f4_add(zero, lb_f4_mul(w0, q[c]));
      }
    }
    for (uint32_t i = 1; i < count; ++i) {
      const lb_f4 wi = lb_f4_set1(w[i]), nwi = lb_f4_neg(wi);
      for (uint32_t g = g0; g < end; ++g) {
        lb_f4 q[4];
        const lb_f4 *p = first[g - g0];
        lb_f4 *a = acc[g - g0];
        group_lanes(f[i], spans[i], rows[i], g, q);
        lb_f4 d = lb_f4_add(lb_f4_add(lb_f4_add(lb_f4_mul(p[0], q[0]), lb_f4_mul(p[1], q[1])),
                                      lb_f4_mul(p[2], q[2])),
                            lb_f4_mul(p[3], q[3]));
        lb_f4 wr = lb_f4_select(lb_f4_lt(d, zero), nwi, wi);
        for (uint32_t c = 0; c < 4u; ++c) {
          a[c] = lb_f4_add(a[c], lb_f4_mul(wr, q[c]));
        }
      }
    }
    for (uint32_t g = g0; g < end; ++g) {
      lb_f4 *a = acc[g - g0];
      lb_f4_qnormalize4(a);
      group_store(f[0], g, a, output);
    }
  }
}
