/* Grip across rig conventions: one hand geometry (bone lengths and rest positions in the
 * palm frame) built under the names and bone axes of common tools, found without any
 * mapping, posed by every built-in pose. Fingertips in the palm frame, scaled to an 8 cm
 * index finger, must agree with the Mixamo-like reference within 1 mm, thumb included
 * (the rigs without end joints thanks to the tip estimate). Then a Biped-named humanoid
 * holds an object by names alone, and with scrambled finger names says what to map and
 * does not claim to have reached. */
#include "limber/grip.h"
#include "limber/grip_pose.h"
#include "limber/grip_wrap.h"
#include "limber/limber.h"

#include <string.h>

#include "humanoid_fixture.h"
#include "test.h"

#define MAXJ 128

/* ---- the hand geometry (right hand, canonical hand space: hand joint at the origin,
 * fingers along +Z, palm side +Y, thumb on the -X side) ---------------------------- */

static const float g_roots[5][3] = {{-0.022f, 0.012f, 0.025f},
                                    {-0.022f, 0.0f, 0.095f},
                                    {0.0f, 0.0f, 0.097f},
                                    {0.020f, 0.0f, 0.092f},
                                    {0.038f, 0.0f, 0.084f}};
/* Bone lengths; the end bone is LB_HAND_TIP_ESTIMATE (0.8) times the one before it and
 * continues it, as the estimate assumes (so rigs without end joints can match exactly). */
static const float g_len[5][2] = {
    {0.032f, 0.030f}, {0.040f, 0.025f}, {0.043f, 0.028f}, {0.040f, 0.026f}, {0.030f, 0.020f}};
/* Direction of the first bone and of the last two (a little rest curl toward the palm). */
static const float g_dir[5][2][3] = {{{-0.55f, 0.25f, 0.8f}, {-0.45f, 0.35f, 0.82f}},
                                     {{-0.06f, 0.0f, 1.0f}, {-0.06f, 0.08f, 1.0f}},
                                     {{0.0f, 0.0f, 1.0f}, {0.0f, 0.08f, 1.0f}},
                                     {{0.05f, 0.0f, 1.0f}, {0.05f, 0.08f, 1.0f}},
                                     {{0.12f, 0.0f, 1.0f}, {0.12f, 0.08f, 1.0f}}};

/* Canonical positions: [f][0..2] segment joints, [f][3] the end. */
static void finger_points(int f, vec3 out[4]) {
  vec3 d0, d1;
  memcpy(d0, g_dir[f][0], sizeof d0);
  memcpy(d1, g_dir[f][1], sizeof d1);
  lb_vec3_normalize_to(d0, d0);
  lb_vec3_normalize_to(d1, d1);
  float l[3] = {g_len[f][0], g_len[f][1], LB_HAND_TIP_ESTIMATE * g_len[f][1]};
  memcpy(out[0], g_roots[f], sizeof(vec3));
  for (int k = 1; k < 4; ++k) {
    const float *d = k == 1 ? d0 : d1;
    for (int a = 0; a < 3; ++a) {
      out[k][a] = out[k - 1][a] + l[k - 1] * d[a];
    }
  }
}

/* ---- conventions ------------------------------------------------------------------ */

typedef enum style {
  MIXAMO,
  VRM1,
  VRM0,
  BIPED,
  DAZ,
  CC,
  RIGIFY,
  DIGITS,
  UNREAL,
  STYLE_COUNT
} style;

typedef enum axes {
  AX_IDENTITY, /* every joint frame = the model axes (identity rest rotations) */
  AX_X,        /* bone-local +X along the bone, random roll */
  AX_Y,        /* bone-local +Y along the bone, random roll */
} axes;

typedef struct convention {
  const char *label;
  style st;
  axes ax;
  bool tips;
  float unit; /* 1 = metres, 100 = centimetres */
  bool a_pose;
  int skip; /* missing finger, -1 none */
} convention;

static const convention g_conv[] = {
    {"mixamo", MIXAMO, AX_IDENTITY, true, 1.0f, false, -1},
    {"vrm1", VRM1, AX_IDENTITY, false, 1.0f, false, -1},
    {"vrm0", VRM0, AX_IDENTITY, false, 1.0f, false, -1},
    {"biped", BIPED, AX_X, true, 1.0f, false, -1},
    {"daz", DAZ, AX_X, false, 100.0f, false, -1},
    {"cc", CC, AX_Y, false, 1.0f, false, -1},
    {"rigify", RIGIFY, AX_Y, false, 1.0f, false, -1},
    {"digits", DIGITS, AX_Y, true, 1.0f, false, -1},
    {"unreal4-apose", UNREAL, AX_Y, true, 1.0f, true, LB_FINGER_RING},
};
#define CONV_COUNT (sizeof g_conv / sizeof g_conv[0])

/* Joint name of finger f, segment seg (0..2, 3 = end), in a style; prefix for copies. */
static void finger_name(char *n, style st, int f, int seg, const char *prefix) {
  static const char *const cap[5] = {"Thumb", "Index", "Middle", "Ring", "Pinky"};
  static const char *const vrm[5] = {"Thumb", "Index", "Middle", "Ring", "Little"};
  static const char *const daz[5] = {"Thumb", "Index", "Mid", "Ring", "Pinky"};
  static const char *const low[5] = {"thumb", "index", "middle", "ring", "pinky"};
  static const char *const vrm1_thumb[3] = {"Metacarpal", "Proximal", "Distal"};
  static const char *const vrm_seg[3] = {"Proximal", "Intermediate", "Distal"};
  switch (st) {
  case MIXAMO:
    snprintf(n, 64, "RightHand%s%d", cap[f], seg + 1);
    break;
  case VRM1:
    snprintf(n, 64, "right%s%s", vrm[f], f == 0 ? vrm1_thumb[seg] : vrm_seg[seg]);
    break;
  case VRM0:
    snprintf(n, 64, "right%s%s", vrm[f], vrm_seg[seg]);
    break;
  case BIPED:
    if (seg == 0) {
      snprintf(n, 64, "Bip01 R Finger%d", f);
    } else if (seg == 3) {
      snprintf(n, 64, "Bip01 R Finger%dNub", f);
    } else {
      snprintf(n, 64, "Bip01 R Finger%d%d", f, seg);
    }
    break;
  case DAZ:
    snprintf(n, 64, "r%s%d", daz[f], seg + 1);
    break;
  case CC:
    snprintf(n, 64, "CC_Base_R_%s%d", daz[f], seg + 1);
    break;
  case RIGIFY:
    snprintf(n, 64, "%s%s%s.0%d.R", prefix, f ? "f_" : "", low[f], seg + 1);
    break;
  case DIGITS:
    if (seg == 3) {
      snprintf(n, 64, "R_Digit%d_End", f);
    } else {
      snprintf(n, 64, "R_Digit%d_%d", f, seg + 1);
    }
    break;
  default:
    if (seg == 3) {
      snprintf(n, 64, "%s_end_r", low[f]);
    } else {
      snprintf(n, 64, "%s_0%d_r", low[f], seg + 1);
    }
    break;
  }
}

