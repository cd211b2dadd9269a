/* Finger wrap: close each finger from open toward its pose until its bones meet the grip
 * surfaces (limber/grip_wrap.h has the behaviour; this file the why of the how). */
#include "limber/grip_wrap.h"
#include "limber/rig.h"

#include <float.h>
#include <string.h>

/* Shapes kept per finger after the reach test; more near one finger falls back to all. */
#define LB_WRAP_MAX_NEAR 16
/* The speed bound is exact for slerp; nlerp (used below 3.6° of arc) runs at most
 * 2 tan(φ/2) / φ ≈ 1.0001 times faster. 1 % more covers it and the float rounding. */
#define LB_WRAP_SPEED_SLACK 1.01f
/* Reach test slack for rounding in the bone lengths, metres. */
#define LB_WRAP_REACH_SLACK 1e-5f

/* slerp(a, b, s) as a turn within the plane of a and b: q(s) = cos(sθ) a + sin(sθ) c, with c
 * the unit direction of b orthogonal to a. The per-pair work (dot, c, θ) is done once and
 * each point costs one lb_sincos instead of lb_quat_slerp's acos and two sines; the path is
 * the same (shorter arc), the values agree with lb_quat_slerp to float rounding. */
typedef struct lb_arc {
  versor a, b; /* the inputs, returned exactly at s <= 0 and s >= 1 */
  versor qa;   /* unit start */
  versor qc;   /* unit, orthogonal to qa (nlerp: the sign-aligned unit end) */
  float theta; /* half the rotation angle from a to b */
  bool nlerp;  /* below 3.6° of arc, as lb_quat_slerp: plain normalised lerp */
  float angle; /* rotation angle from a to b, radians: bounds the joint's turn per unit s */
} lb_arc;

typedef struct lb_chain {
  int n;  /* segment joints */
  int nb; /* bones: n, or 0 for one segment without an end joint */
  int16_t joint[LB_FINGER_MAX_SEGMENTS];
  vec3 lt[LB_FINGER_MAX_SEGMENTS], ls[LB_FINGER_MAX_SEGMENTS];
  vec3 end_t; /* the last bone's end in the last joint's frame */
  lb_arc arc[LB_FINGER_MAX_SEGMENTS];
  lb_transform base; /* model transform of the root's parent: fixed */
  /* search state */
  int active;                                   /* first joint still closing */
  float s[LB_FINGER_MAX_SEGMENTS];              /* closing per joint */
  lb_transform m[LB_FINGER_MAX_SEGMENTS];       /* model transforms at the last evaluation */
  lb_transform clear_m[LB_FINGER_MAX_SEGMENTS]; /* ... at the last all-clear evaluation, */
  float clear_eval_s;                           /* at this s (-1: none) */
  int clear_upto;                               /* for joints active..clear_upto */
  vec3 p[LB_FINGER_MAX_SEGMENTS + 1];           /* joint positions, p[nb] = last bone's end */
  float len[LB_FINGER_MAX_SEGMENTS];            /* bone lengths (rigid) */
  /* Touch thresholds per bone and shape in reach (near_all: one per bone, thr[b][0]). */
  float thr[LB_FINGER_MAX_SEGMENTS][LB_WRAP_MAX_NEAR];
  float speed[LB_FINGER_MAX_SEGMENTS];   /* K: sample speed bound per unit s, this phase */
  float clear_s[LB_FINGER_MAX_SEGMENTS]; /* s of the bone's last clearance ... */
  float clear_r[LB_FINGER_MAX_SEGMENTS]; /* ... and the |Δs| it holds for (< 0: none) */
  /* shapes within reach */
  const lb_shape *shapes;
  uint32_t shape_count;
  uint32_t near[LB_WRAP_MAX_NEAR];
  uint32_t near_count;
  bool near_all;
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

static bool lb_finite_n(const float *v, int n) {
  for (int i = 0; i < n; ++i) {
    if (!lb_is_finite(v[i])) {
      return false;
    }
  }
  return true;
}

static bool lb_in_range(const lb_wrap_job *job, int j) {
  return j >= 0 && j < (int)job->joint_count;
}

/* Chain shape and indices of one found finger; used joints appended to `used`. */
static lb_result lb_check_finger(const lb_wrap_job *job, const lb_finger_info *fi, int16_t *used,
                                 int *used_count) {
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
    used[(*used_count)++] = (int16_t)j;
  }
  if (fi->tip != -1) {
    if (!lb_in_range(job, fi->tip) || job->parents[fi->tip] != fi->joints[n - 1]) {
      return LB_ERR_INVALID_ARGUMENT;
    }
    used[(*used_count)++] = fi->tip;
  }
  return LB_OK;
}

