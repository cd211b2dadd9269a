/* Input log replay (limber/input_log.h): a log written by hand gives the hash of the same
 * calls made directly (every step), and a negative zero written "-0" is one; malformed logs
 * are refused with a message naming the op, and a world not at the log's start is refused
 * before any op runs. */
#include "limber/limber.h"

#include "test.h"

#define DT (1.0f / 60.0f)

/* The same session as LOG, made by calls: a humanoid, a hero, an IK target and arm; 10
 * steps; the target moved (z = -0); 5 steps; the arm removed, the target despawned; 5 steps.
 * hashes[i] after step i + 1. */
static uint64_t direct(uint64_t hashes[20]) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  lb_humanoid_def hd = lb_humanoid_default_def();
  uint32_t rig = 0;
  LB_CHECK(lb_world_add_humanoid(w, &hd, &rig) == LB_OK);
  lb_entity hero = LB_NULL_ENTITY, target = LB_NULL_ENTITY, arm = LB_NULL_ENTITY;
  LB_CHECK(lb_world_spawn(w, &hero) == LB_OK);
  LB_CHECK(lb_world_spawn(w, &target) == LB_OK);
  LB_CHECK(lb_world_spawn(w, &arm) == LB_OK);
  lb_transform_c t;
  lb_component_defaults(LB_TRANSFORM, &t);
  LB_CHECK(lb_world_insert(w, hero, LB_TRANSFORM, &t) == LB_OK);
  lb_rig_c rc;
  lb_component_defaults(LB_RIG, &rc);
  rc.asset = rig;
  LB_CHECK(lb_world_insert(w, hero, LB_RIG, &rc) == LB_OK);
  t.position[0] = -0.35f;
  t.position[1] = 1.2f;
  t.position[2] = 0.3f;
  LB_CHECK(lb_world_insert(w, target, LB_TRANSFORM, &t) == LB_OK);
  lb_two_bone_ik_c ik;
  lb_component_defaults(LB_TWO_BONE_IK, &ik);
  ik.rig = hero;
  ik.target = target;
  ik.tip = lb_world_name(w, "RightHand");
  LB_CHECK(lb_world_insert(w, arm, LB_TWO_BONE_IK, &ik) == LB_OK);
  int k = 0;
  for (int i = 0; i < 10; ++i, ++k) {
    LB_CHECK(lb_world_step(w, DT) == LB_OK);
    hashes[k] = lb_world_hash(w);
  }
  LB_CHECK(lb_world_get(w, target, LB_TRANSFORM, &t) == LB_OK);
  t.position[1] = 1.3f;
  t.position[2] = -0.0f;
  LB_CHECK(lb_world_set(w, target, LB_TRANSFORM, &t) == LB_OK);
  for (int i = 0; i < 5; ++i, ++k) {
    LB_CHECK(lb_world_step(w, DT) == LB_OK);
    hashes[k] = lb_world_hash(w);
  }
  LB_CHECK(lb_world_remove(w, arm, LB_TWO_BONE_IK) == LB_OK);
  LB_CHECK(lb_world_despawn(w, target) == LB_OK);
  for (int i = 0; i < 5; ++i, ++k) {
    LB_CHECK(lb_world_step(w, DT) == LB_OK);
    hashes[k] = lb_world_hash(w);
  }
  uint64_t h = lb_world_hash(w);
  lb_world_destroy(w);
  return h;
}

/* The log's start: a new world (step 0, no rigs: the FNV offset basis). */
#define START "\"start\":{\"steps\":0,\"hash\":\"cbf29ce484222325\"}"
#define STEP "[\"step\",0.01666666753590107,"

static const char LOG[] =
    "{\"format\":\"limber-input-log\",\"version\":1," START ",\"ops\":["
    "[\"humanoid\",1.8,0,1],[\"spawn\",1],[\"spawn\",2],[\"spawn\",3],"
    "[\"insert\",1,\"Transform\",{}],[\"insert\",1,\"Rig\",{\"asset\":1}],"
    "[\"insert\",2,\"Transform\",{\"position\":[-0.35,1.2,0.3]}],"
    "[\"insert\",3,\"TwoBoneIK\",{\"rig\":1,\"target\":2,\"tip\":\"RightHand\"}]," STEP "10],"
    "[\"set\",2,\"Transform\",{\"position\":[-0.35,1.3,\"-0\"]}]," STEP "5],"
    "[\"remove\",3,\"TwoBoneIK\"],[\"despawn\",2]," STEP "5]]}";

static uint64_t g_hashes[20];
static int g_steps;

static bool on_step(lb_world *w, uint64_t step, void *user) {
  (void)user;
  if (step >= 1 && step <= 20) {
    g_hashes[step - 1] = lb_world_hash(w);
  }
  g_steps++;
  return true;
}

