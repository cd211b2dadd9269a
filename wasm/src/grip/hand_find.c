/* Hand and finger finding by name conventions (see limber/grip.h for the rules). */
#include "../base/format.h"
#include "limber/grip.h"
#include "limber/rig.h"

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

/* Copy rank of a joint by its first token: Rigify's deform bones (DEF-) first, then
 * unprefixed names, then its ORG- and MCH- copies. */
static int lb_copy_rank(const lb_tokens *t) {
  if (t->count < 2) {
    return 1;
  }
  if (strcmp(t->tok[0], "def") == 0) {
    return 0;
  }
  if (strcmp(t->tok[0], "org") == 0) {
    return 2;
  }
  return strcmp(t->tok[0], "mch") == 0 ? 3 : 1;
}

/* A joint name as the finger rules read it (see limber/grip.h). */
typedef struct lb_joint_class {
  int finger;   /* 0..4, -1 none */
  int numbered; /* finger from "FingerN"/"DigitN" (raw digit N, before the base shift) */
  int number;   /* that raw digit, -1 when not numbered */
  int rank;     /* lb_copy_rank */
  bool meta;    /* a metacarpal word: "metacarpal", token "meta" or "mc" */
  bool zero;    /* the last number token is all zeros */
} lb_joint_class;

/* Rule 2: a token "finger" or "digit" followed by a number token of one or two digits: the
 * first digit numbers the finger ("Finger0", "Finger01", "Digit0"). -1 when none. */
static int lb_numbered_digit(const lb_tokens *t) {
  for (int i = 0; i + 1 < t->count; ++i) {
    const char *n = t->tok[i + 1];
    if ((strcmp(t->tok[i], "finger") == 0 || strcmp(t->tok[i], "digit") == 0) &&
        lb_is_digit(n[0]) && (n[1] == '\0' || (lb_is_digit(n[1]) && n[2] == '\0'))) {
      return n[0] - '0';
    }
  }
  return -1;
}

static bool lb_last_number_is_zero(const lb_tokens *t);

/* `base` (0 or 1) is subtracted from a numbered finger's digit. */
static void lb_classify(const char *name, int base, lb_joint_class *c) {
  static const char *const words[] = {"thumb", "index",  "middle", "ring",
                                      "pinky", "pinkie", "little"};
  static const int fingers[] = {0, 1, 2, 3, 4, 4, 4};
  lb_tokens t;
  lb_tokenize(name, &t);
  c->finger = -1;
  c->number = -1;
  c->numbered = 0;
  c->rank = lb_copy_rank(&t);
  c->meta = lb_contains(name, "metacarpal") || lb_has_token(&t, "meta") || lb_has_token(&t, "mc");
  c->zero = lb_last_number_is_zero(&t);
  /* Rule 1: finger words (the first of the list that occurs decides), then the token
   * "mid" (Daz "rMid1", Character Creator "CC_Base_R_Mid1"). */
  for (int i = 0; i < 7; ++i) {
    if (lb_contains(name, words[i])) {
      c->finger = fingers[i];
      return;
    }
  }
  if (lb_has_token(&t, "mid")) {
    c->finger = LB_FINGER_MIDDLE;
    return;
  }
  int d = lb_numbered_digit(&t);
  if (d >= 0) {
    c->number = d;
    c->numbered = 1;
    c->finger = d - base >= 0 && d - base < LB_FINGER_COUNT ? d - base : -1;
  }
}