static const char *hand_name(style st) {
  static const char *const n[STYLE_COUNT] = {"RightHand",    "rightHand", "rightHand",
                                             "Bip01 R Hand", "rHand",     "CC_Base_R_Hand",
                                             "DEF-hand.R",   "R_Hand",    "hand_r"};
  return n[st];
}

typedef struct skel {
  uint32_t n;
  char names[MAXJ][64];
  const char *name_ptrs[MAXJ];
  int16_t parents[MAXJ];
  lb_transform model[MAXJ]; /* rest, model space (built first) */
  lb_transform local[MAXJ]; /* rest, local (from model) */
  vec3 dir[MAXJ];           /* bone direction (world), for the joint's axes */
} skel;

static int add_joint(skel *s, const char *name, int parent, const vec3 pos, const vec3 dir) {
  uint32_t i = s->n++;
  LB_CHECK(i < MAXJ);
  snprintf(s->names[i], 64, "%s", name);
  s->name_ptrs[i] = s->names[i];
  s->parents[i] = (int16_t)parent;
  lb_transform_identity(&s->model[i]);
  memcpy(s->model[i].t, pos, sizeof(vec3));
  memcpy(s->dir[i], dir, sizeof(vec3));
  return (int)i;
}

typedef struct placement {
  versor q; /* canonical hand space → model */
  vec3 t;
  float unit;
} placement;

static void place(const placement *p, const float *canon, vec3 out) {
  vec3 v = {canon[0] * p->unit, canon[1] * p->unit, canon[2] * p->unit};
  lb_quat_rotate(p->q, v, out);
  for (int a = 0; a < 3; ++a) {
    out[a] += p->t[a];
  }
}

static void place_dir(const placement *p, const float *canon, vec3 out) {
  lb_quat_rotate(p->q, canon, out);
  lb_vec3_normalize_to(out, out);
}

/* One finger chain (segments, end if `tips`) under `parent`; returns the root. */
static int add_finger(skel *s, const convention *c, const placement *p, int f, int parent,
                      const char *prefix) {
  vec3 pts[4];
  finger_points(f, pts);
  char n[64];
  int j = parent;
  int root = -1;
  for (int k = 0; k < (c->tips ? 4 : 3); ++k) {
    vec3 pos, d;
    place(p, pts[k], pos);
    place_dir(p, g_dir[f][k == 0 ? 0 : 1], d);
    finger_name(n, c->st, f, k, prefix);
    j = add_joint(s, n, j, pos, d);
    root = k == 0 ? j : root;
  }
  return root;
}

/* A palm bone (metacarpal, carpal, Rigify palm) at a canonical point, pointing at `to`. */
static int add_palm(skel *s, const placement *p, const char *name, int parent, const float *at,
                    const float *to) {
  vec3 pos, d, cd = {to[0] - at[0], to[1] - at[1], to[2] - at[2]};
  place(p, at, pos);
  place_dir(p, cd, d);
  return add_joint(s, name, parent, pos, d);
}

/* The whole hand of one convention, with its fingers (and copies) in depth-first order. */
static void add_hand(skel *s, const convention *c, const placement *p, int parent, const char *hand,
                     const char *prefix, bool mch_copies) {
  static const float origin[3] = {0.0f, 0.0f, 0.0f};
  vec3 pos, d;
  place(p, origin, pos);
  place_dir(p, (vec3){0.0f, 0.0f, 1.0f}, d);
  int h = add_joint(s, hand, parent, pos, d);
  char n[64];
  for (int f = 0; f < 5; ++f) {
    if (f == c->skip) {
      continue;
    }
    int fp = h;
    if (c->st == UNREAL && f > 0) {
      float at[3] = {g_roots[f][0] * 0.5f, 0.0f, 0.02f};
      snprintf(n, sizeof n, "%s_metacarpal_r", f == 1 ? "index" : f == 2 ? "middle" : "pinky");
      if (f == 3) {
        snprintf(n, sizeof n, "ring_metacarpal_r");
      }
      fp = add_palm(s, p, n, h, at, g_roots[f]);
    } else if (c->st == DAZ && f == 1) {
      static const float at[3] = {-0.01f, 0.0f, 0.02f};
      fp = add_palm(s, p, "rCarpal1", h, at, g_roots[1]);
      add_finger(s, c, p, 1, fp, prefix);
      add_finger(s, c, p, 2, fp, prefix);
      continue;
    } else if (c->st == DAZ && f == 3) {
      static const float at[3] = {0.028f, 0.0f, 0.02f};
      fp = add_palm(s, p, "rCarpal2", h, at, g_roots[3]);
      add_finger(s, c, p, 3, fp, prefix);
      add_finger(s, c, p, 4, fp, prefix);
      continue;
    } else if (c->st == DAZ && (f == 2 || f == 4)) {
      continue; /* added with their carpal */
    } else if (c->st == RIGIFY && f > 0) {
      float at[3] = {g_roots[f][0], 0.0f, 0.01f};
      snprintf(n, sizeof n, "%spalm.0%d.R", prefix, f);
      fp = add_palm(s, p, n, h, at, g_roots[f]);
      if (f == 1) {
        add_finger(s, c, p, 0, fp, prefix); /* Rigify's thumb hangs off palm.01 */
      }
      if (mch_copies) {
        add_finger(s, c, p, f, fp, "MCH-"); /* mechanism copies, before the deform bones */
      }
    } else if (c->st == RIGIFY && f == 0) {
      continue;
    }
    add_finger(s, c, p, f, fp, prefix);
  }
}

