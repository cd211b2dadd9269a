/* Palm frame and hand scale from model-space joint transforms (see limber/grip.h). */
#include "limber/grip.h"

#include <string.h>

static void lb_sub3(const float *a, const float *b, vec3 out) {
  out[0] = a[0] - b[0];
  out[1] = a[1] - b[1];
  out[2] = a[2] - b[2];
}

static void lb_cross3(const vec3 a, const vec3 b, vec3 out) {
  vec3 c;
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
  memcpy(out, c, sizeof c);
}

static float lb_distance3(const float *a, const float *b) {
  vec3 d;
  lb_sub3(a, b, d);
  return lb_vec3_length(d);
}

lb_palm_frame_job lb_palm_frame_default_job(void) {
  lb_palm_frame_job job;
  memset(&job, 0, sizeof job);
  lb_transform_identity(&job.frame);
  return job;
}

static bool lb_index_ok(const lb_palm_frame_job *job, int j) {
  return j >= -1 && j < (int)job->joint_count;
}

static bool lb_position_finite(const lb_palm_frame_job *job, int j) {
  return j < 0 || (lb_is_finite(job->model[j].t[0]) && lb_is_finite(job->model[j].t[1]) &&
                   lb_is_finite(job->model[j].t[2]));
}

lb_result lb_palm_frame_job_validate(const lb_palm_frame_job *job) {
  if (!job || !job->hand || !job->model || job->hand->hand < 0 ||
      job->hand->hand >= (int)job->joint_count) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  bool finite = lb_position_finite(job, job->hand->hand);
  if (job->parents) {
    for (uint32_t k = (uint32_t)job->hand->hand + 1; k < job->joint_count; ++k) {
      finite = finite && (job->parents[k] != job->hand->hand || lb_position_finite(job, (int)k));
    }
  }
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    const lb_finger_info *fi = &job->hand->fingers[f];
    if (!fi->found) {
      continue;
    }
    if (fi->segment_count < 1 || fi->segment_count > LB_FINGER_MAX_SEGMENTS ||
        !lb_index_ok(job, fi->tip)) {
      return LB_ERR_INVALID_ARGUMENT;
    }
    for (int s = 0; s < fi->segment_count; ++s) {
      if (fi->joints[s] < 0 || !lb_index_ok(job, fi->joints[s])) {
        return LB_ERR_INVALID_ARGUMENT;
      }
      finite = finite && lb_position_finite(job, fi->joints[s]);
    }
    finite = finite && lb_position_finite(job, fi->tip);
  }
  return finite ? LB_OK : LB_ERR_NOT_FINITE;
}

/* Root position of a found finger, or NULL. */
static const float *lb_root(const lb_palm_frame_job *job, lb_finger f) {
  const lb_finger_info *fi = &job->hand->fingers[f];
  return fi->found ? job->model[fi->joints[0]].t : NULL;
}

/* Hand scale: the index finger's length along its joints (0 without an index finger). */
static float lb_palm_index_length(const lb_palm_frame_job *job) {
  float length = 0.0f;
  const lb_finger_info *ix = &job->hand->fingers[LB_FINGER_INDEX];
  if (!ix->found) {
    return length;
  }
  for (int s = 1; s < ix->segment_count; ++s) {
    length += lb_distance3(job->model[ix->joints[s]].t, job->model[ix->joints[s - 1]].t);
  }
  if (ix->tip >= 0) {
    length += lb_distance3(job->model[ix->tip].t, job->model[ix->joints[ix->segment_count - 1]].t);
  } else if (ix->segment_count >= 2) {
    /* No end joint: the last bone, estimated from the one before it. */
    int n = ix->segment_count;
    length += LB_HAND_TIP_ESTIMATE *
              lb_distance3(job->model[ix->joints[n - 1]].t, job->model[ix->joints[n - 2]].t);
  }
  return length;
}

/* Reference point: middle root, index root, or the centroid of the hand's children (of the
 * finger roots without parents). False when there is none. */
