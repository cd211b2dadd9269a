/* Component field schema: one table per component gives each field's name (as the
 * TypeScript API and scene JSON spell it), type, byte offset, default and range.
 * The bridge reads it at start-up, so insert/update are generic and no field list
 * is written twice. */
#ifndef LIMBER_SCHEMA_H
#define LIMBER_SCHEMA_H

#include "limber/base.h"
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Upper bound of any component struct's size (bytes): callers may stage a component in a
 * buffer of this size (aligned to 16). */
#define LB_COMPONENT_MAX_SIZE 512

typedef enum lb_field_type {
  LB_FIELD_F32 = 0,    /* float; finite, within [min, max] */
  LB_FIELD_U32 = 1,    /* uint32; within [min, max] */
  LB_FIELD_BOOL = 2,   /* uint32 0/1 */
  LB_FIELD_ENTITY = 3, /* lb_entity; null or alive */
  LB_FIELD_VEC3 = 4,   /* 3 floats; finite, each within [min, max] */
  LB_FIELD_QUAT = 5,   /* 4 floats x,y,z,w; finite, non-zero (normalised on write) */
  LB_FIELD_STRING = 6, /* char[size]; NUL-terminated UTF-8 (no component uses it today) */
  LB_FIELD_ENUM = 7,   /* uint32 index into `enum_names` ("A|B|C") */
  LB_FIELD_ASSET = 8,  /* uint32 asset handle (0 = none) */
  LB_FIELD_NAME = 9,   /* lb_name: id in the world's name table; strings in TS and JSON */
} lb_field_type;

enum {
  LB_FIELD_READONLY = 1u, /* an output written by the world; writes are ignored */
};

typedef struct lb_field {
  const char *name; /* camelCase, as in TS and scene JSON */
  lb_field_type type;
  uint32_t offset;        /* bytes from the struct start */
  uint32_t size;          /* bytes */
  float def[4];           /* default value(s); strings use def_string */
  float min, max;         /* inclusive range for numbers and vectors */
  const char *enum_names; /* "Right|Left" for LB_FIELD_ENUM */
  const char *def_string; /* default text of LB_FIELD_STRING / LB_FIELD_NAME */
  uint32_t flags;
  const char *doc; /* one line: meaning and unit */
} lb_field;

typedef struct lb_component_info {
  const char *name; /* "Transform", "Rig", "TwoBoneIK" */
  uint32_t size;    /* struct size in bytes */
  uint32_t field_count;
  const lb_field *fields;
} lb_component_info;

/* Component type ids are indices into this table, stable for a build. */
uint32_t lb_component_count(void);
const lb_component_info *lb_component_info_get(uint32_t type);
/* -1 when no component has that name. */
int lb_component_find(const char *name);
/* Fills `out` (info->size bytes) with every field's default. A name field's default is
 * the id its text has in every world: schema default texts are the first names each
 * world interns, in schema order (see lb_world_intern). */
void lb_component_defaults(uint32_t type, void *out);
/* Index of `name` in a "A|B|C" list, or -1. */
int lb_enum_index(const char *enum_names, const char *name, size_t name_len);

#ifdef __cplusplus
}
#endif
#endif
