/* A per-world name table: every string a component refers to (joint paths, pose names,
 * finger-root lists, animator state names) is stored once and components hold its id.
 * Id 0 is the empty string. Ids are stable for the table's life; interning allocates,
 * so it happens on writes and asset creation, never inside a step. */
#ifndef LIMBER_BASE_NAMES_H
#define LIMBER_BASE_NAMES_H

#include "limber/base.h"
#include <stdbool.h>

#define LB_NAME_MAX_BYTES 1024 /* longest name, bytes without the NUL */

typedef struct lb_names {
  lb_allocator allocator;
  char *chars; /* NUL-terminated strings back to back */
  size_t chars_len, chars_cap;
  uint32_t *offsets; /* id - 1 -> offset in chars */
  uint32_t count, cap;
  uint32_t *slots; /* open addressing over ids (0 = free), power of two */
  uint32_t slot_cap;
} lb_names;

void lb_names_init(lb_names *n, const lb_allocator *a);
void lb_names_release(lb_names *n);
/* True when `len` bytes are well-formed UTF-8 (no overlong forms, no surrogates, at most
 * U+10FFFF). */
bool lb_utf8_valid(const char *text, size_t len);
/* Why `len` bytes at `text` cannot be a name: "is longer than 1024 bytes", "holds a NUL",
 * "is not valid UTF-8"; null when they can. Every name enters through lb_names_intern, so
 * this is the one rule for names everywhere (scenes, component JSON, registrations, the
 * bridge). */
const char *lb_names_refusal(const char *text, size_t len);
/* Id of `len` bytes at `text`, adding it if new. LB_ERR_OUT_OF_RANGE when lb_names_refusal
 * refuses the text, LB_ERR_OUT_OF_MEMORY. */
lb_result lb_names_intern(lb_names *n, const char *text, size_t len, uint32_t *id);
/* Id of an existing name, or UINT32_MAX. */
uint32_t lb_names_find(const lb_names *n, const char *text, size_t len);
/* Text of an id ("" for 0), or null when the id is not in the table. The pointer is
 * valid until the next intern. */
const char *lb_names_text(const lb_names *n, uint32_t id);
static inline bool lb_names_valid(const lb_names *n, uint32_t id) {
  return id <= n->count;
}

#endif
