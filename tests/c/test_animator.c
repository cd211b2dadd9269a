/* Animator: controller validation, transition timing and cross-fade weights, one-shot
 * return, blend-space weights and phase sync (planted toes), root motion over a loop and
 * applied to the Transform, parameter errors that change nothing, no allocation in steps,
 * the locomotion scene's hash. Uses the generated Mixamo mannequin (assets/rigs); run from
 * the repository root (ctest sets WORKING_DIRECTORY). */
#include "limber/limber.h"

#include <stdlib.h>
#include <string.h>

#include "../../wasm/src/modules.h"
#include "../../wasm/src/world/world_core.h" /* asset marks, alive slots */
#include "cJSON.h"
#include "test.h"

#define GLB "assets/rigs/mannequin-mixamo.glb"
#define SCENE "assets/scenes/locomotion.json"
#define DT (1.0f / 60.0f)

/* ---- fixtures -------------------------------------------------------------------------------- */

typedef struct fixture {
  lb_world *w;
  lb_gltf_added rig;
  lb_entity hero;
  uint32_t controller;
} fixture;

static bool load_glb(lb_world *w, lb_gltf_added *out) {
  size_t n = 0;
  uint8_t *bytes = lb_test_read_file(GLB, &n);
  if (!bytes) {
    return false;
  }
  lb_gltf_def d = lb_gltf_default_def();
  d.data = bytes;
  d.size = n;
  lb_result r = lb_world_add_gltf(w, &d, out);
  free(bytes);
  if (r != LB_OK) {
    fprintf(stderr, "glb: %s\n", lb_world_last_error(w));
  }
  return r == LB_OK;
}

static uint32_t add_controller(lb_world *w, uint32_t skeleton, const char *json) {
  uint32_t h = 0;
  lb_result r = lb_world_add_controller_json(w, skeleton, "test", json, strlen(json), &h);
  if (r != LB_OK) {
    fprintf(stderr, "controller: %s\n", lb_world_last_error(w));
  }
  return r == LB_OK ? h : 0;
}

/* A world with the mannequin, the controller `json` and a hero playing it. */
static bool setup(fixture *f, const char *json, bool apply_root_motion, const lb_world_def *def) {
  memset(f, 0, sizeof *f);
  if (lb_world_create(def, &f->w) != LB_OK || !load_glb(f->w, &f->rig)) {
    return false;
  }
  f->controller = add_controller(f->w, f->rig.skeleton, json);
  if (!f->controller) {
    return false;
  }
  lb_world_spawn(f->w, &f->hero);
  lb_transform_c t;
  lb_component_defaults(LB_TRANSFORM, &t);
  lb_rig_c rig = {f->rig.skeleton};
  lb_animator_c an;
  lb_component_defaults(LB_ANIMATOR, &an);
  an.controller = f->controller;
  an.apply_root_motion = apply_root_motion;
  bool ok = lb_world_insert(f->w, f->hero, LB_TRANSFORM, &t) == LB_OK &&
            lb_world_insert(f->w, f->hero, LB_RIG, &rig) == LB_OK &&
            lb_world_insert(f->w, f->hero, LB_ANIMATOR, &an) == LB_OK;
  if (!ok) {
    fprintf(stderr, "setup: %s\n", lb_world_last_error(f->w));
  }
  return ok;
}

static void teardown(fixture *f) {
  lb_world_destroy(f->w);
  f->w = NULL;
}

static lb_animator_status status(fixture *f) {
  lb_animator_status s;
  memset(&s, 0, sizeof s);
  LB_CHECK(lb_world_animator_status(f->w, f->hero, &s) == LB_OK);
  return s;
}

static const char *state_name(fixture *f) {
  static lb_animator_c an;
  LB_CHECK(lb_world_get(f->w, f->hero, LB_ANIMATOR, &an) == LB_OK);
  return lb_world_name_text(f->w, an.state);
}

static void set_float(fixture *f, const char *name, float v) {
  lb_result r = lb_world_set_animator_float(f->w, f->hero, name, v);
  if (r != LB_OK) {
    fprintf(stderr, "set %s: %s\n", name, lb_world_last_error(f->w));
  }
  LB_CHECK(r == LB_OK);
}

static void step(fixture *f, int n) {
  for (int i = 0; i < n; ++i) {
    LB_CHECK(lb_world_step(f->w, DT) == LB_OK);
  }
}

static float weight_sum(const lb_animator_status *s) {
  float sum = 0.0f;
  for (uint32_t k = 0; k < s->layer_count; ++k) {
    sum += s->layer_weight[k];
  }
  return sum;
}

static const char *LOCOMOTION =
    "{ \"rootJoint\": \"Hips\","
    "  \"parameters\": { \"MoveSpeed\": { \"type\": \"float\", \"default\": 0 },"
    "                    \"Vault\": { \"type\": \"trigger\" } },"
    "  \"states\": {"
    "    \"Locomotion\": { \"blend\": { \"parameter\": \"MoveSpeed\", \"points\": ["
    "       { \"clip\": \"idle\", \"value\": 0 }, { \"clip\": \"walk\", \"value\": 1.4 },"
    "       { \"clip\": \"run\", \"value\": 3.5 } ] } },"
    "    \"Vault\": { \"clip\": \"vault\", \"loop\": false, \"next\": \"Locomotion\","
    "                 \"nextFade\": 0.3 } },"
    "  \"transitions\": [ { \"from\": \"any\", \"to\": \"Vault\", \"fade\": 0.2,"
    "                       \"conditions\": [ { \"parameter\": \"Vault\" } ] } ] }";

/* ---- controller validation ---------------------------------------------------------------------
 */

typedef struct bad_case {
  const char *json;
  lb_result code;
  const char *mentions; /* the message names this */
} bad_case;

