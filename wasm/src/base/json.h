/* Strict JSON: the one way the core parses JSON text (scenes, controllers, grip poses,
 * finger poses, component JSON, glTF's JSON chunk). cJSON alone accepts text after the
 * value, duplicate keys (the first wins) and strings cut at an escaped NUL; this refuses
 * them. Knows no world. */
#ifndef LIMBER_BASE_JSON_H
#define LIMBER_BASE_JSON_H

#include "cJSON.h"
#include "limber/base.h"
#include <stdbool.h>
#include <stddef.h>

typedef struct lb_json_error {
  size_t at;      /* byte offset of the fault (0 when it has none, e.g. a repeated key) */
  char what[128]; /* "malformed JSON near byte 7", "text after the JSON value at byte 3",
                     "invalid UTF-8 at byte 9", "index.curl: repeated key", ... */
} lb_json_error;

/* Exactly one JSON value in `len` bytes: valid UTF-8 throughout; no NUL (raw or \u0000)
 * and no raw control character inside a string; only whitespace after the value (NUL bytes
 * may end the text); every object's keys distinct. The tree (cJSON_Delete it), or null with
 * *err filled. */
cJSON *lb_json_parse(const char *json, size_t len, lb_json_error *err);

#endif
