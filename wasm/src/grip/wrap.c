/* Finger wrap: close each finger from open toward its pose until its bones meet the grip
 * surfaces (limber/grip_wrap.h has the behaviour; this file the why of the how).
 *
 * Why it is cheap:
 * - A joint's closing path is a turn within the plane of its open and pose rotations,
 *   q(s) = cos(sθ) qa + sin(sθ) qc. Every s the search visits is a grid point k/8 or the
 *   midpoint of two visited points, and the midpoint of two points of a circle arc is their
 *   normalised sum. So the grid's (cos, sin) pairs ("coefficients") come from three halvings
 *   of the whole arc and each bisection point from one 2-D normalisation: no sine, cosine or
 *   arc tangent anywhere in the search.
 * - Positions only, in the finger's own frame (origin at its root joint, axes of the root's
 *   parent): one quaternion product and one rotated offset per joint. Each shape within reach
 *   is moved into that frame once, its rotation as a matrix.
 * - The lead bone (the first one still closing, the one a phase's bisection asks about) needs
 *   no kinematics at all: its joint's rotation x A + y C is linear in the coefficient (x, y),
 *   so its end, p + x² P + x y T + y² S, is quadratic, and so is the end in each shape's frame.
 *   Those vectors are set up once per phase.
 * - Bones keep proven clearances and touches (see the header), so most steps ask one bone.
 *
 * Where the time goes: the march and each finger's set-up (arcs, shapes in the finger frame,
 * thresholds), not the bisection. Built with 1 bisection step instead of 4, grip.hand ran 16 %
 * fewer native instructions (55.3k -> 46.3k) and grip.character 7 %: a faster finish alone
 * cannot make the wrap several times cheaper. */
#include "../math/math_inline.h"
#include "../math/simd4_xf.h"
#include "grip_internal.h"
#include "limber/grip_wrap.h"
#include "limber/rig.h"

#include "../geom/distance_internal.h"

#include <float.h>
#include <string.h>

/* Shapes kept per finger after the reach test; more near one finger falls back to all. */
#define LB_WRAP_MAX_NEAR 16
/* The speed bound is exact for the constant-speed path; the angle bound (8 tan(θ/8) for θ)
 * is above the angle, and 1 % more covers the float rounding of the evaluated points. */
#define LB_WRAP_SPEED_SLACK 1.01f
/* Reach test slack for rounding in the bone lengths, metres. */
#define LB_WRAP_REACH_SLACK 1e-5f
#define LB_WRAP_GRID (LB_WRAP_MARCH_STEPS + 1)
#define LB_WRAP_SEGS LB_FINGER_MAX_SEGMENTS

_Static_assert(LB_WRAP_MARCH_STEPS == 8, "the march grid is built by three halvings");

/* One joint's closing path: the rotation at coefficient (x, y) is x qa + y qc. */
typedef struct lb_arc {
  lb_f4 qa; /* unit start */
  lb_f4 qc; /* unit, orthogonal to qa, toward the (sign-aligned) end */
  /* The joint's bone (the next offset u) turned by x qa + y qc is x² p + x y t + y² s. */
  lb_f4 p, t, s;
} lb_arc;

/* Coefficients (x, y) of a finger's joints, joint j in lane j: the search halves all the
 * closing joints' arcs with one vector operation. */
typedef struct lb_co {
  float x[4], y[4];
} lb_co;

/* A shape within a finger's reach, moved into the finger's frame: its own-frame point is
 * c + m x for a finger-frame point x, the axis coordinate first (cylinder, capsule). */
typedef struct lb_near_shape {
  lb_f4 col[3]; /* the matrix m by columns (lane = row) */
  lb_f4 c;
  lb_shape_type type;
  float radius, half_height;
  vec3 half_extents;
} lb_near_shape;

/* The lead bone's end in a near shape's frame: k + x² mp + x y mt + y² ms. */
typedef struct lb_lead_shape {
  lb_f4 k, mp, mt, ms;
} lb_lead_shape;

typedef struct lb_chain {
  int n;  /* segment joints */
  int nb; /* bones: n, or 0 for one segment without an end joint */
  int16_t joint[LB_WRAP_SEGS];
  int16_t tip;
  const float *end_local; /* estimated end (job end_local) when there is no end joint, or NULL */
  /* u[k], k >= 1: joint k (k = n: the last bone's end) from joint k-1, scaled by the
   * scales down to joint k-1, in joint k-1's rotated frame. */
  vec3 u[LB_WRAP_SEGS + 1];
  lb_arc arc[LB_WRAP_SEGS];
  versor base_r; /* model rotation of the root's parent: the finger frame's axes */
  int base;      /* the root's parent joint */
  vec3 root;     /* the root joint in model space: the finger frame's origin */
  float len[LB_WRAP_SEGS];
  /* search state */
  int active;            /* first joint still closing: the lead bone */
  float s[LB_WRAP_SEGS]; /* closing per joint */
  /* Coefficients of every joint at the last clear s, the first touching s and the s being
   * evaluated (entries of joints that no longer close are stale), and where each stopped. */
  lb_co co_lo, co_hi, co_ev, co_end;
  lb_co grid[LB_WRAP_GRID]; /* coefficients at s = k / 8 */
  /* (a + b) halve[i] is halfway between the coefficients a and b of s 1/8 / 2^i apart. */
  float halve[LB_WRAP_BISECT_STEPS][4];
  float angle[4];            /* upper bound of each joint's rotation angle open → pose, radians */
  lb_f4 rot[LB_WRAP_SEGS];   /* finger-frame rotations, last evaluation (frozen ones fixed) */
  lb_f4 p[LB_WRAP_SEGS + 1]; /* finger-frame joint positions, p[0] = 0 */
  lb_f4 lead_a, lead_c;      /* the lead joint's rotation is x lead_a + y lead_c */
  lb_f4 lead_p, lead_t, lead_s; /* its bone, x² P + x y T + y² S */
  /* Touch thresholds per bone and shape in reach (near_all: one per bone, thr[b][0]). */
  float thr[LB_WRAP_SEGS][LB_WRAP_MAX_NEAR];
  float inv_speed[LB_WRAP_SEGS]; /* 1 / K, K: sample speed bound per unit s, this phase */
  float clear_s[LB_WRAP_SEGS];   /* s of the bone's last proven clearance ... */
  float clear_r[LB_WRAP_SEGS];   /* ... and the |Δs| it holds for (< 0: none); */
  float touch_s[LB_WRAP_SEGS];   /* the same for a proven touch */
  float touch_r[LB_WRAP_SEGS];
  /* shapes within reach */
  const lb_shape *shapes;
  uint32_t shape_count;
  uint32_t near_count;
  bool near_all; /* more than LB_WRAP_MAX_NEAR: every shape, queried in model space */
  lb_near_shape near[LB_WRAP_MAX_NEAR];
  float near_root[LB_WRAP_MAX_NEAR]; /* distance from the root joint */
  /* Per bone, the near shapes its samples can reach (not with near_all). */
  uint8_t bone_near[LB_WRAP_SEGS][LB_WRAP_MAX_NEAR];
  uint32_t bone_near_count[LB_WRAP_SEGS];
  lb_lead_shape lead[LB_WRAP_MAX_NEAR]; /* by near shape, for the lead bone's ones */
  /* Kept from finger to finger (fingers mostly share their base joint, the hand): per shape
   * i < LB_WRAP_MAX_NEAR with bit i of frame_made, its inverse rotation and the columns of
   * lb_near_shape.col for base joint frame_base (-1: none yet). */
  int frame_base;
  uint32_t frame_made;
  versor frame_inv[LB_WRAP_MAX_NEAR];
  lb_f4 frame_col[LB_WRAP_MAX_NEAR][3];
  uint32_t queries;
} lb_chain;