static void test_controller_errors(void) {
  lb_world *w = NULL;
  lb_gltf_added rig;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  if (!load_glb(w, &rig)) {
    LB_CHECK(false);
    lb_world_destroy(w);
    return;
  }
  /* A second skeleton without clips: 'walk' is a clip of the glTF skeleton only. */
  uint32_t humanoid = 0;
  lb_humanoid_def hd = lb_humanoid_default_def();
  LB_CHECK(lb_world_add_humanoid(w, &hd, &humanoid) == LB_OK);
  static const bad_case cases[] = {
      {"{ \"states\": { \"A\": { \"clip\": \"wlak\" } } }", LB_ERR_UNKNOWN_NAME, "'wlak'"},
      {"{ \"states\": { \"A\": { \"clip\": \"walk\" } },"
       "  \"transitions\": [ { \"from\": \"A\", \"to\": \"B\" } ] }",
       LB_ERR_UNKNOWN_NAME, "'B'"},
      {"{ \"parameters\": { \"S\": { \"type\": \"float\" } },"
       "  \"states\": { \"A\": { \"clip\": \"walk\" }, \"B\": { \"clip\": \"run\" } },"
       "  \"transitions\": [ { \"from\": \"A\", \"to\": \"B\","
       "     \"conditions\": [ { \"parameter\": \"Speed\", \"greater\": 1 } ] } ] }",
       LB_ERR_UNKNOWN_NAME, "'Speed'"},
      {"{ \"parameters\": { \"S\": { \"type\": \"float\" } },"
       "  \"states\": { \"L\": { \"blend\": { \"parameter\": \"S\", \"points\": ["
       "    { \"clip\": \"walk\", \"value\": 1.4 }, { \"clip\": \"idle\", \"value\": 0 } ] } } } }",
       LB_ERR_OUT_OF_RANGE, "ascending"},
      {"{ \"parameters\": { \"S\": { \"type\": \"bool\" } },"
       "  \"states\": { \"L\": { \"blend\": { \"parameter\": \"S\", \"points\": ["
       "    { \"clip\": \"idle\", \"value\": 0 }, { \"clip\": \"walk\", \"value\": 1 } ] } } } }",
       LB_ERR_INVALID_ARGUMENT, "must be a float"},
      {"{ \"parameters\": { \"On\": { \"type\": \"bool\" } },"
       "  \"states\": { \"A\": { \"clip\": \"walk\" }, \"B\": { \"clip\": \"run\" } },"
       "  \"transitions\": [ { \"from\": \"A\", \"to\": \"B\","
       "     \"conditions\": [ { \"parameter\": \"On\", \"greater\": 0 } ] } ] }",
       LB_ERR_INVALID_ARGUMENT, "'On' is a bool"},
      {"{ \"states\": { \"A\": { \"clip\": \"walk\", \"next\": \"B\" }, \"B\": { \"clip\": \"run\" "
       "} } }",
       LB_ERR_INVALID_ARGUMENT, "one-shot"},
      {"{ \"states\": { \"A\": { \"clip\": \"walk\" } }, \"transitions\": [ { \"from\": \"A\", "
       "\"to\": \"A\" } ] }",
       LB_ERR_INVALID_ARGUMENT, "to itself"},
      {"{ \"states\": { \"any\": { \"clip\": \"walk\" } } }", LB_ERR_UNKNOWN_NAME, "reserved"},
      {"{ \"states\": { \"A\": { \"clip\": \"walk\", \"speed\": 11 } } }", LB_ERR_OUT_OF_RANGE,
       "speed"},
      {"{ \"states\": { \"A\": { \"clip\": \"walk\", \"lop\": false } } }", LB_ERR_PARSE, "'lop'"},
      {"{ \"states\": { \"A\": { \"clip\": \"walk\" } }, \"entry\": \"B\" }", LB_ERR_UNKNOWN_NAME,
       "'B'"},
      {"{ \"states\": { \"A\": { \"clip\": \"walk\" } }, \"rootJoint\": \"Tail\" }",
       LB_ERR_UNKNOWN_NAME, "'Tail'"},
      {"{ \"states\": {} }", LB_ERR_PARSE, "at least one state"},
      {"{ \"states\": { \"A\": { \"clip\": \"walk\" } ", LB_ERR_PARSE, "malformed"},
      {"{ \"parameters\": { \"T\": { \"type\": \"trigger\" } },"
       "  \"states\": { \"A\": { \"clip\": \"walk\" }, \"B\": { \"clip\": \"run\" } },"
       "  \"transitions\": [ { \"from\": \"A\", \"to\": \"B\", \"fade\": -1 } ] }",
       LB_ERR_OUT_OF_RANGE, "fade"},
  };
  uint32_t before = lb_controller_state_count(w, LB_CONTROLLER_HANDLE_TAG | 1u);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    uint32_t h = 0xdeadu;
    lb_result r = lb_world_add_controller_json(w, rig.skeleton, "bad", cases[i].json,
                                               strlen(cases[i].json), &h);
    const char *msg = lb_world_last_error(w);
    printf("  bad controller %zu: %s\n", i, msg);
    LB_CHECK(r == cases[i].code);
    LB_CHECK(strstr(msg, cases[i].mentions) != NULL);
    LB_CHECK(h == 0xdeadu);
  }
  /* The clip exists, but on the glTF skeleton, not the humanoid's. */
  const char *other = "{ \"states\": { \"A\": { \"clip\": \"walk\" } } }";
  uint32_t h = 0;
  LB_CHECK(lb_world_add_controller_json(w, humanoid, "other", other, strlen(other), &h) ==
           LB_ERR_INVALID_ARGUMENT);
  printf("  clip of another skeleton: %s\n", lb_world_last_error(w));
  LB_CHECK(strstr(lb_world_last_error(w), "animates skeleton") != NULL);
  /* Nothing was added by any of them. */
  LB_CHECK(before == 0 && lb_controller_state_count(w, LB_CONTROLLER_HANDLE_TAG | 1u) == 0);
  uint32_t good = add_controller(w, rig.skeleton, LOCOMOTION);
  LB_CHECK(good == (LB_CONTROLLER_HANDLE_TAG | 1u));
  LB_CHECK(lb_controller_state_count(w, good) == 2 && lb_controller_param_count(w, good) == 2);
  uint32_t points = 0;
  float lo = 0, hi = 0;
  LB_CHECK(lb_controller_state_blend(w, good, 0, &points, &lo, &hi) == 0);
  LB_CHECK(points == 3 && lo == 0.0f && hi == 3.5f);
  LB_CHECK(lb_controller_state_blend(w, good, 1, &points, NULL, NULL) == -1 && points == 1);
  /* A skeleton handle is never taken for a controller. */
  LB_CHECK(lb_controller_state_count(w, rig.skeleton) == 0);
  lb_world_destroy(w);
}

/* ---- transitions --------------------------------------------------------------------------- */