static lb_result lb_check_values(const lb_wrap_job *job, const lb_finger_info *fi) {
  const lb_transform *base = &job->model[job->parents[fi->joints[0]]];
  if (!lb_finite_n(base->t, 3) || !lb_finite_n(base->r, 4) || !lb_finite_n(base->s, 3)) {
    return LB_ERR_NOT_FINITE;
  }
  for (int k = 0; k <= fi->segment_count; ++k) {
    int j = k < fi->segment_count ? fi->joints[k] : fi->tip;
    if (j < 0) {
      continue;
    }
    if (!lb_finite_n(job->local[j].t, 3) || !lb_finite_n(job->local[j].s, 3)) {
      return LB_ERR_NOT_FINITE;
    }
    if (k == fi->segment_count) {
      continue; /* the end joint is a point: its rotation is not used */
    }
    const float *q[2] = {job->open_local[j].r, job->pose_local[j].r};
    for (int i = 0; i < 2; ++i) {
      if (!lb_finite_n(q[i], 4)) {
        return LB_ERR_NOT_FINITE;
      }
      if (!(q[i][0] * q[i][0] + q[i][1] * q[i][1] + q[i][2] * q[i][2] + q[i][3] * q[i][3] >
            1e-12f)) {
        return LB_ERR_OUT_OF_RANGE;
      }
    }
  }
  return LB_OK;
}

