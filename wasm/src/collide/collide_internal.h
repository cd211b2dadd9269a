/* The collide module's internals: per-collider proxies (the Collider's private state),
 * mesh assets, the bounding-volume hierarchies and the per-pair geometry the queries use.
 * Not installed. */
#ifndef LIMBER_COLLIDE_INTERNAL_H
#define LIMBER_COLLIDE_INTERNAL_H

#include "../math/vec3_inline.h"
#include "../world/world_core.h"
#include "limber/collide.h"
#include "limber/geom.h"

/* ---- small scalar helpers (vectors: math/vec3_inline.h) ------------------------------------ */
static inline float cl_sqrt(float x) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_sqrtf(x);
#else
  return lb_sqrt(x);
#endif
}
static inline float cl_absf(float x) {
  return x < 0.0f ? -x : x;
}
static inline float cl_minf(float a, float b) {
  return a < b ? a : b;
}
static inline float cl_maxf(float a, float b) {
  return a > b ? a : b;
}
static inline float cl_clampf(float x, float lo, float hi) {
  return x < lo ? lo : (x > hi ? hi : x);
}
/* Normalises v into o; returns the length (0 leaves o = fallback). */
static inline float cl_normalize(const float *v, float *o, const float *fallback) {
  float l = cl_sqrt(lb_vec3_dot(v, v));
  if (l > 0.0f) {
    float inv = 1.0f / l;
    lb_vec3_scale(v, inv, o);
  } else {
    lb_vec3_copy(fallback, o);
  }
  return l;
}

/* ---- bounding-volume hierarchy (colliders and mesh triangles) -------------------------- */
/* Nodes in pre-order: an inner node's left child is the next node, its right child `a`; a
 * leaf holds items[a .. a + n). */
typedef struct cl_node {
  float lo[3], hi[3];
  int32_t a, n, parent;
} cl_node;

#define CL_LEAF_ITEMS 4
#define CL_STACK 64 /* traversal stack: the median split keeps depth <= log2(items) + 2 */

typedef struct cl_bvh {
  cl_node *nodes;
  uint32_t *items; /* item ids in leaf order */
  uint32_t node_count, item_count;
} cl_bvh;

/* Scratch for a build over `count` items with boxes lo/hi (3 floats each): centroids.
 * Builds into nodes (2 * count entries) and items (count). Allocation-free. */
void cl_bvh_build(cl_bvh *b, const float *lo, const float *hi, float *centroid, uint32_t count);
/* Recomputes node `leaf`'s box and its ancestors' after an item moved. */
void cl_bvh_refit_leaf(cl_bvh *b, int32_t leaf, const float *lo, const float *hi);
/* Leaf node of every item (out[item] = node index). */
void cl_bvh_leaf_of(const cl_bvh *b, int32_t *out);

/* Ray (origin o, inverse direction inv, parameter range [0, tmax]) against a box: entry
 * parameter or -1 on a miss. Inline: the casts' tree walks make a dozen of these per cast. */
static inline float cl_ray_box_enter(const float *o, const float *inv, const float *lo,
                                     const float *hi, float tmax) {
  float t0 = 0.0f, t1 = tmax;
  for (int k = 0; k < 3; ++k) {
    if (inv[k] == 0.0f) { /* parallel: the caller passes 0 for a zero direction component */
      if (o[k] < lo[k] || o[k] > hi[k]) {
        return -1.0f;
      }
      continue;
    }
    float a = (lo[k] - o[k]) * inv[k], b = (hi[k] - o[k]) * inv[k];
    if (a > b) {
      float t = a;
      a = b;
      b = t;
    }
    t0 = cl_maxf(t0, a);
    t1 = cl_minf(t1, b);
    if (t0 > t1) {
      return -1.0f;
    }
  }
  return t0;
}

/* Squared distance from p to a box (0 inside). */
float cl_box_dist2(const float *p, const float *lo, const float *hi);

