/* IK benchmarks on the procedural humanoid's right arm.
 *
 * Setup shared by both: the default humanoid (1.8 m: RightArm→RightForeArm 0.28 m,
 * RightForeArm→RightHand 0.25 m) with an animation pose that lowers the upper arm
 * 40 deg and bends the elbow 30 deg forward, so the solver works from the animated
 * bend side as it does in a game. The target walks a 1024-point Lissajous path in
 * front of the right shoulder, always within reach (0.19 .. 0.46 m away).
 *
 * ik.two_bone   one operation = what the Reach phase does for one arm:
 *               reset the 3 chain joints to the animation pose, local→model for
 *               them (3 lb_transform_mul), lb_two_bone_ik_job_run (validate + solve),
 *               write the corrected model rotations back as locals and redo
 *               local→model for the 3 joints (phases.c's sequence, minus the finger
 *               subtree). Counterpart of three.js CCDIKSolver.update() plus the
 *               matrixWorld updates of the same chain (tests/bench/three_ik.mjs).
 * world.step_ik one operation = lb_world_set(target Transform) + lb_world_step
 *               (animate 65 joints, local→model 65, entity transforms, Reach incl.
 *               the hand's 20 finger joints, 65 model matrices) + lb_world_get of
 *               the TwoBoneIK output. */
#include "bench.h"
#include "limber/limber.h"
#include <stdlib.h>
#include <string.h>

#define LB_ARM_LOWER_DEG 40.0f
#define LB_ELBOW_BEND_DEG 30.0f

void lb_bench_reach_path(const float center[3], float (*out)[3], uint32_t count) {
  for (uint32_t k = 0; k < count; ++k) {
    float a = 2.0f * LB_PI * (float)k / (float)count;
    out[k][0] = center[0] + 0.10f * lb_sin(a);
    out[k][1] = center[1] + 0.08f * lb_sin(2.0f * a + 0.5f);
    out[k][2] = center[2] + 0.06f * lb_cos(3.0f * a);
  }
}

/* Humanoid world with the bench animation pose on entity `*rig`. */
typedef struct lb_arm_setup {
  lb_world *world;
  lb_entity rig;
  uint32_t asset;
  int arm, fore, hand, shoulder;
  lb_transform *anim; /* full local animation pose */
  uint32_t joint_count;
} lb_arm_setup;

static void lb_arm_setup_free(lb_arm_setup *s) {
  if (s->world) {
    lb_world_destroy(s->world);
  }
  free(s->anim);
  memset(s, 0, sizeof *s);
}

static int lb_arm_setup_init(lb_arm_setup *s) {
  memset(s, 0, sizeof *s);
  lb_world_def wd = lb_world_default_def();
  if (lb_world_create(&wd, &s->world) != LB_OK) {
    return 0;
  }
  lb_humanoid_def hd = lb_humanoid_default_def();
  lb_rig_c rig;
  if (lb_world_add_humanoid(s->world, &hd, &s->asset) != LB_OK ||
      lb_world_spawn(s->world, &s->rig) != LB_OK) {
    return 0;
  }
  lb_component_defaults(LB_RIG, &rig);
  rig.asset = s->asset;
  if (lb_world_insert(s->world, s->rig, LB_RIG, &rig) != LB_OK) {
    return 0;
  }
  s->shoulder = lb_skeleton_find_joint(s->world, s->asset, "RightShoulder");
  s->arm = lb_skeleton_find_joint(s->world, s->asset, "RightArm");
  s->fore = lb_skeleton_find_joint(s->world, s->asset, "RightForeArm");
  s->hand = lb_skeleton_find_joint(s->world, s->asset, "RightHand");
  if (s->shoulder < 0 || s->arm < 0 || s->fore < 0 || s->hand < 0) {
    return 0;
  }
  const lb_transform *rest = lb_rig_local_pose(s->world, s->rig, &s->joint_count);
  s->anim = malloc(s->joint_count * sizeof(lb_transform));
  if (!rest || !s->anim) {
    return 0;
  }
  memcpy(s->anim, rest, s->joint_count * sizeof(lb_transform));
  const vec3 z = {0.0f, 0.0f, 1.0f}, y = {0.0f, 1.0f, 0.0f};
  lb_quat_from_axis_angle(z, LB_ARM_LOWER_DEG * LB_DEG2RAD, s->anim[s->arm].r);
  lb_quat_from_axis_angle(y, LB_ELBOW_BEND_DEG * LB_DEG2RAD, s->anim[s->fore].r);
  if (lb_rig_set_animation_pose(s->world, s->rig, s->anim, s->joint_count) != LB_OK) {
    return 0;
  }
  return lb_world_step(s->world, 0.0f) == LB_OK;
}

