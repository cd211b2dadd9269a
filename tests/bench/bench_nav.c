/* Benches "nav.agents.<N>": one NavAgent's share of the Move phase with N agents
 * (NavDestination, no rig) walking the nav arena (assets/levels/nav-arena.navmesh.json)
 * between its destinations: a path query from where each agent is, turning, the walk along
 * the path clamped to the mesh. Microseconds per agent per step.
 *
 * Bench "nav.path": the core's path query (lb_nav_find_path: nearest polygons, A*, string
 * pulling) on the Recast-baked nav field (2,000+ polygons) over 1,024 start/goal pairs, the
 * same mesh and pairs as Detour's baseline (tests/bench/nav_field.mjs writes both to
 * build/bench/, tests/bench/run.mjs does that first). Read from the working directory (the
 * repo root). */
#include "../../wasm/src/world/world_core.h" /* lb_world_run_phase */
#include "bench.h"
#include "limber/limber.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- nav.agents.<N> ------------------------------------------------------------------------ */

typedef struct lb_nav_agents_bench {
  lb_world *world;
  uint32_t n;
} lb_nav_agents_bench;

static void lb_nav_agents_teardown(void *state) {
  lb_nav_agents_bench *s = state;
  if (s) {
    lb_world_destroy(s->world);
    free(s);
  }
}

static void *lb_nav_agents_setup(uint32_t n) {
  static const float goals[6][3] = {{7.5f, 0, 7.5f}, {-7.5f, 0, 7.5f},  {-4, 0, 3},
                                    {8, 1, -8},      {-8.5f, 0, -8.5f}, {0, 0, 8}};
  lb_nav_agents_bench *s = calloc(1, sizeof *s);
  if (!s || lb_world_create(NULL, &s->world) != LB_OK) {
    free(s);
    return NULL;
  }
  s->n = n;
  size_t size = 0;
  char *json = lb_nav_read("assets/levels/nav-arena.navmesh.json", &size);
  uint32_t mesh = 0;
  lb_result r = json ? lb_world_add_navmesh_json(s->world, "arena", json, size, &mesh)
                     : LB_ERR_INVALID_ARGUMENT;
  free(json);
  for (uint32_t i = 0; r == LB_OK && i < n; ++i) {
    lb_entity e = 0;
    r = lb_world_spawn(s->world, &e);
    lb_transform_c t;
    lb_component_defaults(LB_TRANSFORM, &t);
    t.position[0] = -9.0f + 18.0f * (float)(i % 32u) / 31.0f;
    t.position[2] = -9.0f + 4.0f * (float)((i / 32u) % 8u) / 7.0f;
    if (r == LB_OK) {
      r = lb_world_insert(s->world, e, LB_TRANSFORM, &t);
    }
    lb_nav_agent_c a;
    lb_component_defaults(LB_NAV_AGENT, &a);
    a.nav_mesh = mesh;
    memcpy(a.destination, goals[i % 6u], sizeof a.destination);
    a.has_destination = 1;
    a.stopping_distance = 0.0f; /* never arrives exactly: every step walks */
    if (r == LB_OK) {
      r = lb_world_insert(s->world, e, LB_NAV_AGENT, &a);
    }
  }
  if (r != LB_OK) {
    fprintf(stderr, "limber_bench: nav agents: %s\n", lb_world_last_error(s->world));
    lb_nav_agents_teardown(s);
    return NULL;
  }
  return s;
}

static void lb_nav_agents_run(void *state, uint32_t iters, lb_bench_stats *st) {
  lb_nav_agents_bench *s = state;
  uint32_t steps = iters / s->n; /* iters is a multiple of n (iter_multiple) */
  for (uint32_t k = 0; k < steps; ++k) {
    lb_world_run_phase(s->world, LB_PHASE_MOVE, 1.0f / 60.0f);
  }
  st->ops += (uint64_t)steps * s->n;
}

static void *lb_nav_agents_setup_100(void) {
  return lb_nav_agents_setup(100);
}
static void *lb_nav_agents_setup_1000(void) {
  return lb_nav_agents_setup(1000);
}