/* Joint frames per convention, then local rest transforms from the model ones. */
static void finish_axes(skel *s, axes ax, uint32_t seed) {
  rng r = {seed};
  for (uint32_t i = 0; i < s->n; ++i) {
    if (ax == AX_IDENTITY || i < 3) {
      lb_quat_identity(s->model[i].r);
    } else {
      vec3 axis = {ax == AX_X ? 1.0f : 0.0f, ax == AX_Y ? 1.0f : 0.0f, 0.0f};
      versor base, roll;
      lb_quat_from_to(axis, s->dir[i], base);
      float angle = (float)(rng_u32(&r) % 3600u) * 0.1f * LB_DEG2RAD;
      lb_quat_from_axis_angle(s->dir[i], angle, roll);
      lb_quat_mul(roll, base, s->model[i].r);
      lb_quat_normalize(s->model[i].r);
    }
  }
  for (uint32_t i = 0; i < s->n; ++i) {
    if (s->parents[i] < 0) {
      s->local[i] = s->model[i];
    } else {
      lb_transform_inverse_mul(&s->model[s->parents[i]], &s->model[i], &s->local[i]);
    }
  }
}

static void build(skel *s, const convention *c) {
  memset(s, 0, sizeof *s);
  placement p;
  p.unit = c->unit;
  /* Right arm in a T-pose: fingers (+Z) along -X, palm (+Y) down, thumb (-X) forward. */
  vec3 axis = {0.70710678f, 0.0f, -0.70710678f};
  lb_quat_from_axis_angle(axis, LB_PI, p.q);
  if (c->a_pose) { /* arm 40 degrees down, hand twisted 25 degrees */
    versor down, twist, tmp;
    lb_quat_from_axis_angle((vec3){0.0f, 0.0f, 1.0f}, 40.0f * LB_DEG2RAD, down);
    lb_quat_from_axis_angle((vec3){0.0f, 0.0f, 1.0f}, 25.0f * LB_DEG2RAD, twist);
    lb_quat_mul(p.q, twist, tmp);
    lb_quat_mul(down, tmp, p.q);
  }
  vec3 sh = {-0.2f * c->unit, 1.44f * c->unit, 0.0f};
  vec3 el = {-0.47f * c->unit, 1.44f * c->unit, 0.0f};
  p.t[0] = -0.75f * c->unit;
  p.t[1] = 1.44f * c->unit;
  p.t[2] = 0.0f;
  if (c->a_pose) {
    vec3 dv = {-0.55f * c->unit, 0.0f, 0.0f}, dr;
    versor down;
    lb_quat_from_axis_angle((vec3){0.0f, 0.0f, 1.0f}, 40.0f * LB_DEG2RAD, down);
    lb_quat_rotate(down, dv, dr);
    for (int a = 0; a < 3; ++a) {
      p.t[a] = sh[a] + dr[a];
      el[a] = sh[a] + 0.49f * dr[a];
    }
  }
  vec3 zero = {0, 0, 0}, x = {-1, 0, 0};
  int root = add_joint(s, "Root", -1, zero, x);
  int shoulder = add_joint(s, "Shoulder", root, sh, x);
  int elbow = add_joint(s, "Elbow", shoulder, el, x);
  if (c->st == RIGIFY) {
    convention org = *c;
    add_hand(s, &org, &p, elbow, "ORG-hand.R", "ORG-", false); /* original copies first */
    add_hand(s, c, &p, elbow, hand_name(c->st), "DEF-", true);
  } else {
    add_hand(s, c, &p, elbow, hand_name(c->st), "", false);
  }
  finish_axes(s, c->ax, 0x9e3779b9u ^ (uint32_t)c->st);
}

/* ---- posing --------------------------------------------------------------------------- */

typedef struct posed_hand {
  lb_hand_info info;
  lb_hand_rig rig;
  vec3 tips[5]; /* in the palm frame, scaled to an 8 cm index finger */
  float index_length;
  bool found[5];
} posed_hand;

static char g_report[8192];

static bool find_and_build(const skel *s, lb_hand_info *info, lb_hand_rig *rig) {
  lb_hand_find_job job = lb_hand_find_default_job();
  job.joint_count = s->n;
  job.names = s->name_ptrs;
  job.parents = s->parents;
  job.report = g_report;
  job.report_cap = sizeof g_report;
  bool ok = lb_hand_find_job_run(&job) == LB_OK;
  *info = job.info;
  ok = ok && lb_hand_rig_build(info, s->parents, s->local, s->n, rig) == LB_OK;
  return ok;
}

static void pose_hand(const skel *s, const lb_hand_rig *rig, const lb_grip_pose_def *pose,
                      float trigger, posed_hand *out) {
  static lb_transform model[MAXJ], out_local[MAXJ];
  for (uint32_t i = 0; i < s->n; ++i) {
    if (s->parents[i] < 0) {
      model[i] = s->local[i];
    } else {
      lb_transform_mul(&model[s->parents[i]], &s->local[i], &model[i]);
    }
    out_local[i] = s->local[i];
  }
  lb_finger_pose_job job = lb_finger_pose_default_job();
  job.rig = rig;
  job.pose = pose;
  job.trigger = trigger;
  job.joint_count = s->n;
  job.local = s->local;
  job.model = model;
  job.out_local = out_local;
  LB_CHECK(lb_finger_pose_job_run(&job) == LB_OK);
  out->index_length = job.index_length;
  float k = 0.08f / job.index_length;
  versor inv;
  lb_quat_conj(job.palm.r, inv);
  for (int f = 0; f < 5; ++f) {
    out->found[f] = rig->fingers[f].found;
    const float *t = job.positions[f][LB_FINGER_MAX_SEGMENTS];
    vec3 d = {t[0] - job.palm.t[0], t[1] - job.palm.t[1], t[2] - job.palm.t[2]};
    lb_quat_rotate(inv, d, out->tips[f]);
    for (int a = 0; a < 3; ++a) {
      out->tips[f][a] *= k;
    }
  }
}

static float dist3(const float *a, const float *b) {
  vec3 d = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  return lb_vec3_length(d);
}

static bool name_is(const skel *s, int j, const char *want) {
  bool ok = j >= 0 && strcmp(s->names[j], want) == 0;
  if (!ok) {
    fprintf(stderr, "  joint %d is '%s', want '%s'\n", j, j >= 0 ? s->names[j] : "(none)", want);
  }
  return ok;
}

