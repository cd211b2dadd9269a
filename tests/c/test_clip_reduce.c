/* Clip reduction at import (lb_clip_reduce_job, lb_gltf_def.key_tolerance): the positions it
 * changes stay within the tolerance when measured independently of the job (at every key
 * time and between keys, at joints and at skin_distance along each joint's axes), on every
 * generated rig and on a chain rig at three scales; bad input is refused and the clip left
 * as it was. Worst cases are printed so the margin shows in CI logs. */
#include "limber/anim.h"
#include "limber/gltf.h"
#include "limber/limber.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rig_fixture.h"
#include "test.h"

#define MAXJ 128

static void to_model(const int16_t *parents, uint32_t n, const lb_transform *local,
                     lb_transform *model) {
  for (uint32_t j = 0; j < n; ++j) {
    if (parents[j] < 0) {
      model[j] = local[j];
    } else {
      lb_transform_mul(&model[parents[j]], &local[j], &model[j]);
    }
  }
}

/* Largest distance between clips a and b posed on the skeleton, at joints and 0.1 m along
 * each joint's axes, at `steps` + 1 evenly spaced times over the clip (keys and between). */
static double pose_error(const lb_clip *a, const lb_clip *b, const int16_t *parents,
                         const lb_transform *rest, uint32_t n, int steps) {
  lb_transform la[MAXJ], lbx[MAXJ], ma[MAXJ], mb[MAXJ];
  double worst = 0.0;
  for (int i = 0; i <= steps; ++i) {
    lb_sample_job ja = {0}, jb = {0};
    ja.clip = a;
    jb.clip = b;
    ja.time = jb.time = a->duration * (float)i / (float)steps;
    ja.rest = jb.rest = rest;
    ja.joint_count = jb.joint_count = n;
    ja.output = la;
    jb.output = lbx;
    LB_CHECK(lb_sample_job_run(&ja) == LB_OK && lb_sample_job_run(&jb) == LB_OK);
    to_model(parents, n, la, ma);
    to_model(parents, n, lbx, mb);
    for (uint32_t j = 0; j < n; ++j) {
      for (int axis = -1; axis < 3; ++axis) {
        float off[3] = {0.0f, 0.0f, 0.0f}, pa[3], pb[3];
        if (axis >= 0) {
          off[axis] = 0.1f;
        }
        lb_transform_point(&ma[j], off, pa);
        lb_transform_point(&mb[j], off, pb);
        double d = sqrt(((double)pa[0] - pb[0]) * ((double)pa[0] - pb[0]) +
                        ((double)pa[1] - pb[1]) * ((double)pa[1] - pb[1]) +
                        ((double)pa[2] - pb[2]) * ((double)pa[2] - pb[2]));
        worst = d > worst ? d : worst;
      }
    }
  }
  return worst;
}

