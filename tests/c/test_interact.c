/* Environment interaction (module interact) on the corridor scene: palm on the wall in
 * Touch, no side flips in the narrow lane, releases at the gaps and the alcove with
 * re-plants after, weights back to 0 within the reset time, per-step bounds, no allocation
 * in steps, the stored hash; bad input refused with the world unchanged. Every figure is
 * printed. Run from the repository root (ctest sets WORKING_DIRECTORY). LB_TRACE=1 prints a
 * line every 10 steps. */
#include "limber/limber.h"

#include <stdlib.h>
#include <string.h>

#include "cJSON.h"
#include "test.h"

#define GLB "assets/rigs/mannequin-mixamo.glb"
#define LEVEL "assets/levels/corridor.json"
#define SCENE "assets/scenes/corridor.json"
#define DT (1.0f / 60.0f)
#define STEPS 1000

static const char *const state_names[] = {"Search", "Approach", "Rise", "Touch", "Reset"};
static const char *const side_names[] = {"None", "Right", "Left"};

static lb_result load_corridor(lb_world *w, lb_scene **sc) {
  size_t len = 0, glen = 0, llen = 0;
  char *json = lb_test_read_file(SCENE, &len);
  char list[256];
  size_t need = 0;
  LB_CHECK(json && lb_scene_files(json, len, list, sizeof list, &need) == LB_OK);
  LB_CHECK(strcmp(list, GLB "\n" LEVEL "\n") == 0);
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

typedef struct sample {
  lb_env_interaction_c ei;
  float x, z; /* root */
  float lane; /* distance along the lane (z, then 12 + x after the corner) */
} sample;

static sample samples[STEPS];

/* Lane coordinate: along +Z to the corner, then 12 + x. */
static float lane_of(float x, float z) {
  return z < 11.9f ? z : 12.0f + x;
}

static void run_corridor(lb_world *w, lb_scene *sc) {
  lb_entity hero = lb_scene_entity(sc, "hero");
  bool trace = getenv("LB_TRACE") != NULL;
  for (int i = 0; i < STEPS; ++i) {
    LB_CHECK(lb_scene_step(w, sc, DT) == LB_OK);
    sample *s = &samples[i];
    LB_CHECK(lb_world_get(w, hero, LB_ENV_INTERACTION, &s->ei) == LB_OK);
    lb_transform root;
    LB_CHECK(lb_world_entity_transform(w, hero, &root) == LB_OK);
    s->x = root.t[0];
    s->z = root.t[2];
    s->lane = lane_of(s->x, s->z);
    if (trace && (i % 10 == 0 || (i > 0 && samples[i - 1].ei.state != s->ei.state))) {
      printf("  %4d lane %6.3f %-8s %-5s R%.3f L%.3f rise %.3f palm %+.4f plants %u target "
             "(%.3f %.3f %.3f)\n",
             i, (double)s->lane, state_names[s->ei.state], side_names[s->ei.side],
             (double)s->ei.right_weight, (double)s->ei.left_weight, (double)s->ei.rise,
             (double)s->ei.palm_distance, s->ei.plants, (double)s->ei.target[0],
             (double)s->ei.target[1], (double)s->ei.target[2]);
    }
  }
}

/* Touch steps in [from, to) of the lane on a side. */
static int touch_steps(float from, float to, uint32_t side) {
  int n = 0;
  for (int i = 0; i < STEPS; ++i) {
    n += samples[i].lane >= from && samples[i].lane < to && samples[i].ei.state == 3 &&
         samples[i].ei.side == side;
  }
  return n;
}

static void test_corridor_walk(void) {
  lb_world *w = NULL;
  lb_scene *sc = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  LB_CHECK(load_corridor(w, &sc) == LB_OK);
  if (!sc) {
    lb_world_destroy(w);
    return;
  }
  run_corridor(w, sc);
  const lb_env_interaction_c *cfg = &samples[0].ei;
  const float wbound = DT / cfg->blend_seconds;
  const float tbound = cfg->max_hand_speed * DT;

  /* 1. Palm centre on the wall while in Touch. */
  float pmin = 1e9f, pmax = -1e9f;
  int touch = 0;
  for (int i = 0; i < STEPS; ++i) {
    if (samples[i].ei.state == 3) {
      touch++;
      pmin = samples[i].ei.palm_distance < pmin ? samples[i].ei.palm_distance : pmin;
      pmax = samples[i].ei.palm_distance > pmax ? samples[i].ei.palm_distance : pmax;
    }
  }
  printf("  Touch: %d of %d steps; palm centre to wall surface min %.4f m, max %.4f m "
         "(must be in [0, 0.02])\n",
         touch, STEPS, (double)pmin, (double)pmax);
  LB_CHECK(touch > 200);
  LB_CHECK(pmin >= 0.0f && pmax <= 0.02f);

  /* 2. No flips: the side changes only through None (a released wall), never from one arm to
   * the other directly, and each engagement lasts. */
  int engagements = 0, direct_flips = 0, switches = 0;
  uint32_t last_side = 0;
  int shortest = 1 << 30, since = 0;
  for (int i = 0; i < STEPS; ++i) {
    uint32_t sd = samples[i].ei.side;
    uint32_t prev = i ? samples[i - 1].ei.side : 0;
    if (sd != prev && sd != 0 && prev != 0) {
      direct_flips++;
    }
    if (sd != 0 && prev == 0) {
      engagements++;
      if (last_side && sd != last_side) {
        switches++;
      }
      last_side = sd;
      since = 0;
    }
    since++;
    if (sd == 0 && prev != 0 && since < shortest) {
      shortest = since;
    }
  }
  int lane_switches = 0;
  for (int i = 1; i < STEPS; ++i) {
    lane_switches += samples[i].lane < 11.2f && samples[i].ei.side != samples[i - 1].ei.side &&
                     samples[i].ei.side != 0 && samples[i - 1].ei.side != 0;
  }
  printf("  sides: %d engagements, %d side switches between engagements, %d direct flips "
         "(0 wanted), %d in the narrow lane; shortest engagement %d steps\n",
         engagements, switches, direct_flips, lane_switches, shortest);
  LB_CHECK(direct_flips == 0 && lane_switches == 0);
  LB_CHECK(shortest >= (int)(cfg->min_switch_seconds / DT));

  /* 3. Gaps and the alcove: no Touch on that side in the gap's middle, Touch again after. */
  static const struct {
    const char *name;
    uint32_t side;
    float from, to, next_to;
  } gaps[] = {{"left gap z 3.5-4.5", 2, 3.5f, 4.5f, 8.0f},
              {"alcove (right, z 6-9)", 1, 6.0f, 9.0f, 12.0f},
              {"left gap z 8-9", 2, 8.0f, 9.0f, 11.2f},
              {"left gap x 4-5", 2, 16.0f, 17.0f, 20.0f}};
  /* A hand touching that side before the gap lets go inside it; a hand (the nearer wall's,
   * possibly the other one) is planted again after it, before the next gap. */
  for (size_t g = 0; g < sizeof gaps / sizeof gaps[0]; ++g) {
    uint32_t other = 3u - gaps[g].side;
    int before = touch_steps(gaps[g].from - 1.5f, gaps[g].from, gaps[g].side);
    int inside = touch_steps(gaps[g].from + 0.35f, gaps[g].to - 0.05f, gaps[g].side);
    int after_same = touch_steps(gaps[g].to, gaps[g].next_to, gaps[g].side);
    int after_other = touch_steps(gaps[g].from + 0.35f, gaps[g].next_to, other);
    printf("  %-22s %-5s hand Touch steps: %3d before, %3d inside; re-planted after: %3d %s, "
           "%3d %s\n",
           gaps[g].name, side_names[gaps[g].side], before, inside, after_same,
           side_names[gaps[g].side], after_other, side_names[other]);
    LB_CHECK(before > 0 && inside == 0);
    LB_CHECK(after_same + after_other > 0);
  }

  /* 4. Weights: per-step bound, Reset ends within the reset time, 0 at the end. */
  float wmax = 0.0f, tmax = 0.0f;
  int reset_steps_max = 0, resets = 0;
  for (int i = 1; i < STEPS; ++i) {
    const lb_env_interaction_c *a = &samples[i - 1].ei, *b = &samples[i].ei;
    float d[3] = {fabsf(b->right_weight - a->right_weight), fabsf(b->left_weight - a->left_weight),
                  fabsf(b->rise - a->rise)};
    for (int k = 0; k < 3; ++k) {
      wmax = d[k] > wmax ? d[k] : wmax;
    }
    if (a->state != 0 && b->state != 0) {
      float dx = b->target[0] - a->target[0], dy = b->target[1] - a->target[1],
            dz = b->target[2] - a->target[2];
      float dt = sqrtf(dx * dx + dy * dy + dz * dz);
      tmax = dt > tmax ? dt : tmax;
    }
    if (b->state == 4 && a->state != 4) {
      resets++;
      int n = 0;
      while (i + n < STEPS && samples[i + n].ei.state == 4) {
        n++;
      }
      reset_steps_max = n > reset_steps_max ? n : reset_steps_max;
    }
  }
  const sample *end = &samples[STEPS - 1];
  int reset_limit = (int)(cfg->blend_seconds / DT + 0.5f) + 1;
  printf("  weights: largest per-step change %.5f (bound dt/blendSeconds = %.5f); target %.5f m "
         "(bound maxHandSpeed*dt = %.5f m)\n",
         (double)wmax, (double)wbound, (double)tmax, (double)tbound);
  printf("  resets: %d, longest %d steps (bound %d = blendSeconds/dt + 1); at the end %s, "
         "weights R%.3f L%.3f rise %.3f, %u plants\n",
         resets, reset_steps_max, reset_limit, state_names[end->ei.state],
         (double)end->ei.right_weight, (double)end->ei.left_weight, (double)end->ei.rise,
         end->ei.plants);
  LB_CHECK(wmax <= wbound * 1.0001f);
  LB_CHECK(tmax <= tbound * 1.0001f);
  LB_CHECK(reset_steps_max <= reset_limit);
  LB_CHECK(end->ei.state == 0 && end->ei.right_weight == 0.0f && end->ei.left_weight == 0.0f &&
           end->ei.rise == 0.0f);
  LB_CHECK(resets >= 4);

  lb_scene_destroy(w, sc);
  lb_world_destroy(w);
}

static void test_no_allocation_and_hash(void) {
  lb_test_counter c = {0};
  lb_world_def def = lb_test_counting_def(&c);
  lb_world *w = NULL;
  lb_scene *sc = NULL;
  LB_CHECK(lb_world_create(&def, &w) == LB_OK);
  LB_CHECK(load_corridor(w, &sc) == LB_OK);
  if (!sc) {
    lb_world_destroy(w);
    return;
  }
  LB_CHECK(lb_scene_step(w, sc, DT) == LB_OK);
  size_t before = c.allocs;
  for (int i = 1; i < STEPS; ++i) {
    LB_CHECK(lb_scene_step(w, sc, DT) == LB_OK);
  }
  printf("  allocations: %zu at load, %zu during %d steps\n", before, c.allocs - before, STEPS - 1);
  LB_CHECK(c.allocs == before);
  char got[17];
  snprintf(got, sizeof got, "%016llx", (unsigned long long)lb_world_hash(w));
  size_t hlen = 0;
  char *hashes = lb_test_read_file("tests/expected-hashes.json", &hlen);
  cJSON *exp = hashes ? cJSON_Parse(hashes) : NULL;
  const cJSON *want = cJSON_GetObjectItemCaseSensitive(exp, "corridor.json@1000");
  printf("  corridor.json@1000: %s (stored %s)\n", got,
         cJSON_IsString(want) ? want->valuestring : "none");
  LB_CHECK(cJSON_IsString(want) && strcmp(want->valuestring, got) == 0);
  cJSON_Delete(exp);
  free(hashes);
  lb_scene_destroy(w, sc);
  lb_world_destroy(w);
  LB_CHECK(c.allocs == c.frees);
}

/* Bad input: refused with a message naming the component and field; nothing changes. */
static void test_bad_input(void) {
  lb_world *w = NULL;
  lb_scene *sc = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  LB_CHECK(load_corridor(w, &sc) == LB_OK);
  if (!sc) {
    lb_world_destroy(w);
    return;
  }
  for (int i = 0; i < 30; ++i) {
    LB_CHECK(lb_scene_step(w, sc, DT) == LB_OK);
  }
  lb_entity hero = lb_scene_entity(sc, "hero");
  lb_entity wall = lb_scene_entity(sc, "wall_left_01");
  uint64_t h0 = lb_world_hash(w);
  lb_env_interaction_c before, v;
  LB_CHECK(lb_world_get(w, hero, LB_ENV_INTERACTION, &before) == LB_OK);

  /* No Rig. */
  lb_component_defaults(LB_ENV_INTERACTION, &v);
  lb_result r = lb_world_insert(w, wall, LB_ENV_INTERACTION, &v);
  printf("  no Rig: %s\n", lb_world_last_error(w));
  LB_CHECK(r == LB_ERR_MISSING_COMPONENT && !lb_world_has(w, wall, LB_ENV_INTERACTION));
  LB_CHECK(strstr(lb_world_last_error(w), "EnvironmentInteraction") != NULL);

  lb_env_interaction_c edits[5];
  const char *fields[5] = {"releaseReach", "height", "handOffset", "blendSeconds", "rightHand"};
  for (int k = 0; k < 5; ++k) {
    edits[k] = before;
  }
  edits[0].release_reach = 0.5f;
  edits[0].engage_reach = 0.9f;
  edits[1].height = NAN;
  edits[2].hand_offset = -0.01f;
  edits[3].blend_seconds = 0.0f;
  LB_CHECK(lb_world_intern(w, "NoSuchHand", &edits[4].right_hand) == LB_OK);
  for (int k = 0; k < 5; ++k) {
    r = lb_world_insert(w, hero, LB_ENV_INTERACTION, &edits[k]);
    printf("  %-12s -> %d: %s\n", fields[k], (int)r, lb_world_last_error(w));
    LB_CHECK(r != LB_OK);
    LB_CHECK(strstr(lb_world_last_error(w), fields[k]) != NULL);
    lb_env_interaction_c after;
    LB_CHECK(lb_world_get(w, hero, LB_ENV_INTERACTION, &after) == LB_OK);
    LB_CHECK(memcmp(&after, &before, sizeof after) == 0);
  }
  LB_CHECK(lb_world_hash(w) == h0);
  lb_scene_destroy(w, sc);
  lb_world_destroy(w);
}

/* The touched wall despawned mid-touch: the hand lets go (Reset, then Search), nothing breaks. */
static void test_wall_despawned(void) {
  lb_world *w = NULL;
  lb_scene *sc = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  LB_CHECK(load_corridor(w, &sc) == LB_OK);
  if (!sc) {
    lb_world_destroy(w);
    return;
  }
  lb_entity hero = lb_scene_entity(sc, "hero");
  lb_env_interaction_c ei;
  for (int i = 0; i < 100; ++i) {
    LB_CHECK(lb_scene_step(w, sc, DT) == LB_OK);
  }
  LB_CHECK(lb_world_get(w, hero, LB_ENV_INTERACTION, &ei) == LB_OK);
  LB_CHECK(ei.state == 3 && ei.wall == lb_scene_entity(sc, "wall_left_01"));
  LB_CHECK(lb_world_despawn(w, ei.wall) == LB_OK);
  LB_CHECK(lb_scene_step(w, sc, DT) == LB_OK);
  LB_CHECK(lb_world_get(w, hero, LB_ENV_INTERACTION, &ei) == LB_OK);
  uint32_t after_one = ei.state;
  int steps = 1;
  while (ei.state != 0 && steps < 60) {
    LB_CHECK(lb_scene_step(w, sc, DT) == LB_OK);
    LB_CHECK(lb_world_get(w, hero, LB_ENV_INTERACTION, &ei) == LB_OK);
    steps++;
  }
  printf("  wall despawned mid-touch: %s after one step, Search after %d steps\n",
         state_names[after_one], steps);
  LB_CHECK(after_one == 4 && ei.state == 0 && ei.left_weight == 0.0f);
  lb_scene_destroy(w, sc);
  lb_world_destroy(w);
}

/* A corridor 1.0 m wide whose right wall (face at x -0.48) is 4 cm nearer than its left (+0.52), a
 * humanoid facing +Z between them holding the grip lab's rifle in the right hand, the support hand
 * let go (supportWeight `support`). */
static lb_scene *load_rifle_corridor(lb_world *w, float support) {
  char json[4096];
  snprintf(json, sizeof json,
           "{\"assets\": {\"rigs\": {\"m\": {\"builtin\": \"humanoid\", \"height\": 1.8}}},"
           " \"entities\": ["
           "{\"name\": \"hero\", \"components\": {\"Transform\": {}, \"Rig\": {\"asset\": \"m\"},"
           " \"GripPose\": {}, \"GripHolder\": {\"held\": \"rifle\", \"mainHand\": \"Right\","
           " \"placement\": \"Object\", \"supportWeight\": %g},"
           " \"EnvironmentInteraction\": {\"handOffset\": 0.015}}},"
           "{\"name\": \"rifle\", \"components\": {\"Transform\": {\"position\": [-0.05, 1.25, "
           "0.22]}, \"GripProfile\": {\"mainAnchor\": \"gripAnchor\", \"supportAnchor\": "
           "\"foregripAnchor\", \"mainPose\": \"pistol\", \"supportPose\": \"support\", "
           "\"hand\": \"Right\", \"mirror\": \"X\"}}},"
           "{\"name\": \"gripAnchor\", \"components\": {\"Transform\": {\"parent\": \"rifle\", "
           "\"position\": [-0.03, -0.075, -0.04], \"rotation\": [0.223607, 0.223607, -0.67082, "
           "0.67082]}}},"
           "{\"name\": \"foregripAnchor\", \"components\": {\"Transform\": {\"parent\": "
           "\"rifle\", \"position\": [0, -0.055, 0.16], \"rotation\": [0, -0.707107, 0, "
           "0.707107]}}},"
           "{\"name\": \"wall_right\", \"components\": {\"Transform\": {\"position\": [-0.58, "
           "1.25, 0]}, \"Collider\": {\"shape\": \"Box\", \"size\": [0.2, 2.5, 6], \"layer\": "
           "3}}},"
           "{\"name\": \"wall_left\", \"components\": {\"Transform\": {\"position\": [0.62, 1.25, "
           "0]}, \"Collider\": {\"shape\": \"Box\", \"size\": [0.2, 2.5, 6], \"layer\": 3}}}]}",
           (double)support);
  lb_scene *sc = NULL;
  lb_result r = lb_scene_load(w, json, strlen(json), &sc);
  if (r != LB_OK) {
    fprintf(stderr, "rifle corridor: %s\n", lb_world_last_error(w));
  }
  LB_CHECK(r == LB_OK);
  return sc;
}

/* The nearer wall is on the rifle hand's side: that hand holds, so the other, free hand takes
 * the wall on its own side (before, no hand touched at all); with both hands on the rifle no
 * hand touches. */
static void test_rifle_corridor(void) {
  for (int both = 0; both < 2; ++both) {
    lb_world *w = NULL;
    LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
    lb_scene *sc = load_rifle_corridor(w, both ? 1.0f : 0.0f);
    if (!sc) {
      lb_world_destroy(w);
      continue;
    }
    lb_entity hero = lb_scene_entity(sc, "hero");
    lb_env_interaction_c ei;
    int touch = 0, right = 0;
    float palm = 0.0f;
    for (int i = 0; i < 120; ++i) {
      LB_CHECK(lb_scene_step(w, sc, DT) == LB_OK);
      LB_CHECK(lb_world_get(w, hero, LB_ENV_INTERACTION, &ei) == LB_OK);
      right += ei.side == 1;
      if (ei.state == 3) {
        touch++;
        float d = ei.palm_distance < 0.0f ? -ei.palm_distance : ei.palm_distance;
        palm = d > palm ? d : palm;
      }
    }
    bool on_left = ei.wall == lb_scene_entity(sc, "wall_left");
    printf("  rifle in the right hand, right wall 4 cm nearer, %s: %d of 120 steps in Touch "
           "(side %s, %s), palm to wall <= %.4f m, %d steps on the right side\n",
           both ? "both hands on the rifle" : "support hand let go", touch, side_names[ei.side],
           on_left ? "the left wall" : "not the left wall", (double)palm, right);
    LB_CHECK(right == 0);
    if (both) {
      LB_CHECK(touch == 0 && ei.state == 0);
    } else {
      LB_CHECK(touch > 30 && ei.side == 2 && on_left);
      LB_CHECK(palm <= 0.02f);
    }
    lb_scene_destroy(w, sc);
    lb_world_destroy(w);
  }
}

int main(void) {
  LB_RUN(test_corridor_walk);
  LB_RUN(test_no_allocation_and_hash);
  LB_RUN(test_bad_input);
  LB_RUN(test_wall_despawned);
  LB_RUN(test_rifle_corridor);
  LB_TEST_MAIN_END();
}