/* Every convention is found by name alone, as expected. */
static void test_found_by_name(void) {
  static skel s;
  char n[64];
  for (uint32_t c = 0; c < CONV_COUNT; ++c) {
    const convention *cv = &g_conv[c];
    build(&s, cv);
    lb_hand_info info;
    lb_hand_rig rig;
    bool ok = find_and_build(&s, &info, &rig);
    printf("  %-14s %s\n", cv->label, info.report);
    LB_CHECK(ok);
    LB_CHECK(name_is(&s, info.hand, hand_name(cv->st)));
    LB_CHECK(info.finger_count == (cv->skip >= 0 ? 4 : 5));
    for (int f = 0; f < 5; ++f) {
      const lb_finger_info *fi = &info.fingers[f];
      if (f == cv->skip) {
        LB_CHECK(!fi->found);
        continue;
      }
      LB_CHECK(fi->found && !fi->explicit_mapping && fi->segment_count == 3);
      for (int k = 0; k < 3; ++k) {
        finger_name(n, cv->st, f, k, cv->st == RIGIFY ? "DEF-" : "");
        LB_CHECK(name_is(&s, fi->joints[k], n));
      }
      if (cv->tips) {
        finger_name(n, cv->st, f, 3, "");
        LB_CHECK(name_is(&s, fi->tip, n));
      } else {
        LB_CHECK(fi->tip == -1);
      }
      LB_CHECK(rig.fingers[f].tip_estimated == !cv->tips);
      /* Index..pinky metacarpals are palm bones; the thumb has none. */
      LB_CHECK((fi->metacarpal >= 0) == (cv->st == UNREAL && f > 0));
    }
    LB_CHECK(rig.tip_estimated == (cv->tips ? 0u : 0x1Fu));
    /* The hand size is the same (the estimated end included), in the rig's units. */
    LB_CHECK_NEAR(rig.index_length / cv->unit, 0.085f, 2e-6);
    if (cv->skip >= 0) {
      LB_CHECK(strstr(info.report, "missing: ring") != NULL);
    }
  }
}

/* Every built-in pose puts the fingertips at the same place in the palm frame. */
static void test_poses_agree(void) {
  static skel ref_s, s;
  build(&ref_s, &g_conv[0]);
  lb_hand_info ref_info, info;
  static lb_hand_rig ref_rig, rig;
  LB_CHECK(find_and_build(&ref_s, &ref_info, &ref_rig));
  uint32_t count = lb_grip_pose_builtin_count();
  double overall = 0.0;
  for (uint32_t i = 0; i < count; ++i) {
    const char *name = lb_grip_pose_builtin_name(i);
    lb_grip_pose_def pose;
    LB_CHECK(lb_grip_pose_builtin(name, &pose) == LB_OK);
    for (int trig = 0; trig < (lb_grip_pose_has_trigger(&pose) ? 2 : 1); ++trig) {
      posed_hand ref;
      pose_hand(&ref_s, &ref_rig, &pose, (float)trig, &ref);
      double worst = 0.0, worst_thumb = 0.0;
      const char *worst_at = "";
      for (uint32_t c = 1; c < CONV_COUNT; ++c) {
        build(&s, &g_conv[c]);
        LB_CHECK(find_and_build(&s, &info, &rig));
        posed_hand ph;
        pose_hand(&s, &rig, &pose, (float)trig, &ph);
        for (int f = 0; f < 5; ++f) {
          if (!ph.found[f]) {
            continue;
          }
          double d = dist3(ph.tips[f], ref.tips[f]);
          if (d > worst) {
            worst = d;
            worst_at = g_conv[c].label;
          }
          worst_thumb = f == 0 && d > worst_thumb ? d : worst_thumb;
        }
      }
      printf("  %-8s%s max fingertip difference %.4f mm (thumb %.4f mm, at %s)\n", name,
             trig ? " (trigger 1)" : "", worst * 1e3, worst_thumb * 1e3, worst_at);
      LB_CHECK(worst < 1e-3);
      overall = worst > overall ? worst : overall;
    }
  }
  printf("  all poses: max fingertip difference %.4f mm\n", overall * 1e3);
}

/* Without the estimate, a tipless rig misses: the check above is not trivially met. */
static void test_estimate_matters(void) {
  static skel s;
  build(&s, &g_conv[1]); /* VRM 1.0, no end joints */
  lb_hand_info info;
  static lb_hand_rig rig;
  LB_CHECK(find_and_build(&s, &info, &rig));
  LB_CHECK(rig.fingers[LB_FINGER_THUMB].segment_count == 3);
  LB_CHECK(name_is(&s, info.fingers[LB_FINGER_THUMB].joints[0], "rightThumbMetacarpal"));
  static skel ref_s;
  build(&ref_s, &g_conv[0]);
  lb_hand_info ref_info;
  static lb_hand_rig ref_rig;
  LB_CHECK(find_and_build(&ref_s, &ref_info, &ref_rig));
  lb_grip_pose_def pinch;
  LB_CHECK(lb_grip_pose_builtin("pinch", &pinch) == LB_OK);
  posed_hand a, b;
  pose_hand(&ref_s, &ref_rig, &pinch, 0.0f, &a);
  for (int f = 0; f < 5; ++f) {
    rig.fingers[f].tip_estimated = false;
  }
  rig.index_length = ref_rig.index_length - 0.02f; /* one bone short, as before */
  pose_hand(&s, &rig, &pinch, 0.0f, &b);
  double worst = 0.0;
  for (int f = 0; f < 5; ++f) {
    double d = dist3(a.tips[f], b.tips[f]);
    worst = d > worst ? d : worst;
  }
  printf("  vrm1 pinch without the estimate: fingertips off by up to %.1f mm\n", worst * 1e3);
  LB_CHECK(worst > 5e-3);
}

/* The fist wrapped onto a handle across the palm: the rigs without end joints stop where
 * the reference does (the wrap's last bone ends at the estimated end). */