static const char *IDLE_WALK =
    "{ \"parameters\": { \"Speed\": { \"type\": \"float\" } },"
    "  \"states\": { \"Idle\": { \"clip\": \"idle\" }, \"Walk\": { \"clip\": \"walk\" } },"
    "  \"transitions\": ["
    "    { \"from\": \"Idle\", \"to\": \"Walk\", \"fade\": 0.25,"
    "      \"conditions\": [ { \"parameter\": \"Speed\", \"greater\": 0.5 } ] },"
    "    { \"from\": \"Walk\", \"to\": \"Idle\", \"fade\": 0.25, \"exitTime\": 2,"
    "      \"conditions\": [ { \"parameter\": \"Speed\", \"less\": 0.5 } ] } ] }";

static void test_transition_timing(void) {
  fixture f;
  if (!setup(&f, IDLE_WALK, false, NULL)) {
    LB_CHECK(false);
    teardown(&f);
    return;
  }
  LB_CHECK(strcmp(state_name(&f), "Idle") == 0); /* entry state before the first step */
  step(&f, 30);
  LB_CHECK(strcmp(state_name(&f), "Idle") == 0);
  set_float(&f, "Speed", 1.0f);
  /* The step after the parameter changed is the first of the new state. */
  step(&f, 1);
  LB_CHECK(strcmp(state_name(&f), "Walk") == 0);
  lb_animator_status s = status(&f);
  LB_CHECK(s.previous == 0 && s.state == 1);
  LB_CHECK_NEAR(s.weight, DT / 0.25f, 1e-6);
  int fade_steps = 1;
  float max_sum_error = fabsf(weight_sum(&s) - 1.0f);
  float prev_idle_phase = s.previous_phase;
  bool idle_advanced = true;
  while (s.weight < 1.0f && fade_steps < 100) {
    step(&f, 1);
    ++fade_steps;
    s = status(&f);
    float e = fabsf(weight_sum(&s) - 1.0f);
    max_sum_error = e > max_sum_error ? e : max_sum_error;
    if (s.previous >= 0) {
      idle_advanced = idle_advanced && s.previous_phase > prev_idle_phase;
      prev_idle_phase = s.previous_phase;
      LB_CHECK_NEAR(s.weight, fade_steps * DT / 0.25f, 1e-5);
    }
  }
  printf("  cross-fade 0.25 s at 1/60 s: weight 1 after %d steps (expected %.1f), "
         "max |sum of weights - 1| = %.2g, the fading-out state kept playing: %s\n",
         fade_steps, 0.25 / (double)DT, (double)max_sum_error, idle_advanced ? "yes" : "no");
  LB_CHECK(abs(fade_steps - 15) <= 1);
  LB_CHECK(max_sum_error < 1e-6f);
  LB_CHECK(idle_advanced);
  LB_CHECK(s.previous == -1 && s.layer_count == 1);
  /* Walk -> Idle needs Speed < 0.5 and two walk cycles played (exit time 2). */
  set_float(&f, "Speed", 0.0f);
  int waited = 0;
  while (strcmp(state_name(&f), "Walk") == 0 && waited < 400) {
    lb_animator_status before = status(&f);
    step(&f, 1);
    ++waited;
    if (strcmp(state_name(&f), "Idle") == 0) {
      printf("  exit time 2: left Walk at normalised time %.4f (after %d steps)\n",
             (double)before.normalized_time, waited);
      LB_CHECK(before.normalized_time >= 2.0f);
      LB_CHECK(before.normalized_time < 2.0f + DT / 1.0f + 1e-5f);
    }
  }
  LB_CHECK(strcmp(state_name(&f), "Idle") == 0);
  teardown(&f);
}

static void test_one_shot(void) {
  fixture f;
  if (!setup(&f, LOCOMOTION, true, NULL)) {
    LB_CHECK(false);
    teardown(&f);
    return;
  }
  set_float(&f, "MoveSpeed", 1.4f);
  step(&f, 40);
  LB_CHECK(lb_world_set_animator_trigger(f.w, f.hero, "Vault", true) == LB_OK);
  step(&f, 1);
  LB_CHECK(strcmp(state_name(&f), "Vault") == 0);
  float trig = 1.0f;
  lb_anim_param_type type = LB_ANIM_PARAM_FLOAT;
  LB_CHECK(lb_world_get_animator_param(f.w, f.hero, "Vault", &trig, &type) == LB_OK);
  LB_CHECK(trig == 0.0f && type == LB_ANIM_PARAM_TRIGGER); /* consumed by the transition */
  int in_vault = 1;
  while (strcmp(state_name(&f), "Vault") == 0 && in_vault < 200) {
    step(&f, 1);
    ++in_vault;
  }
  /* The return fires once the remaining time (1.2 s clip) is <= nextFade 0.3 s: after 0.9 s
   * of vault (54 steps), in the 55th step. */
  lb_animator_status s = status(&f);
  printf("  one-shot vault (1.2 s, nextFade 0.3 s): back in '%s' after %d steps (expected 55); "
         "vault phase when the return started %.4f\n",
         state_name(&f), in_vault, (double)s.previous_phase);
  LB_CHECK(strcmp(state_name(&f), "Locomotion") == 0);
  LB_CHECK(abs(in_vault - 55) <= 1);
  int fade = 1;
  while (s.weight < 1.0f && fade < 100) {
    step(&f, 1);
    ++fade;
    s = status(&f);
    LB_CHECK_NEAR(weight_sum(&s), 1.0, 1e-6);
  }
  printf("  return fade 0.3 s: settled after %d steps (expected 18)\n", fade);
  LB_CHECK(abs(fade - 18) <= 1);
  teardown(&f);
}

/* ---- blend space ----------------------------------------------------------------------------- */

