/* Collision queries, built-in backend (module "collide"): Collider components, triangle
 * mesh assets and queries against them. Deterministic: single precision, + - * / and sqrt
 * only, a fixed evaluation order, ties broken by entity (slot) order then triangle index.
 * Units are metres (world space) unless stated.
 *
 * ---- Colliders (the Collider component, limber/components.h) ----------------------------
 * Sphere, capsule, cylinder and box are lb_shape_def shapes (geom.h) in the entity's frame,
 * placed by its world transform with geom.h's scale rule (exact for uniform scale,
 * conservative for non-uniform). A Mesh collider names a mesh asset; its triangles are
 * placed by the full world transform (t + r * (s ⊙ x), exact for any scale). `layer` is a bit
 * mask (default 1). A collider moves with its entity: the world transform is the one the
 * last step left (Model phase, then anything a later phase moved, e.g. a held object), or
 * the one a Transform write since then gives (queries between steps see writes at once).
 * Degenerate sizes (zero, negative, NaN, capsule height < 2 radius) and unknown or missing
 * mesh assets are refused at write, naming entity, component and field; the world is
 * unchanged. A primitive whose size under its world scale would pass LB_SHAPE_MAX_EXTENT
 * (geom.h) is not seen by queries while it is that large.
 *
 * ---- Queries ---------------------------------------------------------------------------
 * Every query takes an lb_collide_filter: `layers` (colliders whose layer & layers == 0 are
 * not seen; default all) and `exclude` (an entity whose colliders are not seen, e.g. the
 * character casting; default none). Query inputs must be finite and their sizes > 0 and at
 * most LB_COLLIDE_MAX_EXTENT; directions need not be unit length (they are normalised) but
 * must not be zero unless max_distance is 0.
 *
 * Signs and normals. A primitive's distance is signed (negative inside, exact Euclidean as
 * in geom.h). A mesh is a surface: its distance is unsigned, >= 0. Normals are unit vectors
 * pointing from the collider's surface toward the query (out of the collider): the
 * depenetration direction when inside. A mesh contact inside a triangle's face (or off it by
 * no more than its corners' rounding, about 5e-7 of their magnitude: over the edge two
 * coplanar triangles share) reports the face normal of the placed (scaled) triangle, so a
 * small query on a mesh scaled up gets the plane's normal at any scale; distances there are
 * measured along that normal.
 *
 * Casts (ray, sphere, capsule) move a shape from its start along `dir` up to max_distance
 * and report the first contact:
 *   - distance: how far the shape moved, in [0, max_distance]; point: the contact point on
 *     the collider's surface; normal: the collider's surface normal there.
 *   - inside-start: a shape that already touches or overlaps a collider at its start hits it
 *     at distance 0; point and normal are the collider's surface point closest to the shape
 *     (for a sphere/ray: to the centre/origin; a capsule: to its core segment) and the
 *     depenetration normal. A ray starting exactly on a mesh triangle hits it at 0.
 *   - grazing: a cast that touches a surface tangentially (clearance exactly 0 at one point)
 *     hits there; one whose clearance stays above 0 misses. Contacts are exact up to float
 *     rounding (the tests measure 6e-6 m at 40 m from the origin; capsule casts within 5e-6 m
 *     of a double-precision reference near the origin), solved in closed form per primitive
 *     (no iteration; a capsule: its end spheres, its core against edges and corners), except
 *     sphere and capsule
 *     casts against cylinders, solved iteratively (conservative advancement): they report the
 *     first distance where the clearance is below 1e-6 m, and a grazing approach whose
 *     clearance stays between 0 and LB_COLLIDE_TOLERANCE hits at its closest approach.
 *   - parallel: boxes are solid, so a ray in the plane of a box face hits the first edge it
 *     meets; mesh triangles have no thickness, so a ray in a triangle's plane misses it (a
 *     sphere or capsule cast meets its edges). Casts parallel to a face at a clearance above 0
 *     miss it.
 *   - zero length (max_distance 0): an overlap test at the start (hit at distance 0 or
 *     none); `dir` may then be zero.
 *   - among colliders hit at the same distance the lowest entity slot wins, then the lowest
 *     triangle index.
 * Closest point: the collider surface point nearest to p within max_distance (signed
 * distance <= max_distance, so the deepest penetration wins when p is inside several).
 * Overlap (sphere, capsule, box): every collider that touches or intersects the shape
 * (distance <= 0), in entity order; `cap` entries are written and `*count` receives the
 * full number.
 *
 * Acceleration: a bounding-volume hierarchy over the colliders (rebuilt when colliders are
 * added or removed, refitted only for those that moved or were rewritten) and a static one
 * per mesh asset over its triangles. Queries and steps allocate nothing.
 */