lb_wrap_job lb_wrap_default_job(void) {
  lb_wrap_job job;
  memset(&job, 0, sizeof job);
  job.finger_mask = LB_WRAP_ALL_FINGERS;
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    job.fingers[f].first_bone = -1;
  }
  return job;
}

/* ---- validation ----------------------------------------------------------------------- */

static bool lb_in_range(const lb_wrap_job *job, int j) {
  return j >= 0 && j < (int)job->joint_count;
}

/* Marks joint j used; false when a finger already used it. Fingers are solved and written
 * one after another: a shared joint would be read after another finger wrote it. */
static bool lb_mark_used(uint32_t *used, int j) {
  uint32_t bit = 1u << (j & 31);
  if (used[j >> 5] & bit) {
    return false;
  }
  used[j >> 5] |= bit;
  return true;
}

/* Chain shape and indices of one found finger. */
static lb_result lb_check_finger(const lb_wrap_job *job, const lb_finger_info *fi, uint32_t *used) {
  int n = fi->segment_count;
  if (n < 1 || n > LB_FINGER_MAX_SEGMENTS) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  for (int k = 0; k < n; ++k) {
    int j = fi->joints[k];
    if (!lb_in_range(job, j)) {
      return LB_ERR_INVALID_ARGUMENT;
    }
    int parent = job->parents[j];
    if (k == 0 ? !(parent >= 0 && parent < j) : parent != fi->joints[k - 1]) {
      return LB_ERR_INVALID_ARGUMENT;
    }
    if (!lb_mark_used(used, j)) {
      return LB_ERR_INVALID_ARGUMENT;
    }
  }
  if (fi->tip != -1) {
    if (!lb_in_range(job, fi->tip) || job->parents[fi->tip] != fi->joints[n - 1] ||
        !lb_mark_used(used, fi->tip)) {
      return LB_ERR_INVALID_ARGUMENT;
    }
  }
  return LB_OK;
}

/* The values one found finger reads; its root's parent only with `base_too` (fingers mostly share
 * it: the hand). */
static lb_result lb_check_values(const lb_wrap_job *job, const lb_finger_info *fi, bool base_too) {
  lb_f4 acc = lb_f4_set1(0.0f);
  if (base_too) {
    const lb_transform *base = &job->model[job->parents[fi->joints[0]]];
    acc = lb_f4_zero_terms(acc, lb_f4_load3(base->t));
    acc = lb_f4_zero_terms(acc, lb_f4_load(base->r));
    acc = lb_f4_zero_terms(acc, lb_f4_load3(base->s));
  }
  float smallest = FLT_MAX; /* squared norm of the shortest open or pose rotation */
  for (int k = 0; k <= fi->segment_count; ++k) {
    int j = k < fi->segment_count ? fi->joints[k] : fi->tip;
    if (j < 0) {
      continue;
    }
    acc = lb_f4_zero_terms(acc, lb_f4_load3(job->local[j].t));
    acc = lb_f4_zero_terms(acc, lb_f4_load3(job->local[j].s));
    if (k == fi->segment_count) {
      continue; /* the end joint is a point: its rotation is not used */
    }
    const float *qo = job->open_local[j].r, *qp = job->pose_local[j].r;
    acc = lb_f4_zero_terms(lb_f4_zero_terms(acc, lb_f4_load(qo)), lb_f4_load(qp));
    float no = qo[0] * qo[0] + qo[1] * qo[1] + qo[2] * qo[2] + qo[3] * qo[3];
    float np = qp[0] * qp[0] + qp[1] * qp[1] + qp[2] * qp[2] + qp[3] * qp[3];
    smallest = no < smallest ? no : smallest;
    smallest = np < smallest ? np : smallest;
  }
  return lb_f4_zero_terms_failed(acc) ? LB_ERR_NOT_FINITE
         : smallest > 1e-12f          ? LB_OK
                                      : LB_ERR_OUT_OF_RANGE;
}

