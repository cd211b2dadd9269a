/* The world: entities, components, assets and the fixed frame pipeline.
 *
 * lb_world_step(dt) runs six phases in one fixed order, one way only: 1 Animate (local
 * poses), 2 Move (root transforms: root motion, nav agents, vaults, character controllers),
 * 3 Model space (local->model, entity world transforms, colliders), 4 Reach (two-bone IK,
 * hands on walls, the vault's planted hand), 5 Grip (held objects, arms, fingers), 6 Output
 * (matrices). Which module runs what in each phase, and why in that order, is described
 * once, in docs/architecture.md ("The frame pipeline"). No clock is read but dt. Every step
 * starts from this step's animation pose.
 */
#ifndef LIMBER_WORLD_H
#define LIMBER_WORLD_H

#include "limber/base.h"
#include "limber/math.h"
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lb_world lb_world;

/* A range of a parallel section: items [start, end) of the section's item_count, run by
 * worker `worker` (0 .. threads-1; the thread that called lb_world_step is one of them).
 * Box2D v3's b2TaskCallback. */
typedef void lb_task_fn(uint32_t start, uint32_t end, uint32_t worker, void *task_context);
/* A game's own task system (Box2D v3's b2EnqueueTaskCallback): run task(start, end, worker,
 * task_context) over sub-ranges covering [0, item_count) exactly once, each of at least
 * min_range items (but the last), with worker < lb_world_def.threads and no two ranges at once
 * on the same worker index. Returns the game's task handle for finish_task, or null when it ran
 * the whole range before returning (finish_task is then not called). */
typedef void *lb_enqueue_task_fn(lb_task_fn *task, uint32_t item_count, uint32_t min_range,
                                 void *task_context, void *user_context);
/* Waits until every range of the task enqueue_task returned has run. */
typedef void lb_finish_task_fn(void *user_task, void *user_context);

/* Threads in lb_world_def.threads: 1..LB_MAX_THREADS. */
#define LB_MAX_THREADS 64u

typedef struct lb_world_def {
  lb_allocator allocator;   /* default: malloc/free */
  uint32_t entity_capacity; /* initial slots, grows by doubling; default 64 */
  /* Workers for the step's parallel sections (per-character animation sampling and blending,
   * root motion extraction, local->model and skinning matrices, two-bone IK), the calling
   * thread included: 1..LB_MAX_THREADS (64), default 1 (everything on the calling thread). The
   * results are bit-identical for every count. With threads > 1 and no task callbacks the world
   * starts threads-1 pthreads of its own at creation and joins them at destroy (in limber-mt.wasm
   * the host starts them: the bridge's workers). limber.wasm and limber-scalar.wasm have no
   * threads: they accept any valid count and run with 1 (lb_world_threads says which). */
  uint32_t threads;
  /* Optional, both or neither: the game's task system instead of the world's own threads
   * (used only when threads > 1). */
  lb_enqueue_task_fn *enqueue_task;
  lb_finish_task_fn *finish_task;
  void *user_task_context; /* passed to both as user_context */
} lb_world_def;

lb_world_def lb_world_default_def(void);
/* Checks a def as lb_world_create does: LB_OK, or the code with a message naming the field
 * and its value ("lb_world_def.threads = 0: ...") in msg (msg_size bytes, may be null/0). */
lb_result lb_world_def_validate(const lb_world_def *def, char *msg, size_t msg_size);
/* *out is null on failure (the def is checked first: lb_world_def_validate). */
lb_result lb_world_create(const lb_world_def *def, lb_world **out);
void lb_world_destroy(lb_world *world);

/* Message for the last failed call on this world ("" if none). It names the
 * entity ("entity 3v1" = slot 3, generation 1), component and field. */
const char *lb_world_last_error(const lb_world *world);

lb_result lb_world_spawn(lb_world *world, lb_entity *out);
/* Removes every component; the handle (and copies of it) become stale, for good (base.h).
 * References to it in other components:
 * - Transform.parent: the children become roots; their parent and parentJoint are cleared.
 * - every other entity field (TwoBoneIK rig/target/hint, GripHolder.held, GripProfile
 *   anchors, ...) keeps the stale handle, which reads as null through lb_world_get and
 *   which the systems treat as gone (the constraint idles, nothing is held). A write that
 *   leaves such a field as it is (the same stale handle, or the null it reads as) is
 *   accepted and keeps it, so it blocks no later update of the other fields; writing a
 *   live entity replaces it. A stale handle is refused in a field that did not hold it. */
lb_result lb_world_despawn(lb_world *world, lb_entity e);
bool lb_world_alive(const lb_world *world, lb_entity e);
/* Live entities (0 for a null world). A count over the slots ever used, not for every step. */
uint32_t lb_world_entity_count(const lb_world *world);

/* A host that puts back an earlier copy of the world's memory (the TypeScript bridge's
 * World.restore) puts the generations back too, so a handle issued after the copy was
 * taken would name whatever is spawned next in its slot. Before the restore,
 * lb_world_generations_unused writes per slot the lowest generation not yet handed out
 * (at most `cap` slots; returns the slot count); after it, lb_world_generations_reserve
 * with that array makes every slot hand out only generations above those, so such
 * handles stay stale. Slot order is untouched: spawns come out in the same slots as
 * before. A slot with no generation left is retired, as despawn retires it. */