/* Path center: 0.30 m in front of, 0.14 m below and 0.08 m outside the RightArm
 * joint (model space = world space here: the rig has no Transform). */
static void lb_path_center(const lb_transform *arm_model, float out[3]) {
  out[0] = arm_model->t[0] - 0.08f;
  out[1] = arm_model->t[1] - 0.14f;
  out[2] = arm_model->t[2] + 0.30f;
}

static void lb_stats_add(lb_bench_stats *st, const float a[3], const float b[3]) {
  vec3 d = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  double e = (double)lb_vec3_length(d);
  st->error_sum += e;
  if (e > st->error_max) {
    st->error_max = e;
  }
}

/* ---- ik.two_bone ---------------------------------------------------------- */
typedef struct lb_ik_state {
  lb_arm_setup arm;
  lb_transform parent;  /* RightShoulder model transform */
  lb_transform anim[3]; /* animation locals of RightArm, RightForeArm, RightHand */
  float path[LB_BENCH_PATH_LEN][3];
  uint32_t cursor;
} lb_ik_state;

static void lb_ik_teardown(void *p) {
  lb_ik_state *s = p;
  if (s) {
    lb_arm_setup_free(&s->arm);
    free(s);
  }
}

static void *lb_ik_setup(void) {
  lb_ik_state *s = calloc(1, sizeof *s);
  if (!s || !lb_arm_setup_init(&s->arm)) {
    lb_ik_teardown(s);
    return NULL;
  }
  uint32_t n = 0;
  const lb_transform *model = lb_rig_model_pose(s->arm.world, s->arm.rig, &n);
  s->parent = model[s->arm.shoulder];
  s->anim[0] = s->arm.anim[s->arm.arm];
  s->anim[1] = s->arm.anim[s->arm.fore];
  s->anim[2] = s->arm.anim[s->arm.hand];
  float c[3];
  lb_path_center(&model[s->arm.arm], c);
  lb_bench_reach_path(c, s->path, LB_BENCH_PATH_LEN);
  return s;
}

/* local = inverse(parent model rotation) * wanted model rotation (phases.c). */
static void lb_local_rotation(const versor parent_r, const versor model_r, versor out) {
  versor inv;
  lb_quat_conj(parent_r, inv);
  lb_quat_mul(inv, model_r, out);
  lb_quat_normalize(out);
}

static void lb_ik_run(void *p, uint32_t iters, lb_bench_stats *st) {
  lb_ik_state *s = p;
  lb_transform local[3], model[3];
  for (uint32_t i = 0; i < iters; ++i) {
    const float *target = s->path[s->cursor++ & (LB_BENCH_PATH_LEN - 1u)];
    /* this step's animation pose, then local→model for the chain */
    memcpy(local, s->anim, sizeof local);
    lb_transform_mul(&s->parent, &local[0], &model[0]);
    lb_transform_mul(&model[0], &local[1], &model[1]);
    lb_transform_mul(&model[1], &local[2], &model[2]);
    lb_two_bone_ik_job job = lb_two_bone_ik_default_job();
    job.root = &model[0];
    job.mid = &model[1];
    job.tip = &model[2];
    job.target[0] = target[0];
    job.target[1] = target[1];
    job.target[2] = target[2];
    if (lb_two_bone_ik_job_run(&job) != LB_OK) {
      st->failures++;
      continue;
    }
    versor root_r, mid_r, tip_r;
    lb_quat_mul(job.root_correction, model[0].r, root_r);
    lb_quat_mul(job.mid_correction, model[1].r, mid_r);
    lb_quat_mul(job.tip_correction, model[2].r, tip_r);
    /* back to locals, parent first, refreshing model space as we go */
    lb_local_rotation(s->parent.r, root_r, local[0].r);
    lb_transform_mul(&s->parent, &local[0], &model[0]);
    lb_local_rotation(model[0].r, mid_r, local[1].r);
    lb_transform_mul(&model[0], &local[1], &model[1]);
    lb_local_rotation(model[1].r, tip_r, local[2].r);
    lb_transform_mul(&model[1], &local[2], &model[2]);
    lb_stats_add(st, model[2].t, target);
  }
  st->ops += iters;
}

