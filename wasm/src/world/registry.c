/* Component types and modules, from the module table (wasm/src/modules.c): the schema
 * functions of schema.h, component defs by type id, default name texts. */
#include "core_module.h"
#include "world_core.h"
#include <string.h>

typedef struct lb_registry {
  bool ready;
  uint32_t type_count;
  const lb_component_def *types[LB_COMPONENT_TYPES_MAX];
  uint32_t name_count;
  bool names_overflow; /* more default texts than `names` holds: worlds refuse to start */
  const char *names[128];
} lb_registry;

static lb_registry lb_reg;

/* Idempotent, so a race between first callers writes the same values. */
static const lb_registry *lb_registry_get(void) {
  if (lb_reg.ready) {
    return &lb_reg;
  }
  uint32_t count = 0;
  for (uint32_t m = 0; m < lb_module_table_count; ++m) {
    const lb_module_def *md = lb_module_table[m];
    for (uint32_t c = 0; c < md->component_count; ++c) {
      const lb_component_def *cd = &md->components[c];
      if (cd->type < LB_COMPONENT_TYPES_MAX) {
        lb_reg.types[cd->type] = cd;
        count = cd->type + 1u > count ? cd->type + 1u : count;
      }
    }
  }
  lb_reg.type_count = count;
  for (uint32_t t = 0; t < LB_COMPONENT_TYPE_COUNT; ++t) {
    const lb_component_info *info = lb_reg.types[t] ? lb_reg.types[t]->info : NULL;
    for (uint32_t f = 0; info && f < info->field_count; ++f) {
      const char *d = info->fields[f].def_string;
      if (info->fields[f].type != LB_FIELD_NAME || !d || !d[0]) {
        continue;
      }
      bool seen = false;
      for (uint32_t k = 0; k < lb_reg.name_count && !seen; ++k) {
        seen = strcmp(lb_reg.names[k], d) == 0;
      }
      if (!seen && lb_reg.name_count < sizeof lb_reg.names / sizeof lb_reg.names[0]) {
        lb_reg.names[lb_reg.name_count++] = d;
      } else if (!seen) {
        lb_reg.names_overflow = true;
      }
    }
  }
  lb_reg.ready = true;
  return &lb_reg;
}

const lb_component_def *lb_registry_component(uint32_t type) {
  const lb_registry *r = lb_registry_get();
  return type < r->type_count ? r->types[type] : NULL;
}

uint32_t lb_registry_type_count(void) {
  return lb_registry_get()->type_count;
}

uint32_t lb_registry_module_count(void) {
  return lb_module_table_count;
}

const lb_module_def *lb_registry_module(uint32_t index) {
  return index < lb_module_table_count ? lb_module_table[index] : NULL;
}

uint32_t lb_registry_default_name_count(void) {
  const lb_registry *r = lb_registry_get();
  return r->names_overflow ? UINT32_MAX : r->name_count;
}

const char *lb_registry_default_name(uint32_t index) {
  const lb_registry *r = lb_registry_get();
  return index < r->name_count ? r->names[index] : "";
}

/* ---- schema.h -------------------------------------------------------------------- */

uint32_t lb_component_count(void) {
  return LB_COMPONENT_TYPE_COUNT;
}

const lb_component_info *lb_component_info_get(uint32_t type) {
  const lb_component_def *d = type < LB_COMPONENT_TYPE_COUNT ? lb_registry_component(type) : NULL;
  return d ? d->info : NULL;
}

int lb_component_find(const char *name) {
  for (uint32_t t = 0; name && t < LB_COMPONENT_TYPE_COUNT; ++t) {
    const lb_component_info *info = lb_component_info_get(t);
    if (info && strcmp(info->name, name) == 0) {
      return (int)t;
    }
  }
  return -1;
}

void lb_component_defaults(uint32_t type, void *out) {
  const lb_component_info *info = lb_component_info_get(type);
  if (!info) {
    return;
  }
  const lb_registry *reg = lb_registry_get();
  memset(out, 0, info->size);
  for (uint32_t i = 0; i < info->field_count; ++i) {
    const lb_field *f = &info->fields[i];
    uint8_t *p = (uint8_t *)out + f->offset;
    switch (f->type) {
    case LB_FIELD_F32:
    case LB_FIELD_VEC3:
    case LB_FIELD_QUAT:
      memcpy(p, f->def, f->size);
      break;
    case LB_FIELD_U32:
    case LB_FIELD_BOOL:
    case LB_FIELD_ENUM:
    case LB_FIELD_ASSET:
    case LB_FIELD_ENTITY: {
      uint32_t v = (uint32_t)f->def[0];
      memcpy(p, &v, sizeof v);
      break;
    }
    case LB_FIELD_NAME: {
      uint32_t v = 0;
      for (uint32_t k = 0; f->def_string && f->def_string[0] && k < reg->name_count; ++k) {
        if (strcmp(reg->names[k], f->def_string) == 0) {
          v = k + 1u;
        }
      }
      memcpy(p, &v, sizeof v);
      break;
    }
    case LB_FIELD_STRING:
      if (f->def_string) {
        strncpy((char *)p, f->def_string, f->size - 1u);
      }
      break;
    }
  }
}

int lb_enum_index(const char *names, const char *name, size_t len) {
  int idx = 0;
  const char *p = names;
  while (p && *p) {
    const char *e = strchr(p, '|');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n == len && strncmp(p, name, len) == 0) {
      return idx;
    }
    ++idx;
    p = e ? e + 1 : NULL;
  }
  return -1;
}