/* Everything but the values: pointers, counts, margin, the fingers' chains. */
static lb_result lb_wrap_check_layout(const lb_wrap_job *job) {
  if (!job || !job->hand || !job->parents || !job->local || !job->open_local || !job->pose_local ||
      !job->model || !job->out_local || (job->shape_count > 0 && !job->shapes) ||
      (job->finger_mask & ~LB_WRAP_ALL_FINGERS) != 0) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (job->joint_count < 1 || job->joint_count > LB_MAX_JOINTS) {
    return LB_ERR_OUT_OF_RANGE;
  }
  if (job->margin * 0.0f != 0.0f) {
    return LB_ERR_NOT_FINITE;
  }
  if (job->margin < 0.0f) {
    return LB_ERR_OUT_OF_RANGE;
  }
  uint32_t used[LB_MAX_JOINTS / 32];
  memset(used, 0, sizeof used);
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    const lb_finger_info *fi = &job->hand->fingers[f];
    if (fi->found) {
      lb_result r = lb_check_finger(job, fi, used);
      if (r != LB_OK) {
        return r;
      }
    }
  }
  return LB_OK;
}

lb_result lb_wrap_job_validate(const lb_wrap_job *job) {
  lb_result layout = lb_wrap_check_layout(job);
  if (layout != LB_OK) {
    return layout;
  }
  int checked_base = -1;
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    const lb_finger_info *fi = &job->hand->fingers[f];
    if (fi->found) {
      int base = job->parents[fi->joints[0]];
      lb_result r = lb_check_values(job, fi, base != checked_base);
      checked_base = base;
      if (r != LB_OK) {
        return r;
      }
      if ((job->end_mask >> f) & 1u) {
        lb_f4 end = lb_f4_zero_terms(lb_f4_set1(0.0f), lb_f4_load3(job->end_local[f]));
        if (lb_f4_zero_terms_failed(end)) {
          return LB_ERR_NOT_FINITE;
        }
      }
    }
  }
  for (uint32_t i = 0; i < job->shape_count; ++i) {
    lb_result r = lb_shape_validate_resolved(&job->shapes[i]);
    if (r != LB_OK) {
      return r;
    }
  }
  return LB_OK;
}

/* ---- small vector helpers (inlined: the search's inner loop) --------------------------- */

/* Vectors and quaternions of the search live in lb_f4 lanes (x, y, z[, w]; lb_f4_load3): each
 * lane runs the scalar expression's operations in its order, so the bits are those of scalar
 * code. */

static inline float lb_dot4(const float *a, const float *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}

/* c + m v, m by columns: per lane (row) c + ((m0 v0 + m1 v1) + m2 v2). */
static inline lb_f4 lb_mat_apply(const lb_f4 col[3], lb_f4 c, lb_f4 v) {
  lb_f4 m = lb_f4_add(lb_f4_mul(col[0], LB_F4_SHUFFLE(v, 0, 0, 0, 0)),
                      lb_f4_mul(col[1], LB_F4_SHUFFLE(v, 1, 1, 1, 1)));
  return lb_f4_add(c, lb_f4_add(m, lb_f4_mul(col[2], LB_F4_SHUFFLE(v, 2, 2, 2, 2))));
}

/* (a + b) f per joint. */
static inline void lb_co_scaled_sum(const lb_co *a, const lb_co *b, lb_f4 f, lb_co *out) {
  lb_f4_store(out->x, lb_f4_mul(lb_f4_add(lb_f4_load(a->x), lb_f4_load(b->x)), f));
  lb_f4_store(out->y, lb_f4_mul(lb_f4_add(lb_f4_load(a->y), lb_f4_load(b->y)), f));
}

/* 1 / |(x, y)| per lane. */
static inline lb_f4 lb_inv_norm2(lb_f4 x, lb_f4 y) {
  return lb_f4_div(lb_f4_set1(1.0f), lb_f4_sqrt(lb_f4_add(lb_f4_mul(x, x), lb_f4_mul(y, y))));
}

/* The unit (cos, sin) halfway between two unit pairs: their normalised sum. */
static inline void lb_co_halfway(const lb_co *a, const lb_co *b, lb_co *out) {
  lb_f4 x = lb_f4_add(lb_f4_load(a->x), lb_f4_load(b->x));
  lb_f4 y = lb_f4_add(lb_f4_load(a->y), lb_f4_load(b->y));
  lb_f4 inv = lb_inv_norm2(x, y);
  lb_f4_store(out->x, lb_f4_mul(x, inv));
  lb_f4_store(out->y, lb_f4_mul(y, inv));
}

/* ---- closing paths --------------------------------------------------------------------- */

static void lb_unit(const float *q, float *out) {
  float n2 = lb_dot4(q, q);
  float inv = n2 < 1.0f - 1e-5f || n2 > 1.0f + 1e-5f ? 1.0f / lb_geom_sqrt(n2) : 1.0f;
  for (int i = 0; i < 4; ++i) {
    out[i] = q[i] * inv;
  }
}

/* The paths of joints 0..n-1: unit ends, the grid by three halvings of [0, 1] and the
 * bisection factors. The pairs halved at one level are equally far apart, so one square root
 * per level scales all of them; a bisection of a whole grid cell halves pairs 1/8, 1/16, ...
 * apart, whose factors continue the same chain (halve[i]: pairs 1/8 / 2^i apart). The joints
 * go through the levels together, one per lane (unused lanes halve a standing path). */
