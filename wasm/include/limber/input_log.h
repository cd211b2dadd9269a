/* Input logs: a game's inputs between steps, recorded by the TypeScript bridge
 * (world.record / world.stopRecording) and replayed here natively, with the same calls, so a
 * headless run gives the live session's hash (lockstep multiplayer, replays, bug reports).
 *
 * The log is JSON: { "format": "limber-input-log", "version": 1,
 *   "start": { "steps": N, "hash": "16 hex digits" }, "end": { ... }, "ops": [ OP, ... ] }.
 * Each op is an array whose first item names one public call of this API:
 *   ["step", dt, count]                      lb_world_step, count times
 *   ["sceneStep", scene, dt, count]          lb_scene_step (scene: index in load order)
 *   ["spawn", entity]                        lb_world_spawn (must give that handle)
 *   ["despawn", entity]                      lb_world_despawn
 *   ["insert", entity, "Component", FIELDS]  lb_world_insert: defaults + FIELDS
 *   ["set", entity, "Component", FIELDS]     lb_world_set: current value + FIELDS
 *   ["remove", entity, "Component"]          lb_world_remove
 *   ["float" | "bool" | "trigger", entity, name, value]  lb_world_set_animator_*
 *   ["damp", entity, name, value, seconds]   lb_world_set_animator_float_damped
 *   ["move", entity, x, y, z]                lb_world_controller_move
 *   ["vault", entity]                        lb_world_vault_request
 *   ["pose", entity, [t r s per joint]]      lb_rig_set_animation_pose (10 numbers a joint)
 *   ["fingerPose" | "gripPose", name, json]  lb_world_register_finger_pose / _grip_pose
 *   ["controller", skeleton, name, json, handle]          lb_world_add_controller_json
 *   ["humanoid", height, naming, handle]                  lb_world_add_humanoid
 *   ["mesh", positions, indices, handle]                  lb_world_add_mesh
 *   ["navmesh", name, vertices, counts, indices, neighbours, handle]  lb_world_add_navmesh
 *   ["navmeshJson", name, json, handle]                   lb_world_add_navmesh_json
 *   ["scene", json, { path: base64 bytes }]               lb_scene_load_files
 *   ["sceneUnload", scene]                                lb_scene_unload
 * FIELDS use the scene files' component syntax with handles for entities and assets
 * (lb_component_from_json). A number that is negative zero is written "-0" (JSON text from
 * JavaScript cannot hold it, and a sign of zero can reach the bone hash). An op that adds an
 * asset or spawns records the handle it got, and the replay checks it gets the same one. */
#ifndef LIMBER_INPUT_LOG_H
#define LIMBER_INPUT_LOG_H

#include "limber/scene.h"
#include "limber/world.h"

#define LB_INPUT_LOG_VERSION 1
/* Scenes a log may hold: the caller's plus those its "scene" ops load. */
#define LB_INPUT_LOG_SCENES_MAX 256

/* Told after each world step of the replay; `step` counts them from 1. Returns true to go on,
 * false to stop the replay there (a step budget: one op may ask for up to 2^32 - 1 steps). */
typedef bool (*lb_input_log_step_fn)(lb_world *world, uint64_t step, void *user);

/* Applies the log to `world`, which must be where the recorded world was when recording
 * started: the same step count and hash (the log's "start"), reached by the same setup, e.g.
 * the same scene loaded into a new world. `scenes` are the scenes loaded before recording, in
 * load order ("sceneStep" and "sceneUnload" name them by index; scenes the log loads follow
 * them; one the log unloads is set null in `scenes`). Scene objects the log loads are freed at the
 * end (lb_scene_destroy: their entities stay). Errors: LB_ERR_PARSE for a malformed log (wrong
 * format or version, an unknown op, an argument of the wrong type), LB_ERR_INVALID_ARGUMENT for a
 * world that is not at the log's start or an op that got another handle than the recorded one, else
 * LB_ERR_CAPACITY when `on_step` returned false, else the failing call's code; the message
 * starts "input log: ops[N] ('op'): " and the ops (and steps) before N stay applied. */
lb_result lb_input_log_replay(lb_world *world, lb_scene **scenes, uint32_t scene_count,
                              const char *json, size_t len, lb_input_log_step_fn on_step,
                              void *user);

#endif
