/* Scenes: assets/scenes/default.json loads and steps to the stored expected hash
 * (tests/expected-hashes.json), twice from scratch; malformed scenes are refused with a
 * message naming the offending thing and leave no entity behind. Run from the repo root
 * (ctest sets WORKING_DIRECTORY). */
#include "limber/limber.h"

#include <stdlib.h>
#include <string.h>

#include "../../wasm/src/world/world_core.h" /* alive slots */
#include "cJSON.h"
#include "test.h"

#define DEFAULT_SCENE "assets/scenes/default.json"
#define EXPECTED_HASHES "tests/expected-hashes.json"
#define FNV_EMPTY 0xcbf29ce484222325ull /* lb_world_hash of a world without rigs */

static int alive_count(const lb_world *w) {
  int n = 0;
  for (uint32_t s = 0; s < w->high_water; ++s) {
    n += w->alive[s] != 0;
  }
  return n;
}

/* Loads `json` into a new world and runs `steps` steps of 1/60 s; returns the hash. */
static uint64_t run_scene(const char *json, size_t len, int steps) {
  lb_world *w = NULL;
  lb_scene *sc = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  lb_result r = lb_scene_load(w, json, len, &sc);
  if (r != LB_OK) {
    fprintf(stderr, "scene load: %s\n", lb_world_last_error(w));
  }
  LB_CHECK(r == LB_OK && sc != NULL);
  for (int i = 0; r == LB_OK && i < steps; ++i) {
    r = lb_scene_step(w, sc, 1.0f / 60.0f);
  }
  LB_CHECK(r == LB_OK);
  LB_CHECK(lb_world_step_count(w) == (uint64_t)steps);
  uint64_t h = lb_world_hash(w);
  lb_scene_destroy(w, sc);
  lb_world_destroy(w);
  return h;
}

/* "default.json@120" from tests/expected-hashes.json, parsed with cJSON. */
static bool expected_hash(const char *key, uint64_t *out) {
  size_t len = 0;
  char *text = lb_test_read_file(EXPECTED_HASHES, &len);
  if (!text) {
    return false;
  }
  bool ok = false;
  cJSON *root = cJSON_ParseWithLength(text, len);
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, key);
  if (cJSON_IsString(item) && strlen(item->valuestring) == 16) {
    char *end = NULL;
    unsigned long long v = strtoull(item->valuestring, &end, 16);
    ok = end && *end == 0;
    *out = (uint64_t)v;
  }
  cJSON_Delete(root);
  free(text);
  return ok;
}

