/* Thumb reach: the thumb tip goes toward a point on the palm side of the other fingers'
 * posed positions (see limber/grip_pose.h). An aim at the thumb root plus one bend shared
 * by the distal joints.
 *
 * The shared bend is found on the rest chain in model space: bending the joints by b
 * turns the part below joint 1 about its hinge A1 and the part below joint 2 about A2, so
 *   tip(b) - J0 = c + R(A1, b) (u + R(A2, b) w)   (c, u, w: rest bone vectors)
 * with R by Rodrigues from (cos b, sin b). The angle is bisected on the unit circle
 * (the half angle of two rotations about one axis is their normalised sum), so no sine
 * is evaluated per step; a fixed number of steps and one interpolation finish it. The
 * work never depends on the input beyond those fixed counts. */
#include "../math/simd4_xf.h"
#include "../math/vec3_inline.h"
#include "finger_pose_internal.h"

#include <string.h>

#define LB_THUMB_BISECT_STEPS 12

typedef struct lb_thumb_chain {
  const lb_hand_rig_finger *rf;
  const lb_transform *local;
  lb_transform parent; /* model transform of the thumb root's parent */
} lb_thumb_chain;

/* Poses the chain with root rotation r0 and distal rotations rd[1..]; fills the joint
 * positions and the tip. */
static void lb_thumb_fk(const lb_thumb_chain *c, versor rot[LB_FINGER_MAX_SEGMENTS],
                        vec3 pos[LB_FINGER_MAX_SEGMENTS + 1], lb_transform *frames) {
  const lb_hand_rig_finger *rf = c->rf;
  lb_transform m = c->parent;
  for (int s = 0; s < rf->segment_count; ++s) {
    lb_pose_joint(&m, &c->local[rf->joints[s]], rot[s], &m);
    memcpy(pos[s], m.t, sizeof(vec3));
    if (frames) {
      frames[s] = m;
    }
  }
  if (rf->tip >= 0) {
    lb_xf_point(&m, c->local[rf->tip].t, pos[LB_FINGER_MAX_SEGMENTS]);
  } else if (rf->tip_estimated) {
    lb_xf_point(&m, rf->tip_local, pos[LB_FINGER_MAX_SEGMENTS]);
  } else {
    memcpy(pos[LB_FINGER_MAX_SEGMENTS], m.t, sizeof(vec3));
  }
}

static float lb_dist3(const float *a, const float *b) {
  vec3 d = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  return lb_vec3_length(d);
}

/* v turned about unit axis a by the angle whose cosine and sine are (c, s): per lane
 * v c + (a x v) s + a d, d = (a . v)(1 - c), the dot summed x, y, z in order. */
static lb_f4 lb_rodrigues(lb_f4 a, float c, float s, lb_f4 v) {
  float av[4];
  lb_f4_store(av, lb_f4_mul(a, v));
  float d = (av[0] + av[1] + av[2]) * (1.0f - c);
  lb_f4 r = lb_f4_add(lb_f4_mul(v, lb_f4_set1(c)), lb_f4_mul(lb_f4_cross(a, v), lb_f4_set1(s)));
  return lb_f4_add(r, lb_f4_mul(a, lb_f4_set1(d)));
}

/* The rest chain as vectors (x, y, z lanes): tip - J0 = c + R1 (u + R2 w). */
typedef struct lb_bend_model {
  lb_f4 c, u, w, a1, a2;
  bool two; /* a second distal joint bends */
} lb_bend_model;

static float lb_bend_dist(const lb_bend_model *m, float c, float s) {
  lb_f4 v = m->two ? lb_f4_add(lb_rodrigues(m->a2, c, s, m->w), m->u) : m->u;
  float t[4];
  lb_f4_store(t, lb_f4_add(lb_rodrigues(m->a1, c, s, v), m->c));
  return lb_vec3_length(t);
}

static void lb_unit2(float *c, float *s) {
  float n = lb_sqrt(*c * *c + *s * *s);
  *c /= n;
  *s /= n;
}

