/* The Vault component (module vault) on the vault-course scene: each obstacle's verdict
 * against the level file, the vaultable ones cleared (far side reached, controller height and
 * centre restored bit-exactly), the planted hand on the top at mid-vault, the capsule never
 * inside an obstacle (closest point queries every step), no allocation in steps, the stored
 * hash; a scripted vault without an Animator; bad input refused with the world unchanged.
 * Figures printed per obstacle. Run from the repository root (ctest's WORKING_DIRECTORY).
 * LB_VAULT_CALIBRATE=1 runs the scene without its timeline and prints the steps at which the
 * hero reaches each takeoff (how the scene's timeline was made). */
#include "limber/limber.h"

#include <stdlib.h>
#include <string.h>

#include "cJSON.h"
#include "humanoid_fixture.h"
#include "test.h"

#define GLB "assets/rigs/mannequin-mixamo.glb"
#define LEVEL "assets/levels/vault-course.json"
#define SCENE "assets/scenes/vault-course.json"
#define DT (1.0f / 60.0f)
#define STEPS 1000
#define HASH_KEY "vault-course.json@1000"
#define OBSTACLE_LAYER 2u

static const char *const state_names[] = {"Idle", "Vaulting", "Over", "Landing"};
static const char *const class_names[] = {"None", "StepOver", "Vault", "Mantle", "TooTall"};
static const char *const refusal_names[] = {"None", "NotVaultable", "NoFloor", "NoRoom",
                                            "Busy", "NoTop",        "HandBusy"};

typedef struct course_obstacle {
  const char *piece;
  float near_z, far_z, top; /* from the level file's pieces */
  float takeoff;            /* level file: 0.7 m before the near face */
  bool vaultable;           /* level file */
  uint32_t cls;             /* the class the level's `why` names */
} course_obstacle;

/* assets/levels/vault-course.json: pieces (centre z +- depth / 2, height) and obstacles. */
static const course_obstacle course[] = {
    {"obstacle_curb_01", 4.0f, 4.4f, 0.3f, 3.3f, false, LB_VAULT_CLASS_STEP_OVER},
    {"obstacle_low_01", 10.0f, 10.3f, 0.55f, 9.3f, true, LB_VAULT_CLASS_VAULT},
    {"obstacle_low_02", 16.0f, 16.4f, 0.75f, 15.3f, true, LB_VAULT_CLASS_VAULT},
    {"obstacle_low_03", 22.0f, 22.25f, 0.9f, 21.3f, true, LB_VAULT_CLASS_VAULT},
    {"obstacle_low_04", 28.0f, 28.55f, 1.05f, 27.3f, true, LB_VAULT_CLASS_VAULT},
    {"obstacle_high_01", 34.0f, 34.4f, 1.4f, 33.3f, false, LB_VAULT_CLASS_TOO_TALL},
    {"obstacle_deep_01", 40.0f, 41.2f, 0.75f, 39.3f, false, LB_VAULT_CLASS_MANTLE},
};
#define COURSE_N (sizeof course / sizeof course[0])

static char *read_text(const char *path, size_t *len) {
  return lb_test_read_file(path, len);
}

/* Loads the scene; without_timeline drops its "timeline" (calibration). */
static lb_result load_course(lb_world *w, lb_scene **sc, bool without_timeline) {
  size_t len = 0, glen = 0, llen = 0;
  char *json = read_text(SCENE, &len);
  if (json && without_timeline) {
    cJSON *root = cJSON_Parse(json);
    cJSON_DeleteItemFromObjectCaseSensitive(root, "timeline");
    free(json);
    json = cJSON_PrintUnformatted(root);
    len = json ? strlen(json) : 0;
    cJSON_Delete(root);
  }
  uint8_t *glb = lb_test_read_file(GLB, &glen);
  uint8_t *level = lb_test_read_file(LEVEL, &llen);
  lb_scene_file files[2] = {{GLB, glb, glen}, {LEVEL, level, llen}};
  lb_result r = json && glb && level ? lb_scene_load_files(w, json, len, files, 2, sc)
                                     : LB_ERR_INVALID_ARGUMENT;
  free(json);
  free(glb);
  free(level);
  return r;
}

/* How deep the controller's capsule is inside an obstacle (layer 2), metres (<= 0: clear).
 * The capsule is vertical and the obstacles are boxes: the core point nearest a box is the
 * core height nearest the box's middle height, so one closest point query per box is exact. */
static lb_entity course_entity[16];