#ifndef LIMBER_COLLIDE_H
#define LIMBER_COLLIDE_H

#include "limber/base.h"
#include "limber/geom.h"
#include "limber/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Collider.shape values: the lb_shape_type values, then a triangle mesh. */
typedef enum lb_collider_shape {
  LB_COLLIDER_CYLINDER = LB_SHAPE_CYLINDER,
  LB_COLLIDER_CAPSULE = LB_SHAPE_CAPSULE,
  LB_COLLIDER_SPHERE = LB_SHAPE_SPHERE,
  LB_COLLIDER_BOX = LB_SHAPE_BOX,
  LB_COLLIDER_MESH = 4,
} lb_collider_shape;

/* Largest query size or coordinate magnitude accepted, metres. Entities are placed within
 * LB_WORLD_EXTENT (3.2e4 m, components.h: the Transform's range), where a float's spacing is
 * at most 1.95 mm and queries are exact to a controller's skin; coordinates between it and
 * this limit (a child's offset, a long cast) are answered at the spacing there (7.8 mm near
 * 1e5 m). Beyond this limit a query is refused (LB_ERR_OUT_OF_RANGE). */
#define LB_COLLIDE_MAX_EXTENT 1.0e5f
/* Contact tolerance, metres, of the iteratively solved pairs: sphere and capsule casts
 * against cylinders, and box overlaps with cylinders (alternating projections; a box
 * within this distance of a cylinder counts as touching it). */
#define LB_COLLIDE_TOLERANCE 1.0e-5f
/* Triangles of one mesh asset, at most. */
#define LB_MESH_MAX_TRIANGLES (1u << 24)

/* ---- mesh assets ---------------------------------------------------------------------- */
typedef struct lb_mesh_def {
  const float *positions;  /* 3 floats per vertex, the mesh's own frame (entity units) */
  uint32_t vertex_count;   /* >= 3 */
  const uint32_t *indices; /* 3 per triangle, each < vertex_count */
  uint32_t index_count;    /* a multiple of 3, >= 3 */
} lb_mesh_def;

lb_mesh_def lb_mesh_default_def(void); /* all zero: set positions and indices */

/* Copies the mesh into a new asset of the world and builds its triangle hierarchy;
 * *out receives its handle (>= 1). LB_ERR_INVALID_ARGUMENT (null pointers, an index count
 * not a multiple of 3, no triangles, an index >= vertex_count), LB_ERR_NOT_FINITE (a
 * non-finite position), LB_ERR_OUT_OF_RANGE (a coordinate beyond LB_COLLIDE_MAX_EXTENT, more
 * than LB_MESH_MAX_TRIANGLES), LB_ERR_OUT_OF_MEMORY. Nothing is added on error.
 * Zero-area triangles are kept (they are segments or points and can still be touched). */
lb_result lb_world_add_mesh(lb_world *world, const lb_mesh_def *def, uint32_t *out);
/* Triangles of a mesh asset, 0 for an unknown handle. */
uint32_t lb_world_mesh_triangle_count(const lb_world *world, uint32_t mesh);
/* The asset's own arrays (read only, valid until the world is destroyed or restored): what
 * a navmesh bake of a glTF level reads back. LB_ERR_INVALID_ARGUMENT for an unknown handle
 * (the world records no message: a query). */
lb_result lb_world_mesh_data(const lb_world *world, uint32_t mesh, lb_mesh_def *out);