/* ---- mesh assets ------------------------------------------------------------------------- */
typedef struct cl_mesh {
  float *positions; /* 3 per vertex */
  uint32_t *indices;
  uint32_t vertex_count, triangle_count;
  float lo[3], hi[3]; /* mesh frame bounds */
  cl_bvh bvh;
} cl_mesh;

/* ---- the module's world state and the per-collider proxy -------------------------------- */
typedef struct cl_proxy {
  lb_shape_def def; /* primitives: the component's shape in the entity's frame */
  lb_transform xf;  /* the world transform the collider was placed with */
  lb_shape shape;   /* primitives: resolved into world space */
  float m[9];       /* primitives: shape axes in world (column k = axis k); mesh: r * s */
  float lo[3], hi[3];
  uint32_t mesh; /* mesh handle (shape Mesh) */
  uint32_t kind; /* lb_collider_shape */
  uint32_t layer;
  int32_t leaf;    /* node holding it in the collider tree, -1 = none yet */
  uint32_t dirty;  /* written since the last step: place from its current transform */
  uint32_t valid;  /* placed, and resolvable at that transform (else queries skip it) */
  float bc[3], br; /* primitives: bounding sphere */
} cl_proxy;

typedef struct cl_world {
  cl_mesh *meshes;
  uint32_t mesh_count, mesh_cap;
  /* collider tree over the slots that have a Collider */
  cl_bvh tree;
  uint32_t cap;              /* items the arrays below hold */
  uint32_t *slots;           /* item id -> slot */
  float *lo, *hi, *centroid; /* per item */
  uint32_t count;            /* colliders */
  bool rebuild;              /* set changed: rebuild the tree before the next query */
  bool pending;              /* a write since the last refit: check every collider */
} cl_world;

cl_world *cl_state(const lb_world *w);
/* Brings every proxy and the tree up to date (lazy, cheap when nothing changed). `stepped`:
 * world_xf is current for every slot (in a step after the Model phase). */
void cl_sync(lb_world *w, bool stepped);
/* The collider's current world transform when it was written since the last step. */
void cl_current_transform(const lb_world *w, uint32_t slot, lb_transform *out);
/* Places a proxy with world transform xf (bounds, world shape). */
void cl_place(const cl_world *cw, cl_proxy *p, const lb_transform *xf);
/* Grows the item arrays to hold `n` colliders (stage hook; may fail). */
lb_result cl_reserve(lb_world *w, cl_world *cw, uint32_t n);
static inline cl_proxy *cl_proxy_of(const lb_world *w, uint32_t slot) {
  return (cl_proxy *)lb_component_state(w, slot, LB_COLLIDER);
}
static inline const cl_mesh *cl_mesh_get(const cl_world *cw, uint32_t handle) {
  /* no triangles: a place cl_meshes_reserve padded, no mesh */
  return handle >= 1 && handle <= cw->mesh_count && cw->meshes[handle - 1].triangle_count
             ? &cw->meshes[handle - 1]
             : NULL;
}
void cl_meshes_release(lb_world *w, cl_world *cw, uint32_t keep);
/* Pads the table to `upto` with places that name no mesh (cl_mesh_get: null). */
lb_result cl_meshes_reserve(lb_world *w, cl_world *cw, uint32_t upto);

/* ---- geometry (world space; d unit) ---------------------------------------------------- */
/* Signed distance from p to a primitive proxy, closest surface point q and normal n (unit,
 * out of the shape toward p). */
float cl_prim_closest(const cl_proxy *p, const float *x, float *q, float *n);
/* cl_prim_closest's distance, and its normal dotted with e (the same bits), without the
 * closest point when x is inside a box. */
float cl_prim_slope(const cl_proxy *p, const float *x, const float *e, float *slope);
/* Surface normal of a primitive at a point on (or very near) its surface. */
void cl_prim_normal_at(const cl_proxy *p, const float *x, float *n);
/* Triangle corners (world) of a mesh proxy's triangle. */
void cl_triangle_world(const cl_proxy *p, const cl_mesh *m, uint32_t tri, float *a, float *b,
                       float *c);