static float capsule_depth(lb_world *w, const lb_transform_c *t,
                           const lb_character_controller_c *cc, int *which) {
  float half = cc->applied_height * 0.5f - cc->radius;
  float cy = t->position[1] + cc->applied_center[1];
  float worst = -1e9f;
  *which = -1;
  lb_collide_filter f = lb_collide_default_filter();
  f.layers = OBSTACLE_LAYER;
  for (size_t i = 0; i < COURSE_N; ++i) {
    float mid = course[i].top * 0.5f;
    float y = mid < cy - half ? cy - half : (mid > cy + half ? cy + half : mid);
    vec3 p = {t->position[0] + cc->applied_center[0], y, t->position[2] + cc->applied_center[2]};
    /* the nearest obstacle to that point; it counts for this box when it is this box */
    lb_collide_hit h;
    if (lb_world_closest_point(w, p, cc->radius + 1.0f, &f, &h) != LB_OK ||
        h.entity != course_entity[i]) {
      continue;
    }
    float depth = cc->radius - h.distance;
    if (depth > worst) {
      worst = depth;
      *which = (int)i;
    }
  }
  return worst;
}

typedef struct figures {
  int request_step;
  uint32_t cls, refusal;
  float height, depth, height_delta;
  float deepest;  /* capsule depth inside this obstacle, worst step */
  float palm_gap; /* at mid-vault */
  float palm_error;
  float weight_mid;
  int plant_steps; /* steps with the hand fully planted */
  float gaps[64], errors[64];
  float feet; /* feet height at the request */
  float end_z;
  int over_step, idle_step;
  bool restored;
  bool shrunk; /* applied height went below the original */
  uint32_t root_motion;
} figures;

/* Runs the course: with the scene's timeline, or calibrating (requests made here at the
 * takeoffs, printed). Fills per-obstacle figures. */
static void run_course(lb_world *w, lb_scene *sc, bool calibrate, figures *fig) {
  lb_entity hero = lb_scene_entity(sc, "hero");
  bool trace = getenv("LB_TRACE") != NULL;
  int next = 0;         /* calibration: obstacle whose takeoff comes next */
  int active = -1;      /* obstacle of the last request */
  int teleport_at = -1; /* calibration */
  lb_vault_c v, prev;
  lb_character_controller_c cc0;
  LB_CHECK(lb_world_get(w, hero, LB_CHARACTER_CONTROLLER, &cc0) == LB_OK);
  LB_CHECK(lb_world_get(w, hero, LB_VAULT, &prev) == LB_OK);
  for (size_t k = 0; k < COURSE_N; ++k) {
    course_entity[k] = lb_scene_entity(sc, course[k].piece);
    LB_CHECK(course_entity[k] != LB_NULL_ENTITY);
  }
  for (int i = 0; i < STEPS; ++i) {
    lb_transform_c t;
    LB_CHECK(lb_world_get(w, hero, LB_TRANSFORM, &t) == LB_OK);
    if (calibrate) {
      if (next < (int)COURSE_N && t.position[2] >= course[next].takeoff) {
        printf("  calibrate: step %d request before %s (z %.3f)\n", i, course[next].piece,
               (double)t.position[2]);
        LB_CHECK(lb_world_vault_request(w, hero) == LB_OK);
        if (next == 5) {
          teleport_at = i + 40;
        }
        next++;
      }
      if (i == teleport_at) {
        printf("  calibrate: step %d teleport to z 37\n", i);
        t.position[2] = 37.0f;
        LB_CHECK(lb_world_set(w, hero, LB_TRANSFORM, &t) == LB_OK);
      }
    }
    LB_CHECK(lb_scene_step(w, sc, DT) == LB_OK);
    lb_character_controller_c cc;
    LB_CHECK(lb_world_get(w, hero, LB_VAULT, &v) == LB_OK);
    LB_CHECK(lb_world_get(w, hero, LB_CHARACTER_CONTROLLER, &cc) == LB_OK);
    LB_CHECK(lb_world_get(w, hero, LB_TRANSFORM, &t) == LB_OK);
    bool requested = v.vaults + v.refusals != prev.vaults + prev.refusals;
    if (requested) {
      /* which obstacle: the first whose near face is ahead */
      active = -1;
      for (size_t k = 0; k < COURSE_N && active < 0; ++k) {
        if (course[k].near_z > t.position[2]) {
          active = (int)k;
        }
      }
      if (active >= 0) {
        figures *f = &fig[active];
        f->request_step = i;
        f->cls = v.obstacle_class;
        f->refusal = v.refusal;
        f->height = v.height;
        f->depth = v.depth;
        f->height_delta = v.height_delta;
        f->root_motion = v.root_motion;
        f->feet = t.position[1];
        f->palm_gap = f->palm_error = 1e9f;
        f->deepest = -1e9f;
      }
    }
    int which = -1;
    float depth = capsule_depth(w, &t, &cc, &which);
    if (which >= 0) {
      fig[which].deepest = fig[which].deepest > depth ? fig[which].deepest : depth;
    }
    if (active >= 0 && course[active].vaultable) {
      figures *f = &fig[active];
      if (cc.applied_height < cc0.height) {
        f->shrunk = true;
      }
      /* mid-vault: every step the hand is fully planted (weight 1, before passing over) */
      if (v.state == LB_VAULT_VAULTING && v.hand_weight >= 1.0f) {
        if (f->plant_steps < 64) {
          f->gaps[f->plant_steps] = v.palm_gap;
          f->errors[f->plant_steps] = v.palm_error;
        }
        f->palm_gap = f->plant_steps == 0 || fabsf(v.palm_gap) > fabsf(f->palm_gap) ? v.palm_gap
                                                                                    : f->palm_gap;
        f->palm_error =
            f->plant_steps == 0 || v.palm_error > f->palm_error ? v.palm_error : f->palm_error;
        f->plant_steps++;
        f->weight_mid = v.hand_weight;
      }
      if (v.state == LB_VAULT_OVER && prev.state == LB_VAULT_VAULTING) {
        f->over_step = i;
      }
      if (v.state == LB_VAULT_IDLE && prev.state != LB_VAULT_IDLE) {
        f->idle_step = i;
        f->end_z = t.position[2];
        f->restored = memcmp(&cc.height, &cc0.height, sizeof(float)) == 0 &&
                      memcmp(cc.center, cc0.center, sizeof(vec3)) == 0 &&
                      memcmp(&cc.applied_height, &cc0.height, sizeof(float)) == 0 &&
                      memcmp(cc.applied_center, cc0.center, sizeof(vec3)) == 0;
      }
    }
    if (trace && (i % 10 == 0 || v.state != prev.state || requested)) {
      printf("  %4d z %7.3f y %6.3f %-8s t %.3f h %.3f cy %.3f w %.3f gap %+.4f depth %+.4f\n", i,
             (double)t.position[2], (double)t.position[1], state_names[v.state], (double)v.time,
             (double)cc.applied_height, (double)cc.applied_center[1], (double)v.hand_weight,
             (double)v.palm_gap, (double)depth);
    }
    prev = v;
  }
}

