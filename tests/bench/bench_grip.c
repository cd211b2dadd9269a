/* Grip benchmarks on the procedural humanoid (1.8 m, the default).
 *
 * grip.hand       one operation = one hand's fingers, as the grip phase runs them:
 *                 lb_finger_pose_job_run ("fist" on the right hand; the hand rig is built once
 *                 in setup from the rest skeleton) writing the target rotations, then
 *                 lb_wrap_job_run closing every finger from the rest (open) hand toward that
 *                 pose onto one cylinder, radius 1.5 cm, 12 cm long, lying across the palm
 *                 (along palm X, its near side 1 cm out of the palm, centred 4 cm up the
 *                 fingers: tests/c/test_grip_wrap.c's handle), margin 8 % of the index
 *                 length. Both jobs validate their input on every call. The "error" is
 *                 how far the closest wrapped bone sample falls short of the margin (0 when
 *                 none does), measured outside the timed loop on the last operation.
 * grip.character  one operation = the whole Grip phase (lb_world_run_phase, world_core.h)
 *                 for one character holding a rifle two-handed, the grip-lab hold: GripHolder
 *                 with Object placement (the main arm reaches the game-placed rifle, the
 *                 support arm its foregrip anchor), "pistol" on the right hand, "support" on
 *                 the left, wrap onto the rifle's two GripSurface cylinders (pistol grip
 *                 r 1.6 cm, foregrip r 2.2 cm) and a box (receiver). Before each operation
 *                 (timed too, a few memcpy) the rig's local and model pose and the entities'
 *                 world transforms are restored from a copy saved as they enter the Grip
 *                 phase, after 60 warm-up steps (blends finished); dt = 1/60 s. Timed: the
 *                 restore, both arms' plan and IK, anchor reads, both hands' pose + wrap +
 *                 weight, the hands' local→model refresh and the palm gap outputs. Not
 *                 timed: animation, entity transforms, matrices (the other phases). The
 *                 "error" is the larger palm-to-anchor distance (metres) from the holder.
 * The split (each part on the same data, so run.mjs prints its share of the whole):
 * grip.stage.pose     grip.hand's finger pose job alone.
 * grip.stage.wrap     grip.hand's wrap job alone, from the pose job's output (computed once in
 *                     setup, as the whole bench computes it every operation).
 * grip.stage.arms     grip.character's restore + the phase's arms part (lb_grip_arms: plan,
 *                     blend snapshots, main and support arm reach and IK).
 * grip.stage.fingers  grip.character's fingers part (lb_grip_fingers: both hands' pose, wrap
 *                     and weight, the hands' local->model, palm gaps) after a restore of the
 *                     pose the arms part leaves (saved in setup). */
#include "../../wasm/src/grip/grip_internal.h"
#include "../../wasm/src/rig/rig_internal.h"
#include "../c/grip_lab_fixture.h"
#include "bench.h"
#include "limber/limber.h"
#include <stdlib.h>
#include <string.h>

/* ---- grip.hand ------------------------------------------------------------------------ */

/* What an operation runs: the whole bench, or one of its parts (the split). */
enum { LB_GRIP_STAGE_ALL = 0, LB_GRIP_STAGE_FIRST, LB_GRIP_STAGE_SECOND };

#define LB_HAND_MAXJ 128

typedef struct lb_hand_state {
  lb_world *world;
  uint32_t count;
  const char *names[LB_HAND_MAXJ];
  int16_t parents[LB_HAND_MAXJ];
  lb_transform local[LB_HAND_MAXJ], model[LB_HAND_MAXJ];
  lb_transform pose[LB_HAND_MAXJ], out[LB_HAND_MAXJ];
  lb_hand_info info;
  lb_hand_rig rig;
  lb_grip_pose_def fist;
  lb_shape cylinder;
  int stage;    /* LB_GRIP_STAGE_* */
  float margin; /* the wrap's margin, from the pose job (set up once for the wrap stage) */
} lb_hand_state;

