/* Bench "nav.path": the core's path query (lb_nav_find_path: nearest polygons, A*, string
 * pulling) on the Recast-baked nav field (2,000+ polygons) over 1,024 start/goal pairs, the
 * same mesh and pairs as Detour's baseline (tests/bench/nav_field.mjs writes both to
 * build/bench/, tests/bench/run.mjs does that first). Read from the working directory (the
 * repo root). */
#include "bench.h"
#include "limber/limber.h"
#include <stdio.h>
#include <stdlib.h>

#define NAV_PAIRS_MAX 4096u
#define NAV_POINTS 4096u

typedef struct lb_nav_bench {
  lb_world *world;
  uint32_t mesh;
  uint32_t pair_count, next;
  float pairs[NAV_PAIRS_MAX][6];
  float points[NAV_POINTS * 3];
} lb_nav_bench;

static char *lb_nav_read(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "limber_bench: cannot read %s (run npm run bench, which writes it)\n", path);
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = n > 0 ? malloc((size_t)n + 1u) : NULL;
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  if (buf) {
    buf[n] = 0;
    *size = (size_t)n;
  }
  return buf;
}

static void lb_nav_teardown(void *state) {
  lb_nav_bench *s = state;
  if (s) {
    lb_world_destroy(s->world);
    free(s);
  }
}

static void *lb_nav_setup(void) {
  lb_nav_bench *s = calloc(1, sizeof *s);
  if (!s || lb_world_create(NULL, &s->world) != LB_OK) {
    free(s);
    return NULL;
  }
  size_t size = 0;
  char *json = lb_nav_read("build/bench/nav-field.navmesh.json", &size);
  lb_result r = json ? lb_world_add_navmesh_json(s->world, "field", json, size, &s->mesh)
                     : LB_ERR_INVALID_ARGUMENT;
  free(json);
  if (r != LB_OK) {
    fprintf(stderr, "limber_bench: nav field: %s\n", lb_world_last_error(s->world));
    lb_nav_teardown(s);
    return NULL;
  }
  FILE *f = fopen("build/bench/nav-field.pairs.txt", "r");
  while (f && s->pair_count < NAV_PAIRS_MAX) {
    float *p = s->pairs[s->pair_count];
    if (fscanf(f, "%f %f %f %f %f %f", &p[0], &p[1], &p[2], &p[3], &p[4], &p[5]) != 6) {
      break;
    }
    ++s->pair_count;
  }
  if (f) {
    fclose(f);
  }
  if (s->pair_count == 0) {
    fprintf(stderr, "limber_bench: cannot read build/bench/nav-field.pairs.txt\n");
    lb_nav_teardown(s);
    return NULL;
  }
  return s;
}

static void lb_nav_run(void *state, uint32_t iters, lb_bench_stats *st) {
  lb_nav_bench *s = state;
  for (uint32_t i = 0; i < iters; ++i) {
    const float *p = s->pairs[s->next];
    s->next = (s->next + 1u) % s->pair_count;
    lb_nav_path path = {.points = s->points, .point_capacity = NAV_POINTS};
    if (lb_nav_find_path(s->world, s->mesh, p, p + 3, &path) != LB_OK) {
      st->failures++;
    }
    st->work += path.corner_count;
    st->ops++;
  }
}

const lb_bench lb_bench_nav_path = {.name = "nav.path",
                                    .unit = "us",
                                    .what = "path query on the Recast-baked nav field: nearest "
                                            "polygons + A* + string pulling, corners written",
                                    .default_iters = 2000,
                                    .setup = lb_nav_setup,
                                    .run = lb_nav_run,
                                    .teardown = lb_nav_teardown,
                                    .work = "corners"};