/* Cosine and sine of the shared bend that makes |tip - J0| = want. */
static void lb_solve_bend(const lb_bend_model *m, float want, float *out_c, float *out_s) {
  /* b in [0, LB_GRIP_THUMB_BEND_MAX_DEG = 90]: cos/sin of the ends are exact. */
  float lc = 1.0f, ls = 0.0f, hc = 0.0f, hs = 1.0f;
  float dl = lb_bend_dist(m, lc, ls), dh = lb_bend_dist(m, hc, hs);
  if (want >= dl || !(dl > dh)) {
    *out_c = lc;
    *out_s = ls;
    return;
  }
  if (want <= dh) {
    *out_c = hc;
    *out_s = hs;
    return;
  }
  for (int i = 0; i < LB_THUMB_BISECT_STEPS; ++i) {
    float mc = lc + hc, ms = ls + hs;
    lb_unit2(&mc, &ms);
    float dm = lb_bend_dist(m, mc, ms);
    if (dm > want) {
      lc = mc;
      ls = ms;
      dl = dm;
    } else {
      hc = mc;
      hs = ms;
      dh = dm;
    }
  }
  /* The last arc is 90/4096 degrees: the distance is linear on it to ~1e-9 m. */
  float t = dl > dh ? (dl - want) / (dl - dh) : 0.0f;
  t = lb_clamp(t, 0.0f, 1.0f);
  float c = lc * (1.0f - t) + hc * t, s = ls * (1.0f - t) + hs * t;
  lb_unit2(&c, &s);
  *out_c = c;
  *out_s = s;
}

/* r = rotation about `axis` by the angle (cos c, sin s), b in [0, 90 deg], times rest. */
static void lb_bend_rest(const vec3 axis, float c, float s, const versor rest, versor r) {
  if (s == 0.0f) {
    memcpy(r, rest, sizeof(versor));
    return;
  }
  float ch = lb_sqrt(0.5f * (1.0f + c)); /* cos(b/2) >= 0.7 here */
  float sh = s / (2.0f * ch);
  versor q = {axis[0] * sh, axis[1] * sh, axis[2] * sh, ch};
  lb_qmul(q, rest, r);
  lb_qnormalize(r);
}

static void lb_write(lb_finger_pose_job *job, const versor rot[LB_FINGER_MAX_SEGMENTS],
                     vec3 pos[LB_FINGER_MAX_SEGMENTS + 1]) {
  const lb_hand_rig_finger *rf = &job->rig->fingers[LB_FINGER_THUMB];
  for (int s = 0; s < rf->segment_count; ++s) {
    memcpy(job->out_local[rf->joints[s]].r, rot[s], sizeof(versor));
    memcpy(job->positions[LB_FINGER_THUMB][s], pos[s], sizeof(vec3));
  }
  memcpy(job->positions[LB_FINGER_THUMB][LB_FINGER_MAX_SEGMENTS], pos[LB_FINGER_MAX_SEGMENTS],
         sizeof(vec3));
}

/* The thumb tip's target: from the rest tip toward the target finger's point (its tip, or its
 * second joint for LB_THUMB_TO_FINGERS), lifted by gap along palm +Y, by opposition. */
static void lb_thumb_goal(const lb_finger_pose_job *job, lb_finger target_finger,
                          const float *rest_tip, vec3 target) {
  const lb_grip_thumb_def *th = &job->pose->thumb;
  const lb_hand_rig_finger *tf = &job->rig->fingers[target_finger];
  int k = LB_FINGER_MAX_SEGMENTS; /* the tip */
  if (th->to == LB_THUMB_TO_FINGERS && tf->segment_count >= 2) {
    k = 1;
  }
  const float *ref = job->positions[target_finger][k];
  vec3 y;
  vec3 unit_y = {0.0f, 1.0f, 0.0f};
  lb_quat_rotate(job->palm.r, unit_y, y);
  float lift = th->gap * job->index_length;
  for (int a = 0; a < 3; ++a) {
    float goal = ref[a] + lift * y[a];
    target[a] = rest_tip[a] + th->opposition * (goal - rest_tip[a]);
  }
}

/* Distance first (the root's rotation does not change it): the bend of the joints after the
 * root that puts the tip at the target's distance from the root; positions recomputed. */
