/* Animation benchmarks: what the Animate and Model-space phases do per character.
 *
 * anim.character         mannequin-mixamo.glb (65 joints with full fingers)
 * anim.character_unreal  mannequin-unreal.glb (73 joints: fingers with metacarpals)
 *
 * Setup: the .glb bytes are read from assets/rigs/ (relative to the working directory,
 * which run.mjs sets to the repo root, else to the repo root derived from __FILE__; the
 * emcc builds read through -sNODERAWFS) and imported with lb_gltf_import. 100 characters,
 * each with its own local and model pose buffers, its own sampling cursor per clip and its
 * own phase (character i starts i * 0.173 s into the clips).
 *
 * One operation = one character for one step:
 *   idle, walk and run sampled (looping, with the character's cursors and the clips'
 *   four-wide frames, lb_clip_frames) at the character's time and blended (weights
 *   0.2 / 0.5 / 0.3) into its local pose by lb_sample_blend_job_run (the bits of
 *   lb_sample_job_run per clip + lb_blend_job_run, without storing the three poses),
 * lb_rig_local_to_model over every joint into its model pose, and the 4x4 model matrices skinning
 * needs (lb_rig_model_matrices, what the Output phase runs). The stage benches run one stage of the
 * same op on the same data, so the split shows where the time goes: anim.stage.sample_blend (the
 * one pass), anim.stage.model; and the separate jobs the one pass replaces, anim.stage.sample
 * (three lb_sample_job_run) and anim.stage.blend (lb_blend_job_run). Characters are visited in
 * order; after the 100th the clock advances by 1/60 s. This is the counterpart of three.js
 * AnimationMixer.update + updateMatrixWorld on 100 SkeletonUtils clones
 * (tests/bench/three_anim.mjs). No error is measured (0). */
#include "../../wasm/src/rig/rig_internal.h"
#include "bench.h"
#include "limber/gltf.h"
#include "limber/limber.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LB_ANIM_CHARACTERS 100u
#define LB_ANIM_CLIPS 3u
#define LB_ANIM_DT (1.0f / 60.0f)
#define LB_ANIM_PHASE 0.173f

static const char *const lb_anim_clip_names[LB_ANIM_CLIPS] = {"idle", "walk", "run"};
static const float lb_anim_weights[LB_ANIM_CLIPS] = {0.2f, 0.5f, 0.3f};

typedef struct lb_anim_character {
  lb_transform *local;
  lb_transform *model;
  mat4 *matrices;
  uint32_t *keys[LB_ANIM_CLIPS]; /* cursor storage, one per clip */
  float phase;
} lb_anim_character;

enum {
  LB_ANIM_STAGE_ALL = 0,
  LB_ANIM_STAGE_SAMPLE,
  LB_ANIM_STAGE_BLEND,
  LB_ANIM_STAGE_MODEL,
  LB_ANIM_STAGE_SAMPLE_BLEND
};

typedef struct lb_anim_state {
  lb_gltf_asset *asset;
  const lb_clip *clips[LB_ANIM_CLIPS];
  lb_clip_frames *frames[LB_ANIM_CLIPS];
  int stage;
  lb_skeleton skeleton; /* parents and by_depth: what lb_rig_local_to_model reads */
  uint32_t joint_count;
  uint32_t track_count;
  lb_transform *sampled[LB_ANIM_CLIPS]; /* shared scratch: each character blends at once */
  lb_anim_character characters[LB_ANIM_CHARACTERS];
  uint32_t next;
  float time;
} lb_anim_state;

/* Whole file into a malloc'd buffer; null if it cannot be read. */
static uint8_t *lb_read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    return NULL;
  }
  uint8_t *data = NULL;
  long n = -1;
  if (fseek(f, 0, SEEK_END) == 0) {
    n = ftell(f);
  }
  if (n > 0 && fseek(f, 0, SEEK_SET) == 0) {
    data = malloc((size_t)n);
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
      free(data);
      data = NULL;
    }
  }
  fclose(f);
  *size = data ? (size_t)n : 0u;
  return data;
}

/* A repository file (path relative to its root) from the working directory, else from the repo
 * root that __FILE__ (…/tests/bench/bench_anim.c) names. */
