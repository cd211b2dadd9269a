/* Limber base: result codes, allocator hooks, entity handles.
 *
 * Every public function that can fail returns an lb_result. The world keeps a
 * readable message for the last failure (lb_world_last_error) that names the
 * entity, component and field involved. A failing call leaves the world unchanged.
 */
#ifndef LIMBER_BASE_H
#define LIMBER_BASE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One table generates the enum and the short texts (sokol/cgltf style). */
#define LB_RESULT_TABLE(X)                                                                         \
  X(LB_OK, "ok")                                                                                   \
  X(LB_ERR_INVALID_ARGUMENT, "invalid argument")                                                   \
  X(LB_ERR_NOT_FINITE, "value is not finite")                                                      \
  X(LB_ERR_OUT_OF_RANGE, "value out of range")                                                     \
  X(LB_ERR_STALE_ENTITY, "stale or null entity handle")                                            \
  X(LB_ERR_MISSING_COMPONENT, "entity lacks a required component")                                 \
  X(LB_ERR_UNKNOWN_NAME, "unknown name")                                                           \
  X(LB_ERR_JOINT_NOT_FOUND, "joint not found")                                                     \
  X(LB_ERR_PARSE, "malformed input")                                                               \
  X(LB_ERR_OUT_OF_MEMORY, "out of memory")                                                         \
  X(LB_ERR_CAPACITY, "capacity exceeded")                                                          \
  X(LB_ERR_DEGENERATE, "degenerate geometry")                                                      \
  X(LB_ERR_CYCLE, "parent cycle")                                                                  \
  X(LB_ERR_BUSY, "owned by another system")

typedef enum lb_result {
#define LB_RESULT_ENUM_(name, text) name,
  LB_RESULT_TABLE(LB_RESULT_ENUM_)
#undef LB_RESULT_ENUM_
      LB_RESULT_COUNT
} lb_result;

/* Stable identifier text ("LB_ERR_NOT_FINITE") and short description. */
const char *lb_result_name(lb_result r);
const char *lb_result_text(lb_result r);

/* Allocator hooks; both null → malloc/free. Called only at creation, on spawn
 * growth, on component insert and on asset creation — never inside a step. */
typedef struct lb_allocator {
  void *(*alloc)(size_t size, void *user);
  void (*free)(void *ptr, void *user);
  void *user;
} lb_allocator;

/* Entity handle: low 20 bits = slot index + 1, high 12 bits = generation.
 * 0 is the null entity. A handle whose slot was despawned is stale, for good: each despawn
 * raises the slot's generation, and a slot despawned at generation LB_ENTITY_GENERATION_MAX
 * (its 4,096th despawn) is retired instead of wrapping to 0, so it is never handed out again
 * and no old handle ever reads a new entity. Retired slots count towards LB_MAX_ENTITIES. */
typedef uint32_t lb_entity;
#define LB_NULL_ENTITY ((lb_entity)0)
#define LB_ENTITY_INDEX_BITS 20u
#define LB_MAX_ENTITIES ((1u << LB_ENTITY_INDEX_BITS) - 1u)
#define LB_ENTITY_GENERATION_MAX ((1u << (32u - LB_ENTITY_INDEX_BITS)) - 1u) /* 4095 */

/* Id of a string in a world's name table (world.h lb_world_intern); 0 = "". */
typedef uint32_t lb_name;

#ifdef __cplusplus
}
#endif
#endif
