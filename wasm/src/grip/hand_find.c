/* Hand and finger finding by name conventions (see limber/grip.h for the rules). */
#include "limber/grip.h"
#include "limber/rig.h"

#include <stdio.h>
#include <string.h>

#define LB_TOKENS_MAX 16

typedef struct lb_tokens {
  int count;
  char tok[LB_TOKENS_MAX][LB_JOINT_NAME_MAX];
} lb_tokens;

static bool lb_is_lower(char c) {
  return c >= 'a' && c <= 'z';
}
static bool lb_is_upper(char c) {
  return c >= 'A' && c <= 'Z';
}
static bool lb_is_digit(char c) {
  return c >= '0' && c <= '9';
}
static bool lb_is_alpha(char c) {
  return lb_is_lower(c) || lb_is_upper(c);
}
static char lb_lower(char c) {
  return lb_is_upper(c) ? (char)(c - 'A' + 'a') : c;
}

/* The name after its namespace (text up to the last ':'). */
static const char *lb_strip_namespace(const char *name) {
  const char *colon = strrchr(name, ':');
  return colon ? colon + 1 : name;
}

static void lb_tokenize(const char *name, lb_tokens *out) {
  const char *s = lb_strip_namespace(name);
  out->count = 0;
  int len = 0;
  for (size_t i = 0; s[i]; ++i) {
    char c = s[i];
    bool alnum = lb_is_alpha(c) || lb_is_digit(c);
    if (len > 0) {
      char p = s[i - 1];
      char n = s[i + 1];
      bool split = !alnum || (lb_is_lower(p) && lb_is_upper(c)) ||
                   (lb_is_upper(p) && lb_is_upper(c) && lb_is_lower(n)) ||
                   (lb_is_alpha(p) != lb_is_alpha(c));
      if (split) {
        out->count++;
        len = 0;
      }
    }
    if (!alnum) {
      continue;
    }
    if (out->count >= LB_TOKENS_MAX) {
      return;
    }
    if (len < LB_JOINT_NAME_MAX - 1) {
      out->tok[out->count][len++] = lb_lower(c);
      out->tok[out->count][len] = '\0';
    }
  }
  if (len > 0) {
    out->count++;
  }
}

static bool lb_has_token(const lb_tokens *t, const char *word) {
  for (int i = 0; i < t->count; ++i) {
    if (strcmp(t->tok[i], word) == 0) {
      return true;
    }
  }
  return false;
}

/* Case-insensitive substring test on the namespace-stripped name. */
static bool lb_contains(const char *name, const char *word) {
  const char *s = lb_strip_namespace(name);
  size_t wl = strlen(word);
  for (size_t i = 0; s[i]; ++i) {
    size_t k = 0;
    while (k < wl && s[i + k] && lb_lower(s[i + k]) == word[k]) {
      ++k;
    }
    if (k == wl) {
      return true;
    }
  }
  return false;
}

/* Finger named by a joint, or -1. */
static int lb_finger_word(const char *name) {
  static const char *const words[] = {"thumb", "index",  "middle", "ring",
                                      "pinky", "pinkie", "little"};
  static const int fingers[] = {0, 1, 2, 3, 4, 4, 4};
  for (int i = 0; i < 7; ++i) {
    if (lb_contains(name, words[i])) {
      return fingers[i];
    }
  }
  return -1;
}

const char *lb_finger_name(lb_finger f) {
  static const char *const n[LB_FINGER_COUNT] = {"thumb", "index", "middle", "ring", "pinky"};
  return (unsigned)f < LB_FINGER_COUNT ? n[f] : "";
}

lb_hand_find_job lb_hand_find_default_job(void) {
  lb_hand_find_job job;
  memset(&job, 0, sizeof job);
  job.side = LB_HAND_RIGHT;
  job.info.hand = -1;
  return job;
}

lb_result lb_hand_find_validate(const lb_hand_find_job *job) {
  if (!job || !job->names || !job->parents ||
      (job->side != LB_HAND_RIGHT && job->side != LB_HAND_LEFT)) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (job->joint_count < 1 || job->joint_count > LB_MAX_JOINTS) {
    return LB_ERR_OUT_OF_RANGE;
  }
  for (uint32_t i = 0; i < job->joint_count; ++i) {
    if (!job->names[i]) {
      return LB_ERR_INVALID_ARGUMENT;
    }
    int p = job->parents[i];
    if (p < -1 || p >= (int)i) {
      return LB_ERR_CYCLE;
    }
    if (p >= 0) {
      /* Depth-first: the parent is the previous joint or one of its ancestors. */
      int a = (int)i - 1;
      while (a >= 0 && a != p) {
        a = job->parents[a];
      }
      if (a != p) {
        return LB_ERR_INVALID_ARGUMENT;
      }
    }
  }
  return LB_OK;
}

