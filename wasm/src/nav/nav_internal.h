/* Nav module internals: the mesh asset with its query scratch. Not installed. */
#ifndef LIMBER_NAV_INTERNAL_H
#define LIMBER_NAV_INTERNAL_H

#include "../modules.h"
#include "../world/world_core.h"
#include "limber/nav.h"

#define LB_NAV_NAME_MAX 64

/* One mesh in one allocation (this header, then the arrays). Polygon p's vertices are
 * indices[first[p] .. first[p] + counts[p]), edge k's neighbour neighbours[first[p] + k]. */
#define NAV_GOAL_CACHE 8u

typedef struct lb_navmesh {
  char name[LB_NAV_NAME_MAX];
  uint32_t vertex_count, polygon_count, edge_count, portal_count;
  float bounds_min[3], bounds_max[3];
  float *vertices; /* vertex_count * 3 */
  uint8_t *counts;
  uint32_t *first;
  uint32_t *indices;
  int32_t *neighbours;
  float *poly_min, *poly_max; /* per polygon XZ bounds (2 floats each) for quick rejects */
  /* A uniform XZ grid for nearest-polygon searches: cell (i, j) lists, in ascending order, the
   * polygons whose XZ bounds overlap it: grid_items[grid_start[c] .. grid_start[c + 1]). */
  float grid_origin[2], grid_cell;
  uint32_t grid_nx, grid_nz;
  uint32_t *grid_start, *grid_items; /* one allocation of its own (grid_start first) */
  /* query scratch, one entry per polygon: A* nodes (valid when stamp == query stamp), the
   * open list (binary heap of polygon indices) and the corridor / search queue */
  uint32_t stamp;
  uint32_t *node_stamp;
  uint8_t *node_flags; /* 1 open, 2 closed */
  uint32_t *node_parent;
  uint32_t *node_heap; /* position in the heap while open */
  float *node_g, *node_f, *node_pos;
  uint32_t *heap;
  uint32_t heap_count;
  uint32_t *corridor;
  /* nearest-polygon search scratch, one entry per polygon: tried in the search whose stamp it
   * holds (a polygon overlapping several grid cells is listed in each) */
  uint32_t *seen;
  uint32_t seen_stamp;
  /* The last goals' nearest points (what nav_nearest_poly answers for exactly these
   * coordinates, keyed by their bits, replaced round-robin): agents re-plan from where they are
   * every step, mostly toward a few shared destinations, and a goal's end of the query is the
   * same answer every time. */
  uint32_t goal_bits[NAV_GOAL_CACHE][3];
  lb_nav_point goal_on[NAV_GOAL_CACHE];
  uint32_t goal_count, goal_next;
  /* Workers 1 .. threads-1 (lb_world_def.threads) query through these copies of this header:
   * the same geometry, scratch and goal cache of their own (nav_mesh_of_worker). */
  struct lb_navmesh *workers;
} lb_navmesh;

/* The header worker `worker` of a parallel section queries mesh m through. */
static inline lb_navmesh *nav_mesh_of_worker(lb_navmesh *m, uint32_t worker) {
  return worker == 0 ? m : &m->workers[worker - 1u];
}

/* One agent as the step's avoidance sees it (XZ), taken before any agent moves. */
typedef struct lb_nav_crowd_agent {
  uint32_t slot;
  float pos[2], vel[2]; /* x, z: where it is and its velocity over the last step */
  float radius;
  uint32_t priority, layers, mask;
  uint32_t reciprocal; /* it avoids too (avoidance on, moving by a destination) */
  uint32_t settled;    /* it had arrived (last step): it makes way for agents still walking */
  int32_t cell[2];     /* in the grid of the longest query range: who may be a neighbour */
  int32_t fine[2];     /* in the search grid (lb_nav_crowd.fine): where the search finds it */
} lb_nav_crowd_agent;

/* The agents of one step in a uniform XZ grid (nav_avoid.c): agents[] in entity order, bucket
 * b (a hash of the search grid's cell) lists its agents' indices in items[start[b] .. start[b +
 * 1]).
 * Grown when a NavAgent is inserted (lb_nav_crowd_reserve), never in a step. */
typedef struct lb_nav_crowd {
  lb_nav_crowd_agent *agents;
  uint32_t *start, *items;
  uint32_t count, capacity, buckets; /* buckets: a power of two >= 2 capacity */
  uint32_t agent_count;              /* NavAgent components in the world */
  float cell;                        /* the longest query range, metres */
  float fine;                        /* the search grid's cell: cell / NAV_AVOID_FINE */
  float max_radius, max_speed;
} lb_nav_crowd;

typedef struct lb_nav_world {
  lb_navmesh **meshes; /* handle = index + 1 */
  uint32_t mesh_count, mesh_capacity;
  lb_nav_crowd crowd;
} lb_nav_world;