static void wrap_hand(const skel *s, const lb_hand_info *info, const lb_hand_rig *rig,
                      const lb_grip_pose_def *pose, float unit, vec3 tips[5], uint32_t *contacts) {
  static lb_transform model[MAXJ], posed[MAXJ], wrapped[MAXJ], after[MAXJ];
  for (uint32_t i = 0; i < s->n; ++i) {
    if (s->parents[i] < 0) {
      model[i] = s->local[i];
    } else {
      lb_transform_mul(&model[s->parents[i]], &s->local[i], &model[i]);
    }
    posed[i] = s->local[i];
  }
  lb_finger_pose_job pj = lb_finger_pose_default_job();
  pj.rig = rig;
  pj.pose = pose;
  pj.joint_count = s->n;
  pj.local = s->local;
  pj.model = model;
  pj.out_local = posed;
  LB_CHECK(lb_finger_pose_job_run(&pj) == LB_OK);
  /* A 15 mm handle along the palm's X axis, on the palm side under the knuckles. */
  lb_shape_def def = lb_shape_default_def();
  def.type = LB_SHAPE_CYLINDER;
  def.direction = LB_AXIS_X;
  def.radius = 0.015f * unit;
  def.height = 0.12f * unit;
  lb_transform at;
  lb_transform_identity(&at);
  vec3 off = {0.0f, 0.03f * unit, 0.045f * unit};
  lb_transform_point(&pj.palm, off, at.t);
  memcpy(at.r, pj.palm.r, sizeof(versor));
  lb_shape shape;
  LB_CHECK(lb_shape_resolve(&def, &at, &shape) == LB_OK);
  lb_wrap_job wj = lb_wrap_default_job();
  wj.hand = info;
  wj.joint_count = s->n;
  wj.parents = s->parents;
  wj.local = s->local;
  wj.open_local = s->local;
  wj.pose_local = posed;
  wj.model = model;
  wj.shapes = &shape;
  wj.shape_count = 1;
  wj.margin = LB_WRAP_MARGIN_FRACTION * pj.index_length;
  wj.end_mask = rig->tip_estimated;
  for (int f = 0; f < 5; ++f) {
    memcpy(wj.end_local[f], rig->fingers[f].tip_local, sizeof(vec3));
  }
  for (uint32_t i = 0; i < s->n; ++i) {
    wrapped[i] = posed[i];
  }
  wj.out_local = wrapped;
  LB_CHECK(lb_wrap_job_run(&wj) == LB_OK);
  *contacts = 0;
  for (uint32_t i = 0; i < s->n; ++i) {
    if (s->parents[i] < 0) {
      after[i] = wrapped[i];
    } else {
      lb_transform_mul(&after[s->parents[i]], &wrapped[i], &after[i]);
    }
  }
  float k = 0.08f / pj.index_length;
  versor inv;
  lb_quat_conj(pj.palm.r, inv);
  for (int f = 0; f < 5; ++f) {
    const lb_hand_rig_finger *rf = &rig->fingers[f];
    memset(tips[f], 0, sizeof(vec3));
    if (!rf->found) {
      continue;
    }
    *contacts |= (wj.fingers[f].contact ? 1u : 0u) << f;
    vec3 t;
    const lb_transform *last = &after[rf->joints[rf->segment_count - 1]];
    if (rf->tip >= 0) {
      memcpy(t, after[rf->tip].t, sizeof t);
    } else {
      lb_transform_point(last, rf->tip_local, t);
    }
    vec3 d = {t[0] - pj.palm.t[0], t[1] - pj.palm.t[1], t[2] - pj.palm.t[2]};
    lb_quat_rotate(inv, d, tips[f]);
    for (int a = 0; a < 3; ++a) {
      tips[f][a] *= k;
    }
  }
}

static void test_wrap_agrees(void) {
  static skel ref_s, s;
  static lb_hand_rig ref_rig, rig;
  lb_hand_info ref_info, info;
  build(&ref_s, &g_conv[0]);
  LB_CHECK(find_and_build(&ref_s, &ref_info, &ref_rig));
  lb_grip_pose_def fist;
  LB_CHECK(lb_grip_pose_builtin("fist", &fist) == LB_OK);
  vec3 ref[5], tips[5];
  uint32_t ref_contacts, contacts;
  wrap_hand(&ref_s, &ref_info, &ref_rig, &fist, 1.0f, ref, &ref_contacts);
  double worst = 0.0;
  const char *worst_at = "";
  for (uint32_t c = 1; c < CONV_COUNT; ++c) {
    build(&s, &g_conv[c]);
    LB_CHECK(find_and_build(&s, &info, &rig));
    wrap_hand(&s, &info, &rig, &fist, g_conv[c].unit, tips, &contacts);
    uint32_t mask = g_conv[c].skip >= 0 ? ~(1u << g_conv[c].skip) : ~0u;
    LB_CHECK((contacts & mask) == (ref_contacts & mask));
    for (int f = 0; f < 5; ++f) {
      if (f == g_conv[c].skip) {
        continue;
      }
      double d = dist3(tips[f], ref[f]);
      if (d > worst) {
        worst = d;
        worst_at = g_conv[c].label;
      }
    }
  }
  printf("  fist on a handle: contacts 0x%x, max fingertip difference %.4f mm (at %s)\n",
         ref_contacts, worst * 1e3, worst_at);
  LB_CHECK(ref_contacts & 0x1Eu);
  LB_CHECK(worst < 1e-3);
}

static lb_entity lb_test_spawn_xf(lb_world *w, lb_entity parent, float x, float y, float z,
                                  const versor r);
static const versor ID = {0, 0, 0, 1};

typedef struct small_skel {
  uint32_t n;
  const char *names[32];
  int16_t parents[32];
} small_skel;

static int add(small_skel *s, const char *name, int parent) {
  s->names[s->n] = name;
  s->parents[s->n] = (int16_t)parent;
  return (int)s->n++;
}

static lb_hand_info find_small(const small_skel *s) {
  lb_hand_find_job job = lb_hand_find_default_job();
  job.joint_count = s->n;
  job.names = s->names;
  job.parents = s->parents;
  job.report = g_report;
  job.report_cap = sizeof g_report;
  LB_CHECK(lb_hand_find_job_run(&job) == LB_OK);
  return job.info;
}

/* Numbered fingers counted from 1 (a 5 and no 0), VRoid node names, a hand with only
 * ORG-/MCH- copies (the unprefixed control chain wins over MCH-). */
