/* NPCs with every per-character system but the grip, as tests/bench/bench_npc.c (world.npc.1000)
 * runs them: the nav arena level and navmesh, the Mixamo mannequin with an Animator (locomotion
 * blend on a damped MoveSpeed, root motion), a CharacterController, a NavAgent (Both, avoidance
 * on), EnvironmentInteraction and a Vault probing every step. Checks that, after warm-up, steps
 * allocate nothing (the counting allocator of test.h) while the NPCs walk, re-plan, avoid each
 * other, touch walls and probe obstacles, and that the crowd really does those things. */
#include "arena_fixture.h"
#include "limber/limber.h"
#include "test.h"

#define NPC_N 120u
#define NPC_SIDE 12u
#define NPC_DT (1.0f / 60.0f)
#define NPC_WARMUP 60
#define NPC_STEPS 600

static const char npc_scene[] = LB_ARENA_SCENE_HEAD("npcs") LB_ARENA_WALKER("npc", "") "]}";

typedef struct npc_world {
  lb_world *w;
  lb_scene *sc;
  lb_entity npc[NPC_N];
  uint32_t leg[NPC_N];
  uint32_t arrivals, touching, probe_hits, avoided;
} npc_world;

static lb_result npc_load(npc_world *s) {
  return lb_arena_load(s->w, npc_scene, lb_test_read_file, &s->sc);
}

/* NPC k: the template's components on a grid cell over the arena snapped onto the navmesh. */
static lb_result npc_add(npc_world *s, lb_entity tpl, uint32_t k) {
  lb_nav_agent_c a;
  LB_CHECK(lb_world_get(s->w, tpl, LB_NAV_AGENT, &a) == LB_OK);
  float cell = 19.0f / (float)(NPC_SIDE - 1u);
  float p[3] = {-9.5f + cell * (float)(k % NPC_SIDE), 0.0f,
                -9.5f + cell * (float)(k / NPC_SIDE % NPC_SIDE)};
  lb_nav_point on;
  lb_result r = lb_nav_nearest(s->w, a.nav_mesh, p, &on);
  lb_transform_c t;
  lb_component_defaults(LB_TRANSFORM, &t);
  memcpy(t.position, on.position, sizeof t.position);
  lb_entity e = tpl;
  if (r == LB_OK && k > 0) {
    r = lb_world_spawn(s->w, &e);
  }
  if (r == LB_OK) {
    r = k > 0 ? lb_world_insert(s->w, e, LB_TRANSFORM, &t)
              : lb_world_set(s->w, e, LB_TRANSFORM, &t);
  }
  static _Alignas(16) unsigned char buf[4096];
  for (size_t i = 0; r == LB_OK && k > 0 && i < LB_ARENA_WALKER_TYPES; ++i) {
    r = lb_world_get(s->w, tpl, lb_arena_walker_types[i], buf);
    if (r == LB_OK) {
      r = lb_world_insert(s->w, e, lb_arena_walker_types[i], buf);
    }
  }
  s->npc[k] = e;
  s->leg[k] = k % LB_ARENA_LEGS;
  memcpy(a.destination, lb_arena_route[s->leg[k]], sizeof a.destination);
  return r == LB_OK ? lb_world_set(s->w, e, LB_NAV_AGENT, &a) : r;
}

/* Between steps, as a game would: an NPC that arrived walks to the next destination. Counts what
 * the step did. */
static void npc_rules(npc_world *s) {
  for (uint32_t k = 0; k < NPC_N; ++k) {
    lb_nav_agent_c a;
    lb_vault_c v;
    lb_env_interaction_c ei;
    LB_CHECK(lb_world_get(s->w, s->npc[k], LB_NAV_AGENT, &a) == LB_OK);
    LB_CHECK(lb_world_get(s->w, s->npc[k], LB_VAULT, &v) == LB_OK);
    LB_CHECK(lb_world_get(s->w, s->npc[k], LB_ENV_INTERACTION, &ei) == LB_OK);
    s->probe_hits += v.obstacle != LB_NULL_ENTITY;
    s->touching += ei.state != 0;
    s->avoided += a.neighbours > 0;
    if (!a.arrived) {
      continue;
    }
    s->arrivals++;
    s->leg[k] = (s->leg[k] + 1u) % LB_ARENA_LEGS;
    memcpy(a.destination, lb_arena_route[s->leg[k]], sizeof a.destination);
    LB_CHECK(lb_world_set(s->w, s->npc[k], LB_NAV_AGENT, &a) == LB_OK);
  }
}

static void test_npc_steps_allocate_nothing(void) {
  lb_test_counter c = {0};
  lb_world_def def = lb_test_counting_def(&c);
  static npc_world s;
  memset(&s, 0, sizeof s);
  LB_CHECK(lb_world_create(&def, &s.w) == LB_OK);
  LB_CHECK(npc_load(&s) == LB_OK);
  lb_entity tpl = lb_scene_entity(s.sc, "npc");
  for (uint32_t k = 0; k < NPC_N; ++k) {
    LB_CHECK(npc_add(&s, tpl, k) == LB_OK);
  }
  float start[NPC_N][3];
  for (uint32_t k = 0; k < NPC_N; ++k) {
    lb_transform_c t;
    lb_world_get(s.w, s.npc[k], LB_TRANSFORM, &t);
    memcpy(start[k], t.position, sizeof start[k]);
  }
  for (int i = 0; i < NPC_WARMUP; ++i) {
    npc_rules(&s);
    LB_CHECK(lb_world_step(s.w, NPC_DT) == LB_OK);
  }
  size_t before = c.allocs;
  memset(&s.arrivals, 0, 4 * sizeof s.arrivals);
  for (int i = 0; i < NPC_STEPS; ++i) {
    npc_rules(&s);
    LB_CHECK(lb_world_step(s.w, NPC_DT) == LB_OK);
  }
  double moved = 0.0;
  for (uint32_t k = 0; k < NPC_N; ++k) {
    lb_transform_c t;
    lb_world_get(s.w, s.npc[k], LB_TRANSFORM, &t);
    moved += hypot(t.position[0] - start[k][0], t.position[2] - start[k][2]) / NPC_N;
  }
  printf("  %u NPCs, %d steps after %d of warm-up: %zu allocations at setup, %zu during the "
         "steps; mean distance from the start %.2f m; %u arrivals, NPC-steps with a wall touched "
         "%u, an obstacle probed %u, neighbours avoided %u\n",
         NPC_N, NPC_STEPS, NPC_WARMUP, before, c.allocs - before, moved, s.arrivals, s.touching,
         s.probe_hits, s.avoided);
  LB_CHECK(c.allocs == before);
  /* the systems were busy, not idle: they walk (1.4 m/s for 10 s), arrive and get re-planned,
   * avoid each other, touch walls and see obstacles ahead */
  LB_CHECK(moved > 2.0);
  LB_CHECK(s.arrivals > 0);
  LB_CHECK(s.avoided > NPC_N * NPC_STEPS / 4u);
  LB_CHECK(s.touching > 0);
  LB_CHECK(s.probe_hits > 0);
  lb_arena_destroy(s.w, s.sc);
  LB_CHECK(c.allocs == c.frees);
}

int main(void) {
  LB_RUN(test_npc_steps_allocate_nothing);
  LB_TEST_MAIN_END();
}