static void test_course(void) {
  lb_test_counter c = {0};
  lb_world_def def = lb_test_counting_def(&c);
  lb_world *w = NULL;
  lb_scene *sc = NULL;
  bool calibrate = getenv("LB_VAULT_CALIBRATE") != NULL;
  LB_CHECK(lb_world_create(&def, &w) == LB_OK);
  LB_CHECK(load_course(w, &sc, calibrate) == LB_OK);
  if (!sc) {
    lb_world_destroy(w);
    return;
  }
  figures fig[COURSE_N];
  memset(fig, 0, sizeof fig);
  size_t before = c.allocs;
  run_course(w, sc, calibrate, fig);
  printf("  allocations: %zu at load, %zu during %d steps\n", before, c.allocs - before, STEPS);
  LB_CHECK(c.allocs == before);
  for (size_t i = 0; i < COURSE_N; ++i) {
    const course_obstacle *o = &course[i];
    const figures *f = &fig[i];
    printf("%-17s step %4d %-8s refusal %-12s (level: %s) height %.4f depth %.4f; capsule "
           "deepest %+.4f m",
           o->piece, f->request_step, class_names[f->cls % 5], refusal_names[f->refusal % 6],
           o->vaultable ? "vaultable" : "not vaultable", (double)f->height, (double)f->depth,
           (double)f->deepest);
    if (o->vaultable) {
      printf("; shrink %.3f m, planted %d steps: worst palm gap %+.4f m, palm-target %.4f m, over "
             "at step %d, idle at %d, end z %.3f (far face %.2f), restored %s, %s\n",
             (double)f->height_delta, f->plant_steps, (double)f->palm_gap, (double)f->palm_error,
             f->over_step, f->idle_step, (double)f->end_z, (double)o->far_z,
             f->restored ? "bit-equal" : "NO", f->root_motion ? "root motion" : "scripted");
    } else {
      printf("\n");
    }
    LB_CHECK(f->request_step > 0);
    LB_CHECK(f->cls == o->cls);
    LB_CHECK((f->refusal == LB_VAULT_ACCEPTED) == o->vaultable);
    if (!o->vaultable) {
      LB_CHECK(f->refusal == LB_VAULT_NOT_VAULTABLE);
    }
    LB_CHECK(f->deepest <= 0.01f);
    if (o->vaultable) {
      LB_CHECK_NEAR(f->height, o->top - f->feet, 1e-3);
      LB_CHECK(f->plant_steps >= 3);
      LB_CHECK_NEAR(f->depth, o->far_z - o->near_z, 1e-3);
      LB_CHECK(f->shrunk);
      LB_CHECK(f->over_step > f->request_step && f->idle_step > f->over_step);
      LB_CHECK(f->end_z > o->far_z + 0.3f);
      LB_CHECK(f->restored);
      LB_CHECK(f->root_motion == 1);
      /* mid-vault: the middle step of the full plant */
      int mid = (f->plant_steps < 64 ? f->plant_steps : 64) / 2;
      printf("    mid-vault (plant step %d of %d): palm gap %+.4f m, palm to target %.4f m\n", mid,
             f->plant_steps, (double)f->gaps[mid], (double)f->errors[mid]);
      LB_CHECK(fabsf(f->gaps[mid]) <= 0.02f);
      LB_CHECK(f->errors[mid] <= 0.02f);
    }
  }
  if (!calibrate) {
    char got[17];
    snprintf(got, sizeof got, "%016llx", (unsigned long long)lb_world_hash(w));
    size_t hlen = 0;
    char *hashes = lb_test_read_file("tests/expected-hashes.json", &hlen);
    cJSON *exp = hashes ? cJSON_Parse(hashes) : NULL;
    const cJSON *want = cJSON_GetObjectItemCaseSensitive(exp, HASH_KEY);
    printf("  " HASH_KEY ": %s (stored %s)\n", got,
           cJSON_IsString(want) ? want->valuestring : "none");
    LB_CHECK(cJSON_IsString(want) && strcmp(want->valuestring, got) == 0);
    cJSON_Delete(exp);
    free(hashes);
  }
  lb_scene_destroy(w, sc);
  lb_world_destroy(w);
  LB_CHECK(c.allocs == c.frees);
}