/* Finger named by a joint (numbered fingers counted from 0), or -1. */
static int lb_finger_word(const char *name) {
  lb_joint_class c;
  lb_classify(name, 0, &c);
  return c.finger;
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

lb_result lb_hand_find_job_validate(const lb_hand_find_job *job) {
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

/* Rule 4: index..pinky joints named as metacarpals are palm bones; a thumb's never is. */
static bool lb_is_metacarpal(const lb_hand_find_job *job, uint32_t k, int finger, int base,
                             const lb_joint_class *c) {
  if (finger == LB_FINGER_THUMB) {
    return false;
  }
  if (c->meta) {
    return true;
  }
  if (!c->numbered && c->zero) {
    uint32_t end = lb_subtree_end(job, k);
    for (uint32_t d = k + 1; d < end; ++d) {
      lb_joint_class cd;
      lb_classify(job->names[d], base, &cd);
      if (cd.finger == finger) {
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

/* From the root, the child named for the same finger (preferring the root's copy rank;
 * explicitly mapped fingers: the first child), up to 4 joints. */
static void lb_build_chain(const lb_hand_find_job *job, uint32_t root, uint32_t end, int finger,
                           int base, bool any_name, lb_finger_info *fi) {
  int chain[4];
  int n = 0;
  lb_joint_class rc;
  lb_classify(job->names[root], base, &rc);
  chain[n++] = (int)root;
  while (n < 4) {
    int cur = chain[n - 1];
    int next = -1;
    for (uint32_t k = (uint32_t)cur + 1; k < end; ++k) {
      if (job->parents[k] != cur) {
        continue;
      }
      if (any_name) {
        next = (int)k;
        break;
      }
      lb_joint_class c;
      lb_classify(job->names[k], base, &c);
      if (c.finger == finger && c.rank == rc.rank) {
        next = (int)k;
        break;
      }
      if (c.finger == finger && next < 0) {
        next = (int)k;
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

/* The report: written into the caller's buffer as far as it fits, measured in full. */
typedef struct lb_text {
  char *buf;
  size_t cap, len;
} lb_text;

static void lb_text_add(lb_text *t, const char *s) {
  size_t n = strlen(s);
  if (t->cap > 0 && t->len + 1 < t->cap) {
    size_t room = t->cap - 1 - t->len;
    size_t k = n < room ? n : room;
    memcpy(t->buf + t->len, s, k);
    t->buf[t->len + k] = '\0';
  }
  t->len += n;
}

static void lb_text_int(lb_text *t, int v) {
  char n[16];
  lb_snprintf(n, sizeof n, "%d", v);
  lb_text_add(t, n);
}

/* 1 when the hand's numbered fingers count from 1 (a "5" and no "0"), else 0. */
static int lb_number_base(const lb_hand_find_job *job, uint32_t lo, uint32_t hi) {
  bool zero = false, five = false;
  for (uint32_t k = lo; k < hi; ++k) {
    lb_joint_class c;
    lb_classify(job->names[k], 0, &c);
    zero = zero || (c.numbered && c.number == 0);
    five = five || (c.numbered && c.number == 5);
  }
  return five && !zero ? 1 : 0;
}

static uint32_t lb_child_count(const lb_hand_find_job *job, uint32_t j, uint32_t hi) {
  uint32_t n = 0;
  for (uint32_t k = j + 1; k < hi; ++k) {
    n += job->parents[k] == (int16_t)j;
  }
  return n;
}

/* Missing fingers: what was looked at, and the mapping to set with an example from this
 * rig's own names (found fingers' roots, then unused chain starts in depth-first order). */
static void lb_report_missing(const lb_hand_find_job *job, uint32_t lo, uint32_t hi, lb_text *t) {
  const lb_hand_info *info = &job->info;
  bool used[LB_MAX_JOINTS];
  memset(used, 0, sizeof used);
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    const lb_finger_info *fi = &info->fingers[f];
    for (int s = 0; fi->found && s < fi->segment_count; ++s) {
      used[fi->joints[s]] = true;
    }
    if (fi->found && fi->tip >= 0) {
      used[fi->tip] = true;
    }
  }
  const char *field = job->side == LB_HAND_RIGHT ? "rightFingerRoots" : "leftFingerRoots";
  lb_text_add(t, "; set GripPose.");
  lb_text_add(t, field);
  lb_text_add(t, " to the thumb,index,middle,ring,pinky roots, e.g. \"");
  uint32_t next = lo;
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    const lb_finger_info *fi = &info->fingers[f];
    if (f > 0) {
      lb_text_add(t, ",");
    }
    if (fi->found) {
      lb_text_add(t, job->names[fi->joints[0]]);
      continue;
    }
    /* A chain start: its parent is the hand or a branching palm bone, it does not branch
     * itself and it has a child. */
    for (; next < hi; ++next) {
      int p = job->parents[next];
      uint32_t end = lb_subtree_end(job, next);
      bool start = (p == (int)lo - 1 || lb_child_count(job, (uint32_t)p, hi) > 1) &&
                   lb_child_count(job, next, hi) == 1;
      for (uint32_t k = next; k < end && start; ++k) {
        start = !used[k]; /* not a found finger nor a palm bone above one */
      }
      if (start) {
        lb_text_add(t, job->names[next]);
        for (uint32_t k = next; k < end; ++k) {
          used[k] = true;
        }
        next = end;
        break;
      }
    }
  }
  lb_text_add(t, "\" (joint names or paths from the hand; empty = none); considered below the "
                 "hand:");
  bool any = false;
  for (uint32_t k = lo; k < hi; ++k) {
    bool in_finger = false;
    for (int f = 0; f < LB_FINGER_COUNT && !in_finger; ++f) {
      const lb_finger_info *fi = &info->fingers[f];
      for (int s = 0; fi->found && s < fi->segment_count; ++s) {
        in_finger = in_finger || fi->joints[s] == (int)k;
      }
      in_finger = in_finger || (fi->found && fi->tip == (int)k);
    }
    if (!in_finger) {
      lb_text_add(t, any ? ", '" : " '");
      lb_text_add(t, job->names[k]);
      lb_text_add(t, "'");
      for (int f = 0; f < LB_FINGER_COUNT; ++f) {
        if (info->fingers[f].metacarpal == (int)k) {
          lb_text_add(t, " (palm bone)");
        }
      }
      any = true;
    }
  }
  if (!any) {
    lb_text_add(t,
                lo < hi ? " only the found fingers" : " nothing (the hand joint has no children)");
  }
}

/* The answer emptied: no hand, no finger joints, an empty report. */
static void lb_hand_find_clear(lb_hand_find_job *job, lb_text *text) {
  lb_hand_info *info = &job->info;
  memset(info, 0, sizeof *info);
  info->side = job->side;
  info->hand = -1;
  if (text->cap > 0) {
    text->buf[0] = '\0';
  }
  info->report = text->cap > 0 ? text->buf : "";
  job->report_len = 0;
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    lb_finger_info *fi = &info->fingers[f];
    fi->tip = fi->metacarpal = -1;
    for (int s = 0; s < LB_FINGER_MAX_SEGMENTS; ++s) {
      fi->joints[s] = -1;
    }
  }
}

/* The best joint named like this side's hand, -1 when none is: a hand with fingers first,
 * then deform copies, more fingers, fewer tokens. */
static int lb_hand_find_by_name(const lb_hand_find_job *job) {
  int hand = -1;
  int best_fingers = -1, best_tokens = 0, best_rank = 0;
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
    int rank = lb_copy_rank(&t);
    bool better;
    if (hand < 0) {
      better = true;
    } else if ((fingers > 0) != (best_fingers > 0)) {
      better = fingers > 0;
    } else if (rank != best_rank) {
      better = rank < best_rank;
    } else if (fingers != best_fingers) {
      better = fingers > best_fingers;
    } else {
      better = t.count < best_tokens;
    }
    if (better) {
      hand = (int)j;
      best_fingers = fingers;
      best_tokens = t.count;
      best_rank = rank;
    }
  }
  return hand;
}

/* The hand joint: the given path, else found by name; -1 with the reason in the report. */
static int lb_hand_find_hand(const lb_hand_find_job *job, lb_text *text, const char *side_name) {
  if (job->hand_path && job->hand_path[0]) {
    int hand = lb_resolve(job, job->hand_path, -1, 0, job->joint_count);
    if (hand < 0) {
      lb_text_add(text, side_name);
      lb_text_add(text, " hand: joint '");
      lb_text_add(text, job->hand_path);
      lb_text_add(text, "' not found (no such joint or path from a root)");
    }
    return hand;
  }
  int hand = lb_hand_find_by_name(job);
  if (hand < 0) {
    lb_text_add(text, side_name);
    lb_text_add(text, " hand: no joint named like RightHand/hand_r/R_Hand/Bip01 R Hand; set ");
    lb_text_add(text, side_name);
    lb_text_add(text, "Hand (GripPose or GripHolder) to the hand joint's name or path");
  }
  return hand;
}

/* One finger's chain under the hand (joints lo..hi-1): from its mapped root, else by name.
 * False when the mapped root is not under the hand. */
static bool lb_hand_find_finger(const lb_hand_find_job *job, int f, int hand, uint32_t lo,
                                uint32_t hi, int base, lb_finger_info *fi) {
  const char *mapped = job->finger_roots[f];
  if (mapped && mapped[0]) {
    int root = lb_resolve(job, mapped, hand, lo, hi);
    if (root < 0) {
      return false;
    }
    fi->explicit_mapping = true;
    lb_build_chain(job, (uint32_t)root, hi, f, base, true, fi);
    return true;
  }
  /* Rule 5: the root is the first joint of the best copy rank named for the finger that
   * is not a metacarpal. */
  int root = -1, root_rank = 4;
  for (uint32_t k = lo; k < hi; ++k) {
    lb_joint_class c;
    lb_classify(job->names[k], base, &c);
    if (c.finger != f || c.rank >= root_rank || lb_is_metacarpal(job, k, f, base, &c)) {
      continue;
    }
    root = (int)k;
    root_rank = c.rank;
  }
  if (root < 0) {
    return true;
  }
  for (int a = job->parents[root]; a > hand; a = job->parents[a]) {
    lb_joint_class c;
    lb_classify(job->names[a], base, &c);
    if (c.finger == f && lb_is_metacarpal(job, (uint32_t)a, f, base, &c)) {
      fi->metacarpal = (int16_t)a;
      break;
    }
  }
  lb_build_chain(job, (uint32_t)root, hi, f, base, false, fi);
  return true;
}

/* The report's finger part: the fingers found, then the missing ones and why. */
static void lb_hand_find_report(lb_hand_find_job *job, int hand, uint32_t lo, uint32_t hi,
                                lb_text *text) {
  lb_hand_info *info = &job->info;
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    if (info->fingers[f].found) {
      info->finger_count++;
      lb_text_add(text, " ");
      lb_text_add(text, lb_finger_name((lb_finger)f));
    }
  }
  if (info->finger_count == 0) {
    lb_text_add(text, " none");
  }
  if (info->finger_count < LB_FINGER_COUNT) {
    lb_text_add(text, "; missing:");
    for (int f = 0; f < LB_FINGER_COUNT; ++f) {
      if (info->fingers[f].found) {
        continue;
      }
      const char *mapped = job->finger_roots[f];
      lb_text_add(text, " ");
      lb_text_add(text, lb_finger_name((lb_finger)f));
      if (mapped && mapped[0]) {
        lb_text_add(text, " (mapped joint '");
        lb_text_add(text, mapped);
        if (lb_resolve(job, mapped, hand, 0, job->joint_count) >= 0) {
          lb_text_add(text, "' not under the hand)");
        } else {
          lb_text_add(text, "': no such joint)");
        }
      }
    }
    lb_report_missing(job, lo, hi, text);
  }
}

lb_result lb_hand_find_job_run(lb_hand_find_job *job) {
  lb_result r = lb_hand_find_job_validate(job);
  if (r != LB_OK) {
    return r;
  }
  lb_text text = {job->report, job->report ? job->report_cap : 0, 0};
  lb_hand_find_clear(job, &text);
  const char *side_name = job->side == LB_HAND_RIGHT ? "right" : "left";
  int hand = lb_hand_find_hand(job, &text, side_name);
  if (hand < 0) {
    job->report_len = text.len;
    return LB_ERR_JOINT_NOT_FOUND;
  }
  lb_hand_info *info = &job->info;
  info->hand = (int16_t)hand;
  lb_text_add(&text, side_name);
  lb_text_add(&text, " hand '");
  lb_text_add(&text, job->names[hand]);
  lb_text_add(&text, "' (");
  lb_text_int(&text, hand);
  lb_text_add(&text, "); fingers:");

  uint32_t lo = (uint32_t)hand + 1;
  uint32_t hi = lb_subtree_end(job, (uint32_t)hand);
  int base = lb_number_base(job, lo, hi);
  bool bad_mapping = false;
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    if (!lb_hand_find_finger(job, f, hand, lo, hi, base, &info->fingers[f])) {
      bad_mapping = true;
    }
  }
  lb_hand_find_report(job, hand, lo, hi, &text);
  job->report_len = text.len;
  return bad_mapping ? LB_ERR_JOINT_NOT_FOUND : LB_OK;
}