/* ---- queries --------------------------------------------------------------------------- */
typedef struct lb_collide_filter {
  uint32_t layers;   /* default 0xFFFFFFFF: every layer */
  lb_entity exclude; /* default LB_NULL_ENTITY */
} lb_collide_filter;

lb_collide_filter lb_collide_default_filter(void);

/* A cast's first contact, or a closest point. entity == LB_NULL_ENTITY: nothing found (the
 * other fields are zero). */
typedef struct lb_collide_hit {
  lb_entity entity;
  float distance;   /* casts: distance moved, [0, max]; closest point: signed distance */
  vec3 point;       /* on the collider's surface */
  vec3 normal;      /* unit, out of the collider toward the query */
  int32_t triangle; /* mesh colliders: triangle index; -1 otherwise */
} lb_collide_hit;

/* Closest collider surface point to p with signed distance <= max_distance (finite, within
 * +-LB_COLLIDE_MAX_EXTENT; a negative value asks for a penetration at least that deep).
 * Among equal distances the lowest entity, then the lowest triangle. filter may be null
 * (default) for this and every query below. */
lb_result lb_world_closest_point(lb_world *world, const vec3 p, float max_distance,
                                 const lb_collide_filter *filter, lb_collide_hit *out);
/* First hit of the ray origin + t * dir, t in [0, max_distance]. */
lb_result lb_world_raycast(lb_world *world, const vec3 origin, const vec3 dir, float max_distance,
                           const lb_collide_filter *filter, lb_collide_hit *out);
/* First hit of a sphere (centre, radius > 0) moved along dir. */
lb_result lb_world_sphere_cast(lb_world *world, const vec3 center, float radius, const vec3 dir,
                               float max_distance, const lb_collide_filter *filter,
                               lb_collide_hit *out);
/* First hit of a capsule (core segment a-b, radius > 0; a == b is a sphere) moved along dir. */
lb_result lb_world_capsule_cast(lb_world *world, const vec3 a, const vec3 b, float radius,
                                const vec3 dir, float max_distance, const lb_collide_filter *filter,
                                lb_collide_hit *out);
/* Colliders touching a sphere / a capsule (core a-b) / an oriented box (centre, unit
 * rotation, half extents > 0), in entity order. */
lb_result lb_world_overlap_sphere(lb_world *world, const vec3 center, float radius,
                                  const lb_collide_filter *filter, lb_entity *out, uint32_t cap,
                                  uint32_t *count);
lb_result lb_world_overlap_capsule(lb_world *world, const vec3 a, const vec3 b, float radius,
                                   const lb_collide_filter *filter, lb_entity *out, uint32_t cap,
                                   uint32_t *count);
lb_result lb_world_overlap_box(lb_world *world, const vec3 center, const versor rotation,
                               const vec3 half_extents, const lb_collide_filter *filter,
                               lb_entity *out, uint32_t cap, uint32_t *count);

/* The same queries without the hierarchies (every collider, every triangle): the reference
 * the tests and the bench compare against. Same results, bit for bit. */
lb_result lb_world_closest_point_brute(lb_world *world, const vec3 p, float max_distance,
                                       const lb_collide_filter *filter, lb_collide_hit *out);
lb_result lb_world_raycast_brute(lb_world *world, const vec3 origin, const vec3 dir,
                                 float max_distance, const lb_collide_filter *filter,
                                 lb_collide_hit *out);
lb_result lb_world_sphere_cast_brute(lb_world *world, const vec3 center, float radius,
                                     const vec3 dir, float max_distance,
                                     const lb_collide_filter *filter, lb_collide_hit *out);
lb_result lb_world_capsule_cast_brute(lb_world *world, const vec3 a, const vec3 b, float radius,
                                      const vec3 dir, float max_distance,
                                      const lb_collide_filter *filter, lb_collide_hit *out);

/* World-space bounds of an entity's collider as the queries see it (refits first). */
lb_result lb_world_collider_bounds(lb_world *world, lb_entity e, vec3 lo, vec3 hi);

#ifdef __cplusplus
}
#endif
#endif