/* Every clip of every generated rig at 0.1 mm (the default) and 1 cm against the file's keys. */
static void test_rigs_within_tolerance(void) {
  const float tols[2] = {1e-4f, 1e-2f};
  for (int ti = 0; ti < 2; ++ti) {
    uint32_t tracks = 0, raw_constant = 0, constant = 0, clips = 0;
    double worst = 0.0, reported = 0.0;
    for (size_t r = 0; r < sizeof k_rig_files / sizeof k_rig_files[0]; ++r) {
      lb_gltf_asset *raw = lb_test_import_rig(k_rig_files[r], 0.0f);
      lb_gltf_asset *red = lb_test_import_rig(k_rig_files[r], tols[ti]);
      for (uint32_t c = 0; raw && red && c < raw->clip_count; ++c) {
        const lb_skeleton_def *sk = &raw->skeleton;
        LB_CHECK(sk->joint_count <= MAXJ);
        double e = pose_error(&raw->clips[c].clip, &red->clips[c].clip, sk->parents, sk->rest,
                              sk->joint_count, 4 * 30 * 2);
        worst = e > worst ? e : worst;
        reported =
            red->clips[c].reduction.error > reported ? red->clips[c].reduction.error : reported;
        LB_CHECK(e <= (double)tols[ti] * 1.001 + 1e-6);
        LB_CHECK(red->clips[c].reduction.error <= tols[ti]);
        LB_CHECK(raw->clips[c].reduction.track_count == red->clips[c].reduction.track_count);
        LB_CHECK(red->clips[c].reduction.constant_tracks >=
                 raw->clips[c].reduction.constant_tracks);
        tracks += red->clips[c].reduction.track_count;
        raw_constant += raw->clips[c].reduction.constant_tracks;
        constant += red->clips[c].reduction.constant_tracks;
        ++clips;
      }
      lb_gltf_free(raw);
      lb_gltf_free(red);
    }
    /* the reduction does something: the fingers that hold a pose through a clip */
    LB_CHECK(constant > raw_constant);
    printf("tolerance %.4g m: %u clips, %u tracks, constant %u in the files -> %u reduced; "
           "largest position change %.6f mm measured here (job reports %.6f mm)\n",
           (double)tols[ti], clips, tracks, raw_constant, constant, worst * 1e3, reported * 1e3);
  }
}

/* A chain of 6 joints whose rotations wobble by 0, 0.001, 0.01, 0.1, 1 and 0.005 degrees, with
 * bones 3 mm, 0.3 m and 30 m long: which tracks go constant depends on the lever in metres. */
enum { CJ = 6, CK = 31 };
static float g_times[CK], g_keys[CJ][CK][4];
static lb_joint_tracks g_tracks[CJ];
static const int16_t g_parents[CJ] = {-1, 0, 1, 2, 3, 4};
static const float g_amp_deg[CJ] = {0.0f, 0.001f, 0.01f, 0.1f, 1.0f, 0.005f};

static void make_chain(float bone, lb_transform *rest, lb_clip *clip) {
  for (int k = 0; k < CK; ++k) {
    g_times[k] = (float)k / 30.0f;
  }
  for (int j = 0; j < CJ; ++j) {
    lb_transform_identity(&rest[j]);
    rest[j].t[1] = j ? bone : 0.0f;
    for (int k = 0; k < CK; ++k) {
      double a = g_amp_deg[j] * sin(k * 0.7 + j) * (3.14159265358979 / 180.0) * 0.5;
      g_keys[j][k][0] = (float)sin(a) + 0.0f; /* no -0: joint 0 is constant bit for bit */
      g_keys[j][k][1] = 0.0f;
      g_keys[j][k][2] = 0.0f;
      g_keys[j][k][3] = (float)cos(a);
    }
    memset(&g_tracks[j], 0, sizeof g_tracks[j]);
    g_tracks[j].rotation.count = CK;
    g_tracks[j].rotation.times = g_times;
    g_tracks[j].rotation.values = &g_keys[j][0][0];
  }
  clip->duration = 1.0f;
  clip->joint_count = CJ;
  clip->joints = g_tracks;
}

/* The reduction job over the chain at `tolerance` metres. */
static lb_clip_reduce_job chain_job(lb_clip *clip, const lb_transform *rest, float tolerance) {
  lb_clip_reduce_job job = lb_clip_reduce_default_job();
  job.clip = clip;
  job.parents = g_parents;
  job.rest = rest;
  job.joint_count = CJ;
  job.tolerance = tolerance;
  return job;
}

static bool track_constant(int j) {
  for (int k = 1; k < CK; ++k) {
    if (memcmp(g_keys[j][0], g_keys[j][k], sizeof g_keys[j][0]) != 0) {
      return false;
    }
  }
  return true;
}