static void test_default_scene(void) {
  size_t len = 0;
  char *json = lb_test_read_file(DEFAULT_SCENE, &len);
  LB_CHECK(json != NULL);
  if (!json) {
    return;
  }
  lb_world *w = NULL;
  lb_scene *sc = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  LB_CHECK(lb_scene_load(w, json, len, &sc) == LB_OK);
  LB_CHECK(lb_scene_entity_count(sc) == 7);
  lb_entity hero = lb_scene_entity(sc, "hero");
  lb_entity right = lb_scene_entity(sc, "rightArm"), left = lb_scene_entity(sc, "leftArm");
  LB_CHECK(lb_world_alive(w, hero) && lb_world_has(w, hero, LB_RIG));
  LB_CHECK(lb_world_has(w, right, LB_TWO_BONE_IK) && lb_world_has(w, left, LB_TWO_BONE_IK));
  LB_CHECK(lb_scene_entity(sc, "nobody") == LB_NULL_ENTITY);
  LB_CHECK(strcmp(lb_scene_entity_name(sc, 0), "hero") == 0);
  LB_CHECK(lb_scene_entity_at(sc, 0) == hero);
  LB_CHECK(lb_scene_entity_name(sc, 7) == NULL && lb_scene_entity_at(sc, 7) == LB_NULL_ENTITY);
  /* The left arm's tip was given as a full path. */
  lb_two_bone_ik_c ik;
  LB_CHECK(lb_world_get(w, left, LB_TWO_BONE_IK, &ik) == LB_OK);
  LB_CHECK(ik.soften == 0.97f && ik.rig == hero && ik.weight == 1.0f);
  LB_CHECK(strncmp(lb_world_name_text(w, ik.tip), "Hips/Spine", 10) == 0);

  /* The timeline lands at its steps. */
  for (int i = 0; i < 70; ++i) {
    LB_CHECK(lb_scene_step(w, sc, 1.0f / 60.0f) == LB_OK);
  }
  LB_CHECK(lb_world_get(w, left, LB_TWO_BONE_IK, &ik) == LB_OK);
  LB_CHECK(ik.weight == 0.5f && ik.rotation_weight == 0.0f);
  LB_CHECK(ik.soften == 0.97f); /* an update merges: other fields kept */
  for (int i = 70; i < 120; ++i) {
    LB_CHECK(lb_scene_step(w, sc, 1.0f / 60.0f) == LB_OK);
  }
  LB_CHECK(lb_world_get(w, left, LB_TWO_BONE_IK, &ik) == LB_OK);
  LB_CHECK(ik.weight == 1.0f && ik.rotation_weight == 1.0f);
  /* Both targets are within reach: reached, to 0.1 mm. */
  LB_CHECK(ik.reached == 1 && ik.distance < 1e-4f);
  float left_distance = ik.distance;
  LB_CHECK(lb_world_get(w, right, LB_TWO_BONE_IK, &ik) == LB_OK);
  LB_CHECK(ik.reached == 1 && ik.distance < 1e-4f);
  printf("default.json@120: right hand %.3g m, left hand %.3g m from their targets\n",
         (double)ik.distance, (double)left_distance);
  uint64_t h_live = lb_world_hash(w);
  lb_scene_destroy(w, sc);
  lb_world_destroy(w);

  /* Twice from scratch: the same hash; and the stored expected one. */
  uint64_t h1 = run_scene(json, len, 120), h2 = run_scene(json, len, 120);
  printf("default.json@120: %016llx\n", (unsigned long long)h1);
  LB_CHECK(h1 == h2 && h1 == h_live);
  LB_CHECK(h1 != FNV_EMPTY);
  LB_CHECK(run_scene(json, len, 60) != h1); /* the target moves: the hash sees it */
  uint64_t want = 0;
  LB_CHECK(expected_hash("default.json@120", &want));
  if (h1 != want) {
    fprintf(stderr, "hash %016llx, %s says %016llx\n", (unsigned long long)h1, EXPECTED_HASHES,
            (unsigned long long)want);
  }
  LB_CHECK(h1 == want);
  free(json);
}

/* ---- malformed scenes ------------------------------------------------------------------- */
#define RIGS "\"assets\": {\"rigs\": {\"mannequin\": {\"builtin\": \"humanoid\"}}}"
#define HERO                                                                                       \
  "{\"name\": \"hero\", \"components\": {\"Transform\": {}, \"Rig\": {\"asset\": \"mannequin\"}}}"
#define TARGET                                                                                     \
  "{\"name\": \"target\", \"components\": {\"Transform\": {\"position\": [-0.3, 1.3, 0.3]}}}"
#define SCENE(arm) "{" RIGS ", \"entities\": [" HERO ", " TARGET ", " arm "]}"
#define ARM(fields) "{\"name\": \"arm\", \"components\": {\"TwoBoneIK\": {" fields "}}}"
#define GOOD_ARM ARM("\"rig\": \"hero\", \"target\": \"target\"")

typedef struct bad_scene {
  const char *what;
  const char *json; /* null: the default scene truncated */
  lb_result code;
  const char *names[2]; /* the message must contain these */
} bad_scene;

