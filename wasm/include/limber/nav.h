/* Navigation meshes and deterministic queries on them (module "nav").
 *
 * A navmesh is what Detour runs on: vertices and convex polygons, each polygon edge either
 * a wall or a portal to exactly one neighbour polygon that names the same edge back. Meshes
 * are baked elsewhere (Recast, through @recast-navigation in the asset generator and the
 * bridge's bakeNavMesh) and handed to the core as data; the core checks them and answers
 * queries:
 *   - nearest point on the mesh (lb_nav_nearest),
 *   - path: A* over polygons (costs between portal midpoints, as Detour's findPath) and
 *     string pulling through the portals (as Detour's findStraightPath) (lb_nav_find_path),
 *   - move along the surface with clamping at walls (Detour's moveAlongSurface semantics)
 *     (lb_nav_move_along_surface),
 *   - raycast along the surface to the first wall (Detour's raycast) (lb_nav_raycast).
 *
 * Frame: +Y up, metres. Polygons are tested in the XZ plane (as Detour does); heights come
 * from the polygon's own vertices (a fan from its first vertex).
 *
 * Agents (the NavAgent component, limber/components.h) run these queries in the Move phase.
 * On an entity with a CharacterController the agent moves the character through the
 * controller's movement request (lb_world_move_request), never by writing the position, so
 * the colliders the navmesh does not know (steps, props) still stop or lift it; the agent
 * takes its mesh point back from the Transform the controller left, each step.
 *
 * One owner: a NavDestination or Both agent with a destination (not stopped) alone writes its
 * Animator locomotion parameter and moves its entity, so the game's writes of that parameter
 * and its movement requests fail with LB_ERR_BUSY (lb_world_input_owner, world.h). The first
 * step it no longer owns the parameter it leaves it at 0, unless the game wrote another value
 * since. In Manual the agent follows the Transform and writes nothing (desiredVelocity and
 * locomotionValue say what the game may do).
 *
 * Avoidance: every NavAgent with `avoidance` on (the default) keeps clear of the other agents
 * with ORCA (optimal reciprocal collision avoidance: RVO2's linear program). Each step, before
 * any agent moves, the agents' positions (the Transform, XZ), velocities over the last step (a
 * Both agent steering by its path or avoidance: the desiredVelocity it chose, which root motion
 * follows a step behind along a turning facing), radii (avoidanceRadius; 0 = the
 * CharacterController's radius, else LB_NAV_AVOID_RADIUS) and rules are taken in entity order into
 * a uniform grid; each agent then looks at the LB_NAV_AVOID_NEIGHBOURS nearest agents in range
 * (ties: the lower entity slot), makes one half-plane of allowed velocities per neighbour (no
 * contact within LB_NAV_AVOID_HORIZON seconds; already overlapping: apart within one step) and
 * takes the velocity nearest its preferred one (desiredVelocity) within movementSpeed; when no
 * velocity satisfies them all (a dense crowd) the one that breaks them the least. Responsibility:
 * half each; against an agent that does not avoid it back (avoidance off, stopped, no destination,
 * RootMotion or Manual, or a mask that leaves it out) all of it; with different avoidancePriority
 * the higher number (less important, as Unity's) takes 3/4, the other 1/4; of equal numbers an
 * agent that has arrived takes 3/4 (it makes way for one still walking). When a neighbour is in
 * the way the preferred velocity is turned toward the right (LB_NAV_AVOID_KEEP_RIGHT x its speed
 * sideways): the same side for everyone, so a mirror-symmetric pair (head-on) passes instead of
 * stopping face to face. An agent avoids
 * those whose avoidanceLayers share a bit with its avoidanceMask.
 * Why ORCA rather than Detour's adaptive velocity sampling: it is exact and closed-form (+ - *
 * / and sqrt, no sampling rings that need sin/cos, no scoring weights to tune), a few hundred
 * operations per agent, and with nothing in the way it returns the preferred velocity bit for
 * bit, so a lone agent walks exactly as it did without avoidance.
 * How the new velocity is used, by drive mode: NavDestination moves along it on the surface
 * (moveAlongSurface: the navmesh's walls are the static obstacles; with a CharacterController
 * as the request) and faces it; Both turns toward it and sets the locomotion parameter to its
 * part along the facing after the turn (0 when it points behind; within a radius of the goal,
 * the path's value times its speed over the preferred one), so root motion (the animation)
 * moves the body no further toward a neighbour than the chosen velocity, and the feet do not
 * skate; an arrived Both agent steps aside the same way; Manual and RootMotion only report it in
 * desiredVelocity. `neighbours` counts the agents seen. The grid is grown when a NavAgent is
 * inserted, never in a step.
 *
 * Determinism: queries use only + - * / and sqrt in float, visit polygons in a fixed order
 * and break ties by the lower polygon index. Nothing allocates in a query: every buffer a
 * query needs (A* nodes, open list, search queue) is sized to the mesh when the mesh is
 * added, once per worker of the world (lb_world_def.threads): the step's agents on several
 * threads each search with their own. The functions below use the first worker's, so the game
 * calls them from one thread at a time, outside lb_world_step.
 */