static void lb_arcs_init(lb_chain *ch, const lb_wrap_job *job) {
  lb_co *g = ch->grid;
  for (int j = 0; j < 4; ++j) {
    g[0].x[j] = g[8].x[j] = 1.0f;
    g[0].y[j] = g[8].y[j] = 0.0f;
  }
  for (int j = 0; j < ch->n; ++j) {
    lb_arc *arc = &ch->arc[j];
    versor qa, qb;
    lb_unit(job->open_local[ch->joint[j]].r, qa);
    lb_unit(job->pose_local[ch->joint[j]].r, qb);
    arc->qa = lb_f4_load(qa);
    float d = lb_dot4(qa, qb);
    float sign = d < 0.0f ? -1.0f : 1.0f; /* the shorter arc */
    d *= sign;
    versor c;
    for (int i = 0; i < 4; ++i) {
      c[i] = qb[i] * sign - qa[i] * d;
    }
    float len = lb_geom_sqrt(lb_dot4(c, c));
    if (len > 0.0f) {
      float inv = 1.0f / len, nrm = 1.0f / lb_geom_sqrt(d * d + len * len);
      arc->qc = lb_f4_mul(lb_f4_load(c), lb_f4_set1(inv));
      g[8].x[j] = d * nrm;
      g[8].y[j] = len * nrm;
    } else { /* the same rotation: the path stands still */
      arc->qc = lb_f4_set1(0.0f);
    }
  }
  for (int step = LB_WRAP_MARCH_STEPS; step > 1; step /= 2) {
    int half = step / 2;
    lb_f4 f = lb_inv_norm2(lb_f4_add(lb_f4_load(g[0].x), lb_f4_load(g[step].x)),
                           lb_f4_add(lb_f4_load(g[0].y), lb_f4_load(g[step].y)));
    for (int k = half; k < LB_WRAP_GRID; k += step) {
      lb_co_scaled_sum(&g[k - half], &g[k + half], f, &g[k]);
    }
  }
  /* h: the coefficient at s = 1/8 / 2^i while the factors are chained. */
  lb_f4 hx = lb_f4_load(g[1].x), hy = lb_f4_load(g[1].y);
  for (int i = 0; i < LB_WRAP_BISECT_STEPS; ++i) {
    lb_f4 x = lb_f4_add(lb_f4_set1(1.0f), hx);
    lb_f4 f = lb_inv_norm2(x, hy);
    lb_f4_store(ch->halve[i], f);
    hx = lb_f4_mul(x, f);
    hy = lb_f4_mul(hy, f);
  }
  /* θ <= 8 tan(θ / 8) and the rotation angle is 2θ. */
  lb_f4 scale = lb_f4_set1(2.0f * (float)LB_WRAP_MARCH_STEPS);
  lb_f4_store(ch->angle, lb_f4_div(lb_f4_mul(scale, lb_f4_load(g[1].y)), lb_f4_load(g[1].x)));
}

/* The bone offset u turned along the path, as a quadratic in the coefficient: see
 * lb_chain_lead. */
static void lb_arc_bone(lb_arc *arc, const float *u) {
  const lb_f4 zero = lb_f4_set1(0.0f), uq = lb_f4_load3(u);
  arc->p = lb_f4_qrot_add(arc->qa, uq, zero);
  arc->s = lb_f4_qrot_add(arc->qc, uq, zero);
  lb_f4 cinv = lb_f4_xor(arc->qc, lb_f4_set(-0.0f, -0.0f, -0.0f, 0.0f));
  lb_f4 z = lb_f4_qmul(lb_f4_qmul(arc->qa, uq), cinv);
  arc->t = lb_f4_mul(lb_f4_set1(2.0f), z);
}

/* The rotation at coefficient co. */
static inline lb_f4 lb_arc_rotation(const lb_arc *arc, float x, float y) {
  return lb_f4_add(lb_f4_mul(arc->qa, lb_f4_set1(x)), lb_f4_mul(arc->qc, lb_f4_set1(y)));
}

/* ---- shapes in the finger frame -------------------------------------------------------- */

/* Shape i's rotation part of the finger frame (see lb_near_prepare): Rs^-1 and the matrix of
 * Rs^-1 Rb by columns, rows from the shape's axis on. */
static void lb_near_frame(const lb_chain *c, const lb_shape *s, versor inv, lb_f4 col[3]) {
  versor q;
  memcpy(inv, s->rotation, sizeof(versor));
  lb_quat_normalize(inv);
  lb_quat_conj(inv, inv);
  lb_quat_mul(inv, c->base_r, q);
  lb_quat_normalize(q);
  float x = q[0], y = q[1], z = q[2], w = q[3];
  float m[3][3] = {{1.0f - 2.0f * (y * y + z * z), 2.0f * (x * y - w * z), 2.0f * (x * z + w * y)},
                   {2.0f * (x * y + w * z), 1.0f - 2.0f * (x * x + z * z), 2.0f * (y * z - w * x)},
                   {2.0f * (x * z - w * y), 2.0f * (y * z + w * x), 1.0f - 2.0f * (x * x + y * y)}};
  int first = s->type == LB_SHAPE_CYLINDER || s->type == LB_SHAPE_CAPSULE ? (int)s->axis : 0;
  int r0 = first, r1 = (first + 1) % 3, r2 = (first + 2) % 3;
  for (int k = 0; k < 3; ++k) {
    col[k] = lb_f4_set(m[r0][k], m[r1][k], m[r2][k], 0.0f);
  }
}

static void lb_near_prepare(lb_chain *c, uint32_t i, lb_near_shape *out) {
  /* own = Rs^-1 (root + Rb x - centre) = c + M x with M the matrix of Rs^-1 Rb. */
  const lb_shape *s = &c->shapes[i];
  versor inv_own;
  const float *inv = inv_own;
  if (i < LB_WRAP_MAX_NEAR) {
    if (c->frame_base != c->base) {
      c->frame_base = c->base;
      c->frame_made = 0;
    }
    if (!((c->frame_made >> i) & 1u)) {
      lb_near_frame(c, s, c->frame_inv[i], c->frame_col[i]);
      c->frame_made |= 1u << i;
    }
    inv = c->frame_inv[i];
    memcpy(out->col, c->frame_col[i], sizeof out->col);
  } else {
    lb_near_frame(c, s, inv_own, out->col);
  }
  vec3 d = {c->root[0] - s->center[0], c->root[1] - s->center[1], c->root[2] - s->center[2]};
  vec3 own;
  lb_quat_rotate(inv, d, own);
  int first = s->type == LB_SHAPE_CYLINDER || s->type == LB_SHAPE_CAPSULE ? (int)s->axis : 0;
  out->c = lb_f4_set(own[first], own[(first + 1) % 3], own[(first + 2) % 3], 0.0f);
  out->type = s->type;
  out->radius = s->radius;
  out->half_height = s->half_height;
  memcpy(out->half_extents, s->half_extents, sizeof(vec3));
}

