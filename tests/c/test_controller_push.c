/* Characters are not floors, and controllers push each other at a bounded speed: two
 * CharacterControllers (0.3 m radius, 1.8 m tall, each with a capsule Collider of its size, as a
 * crowd gives them) on a floor.
 *  - One dropped onto the other's head (axes 0, 0.05 and 0.2 m apart), falling under gravity: it
 *    slides off and ends on the floor, its foot within 1 cm of it (the 1 cm skin), grounded,
 *    beside the other; neither moves across faster than LB_CONTROLLER_SEPARATION_SPEED and the
 *    one below stays on the floor.
 *  - Walking into each other head-on (1.4 m/s each), into one standing (1.4 and 5 m/s), and past
 *    one off-centre: no capsule enters the other by more than 1 mm; the one walked into moves at
 *    no more than LB_CONTROLLER_SEPARATION_SPEED and neither is pushed back faster than that. */
#include "limber/limber.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "test.h"

#define DT (1.0f / 60.0f)
#define GRAVITY 9.81f
#define SEP_STEP (LB_CONTROLLER_SEPARATION_SPEED * DT)

static lb_entity spawn_floor(lb_world *w) {
  lb_entity floor;
  LB_CHECK(lb_world_spawn(w, &floor) == LB_OK);
  lb_transform_c t;
  lb_component_defaults(LB_TRANSFORM, &t);
  t.position[1] = -0.05f;
  LB_CHECK(lb_world_insert(w, floor, LB_TRANSFORM, &t) == LB_OK);
  lb_collider_c col;
  lb_component_defaults(LB_COLLIDER, &col);
  col.shape = LB_COLLIDER_BOX;
  col.size[0] = col.size[2] = 20.0f, col.size[1] = 0.1f;
  LB_CHECK(lb_world_insert(w, floor, LB_COLLIDER, &col) == LB_OK);
  return floor;
}

/* A default controller (radius 0.3, height 1.8, skin 0.01) with a capsule Collider of its size. */
static lb_entity spawn_character(lb_world *w, float x, float y, float z) {
  lb_entity e;
  LB_CHECK(lb_world_spawn(w, &e) == LB_OK);
  lb_transform_c t;
  lb_component_defaults(LB_TRANSFORM, &t);
  t.position[0] = x, t.position[1] = y, t.position[2] = z;
  LB_CHECK(lb_world_insert(w, e, LB_TRANSFORM, &t) == LB_OK);
  lb_character_controller_c cc;
  lb_component_defaults(LB_CHARACTER_CONTROLLER, &cc);
  LB_CHECK(lb_world_insert(w, e, LB_CHARACTER_CONTROLLER, &cc) == LB_OK);
  lb_collider_c cap;
  lb_component_defaults(LB_COLLIDER, &cap);
  cap.shape = LB_COLLIDER_CAPSULE;
  cap.radius = cc.radius, cap.height = cc.height;
  memcpy(cap.center, cc.center, sizeof cap.center);
  LB_CHECK(lb_world_insert(w, e, LB_COLLIDER, &cap) == LB_OK);
  return e;
}

static void pos_of(lb_world *w, lb_entity e, float *p) {
  lb_transform_c t;
  LB_CHECK(lb_world_get(w, e, LB_TRANSFORM, &t) == LB_OK);
  memcpy(p, t.position, sizeof(float) * 3);
}

static double across(const float *a, const float *b) {
  return hypot(a[0] - b[0], a[2] - b[2]);
}

typedef struct drop_result {
  int floor_step;      /* first step the falling one's foot is within 1 cm of the floor */
  int head_steps;      /* steps its foot was above 1.7 m after it first came down to 1.9 m */
  double fastest[2];   /* largest horizontal move in one step, m/s: the falling one, the other */
  double lowest_below; /* the lowest the one below went, m (its rest is 0.01) */
  float end[2][3];
  uint32_t grounded;
} drop_result;