static void test_blend_weights(void) {
  fixture f;
  if (!setup(&f, LOCOMOTION, true, NULL)) {
    LB_CHECK(false);
    teardown(&f);
    return;
  }
  uint32_t idle = lb_world_find_clip(f.w, f.rig.skeleton, "idle");
  uint32_t walk = lb_world_find_clip(f.w, f.rig.skeleton, "walk");
  uint32_t run = lb_world_find_clip(f.w, f.rig.skeleton, "run");
  const struct {
    float speed;
    uint32_t a, b;
    float wa;
  } cases[] = {{-1.0f, idle, 0, 1.0f}, {0.0f, idle, 0, 1.0f},    {0.7f, idle, walk, 0.5f},
               {1.4f, walk, 0, 1.0f},  {2.45f, walk, run, 0.5f}, {3.0f, walk, run, 0.5f / 2.1f},
               {3.5f, run, 0, 1.0f},   {9.0f, run, 0, 1.0f}};
  float max_phase_gap = 0.0f;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    set_float(&f, "MoveSpeed", cases[i].speed);
    step(&f, 7);
    lb_animator_status s = status(&f);
    uint32_t n = cases[i].b ? 2u : 1u;
    LB_CHECK(s.layer_count == n);
    LB_CHECK(s.layer_clip[0] == cases[i].a);
    LB_CHECK_NEAR(s.layer_weight[0], cases[i].wa, 1e-6);
    LB_CHECK_NEAR(weight_sum(&s), 1.0, 1e-6);
    if (n == 2) {
      LB_CHECK(s.layer_clip[1] == cases[i].b);
      /* Both clips at one normalised phase. */
      float pa = s.layer_time[0] / lb_world_clip(f.w, s.layer_clip[0])->duration;
      float pb = s.layer_time[1] / lb_world_clip(f.w, s.layer_clip[1])->duration;
      float gap = fabsf(pa - pb);
      max_phase_gap = gap > max_phase_gap ? gap : max_phase_gap;
    }
  }
  printf("  blend space weights exact (1e-6); max phase gap between blended clips %.2g\n",
         (double)max_phase_gap);
  LB_CHECK(max_phase_gap < 1e-6f);
  /* Phase rate: at 2.45 m/s the cycle is lerp(1.0, 0.7, 0.5) = 0.85 s. */
  set_float(&f, "MoveSpeed", 2.45f);
  step(&f, 1);
  float p0 = status(&f).normalized_time;
  step(&f, 51);
  float cycles = status(&f).normalized_time - p0;
  printf("  phase rate at 2.45 m/s: %.6f cycles in 0.85 s\n", (double)cycles);
  LB_CHECK_NEAR(cycles, 1.0, 1e-5);
  teardown(&f);
}

/* World position of a joint of the hero after the last step. */
static void joint_world(fixture *f, int joint, vec3 out) {
  uint32_t n = 0;
  const lb_transform *model = lb_rig_model_pose(f->w, f->hero, &n);
  lb_transform root;
  lb_world_entity_transform(f->w, f->hero, &root);
  lb_transform_point(&root, model[joint].t, out);
}

/* Largest movement of the left toe over the steps whose phase lies in [from, to] (where both
 * blended clips have it planted: walk [0.1, 0.567], run [0.048, 0.286] of the cycle, from the
 * clips' toePlanted extras). The phases visited go to `phases` (at most 64). */
static float toe_drift(fixture *f, float speed, float from, float to, float *phases, int *count) {
  int toe = lb_skeleton_find_joint(f->w, f->rig.skeleton, "LeftToeBase");
  set_float(f, "MoveSpeed", speed);
  step(f, 120);
  float drift = 0.0f;
  vec3 start = {0, 0, 0};
  bool in = false, done = false;
  *count = 0;
  for (int i = 0; i < 400 && !done; ++i) {
    step(f, 1);
    float ph = status(f).phase;
    bool inside = ph >= from && ph <= to && *count < 64;
    if (inside) {
      vec3 p;
      joint_world(f, toe, p);
      if (!in) {
        memcpy(start, p, sizeof start);
      }
      float d =
          sqrtf((p[0] - start[0]) * (p[0] - start[0]) + (p[1] - start[1]) * (p[1] - start[1]) +
                (p[2] - start[2]) * (p[2] - start[2]));
      drift = d > drift ? d : drift;
      phases[(*count)++] = ph;
    }
    done = in && !inside;
    in = inside;
  }
  LB_CHECK(*count >= 4);
  return drift;
}

/* The same toe drift without the animator: the two clips' poses blended directly
 * (lb_blend_job) at the given phases, the root's horizontal translation averaged with the
 * same weights. */
static float blend_drift(fixture *f, const char *a, const char *b, float wb, const float *phases,
                         int count) {
  lb_world *w = f->w;
  uint32_t jc = lb_skeleton_joint_count(w, f->rig.skeleton);
  int toe = lb_skeleton_find_joint(w, f->rig.skeleton, "LeftToeBase");
  uint32_t clips[2] = {lb_world_find_clip(w, f->rig.skeleton, a),
                       lb_world_find_clip(w, f->rig.skeleton, b)};
  float weights[2] = {1.0f - wb, wb};
  lb_transform *buf = malloc(4u * jc * sizeof *buf);
  const lb_transform *rest = lb_world_skeleton_rest(w, f->rig.skeleton, NULL);
  float drift = 0.0f;
  vec3 start = {0, 0, 0};
  for (int i = 0; i < count; ++i) {
    float x = 0.0f, z = 0.0f;
    lb_blend_layer layers[2];
    for (int k = 0; k < 2; ++k) {
      lb_transform *pose = buf + (size_t)k * jc;
      float time = phases[i] * lb_world_clip(w, clips[k])->duration;
      LB_CHECK(lb_world_sample_clip(w, clips[k], time, true, pose, jc) == LB_OK);
      x += weights[k] * pose[0].t[0];
      z += weights[k] * pose[0].t[2];
      pose[0].t[0] = pose[0].t[2] = 0.0f;
      layers[k].pose = pose;
      layers[k].weight = weights[k];
      layers[k].joint_weights = NULL;
    }
    lb_blend_job job = lb_blend_default_job();
    job.layers = layers;
    job.layer_count = 2;
    job.rest = rest;
    job.joint_count = jc;
    job.output = buf + 2u * jc;
    LB_CHECK(lb_blend_job_run(&job) == LB_OK);
    lb_transform *model = buf + 3u * jc;
    for (uint32_t j = 0; j < jc; ++j) {
      int p = lb_skeleton_joint_parent(w, f->rig.skeleton, j);
      if (p < 0) {
        model[j] = job.output[j];
      } else {
        lb_transform_mul(&model[p], &job.output[j], &model[j]);
      }
    }
    vec3 t = {model[toe].t[0] + x, model[toe].t[1], model[toe].t[2] + z};
    if (i == 0) {
      memcpy(start, t, sizeof start);
    }
    float d = sqrtf((t[0] - start[0]) * (t[0] - start[0]) + (t[1] - start[1]) * (t[1] - start[1]) +
                    (t[2] - start[2]) * (t[2] - start[2]));
    drift = d > drift ? d : drift;
  }
  free(buf);
  return drift;
}