/* Always inlined: emcc kept it a call, around which V8 spills the search's live lanes. */
LB_F4_INLINE float lb_own_distance(const lb_near_shape *s, lb_f4 q) {
  float v[4];
  lb_f4_store(v, q);
  return lb_shape_distance_local(s->type, s->radius, s->half_height, s->half_extents, v);
}

static inline float lb_near_distance(const lb_near_shape *s, lb_f4 x) {
  return lb_own_distance(s, lb_mat_apply(s->col, s->c, x));
}

/* Distance from finger-frame point x to shape i of the job, in model space (near_all). */
static float lb_far_distance(const lb_chain *c, uint32_t i, lb_f4 x) {
  float v[4];
  vec3 p;
  lb_f4_store(v, x);
  lb_qrot_add(c->base_r, v, c->root, p);
  return lb_shape_distance(&c->shapes[i], p);
}

/* Distance from finger-frame point x to the i-th shape in reach. */
static float lb_chain_distance(const lb_chain *c, uint32_t i, lb_f4 x) {
  return c->near_all ? lb_far_distance(c, i, x) : lb_near_distance(&c->near[i], x);
}

/* ---- kinematics ------------------------------------------------------------------------ */

/* The lead joint's rotation is x A + y C with A = R qa, C = R qc (R: the frozen joints'
 * rotation), so its bone's end relative to its joint, (x A + y C) u (x A + y C)^-1, is
 * x² A u A^-1 + x y (A u C^-1 + C u A^-1) + y² C u C^-1 (the middle term is 2 vec(A u C^-1)):
 * the arc's quadratic (lb_arc_bone) turned by R. Set up when a phase starts (the frozen
 * joints' rotations and positions are current), and in each near shape's frame. */
static void lb_chain_lead(lb_chain *c) {
  int a = c->active;
  const lb_arc *arc = &c->arc[a];
  const lb_f4 zero = lb_f4_set1(0.0f);
  if (a == 0) {
    c->lead_a = arc->qa;
    c->lead_c = arc->qc;
    c->lead_p = arc->p;
    c->lead_t = arc->t;
    c->lead_s = arc->s;
  } else {
    lb_f4 r = c->rot[a - 1];
    c->lead_a = lb_f4_qmul(r, arc->qa);
    c->lead_c = lb_f4_qmul(r, arc->qc);
    c->lead_p = lb_f4_qrot_add(r, arc->p, zero);
    c->lead_t = lb_f4_qrot_add(r, arc->t, zero);
    c->lead_s = lb_f4_qrot_add(r, arc->s, zero);
  }
  if (c->near_all) {
    return;
  }
  for (uint32_t n = 0; n < c->bone_near_count[a]; ++n) {
    uint32_t i = c->bone_near[a][n];
    const lb_near_shape *sh = &c->near[i];
    lb_lead_shape *l = &c->lead[i];
    l->k = lb_mat_apply(sh->col, sh->c, c->p[a]);
    l->mp = lb_mat_apply(sh->col, zero, c->lead_p);
    l->mt = lb_mat_apply(sh->col, zero, c->lead_t);
    l->ms = lb_mat_apply(sh->col, zero, c->lead_s);
  }
}

/* x² P + x y T + y² S. */
static inline lb_f4 lb_quadratic(lb_f4 p, lb_f4 t, lb_f4 s, float xx, float xy, float yy) {
  lb_f4 a = lb_f4_add(lb_f4_mul(lb_f4_set1(xx), p), lb_f4_mul(lb_f4_set1(xy), t));
  return lb_f4_add(a, lb_f4_mul(lb_f4_set1(yy), s));
}

/* Positions of joints from+1..upto+1 (the end of bone upto) with every closing joint at its
 * coefficient in co_ev, and the rotations of joints from..upto (the last joint's only with
 * `all`: no joint hangs below it); joints before `from` are done. Each joint turns its bone by
 * its arc's quadratic (lb_arc_bone), then by the joints before it. Later joints are not
 * touched: bones proven clear need no kinematics at all. */
static void lb_chain_eval(lb_chain *c, int from, int upto, bool all) {
  for (int k = from; k <= upto; ++k) {
    float x = c->co_ev.x[k], y = c->co_ev.y[k];
    bool rot = all || k < c->n - 1; /* a later call may go on from here */
    if (k == c->active) {
      lb_f4 w = lb_quadratic(c->lead_p, c->lead_t, c->lead_s, x * x, x * y, y * y);
      c->p[k + 1] = lb_f4_add(c->p[k], w);
      if (rot) {
        c->rot[k] =
            lb_f4_add(lb_f4_mul(c->lead_a, lb_f4_set1(x)), lb_f4_mul(c->lead_c, lb_f4_set1(y)));
      }
    } else {
      const lb_arc *arc = &c->arc[k];
      lb_f4 w = lb_quadratic(arc->p, arc->t, arc->s, x * x, x * y, y * y);
      c->p[k + 1] = lb_f4_qrot_add(c->rot[k - 1], w, c->p[k]);
      if (rot) {
        c->rot[k] = lb_f4_qmul(c->rot[k - 1], lb_arc_rotation(arc, x, y));
      }
    }
  }
}

/* ---- queries --------------------------------------------------------------------------- */

/* Smallest (distance - threshold) over the points (bone b's end, then its midpoint) and the
 * shapes in reach, queried in model space (near_all: one threshold for all shapes). */
static float lb_far_clearance(lb_chain *c, int b, const lb_f4 pts[2], bool stop) {
  float best = FLT_MAX;
  for (int k = 0; k < 2; ++k) {
    for (uint32_t i = 0; i < c->shape_count; ++i) {
      float d = lb_far_distance(c, i, pts[k]) - c->thr[b][0];
      c->queries++;
      best = d < best ? d : best;
      if (stop && best < 0.0f) {
        return best;
      }
    }
  }
  return best;
}

/* Smallest (distance - threshold) over bone b's samples (its end, then its midpoint) and the
 * shapes it can reach, from the kinematics; with `stop`, returns as soon as one is negative
 * (a touch). */