void *lb_bench_read_asset(const char *rel, size_t *size) {
  uint8_t *data = lb_read_file(rel, size);
  const char *self = __FILE__;
  const char *tail = strstr(self, "tests/bench/bench_anim.c");
  if (!data && tail) {
    char path[2048];
    int n = snprintf(path, sizeof path, "%.*s%s", (int)(tail - self), self, rel);
    data = n > 0 && (size_t)n < sizeof path ? lb_read_file(path, size) : NULL;
  }
  if (!data) {
    fprintf(stderr, "limber_bench: cannot read %s (run from the repo root)\n", rel);
  }
  return data;
}

uint8_t *lb_bench_read_rig(const char *file, size_t *size) {
  char path[256];
  snprintf(path, sizeof path, "assets/rigs/%s", file);
  return lb_bench_read_asset(path, size);
}

static void lb_anim_teardown(void *p) {
  lb_anim_state *s = p;
  if (!s) {
    return;
  }
  for (uint32_t i = 0; i < LB_ANIM_CHARACTERS; ++i) {
    lb_anim_character *c = &s->characters[i];
    free(c->local);
    free(c->model);
    free(c->matrices);
    for (uint32_t k = 0; k < LB_ANIM_CLIPS; ++k) {
      free(c->keys[k]);
    }
  }
  for (uint32_t k = 0; k < LB_ANIM_CLIPS; ++k) {
    free(s->sampled[k]);
    lb_clip_frames_destroy(s->frames[k]);
  }
  free(s->skeleton.parents);
  free(s->skeleton.by_depth);
  lb_gltf_free(s->asset);
  free(s);
}

static void *lb_anim_setup(const char *file, int stage) {
  lb_anim_state *s = calloc(1, sizeof *s);
  size_t size = 0;
  uint8_t *bytes = s ? lb_bench_read_rig(file, &size) : NULL;
  if (!bytes) {
    lb_anim_teardown(s);
    return NULL;
  }
  lb_gltf_def def = lb_gltf_default_def();
  def.data = bytes;
  def.size = size;
  char message[LB_GLTF_MESSAGE_MAX];
  lb_result r = lb_gltf_import(&def, &s->asset, message, sizeof message);
  free(bytes);
  if (r != LB_OK) {
    fprintf(stderr, "limber_bench: %s: %s\n", file, message);
    lb_anim_teardown(s);
    return NULL;
  }
  const lb_skeleton_def *sk = &s->asset->skeleton;
  uint32_t n = sk->joint_count;
  s->joint_count = n;
  for (uint32_t k = 0; k < LB_ANIM_CLIPS; ++k) {
    for (uint32_t c = 0; c < s->asset->clip_count; ++c) {
      if (!strcmp(s->asset->clips[c].name, lb_anim_clip_names[k])) {
        s->clips[k] = &s->asset->clips[c].clip;
      }
    }
    if (!s->clips[k]) {
      fprintf(stderr, "limber_bench: %s has no clip '%s'\n", file, lb_anim_clip_names[k]);
      lb_anim_teardown(s);
      return NULL;
    }
  }
  s->stage = stage;
  for (uint32_t k = 0; k < LB_ANIM_CLIPS; ++k) {
    if (lb_clip_frames_create(s->clips[k], NULL, &s->frames[k]) != LB_OK) {
      fprintf(stderr, "limber_bench: %s: clip '%s' has no frames\n", file, lb_anim_clip_names[k]);
      lb_anim_teardown(s);
      return NULL;
    }
  }
  s->track_count = lb_clip_track_count(s->clips[0]);
  s->skeleton.joint_count = n;
  s->skeleton.parents = malloc(n * sizeof(int16_t));
  s->skeleton.by_depth = malloc(n * sizeof(uint16_t));
  uint16_t *depth = malloc(n * sizeof(uint16_t));
  int ok = s->skeleton.parents && s->skeleton.by_depth && depth;
  if (ok) {
    memcpy(s->skeleton.parents, sk->parents, n * sizeof(int16_t));
    lb_skeleton_order_by_depth(s->skeleton.parents, n, depth, s->skeleton.by_depth);
  }
  free(depth);
  for (uint32_t k = 0; k < LB_ANIM_CLIPS; ++k) {
    s->sampled[k] = malloc(n * sizeof(lb_transform));
    ok = ok && s->sampled[k] && lb_clip_track_count(s->clips[k]) == s->track_count;
  }
  for (uint32_t i = 0; ok && i < LB_ANIM_CHARACTERS; ++i) {
    lb_anim_character *c = &s->characters[i];
    c->local = malloc(n * sizeof(lb_transform));
    c->model = malloc(n * sizeof(lb_transform));
    c->matrices = malloc(n * sizeof(mat4));
    ok = c->local && c->model && c->matrices;
    for (uint32_t k = 0; ok && k < LB_ANIM_CLIPS; ++k) {
      c->keys[k] = calloc(s->track_count, sizeof(uint32_t));
      ok = c->keys[k] != NULL;
    }
    c->phase = (float)i * LB_ANIM_PHASE;
  }
  if (!ok) {
    lb_anim_teardown(s);
    return NULL;
  }
  /* The stage benches read what the earlier stages would have written: real poses. */
  for (uint32_t k = 0; k < LB_ANIM_CLIPS; ++k) {
    lb_sample_job job = {0};
    job.clip = s->clips[k];
    job.time = 0.5f;
    job.loop = true;
    job.rest = sk->rest;
    job.joint_count = n;
    job.output = s->sampled[k];
    ok = ok && lb_sample_job_run(&job) == LB_OK;
  }
  for (uint32_t i = 0; ok && i < LB_ANIM_CHARACTERS; ++i) {
    lb_blend_layer layers[LB_ANIM_CLIPS];
    for (uint32_t k = 0; k < LB_ANIM_CLIPS; ++k) {
      layers[k].pose = s->sampled[k];
      layers[k].weight = lb_anim_weights[k];
      layers[k].joint_weights = NULL;
    }
    lb_blend_job blend = lb_blend_default_job();
    blend.layers = layers;
    blend.layer_count = LB_ANIM_CLIPS;
    blend.rest = sk->rest;
    blend.joint_count = n;
    blend.output = s->characters[i].local;
    ok = lb_blend_job_run(&blend) == LB_OK;
  }
  if (!ok) {
    lb_anim_teardown(s);
    return NULL;
  }
  return s;
}