static void test_name_rules(void) {
  small_skel s = {0};
  int h = add(&s, "Bip01 R Hand", add(&s, "Root", -1));
  for (int f = 0; f < 5; ++f) {
    static const char *const n[5][3] = {
        {"Bip01 R Finger1", "Bip01 R Finger11", "Bip01 R Finger12"},
        {"Bip01 R Finger2", "Bip01 R Finger21", "Bip01 R Finger22"},
        {"Bip01 R Finger3", "Bip01 R Finger31", "Bip01 R Finger32"},
        {"Bip01 R Finger4", "Bip01 R Finger41", "Bip01 R Finger42"},
        {"Bip01 R Finger5", "Bip01 R Finger51", "Bip01 R Finger52"}};
    add(&s, n[f][2], add(&s, n[f][1], add(&s, n[f][0], h)));
  }
  lb_hand_info info = find_small(&s);
  LB_CHECK(info.finger_count == 5);
  LB_CHECK(strcmp(s.names[info.fingers[LB_FINGER_THUMB].joints[0]], "Bip01 R Finger1") == 0);
  LB_CHECK(strcmp(s.names[info.fingers[LB_FINGER_PINKY].joints[2]], "Bip01 R Finger52") == 0);

  small_skel v = {0};
  h = add(&v, "J_Bip_R_Hand", add(&v, "J_Bip_C_Hips", -1));
  add(&v, "J_Bip_R_Thumb3", add(&v, "J_Bip_R_Thumb2", add(&v, "J_Bip_R_Thumb1", h)));
  add(&v, "J_Bip_R_Index3", add(&v, "J_Bip_R_Index2", add(&v, "J_Bip_R_Index1", h)));
  add(&v, "J_Bip_R_Little3", add(&v, "J_Bip_R_Little2", add(&v, "J_Bip_R_Little1", h)));
  info = find_small(&v);
  LB_CHECK(info.finger_count == 3 && info.fingers[LB_FINGER_PINKY].segment_count == 3);
  LB_CHECK(strstr(g_report, "missing: middle ring") != NULL);
  LB_CHECK(strstr(g_report, "e.g. \"J_Bip_R_Thumb1,J_Bip_R_Index1,,,J_Bip_R_Little1\"") != NULL);

  small_skel r = {0};
  h = add(&r, "ORG-hand.R", add(&r, "root", -1));
  add(&r, "MCH-f_index.02.R", add(&r, "MCH-f_index.01.R", h));
  add(&r, "f_index.02.R", add(&r, "f_index.01.R", h));
  add(&r, "ORG-f_index.02.R", add(&r, "ORG-f_index.01.R", h));
  info = find_small(&r);
  LB_CHECK(strcmp(r.names[info.fingers[LB_FINGER_INDEX].joints[0]], "f_index.01.R") == 0);
  LB_CHECK(strcmp(r.names[info.fingers[LB_FINGER_INDEX].joints[1]], "f_index.02.R") == 0);
}

/* In a world: a VRM 1.0 hand reports its estimated ends in the status. */
static void test_status_tip_estimated(void) {
  static skel s;
  build(&s, &g_conv[1]);
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  lb_skeleton_def def = lb_skeleton_default_def();
  def.joint_count = s.n;
  def.names = s.name_ptrs;
  def.parents = s.parents;
  def.rest = s.local;
  uint32_t asset = 0;
  LB_CHECK(lb_world_add_skeleton(w, &def, &asset) == LB_OK);
  lb_entity e = lb_test_spawn_xf(w, 0, 0, 0, 0, ID);
  lb_rig_c rig = {asset};
  LB_CHECK(lb_world_insert(w, e, LB_RIG, &rig) == LB_OK);
  lb_grip_pose_c gp;
  lb_component_defaults(LB_GRIP_POSE, &gp);
  gp.right_pose = lb_world_name(w, "pinch");
  LB_CHECK(lb_world_insert(w, e, LB_GRIP_POSE, &gp) == LB_OK);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  lb_grip_hand_status st;
  LB_CHECK(lb_world_grip_hand_status(w, e, LB_HAND_RIGHT, &st) == LB_OK);
  printf("  vrm1 status: %s; index %.4f m\n", st.info.report, (double)st.index_length);
  LB_CHECK(st.palm_known && st.tip_estimated == 0x1Fu);
  LB_CHECK(strstr(st.info.report, "end estimated: thumb index middle ring pinky") != NULL);
  LB_CHECK_NEAR(st.index_length, 0.085f, 2e-6);
  lb_world_destroy(w);
}

/* The same VRM hand with where its skinned mesh ends on the last finger joints (an end bone
 * as long as the one before it, not 0.8 of it): the fingers end there (tip_from_mesh), the
 * hand size counts it, and the status tips follow the posed joints. */
static void test_status_tip_from_mesh(void) {
  static skel s;
  build(&s, &g_conv[1]);
  static lb_joint_end ends[MAXJ];
  memset(ends, 0, sizeof ends);
  int right_last[LB_FINGER_COUNT];
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    static const char *const last[LB_FINGER_COUNT] = {"rightThumbDistal", "rightIndexDistal",
                                                      "rightMiddleDistal", "rightRingDistal",
                                                      "rightLittleDistal"};
    right_last[f] = -1;
    for (uint32_t j = 0; j < s.n; ++j) {
      if (strcmp(s.names[j], last[f]) == 0) {
        right_last[f] = (int)j;
      }
    }
    LB_CHECK(right_last[f] >= 0);
    if (right_last[f] >= 0) {
      lb_joint_end *e = &ends[right_last[f]];
      memcpy(e->point, s.local[right_last[f]].t, sizeof e->point); /* rest rotations are identity */
      e->known = 1;
    }
  }
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  lb_skeleton_def def = lb_skeleton_default_def();
  def.joint_count = s.n;
  def.names = s.name_ptrs;
  def.parents = s.parents;
  def.rest = s.local;
  def.mesh_ends = ends;
  uint32_t asset = 0;
  LB_CHECK(lb_world_add_skeleton(w, &def, &asset) == LB_OK);
  lb_entity e = lb_test_spawn_xf(w, 0, 0, 0, 0, ID);
  lb_rig_c rig = {asset};
  LB_CHECK(lb_world_insert(w, e, LB_RIG, &rig) == LB_OK);
  lb_grip_pose_c gp;
  lb_component_defaults(LB_GRIP_POSE, &gp);
  gp.right_pose = lb_world_name(w, "pinch");
  LB_CHECK(lb_world_insert(w, e, LB_GRIP_POSE, &gp) == LB_OK);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  lb_grip_hand_status st;
  LB_CHECK(lb_world_grip_hand_status(w, e, LB_HAND_RIGHT, &st) == LB_OK);
  printf("  vrm1 with mesh ends: %s; index %.4f m\n", st.info.report, (double)st.index_length);
  LB_CHECK(st.tip_estimated == 0x1Fu && st.tip_from_mesh == 0x1Fu);
  LB_CHECK(
      strstr(st.info.report, "end where the skinned mesh ends: thumb index middle ring pinky"));
  /* the index is 0.2 of its last bone longer than with the ratio (0.085 m) */
  const lb_transform *idx = &s.local[right_last[LB_FINGER_INDEX]];
  float last_len = sqrtf(idx->t[0] * idx->t[0] + idx->t[1] * idx->t[1] + idx->t[2] * idx->t[2]);
  LB_CHECK_NEAR(st.index_length, 0.085f + 0.2f * last_len, 2e-6);
  uint32_t n = 0;
  const lb_transform *model = lb_rig_model_pose(w, e, &n);
  double worst = 0.0;
  for (int f = 0; f < LB_FINGER_COUNT && model; ++f) {
    vec3 want;
    lb_transform_point(&model[right_last[f]], ends[right_last[f]].point, want);
    for (int a = 0; a < 3; ++a) {
      worst = fmax(worst, fabs((double)st.tips[f][a] - (double)want[a]));
    }
  }
  printf("  status tips vs the posed last joints' mesh ends: %.2e m\n", worst);
  LB_CHECK(worst < 1e-6);
  lb_world_destroy(w);
}