static float lb_bone_clearance(lb_chain *c, int b, bool stop) {
  lb_f4 pts[2] = {c->p[b + 1], lb_f4_mul(lb_f4_set1(0.5f), lb_f4_add(c->p[b], c->p[b + 1]))};
  if (c->near_all) {
    return lb_far_clearance(c, b, pts, stop);
  }
  const float *thr = c->thr[b];
  const uint8_t *list = c->bone_near[b];
  uint32_t count = c->bone_near_count[b];
  float best = FLT_MAX;
  for (int k = 0; k < 2; ++k) {
    for (uint32_t n = 0; n < count; ++n) {
      uint32_t i = list[n];
      float d = lb_near_distance(&c->near[i], pts[k]) - thr[i];
      c->queries++;
      best = d < best ? d : best;
      if (stop && best < 0.0f) {
        return best;
      }
    }
  }
  return best;
}

/* The same for the lead bone at coefficient (x, y), without kinematics. */
static float lb_lead_clearance(lb_chain *c, float x, float y, bool stop) {
  int b = c->active;
  float xx = x * x, xy = x * y, yy = y * y;
  const lb_f4 half = lb_f4_set1(0.5f);
  if (c->near_all) {
    lb_f4 w = lb_quadratic(c->lead_p, c->lead_t, c->lead_s, xx, xy, yy);
    lb_f4 pts[2] = {lb_f4_add(c->p[b], w), lb_f4_add(c->p[b], lb_f4_mul(half, w))};
    return lb_far_clearance(c, b, pts, stop);
  }
  const float *thr = c->thr[b];
  const uint8_t *list = c->bone_near[b];
  uint32_t count = c->bone_near_count[b];
  float best = FLT_MAX;
  lb_f4 w[LB_WRAP_MAX_NEAR];
  for (uint32_t n = 0; n < count; ++n) {
    uint32_t i = list[n];
    const lb_lead_shape *l = &c->lead[i];
    w[n] = lb_quadratic(l->mp, l->mt, l->ms, xx, xy, yy);
    float d = lb_own_distance(&c->near[i], lb_f4_add(l->k, w[n])) - thr[i];
    c->queries++;
    best = d < best ? d : best;
    if (stop && best < 0.0f) {
      return best;
    }
  }
  for (uint32_t n = 0; n < count; ++n) {
    uint32_t i = list[n];
    const lb_lead_shape *l = &c->lead[i];
    float d = lb_own_distance(&c->near[i], lb_f4_add(l->k, lb_f4_mul(half, w[n]))) - thr[i];
    c->queries++;
    best = d < best ? d : best;
    if (stop && best < 0.0f) {
      return best;
    }
  }
  return best;
}

/* Thresholds of bone b from the open hand: the margin, or, per shape, the bone's own starting
 * distance when it starts closer, so that it never gets deeper into that shape while every
 * other shape still keeps the full margin. Returns the bone's clearance (>= 0). */
static float lb_bone_thresholds(lb_chain *c, int b, float margin) {
  lb_f4 e = c->p[b + 1], mid = lb_f4_mul(lb_f4_set1(0.5f), lb_f4_add(c->p[b], e));
  uint32_t count = c->near_all ? c->shape_count : c->bone_near_count[b];
  float dmin = FLT_MAX, clearance = FLT_MAX;
  for (uint32_t n = 0; n < count; ++n) {
    uint32_t i = c->near_all ? n : c->bone_near[b][n];
    float d0 = lb_chain_distance(c, i, e);
    float d1 = lb_chain_distance(c, i, mid);
    c->queries += 2;
    float d = d0 < d1 ? d0 : d1;
    float t = d < margin ? d : margin;
    dmin = d < dmin ? d : dmin;
    clearance = d - t < clearance ? d - t : clearance;
    if (!c->near_all) {
      c->thr[b][i] = t;
    }
  }
  if (c->near_all) {
    /* Too many shapes to keep one threshold each: one for all, from the closest. */
    c->thr[b][0] = dmin < margin ? dmin : margin;
    clearance = dmin - c->thr[b][0];
  }
  return clearance;
}

/* ---- search ---------------------------------------------------------------------------- */

/* Sample speed bounds for the phase that starts now (joints active.. closing). */
static void lb_chain_speeds(lb_chain *c) {
  for (int b = 0; b < c->nb; ++b) {
    float k = 0.0f;
    for (int j = c->active; j <= b; ++j) {
      float reach = 0.0f;
      for (int i = j; i <= b; ++i) {
        reach += c->len[i];
      }
      k += c->angle[j] * reach;
    }
    k *= LB_WRAP_SPEED_SLACK;
    c->inv_speed[b] = k > 0.0f ? 1.0f / k : FLT_MAX;
  }
}

/* A bone's evaluated clearance at s holds its sign for |s' - s| < |clearance| / K: clear
 * (>= 0) or touching (< 0) there without another query. */
static void lb_chain_note(lb_chain *c, int b, float s, float clearance) {
  float r = lb_geom_abs(clearance) * c->inv_speed[b];
  if (clearance >= 0.0f) {
    c->clear_s[b] = s;
    c->clear_r[b] = r;
  } else {
    c->touch_s[b] = s;
    c->touch_r[b] = r;
  }
}

static bool lb_chain_clear_at(const lb_chain *c, int b, float s) {
  return c->clear_r[b] > lb_geom_abs(s - c->clear_s[b]);
}

static bool lb_chain_touch_at(const lb_chain *c, int b, float s) {
  return c->touch_r[b] > lb_geom_abs(s - c->touch_s[b]);
}

/* Whether bone b touches at s, by queries (the lead bone in closed form, the others after the
 * kinematics up to joint b; *done: how far they already run). Out of line: a call in the wasm
 * build sets up the frame the queries need (a stack frame, V8's spills), which the proven
 * signs below, about half the asks, skip. */