static void lb_hand_teardown(void *p) {
  lb_hand_state *s = p;
  if (s) {
    if (s->world) {
      lb_world_destroy(s->world);
    }
    free(s);
  }
}

static int lb_hand_init(lb_hand_state *s) {
  lb_world_def wd = lb_world_default_def();
  lb_humanoid_def hd = lb_humanoid_default_def();
  uint32_t asset = 0, n = 0;
  lb_entity e;
  lb_rig_c rig;
  lb_component_defaults(LB_RIG, &rig);
  if (lb_world_create(&wd, &s->world) != LB_OK ||
      lb_world_add_humanoid(s->world, &hd, &asset) != LB_OK ||
      lb_world_spawn(s->world, &e) != LB_OK) {
    return 0;
  }
  rig.asset = asset;
  if (lb_world_insert(s->world, e, LB_RIG, &rig) != LB_OK ||
      lb_world_step(s->world, 1.0f / 60.0f) != LB_OK) {
    return 0;
  }
  s->count = lb_skeleton_joint_count(s->world, asset);
  if (s->count == 0 || s->count > LB_HAND_MAXJ) {
    return 0;
  }
  for (uint32_t j = 0; j < s->count; ++j) {
    s->names[j] = lb_skeleton_joint_name(s->world, asset, j);
    s->parents[j] = (int16_t)lb_skeleton_joint_parent(s->world, asset, j);
  }
  memcpy(s->local, lb_rig_local_pose(s->world, e, &n), s->count * sizeof(lb_transform));
  memcpy(s->model, lb_rig_model_pose(s->world, e, &n), s->count * sizeof(lb_transform));
  lb_hand_find_job hj = lb_hand_find_default_job();
  hj.joint_count = s->count;
  hj.names = s->names;
  hj.parents = s->parents;
  hj.side = LB_HAND_RIGHT;
  if (lb_hand_find_job_run(&hj) != LB_OK || hj.info.finger_count != LB_FINGER_COUNT) {
    return 0;
  }
  s->info = hj.info;
  lb_palm_frame_job pj = lb_palm_frame_default_job();
  pj.hand = &s->info;
  pj.model = s->model;
  pj.joint_count = s->count;
  pj.parents = s->parents;
  if (lb_palm_frame_job_run(&pj) != LB_OK ||
      lb_hand_rig_build(&s->info, s->parents, s->local, s->count, &s->rig) != LB_OK ||
      lb_grip_pose_builtin("fist", &s->fist) != LB_OK) {
    return 0;
  }
  lb_shape_def d = lb_shape_default_def();
  d.type = LB_SHAPE_CYLINDER;
  d.direction = LB_AXIS_X;
  d.radius = 0.015f;
  d.height = 0.12f;
  d.center[1] = 0.015f + 0.01f;
  d.center[2] = 0.04f;
  if (lb_shape_resolve(&d, &pj.frame, &s->cylinder) != LB_OK) {
    return 0;
  }
  memcpy(s->pose, s->local, sizeof s->pose);
  memcpy(s->out, s->local, sizeof s->out);
  return 1;
}

static void lb_hand_job(lb_hand_state *s, lb_finger_pose_job *job) {
  *job = lb_finger_pose_default_job();
  job->rig = &s->rig;
  job->pose = &s->fist;
  job->joint_count = s->count;
  job->local = s->local;
  job->model = s->model;
  job->out_local = s->pose;
}

static lb_wrap_job lb_hand_wrap_job(lb_hand_state *s) {
  lb_wrap_job wrap = lb_wrap_default_job();
  wrap.hand = &s->info;
  wrap.joint_count = s->count;
  wrap.parents = s->parents;
  wrap.local = s->local;
  wrap.open_local = s->local; /* the rest is the open hand */
  wrap.pose_local = s->pose;
  wrap.model = s->model;
  wrap.shapes = &s->cylinder;
  wrap.shape_count = 1;
  wrap.out_local = s->out;
  wrap.margin = s->margin;
  return wrap;
}

