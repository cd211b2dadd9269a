/* What the nav module adds to scenes: navmesh assets from the caller's file table,
 * "navmeshes": { NAME: { "file": PATH } } (Limber's navmesh JSON, limber/nav.h). */
#include "../base/format.h"
#include "../base/json.h"
#include "../world/world_core.h"
#include "limber/nav.h"
#include "scene_internal.h"
#include <string.h>

lb_result lb_scene_navmesh(lb_world *w, const char *name, const void *json,
                           const lb_scene_file *files, uint32_t file_count, uint32_t *out) {
  const cJSON *n = json;
  if (!cJSON_IsObject(n)) {
    return lb_fail(w, LB_ERR_PARSE, "scene: navmesh asset '%s' must be { \"file\": PATH }", name);
  }
  for (const cJSON *it = n->child; it; it = it->next) {
    if (strcmp(it->string, "file") != 0) {
      return lb_fail(w, LB_ERR_PARSE, "scene: navmesh asset '%s': unknown key '%s' (file)", name,
                     it->string);
    }
  }
  const cJSON *path = cJSON_GetObjectItemCaseSensitive(n, "file");
  if (!cJSON_IsString(path) || !path->valuestring[0]) {
    return lb_fail(w, LB_ERR_PARSE, "scene: navmesh asset '%s': 'file' must be a file path", name);
  }
  char what[160];
  lb_snprintf(what, sizeof what, "navmesh asset '%s': file", name);
  const lb_scene_file *file = NULL;
  lb_result found = lb_scene_file_get(w, files, file_count, path->valuestring, what, &file);
  if (found != LB_OK) {
    return found;
  }
  lb_result r = lb_world_add_navmesh_json(w, name, (const char *)file->bytes, file->size, out);
  if (r != LB_OK) {
    char prefix[512];
    lb_snprintf(prefix, sizeof prefix, "scene: navmesh asset '%s' (%s): ", name, path->valuestring);
    return lb_diag_prefix(&w->diag, r, prefix);
  }
  return LB_OK;
}