static const bad_scene bad_scenes[] = {
    {"truncated", NULL, LB_ERR_PARSE, {"malformed", NULL}},
    {"truncated small", "{\"entities\": [{\"name\": \"a\"", LB_ERR_PARSE, {"malformed", NULL}},
    {"not an object", "[1, 2]", LB_ERR_PARSE, {"object", NULL}},
    {"no entities", "{" RIGS "}", LB_ERR_PARSE, {"'entities'", NULL}},
    {"unknown component",
     "{" RIGS ", \"entities\": [" HERO ", {\"name\": \"prop\", \"components\": {\"Rigg\": {}}}]}",
     LB_ERR_UNKNOWN_NAME,
     {"'Rigg'", "'prop'"}},
    {"unknown field",
     SCENE(ARM("\"rig\": \"hero\", \"target\": \"target\", \"wieght\": 1")),
     LB_ERR_UNKNOWN_NAME,
     {"'wieght'", "'arm'"}},
    {"unknown entity name",
     SCENE(ARM("\"rig\": \"hero\", \"target\": \"targt\"")),
     LB_ERR_UNKNOWN_NAME,
     {"'targt'", "'target'"}},
    {"wrong type (string for number)",
     SCENE(ARM("\"rig\": \"hero\", \"target\": \"target\", \"weight\": \"heavy\"")),
     LB_ERR_PARSE,
     {"'weight'", "'arm'"}},
    {"wrong type (number for vec3)",
     "{" RIGS ", \"entities\": [" HERO ", {\"name\": \"box\", \"components\": {\"Transform\": "
     "{\"position\": 3}}}]}",
     LB_ERR_PARSE,
     {"'position'", "'box'"}},
    {"wrong array length",
     "{" RIGS ", \"entities\": [" HERO ", {\"name\": \"box\", \"components\": {\"Transform\": "
     "{\"rotation\": [0, 0, 1]}}}]}",
     LB_ERR_PARSE,
     {"'rotation'", "'box'"}},
    {"NaN via 1e999",
     SCENE(ARM("\"rig\": \"hero\", \"target\": \"target\", \"weight\": 1e999")),
     LB_ERR_NOT_FINITE,
     {"'weight'", "'arm'"}},
    {"-Inf via -1e999 in a vector",
     "{" RIGS ", \"entities\": [" HERO ", {\"name\": \"box\", \"components\": {\"Transform\": "
     "{\"position\": [0, -1e999, 0]}}}]}",
     LB_ERR_NOT_FINITE,
     {"'position'", "'box'"}},
    {"float overflow 1e39",
     SCENE(ARM("\"rig\": \"hero\", \"target\": \"target\", \"soften\": 1e39")),
     LB_ERR_NOT_FINITE,
     {"'soften'", NULL}},
    {"out of range",
     SCENE(ARM("\"rig\": \"hero\", \"target\": \"target\", \"weight\": 1.5")),
     LB_ERR_OUT_OF_RANGE,
     {"'weight'", "'arm'"}},
    {"unknown joint",
     SCENE(ARM("\"rig\": \"hero\", \"target\": \"target\", \"tip\": \"RightPaw\"")),
     LB_ERR_JOINT_NOT_FOUND,
     {"'RightPaw'", "'arm'"}},
    {"output field",
     SCENE(ARM("\"rig\": \"hero\", \"target\": \"target\", \"reached\": true")),
     LB_ERR_INVALID_ARGUMENT,
     {"'reached'", NULL}},
    {"unknown asset",
     "{" RIGS ", \"entities\": [{\"name\": \"hero\", \"components\": {\"Rig\": {\"asset\": "
     "\"mannequinn\"}}}]}",
     LB_ERR_UNKNOWN_NAME,
     {"'mannequinn'", "'hero'"}},
    {"unknown builtin",
     "{\"assets\": {\"rigs\": {\"robot\": {\"builtin\": \"octopus\"}}}, \"entities\": []}",
     LB_ERR_UNKNOWN_NAME,
     {"'robot'", NULL}},
    {"bad rig height",
     "{\"assets\": {\"rigs\": {\"giant\": {\"builtin\": \"humanoid\", \"height\": 30}}}, "
     "\"entities\": []}",
     LB_ERR_OUT_OF_RANGE,
     {"'giant'", NULL}},
    {"duplicate entity name",
     "{" RIGS ", \"entities\": [" HERO ", " HERO "]}",
     LB_ERR_PARSE,
     {"'hero'", NULL}},
    {"entity without a name",
     "{" RIGS ", \"entities\": [" HERO ", {\"components\": {}}]}",
     LB_ERR_PARSE,
     {"name", NULL}},
    {"parent cycle",
     "{\"entities\": [{\"name\": \"a\", \"components\": {\"Transform\": {\"parent\": \"b\"}}}, "
     "{\"name\": \"b\", \"components\": {\"Transform\": {\"parent\": \"a\"}}}]}",
     LB_ERR_CYCLE,
     {"'b'", "'parent'"}},
    {"timeline: unknown entity",
     "{" RIGS ", \"entities\": [" HERO "], \"timeline\": [{\"step\": 3, \"update\": {\"entity\": "
     "\"villain\", \"component\": \"Transform\", \"fields\": {}}}]}",
     LB_ERR_UNKNOWN_NAME,
     {"timeline[0]", "'villain'"}},
    {"timeline: unknown component",
     "{" RIGS ", \"entities\": [" HERO "], \"timeline\": [{\"step\": 3, \"remove\": {\"entity\": "
     "\"hero\", \"component\": \"Skin\"}}]}",
     LB_ERR_UNKNOWN_NAME,
     {"timeline[0]", "'Skin'"}},
    {"timeline: unknown field",
     "{" RIGS ", \"entities\": [" HERO "], \"timeline\": [{\"step\": 3, \"update\": {\"entity\": "
     "\"hero\", \"component\": \"Transform\", \"fields\": {\"postion\": [0, 0, 0]}}}]}",
     LB_ERR_UNKNOWN_NAME,
     {"'postion'", "timeline[0]"}},
    {"timeline: fractional step",
     "{" RIGS ", \"entities\": [" HERO "], \"timeline\": [{\"step\": 1.5, \"remove\": {\"entity\": "
     "\"hero\", \"component\": \"Rig\"}}]}",
     LB_ERR_PARSE,
     {"'step'", NULL}},
    {"timeline: no command",
     "{" RIGS ", \"entities\": [" HERO "], \"timeline\": [{\"step\": 1, \"move\": {}}]}",
     LB_ERR_PARSE,
     {"timeline[0]", NULL}},
};

