/* Scenes: a JSON document (see assets/scenes/) with assets, named entities
 * with components (same names and fields as the TS API) and a timeline of commands
 * applied before given steps. The core parses the bytes; it reads no files.
 *
 *   { "assets": { "rigs": { "mannequin": { "builtin": "humanoid", "height": 1.8 } } },
 *     "entities": [ { "name": "hero", "components": { "Rig": { "asset": "mannequin" } } } ],
 *     "timeline": [ { "step": 30, "update": { "entity": "target", "component":
 *                     "Transform", "fields": { "position": [0.5, 1.4, 0.3] } } } ] }
 *
 * Entity fields name other entities; enum fields use their names; asset fields
 * name an asset. Timeline commands: "update" (merge fields), "insert" (defaults +
 * fields), "remove" ({ "entity", "component" }), "param" ({ "entity", "name", "value" }:
 * an Animator parameter; value a number for a float, true/false for a bool or a trigger,
 * where true sets it).
 *
 * Assets: "rigs": { NAME: { "builtin": "humanoid", "height": 1.8 } } or
 * { NAME: { "gltf": PATH, "skin": N } } (a .glb, or a .gltf with embedded buffers, from the
 * caller's file table; its skeleton (skin N, default the first) and its animations as clip
 * assets); "controllers": { NAME: { "rig": RIG, ... } } (limber/animator.h);
 * "navmeshes": { NAME: { "file": PATH } } (Limber's navmesh JSON from the caller's file
 * table, limber/nav.h). Rig, controller and navmesh names share one namespace.
 *
 * Level: "level": PATH, a level file from the caller's file table (assets/levels/): its .json
 * (pieces { "name", "shape": "box", "center", "size", "rotation" [x, y, z, w] }) gives one
 * box Collider per piece, its .glb (or .gltf) one mesh Collider per mesh node (the node
 * transforms baked into the mesh: lb_world_add_gltf_meshes, limber/gltf.h). Each piece is a
 * scene entity named by the piece, spawned after the document's entities (so a level does
 * not move their slots), with a Transform; it is part of the all-or-nothing load, and
 * lb_scene_unload despawns it and frees its meshes. Piece names must not repeat entity names.
 */
#ifndef LIMBER_SCENE_H
#define LIMBER_SCENE_H

#include "limber/base.h"
#include "limber/world.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lb_scene lb_scene;

/* Builds the scene's assets and entities into `world` (normally a new one). On
 * error nothing is left half-built: entities created so far are despawned. */
lb_result lb_scene_load(lb_world *world, const char *json, size_t len, lb_scene **out);
/* Frees the scene object only: its entities and assets stay in the world. */
void lb_scene_destroy(lb_world *world, lb_scene *scene);
/* Unloads the scene: despawns its entities that are still alive (children first), frees
 * the assets it added when nothing else uses them and no asset was added after them (the
 * usual load / unload cycle keeps a world's memory flat), then frees the scene. Assets
 * that are shared or followed by later ones stay. */
void lb_scene_unload(lb_world *world, lb_scene *scene);

/* A file a scene refers to (a rig's "gltf", a navmesh's "file"), read by the caller: the
 * core reads no files. */
typedef struct lb_scene_file {
  const char *path; /* as the scene writes it */
  const uint8_t *bytes;
  size_t size;
} lb_scene_file;
/* lb_scene_load with the files the scene refers to (LB_ERR_UNKNOWN_NAME names a path that
 * is missing from the table). */
lb_result lb_scene_load_files(lb_world *world, const char *json, size_t len,
                              const lb_scene_file *files, uint32_t file_count, lb_scene **out);
/* The paths a scene refers to (rig "gltf" files, then the "level"), each followed by '\n',
 * NUL-terminated, into buf (cap bytes; buf may be null when cap is 0); *needed receives the bytes
 * needed including the NUL. LB_ERR_CAPACITY when cap is too small, LB_ERR_PARSE for malformed JSON.
 */
lb_result lb_scene_files(const char *json, size_t len, char *buf, size_t cap, size_t *needed);
/* Applies the timeline commands due at the world's current step, then steps. dt is checked
 * first; the due commands are all or nothing: each is checked before any is applied (entity
 * alive, component present, parameter kind; values were checked at load), and when a write
 * still fails, the commands applied before it are undone, the world is as it was, and the
 * same commands are due again next step. Commands apply in file order, except that a
 * "remove" no later command of the step touches on the same entity and component takes
 * effect after the step's other commands (it cannot fail, so nothing removed is ever put
 * back). Errors name the scene ("name"), the timeline index, the step, the command, the
 * component and the entity's scene name. */
lb_result lb_scene_step(lb_world *world, lb_scene *scene, float dt);
/* Entity by scene name, or LB_NULL_ENTITY. */
lb_entity lb_scene_entity(const lb_scene *scene, const char *name);
uint32_t lb_scene_entity_count(const lb_scene *scene);
const char *lb_scene_entity_name(const lb_scene *scene, uint32_t i);
lb_entity lb_scene_entity_at(const lb_scene *scene, uint32_t i);

/* JSON object → component struct through the schema, merged over `inout`.
 * Entity names resolve through `scene` (may be null: then entity fields must be
 * numbers). Used by scenes, and by the bridge for JSON-shaped input. */
lb_result lb_component_from_json(lb_world *world, const lb_scene *scene, uint32_t type,
                                 const char *json, size_t len, void *inout);

#ifdef __cplusplus
}
#endif
#endif
