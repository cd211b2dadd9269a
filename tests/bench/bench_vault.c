/* Vault detection benchmarks: the per-character, per-step cost of detecting an obstacle (the
 * vault probe job of a Vault request or of probeEveryStep: the seed's forward and downward
 * sphere casts, the measuring rays, the far-side floor ray and room overlap).
 *
 * Setup: the vault course built in code (assets/levels/vault-course.json: a 4 x 48 m floor,
 * layer 1, and its seven obstacles, layer 2) plus N - 8 boxes (0.5 m, layer 2) on a grid
 * beside the lane (x 3..60), so the collider hierarchy holds N colliders.
 *
 * vault.detect.<N>  one operation = one probe from the next point of the lane (z 2..42 m in
 *   1.4/60 m steps, a running character's step, then back to the start), every obstacle seen
 *   from every distance. Error = |measured top - the obstacle's true top| (metres) when the
 *   class is Vault, Mantle or TooTall. */
#include "bench.h"
#include "limber/limber.h"
#include <stdlib.h>
#include <string.h>

typedef struct lb_vault_bench {
  lb_world *world;
  float z;
} lb_vault_bench;

/* centre z, height, depth of the course's obstacles */
static const float lb_course[7][3] = {
    {4.2f, 0.3f, 0.4f},      {10.15f, 0.55f, 0.3f}, {16.2f, 0.75f, 0.4f}, {22.125f, 0.9f, 0.25f},
    {28.275f, 1.05f, 0.55f}, {34.2f, 1.4f, 0.4f},   {40.6f, 0.75f, 1.2f}};

static void lb_vault_teardown(void *p) {
  lb_vault_bench *s = p;
  if (!s) {
    return;
  }
  if (s->world) {
    lb_world_destroy(s->world);
  }
  free(s);
}

static int lb_vbox(lb_world *w, float x, float y, float z, float sx, float sy, float sz,
                   uint32_t layer) {
  lb_entity e;
  lb_transform_c t;
  lb_collider_c c;
  if (lb_world_spawn(w, &e) != LB_OK) {
    return 0;
  }
  lb_component_defaults(LB_TRANSFORM, &t);
  t.position[0] = x;
  t.position[1] = y;
  t.position[2] = z;
  lb_component_defaults(LB_COLLIDER, &c);
  c.shape = LB_COLLIDER_BOX;
  c.size[0] = sx;
  c.size[1] = sy;
  c.size[2] = sz;
  c.layer = layer;
  return lb_world_insert(w, e, LB_TRANSFORM, &t) == LB_OK &&
         lb_world_insert(w, e, LB_COLLIDER, &c) == LB_OK;
}

static void *lb_vault_setup_n(uint32_t n) {
  lb_vault_bench *s = calloc(1, sizeof *s);
  lb_world_def wd = lb_world_default_def();
  if (!s || lb_world_create(&wd, &s->world) != LB_OK) {
    lb_vault_teardown(s);
    return NULL;
  }
  lb_world *w = s->world;
  int ok = lb_vbox(w, 0, -0.05f, 22, 4, 0.1f, 48, 1);
  for (int i = 0; ok && i < 7; ++i) {
    ok = lb_vbox(w, 0, lb_course[i][1] * 0.5f, lb_course[i][0], 1.6f, lb_course[i][1],
                 lb_course[i][2], 2);
  }
  for (uint32_t i = 0; ok && i + 8 < n; ++i) {
    float x = 3.0f + (float)(i % 25u) * 2.3f;
    float z = -20.0f + (float)(i / 25u) * 2.0f;
    ok = lb_vbox(w, x, 0.25f, z, 0.5f, 0.5f, 0.5f, 2);
  }
  ok = ok && lb_world_step(w, 1.0f / 60.0f) == LB_OK;
  if (!ok) {
    lb_vault_teardown(s);
    return NULL;
  }
  s->z = 2.0f;
  return s;
}

static void lb_vault_run(void *p, uint32_t iters, lb_bench_stats *st) {
  lb_vault_bench *s = p;
  lb_vault_probe_job job = lb_vault_probe_default_job();
  job.world = s->world;
  for (uint32_t i = 0; i < iters; ++i) {
    s->z += 1.4f / 60.0f;
    if (s->z > 42.0f) {
      s->z = 2.0f;
    }
    job.character.t[2] = s->z;
    if (lb_vault_probe_job_run(&job) != LB_OK) {
      st->failures++;
    } else if (job.verdict >= LB_VAULT_CLASS_VAULT) {
      /* the obstacle whose near face the probe found */
      float top = -1.0f, face = s->z + job.distance;
      for (int k = 0; k < 7; ++k) {
        float near = lb_course[k][0] - lb_course[k][2] * 0.5f;
        if (face > near - 0.01f && face < near + 0.01f) {
          top = lb_course[k][1];
        }
      }
      if (top < 0.0f) {
        st->failures++;
        st->ops++;
        continue;
      }
      double e = job.height > top ? job.height - top : top - job.height;
      st->error_sum += e;
      st->error_max = e > st->error_max ? e : st->error_max;
    }
    st->ops++;
  }
}

static void *lb_vault_setup_course(void) {
  return lb_vault_setup_n(8);
}
static void *lb_vault_setup_1000(void) {
  return lb_vault_setup_n(1000);
}

const lb_bench lb_bench_vault_detect_course = {
    "vault.detect.course",
    "us",
    "one character's vault detection (probe: sphere casts, rays, far-side checks) on the vault "
    "course, 8 colliders",
    20000,
    lb_vault_setup_course,
    lb_vault_run,
    lb_vault_teardown};
const lb_bench lb_bench_vault_detect_1000 = {
    "vault.detect.1000",
    "us",
    "one character's vault detection (probe: sphere casts, rays, far-side checks) on the vault "
    "course among 1000 colliders",
    20000,
    lb_vault_setup_1000,
    lb_vault_run,
    lb_vault_teardown};