uint32_t lb_world_generations_unused(const lb_world *world, uint16_t *out, uint32_t cap);
lb_result lb_world_generations_reserve(lb_world *world, const uint16_t *unused, uint32_t count);
/* The same for asset handles (skeletons, clips, controllers, meshes, navmeshes: index + 1 per
 * kind): lb_world_asset_counts writes every kind's count (at most `cap`; returns how many
 * there are, the same in every world of a build) before the restore;
 * lb_world_asset_counts_reserve with them after it pads each kind that came back shorter
 * with entries that name nothing, so a handle issued since is answered as unknown instead
 * of naming the next asset added. */
uint32_t lb_world_asset_counts(const lb_world *world, uint32_t *out, uint32_t cap);
lb_result lb_world_asset_counts_reserve(lb_world *world, const uint32_t *counts, uint32_t n);

/* Generic component access by type id (see schema.h). `data` is the component
 * struct. insert adds or replaces; set requires the component to exist. Both
 * validate every field first and change nothing on error. */
lb_result lb_world_insert(lb_world *world, lb_entity e, uint32_t type, const void *data);
lb_result lb_world_set(lb_world *world, lb_entity e, uint32_t type, const void *data);
lb_result lb_world_get(const lb_world *world, lb_entity e, uint32_t type, void *out);
lb_result lb_world_remove(lb_world *world, lb_entity e, uint32_t type);
bool lb_world_has(const lb_world *world, lb_entity e, uint32_t type);

/* Names: strings that components refer to (joint paths, pose names, ...) live once in the
 * world's name table and component fields hold their id (lb_name, LB_FIELD_NAME). The
 * schema's default texts are interned first, in schema order, so their ids are equal in
 * every world. Interning allocates (never during a step); ids stay valid for the world's
 * life. */
#define LB_NAME_INVALID ((lb_name)0xFFFFFFFFu) /* never a valid id: a write naming it fails */
/* Id of `text` (NUL-terminated, at most 1024 bytes), adding it when new. */
lb_result lb_world_intern(lb_world *world, const char *text, lb_name *out);
/* lb_world_intern for struct initialisers: LB_NAME_INVALID on failure (the write that
 * uses it then fails with a message). */
lb_name lb_world_name(lb_world *world, const char *text);
/* Text of a name id ("" for 0), or null when the world has no such id. Valid until the
 * next intern. */
const char *lb_world_name_text(const lb_world *world, lb_name id);

/* Inputs a game writes that a system may own for a while (docs/architecture.md, "Who writes
 * what"): a NavAgent heading for a destination in driveMode NavDestination or Both owns its
 * Animator locomotion parameter and the entity's movement requests; a Vault under way owns the
 * movement requests. A game write of an owned input fails with LB_ERR_BUSY, naming the entity,
 * the input and the owner, and changes nothing. */
typedef enum lb_input {
  LB_INPUT_MOVE = 0,           /* lb_world_controller_move, CharacterController.move */
  LB_INPUT_ANIMATOR_PARAM = 1, /* an Animator parameter, by name */
} lb_input;

/* *owner = the name of the component that owns the input now ("NavAgent", "Vault"), or null
 * when the game may write it. `param` names the parameter of LB_INPUT_ANIMATOR_PARAM (ignored
 * otherwise). LB_ERR_STALE_ENTITY, LB_ERR_INVALID_ARGUMENT (null owner, an unknown input, a
 * null param). */
lb_result lb_world_input_owner(lb_world *world, lb_entity e, lb_input input, const char *param,
                               const char **owner);

/* World transform of an entity as of the last step's Model-space phase. */
lb_result lb_world_entity_transform(const lb_world *world, lb_entity e, lb_transform *out);

/* The shortest step: rates (velocities, speeds, damped parameters) are displacements
 * divided by dt, so a shorter one would turn float rounding of a position into speeds of
 * kilometres per second (and below 1e-38 s into infinities). dt = 0 is a paused step. */
#define LB_STEP_DT_MIN 1e-6f
/* dt in seconds: 0 (paused: poses are evaluated, nothing moves) or within
 * [LB_STEP_DT_MIN, 1]; anything else is LB_ERR_OUT_OF_RANGE and changes nothing. */
lb_result lb_world_step(lb_world *world, float dt);
/* Whether lb_world_step takes this dt (the one place the range is checked). */
bool lb_world_dt_valid(float dt);
uint64_t lb_world_step_count(const lb_world *world);
/* The threads the world's step runs on: lb_world_def.threads, or 1 in a build without threads
 * (limber.wasm and limber-scalar.wasm; limber-mt.wasm has them, run by the host's workers). */
uint32_t lb_world_threads(const lb_world *world);

/* 64-bit hash (FNV-1a over IEEE bit patterns, field by field) of every rig's
 * model-space joint transforms and root world transform, in entity order. */
uint64_t lb_world_hash(const lb_world *world);

#ifdef __cplusplus
}
#endif
#endif