/* End of j's subtree: the first later joint whose parent precedes j. */
static uint32_t lb_subtree_end(const lb_hand_find_job *job, uint32_t j) {
  uint32_t k = j + 1;
  while (k < job->joint_count && job->parents[k] >= (int)j) {
    ++k;
  }
  return k;
}

static bool lb_is_leaf(const lb_hand_find_job *job, uint32_t j) {
  return j + 1 >= job->joint_count || job->parents[j + 1] != (int16_t)j;
}

static bool lb_segment_is(const char *name, const char *seg, size_t len) {
  return strncmp(name, seg, len) == 0 && name[len] == '\0';
}

/* Joint under `parent` (-1 = roots) reached by the slash-separated path, or -1. */
static int lb_resolve_from(const lb_hand_find_job *job, int parent, const char *path) {
  int cur = parent;
  const char *seg = path;
  while (*seg) {
    const char *slash = strchr(seg, '/');
    size_t len = slash ? (size_t)(slash - seg) : strlen(seg);
    int next = -1;
    for (uint32_t k = cur < 0 ? 0 : (uint32_t)cur + 1; k < job->joint_count; ++k) {
      if (job->parents[k] == cur && lb_segment_is(job->names[k], seg, len)) {
        next = (int)k;
        break;
      }
    }
    if (next < 0) {
      return -1;
    }
    cur = next;
    seg = slash ? slash + 1 : seg + len;
  }
  return cur;
}

/* Bare name: first exact match in [lo, hi). Path: relative to `base` (if >= 0), then
 * from a root; a result outside [lo, hi) does not count. */
static int lb_resolve(const lb_hand_find_job *job, const char *path, int base, uint32_t lo,
                      uint32_t hi) {
  int j = -1;
  if (!strchr(path, '/')) {
    for (uint32_t k = lo; k < hi; ++k) {
      if (strcmp(job->names[k], path) == 0) {
        return (int)k;
      }
    }
    return -1;
  }
  if (base >= 0) {
    j = lb_resolve_from(job, base, path);
  }
  if (j < 0) {
    j = lb_resolve_from(job, -1, path);
  }
  return j >= (int)lo && j < (int)hi ? j : -1;
}

static bool lb_is_hand_candidate(const char *name, lb_hand_side side) {
  static const char *const side_words[2][6] = {
      {"right", "r", "righthand", "rhand", "handright", "handr"},
      {"left", "l", "lefthand", "lhand", "handleft", "handl"}};
  if (lb_finger_word(name) >= 0) {
    return false;
  }
  lb_tokens t;
  lb_tokenize(name, &t);
  const char *const *mine = side_words[side];
  const char *const *other = side_words[1 - side];
  bool hand_token = lb_has_token(&t, "hand");
  bool ok = hand_token && (lb_has_token(&t, mine[0]) || lb_has_token(&t, mine[1]));
  for (int i = 2; i < 6; ++i) {
    ok = ok || lb_has_token(&t, mine[i]);
  }
  for (int i = 0; i < 6 && ok; ++i) {
    ok = !lb_has_token(&t, other[i]);
  }
  return ok;
}

/* Metacarpal rule (b): the last number token is all zeros. */
static bool lb_last_number_is_zero(const lb_tokens *t) {
  for (int i = t->count - 1; i >= 0; --i) {
    if (lb_is_digit(t->tok[i][0])) {
      for (const char *c = t->tok[i]; *c; ++c) {
        if (*c != '0') {
          return false;
        }
      }
      return true;
    }
  }
  return false;
}

static bool lb_is_metacarpal(const lb_hand_find_job *job, uint32_t k, int finger) {
  const char *name = job->names[k];
  lb_tokens t;
  lb_tokenize(name, &t);
  if (lb_contains(name, "metacarpal") || lb_has_token(&t, "meta") || lb_has_token(&t, "mc")) {
    return true;
  }
  if (lb_last_number_is_zero(&t)) {
    uint32_t end = lb_subtree_end(job, k);
    for (uint32_t d = k + 1; d < end; ++d) {
      if (lb_finger_word(job->names[d]) == finger) {
        return true;
      }
    }
  }
  return false;
}

static bool lb_is_end_name(const char *name) {
  lb_tokens t;
  lb_tokenize(name, &t);
  return lb_has_token(&t, "end") || lb_has_token(&t, "tip") || lb_has_token(&t, "nub") ||
         lb_has_token(&t, "leaf");
}

