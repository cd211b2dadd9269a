/* glTF importer internals shared by gltf_parse.c, gltf_accessor.c, gltf_skin.c, gltf_anim.c
 * and gltf_cubic.c. Not installed. */
#ifndef LIMBER_GLTF_INTERNAL_H
#define LIMBER_GLTF_INTERNAL_H

#include "cJSON.h"
#include "limber/gltf.h"
#include <stdarg.h>

/* ---- arena: every block from the caller's allocator, released in one walk ---------------- */
typedef struct gltf_block gltf_block;
typedef struct gltf_arena {
  lb_allocator allocator;
  gltf_block *head;
} gltf_arena;

/* Zeroed, 16-byte aligned; null when the allocator fails or size overflows. */
void *gltf_arena_alloc(gltf_arena *a, size_t size);
void *gltf_arena_array(gltf_arena *a, size_t count, size_t size);
void gltf_arena_release(gltf_arena *a);

/* ---- accessors ------------------------------------------------------------------------------ */
/* Limits on data the file does not store byte for byte, so a few bytes of JSON cannot ask
 * for gigabytes: elements of an accessor without a bufferView (implicit zeros, sparse), and
 * keys of one resampled CUBICSPLINE track. */
#define GLTF_MAX_IMPLICIT (1u << 20)
#define GLTF_MAX_RESAMPLED (1u << 20)

#define GLTF_BYTE 5120
#define GLTF_UNSIGNED_BYTE 5121
#define GLTF_SHORT 5122
#define GLTF_UNSIGNED_SHORT 5123
#define GLTF_UNSIGNED_INT 5125
#define GLTF_FLOAT 5126

typedef struct gltf_accessor {
  uint32_t index;
  uint32_t count;
  uint32_t comps;     /* components per element: 1 SCALAR .. 16 MAT4 */
  uint32_t comp_type; /* GLTF_* */
  bool normalized;
  const uint8_t *data; /* element 0, or null: zeros (no bufferView) */
  size_t stride;       /* bytes between elements */
  /* sparse substitution (count 0: none) */
  uint32_t sparse_count;
  uint32_t sparse_index_type;
  const uint8_t *sparse_indices;
  const uint8_t *sparse_values;
} gltf_accessor;

/* ---- import context ------------------------------------------------------------------------ */
typedef struct gltf_buffer_state {
  bool resolved;
  const uint8_t *data;
  size_t size; /* byteLength */
} gltf_buffer_state;

typedef struct gltf_node {
  const cJSON *json;
  int32_t parent; /* -1 = root */
  int32_t joint;  /* skeleton joint index, -1 = not in the skeleton */
  bool trs_done;  /* rest parsed */
  lb_transform rest;
} gltf_node;

typedef struct gltf_ctx {
  const lb_gltf_def *def;
  gltf_arena scratch; /* freed when the import ends */
  gltf_arena *out;    /* the asset's arena */
  char message[LB_GLTF_MESSAGE_MAX];
  cJSON *root;
  const uint8_t *bin; /* GLB BIN chunk, or null */
  size_t bin_size;
  /* top-level arrays, indexed once (cJSON lookups by index are linear) */
  const cJSON **accessors, **views, **buffers, **skins, **animations;
  uint32_t accessor_count, view_count, buffer_count, skin_count, animation_count;
  gltf_buffer_state *buffer_state;
  gltf_node *nodes;
  uint32_t node_count;
  lb_gltf_asset *asset;
  /* the clip being built: CUBICSPLINE tracks resampled and their largest deviation */
  uint32_t cubic_tracks;
  float cubic_error;
} gltf_ctx;

