#ifndef LIMBER_SCENE_INTERNAL_H
#define LIMBER_SCENE_INTERNAL_H
#include "limber/scene.h"

uint32_t lb_scene_asset(const lb_scene *scene, const char *name);
/* Fills the fields present in a cJSON object; *field_mask gets a bit per field. */
lb_result lb_component_fields_from_cjson(lb_world *w, const lb_scene *scene, uint32_t type,
                                         const void *json_object, const char *where, void *inout,
                                         uint32_t *field_mask);

/* The file of the caller's table named `path`; a missing or empty one fails with
 * LB_ERR_UNKNOWN_NAME: "scene: <what> '<path>' was not passed to the loader ...". */
lb_result lb_scene_file_get(lb_world *w, const lb_scene_file *files, uint32_t file_count,
                            const char *path, const char *what, const lb_scene_file **out);
/* Spawns an entity named `name` into the scene (unique, < 64 bytes): it is rolled back with a
 * failed load and despawned by lb_scene_unload like the document's entities. */
lb_result lb_scene_add_entity(lb_world *w, lb_scene *scene, const char *name, lb_entity *out);
/* "level": PATH (a level .json of pieces or a .glb/.gltf of mesh nodes, from the caller's
 * file table) or { "file": PATH, "layers": { KIND: BITS } }: one static collider entity per
 * piece, named by the piece (io/scene_level.c). Null json: no level. */
lb_result lb_scene_level(lb_world *w, lb_scene *scene, const void *json, const lb_scene_file *files,
                         uint32_t file_count);
/* The level file path of a scene's "level" value, or null. */
const char *lb_scene_level_path(const void *json);

/* Animator additions to scenes (io/scene_animator.c). */
/* A rig asset from { "gltf": PATH, "skin": N? }: the file's skeleton and clips. */
lb_result lb_scene_gltf_rig(lb_world *w, const char *name, const void *rig_json,
                            const lb_scene_file *files, uint32_t file_count,
                            uint32_t *out_skeleton);
/* A controller asset (animator.h JSON) whose "rig" names a rig asset of the scene. */
lb_result lb_scene_controller(lb_world *w, const lb_scene *scene, const char *name,
                              const void *json, uint32_t *out);
/* Timeline { "param": { "entity", "name", "value" } }: name (LB_ANIM_NAME_MAX bytes) and
 * value out; checked against the entity's Animator now if it has one. */
lb_result lb_scene_param_command(lb_world *w, int index, lb_entity e, const void *body, char *name,
                                 float *value, bool *value_is_bool);
lb_result lb_scene_param_apply(lb_world *w, lb_entity e, const char *name, float value,
                               bool value_is_bool);
/* The checks of lb_scene_param_apply alone; the current value and type into old_* (may be
 * null). */
lb_result lb_scene_param_check(lb_world *w, lb_entity e, const char *name, bool value_is_bool,
                               float *old_value, uint32_t *old_type);
/* Puts back a value read by lb_scene_param_check (undo of a failed step). */
void lb_scene_param_restore(lb_world *w, lb_entity e, const char *name, float value, uint32_t type);
/* Nav additions (io/scene_nav.c): a navmesh asset from { "file": PATH }. */
lb_result lb_scene_navmesh(lb_world *w, const char *name, const void *json,
                           const lb_scene_file *files, uint32_t file_count, uint32_t *out);
#endif