/* B stands at the origin; A starts `offset` m across from B's axis with its foot at 2.2 m (0.4 m
 * above B's head) and falls: gravity (the caller's, as controller.h says) until grounded. */
static drop_result drop_on_head(float offset) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  spawn_floor(w);
  lb_entity b = spawn_character(w, 0.0f, 0.0f, 0.0f);
  lb_entity a = spawn_character(w, offset, 2.2f, 0.0f);
  drop_result r = {.floor_step = -1, .lowest_below = 1.0};
  float prev[2][3], vy = 0.0f;
  pos_of(w, a, prev[0]);
  pos_of(w, b, prev[1]);
  bool came_down = false;
  for (int step = 1; step <= 180; ++step) {
    lb_character_controller_c cc;
    LB_CHECK(lb_world_get(w, a, LB_CHARACTER_CONTROLLER, &cc) == LB_OK);
    vy = cc.grounded ? 0.0f : vy + GRAVITY * DT;
    vec3 fall = {0.0f, -vy * DT, 0.0f};
    LB_CHECK(lb_world_controller_move(w, a, fall) == LB_OK);
    LB_CHECK(lb_world_step(w, DT) == LB_OK);
    float p[2][3];
    pos_of(w, a, p[0]);
    pos_of(w, b, p[1]);
    for (int k = 0; k < 2; ++k) {
      double v = across(p[k], prev[k]) / DT;
      r.fastest[k] = v > r.fastest[k] ? v : r.fastest[k];
    }
    r.lowest_below = p[1][1] < r.lowest_below ? p[1][1] : r.lowest_below;
    came_down = came_down || p[0][1] < 1.9f;
    r.head_steps += came_down && p[0][1] > 1.7f ? 1 : 0;
    if (r.floor_step < 0 && p[0][1] <= 0.0101f) {
      r.floor_step = step;
    }
    memcpy(prev, p, sizeof prev);
  }
  memcpy(r.end, prev, sizeof r.end);
  lb_character_controller_c cc;
  LB_CHECK(lb_world_get(w, a, LB_CHARACTER_CONTROLLER, &cc) == LB_OK);
  r.grounded = cc.grounded;
  lb_world_destroy(w);
  return r;
}

static void test_dropped_on_a_head(void) {
  const float offsets[3] = {0.0f, 0.05f, 0.2f};
  for (int i = 0; i < 3; ++i) {
    drop_result r = drop_on_head(offsets[i]);
    drop_result again = drop_on_head(offsets[i]);
    double apart = across(r.end[0], r.end[1]);
    printf("  dropped %.2f m off the other's axis: on the floor at step %d (%.2f s), %d steps "
           "above 1.7 m once down, ends at y %.5f m %.4f m from the other (grounded %u); "
           "fastest across %.3f m/s (falling one), %.3f m/s (the one below), which stays at "
           "y >= %.5f m\n",
           (double)offsets[i], r.floor_step, (double)r.floor_step * DT, r.head_steps,
           (double)r.end[0][1], apart, r.grounded, r.fastest[0], r.fastest[1], r.lowest_below);
    LB_CHECK(r.floor_step > 0 && r.floor_step <= 60);        /* off within a second */
    LB_CHECK(r.head_steps <= 10);                            /* measured 4: slid off at once */
    LB_CHECK(r.end[0][1] >= 0.0f && r.end[0][1] <= 0.0101f); /* foot within 1 cm: the skin */
    LB_CHECK(r.grounded == 1u);
    LB_CHECK(apart >= 0.6 - 0.001); /* beside it, not in it */
    for (int k = 0; k < 2; ++k) {
      LB_CHECK(r.fastest[k] <= LB_CONTROLLER_SEPARATION_SPEED * 1.001);
    }
    LB_CHECK(fabs(r.lowest_below - 0.01) <= 1e-4); /* never pressed into the floor */
    LB_CHECK(memcmp(r.end, again.end, sizeof r.end) == 0);
  }
}