static void *lb_hand_setup_stage(int stage) {
  lb_hand_state *s = calloc(1, sizeof *s);
  if (!s || !lb_hand_init(s)) {
    lb_hand_teardown(s);
    return NULL;
  }
  s->stage = stage;
  /* the wrap stage starts from the pose job's output, as the whole bench's wrap does */
  lb_finger_pose_job job;
  lb_hand_job(s, &job);
  if (lb_finger_pose_job_run(&job) != LB_OK) {
    lb_hand_teardown(s);
    return NULL;
  }
  s->margin = LB_WRAP_MARGIN_FRACTION * job.index_length;
  return s;
}

static void *lb_hand_setup(void) {
  return lb_hand_setup_stage(LB_GRIP_STAGE_ALL);
}

static void *lb_hand_setup_pose(void) {
  return lb_hand_setup_stage(LB_GRIP_STAGE_FIRST);
}

static void *lb_hand_setup_wrap(void) {
  return lb_hand_setup_stage(LB_GRIP_STAGE_SECOND);
}

/* How far the closest bone sample (midpoint and end of every bone) falls short of the
 * margin, metres (0 when none does). */
static double lb_hand_shortfall(const lb_hand_state *s, float margin) {
  static lb_transform m[LB_HAND_MAXJ];
  memcpy(m, s->model, s->count * sizeof(lb_transform));
  float worst = 0.0f;
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    const lb_finger_info *fi = &s->info.fingers[f];
    for (int k = 0; k <= fi->segment_count; ++k) {
      int j = k < fi->segment_count ? fi->joints[k] : fi->tip;
      if (j < 0) {
        continue;
      }
      lb_transform_mul(&m[s->parents[j]], &s->out[j], &m[j]);
      if (k == 0) {
        continue;
      }
      const float *a = m[s->parents[j]].t, *b = m[j].t;
      vec3 mid = {0.5f * (a[0] + b[0]), 0.5f * (a[1] + b[1]), 0.5f * (a[2] + b[2])};
      float d0 = lb_shape_distance(&s->cylinder, mid), d1 = lb_shape_distance(&s->cylinder, b);
      float d = d0 < d1 ? d0 : d1;
      worst = margin - d > worst ? margin - d : worst;
    }
  }
  return (double)worst;
}

static void lb_hand_run(void *p, uint32_t iters, lb_bench_stats *st) {
  lb_hand_state *s = p;
  for (uint32_t i = 0; i < iters; ++i) {
    if (s->stage != LB_GRIP_STAGE_SECOND) {
      lb_finger_pose_job job;
      lb_hand_job(s, &job);
      if (lb_finger_pose_job_run(&job) != LB_OK) {
        st->failures++;
        continue;
      }
      s->margin = LB_WRAP_MARGIN_FRACTION * job.index_length;
    }
    if (s->stage != LB_GRIP_STAGE_FIRST) {
      lb_wrap_job wrap = lb_hand_wrap_job(s);
      if (lb_wrap_job_run(&wrap) != LB_OK) {
        st->failures++;
        continue;
      }
      st->work += wrap.queries;
    }
  }
  /* the pose stage alone wraps nothing: its error is 0 */
  double e = iters && s->stage != LB_GRIP_STAGE_FIRST ? lb_hand_shortfall(s, s->margin) : 0.0;
  st->error_sum += e * (double)iters;
  st->error_max = e > st->error_max ? e : st->error_max;
  st->ops += iters;
}

const lb_bench lb_bench_grip_hand = {
    "grip.hand",
    "us",
    "one hand: finger pose job ('fist') + wrap job onto a 1.5 cm cylinder across the palm",
    20000,
    lb_hand_setup,
    lb_hand_run,
    lb_hand_teardown,
    "queries"};

const lb_bench lb_bench_grip_stage_pose = {"grip.stage.pose",
                                           "us",
                                           "grip.hand's finger pose job ('fist') only",
                                           20000,
                                           lb_hand_setup_pose,
                                           lb_hand_run,
                                           lb_hand_teardown};