lb_result lb_wrap_validate(const lb_wrap_job *job) {
  if (!job || !job->hand || !job->parents || !job->local || !job->open_local || !job->pose_local ||
      !job->model || !job->out_local || (job->shape_count > 0 && !job->shapes) ||
      (job->finger_mask & ~LB_WRAP_ALL_FINGERS) != 0) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (job->joint_count < 1 || job->joint_count > LB_MAX_JOINTS) {
    return LB_ERR_OUT_OF_RANGE;
  }
  if (!lb_is_finite(job->margin)) {
    return LB_ERR_NOT_FINITE;
  }
  if (job->margin < 0.0f) {
    return LB_ERR_OUT_OF_RANGE;
  }
  int16_t used[LB_FINGER_COUNT * (LB_FINGER_MAX_SEGMENTS + 1)];
  int used_count = 0;
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    const lb_finger_info *fi = &job->hand->fingers[f];
    if (!fi->found) {
      continue;
    }
    lb_result r = lb_check_finger(job, fi, used, &used_count);
    if (r == LB_OK) {
      r = lb_check_values(job, fi);
    }
    if (r != LB_OK) {
      return r;
    }
  }
  /* Fingers are solved and written one after another: a shared joint would be read after
   * another finger wrote it. */
  for (int a = 0; a < used_count; ++a) {
    for (int b = a + 1; b < used_count; ++b) {
      if (used[a] == used[b]) {
        return LB_ERR_INVALID_ARGUMENT;
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

/* ---- slerp arcs ------------------------------------------------------------------------ */

static float lb_dot4(const versor a, const versor b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}

static void lb_unit_copy(const versor q, versor out) {
  memcpy(out, q, sizeof(versor));
  float n2 = lb_dot4(q, q);
  if (n2 < 1.0f - 1e-5f || n2 > 1.0f + 1e-5f) {
    lb_quat_normalize(out);
  }
}

static void lb_arc_init(lb_arc *arc, const versor a, const versor b) {
  memcpy(arc->a, a, sizeof(versor));
  memcpy(arc->b, b, sizeof(versor));
  versor qb;
  lb_unit_copy(a, arc->qa);
  lb_unit_copy(b, qb);
  float d = lb_dot4(arc->qa, qb);
  if (d < 0.0f) {
    d = -d;
    for (int i = 0; i < 4; ++i) {
      qb[i] = -qb[i];
    }
  }
  versor c;
  for (int i = 0; i < 4; ++i) {
    c[i] = qb[i] - arc->qa[i] * d;
  }
  float len = lb_sqrt(lb_dot4(c, c));
  /* atan2 keeps small angles accurate where acos(d) would not. */
  arc->theta = lb_atan2(len, d);
  arc->angle = 2.0f * arc->theta;
  arc->nlerp = d > 0.9995f || !(len > 0.0f);
  for (int i = 0; i < 4; ++i) {
    arc->qc[i] = arc->nlerp ? qb[i] : c[i] / len;
  }
}

static void lb_arc_at(const lb_arc *arc, float s, versor out) {
  if (s <= 0.0f || s >= 1.0f) {
    memcpy(out, s <= 0.0f ? arc->a : arc->b, sizeof(versor));
    return;
  }
  float wa, wc;
  if (arc->nlerp) {
    wa = 1.0f - s;
    wc = s;
  } else {
    lb_sincos(s * arc->theta, &wc, &wa);
  }
  for (int i = 0; i < 4; ++i) {
    out[i] = arc->qa[i] * wa + arc->qc[i] * wc;
  }
  /* cos·a + sin·c of orthonormal a, c is unit up to rounding; the lerp is not. */
  if (arc->nlerp) {
    lb_quat_normalize(out);
  }
}

/* ---- kinematics and queries ------------------------------------------------------------ */

/* Model transforms of joints active..upto with every closing joint at s, and the positions
 * bones active..upto need (up to the end of bone upto). Later joints are not touched: bones
 * proven clear need no kinematics at all. */
static void lb_chain_eval(lb_chain *c, float s, int upto) {
  const lb_transform *prev = c->active > 0 ? &c->m[c->active - 1] : &c->base;
  for (int k = c->active; k <= upto; ++k) {
    lb_transform local;
    memcpy(local.t, c->lt[k], sizeof(vec3));
    memcpy(local.s, c->ls[k], sizeof(vec3));
    lb_arc_at(&c->arc[k], s, local.r);
    lb_transform_mul(prev, &local, &c->m[k]);
    memcpy(c->p[k], c->m[k].t, sizeof(vec3));
    prev = &c->m[k];
  }
  /* The next joint's position is the translation part of its transform: same arithmetic. */
  lb_transform_point(prev, upto + 1 < c->n ? c->lt[upto + 1] : c->end_t, c->p[upto + 1]);
}

/* The bone's sample points: its end, then its midpoint. */
static void lb_bone_samples(const lb_chain *c, int b, vec3 pts[2]) {
  memcpy(pts[0], c->p[b + 1], sizeof(vec3));
  for (int a = 0; a < 3; ++a) {
    pts[1][a] = 0.5f * (c->p[b][a] + c->p[b + 1][a]);
  }
}

static uint32_t lb_near_count(const lb_chain *c) {
  return c->near_all ? c->shape_count : c->near_count;
}

static const lb_shape *lb_near_shape(const lb_chain *c, uint32_t i) {
  return &c->shapes[c->near_all ? i : c->near[i]];
}

/* Smallest (distance - threshold) over the bone's samples and the shapes in reach; with
 * `stop`, returns as soon as one is negative (a touch), without the full minimum. */
static float lb_bone_clearance(lb_chain *c, int b, bool stop) {
  vec3 pts[2];
  lb_bone_samples(c, b, pts);
  uint32_t count = lb_near_count(c);
  float best = FLT_MAX;
  for (int k = 0; k < 2; ++k) {
    for (uint32_t i = 0; i < count; ++i) {
      float d = lb_shape_distance(lb_near_shape(c, i), pts[k]) - c->thr[b][c->near_all ? 0 : i];
      c->queries++;
      if (d < best) {
        best = d;
        if (stop && best < 0.0f) {
          return best;
        }
      }
    }
  }
  return best;
}

/* Thresholds of bone b from the open hand: the margin, or, per shape, the bone's own starting
 * distance when it starts closer, so that it never gets deeper into that shape while every
 * other shape still keeps the full margin. Returns the bone's clearance (>= 0). */
static float lb_bone_thresholds(lb_chain *c, int b, float margin) {
  vec3 pts[2];
  lb_bone_samples(c, b, pts);
  uint32_t count = lb_near_count(c);
  float dmin = FLT_MAX, clearance = FLT_MAX;
  for (uint32_t i = 0; i < count; ++i) {
    float d0 = lb_shape_distance(lb_near_shape(c, i), pts[0]);
    float d1 = lb_shape_distance(lb_near_shape(c, i), pts[1]);
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

/* Sample speed bounds for the phase that starts now (joints active.. closing). */
static void lb_chain_speeds(lb_chain *c) {
  for (int b = 0; b < c->nb; ++b) {
    float k = 0.0f;
    for (int j = c->active; j <= b; ++j) {
      float reach = 0.0f;
      for (int i = j; i <= b; ++i) {
        reach += c->len[i];
      }
      k += c->arc[j].angle * reach;
    }
    c->speed[b] = k * LB_WRAP_SPEED_SLACK;
  }
}

static void lb_chain_note_clearance(lb_chain *c, int b, float s, float clearance) {
  c->clear_s[b] = s;
  c->clear_r[b] = c->speed[b] > 0.0f ? clearance / c->speed[b] : FLT_MAX;
}

static float lb_absf(float x) {
  return x < 0.0f ? -x : x;
}

static bool lb_chain_covered(const lb_chain *c, int b, float s) {
  return c->clear_r[b] > lb_absf(s - c->clear_s[b]);
}

/* Evaluates the chain at s and returns a touching moving bone, or -1 when all are clear.
 * Bones whose proven clearance covers s are skipped, and the kinematics stop at the last
 * bone still to test. `first` (if moving) is tested first: near a touch it is the likely
 * one, so a touching step usually costs one bone. */
static int lb_chain_touch(lb_chain *c, float s, int first) {
  int upto = -1;
  for (int b = c->active; b < c->nb; ++b) {
    if (!lb_chain_covered(c, b, s)) {
      upto = b;
    }
  }
  if (upto < 0) {
    return -1;
  }
  lb_chain_eval(c, s, upto);
  for (int i = -1; i <= upto; ++i) {
    int b = i < 0 ? first : i;
    if (b < c->active || b > upto || (i >= 0 && b == first) || lb_chain_covered(c, b, s)) {
      continue;
    }
    float clearance = lb_bone_clearance(c, b, true);
    if (clearance < 0.0f) {
      return b;
    }
    lb_chain_note_clearance(c, b, s, clearance);
  }
  /* Kept for the freeze: joints stop at the last clear s, often this one. */
  c->clear_eval_s = s;
  c->clear_upto = upto;
  memcpy(c->clear_m, c->m, sizeof c->m);
  return -1;
}

/* One phase: joints active.. close together from their common s (clear) toward 1. Returns
 * the bone that stopped them, or -1 when they reached the pose. */
static int lb_chain_phase(lb_chain *c) {
  float lo = c->s[c->active];
  int k0 = (int)(lo * (float)LB_WRAP_MARCH_STEPS);
  for (int k = k0 + 1; k <= LB_WRAP_MARCH_STEPS; ++k) {
    float s = (float)k / (float)LB_WRAP_MARCH_STEPS;
    if (s <= lo) {
      continue;
    }
    int hit = lb_chain_touch(c, s, -1);
    if (hit < 0) {
      lo = s;
      continue;
    }
    float hi = s;
    for (int i = 0; i < LB_WRAP_BISECT_STEPS; ++i) {
      float mid = 0.5f * (lo + hi);
      int h = lb_chain_touch(c, mid, hit);
      if (h >= 0) {
        hi = mid;
        hit = h;
      } else {
        lo = mid;
      }
    }
    for (int j = c->active; j < c->n; ++j) {
      c->s[j] = lo;
    }
    /* The transforms at the clear end: the next phase builds on joint hit's. */
    if (c->clear_eval_s == lo && c->clear_upto >= hit) {
      memcpy(c->m, c->clear_m, sizeof c->m);
    } else {
      lb_chain_eval(c, lo, hit);
    }
    return hit;
  }
  for (int j = c->active; j < c->n; ++j) {
    c->s[j] = 1.0f;
  }
  return -1;
}

/* ---- per finger ------------------------------------------------------------------------ */

static void lb_chain_init(lb_chain *c, const lb_wrap_job *job, const lb_finger_info *fi) {
  memset(c, 0, sizeof *c);
  c->n = fi->segment_count;
  c->nb = (fi->tip >= 0 || c->n >= 2) ? c->n : 0;
  c->base = job->model[job->parents[fi->joints[0]]];
  for (int k = 0; k < c->n; ++k) {
    int j = fi->joints[k];
    c->joint[k] = (int16_t)j;
    memcpy(c->lt[k], job->local[j].t, sizeof(vec3));
    memcpy(c->ls[k], job->local[j].s, sizeof(vec3));
    lb_arc_init(&c->arc[k], job->open_local[j].r, job->pose_local[j].r);
  }
  /* Without an end joint, the last bone repeats the previous bone's offset one joint on. */
  memcpy(c->end_t, fi->tip >= 0 ? job->local[fi->tip].t : c->lt[c->n - 1], sizeof(vec3));
  c->shapes = job->shapes;
  c->shape_count = job->shape_count;
  c->clear_eval_s = -1.0f;
}

static void lb_write_finger(const lb_chain *c, lb_wrap_job *job) {
  for (int k = 0; k < c->n; ++k) {
    lb_transform *o = &job->out_local[c->joint[k]];
    memcpy(o->t, c->lt[k], sizeof(vec3));
    memcpy(o->s, c->ls[k], sizeof(vec3));
    lb_arc_at(&c->arc[k], c->s[k], o->r);
  }
}

static void lb_wrap_finger_run(lb_chain *c, const lb_wrap_job *job, bool wrap,
                               lb_wrap_finger *out) {
  for (int k = 0; k < c->n; ++k) {
    c->s[k] = 1.0f;
  }
  if (!wrap || c->nb == 0 || c->shape_count == 0) {
    return;
  }
  /* Open hand: positions, bone lengths and the finger's reach. */
  for (int k = 0; k < c->n; ++k) {
    c->s[k] = 0.0f;
  }
  lb_chain_eval(c, 0.0f, c->n - 1);
  float reach = 0.0f;
  for (int b = 0; b < c->nb; ++b) {
    vec3 d = {c->p[b + 1][0] - c->p[b][0], c->p[b + 1][1] - c->p[b][1],
              c->p[b + 1][2] - c->p[b][2]};
    c->len[b] = lb_vec3_length(d);
    reach += c->len[b];
  }
  /* Shapes within reach of the root (distance is 1-Lipschitz, samples lie within `reach`
   * of the fixed root joint). */
  for (uint32_t i = 0; i < c->shape_count; ++i) {
    float d = lb_shape_distance(&c->shapes[i], c->p[0]);
    c->queries++;
    if (d - reach < job->margin + LB_WRAP_REACH_SLACK) {
      if (c->near_count < LB_WRAP_MAX_NEAR) {
        c->near[c->near_count] = i;
      } else {
        c->near_all = true;
      }
      c->near_count++;
    }
  }
  if (c->near_count == 0) {
    for (int k = 0; k < c->n; ++k) {
      c->s[k] = 1.0f;
    }
    return;
  }
  out->searched = true;
  c->active = 0;
  lb_chain_speeds(c);
  for (int b = 0; b < c->nb; ++b) {
    lb_chain_note_clearance(c, b, 0.0f, lb_bone_thresholds(c, b, job->margin));
  }
  c->clear_eval_s = 0.0f; /* the open hand is clear by construction */
  c->clear_upto = c->n - 1;
  memcpy(c->clear_m, c->m, sizeof c->m);
  while (c->active < c->n) {
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
    /* A clearance proven around s_e still holds in the next phase while the frozen joints'
     * s (lo) stays within its range too: each joint then moved less than the bound. */
    for (int b = c->active; b < c->nb; ++b) {
      if (!(c->clear_r[b] > lb_absf(lo - c->clear_s[b]))) {
        c->clear_r[b] = -1.0f;
      }
    }
    lb_chain_speeds(c);
  }
}

lb_result lb_wrap_run(lb_wrap_job *job) {
  lb_result r = lb_wrap_validate(job);
  if (job) {
    job->queries = 0;
    for (int f = 0; f < LB_FINGER_COUNT; ++f) {
      memset(&job->fingers[f], 0, sizeof job->fingers[f]);
      job->fingers[f].first_bone = -1;
    }
  }
  if (r != LB_OK) {
    return r;
  }
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    const lb_finger_info *fi = &job->hand->fingers[f];
    if (!fi->found) {
      continue;
    }
    lb_chain c;
    lb_chain_init(&c, job, fi);
    lb_wrap_finger *out = &job->fingers[f];
    lb_wrap_finger_run(&c, job, (job->finger_mask >> f) & 1u, out);
    lb_write_finger(&c, job);
    for (int k = 0; k < c.n; ++k) {
      out->closing[k] = c.s[k];
    }
    out->queries = c.queries;
    job->queries += c.queries;
  }
  return LB_OK;
}