typedef struct walk_result {
  double deepest;    /* deepest the capsules went into each other, m (negative: never touched) */
  double pushed[2];  /* fastest each moved against its own request (or at all, standing), m/s */
  double stopped_at; /* A's x at the end */
  float end[2][3];
} walk_result;

/* A at (-1.5, 0, 0) walks +x at `va` m/s, B at (1.5, 0, dz) walks -x at `vb` (0: stands), for 3 s.
 */
static walk_result walk_into(float va, float vb, float dz) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  spawn_floor(w);
  lb_entity e[2] = {spawn_character(w, -1.5f, 0.0f, 0.0f), spawn_character(w, 1.5f, 0.0f, dz)};
  const float v[2] = {va, -vb};
  walk_result r = {.deepest = -1.0};
  float prev[2][3];
  pos_of(w, e[0], prev[0]);
  pos_of(w, e[1], prev[1]);
  for (int step = 0; step < 180; ++step) {
    for (int k = 0; k < 2; ++k) {
      vec3 d = {v[k] * DT, 0.0f, 0.0f};
      if (v[k] != 0.0f) {
        LB_CHECK(lb_world_controller_move(w, e[k], d) == LB_OK);
      }
    }
    LB_CHECK(lb_world_step(w, DT) == LB_OK);
    float p[2][3];
    pos_of(w, e[0], p[0]);
    pos_of(w, e[1], p[1]);
    double depth = 0.6 - across(p[0], p[1]);
    r.deepest = depth > r.deepest ? depth : r.deepest;
    for (int k = 0; k < 2; ++k) {
      double dx = p[k][0] - prev[k][0], dzz = p[k][2] - prev[k][2];
      /* standing: any motion is a push; walking: motion against its own direction */
      double push = v[k] == 0.0f ? hypot(dx, dzz) : (v[k] > 0.0f ? -dx : dx);
      r.pushed[k] = push / DT > r.pushed[k] ? push / DT : r.pushed[k];
    }
    memcpy(prev, p, sizeof prev);
  }
  memcpy(r.end, prev, sizeof r.end);
  r.stopped_at = prev[0][0];
  lb_world_destroy(w);
  return r;
}

static void test_walking_into_each_other(void) {
  static const struct {
    const char *what;
    float va, vb, dz;
  } cases[] = {{"head-on, 1.4 m/s each", 1.4f, 1.4f, 0.0f},
               {"into one standing, 1.4 m/s", 1.4f, 0.0f, 0.0f},
               {"into one standing, 5 m/s", 5.0f, 0.0f, 0.0f},
               {"past one standing 0.3 m off-centre, 1.4 m/s", 1.4f, 0.0f, 0.3f}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    walk_result r = walk_into(cases[i].va, cases[i].vb, cases[i].dz);
    printf("  %s: deepest %.5f m into each other, pushed at most %.3f m/s (walker) and %.3f "
           "m/s (the other); walker ends at x %.3f, the other at (%.3f, %.3f)\n",
           cases[i].what, r.deepest, r.pushed[0], r.pushed[1], r.stopped_at, (double)r.end[1][0],
           (double)r.end[1][2]);
    LB_CHECK(r.deepest <= 0.001);
    for (int k = 0; k < 2; ++k) {
      LB_CHECK(r.pushed[k] <= LB_CONTROLLER_SEPARATION_SPEED * 1.001);
    }
    if (cases[i].dz != 0.0f) {
      LB_CHECK(r.stopped_at > 1.5 + 0.6); /* slid round it and walked on */
    } else {
      LB_CHECK(r.stopped_at < r.end[1][0]); /* never through it */
    }
  }
}

int main(void) {
  LB_RUN(test_dropped_on_a_head);
  LB_RUN(test_walking_into_each_other);
  LB_TEST_MAIN_END();
}