static void test_planted_toes(void) {
  fixture f;
  if (!setup(&f, LOCOMOTION, true, NULL)) {
    LB_CHECK(false);
    teardown(&f);
    return;
  }
  const float margin = 1.0f / 60.0f;
  const struct {
    float speed;
    const char *a, *b;
    float wb, from, to;
  } cases[] = {
      {1.4f, "walk", "run", 0.0f, 0.1f + margin, 0.567f - margin},
      {3.5f, "walk", "run", 1.0f, 0.048f + margin, 0.286f - margin},
      {1.8f, "walk", "run", 0.4f / 2.1f, 0.1f + margin, 0.286f - margin},
      {2.45f, "walk", "run", 0.5f, 0.1f + margin, 0.286f - margin},
      {3.1f, "walk", "run", 1.7f / 2.1f, 0.1f + margin, 0.286f - margin},
      {0.7f, "idle", "walk", 0.5f, 0.1f + margin, 0.567f - margin},
  };
  float worst_extra = 0.0f;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    float phases[64];
    int count = 0;
    float drift = toe_drift(&f, cases[i].speed, cases[i].from, cases[i].to, phases, &count);
    float direct = blend_drift(&f, cases[i].a, cases[i].b, cases[i].wb, phases, count);
    float extra = drift - direct;
    worst_extra = extra > worst_extra ? extra : worst_extra;
    printf("  planted left toe at %.2f m/s (%s/%s %.2f), %d steps: drifts %.2f mm; the clips' "
           "poses blended directly at one phase: %.2f mm\n",
           (double)cases[i].speed, cases[i].a, cases[i].b, (double)cases[i].wb, count,
           (double)drift * 1e3, (double)direct * 1e3);
    LB_CHECK(drift < 0.025f);
  }
  /* The animator adds nothing measurable to the pose blend: the rest is the joint-rotation
   * blend of these clips (and their own 30 Hz keys, ~2 mm). */
  printf("  animator drift minus direct blend drift: at most %.3f mm\n", (double)worst_extra * 1e3);
  LB_CHECK(worst_extra < 5e-4f);
  teardown(&f);
}

/* ---- root motion ----------------------------------------------------------------------------- */

static void test_root_motion(void) {
  fixture f;
  if (!setup(&f, LOCOMOTION, false, NULL)) {
    LB_CHECK(false);
    teardown(&f);
    return;
  }
  /* One walk loop (1 s) as per-step requests, composed in the character frame. */
  set_float(&f, "MoveSpeed", 1.4f);
  float pos[3] = {0, 0, 0}, heading = 0.0f, min_step = 1e9f, max_step = 0.0f;
  for (int i = 0; i < 90; ++i) { /* 1.5 loops: the seam is crossed once */
    step(&f, 1);
    lb_root_motion m;
    LB_CHECK(lb_world_root_motion(f.w, f.hero, &m) == LB_OK);
    float s = sinf(heading), c = cosf(heading);
    if (i < 60) {
      pos[0] += c * m.translation[0] + s * m.translation[2];
      pos[1] += m.translation[1];
      pos[2] += -s * m.translation[0] + c * m.translation[2];
      heading += m.yaw;
    }
    float len = sqrtf(m.translation[0] * m.translation[0] + m.translation[2] * m.translation[2]);
    min_step = len < min_step ? len : min_step;
    max_step = len > max_step ? len : max_step;
  }
  float dist = sqrtf(pos[0] * pos[0] + pos[2] * pos[2]);
  printf("  root motion over one walk loop: %.6f m (clip displacement 1.4 m), error %.2g m, "
         "net yaw %.2g rad; per step %.4f .. %.4f m across the seam (no unwinding)\n",
         (double)dist, fabs((double)dist - 1.4), (double)heading, (double)min_step,
         (double)max_step);
  LB_CHECK_NEAR(dist, 1.4, 1e-3);
  LB_CHECK(pos[1] == 0.0f);
  LB_CHECK(min_step > 0.015f && max_step < 0.035f);
  /* applyRootMotion off: the Transform stays, the pose carries the hips forward. */
  lb_transform_c t;
  LB_CHECK(lb_world_get(f.w, f.hero, LB_TRANSFORM, &t) == LB_OK);
  LB_CHECK(t.position[0] == 0.0f && t.position[2] == 0.0f);
  teardown(&f);

  /* applyRootMotion on: the entity walks 1.4 m per walk second; the hips stay over it. */
  if (!setup(&f, LOCOMOTION, true, NULL)) {
    LB_CHECK(false);
    teardown(&f);
    return;
  }
  set_float(&f, "MoveSpeed", 1.4f);
  step(&f, 60);
  LB_CHECK(lb_world_get(f.w, f.hero, LB_TRANSFORM, &t) == LB_OK);
  float moved = sqrtf(t.position[0] * t.position[0] + t.position[2] * t.position[2]);
  uint32_t n = 0;
  const lb_transform *local = lb_rig_local_pose(f.w, f.hero, &n);
  printf("  applyRootMotion: entity moved %.6f m in 1 s of walk (error %.2g m), at (%.4f, %.4f); "
         "hips local x/z %.2g / %.2g m\n",
         (double)moved, fabs((double)moved - 1.4), (double)t.position[0], (double)t.position[2],
         (double)local[0].t[0], (double)local[0].t[2]);
  LB_CHECK_NEAR(moved, 1.4, 1e-3);
  LB_CHECK(t.position[1] == 0.0f);
  LB_CHECK(fabsf(local[0].t[0]) < 1e-6f && fabsf(local[0].t[2]) < 1e-6f);
  step(&f, 60);
  LB_CHECK(lb_world_get(f.w, f.hero, LB_TRANSFORM, &t) == LB_OK);
  moved = sqrtf(t.position[0] * t.position[0] + t.position[2] * t.position[2]);
  printf("  after 2 s: %.6f m\n", (double)moved);
  LB_CHECK_NEAR(moved, 2.8, 2e-3);
  teardown(&f);
}