static bool lb_palm_reference(const lb_palm_frame_job *job, int hand, vec3 m) {
  const float *ref = lb_root(job, LB_FINGER_MIDDLE);
  if (!ref) {
    ref = lb_root(job, LB_FINGER_INDEX);
  }
  if (ref) {
    memcpy(m, ref, sizeof(vec3));
    return true;
  }
  int n = 0;
  m[0] = m[1] = m[2] = 0.0f;
  if (job->parents) {
    /* Direct children of the hand; depth-first order puts them after it. */
    for (uint32_t k = (uint32_t)hand + 1; k < job->joint_count; ++k) {
      if (job->parents[k] == hand) {
        m[0] += job->model[k].t[0];
        m[1] += job->model[k].t[1];
        m[2] += job->model[k].t[2];
        ++n;
      }
    }
  } else {
    for (int f = 0; f < LB_FINGER_COUNT; ++f) {
      const float *p = lb_root(job, (lb_finger)f);
      if (p) {
        m[0] += p[0];
        m[1] += p[1];
        m[2] += p[2];
        ++n;
      }
    }
  }
  if (n == 0) {
    return false;
  }
  m[0] /= (float)n;
  m[1] /= (float)n;
  m[2] /= (float)n;
  return true;
}

/* Palm +Y (out of the palm) and +X from the across-palm direction, index side -> pinky side,
 * and +Z. False when the finger roots do not give a direction across the palm. */
static bool lb_palm_across(const lb_palm_frame_job *job, const vec3 z, vec3 y, vec3 x) {
  static const lb_finger from_order[4] = {LB_FINGER_INDEX, LB_FINGER_MIDDLE, LB_FINGER_RING,
                                          LB_FINGER_THUMB};
  static const lb_finger to_order[3] = {LB_FINGER_PINKY, LB_FINGER_RING, LB_FINGER_MIDDLE};
  const float *a = NULL, *b = NULL;
  for (int i = 0; i < 4 && !a; ++i) {
    a = lb_root(job, from_order[i]);
  }
  for (int i = 0; i < 3 && !b; ++i) {
    b = lb_root(job, to_order[i]);
  }
  if (!a || !b || a == b) {
    return false;
  }
  vec3 s, ycross;
  lb_sub3(b, a, s);
  if (job->hand->side == LB_HAND_RIGHT) {
    lb_cross3(z, s, ycross);
  } else {
    lb_cross3(s, z, ycross);
  }
  if (lb_vec3_normalize_to(ycross, y) < 1e-6f * lb_vec3_length(s)) {
    return false;
  }
  lb_cross3(y, z, x);
  lb_vec3_normalize_to(x, x);
  return true;
}

lb_result lb_palm_frame_job_run(lb_palm_frame_job *job) {
  lb_result r = lb_palm_frame_job_validate(job);
  if (r != LB_OK) {
    return r;
  }
  int hand = job->hand->hand;
  const float *h = job->model[hand].t;
  lb_transform_identity(&job->frame);
  memcpy(job->frame.t, h, sizeof(vec3));
  memset(job->x_axis, 0, sizeof(vec3));
  memset(job->y_axis, 0, sizeof(vec3));
  memset(job->z_axis, 0, sizeof(vec3));
  job->x_axis[0] = job->y_axis[1] = job->z_axis[2] = 1.0f;
  job->index_length = lb_palm_index_length(job);

  vec3 m;
  if (!lb_palm_reference(job, hand, m)) {
    return LB_ERR_DEGENERATE;
  }
  vec3 z, zdir;
  lb_sub3(m, h, zdir);
  if (lb_vec3_normalize_to(zdir, z) < 1e-6f) {
    return LB_ERR_DEGENERATE;
  }
  vec3 y, x;
  if (!lb_palm_across(job, z, y, x)) {
    return LB_ERR_DEGENERATE;
  }
  job->frame.t[0] = 0.5f * (h[0] + m[0]);
  job->frame.t[1] = 0.5f * (h[1] + m[1]);
  job->frame.t[2] = 0.5f * (h[2] + m[2]);
  lb_quat_from_basis(x, y, z, job->frame.r);
  memcpy(job->x_axis, x, sizeof x);
  memcpy(job->y_axis, y, sizeof y);
  memcpy(job->z_axis, z, sizeof z);
  return LB_OK;
}