const lb_bench lb_bench_ik_two_bone = {
    "ik.two_bone",
    "us",
    "reset 3-joint arm to anim pose + local->model + two-bone solve + write-back + local->model",
    100000,
    lb_ik_setup,
    lb_ik_run,
    lb_ik_teardown};

/* ---- world.step_ik -------------------------------------------------------- */
typedef struct lb_step_state {
  lb_arm_setup arm;
  lb_entity target;
  lb_transform_c target_xf;
  float path[LB_BENCH_PATH_LEN][3];
  uint32_t cursor;
} lb_step_state;

static void lb_step_teardown(void *p) {
  lb_step_state *s = p;
  if (s) {
    lb_arm_setup_free(&s->arm);
    free(s);
  }
}

static void *lb_step_setup(void) {
  lb_step_state *s = calloc(1, sizeof *s);
  if (!s || !lb_arm_setup_init(&s->arm)) {
    lb_step_teardown(s);
    return NULL;
  }
  uint32_t n = 0;
  const lb_transform *model = lb_rig_model_pose(s->arm.world, s->arm.rig, &n);
  float c[3];
  lb_path_center(&model[s->arm.arm], c);
  lb_bench_reach_path(c, s->path, LB_BENCH_PATH_LEN);
  lb_world *w = s->arm.world;
  lb_two_bone_ik_c ik;
  lb_component_defaults(LB_TRANSFORM, &s->target_xf);
  lb_component_defaults(LB_TWO_BONE_IK, &ik);
  memcpy(s->target_xf.position, s->path[0], sizeof(vec3));
  if (lb_world_spawn(w, &s->target) != LB_OK ||
      lb_world_insert(w, s->target, LB_TRANSFORM, &s->target_xf) != LB_OK) {
    lb_step_teardown(s);
    return NULL;
  }
  ik.target = s->target;
  ik.tip = lb_world_name(w, "RightHand");
  if (lb_world_insert(w, s->arm.rig, LB_TWO_BONE_IK, &ik) != LB_OK) {
    lb_step_teardown(s);
    return NULL;
  }
  return s;
}

static void lb_step_run(void *p, uint32_t iters, lb_bench_stats *st) {
  lb_step_state *s = p;
  lb_world *w = s->arm.world;
  lb_two_bone_ik_c out;
  for (uint32_t i = 0; i < iters; ++i) {
    const float *target = s->path[s->cursor++ & (LB_BENCH_PATH_LEN - 1u)];
    memcpy(s->target_xf.position, target, sizeof(vec3));
    if (lb_world_set(w, s->target, LB_TRANSFORM, &s->target_xf) != LB_OK ||
        lb_world_step(w, 1.0f / 60.0f) != LB_OK ||
        lb_world_get(w, s->arm.rig, LB_TWO_BONE_IK, &out) != LB_OK) {
      st->failures++;
      continue;
    }
    st->error_sum += (double)out.distance;
    if ((double)out.distance > st->error_max) {
      st->error_max = (double)out.distance;
    }
  }
  st->ops += iters;
}

const lb_bench lb_bench_world_step_ik = {
    "world.step_ik",
    "us",
    "set target Transform + full lb_world_step (65-joint humanoid, 1 TwoBoneIK) + get output",
    20000,
    lb_step_setup,
    lb_step_run,
    lb_step_teardown};