const lb_bench lb_bench_grip_stage_wrap = {
    "grip.stage.wrap",
    "us",
    "grip.hand's wrap job only (from the pose job's output, computed once)",
    20000,
    lb_hand_setup_wrap,
    lb_hand_run,
    lb_hand_teardown,
    "queries"};

/* ---- grip.character -------------------------------------------------------------------- */

/* The grip lab's hold as it starts. */
static const char lb_grip_lab[] = LB_GRIP_LAB_HOLD;

#define LB_WARMUP_STEPS 60

typedef struct lb_character_state {
  lb_world *world;
  lb_scene *scene;
  lb_entity hero;
  uint32_t slot, joint_count, slots;
  lb_transform *local, *model, *world_xf; /* as they enter the Grip phase */
  int stage;                              /* LB_GRIP_STAGE_* */
  /* The fingers stage's start: the arms part's decisions and the pose and transforms it
   * leaves. */
  lb_grip_step step;
  lb_transform *arms_local, *arms_model, *arms_world_xf;
} lb_character_state;

static void lb_character_teardown(void *p) {
  lb_character_state *s = p;
  if (s) {
    if (s->scene) {
      lb_scene_destroy(s->world, s->scene);
    }
    if (s->world) {
      lb_world_destroy(s->world);
    }
    free(s->local);
    free(s->model);
    free(s->world_xf);
    free(s->arms_local);
    free(s->arms_model);
    free(s->arms_world_xf);
    free(s);
  }
}

static int lb_character_init(lb_character_state *s) {
  lb_world_def wd = lb_world_default_def();
  if (lb_world_create(&wd, &s->world) != LB_OK ||
      lb_scene_load(s->world, lb_grip_lab, sizeof lb_grip_lab - 1, &s->scene) != LB_OK) {
    return 0;
  }
  s->hero = lb_scene_entity(s->scene, "hero");
  int slot = lb_slot_of(s->world, s->hero);
  if (slot < 0) {
    return 0;
  }
  for (int i = 0; i < LB_WARMUP_STEPS; ++i) {
    if (lb_world_step(s->world, 1.0f / 60.0f) != LB_OK) {
      return 0;
    }
  }
  lb_world *w = s->world;
  s->slot = (uint32_t)slot;
  s->joint_count = lb_rig_of_slot(w, (uint32_t)slot)->joint_count;
  s->slots = w->high_water;
  s->local = malloc(s->joint_count * sizeof(lb_transform));
  s->model = malloc(s->joint_count * sizeof(lb_transform));
  s->world_xf = malloc(s->slots * sizeof(lb_transform));
  if (!s->local || !s->model || !s->world_xf) {
    return 0;
  }
  /* The state entering the Grip phase: lb_world_step's first phases (no animator, so
   * Animate copies the animation pose; no TwoBoneIK, so Reach does nothing). */
  lb_rig_instance *inst = lb_rig_of_slot(w, (uint32_t)slot);
  lb_world_run_phase(w, LB_PHASE_ANIMATE, 1.0f / 60.0f);
  lb_world_run_phase(w, LB_PHASE_MOVE, 1.0f / 60.0f);
  lb_world_run_phase(w, LB_PHASE_MODEL, 1.0f / 60.0f);
  lb_world_run_phase(w, LB_PHASE_REACH, 1.0f / 60.0f);
  memcpy(s->local, inst->local, s->joint_count * sizeof(lb_transform));
  memcpy(s->model, inst->model, s->joint_count * sizeof(lb_transform));
  memcpy(s->world_xf, w->world_xf, s->slots * sizeof(lb_transform));
  /* the arms part once, from that state: where the fingers stage starts */
  s->arms_local = malloc(s->joint_count * sizeof(lb_transform));
  s->arms_model = malloc(s->joint_count * sizeof(lb_transform));
  s->arms_world_xf = malloc(s->slots * sizeof(lb_transform));
  if (!s->arms_local || !s->arms_model || !s->arms_world_xf) {
    return 0;
  }
  s->step.walk = w->xf_stack;
  lb_grip_arms(w, s->slot, &s->step);
  memcpy(s->arms_local, inst->local, s->joint_count * sizeof(lb_transform));
  memcpy(s->arms_model, inst->model, s->joint_count * sizeof(lb_transform));
  memcpy(s->arms_world_xf, w->world_xf, s->slots * sizeof(lb_transform));
  return 1;
}