/* rootMotionVertical: the vault's rise and fall move the entity instead of the hips. */
static void test_vertical_root_motion(void) {
  fixture f;
  if (!setup(&f, LOCOMOTION, true, NULL)) {
    LB_CHECK(false);
    teardown(&f);
    return;
  }
  lb_animator_c an;
  LB_CHECK(lb_world_get(f.w, f.hero, LB_ANIMATOR, &an) == LB_OK);
  an.root_motion_vertical = 1;
  LB_CHECK(lb_world_set(f.w, f.hero, LB_ANIMATOR, &an) == LB_OK);
  step(&f, 10);
  LB_CHECK(lb_world_set_animator_trigger(f.w, f.hero, "Vault", true) == LB_OK);
  float top = 0.0f, hips_y = 0.0f;
  lb_transform_c t;
  for (int i = 0; i < 40; ++i) { /* 0.67 s into the vault: the fade-in is over, the body high */
    step(&f, 1);
    LB_CHECK(lb_world_get(f.w, f.hero, LB_TRANSFORM, &t) == LB_OK);
    top = t.position[1] > top ? t.position[1] : top;
    hips_y = lb_rig_local_pose(f.w, f.hero, NULL)[0].t[1];
  }
  step(&f, 80); /* the vault is over and faded back to Locomotion (idle) */
  LB_CHECK(lb_world_get(f.w, f.hero, LB_TRANSFORM, &t) == LB_OK);
  printf("  rootMotionVertical: the entity rose %.3f m during the vault (hips local y %.2g m), "
         "ends at y = %.4f m, %.3f m ahead\n",
         (double)top, (double)hips_y, (double)t.position[1], (double)t.position[2]);
  LB_CHECK(top > 0.2f);
  LB_CHECK(fabsf(hips_y) < 1e-6f);
  LB_CHECK(fabsf(t.position[1]) < 0.05f);
  /* Less than the clip's 2.1 m: the fades in (0.2 s) and out (0.3 s) weight the vault's motion. */
  LB_CHECK(t.position[2] > 1.6f && t.position[2] < 2.1f);
  teardown(&f);
}

/* ---- errors ------------------------------------------------------------------------------------
 */

static void test_errors(void) {
  fixture f;
  if (!setup(&f, LOCOMOTION, true, NULL)) {
    LB_CHECK(false);
    teardown(&f);
    return;
  }
  set_float(&f, "MoveSpeed", 1.0f);
  step(&f, 10);
  lb_world *w = f.w;
  char label[32];
  snprintf(label, sizeof label, "entity %u", (unsigned)((f.hero & LB_MAX_ENTITIES) - 1u));
  LB_CHECK(lb_world_set_animator_float(w, f.hero, "Speed", 2.0f) == LB_ERR_UNKNOWN_NAME);
  printf("  %s\n", lb_world_last_error(w));
  LB_CHECK(strstr(lb_world_last_error(w), "'Speed'") && strstr(lb_world_last_error(w), label));
  LB_CHECK(lb_world_set_animator_bool(w, f.hero, "MoveSpeed", true) == LB_ERR_INVALID_ARGUMENT);
  printf("  %s\n", lb_world_last_error(w));
  LB_CHECK(strstr(lb_world_last_error(w), "is a float, not a bool") != NULL);
  LB_CHECK(lb_world_set_animator_float(w, f.hero, "MoveSpeed", NAN) == LB_ERR_NOT_FINITE);
  LB_CHECK(lb_world_set_animator_float(w, f.hero, "MoveSpeed", INFINITY) == LB_ERR_NOT_FINITE);
  LB_CHECK(lb_world_set_animator_float(w, f.hero, "Vault", 1.0f) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_world_set_animator_float(w, f.hero, NULL, 1.0f) == LB_ERR_UNKNOWN_NAME);
  lb_entity other;
  lb_world_spawn(w, &other);
  LB_CHECK(lb_world_set_animator_float(w, other, "MoveSpeed", 1.0f) == LB_ERR_MISSING_COMPONENT);
  printf("  %s\n", lb_world_last_error(w));
  LB_CHECK(lb_world_set_animator_trigger(w, 0x7777u, "Vault", true) == LB_ERR_STALE_ENTITY);
  lb_root_motion m;
  LB_CHECK(lb_world_root_motion(w, other, &m) == LB_ERR_MISSING_COMPONENT);
  /* Inserting: no Rig, a skeleton handle as controller, a controller of another skeleton. */
  lb_animator_c an;
  lb_component_defaults(LB_ANIMATOR, &an);
  an.controller = f.controller;
  LB_CHECK(lb_world_insert(w, other, LB_ANIMATOR, &an) == LB_ERR_MISSING_COMPONENT);
  printf("  %s\n", lb_world_last_error(w));
  uint32_t humanoid = 0;
  lb_humanoid_def hd = lb_humanoid_default_def();
  LB_CHECK(lb_world_add_humanoid(w, &hd, &humanoid) == LB_OK);
  lb_rig_c rig = {humanoid};
  LB_CHECK(lb_world_insert(w, other, LB_RIG, &rig) == LB_OK);
  LB_CHECK(lb_world_insert(w, other, LB_ANIMATOR, &an) == LB_ERR_INVALID_ARGUMENT);
  printf("  %s\n", lb_world_last_error(w));
  an.controller = f.rig.skeleton;
  LB_CHECK(lb_world_insert(w, other, LB_ANIMATOR, &an) == LB_ERR_UNKNOWN_NAME);
  an.controller = f.controller;
  an.speed = -1.0f;
  LB_CHECK(lb_world_insert(w, f.hero, LB_ANIMATOR, &an) == LB_ERR_OUT_OF_RANGE);
  an.speed = NAN;
  LB_CHECK(lb_world_set(w, f.hero, LB_ANIMATOR, &an) == LB_ERR_NOT_FINITE);
  LB_CHECK(!lb_world_has(w, other, LB_ANIMATOR));
  /* Nothing changed: same parameter, same state, same next step as an untouched twin. */
  float v = 0.0f;
  LB_CHECK(lb_world_get_animator_param(w, f.hero, "MoveSpeed", &v, NULL) == LB_OK && v == 1.0f);
  LB_CHECK(lb_world_get_animator_param(w, f.hero, "Vault", &v, NULL) == LB_OK && v == 0.0f);
  LB_CHECK(strcmp(state_name(&f), "Locomotion") == 0);
  fixture twin;
  LB_CHECK(setup(&twin, LOCOMOTION, true, NULL));
  set_float(&twin, "MoveSpeed", 1.0f);
  step(&twin, 11);
  step(&f, 1);
  /* `other` has a rig too in f: compare the hero's pose only. */
  uint32_t n1 = 0, n2 = 0;
  const lb_transform *a = lb_rig_model_pose(f.w, f.hero, &n1);
  const lb_transform *b = lb_rig_model_pose(twin.w, twin.hero, &n2);
  LB_CHECK(n1 == n2 && lb_test_same_transforms(a, b, n1));
  teardown(&twin);
  /* An update with the same controller keeps parameters and playback; remove frees. */
  lb_component_defaults(LB_ANIMATOR, &an);
  an.controller = f.controller;
  an.speed = 0.5f;
  LB_CHECK(lb_world_set(w, f.hero, LB_ANIMATOR, &an) == LB_OK);
  LB_CHECK(lb_world_get_animator_param(w, f.hero, "MoveSpeed", &v, NULL) == LB_OK && v == 1.0f);
  LB_CHECK(lb_world_remove(w, f.hero, LB_ANIMATOR) == LB_OK);
  LB_CHECK(lb_world_root_motion(w, f.hero, &m) == LB_ERR_MISSING_COMPONENT);
  step(&f, 1); /* the rig falls back to the external (rest) pose */
  teardown(&f);
}

