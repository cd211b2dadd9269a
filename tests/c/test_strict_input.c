/* Strict input (issue "silent acceptance"): JSON with text after the value, a second
 * document, repeated keys, NUL inside a string or invalid UTF-8 is refused by every JSON
 * entry (scenes, controllers, grip poses, finger poses, component JSON); names with a NUL
 * or invalid UTF-8 are refused by the world's name table, whichever way they come in. */
#include "limber/limber.h"

#include <string.h>

#include "test.h"

static const char *SCENE_OK =
    "{\"assets\":{\"rigs\":{\"m\":{\"builtin\":\"humanoid\"}}},"
    "\"entities\":[{\"name\":\"hero\",\"components\":{\"Rig\":{\"asset\":\"m\"}}}]}";

static lb_result load(lb_world *w, const char *json, size_t len) {
  lb_scene *sc = NULL;
  lb_result r = lb_scene_load(w, json, len, &sc);
  lb_scene_destroy(w, sc);
  return r;
}

/* Loads SCENE_OK with `tail` appended. */
static lb_result load_with(lb_world *w, const char *tail) {
  char buf[1024];
  snprintf(buf, sizeof buf, "%s%s", SCENE_OK, tail);
  return load(w, buf, strlen(buf));
}

static void test_scene_trailing_and_duplicates(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  LB_CHECK(load_with(w, "") == LB_OK);
  LB_CHECK(load_with(w, " \n\t ") == LB_OK);
  LB_CHECK(load(w, SCENE_OK, strlen(SCENE_OK) + 1u) == LB_OK); /* the terminating NUL */
  LB_CHECK(load_with(w, "x") == LB_ERR_PARSE);
  LB_CHECK(strstr(lb_world_last_error(w), "text after the JSON value") != NULL);
  LB_CHECK(load_with(w, "{}") == LB_ERR_PARSE); /* a second document */
  LB_CHECK(load_with(w, "\n[1]") == LB_ERR_PARSE);
  const char *dup = "{\"entities\":[],\"entities\":[{\"name\":\"a\"}]}";
  LB_CHECK(load(w, dup, strlen(dup)) == LB_ERR_PARSE);
  LB_CHECK(strstr(lb_world_last_error(w), "entities: repeated key") != NULL);
  const char *deep = "{\"entities\":[{\"name\":\"a\",\"components\":{\"Transform\":"
                     "{\"position\":[0,0,0],\"position\":[1,1,1]}}}]}";
  LB_CHECK(load(w, deep, strlen(deep)) == LB_ERR_PARSE);
  LB_CHECK(strstr(lb_world_last_error(w),
                  "entities[0].components.Transform.position: repeated key") != NULL);
  /* Many keys (the sorted path) with one repeated. */
  char many[4096] = "{\"entities\":[],\"x\":{";
  for (int i = 0; i < 40; ++i) {
    char k[32];
    snprintf(k, sizeof k, "%s\"k%d\":1", i ? "," : "", i == 39 ? 7 : i);
    strcat(many, k);
  }
  strcat(many, "}}");
  LB_CHECK(load(w, many, strlen(many)) == LB_ERR_PARSE);
  LB_CHECK(strstr(lb_world_last_error(w), "x.k7: repeated key") != NULL);
  /* NUL in a string: escaped or raw; invalid UTF-8. */
  const char *nul = "{\"entities\":[{\"name\":\"a\\u0000b\"}]}";
  LB_CHECK(load(w, nul, strlen(nul)) == LB_ERR_PARSE);
  LB_CHECK(strstr(lb_world_last_error(w), "NUL") != NULL);
  const char raw[] = "{\"entities\":[{\"name\":\"a\0b\"}]}";
  LB_CHECK(load(w, raw, sizeof raw - 1u) == LB_ERR_PARSE);
  const char *bad8 = "{\"entities\":[{\"name\":\"a\xC3\x28\"}]}";
  LB_CHECK(load(w, bad8, strlen(bad8)) == LB_ERR_PARSE);
  LB_CHECK(strstr(lb_world_last_error(w), "invalid UTF-8") != NULL);
  const char *good8 = "{\"entities\":[{\"name\":\"h\xC3\xA9ros \xE2\x9C\x8B\"}]}";
  LB_CHECK(load(w, good8, strlen(good8)) == LB_OK);
  const char *esc = "{\"entities\":[{\"name\":\"back\\\\u0000slash\"}]}"; /* not a NUL */
  LB_CHECK(load(w, esc, strlen(esc)) == LB_OK);
  lb_world_destroy(w);
}