LB_F4_NOINLINE bool lb_bone_query(lb_chain *c, int b, float s, int *done) {
  float clearance;
  if (b == c->active) {
    clearance = lb_lead_clearance(c, c->co_ev.x[b], c->co_ev.y[b], true);
  } else {
    if (*done < b) {
      lb_chain_eval(c, *done + 1, b, false);
      *done = b;
    }
    clearance = lb_bone_clearance(c, b, true);
  }
  lb_chain_note(c, b, s, clearance);
  return clearance < 0.0f;
}

/* Whether bone b touches at s: from a proven sign, else by queries. */
static inline bool lb_bone_touches(lb_chain *c, int b, float s, int *done) {
  if (lb_chain_clear_at(c, b, s)) {
    return false;
  }
  if (lb_chain_touch_at(c, b, s)) {
    return true;
  }
  return lb_bone_query(c, b, s, done);
}

/* The touching moving bone at s (coefficients in co_ev), or -1 when all are clear. `first`
 * (if moving) is asked first: near a touch it is the likely one; then the others from the
 * root. */
static int lb_chain_touch(lb_chain *c, float s, int first) {
  int done = c->active - 1; /* kinematics evaluated up to this joint */
  if (first >= c->active && lb_bone_touches(c, first, s, &done)) {
    return first;
  }
  for (int b = c->active; b < c->nb; ++b) {
    if (b != first && lb_bone_touches(c, b, s, &done)) {
      return b;
    }
  }
  return -1;
}

/* One phase: joints active.. close together from their common s (clear) toward 1. Returns
 * the bone that stopped them, or -1 when they reached the pose. Coefficients are computed and
 * copied for all lanes: lanes of joints that no longer close are not read (co_end keeps
 * theirs). */
static int lb_chain_phase(lb_chain *c) {
  float lo = c->s[c->active];
  int k0 = (int)(lo * (float)LB_WRAP_MARCH_STEPS);
  for (int k = k0 + 1; k <= LB_WRAP_MARCH_STEPS; ++k) {
    float s = (float)k * (1.0f / (float)LB_WRAP_MARCH_STEPS);
    if (s <= lo) {
      continue;
    }
    c->co_ev = c->grid[k];
    int hit = lb_chain_touch(c, s, -1);
    if (hit < 0) {
      lo = s;
      c->co_lo = c->co_ev;
      continue;
    }
    float hi = s;
    c->co_hi = c->co_ev;
    /* A whole grid cell halves with the arcs' own factors (no square root on the search's
     * critical path); a shorter first bracket of a later phase normalises each midpoint. */
    bool cell = hi - lo == 1.0f / (float)LB_WRAP_MARCH_STEPS;
    for (int i = 0; i < LB_WRAP_BISECT_STEPS; ++i) {
      float mid = 0.5f * (lo + hi);
      if (cell) {
        lb_co_scaled_sum(&c->co_lo, &c->co_hi, lb_f4_load(c->halve[i]), &c->co_ev);
      } else {
        lb_co_halfway(&c->co_lo, &c->co_hi, &c->co_ev);
      }
      int h = lb_chain_touch(c, mid, hit);
      if (h >= 0) {
        hi = mid;
        hit = h;
        c->co_hi = c->co_ev;
      } else {
        lo = mid;
        c->co_lo = c->co_ev;
      }
    }
    /* Freeze joints active..hit at the clear end; the next phase builds on them. */
    for (int j = c->active; j < c->n; ++j) {
      c->s[j] = lo;
      c->co_end.x[j] = c->co_lo.x[j];
      c->co_end.y[j] = c->co_lo.y[j];
    }
    c->co_ev = c->co_lo;
    lb_chain_eval(c, c->active, hit, true);
    return hit;
  }
  for (int j = c->active; j < c->n; ++j) {
    c->s[j] = 1.0f;
  }
  return -1;
}

/* ---- per finger ------------------------------------------------------------------------ */

static void lb_chain_init(lb_chain *c, const lb_wrap_job *job, const lb_finger_info *fi, int f) {
  c->n = fi->segment_count;
  c->nb = (fi->tip >= 0 || c->n >= 2) ? c->n : 0;
  c->tip = fi->tip;
  c->end_local = fi->tip < 0 && c->n >= 2 && ((job->end_mask >> f) & 1u) ? job->end_local[f] : NULL;
  c->active = 0;
  c->near_count = 0;
  c->near_all = false;
  c->queries = 0;
  c->shapes = job->shapes;
  c->shape_count = job->shape_count;
  for (int k = 0; k < c->n; ++k) {
    c->joint[k] = fi->joints[k];
    c->s[k] = 1.0f;
  }
}

/* Finger frame: the root joint's model position and the offsets between the joints. */
static void lb_chain_frame(lb_chain *c, const lb_wrap_job *job) {
  const lb_transform *base = &job->model[job->parents[c->joint[0]]];
  memcpy(c->base_r, base->r, sizeof(versor));
  c->base = job->parents[c->joint[0]];
  const lb_transform *l0 = &job->local[c->joint[0]];
  vec3 scale = {base->s[0], base->s[1], base->s[2]};
  vec3 st = {scale[0] * l0->t[0], scale[1] * l0->t[1], scale[2] * l0->t[2]};
  lb_qrot_add(base->r, st, base->t, c->root);
  c->p[0] = lb_f4_set1(0.0f);
  for (int k = 1; k <= c->n; ++k) {
    const lb_transform *prev = &job->local[c->joint[k - 1]];
    for (int a = 0; a < 3; ++a) {
      scale[a] *= prev->s[a];
    }
    /* Without an end joint, the last bone ends at the given estimate, else repeats the
     * previous bone's offset one joint on. */
    const float *t = k < c->n       ? job->local[c->joint[k]].t
                     : c->tip >= 0  ? job->local[c->tip].t
                     : c->end_local ? c->end_local
                                    : prev->t;
    for (int a = 0; a < 3; ++a) {
      c->u[k][a] = scale[a] * t[a];
    }
  }
}

/* Copies n floats; src may be dst (out_local may alias local or pose_local). */
static void lb_copy_floats(float *dst, const float *src, int n) {
  for (int i = 0; i < n; ++i) {
    dst[i] = src[i];
  }
}