static inline lb_nav_world *nav_world_of(const lb_world *w) {
  return (lb_nav_world *)lb_world_module_state(w, LB_MODULE_nav);
}

/* The mesh of a handle, or null. */
lb_navmesh *lb_navmesh_get(const lb_world *w, uint32_t mesh);
/* lb_nav_nearest, lb_nav_find_path and lb_nav_move_along_surface on a mesh header (a worker's,
 * nav_mesh_of_worker; null: LB_ERR_INVALID_ARGUMENT), returning the same codes with no error
 * text: a parallel section's agents leave the world's last error alone. */
lb_result lb_nav_mesh_nearest(lb_navmesh *m, const float p[3], lb_nav_point *out);
lb_result lb_nav_mesh_find_path(lb_navmesh *m, const float start[3], const float goal[3],
                                lb_nav_path *path);
lb_result lb_nav_mesh_move_along_surface(lb_navmesh *m, const lb_nav_point *from, const float to[3],
                                         lb_nav_point *out);
/* The corners of a kept complete corridor (polys[0 .. count): start on polys[0], end on
 * polys[count - 1], each polygon next to the one before), as lb_nav_mesh_find_path's string
 * pull of its own corridor: a NavAgent following its last plan (nav_agent.c). After
 * lb_nav_mesh_find_path, m->corridor[0 .. path->polygon_count) is that plan's corridor. */
void lb_nav_mesh_pull(const lb_navmesh *m, const uint32_t *polys, uint32_t count,
                      const lb_nav_point *start, const lb_nav_point *end, lb_nav_path *path);
/* Frees meshes beyond the first `keep` (0: all, and the table). */
void lb_navmeshes_release(lb_world *w, uint32_t keep);
/* Pads the table to `upto` with null places (lb_navmesh_get: null). */
lb_result lb_navmeshes_reserve(lb_world *w, uint32_t upto);

/* The NavAgent component and its Move system (nav_agent.c). */
#define LB_NAV_COMPONENT_COUNT 1
#define LB_NAV_SYSTEM_COUNT 1
extern const lb_component_def lb_nav_components[LB_NAV_COMPONENT_COUNT];
extern const lb_system_def lb_nav_systems[LB_NAV_SYSTEM_COUNT];
/* The module's `changed` hook: a written Transform places its agent again. */
void lb_nav_changed(lb_world *w, uint32_t type, uint32_t slot);
/* True when an agent names a mesh handle >= first_mesh. */
bool lb_nav_agents_use(const lb_world *w, uint32_t first_mesh);
/* The module's `move` hook: a NavDestination agent takes (and discards) its entity's other
 * movement requests (root motion): the agent alone moves the character. */
bool lb_nav_take_move(lb_world *w, uint32_t slot, const float delta[3]);

/* The module's `owner` hook: a NavDestination or Both agent with a destination owns its
 * locomotion parameter and the entity's movement requests. */
bool lb_nav_owner(const lb_world *w, uint32_t slot, lb_input input, const char *param,
                  lb_input_owner *out);

/* The velocity (x, z) the step's crowd takes for an agent: a Both agent's chosen one while it
 * steers, else its velocity over the last step (nav_agent.c). */
void lb_nav_agent_crowd_velocity(const lb_world *w, uint32_t slot, const lb_nav_agent_c *a,
                                 float out[2]);

/* Avoidance (nav_avoid.c). Room for n agents (allocates; called from the NavAgent's stage). */
lb_result lb_nav_crowd_reserve(lb_world *w, uint32_t n);
/* Frees the crowd's arrays (module release). */
void lb_nav_crowd_release(lb_world *w);
/* The step's snapshot: every agent's position, velocity, radius and rules, and the grid. */
void lb_nav_crowd_build(lb_world *w);

/* One agent's avoidance in a step: what lb_nav_crowd_avoid reads (the agent's entity slot, the
 * path's velocity x, z, its speed and the step) and writes (the velocity and the neighbours). */
typedef struct lb_nav_avoid {
  uint32_t slot;
  float pref[2], max_speed, dt;
  float vel[2];                           /* out: x, z, m/s */
  uint32_t count;                         /* out: neighbours avoided */
  uint32_t near[LB_NAV_AVOID_NEIGHBOURS]; /* out: their entity slots, nearest first */
} lb_nav_avoid;

/* The velocity nearest `pref` that keeps the agent clear of its neighbours for the time horizon
 * (ORCA), at most max_speed; vel == pref bit for bit when no neighbour constrains it. The
 * navmesh's walls are not lines of the program: the surface clamp (lb_nav_move_along_surface)
 * keeps the agent on the mesh (docs/navigation.md, Avoidance, measures both). */
void lb_nav_crowd_avoid(const lb_world *w, lb_nav_avoid *io);

/* Nearest point by trying every polygon (what the grid search must equal; for tests). */
void lb_nav_nearest_scan(const lb_navmesh *m, const float *p, lb_nav_point *out);

#endif