#ifndef LIMBER_NAV_H
#define LIMBER_NAV_H

#include "limber/base.h"
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lb_world lb_world;

#define LB_NAV_MAX_POLY_VERTS 6u     /* vertices per polygon, as Detour's DT_VERTS_PER_POLYGON */
#define LB_NAV_MAX_POLYGONS 1000000u /* polygons per mesh */
#define LB_NAV_NO_NEIGHBOUR (-1)     /* an edge that is a wall */
#define LB_NAV_NO_POLYGON UINT32_MAX /* "not on the mesh" */
#define LB_NAV_COORD_MAX 1.0e6f      /* |coordinate| limit of mesh vertices, metres */
#define LB_NAV_QUERY_MAX 1.0e7f      /* |coordinate| limit of query points (LB_ERR_OUT_OF_RANGE) */
/* Avoidance (see above): seconds ahead an agent keeps clear of its neighbours (a longer
 * horizon turns earlier and slows more in a crowd: 0.75, 1.5 and 2 s all took longer to bring
 * the crowd scene home than 1 s), how many nearest neighbours it considers, the radius of an
 * agent with avoidanceRadius 0 and no CharacterController (metres), and the margin added to
 * each pair's radii (metres): what the surface clamp can take from an agent's share at a wall
 * or in a door (without it pairs in the arena's doors came 7 cm into each other). */
#define LB_NAV_AVOID_HORIZON 1.0f
#define LB_NAV_AVOID_NEIGHBOURS 10u
#define LB_NAV_AVOID_RADIUS 0.3f
#define LB_NAV_AVOID_MARGIN 0.05f
#define LB_NAV_AVOID_KEEP_RIGHT 0.25f /* sideways share of the speed when in the way */

/* A mesh as data (zero-init, then fill). Edge k of a polygon runs from its vertex k to
 * vertex k+1 (the last back to the first); neighbours[k] is the polygon across that edge or
 * LB_NAV_NO_NEIGHBOUR. Polygons wind as Recast/Detour write them: counter-clockwise seen
 * from above (+Y looking down, +X right), i.e. for consecutive vertices a, b, c
 * (c.x - a.x) * (b.z - a.z) - (b.x - a.x) * (c.z - a.z) >= 0 (Detour's dtTriArea2D).
 * Checked on add, refused with LB_ERR_* and a message naming the polygon/edge:
 *   LB_ERR_NOT_FINITE      a vertex coordinate is NaN or +-Inf;
 *   LB_ERR_OUT_OF_RANGE    |coordinate| > LB_NAV_COORD_MAX, a vertex index >= vertex_count,
 *                          a neighbour index >= polygon_count, a polygon with fewer than 3
 *                          or more than LB_NAV_MAX_POLY_VERTS vertices, zero polygons;
 *   LB_ERR_DEGENERATE      a repeated vertex in a polygon, a zero-length edge, zero area,
 *                          a polygon that is not convex (or winds the other way);
 *   LB_ERR_INVALID_ARGUMENT broken adjacency: a polygon its own neighbour, a neighbour that
 *                          does not share the edge's two vertices, or does not name this
 *                          polygon back across that edge (asymmetric). */
typedef struct lb_navmesh_def {
  const float *vertices;     /* vertex_count * 3 floats (x, y, z), metres */
  uint32_t vertex_count;     /* >= 3 */
  const uint8_t *counts;     /* polygon_count entries: vertices of each polygon, 3..6 */
  const uint32_t *indices;   /* the polygons' vertex indices, concatenated (sum of counts) */
  const int32_t *neighbours; /* one per polygon edge, same layout as indices */
  uint32_t polygon_count;    /* 1..LB_NAV_MAX_POLYGONS */
} lb_navmesh_def;

/* Adds a mesh (copied) and its query scratch. *out_mesh = handle (>= 1). The name (1..63
 * bytes) is for messages and lb_world_navmesh_find. Part of lb_world_assets_mark/rollback. */
lb_result lb_world_add_navmesh(lb_world *world, const char *name, const lb_navmesh_def *def,
                               uint32_t *out_mesh);