/* ---- a Biped-named humanoid holding an object ------------------------------------- */

/* The procedural humanoid's skeleton with Biped hand and finger names ("Bip01 R Hand",
 * "Bip01 R Finger0" .. "Bip01 R Finger4Nub"), or with the fingers named "Bone000".. */
static uint32_t add_biped(lb_test_humanoid *h, bool scramble) {
  static char names[LB_TEST_MAX_JOINTS][64];
  static const char *ptrs[LB_TEST_MAX_JOINTS];
  static const char *const fingers[5] = {"Thumb", "Index", "Middle", "Ring", "Pinky"};
  int bone = 0;
  for (uint32_t j = 0; j < h->count; ++j) {
    const char *n = h->names[j];
    snprintf(names[j], 64, "%s", n);
    for (int side = 0; side < 2; ++side) {
      const char *hand = side ? "LeftHand" : "RightHand";
      char sc = side ? 'L' : 'R';
      size_t hl = strlen(hand);
      if (strcmp(n, hand) == 0) {
        snprintf(names[j], 64, "Bip01 %c Hand", sc);
      } else if (strncmp(n, hand, hl) == 0) {
        for (int f = 0; f < 5; ++f) {
          size_t fl = strlen(fingers[f]);
          if (strncmp(n + hl, fingers[f], fl) == 0) {
            int seg = n[hl + fl] - '1';
            if (scramble) {
              snprintf(names[j], 64, "Bone%03d", bone++);
            } else if (seg == 0) {
              snprintf(names[j], 64, "Bip01 %c Finger%d", sc, f);
            } else if (seg == 3) {
              snprintf(names[j], 64, "Bip01 %c Finger%dNub", sc, f);
            } else {
              snprintf(names[j], 64, "Bip01 %c Finger%d%d", sc, f, seg);
            }
          }
        }
      }
    }
    ptrs[j] = names[j];
  }
  lb_skeleton_def def = lb_skeleton_default_def();
  def.joint_count = h->count;
  def.names = ptrs;
  def.parents = h->parents;
  def.rest = h->local;
  uint32_t asset = 0;
  LB_CHECK(lb_world_add_skeleton(h->w, &def, &asset) == LB_OK);
  return asset;
}

typedef struct hold_scene {
  lb_world *w;
  lb_entity hero, object, anchor;
} hold_scene;

static void hold_init(hold_scene *sc, lb_test_humanoid *h, uint32_t asset) {
  sc->w = h->w;
  sc->hero = lb_test_spawn_xf(sc->w, 0, 0, 0, 0, ID);
  lb_rig_c rig = {asset};
  LB_CHECK(lb_world_insert(sc->w, sc->hero, LB_RIG, &rig) == LB_OK);
  sc->object = lb_test_spawn_xf(sc->w, 0, 0, 1.2f, 0.35f, ID);
  versor down;
  lb_quat_from_axis_angle((vec3){1, 0, 0}, 90.0f * LB_DEG2RAD, down);
  sc->anchor = lb_test_spawn_xf(sc->w, sc->object, -0.18f, 0.0f, 0.0f, down);
  lb_grip_profile_c prof;
  lb_component_defaults(LB_GRIP_PROFILE, &prof);
  prof.main_anchor = sc->anchor;
  LB_CHECK(lb_world_insert(sc->w, sc->object, LB_GRIP_PROFILE, &prof) == LB_OK);
  lb_grip_holder_c gh;
  lb_component_defaults(LB_GRIP_HOLDER, &gh);
  gh.held = sc->object;
  gh.placement = LB_GRIP_PLACEMENT_OBJECT;
  gh.blend_seconds = 0.0f;
  LB_CHECK(lb_world_insert(sc->w, sc->hero, LB_GRIP_HOLDER, &gh) == LB_OK);
}

/* The right palm in world space from fingers given by joint index (root of index, middle,
 * ring, pinky, thumb as the humanoid has them), whatever their names. */
static float palm_gap(const hold_scene *sc, const lb_test_humanoid *h) {
  lb_hand_info info;
  memset(&info, 0, sizeof info);
  info.side = LB_HAND_RIGHT;
  info.hand = (int16_t)lb_skeleton_find_joint(h->w, h->asset, "RightHand");
  static const char *const fingers[5] = {"Thumb", "Index", "Middle", "Ring", "Pinky"};
  for (int f = 0; f < 5; ++f) {
    char n[64];
    lb_finger_info *fi = &info.fingers[f];
    fi->found = true;
    fi->segment_count = 3;
    for (int k = 0; k < 3; ++k) {
      snprintf(n, sizeof n, "RightHand%s%d", fingers[f], k + 1);
      fi->joints[k] = (int16_t)lb_skeleton_find_joint(h->w, h->asset, n);
    }
    snprintf(n, sizeof n, "RightHand%s4", fingers[f]);
    fi->tip = (int16_t)lb_skeleton_find_joint(h->w, h->asset, n);
  }
  uint32_t n = 0;
  const lb_transform *model = lb_rig_model_pose(sc->w, sc->hero, &n);
  lb_palm_frame_job job = lb_palm_frame_default_job();
  job.hand = &info;
  job.model = model;
  job.joint_count = n;
  LB_CHECK(lb_palm_frame_job_run(&job) == LB_OK);
  lb_transform root, palm, anchor;
  LB_CHECK(lb_world_entity_transform(sc->w, sc->hero, &root) == LB_OK);
  lb_transform_mul(&root, &job.frame, &palm);
  LB_CHECK(lb_world_entity_transform(sc->w, sc->anchor, &anchor) == LB_OK);
  return dist3(palm.t, anchor.t);
}