/* ---- allocation and determinism ---------------------------------------------------------------
 */

static char *scene_text(size_t *len) {
  return (char *)lb_test_read_file(SCENE, len);
}

static lb_result load_scene(lb_world *w, const char *json, size_t len, lb_scene **sc) {
  char list[256];
  size_t need = 0;
  LB_CHECK(lb_scene_files(json, len, list, sizeof list, &need) == LB_OK);
  LB_CHECK(strcmp(list, GLB "\n") == 0);
  size_t n = 0;
  uint8_t *bytes = lb_test_read_file(GLB, &n);
  lb_scene_file file = {GLB, bytes, n};
  lb_result r = lb_scene_load_files(w, json, len, &file, 1, sc);
  free(bytes);
  return r;
}

static void test_no_allocation_in_steps(void) {
  lb_test_counter c = {0};
  lb_world_def def = lb_test_counting_def(&c);
  lb_world *w = NULL;
  lb_scene *sc = NULL;
  size_t len = 0;
  char *json = scene_text(&len);
  LB_CHECK(json && lb_world_create(&def, &w) == LB_OK);
  LB_CHECK(load_scene(w, json, len, &sc) == LB_OK);
  for (int i = 0; i < 10; ++i) {
    LB_CHECK(lb_scene_step(w, sc, DT) == LB_OK);
  }
  size_t before = c.allocs;
  /* The rest of the timeline: speeds, the vault and its return, parameter writes. */
  lb_entity hero = lb_scene_entity(sc, "hero");
  for (int i = 10; i < 600; ++i) {
    LB_CHECK(lb_scene_step(w, sc, DT) == LB_OK);
    if (i % 50 == 0) {
      LB_CHECK(lb_world_set_animator_float(w, hero, "MoveSpeed", (float)(i % 7) * 0.5f) == LB_OK);
    }
  }
  printf("  allocations: %zu at load, %zu during 590 steps (transitions, vault, params)\n", before,
         c.allocs - before);
  LB_CHECK(c.allocs == before);
  lb_scene_destroy(w, sc);
  lb_world_destroy(w);
  LB_CHECK(c.allocs == c.frees);
  free(json);
}

static void test_scene_hash(void) {
  size_t len = 0, hlen = 0;
  char *json = scene_text(&len);
  char *hashes = (char *)lb_test_read_file("tests/expected-hashes.json", &hlen);
  cJSON *exp = hashes ? cJSON_Parse(hashes) : NULL;
  const cJSON *want = cJSON_GetObjectItemCaseSensitive(exp, "locomotion.json@480");
  uint64_t h[2] = {0, 0};
  for (int run = 0; run < 2; ++run) {
    lb_world *w = NULL;
    lb_scene *sc = NULL;
    LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
    LB_CHECK(load_scene(w, json, len, &sc) == LB_OK);
    for (int i = 0; i < 480; ++i) {
      LB_CHECK(lb_scene_step(w, sc, DT) == LB_OK);
    }
    h[run] = lb_world_hash(w);
    if (run == 0) {
      /* The walk and run clips do not turn overall: their hip sway stays in the pose, so
       * the character keeps its heading (+Z) instead of veering by the sway at a start. */
      lb_transform root;
      LB_CHECK(lb_world_entity_transform(w, lb_scene_entity(sc, "hero"), &root) == LB_OK);
      printf("  locomotion: %.3f m forward, %.4f m sideways\n", (double)root.t[2],
             (double)root.t[0]);
      LB_CHECK(root.t[2] > 10.0f);
      LB_CHECK(root.t[0] < 0.02f && root.t[0] > -0.02f);
    }
    lb_scene_destroy(w, sc);
    lb_world_destroy(w);
  }
  char text[17];
  snprintf(text, sizeof text, "%016llx", (unsigned long long)h[0]);
  printf("  locomotion.json@480: %s twice; expected %s\n", text,
         cJSON_IsString(want) ? want->valuestring : "(missing)");
  LB_CHECK(h[0] == h[1]);
  LB_CHECK(cJSON_IsString(want) && strcmp(want->valuestring, text) == 0);
  cJSON_Delete(exp);
  free(hashes);
  free(json);
}

static int alive_entities(const lb_world *w) {
  int n = 0;
  for (uint32_t s = 0; s < w->high_water; ++s) {
    n += w->alive[s] != 0;
  }
  return n;
}

/* A scene that fails after its assets (a glTF rig with clips, a controller) and some
 * entities were added leaves the world as it was: hash, entities, every module's assets. */