/* Closest point q on triangle abc to x; returns the distance (>= 0), measured along the face
 * normal when q is inside the face. */
float cl_triangle_closest(const float *x, const float *a, const float *b, const float *c, float *q);
/* The same, and n: unit, from the triangle toward x. Inside the face (or x on the triangle)
 * the face normal, else (x - q) / distance. */
float cl_triangle_closest_normal(const float *x, const float *a, const float *b, const float *c,
                                 float *q, float *n);
/* Unit winding normal of abc (fallback for a zero-area triangle: a perpendicular of its
 * longest edge, or +Y). */
void cl_triangle_normal(const float *a, const float *b, const float *c, float *n);

/* One query shape: a point (ray / closest), a sphere, or a capsule (core a-b), radius r. */
typedef struct cl_query {
  float a[3], b[3], e[3]; /* core start, end, e = b - a (zero for a point / sphere) */
  float r;
  bool segment; /* a != b */
  float d[3];   /* cast direction, unit (zero for overlap / closest) */
  float maxd;
} cl_query;

/* The query core's point at parameter s (0 = a, 1 = b) moved by t along d. */
static inline void cl_core_at(const cl_query *q, float t, float s, float *x) {
  for (int i = 0; i < 3; ++i) {
    x[i] = q->a[i] + q->e[i] * s + q->d[i] * t;
  }
}

/* Signed distance from the query core (moved by t along d) to a primitive / a triangle, at
 * the core's nearest point (query_core.c: closed form but for cylinders). s_out: its
 * parameter. */
float cl_core_prim_distance(const cl_proxy *p, const cl_query *q, float t, float *s_out);
/* The same, and that nearest core point's closest point on the primitive and normal. */
float cl_core_prim_closest(const cl_proxy *p, const cl_query *q, float t, float *s_out,
                           float *point, float *normal);
float cl_core_triangle_distance(const cl_query *q, float t, const float *a, const float *b,
                                const float *c, float *s_out);
/* The unmoved query (t = 0) within its radius of the primitive / the triangle (touching
 * included). */
bool cl_core_prim_touches(const cl_proxy *p, const cl_query *q);
bool cl_core_triangle_touches(const cl_query *q, const float *a, const float *b, const float *c);
/* A core x(s) = l + s f, 0 <= s <= 1, in the frame of a box of half extents h (a sphere's or
 * capsule's core: h 0 but along its axis): the parameter of its point nearest the box and
 * the squared distance there; false when that distance is 0 (the core enters the box). */
typedef struct cl_rbox {
  float l[3], f[3], h[3];
} cl_rbox;
bool cl_rbox_nearest(const cl_rbox *b, float *s_out, float *dist2);

/* First contact of the query cast with a primitive / a triangle: t in [0, maxd], or -1. */
float cl_cast_prim(const cl_proxy *p, const cl_query *q);
/* The colliders near one place, for a caller that makes several casts there (a controller's
 * move, the vault probe's height check): one walk of the tree instead of one per cast. A cast
 * whose swept bounds stay inside [lo, hi] tests only `items` (with the tree walk's own
 * per-collider box test), which holds every collider the filter sees whose bounds reach within a
 * rounding margin of the box: every one the walk could hit, since a walk skips a collider whose
 * (padded) bounds its sweep does not enter, and visiting order does not change its answer. Any
 * other cast, or a region that found more than CL_REGION_ITEMS, walks the tree. None found: a
 * cast inside the box misses. Valid until a collider is written or placed again (a move writes
 * none). */
#define CL_REGION_ITEMS 16
typedef struct cl_region {
  float lo[3], hi[3];
  uint32_t count; /* items found; CL_REGION_ITEMS + 1: too many, every cast walks the tree */
  uint32_t items[CL_REGION_ITEMS];
} cl_region;
void cl_region_gather(lb_world *w, const float *lo, const float *hi, float margin,
                      const lb_collide_filter *f, cl_region *out);