/* ---- hand-built worlds --------------------------------------------------------------------- */

static lb_entity spawn_box(lb_world *w, float x, float y, float z, float sx, float sy, float sz,
                           uint32_t layer) {
  lb_entity e = LB_NULL_ENTITY;
  LB_CHECK(lb_world_spawn(w, &e) == LB_OK);
  lb_transform_c t;
  lb_component_defaults(LB_TRANSFORM, &t);
  t.position[0] = x, t.position[1] = y, t.position[2] = z;
  LB_CHECK(lb_world_insert(w, e, LB_TRANSFORM, &t) == LB_OK);
  lb_collider_c c;
  lb_component_defaults(LB_COLLIDER, &c);
  c.shape = LB_COLLIDER_BOX;
  c.size[0] = sx, c.size[1] = sy, c.size[2] = sz;
  c.layer = layer;
  LB_CHECK(lb_world_insert(w, e, LB_COLLIDER, &c) == LB_OK);
  return e;
}

static lb_entity spawn_character(lb_world *w) {
  lb_entity e = LB_NULL_ENTITY;
  LB_CHECK(lb_world_spawn(w, &e) == LB_OK);
  lb_transform_c t;
  lb_component_defaults(LB_TRANSFORM, &t);
  LB_CHECK(lb_world_insert(w, e, LB_TRANSFORM, &t) == LB_OK);
  lb_character_controller_c cc;
  lb_component_defaults(LB_CHARACTER_CONTROLLER, &cc);
  LB_CHECK(lb_world_insert(w, e, LB_CHARACTER_CONTROLLER, &cc) == LB_OK);
  return e;
}