static void lb_build_chain(const lb_hand_find_job *job, uint32_t root, uint32_t end, int finger,
                           bool any_name, lb_finger_info *fi) {
  int chain[4];
  int n = 0;
  chain[n++] = (int)root;
  while (n < 4) {
    int cur = chain[n - 1];
    int next = -1;
    for (uint32_t k = (uint32_t)cur + 1; k < end; ++k) {
      if (job->parents[k] == cur && (any_name || lb_finger_word(job->names[k]) == finger)) {
        next = (int)k;
        break;
      }
    }
    if (next < 0) {
      break;
    }
    chain[n++] = next;
  }
  fi->found = true;
  for (int i = 0; i < n; ++i) {
    bool is_tip = i == 3 || (i > 0 && lb_is_leaf(job, (uint32_t)chain[i]) &&
                             lb_is_end_name(job->names[chain[i]]));
    if (is_tip) {
      fi->tip = (int16_t)chain[i];
      break;
    }
    fi->joints[fi->segment_count++] = (int16_t)chain[i];
  }
}

static void lb_report(lb_hand_info *info, const char *text) {
  size_t used = strlen(info->report);
  if (used + 1 < LB_HAND_REPORT_MAX) {
    snprintf(info->report + used, LB_HAND_REPORT_MAX - used, "%s", text);
  }
}

lb_result lb_hand_find_run(lb_hand_find_job *job) {
  lb_result r = lb_hand_find_validate(job);
  if (r != LB_OK) {
    return r;
  }
  lb_hand_info *info = &job->info;
  memset(info, 0, sizeof *info);
  info->side = job->side;
  info->hand = -1;
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    lb_finger_info *fi = &info->fingers[f];
    fi->tip = fi->metacarpal = -1;
    for (int s = 0; s < LB_FINGER_MAX_SEGMENTS; ++s) {
      fi->joints[s] = -1;
    }
  }
  const char *side_name = job->side == LB_HAND_RIGHT ? "right" : "left";
  char text[LB_HAND_REPORT_MAX];

  int hand = -1;
  if (job->hand_path && job->hand_path[0]) {
    hand = lb_resolve(job, job->hand_path, -1, 0, job->joint_count);
    if (hand < 0) {
      snprintf(text, sizeof text, "%s hand: joint '%s' not found", side_name, job->hand_path);
      lb_report(info, text);
      return LB_ERR_JOINT_NOT_FOUND;
    }
  } else {
    int best_fingers = -1, best_tokens = 0;
    for (uint32_t j = 0; j < job->joint_count; ++j) {
      if (!lb_is_hand_candidate(job->names[j], job->side)) {
        continue;
      }
      uint32_t end = lb_subtree_end(job, j);
      int fingers = 0;
      for (uint32_t k = j + 1; k < end; ++k) {
        fingers += lb_finger_word(job->names[k]) >= 0;
      }
      lb_tokens t;
      lb_tokenize(job->names[j], &t);
      if (fingers > best_fingers || (fingers == best_fingers && t.count < best_tokens)) {
        hand = (int)j;
        best_fingers = fingers;
        best_tokens = t.count;
      }
    }
    if (hand < 0) {
      snprintf(text, sizeof text, "%s hand: no joint named like RightHand/hand_r/R_Hand",
               side_name);
      lb_report(info, text);
      return LB_ERR_JOINT_NOT_FOUND;
    }
  }
  info->hand = (int16_t)hand;
  snprintf(text, sizeof text, "%s hand '%s' (%d); fingers:", side_name, job->names[hand], hand);
  lb_report(info, text);

  uint32_t lo = (uint32_t)hand + 1;
  uint32_t hi = lb_subtree_end(job, (uint32_t)hand);
  bool bad_mapping = false;
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    lb_finger_info *fi = &info->fingers[f];
    const char *mapped = job->finger_roots[f];
    if (mapped && mapped[0]) {
      int root = lb_resolve(job, mapped, hand, lo, hi);
      if (root < 0) {
        bad_mapping = true;
        continue;
      }
      fi->explicit_mapping = true;
      lb_build_chain(job, (uint32_t)root, hi, f, true, fi);
      continue;
    }
    for (uint32_t k = lo; k < hi; ++k) {
      if (lb_finger_word(job->names[k]) != f) {
        continue;
      }
      if (lb_is_metacarpal(job, k, f)) {
        if (fi->metacarpal < 0) {
          fi->metacarpal = (int16_t)k;
        }
        continue;
      }
      lb_build_chain(job, k, hi, f, false, fi);
      break;
    }
  }
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    if (info->fingers[f].found) {
      info->finger_count++;
      lb_report(info, " ");
      lb_report(info, lb_finger_name((lb_finger)f));
    }
  }
  if (info->finger_count < LB_FINGER_COUNT) {
    lb_report(info, "; missing:");
    for (int f = 0; f < LB_FINGER_COUNT; ++f) {
      if (!info->fingers[f].found) {
        const char *mapped = job->finger_roots[f];
        lb_report(info, " ");
        lb_report(info, lb_finger_name((lb_finger)f));
        if (mapped && mapped[0]) {
          snprintf(text, sizeof text, " (mapped joint '%s' not under the hand)", mapped);
          lb_report(info, text);
        }
      }
    }
  }
  return bad_mapping ? LB_ERR_JOINT_NOT_FOUND : LB_OK;
}