/* A margin for cl_region_gather that covers the rounding of the casts' box tests within
 * [lo, hi] (casts up to `extra` long): a millimetre and some float steps of the coordinates. */
static inline float cl_rounding_margin(const float *lo, const float *hi, float extra) {
  float m = extra;
  for (int k = 0; k < 3; ++k) {
    float a = lo[k] < 0.0f ? -lo[k] : lo[k], b = hi[k] < 0.0f ? -hi[k] : hi[k];
    m += a > b ? a : b;
  }
  return 1.0e-3f + 1.0e-5f * m;
}
/* lb_world_capsule_cast, lb_world_sphere_cast and lb_world_raycast (same checks, same answers)
 * through a region; a null region walks the tree. */
lb_result cl_region_capsule_cast(lb_world *w, const cl_region *rg, const vec3 a, const vec3 b,
                                 float radius, const vec3 dir, float max_distance,
                                 const lb_collide_filter *filter, lb_collide_hit *out);
lb_result cl_region_sphere_cast(lb_world *w, const cl_region *rg, const vec3 center, float radius,
                                const vec3 dir, float max_distance, const lb_collide_filter *filter,
                                lb_collide_hit *out);
lb_result cl_region_raycast(lb_world *w, const cl_region *rg, const vec3 origin, const vec3 dir,
                            float max_distance, const lb_collide_filter *filter,
                            lb_collide_hit *out);
/* A sphere (or point, r = 0) from o along d, and the query's capsule, against a box proxy
 * (query_cast_box.c): t, or -1; the start is outside (cl_cast_prim checks it first). */
float cl_sphere_cast_box(const cl_proxy *p, const float *o, const float *d, float r, float maxd);
float cl_capsule_cast_box(const cl_proxy *p, const cl_query *q);
float cl_cast_triangle(const cl_query *q, const float *a, const float *b, const float *c);
/* Hit point and normal for a contact at t found by a cast (t = 0 and overlapping: the
 * depenetration point and normal). */
void cl_contact_prim(const cl_proxy *p, const cl_query *q, float t, float *point, float *normal);
void cl_contact_triangle(const cl_query *q, float t, const float *a, const float *b, const float *c,
                         float *point, float *normal);

/* Ray primitives used by the casts (d unit; -1 on a miss). */
float cl_ray_sphere(const float *o, const float *d, const float *c, float r);
float cl_ray_capsule(const float *o, const float *d, const float *a, const float *b, float r);
/* The side of the cylinder around a to a + ab (no caps), radius r. */
float cl_ray_cylinder_side(const float *o, const float *d, const float *a, const float *ab,
                           float r);
/* The side of an infinite cylinder of radius r, in its cross-section: mp, dp are the start
 * offset and direction with their axial parts removed (dp not unit). */
float cl_ray_circle(const float *mp, const float *dp, float r);
/* False when the query's swept shape stays farther than `radius` from `center` (a cheap
 * rejection before the exact tests). */
bool cl_cast_may_touch(const cl_query *q, const float *center, float radius);
/* The face part alone: the polygon's plane offset by r, where the polygon lies under it. */
float cl_ray_polygon_face(const float *o, const float *d, const float *corner, const float *e1,
                          const float *e2, bool triangle, float r);
/* Ray against the set {corner + u e1 + v e2 (+ triangle: u + v <= 1)} grown by r > 0. */
float cl_ray_rounded_polygon(const float *o, const float *d, const float *corner, const float *e1,
                             const float *e2, bool triangle, float r);

/* Overlap of an oriented query box (centre c, axes ax[9] column-major, half extents h) with a
 * primitive / a triangle. */
bool cl_box_overlaps_prim(const float *c, const float *ax, const float *h, const cl_proxy *p);
bool cl_box_overlaps_triangle(const float *c, const float *ax, const float *h, const float *a,
                              const float *b, const float *tc);

#endif
