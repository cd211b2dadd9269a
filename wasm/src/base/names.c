#include "names.h"
#include "alloc.h"
#include "array.h"
#include "fnv.h"
#include <string.h>

void lb_names_init(lb_names *n, const lb_allocator *a) {
  memset(n, 0, sizeof *n);
  n->allocator = *a;
}

void lb_names_release(lb_names *n) {
  lb_mem_free(&n->allocator, n->chars);
  lb_mem_free(&n->allocator, n->offsets);
  lb_mem_free(&n->allocator, n->slots);
  lb_allocator a = n->allocator;
  lb_names_init(n, &a);
}

static uint32_t lb_name_hash(const char *text, size_t len) {
  uint64_t h = lb_fnv_bytes(LB_FNV_OFFSET, text, len);
  return (uint32_t)(h ^ (h >> 32));
}

static bool lb_name_is(const lb_names *n, uint32_t id, const char *text, size_t len) {
  const char *s = n->chars + n->offsets[id - 1u];
  return strncmp(s, text, len) == 0 && s[len] == 0;
}

uint32_t lb_names_find(const lb_names *n, const char *text, size_t len) {
  if (len == 0) {
    return 0;
  }
  if (!n->slot_cap) {
    return UINT32_MAX;
  }
  uint32_t mask = n->slot_cap - 1u;
  for (uint32_t i = lb_name_hash(text, len) & mask;; i = (i + 1u) & mask) {
    uint32_t id = n->slots[i];
    if (id == 0) {
      return UINT32_MAX;
    }
    if (lb_name_is(n, id, text, len)) {
      return id;
    }
  }
}

static void lb_names_place(uint32_t *slots, uint32_t cap, uint32_t hash, uint32_t id) {
  uint32_t mask = cap - 1u;
  uint32_t i = hash & mask;
  while (slots[i]) {
    i = (i + 1u) & mask;
  }
  slots[i] = id;
}

/* Grows every array so one more name of `len` bytes fits; nothing changes on failure. */
static lb_result lb_names_reserve(lb_names *n, size_t len) {
  const lb_allocator *a = &n->allocator;
  if (n->chars_len + len + 1u > n->chars_cap) {
    size_t cap = n->chars_cap ? n->chars_cap * 2u : 1024u;
    while (cap < n->chars_len + len + 1u) {
      cap *= 2u;
    }
    char *grown = lb_mem_alloc(a, cap);
    if (!grown) {
      return LB_ERR_OUT_OF_MEMORY;
    }
    if (n->chars_len) {
      memcpy(grown, n->chars, n->chars_len);
    }
    lb_mem_free(a, n->chars);
    n->chars = grown;
    n->chars_cap = cap;
  }
  if (lb_array_reserve(a, (void **)&n->offsets, &n->cap, n->count, n->count + 1u, sizeof(uint32_t),
                       64u) != LB_OK) {
    return LB_ERR_OUT_OF_MEMORY;
  }
  /* Load factor at most 1/2. */
  if ((n->count + 1u) * 2u > n->slot_cap) {
    uint32_t cap = n->slot_cap ? n->slot_cap * 2u : 128u;
    uint32_t *slots = lb_mem_alloc_array(a, cap, sizeof *slots);
    if (!slots) {
      return LB_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t id = 1; id <= n->count; ++id) {
      const char *s = n->chars + n->offsets[id - 1u];
      lb_names_place(slots, cap, lb_name_hash(s, strlen(s)), id);
    }
    lb_mem_free(a, n->slots);
    n->slots = slots;
    n->slot_cap = cap;
  }
  return LB_OK;
}

bool lb_utf8_valid(const char *text, size_t len) {
  const unsigned char *s = (const unsigned char *)text;
  size_t i = 0;
  while (i < len) {
    unsigned c = s[i];
    if (c < 0x80u) {
      ++i;
      continue;
    }
    size_t n;
    unsigned lo = 0x80u, hi = 0xBFu; /* range of the second byte */
    if (c >= 0xC2u && c <= 0xDFu) {
      n = 2;
    } else if (c >= 0xE0u && c <= 0xEFu) {
      n = 3;
      lo = c == 0xE0u ? 0xA0u : 0x80u; /* no overlong forms */
      hi = c == 0xEDu ? 0x9Fu : 0xBFu; /* no surrogates */
    } else if (c >= 0xF0u && c <= 0xF4u) {
      n = 4;
      lo = c == 0xF0u ? 0x90u : 0x80u;
      hi = c == 0xF4u ? 0x8Fu : 0xBFu; /* at most U+10FFFF */
    } else {
      return false;
    }
    if (len - i < n || s[i + 1] < lo || s[i + 1] > hi) {
      return false;
    }
    for (size_t k = 2; k < n; ++k) {
      if ((s[i + k] & 0xC0u) != 0x80u) {
        return false;
      }
    }
    i += n;
  }
  return true;
}

const char *lb_names_refusal(const char *text, size_t len) {
  if (len == 0) {
    return NULL;
  }
  if (!text) {
    return "is missing";
  }
  if (len > LB_NAME_MAX_BYTES) {
    return "is longer than 1024 bytes";
  }
  if (memchr(text, 0, len)) {
    return "holds a NUL";
  }
  return lb_utf8_valid(text, len) ? NULL : "is not valid UTF-8";
}

lb_result lb_names_intern(lb_names *n, const char *text, size_t len, uint32_t *id) {
  if (len == 0) {
    *id = 0;
    return LB_OK;
  }
  if (lb_names_refusal(text, len)) {
    return LB_ERR_OUT_OF_RANGE;
  }
  uint32_t found = lb_names_find(n, text, len);
  if (found != UINT32_MAX) {
    *id = found;
    return LB_OK;
  }
  lb_result r = lb_names_reserve(n, len);
  if (r != LB_OK) {
    return r;
  }
  n->offsets[n->count++] = (uint32_t)n->chars_len;
  memcpy(n->chars + n->chars_len, text, len);
  n->chars[n->chars_len + len] = 0;
  n->chars_len += len + 1u;
  lb_names_place(n->slots, n->slot_cap, lb_name_hash(text, len), n->count);
  *id = n->count;
  return LB_OK;
}

const char *lb_names_text(const lb_names *n, uint32_t id) {
  if (id == 0) {
    return "";
  }
  return id <= n->count ? n->chars + n->offsets[id - 1u] : NULL;
}