static void lb_anim_run(void *p, uint32_t iters, lb_bench_stats *st) {
  lb_anim_state *s = p;
  const lb_transform *rest = s->asset->skeleton.rest;
  uint32_t n = s->joint_count;
  for (uint32_t i = 0; i < iters; ++i) {
    lb_anim_character *c = &s->characters[s->next];
    float t = s->time + c->phase;
    int failed = 0;
    bool together = s->stage == LB_ANIM_STAGE_ALL || s->stage == LB_ANIM_STAGE_SAMPLE_BLEND;
    bool sample = together || s->stage == LB_ANIM_STAGE_SAMPLE;
    lb_blend_layer layers[LB_ANIM_CLIPS];
    lb_sample_cursor cursors[LB_ANIM_CLIPS];
    lb_sample_job jobs[LB_ANIM_CLIPS];
    for (uint32_t k = 0; k < LB_ANIM_CLIPS; ++k) {
      layers[k].pose = s->sampled[k];
      layers[k].weight = lb_anim_weights[k];
      layers[k].joint_weights = NULL;
      cursors[k] = (lb_sample_cursor){c->keys[k], s->track_count};
      memset(&jobs[k], 0, sizeof jobs[k]);
      jobs[k].clip = s->clips[k];
      jobs[k].frames = s->frames[k];
      jobs[k].time = t;
      jobs[k].loop = true;
      jobs[k].cursor = &cursors[k];
      jobs[k].rest = rest;
      jobs[k].joint_count = n;
      jobs[k].output = s->sampled[k];
      if (sample && !together) {
        failed |= lb_sample_job_run(&jobs[k]) != LB_OK;
      }
    }
    if (together) {
      lb_sample_blend_job job = lb_sample_blend_default_job();
      job.samples = jobs;
      job.weights = lb_anim_weights;
      job.layer_count = LB_ANIM_CLIPS;
      job.rest = rest;
      job.joint_count = n;
      job.output = c->local;
      failed |= lb_sample_blend_job_run(&job) != LB_OK;
    }
    lb_blend_job blend = lb_blend_default_job();
    blend.layers = layers;
    blend.layer_count = LB_ANIM_CLIPS;
    blend.rest = rest;
    blend.joint_count = n;
    blend.output = c->local;
    if (s->stage == LB_ANIM_STAGE_BLEND) {
      failed |= lb_blend_job_run(&blend) != LB_OK;
    }
    if (s->stage == LB_ANIM_STAGE_ALL || s->stage == LB_ANIM_STAGE_MODEL) {
      lb_rig_instance inst;
      memset(&inst, 0, sizeof inst);
      inst.joint_count = n;
      inst.local = c->local;
      inst.model = c->model;
      inst.matrices = c->matrices;
      lb_rig_local_to_model(&s->skeleton, &inst, 0, n);
      lb_rig_write_matrices(&inst, 0, n);
    }
    st->failures += (uint64_t)failed;
    if (++s->next == LB_ANIM_CHARACTERS) {
      s->next = 0;
      s->time += LB_ANIM_DT;
    }
  }
  st->ops += iters;
}