static void *lb_character_setup_stage(int stage) {
  lb_character_state *s = calloc(1, sizeof *s);
  if (!s || !lb_character_init(s)) {
    lb_character_teardown(s);
    return NULL;
  }
  s->stage = stage;
  return s;
}

static void *lb_character_setup(void) {
  return lb_character_setup_stage(LB_GRIP_STAGE_ALL);
}

static void *lb_character_setup_arms(void) {
  return lb_character_setup_stage(LB_GRIP_STAGE_FIRST);
}

static void *lb_character_setup_fingers(void) {
  return lb_character_setup_stage(LB_GRIP_STAGE_SECOND);
}

static void lb_character_run(void *p, uint32_t iters, lb_bench_stats *st) {
  lb_character_state *s = p;
  lb_world *w = s->world;
  lb_rig_instance *inst = lb_rig_of_slot(w, s->slot);
  bool fingers = s->stage == LB_GRIP_STAGE_SECOND;
  const lb_transform *local = fingers ? s->arms_local : s->local;
  const lb_transform *model = fingers ? s->arms_model : s->model;
  const lb_transform *world_xf = fingers ? s->arms_world_xf : s->world_xf;
  for (uint32_t i = 0; i < iters; ++i) {
    memcpy(inst->local, local, s->joint_count * sizeof(lb_transform));
    memcpy(inst->model, model, s->joint_count * sizeof(lb_transform));
    memcpy(w->world_xf, world_xf, s->slots * sizeof(lb_transform));
    if (s->stage == LB_GRIP_STAGE_ALL) {
      lb_world_run_phase(w, LB_PHASE_GRIP, 1.0f / 60.0f);
    } else if (s->stage == LB_GRIP_STAGE_FIRST) {
      lb_grip_step step;
      step.walk = w->xf_stack;
      lb_grip_arms(w, s->slot, &step);
    } else {
      lb_grip_fingers(w, s->slot, &s->step, 1.0f / 60.0f);
    }
  }
  if (s->stage == LB_GRIP_STAGE_FIRST) {
    st->ops += iters; /* the palm gaps come from the fingers part: no error here */
    return;
  }
  const lb_grip_holder_c *gh = lb_component_ptr(w, s->slot, LB_GRIP_HOLDER);
  double e = gh->main_distance > gh->support_distance ? gh->main_distance : gh->support_distance;
  if (!gh->main_reached || !gh->support_reached) {
    st->failures += iters;
  }
  st->error_sum += e * (double)iters;
  st->error_max = e > st->error_max ? e : st->error_max;
  st->ops += iters;
}

const lb_bench lb_bench_grip_character = {
    "grip.character",
    "us",
    "whole Grip phase, one character, two-handed rifle hold (grip-lab): restore pose + "
    "the Grip phase",
    20000,
    lb_character_setup,
    lb_character_run,
    lb_character_teardown};

const lb_bench lb_bench_grip_stage_arms = {
    "grip.stage.arms",
    "us",
    "grip.character's arms part only: plan, blend snapshots, main and support arm reach + IK",
    20000,
    lb_character_setup_arms,
    lb_character_run,
    lb_character_teardown};

const lb_bench lb_bench_grip_stage_fingers = {
    "grip.stage.fingers",
    "us",
    "grip.character's fingers part only: both hands' pose + wrap + weight, hands' "
    "local->model, palm gaps",
    20000,
    lb_character_setup_fingers,
    lb_character_run,
    lb_character_teardown};