static void lb_thumb_bend(const lb_thumb_chain *ch, const vec3 target,
                          versor rot[LB_FINGER_MAX_SEGMENTS], vec3 pos[LB_FINGER_MAX_SEGMENTS + 1],
                          const lb_transform frames[LB_FINGER_MAX_SEGMENTS]) {
  const lb_hand_rig_finger *rf = ch->rf;
  int n = rf->segment_count;
  lb_bend_model m;
  const float *tip = pos[LB_FINGER_MAX_SEGMENTS];
  m.two = n >= 3 && (rf->tip >= 0 || rf->tip_estimated || n > 3);
  vec3 v0, u, w, a1, a2;
  lb_vec3_sub(pos[1], pos[0], v0);
  lb_vec3_sub(m.two ? pos[2] : tip, pos[1], u);
  lb_vec3_sub(tip, m.two ? pos[2] : tip, w);
  lb_quat_rotate(frames[0].r, rf->bend_axis[1], a1);
  lb_quat_rotate(frames[1].r, rf->bend_axis[2 < n ? 2 : 1], a2);
  lb_vec3_normalize_to(a1, a1);
  lb_vec3_normalize_to(a2, a2);
  m.c = lb_f4_set(v0[0], v0[1], v0[2], 0.0f);
  m.u = lb_f4_set(u[0], u[1], u[2], 0.0f);
  m.w = lb_f4_set(w[0], w[1], w[2], 0.0f);
  m.a1 = lb_f4_set(a1[0], a1[1], a1[2], 0.0f);
  m.a2 = lb_f4_set(a2[0], a2[1], a2[2], 0.0f);
  float c, s;
  lb_solve_bend(&m, lb_dist3(target, pos[0]), &c, &s);
  for (int j = 1; j < n; ++j) {
    lb_bend_rest(rf->bend_axis[j], c, s, rf->rest[j], rot[j]);
  }
  lb_thumb_fk(ch, rot, pos, NULL);
}

/* Aim: the shortest model-space turn taking root->tip onto root->target, carried into the
 * root's local rotation (local = parent^-1 * turn * parent * rest) and applied to the
 * positions about the root. */
static void lb_thumb_aim(const lb_thumb_chain *ch, const vec3 target,
                         versor rot[LB_FINGER_MAX_SEGMENTS], vec3 pos[LB_FINGER_MAX_SEGMENTS + 1]) {
  const lb_hand_rig_finger *rf = ch->rf;
  int n = rf->segment_count;
  vec3 from, to, d_from, d_to;
  lb_vec3_sub(pos[LB_FINGER_MAX_SEGMENTS], pos[0], d_from);
  lb_vec3_sub(target, pos[0], d_to);
  if (!(lb_vec3_normalize_to(d_from, from) > 0.0f && lb_vec3_normalize_to(d_to, to) > 0.0f)) {
    return;
  }
  versor turn, pinv, tmp, r0;
  lb_quat_from_to(from, to, turn);
  lb_quat_conj(ch->parent.r, pinv);
  lb_qmul(turn, ch->parent.r, tmp);
  lb_qmul(pinv, tmp, r0);
  lb_qmul(r0, rf->rest[0], rot[0]);
  lb_qnormalize(rot[0]);
  for (int j = 1; j <= LB_FINGER_MAX_SEGMENTS; ++j) {
    if (j < n || j == LB_FINGER_MAX_SEGMENTS) {
      vec3 d;
      lb_vec3_sub(pos[j], pos[0], d);
      lb_quat_rotate(turn, d, d);
      pos[j][0] = pos[0][0] + d[0];
      pos[j][1] = pos[0][1] + d[1];
      pos[j][2] = pos[0][2] + d[2];
    }
  }
}

/* The thumb: rest -> target -> bend for the distance -> aim at the target. */
void lb_thumb_reach(lb_finger_pose_job *job) {
  const lb_hand_rig *rig = job->rig;
  const lb_hand_rig_finger *rf = &rig->fingers[LB_FINGER_THUMB];
  if (!rf->found) {
    return;
  }
  lb_thumb_chain ch = {rf, job->local, job->model[rf->root_parent]};
  versor rot[LB_FINGER_MAX_SEGMENTS];
  vec3 pos[LB_FINGER_MAX_SEGMENTS + 1];
  lb_transform frames[LB_FINGER_MAX_SEGMENTS];
  memcpy(rot, rf->rest, sizeof rot);
  lb_thumb_fk(&ch, rot, pos, frames);

  const lb_grip_thumb_def *th = &job->pose->thumb;
  lb_finger target_finger = th->to == LB_THUMB_TO_INDEX ? LB_FINGER_INDEX : LB_FINGER_MIDDLE;
  if (th->opposition == 0.0f || !rig->fingers[target_finger].found) {
    lb_write(job, rot, pos); /* rest, exactly */
    return;
  }
  vec3 target;
  lb_thumb_goal(job, target_finger, pos[LB_FINGER_MAX_SEGMENTS], target);
  if (rf->segment_count >= 2) {
    lb_thumb_bend(&ch, target, rot, pos, frames);
  }
  lb_thumb_aim(&ch, target, rot, pos);
  lb_write(job, rot, pos);
}