static void check_bad_scene(const bad_scene *b, const char *json, size_t len, bool preexisting) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  lb_entity keep = LB_NULL_ENTITY;
  lb_transform_c kt;
  lb_component_defaults(LB_TRANSFORM, &kt);
  kt.position[0] = 4.0f;
  if (preexisting) {
    LB_CHECK(lb_world_spawn(w, &keep) == LB_OK);
    LB_CHECK(lb_world_insert(w, keep, LB_TRANSFORM, &kt) == LB_OK);
  }
  static char sentinel;
  lb_scene *sc = (lb_scene *)&sentinel; /* must come back null */
  lb_result r = lb_scene_load(w, json, len, &sc);
  const char *msg = lb_world_last_error(w);
  bool ok = r == b->code && sc == NULL;
  for (int i = 0; i < 2; ++i) {
    ok = ok && (!b->names[i] || strstr(msg, b->names[i]));
  }
  if (!ok) {
    fprintf(stderr, "  %s: got %s \"%s\", want %s mentioning %s %s\n", b->what, lb_result_name(r),
            msg, lb_result_name(b->code), b->names[0], b->names[1] ? b->names[1] : "");
  }
  LB_CHECK(r == b->code);
  LB_CHECK(sc == NULL);
  for (int i = 0; i < 2; ++i) {
    LB_CHECK(!b->names[i] || strstr(msg, b->names[i]));
  }
  /* Nothing left half-built. */
  LB_CHECK(alive_count(w) == (preexisting ? 1 : 0));
  LB_CHECK(lb_world_hash(w) == FNV_EMPTY);
  if (preexisting) {
    lb_transform_c got;
    LB_CHECK(lb_world_get(w, keep, LB_TRANSFORM, &got) == LB_OK);
    LB_CHECK(memcmp(&got, &kt, sizeof got) == 0);
  }
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  lb_world_destroy(w);
}