static void test_same_hash_every_step(void) {
  uint64_t want[20];
  uint64_t final = direct(want);
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  g_steps = 0;
  lb_result r = lb_input_log_replay(w, NULL, 0, LOG, sizeof LOG - 1, on_step, NULL);
  if (r != LB_OK) {
    fprintf(stderr, "replay: %s\n", lb_world_last_error(w));
  }
  LB_CHECK(r == LB_OK);
  LB_CHECK(g_steps == 20);
  for (int i = 0; i < 20; ++i) {
    LB_CHECK(g_hashes[i] == want[i]);
  }
  LB_CHECK(lb_world_hash(w) == final);
  /* The sign of the zero was kept: the target moved to z = -0, not +0. */
  LB_CHECK(!lb_world_alive(w, 2u));
  lb_world_destroy(w);
}

/* Replays `log` into a new world; the result, with the message checked to contain `needle`. */
static lb_result refused(const char *log, const char *needle) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  lb_result r = lb_input_log_replay(w, NULL, 0, log, strlen(log), NULL, NULL);
  const char *msg = lb_world_last_error(w);
  if (!strstr(msg, needle)) {
    fprintf(stderr, "expected '%s' in: %s\n", needle, msg);
    LB_CHECK(false);
  }
  lb_world_destroy(w);
  return r;
}

#define HEAD "{\"format\":\"limber-input-log\",\"version\":1," START ",\"ops\":["

static void test_malformed_logs(void) {
  LB_CHECK(refused("{\"format\":\"x\",\"version\":1," START ",\"ops\":[]}", "'format' must be") ==
           LB_ERR_PARSE);
  LB_CHECK(refused("{\"format\":\"limber-input-log\",\"version\":2," START ",\"ops\":[]}",
                   "'version' is 2; this build reads version 1") == LB_ERR_PARSE);
  LB_CHECK(refused(HEAD "[\"jump\",1]]}", "ops[0]: unknown op 'jump'") == LB_ERR_PARSE);
  LB_CHECK(refused(HEAD "[\"spawn\"]]}", "ops[0] ('spawn') must have 2 items, has 1") ==
           LB_ERR_PARSE);
  LB_CHECK(refused(HEAD "[\"spawn\",1],[\"move\",1,\"left\",0,0]]}",
                   "ops[1] ('move'): item 2 must be a number") == LB_ERR_PARSE);
  LB_CHECK(refused(HEAD "[\"spawn\",7]]}", "got handle 1 where the recording got 7") ==
           LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(refused(HEAD "[\"despawn\",5]]}", "ops[0] ('despawn')") == LB_ERR_STALE_ENTITY);
  LB_CHECK(refused(HEAD "[\"spawn\",1],[\"insert\",1,\"Teleporter\",{}]]}",
                   "unknown component 'Teleporter'") == LB_ERR_UNKNOWN_NAME);
  LB_CHECK(refused(HEAD "[\"spawn\",1],[\"insert\",1,\"Transform\",{\"scale\":[1,1,\"-0\"]}]]}",
                   "ops[1] ('insert')") != LB_OK);
  LB_CHECK(refused(HEAD "[\"sceneStep\",0,0.01,1]]}", "scene 0 was not loaded") ==
           LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(refused(HEAD "[\"scene\",\"{}\",{\"a.json\":\"%%%\"}]]}", "must be base64") ==
           LB_ERR_PARSE);
  LB_CHECK(refused("{\"format\":", "input log: ") == LB_ERR_PARSE);
  /* Not at the log's start: refused before any op. */
  LB_CHECK(refused("{\"format\":\"limber-input-log\",\"version\":1,\"start\":{\"steps\":3,"
                   "\"hash\":\"cbf29ce484222325\"},\"ops\":[]}",
                   "the world is at step 0") == LB_ERR_INVALID_ARGUMENT);
}

/* A step budget: the callback stops a log that asks for 4e9 steps after its 30th. */
static bool stop_at_30(lb_world *w, uint64_t step, void *user) {
  (void)w;
  *(uint64_t *)user = step;
  return step < 30;
}

static void test_step_callback_stops_replay(void) {
  static const char log[] = HEAD "[\"step\",0.0166,4000000000]]}";
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  uint64_t last = 0;
  LB_CHECK(lb_input_log_replay(w, NULL, 0, log, sizeof log - 1, stop_at_30, &last) ==
           LB_ERR_CAPACITY);
  LB_CHECK(last == 30);
  LB_CHECK(lb_world_step_count(w) == 30);
  LB_CHECK(strstr(lb_world_last_error(w),
                  "ops[0] ('step'): stopped by the step callback after step 30"));
  lb_world_destroy(w);
}

int main(void) {
  LB_RUN(test_same_hash_every_step);
  LB_RUN(test_step_callback_stops_replay);
  LB_RUN(test_malformed_logs);
  printf("%d passed, %d failed\n", lb_tests_passed, lb_tests_failed);
  return lb_tests_failed ? 1 : 0;
}