/* No Animator, no Rig: the scripted travel over a 0.75 x 0.4 m box. */
static void test_scripted(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  spawn_box(w, 0, -0.05f, 3, 4, 0.1f, 8, 1);
  spawn_box(w, 0, 0.375f, 1.2f, 1.6f, 0.75f, 0.4f, 2);
  lb_entity hero = spawn_character(w);
  lb_vault_c v;
  lb_component_defaults(LB_VAULT, &v);
  LB_CHECK(lb_world_insert(w, hero, LB_VAULT, &v) == LB_OK);
  LB_CHECK(lb_world_step(w, DT) == LB_OK);
  lb_character_controller_c cc0, cc;
  LB_CHECK(lb_world_get(w, hero, LB_CHARACTER_CONTROLLER, &cc0) == LB_OK);
  LB_CHECK(lb_world_vault_request(w, hero) == LB_OK);
  /* a script move during the vault is refused as busy, naming the Vault; the one given with
   * the request (state Idle) is dropped by the step that starts the vault */
  int steps = 0, refused = 0;
  float min_h = 1e9f;
  bool busy_checked = false;
  do {
    vec3 push = {0.5f, 0, 0};
    lb_result mr = lb_world_controller_move(w, hero, push);
    LB_CHECK(mr == (v.state == LB_VAULT_IDLE ? LB_OK : LB_ERR_BUSY));
    if (mr == LB_ERR_BUSY) {
      refused++;
      LB_CHECK(strstr(lb_world_last_error(w), "owned by its Vault") != NULL);
      LB_CHECK(strstr(lb_world_last_error(w), "field 'move'") != NULL);
    }
    LB_CHECK(lb_world_step(w, DT) == LB_OK);
    LB_CHECK(lb_world_get(w, hero, LB_VAULT, &v) == LB_OK);
    LB_CHECK(lb_world_get(w, hero, LB_CHARACTER_CONTROLLER, &cc) == LB_OK);
    min_h = cc.applied_height < min_h ? cc.applied_height : min_h;
    if (!busy_checked && v.state == LB_VAULT_VAULTING) {
      uint32_t r = v.refusals;
      LB_CHECK(lb_world_vault_request(w, hero) == LB_OK);
      LB_CHECK(lb_world_step(w, DT) == LB_OK);
      LB_CHECK(lb_world_get(w, hero, LB_VAULT, &v) == LB_OK);
      LB_CHECK(v.refusal == LB_VAULT_BUSY && v.refusals == r + 1);
      busy_checked = true;
      steps++;
    }
    steps++;
  } while (v.state != LB_VAULT_IDLE && steps < 400);
  lb_transform_c t;
  LB_CHECK(lb_world_get(w, hero, LB_TRANSFORM, &t) == LB_OK);
  printf("  scripted: %d steps (duration %.3f s), end (%.4f, %.4f, %.4f), least height %.3f, "
         "shrink %.3f, rootMotion %u\n",
         steps, (double)v.duration, (double)t.position[0], (double)t.position[1],
         (double)t.position[2], (double)min_h, (double)v.height_delta, v.root_motion);
  LB_CHECK(v.state == LB_VAULT_IDLE && v.vaults == 1 && v.root_motion == 0);
  LB_CHECK(v.duration == 1.2f);
  LB_CHECK(busy_checked);
  LB_CHECK(refused > 0);
  /* travel = distance (1.0: near face from the feet) + depth (0.4) + landing (0.5) */
  LB_CHECK_NEAR(t.position[2], 1.9, 0.02);
  LB_CHECK_NEAR(t.position[0], 0.0, 1e-6);
  LB_CHECK(memcmp(&cc.height, &cc0.height, 4) == 0 && memcmp(cc.center, cc0.center, 12) == 0);
  LB_CHECK(memcmp(&cc.applied_height, &cc0.height, 4) == 0 &&
           memcmp(cc.applied_center, cc0.center, 12) == 0);
  LB_CHECK(min_h < cc0.height - 1.0f);
  lb_world_destroy(w);
}

/* A moving obstacle (rising and sliding sideways during the vault) on a humanoid with a Rig:
 * the top and the hand target follow it (the target stays on its top every step); removing
 * the Vault mid-vault gives the controller its size and snap back, bit-equal. */
static void test_moving_obstacle_and_remove(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  spawn_box(w, 0, -0.05f, 3, 6, 0.1f, 8, 1);
  lb_entity ob = spawn_box(w, 0, 0.45f, 1.2f, 3.0f, 0.9f, 0.4f, 2);
  lb_entity hero = spawn_character(w);
  lb_humanoid_def hd = lb_humanoid_default_def();
  uint32_t asset = 0;
  LB_CHECK(lb_world_add_humanoid(w, &hd, &asset) == LB_OK);
  lb_rig_c rig;
  lb_component_defaults(LB_RIG, &rig);
  rig.asset = asset;
  LB_CHECK(lb_world_insert(w, hero, LB_RIG, &rig) == LB_OK);
  lb_vault_c v;
  lb_component_defaults(LB_VAULT, &v);
  LB_CHECK(lb_world_insert(w, hero, LB_VAULT, &v) == LB_OK);
  LB_CHECK(lb_world_step(w, DT) == LB_OK);
  LB_CHECK(lb_world_vault_request(w, hero) == LB_OK);
  int planted = 0;
  double worst = 0, worst_top = 0;
  for (int i = 0; i < 30; ++i) {
    lb_transform_c t;
    LB_CHECK(lb_world_get(w, ob, LB_TRANSFORM, &t) == LB_OK);
    t.position[1] += 0.002f; /* up 12 cm/s and sideways 6 cm/s */
    t.position[0] += 0.001f;
    LB_CHECK(lb_world_set(w, ob, LB_TRANSFORM, &t) == LB_OK);
    LB_CHECK(lb_world_step(w, DT) == LB_OK);
    LB_CHECK(lb_world_get(w, hero, LB_VAULT, &v) == LB_OK);
    float top_y = t.position[1] + 0.45f;
    worst_top = fmax(worst_top, fabs(v.top[1] - top_y));
    if (v.hand_weight > 0.0f) {
      planted++;
      worst = fmax(worst, fabs(v.hand_target[1] - top_y));
    }
  }
  printf("  moving obstacle: %d steps with the hand planted, target off the moved top by at most "
         "%.2e m, top output by %.2e m\n",
         planted, worst, worst_top);
  LB_CHECK(v.state == LB_VAULT_VAULTING || v.state == LB_VAULT_OVER);
  LB_CHECK(planted >= 10);
  LB_CHECK(worst <= 1e-4);
  LB_CHECK(worst_top <= 1e-4);
  /* removed mid-vault: the controller as it was */
  lb_character_controller_c cc, def;
  lb_component_defaults(LB_CHARACTER_CONTROLLER, &def);
  LB_CHECK(lb_world_get(w, hero, LB_CHARACTER_CONTROLLER, &cc) == LB_OK);
  LB_CHECK(cc.height != def.height && cc.snap_distance == 0.0f);
  LB_CHECK(lb_world_remove(w, hero, LB_VAULT) == LB_OK);
  LB_CHECK(lb_world_get(w, hero, LB_CHARACTER_CONTROLLER, &cc) == LB_OK);
  LB_CHECK(memcmp(&cc.height, &def.height, 4) == 0 && memcmp(cc.center, def.center, 12) == 0 &&
           memcmp(&cc.snap_distance, &def.snap_distance, 4) == 0);
  lb_world_destroy(w);
}