static void test_chain_scales(void) {
  const float bones[3] = {0.003f, 0.3f, 30.0f};
  /* expected constant joints per bone length at 1 mm (the lever is the rest of the chain, at
   * least skin_distance = 0.1 m, so the leaf's 0.005 deg stays under 1 mm at every scale;
   * joint 0's zero wobble is constant already) */
  const bool expect[3][CJ] = {{1, 1, 1, 1, 0, 1}, {1, 1, 1, 0, 0, 1}, {1, 0, 0, 0, 0, 1}};
  for (int b = 0; b < 3; ++b) {
    lb_transform rest[CJ];
    lb_clip clip, original;
    make_chain(bones[b], rest, &clip);
    static float keep[CJ][CK][4];
    static lb_joint_tracks keep_tracks[CJ];
    memcpy(keep, g_keys, sizeof keep);
    original = clip;
    for (int j = 0; j < CJ; ++j) {
      keep_tracks[j] = g_tracks[j];
      keep_tracks[j].rotation.values = &keep[j][0][0];
    }
    original.joints = keep_tracks;
    lb_clip_reduce_job job = chain_job(&clip, rest, 1e-3f);
    LB_CHECK(lb_clip_reduce_job_run(&job) == LB_OK);
    char got[CJ + 1];
    for (int j = 0; j < CJ; ++j) {
      got[j] = track_constant(j) ? 'C' : '.';
      LB_CHECK(track_constant(j) == expect[b][j]);
    }
    got[CJ] = 0;
    double e = pose_error(&original, &clip, g_parents, rest, CJ, 240);
    LB_CHECK(e <= 1e-3 * 1.001);
    LB_CHECK(job.error <= 1e-3f && job.track_count == CJ && job.constant_before == 1u);
    printf("chain of %g m bones at 1 mm: constant %s (%u of %u), change %.4f mm measured, %.4f "
           "mm reported\n",
           (double)bones[b], got, job.constant_count, job.track_count, e * 1e3,
           (double)job.error * 1e3);
  }
}

/* Refused input leaves the keys alone; tolerance 0 keeps every key. */
static void test_bad_input(void) {
  lb_transform rest[CJ];
  lb_clip clip;
  make_chain(0.3f, rest, &clip);
  static float keep[CJ][CK][4];
  memcpy(keep, g_keys, sizeof keep);
  lb_clip_reduce_job good = chain_job(&clip, rest, 1e-2f);
  int16_t backwards[CJ] = {-1, 0, 3, 1, 2, 4};
  struct {
    const char *what;
    lb_result want;
    lb_clip_reduce_job job;
  } bad[9];
  for (int i = 0; i < 9; ++i) {
    bad[i].job = good;
  }
  bad[0].what = "null clip", bad[0].want = LB_ERR_INVALID_ARGUMENT, bad[0].job.clip = NULL;
  bad[1].what = "null parents", bad[1].want = LB_ERR_INVALID_ARGUMENT, bad[1].job.parents = NULL;
  bad[2].what = "null rest", bad[2].want = LB_ERR_INVALID_ARGUMENT, bad[2].job.rest = NULL;
  bad[3].what = "fewer joints than the clip", bad[3].want = LB_ERR_INVALID_ARGUMENT,
  bad[3].job.joint_count = CJ - 1;
  bad[4].what = "child before parent", bad[4].want = LB_ERR_INVALID_ARGUMENT,
  bad[4].job.parents = backwards;
  bad[5].what = "NaN tolerance", bad[5].want = LB_ERR_NOT_FINITE, bad[5].job.tolerance = NAN;
  bad[6].what = "negative tolerance", bad[6].want = LB_ERR_OUT_OF_RANGE,
  bad[6].job.tolerance = -1e-4f;
  bad[7].what = "tolerance over 1 m", bad[7].want = LB_ERR_OUT_OF_RANGE, bad[7].job.tolerance = 2;
  bad[8].what = "infinite skin distance", bad[8].want = LB_ERR_NOT_FINITE,
  bad[8].job.skin_distance = INFINITY;
  for (int i = 0; i < 9; ++i) {
    lb_result r = lb_clip_reduce_job_run(&bad[i].job);
    if (r != bad[i].want) {
      printf("  %s: %s, want %s\n", bad[i].what, lb_result_name(r), lb_result_name(bad[i].want));
    }
    LB_CHECK(r == bad[i].want);
    LB_CHECK(memcmp(keep, g_keys, sizeof keep) == 0);
  }
  lb_clip_reduce_job off = good;
  off.tolerance = 0.0f;
  LB_CHECK(lb_clip_reduce_job_run(&off) == LB_OK);
  LB_CHECK(memcmp(keep, g_keys, sizeof keep) == 0);
  LB_CHECK(off.constant_count == off.constant_before && off.error == 0.0f);
  /* the glTF importer checks its two fields */
  size_t size = 0;
  uint8_t *bytes = lb_test_read_file("assets/rigs/mannequin-mixamo.glb", &size);
  LB_CHECK(bytes != NULL);
  lb_gltf_def def = lb_gltf_default_def();
  def.data = bytes;
  def.size = size;
  lb_gltf_asset *asset = NULL;
  char msg[LB_GLTF_MESSAGE_MAX];
  def.key_tolerance = NAN;
  LB_CHECK(lb_gltf_import(&def, &asset, msg, sizeof msg) == LB_ERR_NOT_FINITE && !asset);
  def.key_tolerance = 1e-4f;
  def.skin_distance = -1.0f;
  LB_CHECK(lb_gltf_import(&def, &asset, msg, sizeof msg) == LB_ERR_OUT_OF_RANGE && !asset);
  LB_CHECK(strstr(msg, "skin_distance") != NULL);
  free(bytes);
  printf("bad input: 9 kinds refused with the keys untouched; tolerance 0 keeps every key\n");
}