const lb_bench lb_bench_nav_agents_100 = {.name = "nav.agents.100",
                                          .unit = "us",
                                          .what = "per agent per step, 100 NavAgents walking the "
                                                  "nav arena (path query + turn + walk + clamp)",
                                          .default_iters = 100 * 60,
                                          .setup = lb_nav_agents_setup_100,
                                          .run = lb_nav_agents_run,
                                          .teardown = lb_nav_agents_teardown,
                                          .iter_multiple = 100};

const lb_bench lb_bench_nav_agents_1000 = {.name = "nav.agents.1000",
                                           .unit = "us",
                                           .what = "per agent per step, 1,000 NavAgents walking "
                                                   "the nav arena",
                                           .default_iters = 1000 * 20,
                                           .setup = lb_nav_agents_setup_1000,
                                           .run = lb_nav_agents_run,
                                           .teardown = lb_nav_agents_teardown,
                                           .iter_multiple = 1000};

/* ---- nav.crowd.<N>[.off] ------------------------------------------------------------------- */

/* Benches "nav.crowd.<N>" and "nav.crowd.<N>.off": N NavAgents (NavDestination, no rig, 0.3 m
 * avoidance radius, 1.4 m/s) on the nav field crossing it both ways at the same density for
 * N = 100 and 1000 (build/bench/nav-crowd-<N>.txt, tests/bench/nav_field.mjs), with avoidance
 * on (the default) and off. One operation is one agent's share of the Move phase (path query,
 * turn, avoidance, walk, clamp); every 30 steps the agents that have arrived are sent back to
 * where they came from (a read and, for those, a write of the NavAgent), so the crowd keeps
 * crossing. tests/bench/detour_crowd.mjs runs Detour Crowd on the same mesh and agents. */
typedef struct lb_nav_crowd_bench {
  lb_world *world;
  uint32_t n, steps;
  lb_entity *agents;
  float (*ends)[6]; /* start x y z, goal x y z */
  uint8_t *back;    /* heading for the start */
} lb_nav_crowd_bench;

static void lb_nav_crowd_teardown(void *state) {
  lb_nav_crowd_bench *s = state;
  if (s) {
    lb_world_destroy(s->world);
    free(s->agents);
    free(s->ends);
    free(s->back);
    free(s);
  }
}

static uint32_t lb_nav_crowd_read(lb_nav_crowd_bench *s) {
  char path[64];
  snprintf(path, sizeof path, "build/bench/nav-crowd-%u.txt", s->n);
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "limber_bench: cannot read %s (tests/bench/run.mjs writes it)\n", path);
    return 0;
  }
  uint32_t k = 0;
  while (k < s->n) {
    float *e = s->ends[k];
    if (fscanf(f, "%f %f %f %f %f %f", &e[0], &e[1], &e[2], &e[3], &e[4], &e[5]) != 6) {
      break;
    }
    ++k;
  }
  fclose(f);
  return k;
}

static lb_result lb_nav_crowd_spawn(lb_nav_crowd_bench *s, uint32_t mesh, bool avoid) {
  lb_result r = LB_OK;
  for (uint32_t i = 0; r == LB_OK && i < s->n; ++i) {
    r = lb_world_spawn(s->world, &s->agents[i]);
    lb_transform_c t;
    lb_component_defaults(LB_TRANSFORM, &t);
    memcpy(t.position, s->ends[i], sizeof t.position);
    if (r == LB_OK) {
      r = lb_world_insert(s->world, s->agents[i], LB_TRANSFORM, &t);
    }
    lb_nav_agent_c a;
    lb_component_defaults(LB_NAV_AGENT, &a);
    a.nav_mesh = mesh;
    memcpy(a.destination, s->ends[i] + 3, sizeof a.destination);
    a.has_destination = 1;
    a.stopping_distance = 0.1f;
    a.avoidance_radius = 0.3f;
    a.avoidance = avoid ? 1u : 0u;
    if (r == LB_OK) {
      r = lb_world_insert(s->world, s->agents[i], LB_NAV_AGENT, &a);
    }
  }
  return r;
}