static void test_failed_load_changes_nothing(void) {
  lb_world *w = NULL;
  lb_scene *sc = NULL, *bad = NULL;
  size_t len = 0;
  char *json = scene_text(&len);
  LB_CHECK(json && lb_world_create(NULL, &w) == LB_OK);
  LB_CHECK(load_scene(w, json, len, &sc) == LB_OK);
  for (int i = 0; i < 5; ++i) {
    LB_CHECK(lb_scene_step(w, sc, DT) == LB_OK);
  }
  uint64_t hash = lb_world_hash(w);
  int entities = alive_entities(w);
  uint32_t clips = lb_world_clip_count(w);
  lb_world_mark before, after;
  lb_world_assets_mark(w, &before);
  /* The same scene with an out-of-range Animator field on its last entity. */
  const char *key = "\"applyRootMotion\": true";
  char *at = strstr(json, key);
  LB_CHECK(at != NULL);
  size_t head = (size_t)(at - json);
  char *broken = malloc(len + 64);
  memcpy(broken, json, head);
  int n = snprintf(broken + head, 64, "\"speed\": 99, ");
  memcpy(broken + head + n, at, len - head);
  size_t blen = len + (size_t)n;
  LB_CHECK(load_scene(w, broken, blen, &bad) == LB_ERR_OUT_OF_RANGE && bad == NULL);
  LB_CHECK(strstr(lb_world_last_error(w), "'speed'") != NULL);
  lb_world_assets_mark(w, &after);
  LB_CHECK(lb_world_hash(w) == hash);
  LB_CHECK(alive_entities(w) == entities);
  LB_CHECK(lb_world_clip_count(w) == clips);
  LB_CHECK(memcmp(&before, &after, sizeof before) == 0);
  printf("failed load: hash %016llx kept, %d entities, %u clips, %u skeletons\n",
         (unsigned long long)hash, entities, clips, after.modules[LB_MODULE_rig].count[0]);
  /* The world goes on as if the failed load never happened. */
  LB_CHECK(lb_scene_step(w, sc, DT) == LB_OK);
  free(broken);
  free(json);
  lb_scene_destroy(w, sc);
  lb_world_destroy(w);
}

static void test_scene_errors(void) {
  size_t len = 0;
  char *json = scene_text(&len);
  lb_world *w = NULL;
  lb_scene *sc = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  /* The glb not passed: the message names the path. */
  LB_CHECK(lb_scene_load(w, json, len, &sc) == LB_ERR_UNKNOWN_NAME && sc == NULL);
  printf("  %s\n", lb_world_last_error(w));
  LB_CHECK(strstr(lb_world_last_error(w), GLB) != NULL);
  size_t n = 0;
  uint8_t *bytes = lb_test_read_file(GLB, &n);
  lb_scene_file file = {GLB, bytes, n};
  static const struct {
    const char *from, *to;
    lb_result code;
  } edits[] = {
      {"\"name\": \"MoveSpeed\", \"value\": 0.7", "\"name\": \"MoveSped\", \"value\": 0.7",
       LB_ERR_UNKNOWN_NAME},
      {"\"name\": \"Vault\", \"value\": true", "\"name\": \"Vault\", \"value\": 1",
       LB_ERR_INVALID_ARGUMENT},
      {"\"controller\": \"locomotion\"", "\"controller\": \"mannequin\"", LB_ERR_UNKNOWN_NAME},
      {"{ \"clip\": \"run\", \"value\": 3.5 }", "{ \"clip\": \"run\", \"value\": 1.0 }",
       LB_ERR_OUT_OF_RANGE},
      {"\"rig\": \"mannequin\",", "\"rig\": \"nobody\",", LB_ERR_UNKNOWN_NAME},
  };
  for (size_t i = 0; i < sizeof edits / sizeof edits[0]; ++i) {
    const char *at = strstr(json, edits[i].from);
    LB_CHECK(at != NULL);
    if (!at) {
      continue;
    }
    size_t a = (size_t)(at - json), fl = strlen(edits[i].from), tl = strlen(edits[i].to);
    char *bad = malloc(len + tl + 1);
    memcpy(bad, json, a);
    memcpy(bad + a, edits[i].to, tl);
    memcpy(bad + a + tl, at + fl, len - a - fl + 1);
    lb_result r = lb_scene_load_files(w, bad, strlen(bad), &file, 1, &sc);
    printf("  bad scene %zu: %s\n", i, lb_world_last_error(w));
    LB_CHECK(r == edits[i].code && sc == NULL);
    free(bad);
  }
  free(bytes);
  lb_world_destroy(w);
  free(json);
}

/* rig.start_pose skips the animation-pose copy while an Animator writes the whole pose; when
 * the Animator goes away the next step must show the animation pose again (here the rest
 * pose, as on a rig that never had an Animator), with no step of stale pose. */
static float max_joint_gap(const lb_transform *a, const lb_transform *b, uint32_t n) {
  float gap = 0.0f;
  for (uint32_t j = 0; a && b && j < n; ++j) {
    vec3 d = {a[j].t[0] - b[j].t[0], a[j].t[1] - b[j].t[1], a[j].t[2] - b[j].t[2]};
    gap = fmaxf(gap, lb_vec3_length(d));
  }
  return gap;
}

static void test_removed_animator_restores_pose(void) {
  fixture f, plain;
  LB_CHECK(setup(&f, LOCOMOTION, false, NULL));
  LB_CHECK(setup(&plain, LOCOMOTION, false, NULL));
  LB_CHECK(lb_world_remove(plain.w, plain.hero, LB_ANIMATOR) == LB_OK);
  set_float(&f, "MoveSpeed", 1.4f);
  step(&f, 30);
  step(&plain, 1);
  uint32_t n = 0, m = 0;
  const lb_transform *walked = lb_rig_model_pose(f.w, f.hero, &n);
  const lb_transform *rest = lb_rig_model_pose(plain.w, plain.hero, &m);
  LB_CHECK(n == m && n > 0);
  float moved = max_joint_gap(walked, rest, n);
  LB_CHECK(lb_world_remove(f.w, f.hero, LB_ANIMATOR) == LB_OK);
  step(&f, 1);
  walked = lb_rig_model_pose(f.w, f.hero, &n);
  float after = max_joint_gap(walked, rest, n);
  printf("animator removed: walking pose %.3f m from rest, one step after removal %.9f m\n",
         (double)moved, (double)after);
  LB_CHECK(moved > 0.05f);
  LB_CHECK(after == 0.0f);
  teardown(&f);
  teardown(&plain);
}

int main(void) {
  LB_RUN(test_controller_errors);
  LB_RUN(test_transition_timing);
  LB_RUN(test_one_shot);
  LB_RUN(test_blend_weights);
  LB_RUN(test_planted_toes);
  LB_RUN(test_root_motion);
  LB_RUN(test_vertical_root_motion);
  LB_RUN(test_errors);
  LB_RUN(test_no_allocation_in_steps);
  LB_RUN(test_scene_hash);
  LB_RUN(test_scene_errors);
  LB_RUN(test_failed_load_changes_nothing);
  LB_RUN(test_removed_animator_restores_pose);
  LB_TEST_MAIN_END();
}