static void test_malformed_scenes(void) {
  size_t len = 0;
  char *def = lb_test_read_file(DEFAULT_SCENE, &len);
  LB_CHECK(def != NULL);
  if (!def) {
    return;
  }
  for (size_t i = 0; i < sizeof bad_scenes / sizeof bad_scenes[0]; ++i) {
    const bad_scene *b = &bad_scenes[i];
    const char *json = b->json ? b->json : def;
    size_t n = b->json ? strlen(b->json) : len / 2;
    check_bad_scene(b, json, n, false);
    check_bad_scene(b, json, n, true);
  }
  /* Every truncation of a small scene is refused cleanly. */
  static const char small[] = SCENE(GOOD_ARM);
  for (size_t n = 0; n + 1 < sizeof small; ++n) {
    lb_world *w = NULL;
    lb_scene *sc = NULL;
    LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
    LB_CHECK(lb_scene_load(w, small, n, &sc) != LB_OK);
    LB_CHECK(sc == NULL && alive_count(w) == 0);
    lb_world_destroy(w);
  }
  /* ... and the whole of it loads: the variants above failed for their one fault. */
  LB_CHECK(run_scene(small, sizeof small - 1, 3) != FNV_EMPTY);
  lb_world *w = NULL;
  lb_scene *sc = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  LB_CHECK(lb_scene_load(w, NULL, 0, &sc) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_scene_load(w, small, sizeof small - 1, NULL) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_scene_load(NULL, small, sizeof small - 1, &sc) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_scene_step(w, NULL, 0.1f) == LB_ERR_INVALID_ARGUMENT);
  lb_scene_destroy(w, NULL);
  lb_world_destroy(w);
  free(def);
}

/* A prop attached to a joint of an entity declared later in the file. */
static void test_scene_attachment(void) {
  static const char json[] =
      "{" RIGS ", \"entities\": ["
      "{\"name\": \"cup\", \"components\": {\"Transform\": {\"parent\": \"hero\", "
      "\"parentJoint\": \"RightHand\", \"position\": [0, 0.1, 0]}}}, " HERO "]}";
  lb_world *w = NULL;
  lb_scene *sc = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  lb_result r = lb_scene_load(w, json, sizeof json - 1, &sc);
  if (r != LB_OK) {
    fprintf(stderr, "  %s\n", lb_world_last_error(w));
  }
  LB_CHECK(r == LB_OK);
  if (r == LB_OK) {
    LB_CHECK(lb_scene_step(w, sc, 1.0f / 60.0f) == LB_OK);
    lb_transform x;
    LB_CHECK(lb_world_entity_transform(w, lb_scene_entity(sc, "cup"), &x) == LB_OK);
    LB_CHECK_NEAR(x.t[0], -0.70, 1e-5);
    LB_CHECK_NEAR(x.t[1], 1.54, 1e-5);
    LB_CHECK_NEAR(x.t[2], 0.0, 1e-5);
  }
  lb_scene_destroy(w, sc);
  lb_world_destroy(w);
}

/* Timeline insert/remove, and a command that fails when it is due. */
static void test_timeline(void) {
  static const char json[] =
      "{" RIGS ", \"entities\": [" HERO ", " TARGET ", {\"name\": \"arm\"}], \"timeline\": ["
      "{\"step\": 4, \"remove\": {\"entity\": \"arm\", \"component\": \"TwoBoneIK\"}},"
      "{\"step\": 2, \"insert\": {\"entity\": \"arm\", \"component\": \"TwoBoneIK\", "
      "\"fields\": {\"rig\": \"hero\", \"target\": \"target\", \"weight\": 0.25}}},"
      "{\"step\": 6, \"update\": {\"entity\": \"arm\", \"component\": \"TwoBoneIK\", "
      "\"fields\": {\"weight\": 0.5}}}]}";
  lb_world *w = NULL;
  lb_scene *sc = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  LB_CHECK(lb_scene_load(w, json, sizeof json - 1, &sc) == LB_OK);
  lb_entity arm = lb_scene_entity(sc, "arm");
  for (int i = 0; i < 2; ++i) {
    LB_CHECK(lb_scene_step(w, sc, 1.0f / 60.0f) == LB_OK);
  }
  LB_CHECK(!lb_world_has(w, arm, LB_TWO_BONE_IK));
  LB_CHECK(lb_scene_step(w, sc, 1.0f / 60.0f) == LB_OK); /* step 2: insert (sorted first) */
  lb_two_bone_ik_c ik;
  LB_CHECK(lb_world_get(w, arm, LB_TWO_BONE_IK, &ik) == LB_OK);
  LB_CHECK(ik.weight == 0.25f && ik.soften == 1.0f &&
           strcmp(lb_world_name_text(w, ik.tip), "RightHand") == 0);
  for (int i = 3; i < 5; ++i) {
    LB_CHECK(lb_scene_step(w, sc, 1.0f / 60.0f) == LB_OK);
  }
  LB_CHECK(!lb_world_has(w, arm, LB_TWO_BONE_IK)); /* step 4: removed */
  LB_CHECK(lb_scene_step(w, sc, 1.0f / 60.0f) == LB_OK);
  uint64_t steps = lb_world_step_count(w);
  LB_CHECK(lb_scene_step(w, sc, 1.0f / 60.0f) == LB_ERR_MISSING_COMPONENT); /* step 6 */
  LB_CHECK(strstr(lb_world_last_error(w), "TwoBoneIK") != NULL);
  LB_CHECK(lb_world_step_count(w) == steps);
  LB_CHECK(lb_scene_step(w, sc, NAN) == LB_ERR_OUT_OF_RANGE);
  lb_scene_destroy(w, sc);
  lb_world_destroy(w);
}

