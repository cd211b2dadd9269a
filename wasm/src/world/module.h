/* The module contract. A module (rig, ik, anim, grip, ...) declares, in one table of its
 * own, its components (schema + write hooks + private per-instance state) and its phase
 * systems; wasm/src/modules.h lists the modules in pipeline order. The world core runs
 * the hooks and systems and names no module. See docs/architecture.md. */
#ifndef LIMBER_WORLD_MODULE_H
#define LIMBER_WORLD_MODULE_H

#include "limber/components.h"
#include "limber/math.h"
#include "limber/schema.h"
#include "limber/world.h"
#include <stdbool.h>

/* The frame pipeline: systems run phase by phase, then by `order`, then by module list
 * position. Which system runs in which phase: docs/architecture.md ("The frame pipeline"). */
typedef enum lb_phase {
  LB_PHASE_ANIMATE = 0, /* local poses from the animation */
  LB_PHASE_MOVE = 1,    /* root motion, agents, controllers: root transforms */
  LB_PHASE_MODEL = 2,   /* local->model, entity world transforms */
  LB_PHASE_REACH = 3,   /* arm IK toward targets */
  LB_PHASE_GRIP = 4,    /* held objects, support arms, fingers */
  LB_PHASE_OUTPUT = 5,  /* matrices and debug lists */
  LB_PHASE_COUNT
} lb_phase;

/* Scratch a stage hook can fill for its commit or discard (aligned to 16). */
#define LB_WRITE_PREP_BYTES 256

/* One component write in progress: the generic write checked the value against the
 * schema; the component's hooks check it against the world, then commit it. */
typedef struct lb_write {
  lb_world *world;
  const char *where; /* "GripHolder on entity 3v1", the prefix of every message */
  lb_entity entity;
  uint32_t slot, type;
  bool had;            /* the entity already has this component */
  void *value;         /* the new value; stage may normalise it */
  const void *current; /* the stored value when `had`, else null */
  const void *state;   /* the stored private state when `had`, else null */
  _Alignas(16) unsigned char prep[LB_WRITE_PREP_BYTES]; /* zeroed before stage */
} lb_write;

/* A component's schema from its field list (limber/components.h), with LB_SCHEMA_STRUCT
 * defined as its struct: `#define LB_SCHEMA_STRUCT lb_rig_c` then
 * `LB_COMPONENT_INFO(lb_rig_info, "Rig", LB_RIG_FIELDS);`. */
#define LB_COMPONENT_INFO(var, cname, FIELDS)                                                      \
  static const lb_field var##_fields[] = {FIELDS(LB_SCHEMA_ROW)};                                  \
  static const lb_component_info var = {cname, sizeof(LB_SCHEMA_STRUCT),                           \
                                        (uint32_t)(sizeof var##_fields / sizeof var##_fields[0]),  \
                                        var##_fields}

typedef struct lb_component_def {
  uint32_t type;                 /* id: components.h for public ones */
  const lb_component_info *info; /* schema (name, size, fields) */
  uint32_t state_size;           /* private bytes beside each instance, zeroed on insert */
  /* Checks the value against the world and prepares (allocates) what commit needs.
   * Null = the schema checks are enough. Errors go through lb_fail naming wr->where; on
   * an error stage frees what it allocated. Nothing can fail after a successful stage. */
  lb_result (*stage)(lb_write *wr);
  /* Cannot fail. The value is already stored; `state` is the instance's private state
   * (zeroed on a first insert). */
  void (*commit)(lb_write *wr, void *state);
  /* The component leaves the entity (remove or despawn): free its state. */
  void (*remove)(lb_world *w, uint32_t slot, void *value, void *state);
} lb_component_def;

typedef struct lb_system_def {
  lb_phase phase;
  int order; /* within the phase, lower first */
  const char *name;
  void (*run)(lb_world *w, float dt);
} lb_system_def;

/* Asset counts of a module, to roll back what a failed load added. */
#define LB_ASSET_KINDS_MAX 4
typedef struct lb_asset_mark {
  uint32_t count[LB_ASSET_KINDS_MAX];
} lb_asset_mark;

/* Who owns a game input, for the refusal's message: "<where>: <input> is owned by its
 * <component> (<state>) until <until>". Static texts. */
typedef struct lb_input_owner {
  const char *component; /* "NavAgent" */
  const char *state;     /* "driveMode 'Both', heading for its destination" */
  const char *until;     /* "it is stopped (world.nav.stop) or its driveMode is 'Manual'" */
} lb_input_owner;

typedef struct lb_module_def {
  const char *name;
  uint32_t state_size; /* per-world state, zeroed, lb_world_module_state */
  lb_result (*init)(lb_world *w, void *state);
  void (*release)(lb_world *w, void *state);
  const lb_component_def *components;
  uint32_t component_count;
  const lb_system_def *systems;
  uint32_t system_count;
  /* Optional: assets this module owns (counts now / drop those added since). */
  void (*asset_mark)(const lb_world *w, const void *state, lb_asset_mark *out);
  void (*asset_rollback)(lb_world *w, void *state, const lb_asset_mark *mark);
  /* True when a live component uses one of this module's assets added after the mark. */
  bool (*asset_in_use)(const lb_world *w, const void *state, const lb_asset_mark *mark);
  /* Pads the asset tables up to the counts of `upto` with entries that name nothing (the
   * module's getters answer them as unknown handles), so a handle issued before the host put
   * back an earlier copy of the world's memory never names an asset added after it. */
  lb_result (*asset_reserve)(lb_world *w, void *state, const lb_asset_mark *upto);
  /* Optional: the entity's joints, for Transform.parentJoint. joint_find returns the
   * joint index, -1 when the path is not in its skeleton, -2 when it has none. */
  int (*joint_find)(const lb_world *w, uint32_t slot, const char *path);
  const lb_transform *(*joint_model)(const lb_world *w, uint32_t slot, int joint);
  /* Optional: told after any component of any module was written or removed on `slot`
   * (e.g. the grip module re-finds hands when a Rig changes skeleton). Cannot fail. */
  void (*changed)(lb_world *w, uint32_t type, uint32_t slot);
  /* Optional: takes an entity's movement request in the Move phase (root motion, an agent,
   * a script): returns true when this module moves the entity by it (the controller module
   * when the entity has a CharacterController), false to leave it to the next module.
   * Requests nobody takes move the Transform directly (lb_world_move_request). A zero delta
   * asks whether some module moves the entity (nav agents do, each step). */
  bool (*move)(lb_world *w, uint32_t slot, const float delta[3]);
  /* Optional: whether this module owns a game input of the entity now (lb_input, world.h;
   * `param` names an Animator parameter). When it does it fills *out and returns true: a game
   * write of the input is then refused (LB_ERR_BUSY), since the module writes it itself or its
   * movement would be undone by it. */
  bool (*owner)(const lb_world *w, uint32_t slot, lb_input input, const char *param,
                lb_input_owner *out);
  /* Optional: folds this module's state into the world hash. */
  uint64_t (*hash)(const lb_world *w, uint64_t h);
} lb_module_def;

#endif