/* lb_world_add_clip reduces its copy (the default 0.1 mm) and keeps the report; the
 * caller's keys stay as they were. */
static void test_world_clip(void) {
  lb_transform rest[CJ];
  lb_clip clip;
  make_chain(0.3f, rest, &clip);
  static float keep[CJ][CK][4];
  memcpy(keep, g_keys, sizeof keep);
  const char *names[CJ] = {"j0", "j1", "j2", "j3", "j4", "j5"};
  lb_skeleton_def sd = lb_skeleton_default_def();
  sd.joint_count = CJ;
  sd.names = names;
  sd.parents = g_parents;
  sd.rest = rest;
  lb_world *w = NULL;
  uint32_t skel = 0, h = 0;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  LB_CHECK(lb_world_add_skeleton(w, &sd, &skel) == LB_OK);
  LB_CHECK(lb_world_add_clip(w, "wobble", skel, &clip, &h) == LB_OK);
  LB_CHECK(memcmp(keep, g_keys, sizeof keep) == 0);
  lb_clip_reduction red = {0, 0, 0.0f};
  LB_CHECK(lb_world_clip_reduction(w, h, &red) == LB_OK);
  /* at 0.1 mm: joint 0 (still), 1 (0.001 deg) and 5 (0.005 deg at its 0.1 m skin distance) */
  LB_CHECK(red.track_count == CJ && red.constant_tracks == 3u && red.error <= 1e-4f);
  const lb_clip *stored = lb_world_clip(w, h);
  LB_CHECK(stored && memcmp(stored->joints[1].rotation.values, g_keys[1][0], 16) == 0 &&
           memcmp(stored->joints[1].rotation.values + 4 * 7, g_keys[1][0], 16) == 0);
  LB_CHECK(lb_world_clip_reduction(w, h + 1u, &red) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_world_clip_reduction(w, h, NULL) == LB_ERR_INVALID_ARGUMENT);
  printf("world clip: %u of %u tracks constant, %.5f mm\n", red.constant_tracks, red.track_count,
         (double)red.error * 1e3);
  lb_world_destroy(w);
}

int main(void) {
  LB_RUN(test_rigs_within_tolerance);
  LB_RUN(test_chain_scales);
  LB_RUN(test_bad_input);
  LB_RUN(test_world_clip);
  LB_TEST_MAIN_END();
}