static void test_component_from_json(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  lb_two_bone_ik_c ik;
  lb_component_defaults(LB_TWO_BONE_IK, &ik);
  const char *j = "{\"weight\": 0.5, \"tip\": \"LeftHand\", \"target\": 7}";
  LB_CHECK(lb_component_from_json(w, NULL, LB_TWO_BONE_IK, j, strlen(j), &ik) == LB_OK);
  LB_CHECK(ik.weight == 0.5f && ik.soften == 1.0f &&
           strcmp(lb_world_name_text(w, ik.tip), "LeftHand") == 0);
  LB_CHECK(ik.target == 7);
  lb_two_bone_ik_c before = ik;
  j = "{\"target\": \"hero\"}"; /* names need a scene */
  LB_CHECK(lb_component_from_json(w, NULL, LB_TWO_BONE_IK, j, strlen(j), &ik) ==
           LB_ERR_UNKNOWN_NAME);
  LB_CHECK(strstr(lb_world_last_error(w), "'hero'") != NULL);
  j = "{\"weight\": 0.5,";
  LB_CHECK(lb_component_from_json(w, NULL, LB_TWO_BONE_IK, j, strlen(j), &ik) == LB_ERR_PARSE);
  LB_CHECK(strstr(lb_world_last_error(w), "TwoBoneIK") != NULL);
  j = "{\"tip\": 5}";
  LB_CHECK(lb_component_from_json(w, NULL, LB_TWO_BONE_IK, j, strlen(j), &ik) == LB_ERR_PARSE);
  LB_CHECK(strstr(lb_world_last_error(w), "'tip'") != NULL);
  LB_CHECK(memcmp(&ik, &before, sizeof ik) == 0);
  lb_transform_c t;
  lb_component_defaults(LB_TRANSFORM, &t);
  j = "{\"scale\": [2, 2, 2], \"parentJoint\": \"RightHand\"}";
  LB_CHECK(lb_component_from_json(w, NULL, LB_TRANSFORM, j, strlen(j), &t) == LB_OK);
  LB_CHECK(t.scale[1] == 2.0f && t.rotation[3] == 1.0f &&
           strcmp(lb_world_name_text(w, t.parent_joint), "RightHand") == 0);
  char longj[1200];
  snprintf(longj, sizeof longj, "{\"parentJoint\": \"%01100d\"}", 0); /* names: <= 1024 bytes */
  LB_CHECK(lb_component_from_json(w, NULL, LB_TRANSFORM, longj, strlen(longj), &t) ==
           LB_ERR_OUT_OF_RANGE);
  LB_CHECK(lb_component_from_json(w, NULL, 42, "{}", 2, &t) == LB_ERR_UNKNOWN_NAME);
  lb_world_destroy(w);
}

/* A load that fails after its rig and a GripPose were written leaves no hand behind that names
 * the rolled-back skeleton: the next skeleton takes the same handle, with other joints. */