static void test_other_json_entries(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  /* Component JSON. */
  lb_transform_c xf;
  lb_component_defaults(LB_TRANSFORM, &xf);
  const char *cj[] = {"{\"position\":[1,2,3]} x", "{\"position\":[1,2,3]}{}",
                      "{\"position\":[1,2,3],\"position\":[0,0,0]}",
                      "{\"parentJoint\":\"Right\\u0000Hand\"}", "{\"parentJoint\":\"\xFF\"}"};
  for (size_t i = 0; i < sizeof cj / sizeof cj[0]; ++i) {
    LB_CHECK(lb_component_from_json(w, NULL, LB_TRANSFORM, cj[i], strlen(cj[i]), &xf) ==
             LB_ERR_PARSE);
    LB_CHECK(xf.position[0] == 0.0f);
  }
  const char *ok = "{\"position\":[1,2,3]}  ";
  LB_CHECK(lb_component_from_json(w, NULL, LB_TRANSFORM, ok, strlen(ok), &xf) == LB_OK);
  LB_CHECK(xf.position[2] == 3.0f);
  /* Grip poses. */
  const char *gp[] = {"{\"index\":{\"curl\":0.5}} {}", "{\"index\":{\"curl\":0.5}}x",
                      "{\"index\":{\"curl\":0.5,\"curl\":0.6}}"};
  for (size_t i = 0; i < sizeof gp / sizeof gp[0]; ++i) {
    LB_CHECK(lb_world_register_grip_pose(w, "claw", gp[i], strlen(gp[i])) == LB_ERR_PARSE);
  }
  LB_CHECK(lb_world_register_grip_pose(w, "claw", gp[0], 23) == LB_OK);
  /* Finger poses. */
  const char *fp = "{\"hand\":\"RightHand\",\"joints\":{}} []";
  LB_CHECK(lb_world_register_finger_pose(w, "f", fp, strlen(fp)) == LB_ERR_PARSE);
  LB_CHECK(!lb_world_has_finger_pose(w, "f"));
  LB_CHECK(strstr(lb_world_last_error(w), "text after the JSON value") != NULL);
  const char *fd = "{\"hand\":\"RightHand\",\"hand\":\"LeftHand\",\"joints\":{}}";
  LB_CHECK(lb_world_register_finger_pose(w, "f", fd, strlen(fd)) == LB_ERR_PARSE);
  LB_CHECK(strstr(lb_world_last_error(w), "hand: repeated key") != NULL);
  /* Controllers. */
  uint32_t sk = 0, h = 7;
  lb_humanoid_def hd = lb_humanoid_default_def();
  LB_CHECK(lb_world_add_humanoid(w, &hd, &sk) == LB_OK);
  const char *cc[] = {"{\"states\":{\"A\":{\"clip\":\"x\"}}} 1",
                      "{\"states\":{\"A\":{\"clip\":\"x\"}},\"states\":{}}"};
  for (size_t i = 0; i < sizeof cc / sizeof cc[0]; ++i) {
    LB_CHECK(lb_world_add_controller_json(w, sk, "c", cc[i], strlen(cc[i]), &h) == LB_ERR_PARSE);
    LB_CHECK(h == 7);
  }
  lb_world_destroy(w);
}

static void test_names(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  lb_name id = 99;
  LB_CHECK(lb_world_intern(w, "Right\xE2\x9C\x8BHand", &id) == LB_OK && id != 99);
  const char *bad[] = {"\xC0\xAF", "a\xED\xA0\x80", "\xF4\x90\x80\x80", "\x80", "ab\xE2\x9C"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    id = 99;
    LB_CHECK(lb_world_intern(w, bad[i], &id) == LB_ERR_OUT_OF_RANGE && id == 99);
    LB_CHECK(strstr(lb_world_last_error(w), "not valid UTF-8") != NULL);
  }
  /* Registrations refuse such names the same way. */
  const char *pose = "{\"index\":{\"curl\":0.5}}";
  LB_CHECK(lb_world_register_grip_pose(w, "cl\xFFw", pose, strlen(pose)) == LB_ERR_OUT_OF_RANGE);
  LB_CHECK(strstr(lb_world_last_error(w), "not valid UTF-8") != NULL);
  LB_CHECK(lb_world_register_finger_pose(w, "f\xC3", "{}", 2) == LB_ERR_OUT_OF_RANGE);
  LB_CHECK(strstr(lb_world_last_error(w), "not valid UTF-8") != NULL);
  /* Scene entity names and name fields in scenes. */
  lb_scene *sc = NULL;
  const char *s1 = "{\"entities\":[{\"name\":\"e\",\"components\":{\"Transform\":{}}}],"
                   "\"timeline\":[{\"step\":0,\"update\":{\"entity\":\"e\",\"component\":"
                   "\"Transform\",\"fields\":{\"parentJoint\":\"\xC3\xA9\xFF\"}}}]}";
  LB_CHECK(lb_scene_load(w, s1, strlen(s1), &sc) == LB_ERR_PARSE && sc == NULL);
  lb_world_destroy(w);
}

int main(void) {
  LB_RUN(test_scene_trailing_and_duplicates);
  LB_RUN(test_other_json_entries);
  LB_RUN(test_names);
  LB_TEST_MAIN_END();
}