static void *lb_nav_crowd_setup(uint32_t n, bool avoid) {
  lb_nav_crowd_bench *s = calloc(1, sizeof *s);
  if (!s || lb_world_create(NULL, &s->world) != LB_OK) {
    free(s);
    return NULL;
  }
  s->n = n;
  s->agents = calloc(n, sizeof *s->agents);
  s->ends = calloc(n, sizeof *s->ends);
  s->back = calloc(n, 1);
  size_t size = 0;
  char *json = lb_nav_read("build/bench/nav-field.navmesh.json", &size);
  uint32_t mesh = 0;
  lb_result r = json && s->agents && s->ends && s->back
                    ? lb_world_add_navmesh_json(s->world, "field", json, size, &mesh)
                    : LB_ERR_INVALID_ARGUMENT;
  free(json);
  if (r == LB_OK && lb_nav_crowd_read(s) != n) {
    r = LB_ERR_INVALID_ARGUMENT;
  }
  if (r == LB_OK) {
    r = lb_nav_crowd_spawn(s, mesh, avoid);
  }
  if (r != LB_OK) {
    fprintf(stderr, "limber_bench: nav crowd %u: %s\n", n, lb_world_last_error(s->world));
    lb_nav_crowd_teardown(s);
    return NULL;
  }
  return s;
}

/* Agents that have arrived head back the way they came. */
static void lb_nav_crowd_turn(lb_nav_crowd_bench *s, lb_bench_stats *st) {
  for (uint32_t i = 0; i < s->n; ++i) {
    lb_nav_agent_c a;
    if (lb_world_get(s->world, s->agents[i], LB_NAV_AGENT, &a) != LB_OK) {
      st->failures++;
      continue;
    }
    if (a.arrived) {
      s->back[i] ^= 1u;
      memcpy(a.destination, s->ends[i] + (s->back[i] ? 0 : 3), sizeof a.destination);
      st->failures += lb_world_set(s->world, s->agents[i], LB_NAV_AGENT, &a) != LB_OK;
    }
  }
}

static void lb_nav_crowd_run(void *state, uint32_t iters, lb_bench_stats *st) {
  lb_nav_crowd_bench *s = state;
  uint32_t steps = iters / s->n; /* iters is a multiple of n (iter_multiple) */
  for (uint32_t k = 0; k < steps; ++k) {
    lb_world_run_phase(s->world, LB_PHASE_MOVE, 1.0f / 60.0f);
    if (++s->steps % 30u == 0) {
      lb_nav_crowd_turn(s, st);
    }
  }
  st->ops += (uint64_t)steps * s->n;
}

#define LB_NAV_CROWD_BENCH(n, avoid, suffix, steps, words)                                         \
  static void *lb_nav_crowd_setup_##n##suffix(void) {                                              \
    return lb_nav_crowd_setup(n, avoid);                                                           \
  }                                                                                                \
  const lb_bench lb_bench_nav_crowd_##n##suffix = {                                                \
      .name = "nav.crowd." #n words,                                                               \
      .unit = "us",                                                                                \
      .what = "per agent per step, " #n " NavAgents crossing the nav field both ways"              \
              " (path + turn + avoidance + walk + clamp), avoidance " #avoid,                      \
      .default_iters = (n) * (steps),                                                              \
      .setup = lb_nav_crowd_setup_##n##suffix,                                                     \
      .run = lb_nav_crowd_run,                                                                     \
      .teardown = lb_nav_crowd_teardown,                                                           \
      .iter_multiple = (n)};

#define on true
#define off false
LB_NAV_CROWD_BENCH(100, on, , 120, "")
LB_NAV_CROWD_BENCH(1000, on, , 30, "")
LB_NAV_CROWD_BENCH(100, off, _off, 120, ".off")
LB_NAV_CROWD_BENCH(1000, off, _off, 30, ".off")
#undef on
#undef off