static void test_failed_load_forgets_hands(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  const char *bad = "{\"assets\":{\"rigs\":{\"m\":{\"builtin\":\"humanoid\",\"height\":1.8}}},"
                    "\"entities\":[{\"name\":\"hero\",\"components\":{\"Transform\":{},"
                    "\"Rig\":{\"asset\":\"m\"},\"GripPose\":{\"rightPose\":\"fist\"}}},"
                    "{\"name\":\"x\",\"components\":{\"GripHolder\":{\"weight\":2}}}]}";
  lb_scene *sc = NULL;
  LB_CHECK(lb_scene_load(w, bad, strlen(bad), &sc) == LB_ERR_OUT_OF_RANGE && sc == NULL);
  /* A different skeleton now gets handle 1: an Unreal-named humanoid (metacarpals). */
  lb_humanoid_def hd = lb_humanoid_default_def();
  hd.naming = LB_NAMING_UNREAL;
  uint32_t asset = 0;
  LB_CHECK(lb_world_add_humanoid(w, &hd, &asset) == LB_OK && asset == 1);
  lb_entity hero;
  LB_CHECK(lb_world_spawn(w, &hero) == LB_OK);
  lb_rig_c rig = {asset};
  LB_CHECK(lb_world_insert(w, hero, LB_RIG, &rig) == LB_OK);
  lb_grip_pose_c gp;
  lb_component_defaults(LB_GRIP_POSE, &gp);
  gp.right_pose = lb_world_name(w, "fist");
  LB_CHECK(lb_world_insert(w, hero, LB_GRIP_POSE, &gp) == LB_OK);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  lb_grip_hand_status st;
  LB_CHECK(lb_world_grip_hand_status(w, hero, LB_HAND_RIGHT, &st) == LB_OK);
  LB_CHECK(st.found == LB_OK && st.hand == lb_skeleton_find_joint(w, asset, "hand_r"));
  lb_world_destroy(w);
}

/* lb_scene_unload frees the scene's entities and the assets only it used: a load/unload cycle
 * leaves the world's memory as it was; an asset another entity still uses stays. */
static void test_scene_unload(void) {
  lb_test_counter c = {0};
  lb_world_def def = lb_test_counting_def(&c);
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(&def, &w) == LB_OK);
  size_t len = 0;
  char *json = lb_test_read_file(DEFAULT_SCENE, &len);
  LB_CHECK(json != NULL);
  lb_scene *sc = NULL;
  LB_CHECK(lb_scene_load(w, json, len, &sc) == LB_OK);
  lb_scene_unload(w, sc);
  long live = c.live;
  for (int i = 0; i < 50; ++i) {
    LB_CHECK(lb_scene_load(w, json, len, &sc) == LB_OK);
    LB_CHECK(lb_scene_step(w, sc, 1.0f / 60.0f) == LB_OK);
    lb_scene_unload(w, sc);
  }
  LB_CHECK(c.live == live);
  LB_CHECK(lb_skeleton_joint_count(w, 1) == 0); /* the skeleton went with the scene */
  /* Shared: an entity outside the scene uses its rig asset, so the asset stays. */
  LB_CHECK(lb_scene_load(w, json, len, &sc) == LB_OK);
  lb_entity other;
  LB_CHECK(lb_world_spawn(w, &other) == LB_OK);
  lb_rig_c rig = {1};
  LB_CHECK(lb_world_insert(w, other, LB_RIG, &rig) == LB_OK);
  lb_scene_unload(w, sc);
  LB_CHECK(lb_skeleton_joint_count(w, 1) > 0 && lb_world_alive(w, other));
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  printf("scene unload: %d cycles, live allocations %ld before and after\n", 50, live);
  free(json);
  lb_world_destroy(w);
}

int main(void) {
  LB_RUN(test_default_scene);
  LB_RUN(test_malformed_scenes);
  LB_RUN(test_scene_attachment);
  LB_RUN(test_timeline);
  LB_RUN(test_component_from_json);
  LB_RUN(test_failed_load_forgets_hands);
  LB_RUN(test_scene_unload);
  LB_TEST_MAIN_END();
}
