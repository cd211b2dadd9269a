#ifndef LIMBER_SCENE_INTERNAL_H
#define LIMBER_SCENE_INTERNAL_H
#include "limber/scene.h"

uint32_t lb_scene_asset(const lb_scene *scene, const char *name);
/* Fills the fields present in a cJSON object; *field_mask gets a bit per field. */
lb_result lb_component_fields_from_cjson(lb_world *w, const lb_scene *scene, uint32_t type,
                                         const void *json_object, const char *where, void *inout,
                                         uint32_t *field_mask);
#endif
