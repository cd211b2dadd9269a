#include "json.h"
#include "format.h"
#include "names.h"
#include <stdlib.h>
#include <string.h>

static cJSON *lb_json_err(lb_json_error *err, size_t at, const char *what) {
  err->at = at;
  lb_snprintf(err->what, sizeof err->what, "%s byte %zu", what, at);
  return NULL;
}

/* Bytes the parser would read (up to the first NUL outside a string): UTF-8, and strings
 * without NUL or control characters. Returns the offset of the first fault, or len. */
static size_t lb_json_scan(const char *json, size_t len, const char **why) {
  const unsigned char *s = (const unsigned char *)json;
  bool in_string = false;
  for (size_t i = 0; i < len; ++i) {
    unsigned c = s[i];
    if (!in_string) {
      if (c == 0) {
        return len; /* the text ends here; what follows is checked as trailing */
      }
      in_string = c == '"';
    } else if (c == '"') {
      in_string = false;
    } else if (c == '\\') {
      if (i + 5 < len && s[i + 1] == 'u' && s[i + 2] == '0' && s[i + 3] == '0' && s[i + 4] == '0' &&
          s[i + 5] == '0') {
        *why = "a string holds a NUL (\\u0000) at";
        return i;
      }
      ++i; /* the escaped character */
      continue;
    } else if (c < 0x20u) {
      *why = "a string holds a control character or NUL at";
      return i;
    }
    if (c >= 0x80u) {
      size_t n = c >= 0xF0u ? 4u : c >= 0xE0u ? 3u : 2u;
      if (n > len - i || !lb_utf8_valid(json + i, n)) {
        *why = "invalid UTF-8 at";
        return i;
      }
      i += n - 1u;
    }
  }
  return len;
}

static int lb_key_cmp(const void *a, const void *b) {
  return strcmp((*(const cJSON *const *)a)->string, (*(const cJSON *const *)b)->string);
}

/* Appends ".key" or "[i]" to the path in buf (cut short past its size: a message). */
static size_t lb_path_push(char *buf, size_t cap, size_t n, const cJSON *item, int index) {
  int k = item->string ? lb_snprintf(buf + n, cap - n, "%s%s", n ? "." : "", item->string)
                       : lb_snprintf(buf + n, cap - n, "[%d]", index);
  size_t m = n + (k > 0 ? (size_t)k : 0u);
  return m < cap ? m : cap - 1u;
}

/* True (with the key's path in buf) when an object of the tree below `parent` uses a key
 * twice. Depth is bounded by cJSON's nesting limit. */
static bool lb_json_duplicate(const cJSON *parent, char *buf, size_t cap, size_t n, bool *oom) {
  if (cJSON_IsObject(parent)) {
    size_t count = 0;
    for (const cJSON *c = parent->child; c; c = c->next) {
      ++count;
    }
    const cJSON *dup = NULL;
    if (count <= 16) {
      for (const cJSON *a = parent->child; a && !dup; a = a->next) {
        for (const cJSON *b = a->next; b && !dup; b = b->next) {
          dup = strcmp(a->string, b->string) == 0 ? b : NULL;
        }
      }
    } else {
      const cJSON **keys = malloc(count * sizeof *keys);
      if (!keys) {
        *oom = true;
        return false;
      }
      size_t k = 0;
      for (const cJSON *c = parent->child; c; c = c->next) {
        keys[k++] = c;
      }
      qsort(keys, count, sizeof *keys, lb_key_cmp);
      for (k = 1; k < count && !dup; ++k) {
        dup = strcmp(keys[k - 1]->string, keys[k]->string) == 0 ? keys[k] : NULL;
      }
      free(keys);
    }
    if (dup) {
      lb_path_push(buf, cap, n, dup, 0);
      return true;
    }
  }
  int index = 0;
  for (const cJSON *c = parent->child; c; c = c->next, ++index) {
    if (c->child && lb_json_duplicate(c, buf, cap, lb_path_push(buf, cap, n, c, index), oom)) {
      return true;
    }
    if (*oom) {
      return false;
    }
  }
  buf[n] = 0;
  return false;
}

cJSON *lb_json_parse(const char *json, size_t len, lb_json_error *err) {
  lb_json_error sink;
  err = err ? err : &sink;
  memset(err, 0, sizeof *err);
  if (!json) {
    return lb_json_err(err, 0, "no text at");
  }
  const char *why = NULL;
  size_t bad = lb_json_scan(json, len, &why);
  if (why) {
    return lb_json_err(err, bad, why);
  }
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(json, len, &end, 0);
  if (!root) {
    size_t at = end && end >= json && end <= json + len ? (size_t)(end - json) : 0;
    return lb_json_err(err, at, "malformed JSON near");
  }
  const char *p = end ? end : json + len;
  for (; p < json + len && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'); ++p) {
  }
  for (const char *q = p; q < json + len; ++q) {
    if (*q != 0) {
      cJSON_Delete(root);
      return lb_json_err(err, (size_t)(p - json), "text after the JSON value at");
    }
  }
  bool oom = false;
  char path[96] = "";
  if (lb_json_duplicate(root, path, sizeof path, 0, &oom) || oom) {
    lb_snprintf(err->what, sizeof err->what, "%s", oom ? "out of memory" : path);
    if (!oom) {
      size_t n = strlen(err->what);
      lb_snprintf(err->what + n, sizeof err->what - n, ": repeated key");
    }
    cJSON_Delete(root);
    return NULL;
  }
  return root;
}