/* Records "gltf: <message>" and returns code. */
lb_result gltf_fail(gltf_ctx *c, lb_result code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* JSON helpers: a missing optional property leaves *out untouched. `where` names the
 * object in messages ("accessor 3"). */
lb_result gltf_json_index(gltf_ctx *c, const cJSON *obj, const char *key, bool required,
                          uint32_t limit, const char *where, uint32_t *out);
lb_result gltf_json_uint(gltf_ctx *c, const cJSON *obj, const char *key, bool required, double max,
                         const char *where, uint32_t *out);
/* Reads an array of exactly n numbers as floats; non-finite after the cast is an error. */
lb_result gltf_json_floats(gltf_ctx *c, const cJSON *obj, const char *key, uint32_t n,
                           const char *where, float *out, bool *present);
/* Indexes a top-level array (absent = 0 entries). Entries must be objects. */
lb_result gltf_json_table(gltf_ctx *c, const char *key, const cJSON ***out, uint32_t *count);

/* Accessor `index` resolved and bounds-checked; `what` says who reads it. */
lb_result gltf_accessor_get(gltf_ctx *c, uint32_t index, const char *what, gltf_accessor *out);
/* count * comps floats (normalised integers decoded per the spec), sparse applied, finite. */
lb_result gltf_accessor_floats(gltf_ctx *c, const gltf_accessor *a, const char *what, float *out);
const char *gltf_type_name(uint32_t comps);

/* Container (GLB or JSON) → c->root, c->bin. */
lb_result gltf_parse_container(gltf_ctx *c, const uint8_t *data, size_t size);

/* gltf_skin.c: node parents (c->nodes, cycles refused) and a node's local rest TRS. */
lb_result gltf_read_hierarchy(gltf_ctx *c);
lb_result gltf_node_rest(gltf_ctx *c, uint32_t node, const lb_transform **out);
/* gltf_parse.c: the def checks and the container with its tables (accessors, views,
 * buffers), for readers other than the skeleton import (gltf_mesh.c). */
lb_result gltf_open(gltf_ctx *c, const lb_gltf_def *def);
/* gltf_skin.c: hierarchy, names, rest, skin → c->asset skeleton fields. */
lb_result gltf_build_skeleton(gltf_ctx *c);
/* gltf_anim.c: animations → c->asset clips (after the skeleton). */
lb_result gltf_build_clips(gltf_ctx *c);
/* Node label for messages: "node 5 'Hips'" into buf. */
const char *gltf_node_label(const gltf_ctx *c, uint32_t node, char *buf, size_t n);
/* Unique names under the def's policy. names[i] (char[LB_JOINT_NAME_MAX]) are fixed up in
 * place; messages name entry i as "<kind> <ids[i]>" ("node 7", "animation 2"). */
lb_result gltf_unique_names(gltf_ctx *c, char (*names)[LB_JOINT_NAME_MAX], uint32_t n,
                            const char *kind, const int32_t *ids);

/* gltf_cubic.c: CUBICSPLINE keys (in-tangent, value, out-tangent per key) resampled into
 * linear keys. First call with out_times null to count (it stops early once the count
 * passes GLTF_MAX_RESAMPLED); then with buffers of that size. *out_error (optional)
 * receives the largest deviation measured between the linear keys and the curve. */
uint32_t gltf_cubic_resample(const float *times, const float *values, uint32_t count,
                             uint32_t comps, float tolerance, float *out_times, float *out_values,
                             float *out_error);
/* The def's cubic_tolerance, or LB_GLTF_CUBIC_TOLERANCE when it is 0. */
float gltf_cubic_tolerance(const lb_gltf_def *def);

/* gltf_armature.c: the topmost ancestor of skeleton root `node` that an animation moves
 * (a translation, rotation or scale channel whose keys are not all the node's rest value),
 * or `node` when none does: the skeleton starts there, so the motion plays as in three.js. */
int32_t gltf_animated_top(gltf_ctx *c, int32_t node);

/* gltf_skin_ends.c: where the skinned mesh ends per joint (lb_joint_end), from the meshes
 * bound to the chosen skin, into c->asset->skeleton.mesh_ends (left null when no vertex is
 * weighted to a joint). Best effort: a primitive whose attributes cannot be read is skipped;
 * only running out of memory fails. */
lb_result gltf_skin_mesh_ends(gltf_ctx *c);

#endif