static void test_biped_holds(void) {
  lb_test_humanoid h;
  lb_test_humanoid_init(&h, LB_NAMING_MIXAMO, 0.0f);
  uint32_t asset = add_biped(&h, false);
  hold_scene sc;
  hold_init(&sc, &h, asset);
  LB_CHECK(lb_world_step(sc.w, 1.0f / 60.0f) == LB_OK);
  lb_grip_holder_c gh;
  LB_CHECK(lb_world_get(sc.w, sc.hero, LB_GRIP_HOLDER, &gh) == LB_OK);
  lb_grip_hand_status st;
  LB_CHECK(lb_world_grip_hand_status(sc.w, sc.hero, LB_HAND_RIGHT, &st) == LB_OK);
  float gap = palm_gap(&sc, &h);
  printf("  biped: %s\n  biped: palm %.2e m from the anchor, reached %d (reported %.2e m)\n",
         st.info.report, (double)gap, (int)gh.main_reached, (double)gh.main_distance);
  LB_CHECK(st.info.finger_count == 5 && st.palm_known);
  LB_CHECK(gap < 5e-4f);
  LB_CHECK(gh.main_reached);
  LB_CHECK_NEAR(gh.main_distance, gap, 1e-5);
  lb_world_destroy(h.w);
}

static void test_biped_scrambled_says_what_to_map(void) {
  lb_test_humanoid h;
  lb_test_humanoid_init(&h, LB_NAMING_MIXAMO, 0.0f);
  uint32_t asset = add_biped(&h, true);
  hold_scene sc;
  hold_init(&sc, &h, asset);
  LB_CHECK(lb_world_step(sc.w, 1.0f / 60.0f) == LB_OK);
  lb_grip_holder_c gh;
  LB_CHECK(lb_world_get(sc.w, sc.hero, LB_GRIP_HOLDER, &gh) == LB_OK);
  lb_grip_hand_status st;
  LB_CHECK(lb_world_grip_hand_status(sc.w, sc.hero, LB_HAND_RIGHT, &st) == LB_OK);
  float gap = palm_gap(&sc, &h);
  printf("  scrambled: %s\n  scrambled: hand joint %.2e m from the anchor, real palm %.1f mm, "
         "reached %d\n",
         st.info.report, (double)gh.main_distance, (double)gap * 1e3, (int)gh.main_reached);
  LB_CHECK(!gh.main_reached);
  LB_CHECK(!st.palm_known && st.info.finger_count == 0);
  LB_CHECK(gap > 0.02f); /* the palm is not on the anchor: nothing may claim it is */
  LB_CHECK(strstr(st.info.report, "missing: thumb index middle ring pinky") != NULL);
  /* The example is the right mapping here (the fingers hang off the hand in order; the
   * left hand's come first, Bone000..Bone019). */
  const char *ex = "GripPose.rightFingerRoots to the thumb,index,middle,ring,pinky roots";
  LB_CHECK(strstr(st.info.report, ex) != NULL);
  const char *want = "e.g. \"Bone020,Bone024,Bone028,Bone032,Bone036\"";
  LB_CHECK(strstr(st.info.report, want) != NULL);
  LB_CHECK(strstr(st.info.report, "considered below the hand: 'Bone020', 'Bone021'") != NULL);
  LB_CHECK(strstr(st.info.report, "a holder never reports reached") != NULL);

  /* Following the advice: reached again, palm on the anchor. */
  lb_grip_pose_c gp;
  lb_component_defaults(LB_GRIP_POSE, &gp);
  gp.right_fingers = lb_world_name(sc.w, "Bone020,Bone024,Bone028,Bone032,Bone036");
  LB_CHECK(lb_world_insert(sc.w, sc.hero, LB_GRIP_POSE, &gp) == LB_OK);
  LB_CHECK(lb_world_step(sc.w, 1.0f / 60.0f) == LB_OK);
  LB_CHECK(lb_world_get(sc.w, sc.hero, LB_GRIP_HOLDER, &gh) == LB_OK);
  gap = palm_gap(&sc, &h);
  printf("  mapped: palm %.2e m from the anchor, reached %d\n", (double)gap, (int)gh.main_reached);
  LB_CHECK(gh.main_reached && gap < 5e-4f);

  /* Five bad roots: every one is named in full (no cut), and a joint that does not exist
   * is told apart from one that is not under the hand. */
  gp.right_fingers = lb_world_name(
      sc.w, "NoSuchJointWithAVeryLongNameNumberOne_aaaaaaaaaaaaaaaaaaaaaaaaa,"
            "NoSuchJointWithAVeryLongNameNumberTwo_aaaaaaaaaaaaaaaaaaaaaaaaa,"
            "NoSuchJointWithAVeryLongNameNumberThree_aaaaaaaaaaaaaaaaaaaaaaa,"
            "NoSuchJointWithAVeryLongNameNumberFour_aaaaaaaaaaaaaaaaaaaaaaaa,Bone000");
  LB_CHECK(lb_world_set(sc.w, sc.hero, LB_GRIP_POSE, &gp) == LB_ERR_JOINT_NOT_FOUND);
  const char *err = lb_world_last_error(sc.w);
  printf("  bad roots: %zu characters\n", strlen(err));
  LB_CHECK(strstr(err, "NumberFour_aaaaaaaaaaaaaaaaaaaaaaaa': no such joint)") != NULL);
  LB_CHECK(strstr(err, "pinky (mapped joint 'Bone000' not under the hand)") != NULL);
  LB_CHECK(strlen(err) > 256);
  lb_world_destroy(h.w);
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  LB_RUN(test_found_by_name);
  LB_RUN(test_poses_agree);
  LB_RUN(test_estimate_matters);
  LB_RUN(test_wrap_agrees);
  LB_RUN(test_name_rules);
  LB_RUN(test_status_tip_estimated);
  LB_RUN(test_status_tip_from_mesh);
  LB_RUN(test_biped_holds);
  LB_RUN(test_biped_scrambled_says_what_to_map);
  LB_TEST_MAIN_END();
}