/* The same from Limber's navmesh JSON:
 *   { "format": "limber-navmesh", "version": 1,
 *     "vertices": [[x, y, z], ...],
 *     "polygons": [[i0, i1, i2, ...], ...],
 *     "neighbours": [[n0, n1, n2, ...], ...],     -1 = wall; one per edge of each polygon
 *     ... any other keys ("source", "settings", "bounds") are ignored }
 * Malformed JSON or a wrong shape: LB_ERR_PARSE naming the key and index. */
lb_result lb_world_add_navmesh_json(lb_world *world, const char *name, const char *json, size_t len,
                                    uint32_t *out_mesh);

/* Handle of a mesh by name, or 0. */
uint32_t lb_world_navmesh_find(const lb_world *world, const char *name);

typedef struct lb_navmesh_info {
  uint32_t vertex_count, polygon_count, edge_count, portal_count;
  float bounds_min[3], bounds_max[3];
} lb_navmesh_info;
lb_result lb_world_navmesh_info(const lb_world *world, uint32_t mesh, lb_navmesh_info *out);

/* A point on the mesh and the polygon it lies on. */
typedef struct lb_nav_point {
  float position[3];
  uint32_t polygon; /* LB_NAV_NO_POLYGON when not on the mesh */
} lb_nav_point;

/* Nearest point of the mesh to `p` (3D distance; ties: lower polygon index). */
lb_result lb_nav_nearest(lb_world *world, uint32_t mesh, const float p[3], lb_nav_point *out);

typedef enum lb_nav_path_status {
  LB_NAV_PATH_NONE = 0,     /* no path (not set by a successful query) */
  LB_NAV_PATH_COMPLETE = 1, /* ends at the goal's nearest mesh point */
  LB_NAV_PATH_PARTIAL = 2   /* goal unreachable: ends at the reachable point nearest the goal */
} lb_nav_path_status;

/* A path query's answer. The caller owns `points` (point_capacity * 3 floats; may be null
 * with capacity 0 when only the length and status are wanted). */
typedef struct lb_nav_path {
  float *points;           /* in: buffer; out: corners start..end, x y z each */
  uint32_t point_capacity; /* in */
  uint32_t point_count;    /* out: corners written (<= point_capacity) */
  uint32_t corner_count;   /* out: corners of the whole path (> point_count: truncated) */
  uint32_t polygon_count;  /* out: polygons in the corridor */
  float length;            /* out: metres along the whole path (3D) */
  lb_nav_path_status status;
  lb_nav_point start, end; /* out: where the path starts and ends on the mesh */
} lb_nav_path;

/* Path from the mesh point nearest `start` to the one nearest `goal`. */
lb_result lb_nav_find_path(lb_world *world, uint32_t mesh, const float start[3],
                           const float goal[3], lb_nav_path *path);

/* Moves from `from` (a point on polygon from->polygon) toward `to` along the surface:
 * the polygons reachable within the circle through both points are searched; the result is
 * `to` when it is over one of them, else the closest point to `to` on their walls. The
 * height is the result polygon's. */
lb_result lb_nav_move_along_surface(lb_world *world, uint32_t mesh, const lb_nav_point *from,
                                    const float to[3], lb_nav_point *out);

typedef struct lb_nav_hit {
  bool hit;          /* a wall stopped the ray before `to` */
  float t;           /* fraction of from->to travelled (1 when no hit) */
  float position[3]; /* where the ray stopped, on the mesh */
  float normal[3];  /* the wall's normal in XZ (unit, pointing back into the mesh); 0 without hit */
  uint32_t polygon; /* polygon the ray stopped in */
} lb_nav_hit;

/* Casts along the surface from `from` toward `to` (XZ), through portals, to the first wall. */
lb_result lb_nav_raycast(lb_world *world, uint32_t mesh, const lb_nav_point *from,
                         const float to[3], lb_nav_hit *out);

/* What avoidance did for one NavAgent in the last step (for debug drawing: the playground's
 * crowd layer). Kept per agent, read between steps. */
typedef struct lb_nav_agent_avoidance {
  uint32_t neighbour_count;                      /* agents avoided (as the `neighbours` output) */
  lb_entity neighbours[LB_NAV_AVOID_NEIGHBOURS]; /* those agents, nearest first (a neighbour
                                                    despawned since is a stale handle) */
  float preferred_velocity[3]; /* the path's velocity before avoidance (m/s; 0 when not going);
                                  desiredVelocity is the one after */
} lb_nav_agent_avoidance;

/* The avoidance of the NavAgent on `e` in the last step (all zero before its first step or
 * with avoidance off). LB_ERR_STALE_ENTITY for a dead handle, LB_ERR_MISSING_COMPONENT
 * without a NavAgent (naming the entity); nothing changes. */
lb_result lb_world_nav_avoidance(lb_world *world, lb_entity e, lb_nav_agent_avoidance *out);

#ifdef __cplusplus
}
#endif
#endif