/* A humanoid holding a two-handed rifle (GripHolder, main hand right, the rifle a child of
 * the character) in front of a box, scripted travel. */
static lb_entity spawn_rifle_holder(lb_world *w, uint32_t busy, uint32_t hand, float support) {
  spawn_box(w, 0, -0.05f, 3, 6, 0.1f, 8, 1);
  spawn_box(w, 0, 0.375f, 0.7f, 1.6f, 0.75f, 0.4f, 2);
  lb_entity hero = spawn_character(w);
  lb_humanoid_def hd = lb_humanoid_default_def();
  lb_rig_c rig;
  lb_component_defaults(LB_RIG, &rig);
  LB_CHECK(lb_world_add_humanoid(w, &hd, &rig.asset) == LB_OK);
  LB_CHECK(lb_world_insert(w, hero, LB_RIG, &rig) == LB_OK);
  versor id = {0, 0, 0, 1}, down, tilt;
  lb_quat_from_axis_angle((vec3){1, 0, 0}, 90.0f * LB_DEG2RAD, down);
  lb_quat_from_axis_angle((vec3){0, 0, 1}, -70.0f * LB_DEG2RAD, tilt);
  lb_entity rifle = lb_test_spawn_xf(w, hero, 0, 1.2f, 0.35f, id);
  lb_grip_profile_c prof;
  lb_component_defaults(LB_GRIP_PROFILE, &prof);
  prof.main_anchor = lb_test_spawn_xf(w, rifle, -0.18f, 0, 0, down);
  prof.support_anchor = lb_test_spawn_xf(w, rifle, 0.14f, 0.04f, 0.06f, tilt);
  LB_CHECK(lb_world_insert(w, rifle, LB_GRIP_PROFILE, &prof) == LB_OK);
  lb_grip_holder_c gh;
  lb_component_defaults(LB_GRIP_HOLDER, &gh);
  gh.held = rifle;
  gh.placement = LB_GRIP_PLACEMENT_OBJECT;
  gh.support_weight = support;
  LB_CHECK(lb_world_insert(w, hero, LB_GRIP_HOLDER, &gh) == LB_OK);
  lb_vault_c v;
  lb_component_defaults(LB_VAULT, &v);
  v.busy_hand = busy;
  v.hand = hand;
  LB_CHECK(lb_world_insert(w, hero, LB_VAULT, &v) == LB_OK);
  LB_CHECK(lb_world_step(w, DT) == LB_OK);
  LB_CHECK(lb_world_vault_request(w, hero) == LB_OK);
  LB_CHECK(lb_world_step(w, DT) == LB_OK);
  return hero;
}

/* busyHand: which hand is planted or why not, per rule (the main hand never), and the
 * support hand's hand-over: the grip reports the vault's share as released while the vault
 * drives the hand, and holds the hand again (within 0.5 mm) once the share is back to 0. */