static void *lb_anim_setup_mixamo(void) {
  return lb_anim_setup("mannequin-mixamo.glb", LB_ANIM_STAGE_ALL);
}

static void *lb_anim_setup_unreal(void) {
  return lb_anim_setup("mannequin-unreal.glb", LB_ANIM_STAGE_ALL);
}

static void *lb_anim_setup_sample(void) {
  return lb_anim_setup("mannequin-mixamo.glb", LB_ANIM_STAGE_SAMPLE);
}

static void *lb_anim_setup_blend(void) {
  return lb_anim_setup("mannequin-mixamo.glb", LB_ANIM_STAGE_BLEND);
}

static void *lb_anim_setup_sample_blend(void) {
  return lb_anim_setup("mannequin-mixamo.glb", LB_ANIM_STAGE_SAMPLE_BLEND);
}

static void *lb_anim_setup_model(void) {
  return lb_anim_setup("mannequin-mixamo.glb", LB_ANIM_STAGE_MODEL);
}

const lb_bench lb_bench_anim_character = {
    "anim.character",
    "us",
    "per character (65 joints, fingers): sample idle+walk+run (cursors, frames) + blend "
    "0.2/0.5/0.3 + local->model + 4x4 matrices",
    20000,
    lb_anim_setup_mixamo,
    lb_anim_run,
    lb_anim_teardown};

const lb_bench lb_bench_anim_character_unreal = {
    "anim.character_unreal",
    "us",
    "per character (73 joints, Unreal fingers): sample idle+walk+run (cursors, frames) + blend "
    "0.2/0.5/0.3 + local->model + 4x4 matrices",
    20000,
    lb_anim_setup_unreal,
    lb_anim_run,
    lb_anim_teardown};

const lb_bench lb_bench_anim_stage_sample = {
    "anim.stage.sample",
    "us",
    "anim.character's sampling only: idle+walk+run (cursors, frames), 65 joints",
    20000,
    lb_anim_setup_sample,
    lb_anim_run,
    lb_anim_teardown};

const lb_bench lb_bench_anim_stage_blend = {
    "anim.stage.blend",
    "us",
    "anim.character's blend only: 3 poses 0.2/0.5/0.3, 65 joints",
    20000,
    lb_anim_setup_blend,
    lb_anim_run,
    lb_anim_teardown};

const lb_bench lb_bench_anim_stage_model = {
    "anim.stage.model",
    "us",
    "anim.character's local->model + 4x4 model matrices only, 65 joints",
    20000,
    lb_anim_setup_model,
    lb_anim_run,
    lb_anim_teardown};

const lb_bench lb_bench_anim_stage_sample_blend = {
    "anim.stage.sample_blend",
    "us",
    "anim.character's sampling and blending in one pass (lb_sample_blend_job): idle+walk+run "
    "0.2/0.5/0.3, 65 joints",
    20000,
    lb_anim_setup_sample_blend,
    lb_anim_run,
    lb_anim_teardown};