static void lb_write_finger(const lb_chain *c, lb_wrap_job *job) {
  for (int k = 0; k < c->n; ++k) {
    int j = c->joint[k];
    lb_transform *o = &job->out_local[j];
    lb_copy_floats(o->t, job->local[j].t, 3);
    lb_copy_floats(o->s, job->local[j].s, 3);
    if (c->s[k] >= 1.0f) {
      lb_copy_floats(o->r, job->pose_local[j].r, 4);
    } else if (c->s[k] <= 0.0f) {
      lb_copy_floats(o->r, job->open_local[j].r, 4);
    } else {
      lb_f4_store(o->r, lb_arc_rotation(&c->arc[k], c->co_end.x[k], c->co_end.y[k]));
    }
  }
}

/* Shapes within reach of the root (distance is 1-Lipschitz, samples lie within the summed
 * bone lengths of the fixed root joint), moved into the finger frame; per bone, the ones
 * within its own reach (the lengths up to its end). */
static void lb_chain_near(lb_chain *c, const lb_wrap_job *job) {
  float reach[LB_WRAP_SEGS], total = 0.0f;
  for (int b = 0; b < c->nb; ++b) {
    const float *u = c->u[b + 1];
    c->len[b] = lb_geom_sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    total += c->len[b];
    reach[b] = total;
  }
  float limit = job->margin + LB_WRAP_REACH_SLACK;
  for (uint32_t i = 0; i < c->shape_count; ++i) {
    float d = lb_shape_distance(&c->shapes[i], c->root);
    c->queries++;
    if (d - total < limit) {
      if (c->near_count < LB_WRAP_MAX_NEAR) {
        lb_near_prepare(c, i, &c->near[c->near_count]);
        c->near_root[c->near_count] = d;
      } else {
        c->near_all = true;
      }
      c->near_count++;
    }
  }
  if (c->near_all) {
    return;
  }
  for (int b = 0; b < c->nb; ++b) {
    c->bone_near_count[b] = 0;
    for (uint32_t i = 0; i < c->near_count; ++i) {
      if (c->near_root[i] - reach[b] < limit) {
        c->bone_near[b][c->bone_near_count[b]++] = (uint8_t)i;
      }
    }
  }
}

static void lb_wrap_finger_run(lb_chain *c, const lb_wrap_job *job, bool wrap,
                               lb_wrap_finger *out) {
  if (!wrap || c->nb == 0 || c->shape_count == 0) {
    return;
  }
  lb_chain_frame(c, job);
  lb_chain_near(c, job);
  if (c->near_count == 0) {
    return;
  }
  out->searched = true;
  lb_arcs_init(c, job);
  for (int k = 0; k < c->n; ++k) {
    lb_arc_bone(&c->arc[k], c->u[k + 1]);
    c->s[k] = 0.0f;
    c->co_lo.x[k] = c->co_ev.x[k] = 1.0f;
    c->co_lo.y[k] = c->co_ev.y[k] = 0.0f;
  }
  /* Open hand: thresholds, and clearances that usually cover the first march steps. */
  lb_chain_lead(c);
  lb_chain_eval(c, 0, c->n - 1, false);
  lb_chain_speeds(c);
  for (int b = 0; b < c->nb; ++b) {
    lb_chain_note(c, b, 0.0f, lb_bone_thresholds(c, b, job->margin));
    c->touch_s[b] = 0.0f; /* read (never used) by the range test below, as is touch_r */
    c->touch_r[b] = -1.0f;
  }
  for (;;) {
    int hit = lb_chain_phase(c);
    if (hit < 0) {
      break;
    }
    out->contact = true;
    if (out->first_bone < 0) {
      out->first_bone = (int8_t)hit;
    }
    float lo = c->s[hit];
    c->active = hit + 1;
    if (c->active >= c->n) {
      break;
    }
    /* A sign proven around s_e still holds in the next phase while the frozen joints' s
     * (lo) stays within its range too: each joint then moved less than the bound. */
    for (int b = c->active; b < c->nb; ++b) {
      if (!lb_chain_clear_at(c, b, lo)) {
        c->clear_r[b] = -1.0f;
      }
      if (!lb_chain_touch_at(c, b, lo)) {
        c->touch_r[b] = -1.0f;
      }
    }
    lb_chain_speeds(c);
    lb_chain_lead(c);
  }
}

/* The job's outputs before a run, whatever its validation answers. */
static void lb_wrap_reset_outputs(lb_wrap_job *job) {
  if (job) {
    job->queries = 0;
    for (int f = 0; f < LB_FINGER_COUNT; ++f) {
      memset(&job->fingers[f], 0, sizeof job->fingers[f]);
      job->fingers[f].first_bone = -1;
    }
  }
}

static void lb_wrap_solve(lb_wrap_job *job);

lb_result lb_wrap_job_run(lb_wrap_job *job) {
  lb_result r = lb_wrap_job_validate(job);
  lb_wrap_reset_outputs(job);
  if (r == LB_OK) {
    lb_wrap_solve(job);
  }
  return r;
}

lb_result lb_wrap_job_run_posed(lb_wrap_job *job) {
  lb_result r = lb_wrap_check_layout(job);
  lb_wrap_reset_outputs(job);
  if (r == LB_OK) {
    lb_wrap_solve(job);
  }
  return r;
}

/* Every found finger in turn (the job is valid). */
static void lb_wrap_solve(lb_wrap_job *job) {
  lb_chain c;
  c.frame_base = -1;
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    const lb_finger_info *fi = &job->hand->fingers[f];
    if (!fi->found) {
      continue;
    }
    lb_chain_init(&c, job, fi, f);
    lb_wrap_finger *out = &job->fingers[f];
    lb_wrap_finger_run(&c, job, (job->finger_mask >> f) & 1u, out);
    lb_write_finger(&c, job);
    for (int k = 0; k < c.n; ++k) {
      out->closing[k] = c.s[k];
    }
    out->queries = c.queries;
    job->queries += c.queries;
  }
}