static void test_busy_hand(void) {
  static const struct {
    uint32_t busy, hand;
    float support;
    uint32_t refusal, planted; /* lb_vault_refusal; plantedHand: 0 None, 1 Right, 2 Left */
  } cases[] = {
      {LB_VAULT_BUSY_RELEASE_AND_REGRIP, 1, 1.0f, LB_VAULT_ACCEPTED, 2},
      {LB_VAULT_BUSY_RELEASE_AND_REGRIP, 0, 1.0f, LB_VAULT_ACCEPTED, 2}, /* right is main */
      {LB_VAULT_BUSY_FREE_HAND, 1, 1.0f, LB_VAULT_HAND_BUSY, 0},
      {LB_VAULT_BUSY_FREE_HAND, 0, 0.0f, LB_VAULT_ACCEPTED, 2}, /* one-handed: left is free */
      {LB_VAULT_BUSY_REFUSE, 1, 1.0f, LB_VAULT_HAND_BUSY, 0},
      {LB_VAULT_BUSY_REFUSE, 1, 0.0f, LB_VAULT_ACCEPTED, 2},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    lb_world *w = NULL;
    LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
    lb_entity hero = spawn_rifle_holder(w, cases[k].busy, cases[k].hand, cases[k].support);
    lb_vault_c v;
    lb_grip_holder_c gh;
    uint32_t planted = 0;
    int shared = 0, mismatched = 0, steps = 0;
    do {
      LB_CHECK(lb_world_get(w, hero, LB_VAULT, &v) == LB_OK);
      LB_CHECK(lb_world_get(w, hero, LB_GRIP_HOLDER, &gh) == LB_OK);
      planted = v.planted_hand ? v.planted_hand : planted;
      shared += gh.support_release > 0.0f;
      mismatched += cases[k].support > 0.0f && gh.support_release != v.hand_weight;
      lb_grip_hand_status main;
      LB_CHECK(lb_world_grip_hand_status(w, hero, LB_HAND_RIGHT, &main) == LB_OK);
      LB_CHECK(steps == 0 || main.driver == 2); /* GripHolder main: never released */
      LB_CHECK(lb_world_step(w, DT) == LB_OK);
    } while (v.state != LB_VAULT_IDLE && ++steps < 300);
    for (int i = 0; i < 30; ++i) { /* a refused request ends at once: let the grab's blend end */
      LB_CHECK(lb_world_step(w, DT) == LB_OK);
    }
    LB_CHECK(lb_world_get(w, hero, LB_GRIP_HOLDER, &gh) == LB_OK);
    printf("  busyHand %u hand %u support %.0f: refusal %u, planted %u, %d steps released\n",
           cases[k].busy, cases[k].hand, (double)cases[k].support, v.refusal, planted, shared);
    LB_CHECK(v.refusal == cases[k].refusal && planted == cases[k].planted);
    LB_CHECK(v.vaults == (cases[k].refusal == LB_VAULT_ACCEPTED ? 1u : 0u));
    LB_CHECK(mismatched == 0);
    /* released exactly while a support hand was planted; a free hand is nobody's to release */
    LB_CHECK((cases[k].support > 0.0f && planted) ? shared > 0 : shared == 0);
    LB_CHECK(gh.support_release == 0.0f);
    LB_CHECK(cases[k].support == 0.0f || (gh.support_reached && gh.support_distance < 5e-4f));
    lb_world_destroy(w);
  }
}

/* Bad input: refused with a clear message, nothing changes. */
static void test_bad_input(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  spawn_box(w, 0, -0.05f, 3, 4, 0.1f, 8, 1);
  lb_entity hero = spawn_character(w);
  lb_entity bare = LB_NULL_ENTITY;
  LB_CHECK(lb_world_spawn(w, &bare) == LB_OK);
  lb_vault_c v, got;
  lb_component_defaults(LB_VAULT, &v);
  /* no controller */
  LB_CHECK(lb_world_insert(w, bare, LB_VAULT, &v) == LB_ERR_MISSING_COMPONENT);
  printf("  no controller: %s\n", lb_world_last_error(w));
  LB_CHECK(strstr(lb_world_last_error(w), "CharacterController") != NULL);
  LB_CHECK(!lb_world_has(w, bare, LB_VAULT));
  LB_CHECK(lb_world_insert(w, hero, LB_VAULT, &v) == LB_OK);
  uint64_t h0 = lb_world_hash(w);
  lb_vault_c bad;
  struct {
    const char *field;
    lb_result code;
  } cases[] = {
      {"handRadius", LB_ERR_NOT_FINITE},
      {"handRadius", LB_ERR_OUT_OF_RANGE},
      {"maxDistance", LB_ERR_OUT_OF_RANGE},
      {"castDownCountLimit", LB_ERR_OUT_OF_RANGE},
      {"handLocalOrigin", LB_ERR_NOT_FINITE},
      {"vaultDuration", LB_ERR_OUT_OF_RANGE},
      {"castForwardCountLimit", LB_ERR_OUT_OF_RANGE},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    bad = v;
    switch (k) {
    case 0:
      bad.hand_radius = NAN;
      break;
    case 1:
      bad.hand_radius = -0.1f;
      break;
    case 2:
      bad.max_distance = 0.0f;
      break;
    case 3:
      bad.cast_down_limit = 0;
      break;
    case 4:
      bad.hand_origin[1] = INFINITY;
      break;
    case 5:
      bad.vault_duration = -1.0f;
      break;
    default:
      bad.cast_forward_limit = 65;
      break;
    }
    lb_result r = lb_world_set(w, hero, LB_VAULT, &bad);
    printf("  %-22s -> %d: %s\n", cases[k].field, (int)r, lb_world_last_error(w));
    LB_CHECK(r == cases[k].code);
    LB_CHECK(strstr(lb_world_last_error(w), cases[k].field) != NULL);
    LB_CHECK(strstr(lb_world_last_error(w), "Vault") != NULL);
    LB_CHECK(lb_world_get(w, hero, LB_VAULT, &got) == LB_OK && memcmp(&got, &v, sizeof v) == 0);
  }
  /* requests and casts on entities without a Vault, stale handles, null outputs */
  LB_CHECK(lb_world_vault_request(w, bare) == LB_ERR_MISSING_COMPONENT);
  printf("  request without Vault: %s\n", lb_world_last_error(w));
  LB_CHECK(strstr(lb_world_last_error(w), "no Vault") != NULL);
  LB_CHECK(lb_world_vault_request(NULL, hero) == LB_ERR_INVALID_ARGUMENT);
  lb_entity gone = LB_NULL_ENTITY;
  LB_CHECK(lb_world_spawn(w, &gone) == LB_OK && lb_world_despawn(w, gone) == LB_OK);
  LB_CHECK(lb_world_vault_request(w, gone) == LB_ERR_STALE_ENTITY);
  uint32_t n = 0;
  LB_CHECK(lb_world_vault_casts(w, hero, NULL, 0, NULL) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_world_vault_casts(w, hero, NULL, 4, &n) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_world_vault_casts(w, hero, NULL, 0, &n) == LB_OK && n == 0);
  LB_CHECK(lb_world_hash(w) == h0);
  LB_CHECK(lb_world_get(w, hero, LB_VAULT, &got) == LB_OK && got.request == 0);
  /* a request with nothing ahead: refused as not vaultable, the controller untouched */
  lb_character_controller_c cc0, cc;
  LB_CHECK(lb_world_get(w, hero, LB_CHARACTER_CONTROLLER, &cc0) == LB_OK);
  LB_CHECK(lb_world_vault_request(w, hero) == LB_OK);
  LB_CHECK(lb_world_step(w, DT) == LB_OK);
  LB_CHECK(lb_world_get(w, hero, LB_VAULT, &got) == LB_OK);
  LB_CHECK(lb_world_get(w, hero, LB_CHARACTER_CONTROLLER, &cc) == LB_OK);
  LB_CHECK(got.state == LB_VAULT_IDLE && got.refusal == LB_VAULT_NOT_VAULTABLE &&
           got.obstacle_class == LB_VAULT_CLASS_NONE && got.refusals == 1 && got.request == 0);
  LB_CHECK(cc.height == cc0.height && memcmp(cc.center, cc0.center, 12) == 0);
  LB_CHECK(lb_world_vault_casts(w, hero, NULL, 0, &n) == LB_OK && n > 0);
  printf("  nothing ahead: refused NotVaultable, %u casts recorded\n", n);
  lb_world_destroy(w);
}

/* Every component's writable fields sit in the first 32 schema rows (the field mask of a
 * scene update); the Vault has more than 32 rows, its outputs last. */
static void test_schema_rows(void) {
  for (uint32_t type = 0; type < LB_COMPONENT_TYPE_COUNT; ++type) {
    const lb_component_info *info = lb_component_info_get(type);
    LB_CHECK(info != NULL);
    for (uint32_t i = 32; info && i < info->field_count; ++i) {
      LB_CHECK(info->fields[i].flags & LB_FIELD_READONLY);
    }
  }
  const lb_component_info *v = lb_component_info_get(LB_VAULT);
  printf("  Vault: %u schema rows\n", v ? v->field_count : 0);
  LB_CHECK(v && v->field_count > 32);
}

int main(void) {
  LB_RUN(test_course);
  LB_RUN(test_scripted);
  LB_RUN(test_moving_obstacle_and_remove);
  LB_RUN(test_busy_hand);
  LB_RUN(test_bad_input);
  LB_RUN(test_schema_rows);
  LB_TEST_MAIN_END();
}
