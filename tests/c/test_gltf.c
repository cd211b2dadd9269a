/* glTF import (limber/gltf.h): a small rig built in the test (nodes with TRS and a matrix, a
 * skin listed out of depth-first order, inverse bind matrices, LINEAR/STEP/normalised-SHORT
 * channels, a sparse accessor, a channel on a node outside the skeleton) as .gltf with a
 * base64 data: URI, as a .glb built in memory and with an external buffer. Checks the
 * hierarchy, rest TRS, IBMs and sampled keys against the values written, then one mutation
 * per validation rule (expected code, message, nothing added to the world, no leak), cubic
 * resampling against the Hermite curve, and allocation failure at every allocation. */
#include "limber/limber.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

/* ---- counting allocator -------------------------------------------------------------------- */
typedef struct counter {
  size_t allocs, frees;
  long live;
  long fail_at; /* fail the n-th allocation (1-based); 0 = never */
} counter;

static void *count_alloc(size_t size, void *user) {
  counter *c = user;
  if (c->fail_at > 0 && (long)(c->allocs + 1u) == c->fail_at) {
    c->allocs++;
    c->frees++; /* a refused allocation owes no free */
    return NULL;
  }
  c->allocs++;
  c->live++;
  return malloc(size);
}
static void count_free(void *p, void *user) {
  counter *c = user;
  if (p) {
    c->frees++;
    c->live--;
  }
  free(p);
}
static lb_allocator counting(counter *c) {
  lb_allocator a = {count_alloc, count_free, c};
  return a;
}

/* ---- fixture builder ----------------------------------------------------------------------- */
#define BIN_MAX 8192
#define JSON_MAX 65536

typedef struct fixture {
  uint8_t bin[BIN_MAX];
  size_t bin_len;
  char views[4096], accessors[8192];
  int view_count, accessor_count;
  size_t offsets[64]; /* byte offset in bin of each accessor's data */
} fixture;

static void appendf(char *dst, size_t cap, const char *fmt, ...) {
  size_t n = strlen(dst);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(dst + n, cap - n, fmt, ap);
  va_end(ap);
}

/* Bytes as a new bufferView + accessor; returns the accessor index. */
static int add_accessor(fixture *f, const void *data, size_t bytes, int ctype, int count,
                        const char *type, bool normalized) {
  f->bin_len = (f->bin_len + 3u) & ~(size_t)3u;
  memcpy(f->bin + f->bin_len, data, bytes);
  appendf(f->views, sizeof f->views, "%s{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}",
          f->view_count ? "," : "", f->bin_len, bytes);
  appendf(f->accessors, sizeof f->accessors,
          "%s{\"bufferView\":%d,\"componentType\":%d,\"count\":%d,\"type\":\"%s\"%s}",
          f->accessor_count ? "," : "", f->view_count, ctype, count, type,
          normalized ? ",\"normalized\":true" : "");
  f->offsets[f->accessor_count] = f->bin_len;
  f->bin_len += bytes;
  f->view_count++;
  return f->accessor_count++;
}
static int add_floats(fixture *f, const float *v, int count, const char *type, int comps) {
  return add_accessor(f, v, sizeof(float) * (size_t)(count * comps), 5126, count, type, false);
}

/* Key data (also the expected values). */
static const float k_hips_times[3] = {0.0f, 1.0f, 2.0f};
static const float k_hips_t[9] = {0, 1, 0, 0, 1.1f, 0.2f, 0, 1, 0.4f};
static const float k_spine_times[3] = {0.0f, 0.5f, 1.5f};
static float k_spine_r[12]; /* about +Y: 0, 40, 80 degrees */
static const float k_leg_times[2] = {0.0f, 1.25f};
static const float k_leg_s[6] = {1, 1, 1, 1.5f, 1.5f, 1.5f};
static const float k_arm_times[2] = {0.0f, 2.5f};
/* The Armature channel holds its rest translation (as exporters that bake every object
 * write): it moves nothing, so the skeleton still starts at Hips. */
static const float k_arm_t[6] = {0, 0, 0, 0, 0, 0};
static const float k_head_times[2] = {0.0f, 1.0f};
static const int16_t k_head_r[8] = {0, 0, 0, 32767, 0, 0, 23170, 23170};
static const float k_node4_times[3] = {0.0f, 0.5f, 1.0f};
static const float k_ibm_scale = 0.5f;

enum { A_HIPS_T, A_HIPS_TV, A_SPINE_T, A_SPINE_RV, A_LEG_T, A_LEG_SV, A_ARM_T, A_ARM_TV };

/* The document: nodes
 *  0 Armature (90 deg about X, scale 0.01) -> 1
 *  1 Hips (0, 1, 0) -> 2, 5
 *  2 Spine (0, 0.2, 0) -> 3
 *  3 Head: matrix = R_x(90 deg) * 2, translation (0, 0.3, 0.05) -> 4
 *  4 (unnamed) (0, 0.1, 0)
 *  5 Leg (0.1, -0.05, 0), scale 1
 *  6 Mesh (skin 0), a second root
 * skin 0: joints [5, 1, 3, 2, 4] with inverse bind matrices; animations "Walk" (Hips T
 * LINEAR, Spine R LINEAR, Leg S STEP, Armature T at rest up to 2.5 s, Mesh weights) and an unnamed
 * one (Head R as normalised SHORT; node4 T from a sparse accessor with no bufferView). */
static void build(fixture *f, char *json, const char *buffers) {
  memset(f, 0, sizeof *f);
  for (int k = 0; k < 3; ++k) {
    double a = (40.0 * k) * 3.14159265358979323846 / 360.0;
    k_spine_r[4 * k + 0] = 0.0f;
    k_spine_r[4 * k + 1] = (float)sin(a);
    k_spine_r[4 * k + 2] = 0.0f;
    k_spine_r[4 * k + 3] = (float)cos(a);
  }
  add_floats(f, k_hips_times, 3, "SCALAR", 1);
  add_floats(f, k_hips_t, 3, "VEC3", 3);
  add_floats(f, k_spine_times, 3, "SCALAR", 1);
  add_floats(f, k_spine_r, 3, "VEC4", 4);
  add_floats(f, k_leg_times, 2, "SCALAR", 1);
  add_floats(f, k_leg_s, 2, "VEC3", 3);
  add_floats(f, k_arm_times, 2, "SCALAR", 1);
  add_floats(f, k_arm_t, 2, "VEC3", 3);
  int head_times = add_floats(f, k_head_times, 2, "SCALAR", 1);
  int head_r = add_accessor(f, k_head_r, sizeof k_head_r, 5122, 2, "VEC4", true);
  float ibm[5 * 16];
  memset(ibm, 0, sizeof ibm);
  for (int i = 0; i < 5; ++i) {
    for (int d = 0; d < 4; ++d) {
      ibm[16 * i + 5 * d] = d < 3 ? k_ibm_scale : 1.0f;
    }
    ibm[16 * i + 12] = -0.1f * (float)i;
    ibm[16 * i + 13] = -0.2f * (float)i;
    ibm[16 * i + 14] = -0.3f * (float)i;
  }
  int ibms = add_floats(f, ibm, 5, "MAT4", 16);
  int n4_times = add_floats(f, k_node4_times, 3, "SCALAR", 1);
  /* node4 translation: zeros except key 1 = (0, 0.25, 0) through a sparse substitution. */
  const uint8_t idx[4] = {1, 0, 0, 0};
  const float sval[3] = {0.0f, 0.25f, 0.0f};
  f->bin_len = (f->bin_len + 3u) & ~(size_t)3u;
  size_t idx_off = f->bin_len;
  memcpy(f->bin + f->bin_len, idx, 4);
  f->bin_len += 4;
  size_t val_off = f->bin_len;
  memcpy(f->bin + f->bin_len, sval, sizeof sval);
  f->bin_len += sizeof sval;
  appendf(f->views, sizeof f->views,
          ",{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":4},"
          "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12}",
          idx_off, val_off);
  int n4_t = f->accessor_count++;
  appendf(f->accessors, sizeof f->accessors,
          ",{\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"sparse\":{\"count\":1,"
          "\"indices\":{\"bufferView\":%d,\"componentType\":5121},\"values\":{\"bufferView\":%d}}}",
          f->view_count, f->view_count + 1);
  f->view_count += 2;
  json[0] = 0;
  appendf(json, JSON_MAX,
          "{\"asset\":{\"version\":\"2.0\",\"generator\":\"test_gltf\"},\"scene\":0,"
          "\"scenes\":[{\"nodes\":[0,6]}],\"nodes\":["
          "{\"name\":\"Armature\",\"rotation\":[0.70710677,0,0,0.70710677],"
          "\"scale\":[0.01,0.01,0.01],\"children\":[1]},"
          "{\"name\":\"Hips\",\"translation\":[0,1,0],\"children\":[2,5]},"
          "{\"name\":\"Spine\",\"translation\":[0,0.2,0],\"rotation\":[0,0,0,1],"
          "\"children\":[3]},"
          "{\"name\":\"Head\",\"matrix\":[2,0,0,0, 0,0,2,0, 0,-2,0,0, 0,0.3,0.05,1],"
          "\"children\":[4]},"
          "{\"translation\":[0,0.1,0]},"
          "{\"name\":\"Leg\",\"translation\":[0.1,-0.05,0],\"scale\":[1,1,1]},"
          "{\"name\":\"Mesh\",\"skin\":0}],"
          "\"skins\":[{\"joints\":[5,1,3,2,4],\"inverseBindMatrices\":%d}],"
          "\"animations\":[{\"name\":\"Walk\",\"samplers\":["
          "{\"input\":%d,\"output\":%d},"
          "{\"input\":%d,\"output\":%d,\"interpolation\":\"LINEAR\"},"
          "{\"input\":%d,\"output\":%d,\"interpolation\":\"STEP\"},"
          "{\"input\":%d,\"output\":%d}],"
          "\"channels\":["
          "{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}},"
          "{\"sampler\":1,\"target\":{\"node\":2,\"path\":\"rotation\"}},"
          "{\"sampler\":2,\"target\":{\"node\":5,\"path\":\"scale\"}},"
          "{\"sampler\":3,\"target\":{\"node\":0,\"path\":\"translation\"}},"
          "{\"sampler\":0,\"target\":{\"node\":6,\"path\":\"weights\"}}]},"
          "{\"samplers\":[{\"input\":%d,\"output\":%d},{\"input\":%d,\"output\":%d}],"
          "\"channels\":[{\"sampler\":0,\"target\":{\"node\":3,\"path\":\"rotation\"}},"
          "{\"sampler\":1,\"target\":{\"node\":4,\"path\":\"translation\"}}]}],"
          "\"accessors\":[%s],\"bufferViews\":[%s],\"buffers\":[%s]}",
          ibms, A_HIPS_T, A_HIPS_TV, A_SPINE_T, A_SPINE_RV, A_LEG_T, A_LEG_SV, A_ARM_T, A_ARM_TV,
          head_times, head_r, n4_times, n4_t, f->accessors, f->views, buffers);
}

static void base64(const uint8_t *src, size_t n, char *out) {
  static const char *abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t o = 0;
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)src[i] << 16;
    if (i + 1 < n) {
      v |= (uint32_t)src[i + 1] << 8;
    }
    if (i + 2 < n) {
      v |= src[i + 2];
    }
    out[o++] = abc[(v >> 18) & 63];
    out[o++] = abc[(v >> 12) & 63];
    out[o++] = i + 1 < n ? abc[(v >> 6) & 63] : '=';
    out[o++] = i + 2 < n ? abc[v & 63] : '=';
  }
  out[o] = 0;
}

static fixture g_fix;
static char g_json[JSON_MAX];

/* .gltf text with the buffer as a data: URI. */
static size_t make_gltf(char *out) {
  char buf[JSON_MAX];
  build(&g_fix, out, "BUFFERS");
  char *b64 = malloc(BIN_MAX * 2);
  base64(g_fix.bin, g_fix.bin_len, b64);
  snprintf(buf, sizeof buf,
           "{\"byteLength\":%zu,\"uri\":\"data:application/octet-stream;base64,%s\"}",
           g_fix.bin_len, b64);
  free(b64);
  char *at = strstr(out, "BUFFERS");
  char tail[JSON_MAX];
  snprintf(tail, sizeof tail, "%s", at + 7);
  snprintf(at, JSON_MAX - (size_t)(at - out), "%s%s", buf, tail);
  return strlen(out);
}

static void put_u32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
  p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
}

/* .glb: header, JSON chunk (space-padded), BIN chunk (zero-padded). */
static size_t make_glb(uint8_t *out) {
  char buffers[64];
  build(&g_fix, g_json, "BUFFERS");
  snprintf(buffers, sizeof buffers, "{\"byteLength\":%zu}", g_fix.bin_len);
  char *at = strstr(g_json, "BUFFERS");
  char tail[64];
  snprintf(tail, sizeof tail, "%s", at + 7);
  snprintf(at, JSON_MAX - (size_t)(at - g_json), "%s%s", buffers, tail);
  size_t jl = strlen(g_json), jp = (jl + 3u) & ~(size_t)3u;
  size_t bp = (g_fix.bin_len + 3u) & ~(size_t)3u;
  size_t total = 12 + 8 + jp + 8 + bp;
  memcpy(out, "glTF", 4);
  put_u32(out + 4, 2);
  put_u32(out + 8, (uint32_t)total);
  put_u32(out + 12, (uint32_t)jp);
  memcpy(out + 16, "JSON", 4);
  memcpy(out + 20, g_json, jl);
  memset(out + 20 + jl, ' ', jp - jl);
  size_t o = 20 + jp;
  put_u32(out + o, (uint32_t)bp);
  memcpy(out + o + 4, "BIN\0", 4);
  memcpy(out + o + 8, g_fix.bin, g_fix.bin_len);
  memset(out + o + 8 + g_fix.bin_len, 0, bp - g_fix.bin_len);
  return total;
}

static lb_result import(const void *data, size_t size, lb_gltf_def *base, lb_gltf_asset **out,
                        char *msg) {
  lb_gltf_def d = base ? *base : lb_gltf_default_def();
  d.data = data;
  d.size = size;
  return lb_gltf_import(&d, out, msg, LB_GLTF_MESSAGE_MAX);
}

/* ---- helpers ------------------------------------------------------------------------------- */
static double max_abs(const float *a, const float *b, int n) {
  double m = 0;
  for (int i = 0; i < n; ++i) {
    double d = fabs((double)a[i] - (double)b[i]);
    m = d > m ? d : m;
  }
  return m;
}
static bool same_bits(const float *a, const float *b, int n) {
  return memcmp(a, b, sizeof(float) * (size_t)n) == 0;
}

/* ---- tests --------------------------------------------------------------------------------- */

/* The fixture's Armature node (above the skeleton root): 90 degrees about X, scale 0.01. */
static lb_transform armature(void) {
  lb_transform p;
  lb_transform_identity(&p);
  p.r[0] = 0.70710677f;
  p.r[3] = 0.70710677f;
  p.s[0] = p.s[1] = p.s[2] = 0.01f;
  return p;
}

/* Hips translation key k as the rig holds it: the Armature baked in. */
static void baked_hips(int k, float out[3]) {
  lb_transform p = armature();
  lb_transform_point(&p, &k_hips_t[3 * k], out);
}

static void check_rig(const lb_gltf_asset *a, const char *what) {
  static const char *names[5] = {"Hips", "Spine", "Head", "node4", "Leg"};
  static const int parents[5] = {-1, 0, 1, 2, 0};
  static const int nodes[5] = {1, 2, 3, 4, 5};
  LB_CHECK(a->skeleton.joint_count == 5);
  for (uint32_t j = 0; j < 5 && j < a->skeleton.joint_count; ++j) {
    LB_CHECK(strcmp(a->skeleton.names[j], names[j]) == 0);
    LB_CHECK(a->skeleton.parents[j] == parents[j]);
    LB_CHECK(a->joint_nodes[j] == nodes[j]);
  }
  /* skin joints [5, 1, 3, 2, 4] → skeleton indices */
  static const uint16_t sj[5] = {4, 0, 2, 1, 3};
  LB_CHECK(a->skin_index == 0 && a->skin_joint_count == 5);
  for (int i = 0; i < 5; ++i) {
    LB_CHECK(a->skin_joints[i] == sj[i]);
    LB_CHECK(a->inverse_bind[i][0][0] == k_ibm_scale && a->inverse_bind[i][3][3] == 1.0f);
    LB_CHECK(a->inverse_bind[i][3][0] == -0.1f * (float)i);
    LB_CHECK(a->inverse_bind[i][3][2] == -0.3f * (float)i);
  }
  /* TRS nodes: bit-exact; the matrix node decomposed. */
  const lb_transform *r = a->skeleton.rest;
  /* The root carries the Armature: Hips at file (0, 1, 0) under a 90-degree X turn and
   * scale 0.01 is at (0, 0, 0.01) in scene space, turned and scaled with it. */
  lb_transform arm = armature();
  LB_CHECK(r[0].t[0] == 0.0f && fabsf(r[0].t[1]) < 1e-8f && fabsf(r[0].t[2] - 0.01f) < 1e-8f);
  LB_CHECK(memcmp(r[0].r, arm.r, sizeof arm.r) == 0 && r[0].s[0] == 0.01f);
  LB_CHECK(r[1].t[1] == 0.2f && r[4].t[0] == 0.1f && r[4].t[1] == -0.05f);
  const float head_q[4] = {0.70710678f, 0, 0, 0.70710678f};
  const float head_t[3] = {0, 0.3f, 0.05f}, head_s[3] = {2, 2, 2};
  double eq = max_abs(r[2].r, head_q, 4), et = max_abs(r[2].t, head_t, 3),
         es = max_abs(r[2].s, head_s, 3);
  printf("%s: matrix node decomposed: rotation error %.2e, translation %.2e m, scale %.2e\n", what,
         eq, et, es);
  LB_CHECK(eq < 1e-7 && et == 0.0 && es == 0.0);
  /* root_parent = Armature TRS */
  LB_CHECK_NEAR(a->root_parent.r[0], 0.70710677f, 0);
  LB_CHECK_NEAR(a->root_parent.s[1], 0.01f, 0);
  /* clips */
  LB_CHECK(a->clip_count == 2);
  LB_CHECK(strcmp(a->clips[0].name, "Walk") == 0 && strcmp(a->clips[1].name, "animation_1") == 0);
  const lb_clip *walk = &a->clips[0].clip;
  LB_CHECK(walk->duration ==
           2.5f); /* the Armature channel (at rest, outside the skeleton) counts */
  LB_CHECK(walk->joint_count == 5);
  LB_CHECK(walk->joints[0].translation.count == 3 && walk->joints[1].rotation.count == 3);
  LB_CHECK(walk->joints[4].scale.count == 2 && walk->joints[4].scale.interp == LB_INTERP_STEP);
  LB_CHECK(walk->joints[0].rotation.count == 0 && walk->joints[2].translation.count == 0);
  float hips[9];
  for (int k = 0; k < 3; ++k) {
    baked_hips(k, &hips[3 * k]);
  }
  LB_CHECK(same_bits(walk->joints[0].translation.values, hips, 9));
  LB_CHECK(same_bits(walk->joints[1].rotation.values, k_spine_r, 12));
  LB_CHECK(same_bits(walk->joints[0].translation.times, k_hips_times, 3));
  const lb_clip *c1 = &a->clips[1].clip;
  LB_CHECK(c1->duration == 1.0f);
  /* normalised SHORT rotation, decoded (c / 32767) and normalised */
  const float *hq = c1->joints[2].rotation.values;
  double n1 = sqrt((double)hq[4] * hq[4] + (double)hq[5] * hq[5] + (double)hq[6] * hq[6] +
                   (double)hq[7] * hq[7]);
  LB_CHECK(hq[3] == 1.0f && hq[2] == 0.0f);
  LB_CHECK_NEAR(hq[6], 0.70710678, 1e-7);
  LB_CHECK_NEAR(n1, 1.0, 1e-7);
  /* sparse accessor: zeros except key 1 */
  const float *n4 = c1->joints[3].translation.values;
  LB_CHECK(c1->joints[3].translation.count == 3);
  LB_CHECK(n4[0] == 0 && n4[1] == 0 && n4[4] == 0.25f && n4[7] == 0.0f);
}

static void test_gltf_data_uri(void) {
  static char text[JSON_MAX];
  size_t n = make_gltf(text);
  counter cnt = {0};
  lb_gltf_def d = lb_gltf_default_def();
  d.allocator = counting(&cnt);
  lb_gltf_asset *a = NULL;
  char msg[LB_GLTF_MESSAGE_MAX];
  lb_result r = import(text, n, &d, &a, msg);
  LB_CHECK(r == LB_OK);
  if (r != LB_OK) {
    fprintf(stderr, "import: %s\n", msg);
    return;
  }
  check_rig(a, ".gltf");
  lb_gltf_free(a);
  printf(".gltf (%zu bytes, data: URI): %zu allocations, %zu frees\n", n, cnt.allocs, cnt.frees);
  LB_CHECK(cnt.allocs > 0 && cnt.allocs == cnt.frees && cnt.live == 0);
}

static void test_glb(void) {
  static uint8_t glb[JSON_MAX];
  size_t n = make_glb(glb);
  counter cnt = {0};
  lb_gltf_def d = lb_gltf_default_def();
  d.allocator = counting(&cnt);
  lb_gltf_asset *a = NULL;
  char msg[LB_GLTF_MESSAGE_MAX];
  lb_result r = import(glb, n, &d, &a, msg);
  LB_CHECK(r == LB_OK);
  if (r != LB_OK) {
    fprintf(stderr, "import: %s\n", msg);
    return;
  }
  check_rig(a, ".glb");
  lb_gltf_free(a);
  LB_CHECK(cnt.allocs == cnt.frees && cnt.live == 0);
}

static void test_external_buffer_and_bom(void) {
  static char text[JSON_MAX + 3];
  memcpy(text, "\xEF\xBB\xBF \n", 5);
  build(&g_fix, text + 5, "{\"byteLength\":BYTES,\"uri\":\"rig.bin\"}");
  char *at = strstr(text, "BYTES");
  char num[16];
  int len = snprintf(num, sizeof num, "%zu", g_fix.bin_len);
  memmove(at + len, at + 5, strlen(at + 5) + 1);
  memcpy(at, num, (size_t)len);
  lb_gltf_def d = lb_gltf_default_def();
  lb_gltf_asset *a = NULL;
  char msg[LB_GLTF_MESSAGE_MAX];
  LB_CHECK(import(text, strlen(text), &d, &a, msg) == LB_ERR_UNKNOWN_NAME && a == NULL);
  LB_CHECK(strstr(msg, "buffer 0: external uri 'rig.bin'") != NULL);
  printf("missing external buffer: %s\n", msg);
  lb_gltf_buffer ext = {"rig.bin", g_fix.bin, g_fix.bin_len - 1};
  d.buffers = &ext;
  d.buffer_count = 1;
  LB_CHECK(import(text, strlen(text), &d, &a, msg) == LB_ERR_PARSE); /* one byte short */
  ext.size = g_fix.bin_len;
  LB_CHECK(import(text, strlen(text), &d, &a, msg) == LB_OK);
  if (a) {
    check_rig(a, "external buffer");
  }
  lb_gltf_free(a);
}

static void test_no_skin_all_nodes(void) {
  static char text[JSON_MAX];
  size_t n = make_gltf(text);
  lb_gltf_def d = lb_gltf_default_def();
  d.skin = LB_GLTF_ALL_NODES;
  lb_gltf_asset *a = NULL;
  char msg[LB_GLTF_MESSAGE_MAX];
  LB_CHECK(import(text, n, &d, &a, msg) == LB_OK);
  if (!a) {
    return;
  }
  static const char *names[7] = {"Armature", "Hips", "Spine", "Head", "node4", "Leg", "Mesh"};
  static const int parents[7] = {-1, 0, 1, 2, 3, 1, -1};
  LB_CHECK(a->skeleton.joint_count == 7 && a->skin_index == -1 && a->skin_joint_count == 0);
  for (uint32_t j = 0; j < 7 && j < a->skeleton.joint_count; ++j) {
    LB_CHECK(strcmp(a->skeleton.names[j], names[j]) == 0);
    LB_CHECK(a->skeleton.parents[j] == parents[j]);
  }
  LB_CHECK(a->root_parent.r[3] == 1.0f && a->root_parent.s[0] == 1.0f);
  /* The Armature channel now has a joint. */
  LB_CHECK(a->clips[0].clip.joints[0].translation.count == 2);
  lb_gltf_free(a);
}

/* The world keeps the skeleton and clips; sampling at keys returns the file's values. */
static void test_world_add_and_sample(void) {
  static uint8_t glb[JSON_MAX];
  size_t n = make_glb(glb);
  counter cnt = {0};
  lb_world_def wd = lb_world_default_def();
  wd.allocator = counting(&cnt);
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(&wd, &w) == LB_OK);
  lb_gltf_def d = lb_gltf_default_def();
  d.data = glb;
  d.size = n;
  lb_gltf_added added = {0};
  LB_CHECK(lb_world_add_gltf(w, &d, &added) == LB_OK);
  LB_CHECK(added.skeleton == 1 && added.first_clip == 1 && added.clip_count == 2);
  LB_CHECK(lb_skeleton_joint_count(w, added.skeleton) == 5);
  LB_CHECK(strcmp(lb_skeleton_joint_name(w, added.skeleton, 2), "Head") == 0);
  LB_CHECK(lb_skeleton_find_joint(w, added.skeleton, "Hips/Spine/Head/node4") == 3);
  LB_CHECK(lb_world_find_clip(w, 0, "Walk") == 1 && lb_world_find_clip(w, 1, "animation_1") == 2);
  /* the name unnamed animations had before (deprecated) still finds the clip */
  LB_CHECK(lb_world_find_clip(w, 1, "animation1") == 2 &&
           lb_world_find_clip(w, 1, "animation7") == 0);
  LB_CHECK(lb_world_find_clip(w, 1, "animation") == 0 &&
           lb_world_find_clip(w, 1, "animation1x") == 0);
  /* the skin order, as skeleton joints */
  uint32_t skin_n = 0;
  const uint16_t *skin = lb_skeleton_skin_joints(w, added.skeleton, &skin_n);
  LB_CHECK(skin_n == 5 && skin && skin[0] == 4 && skin[1] == 0 && skin[2] == 2 && skin[3] == 1 &&
           skin[4] == 3);
  LB_CHECK(lb_world_find_clip(w, 2, "Walk") == 0 && lb_world_find_clip(w, 0, "Run") == 0);
  LB_CHECK(lb_world_clip_skeleton(w, 2) == 1 && lb_world_clip_count(w) == 2);
  LB_CHECK(strcmp(lb_world_clip_name(w, 1), "Walk") == 0 && lb_world_clip(w, 3) == NULL);
  uint32_t rc = 0;
  const lb_transform *rest = lb_world_skeleton_rest(w, 1, &rc);
  LB_CHECK(rest && rc == 5);
  lb_transform pose[5];
  /* At key times: bit-equal to the keys (LINEAR and STEP); other channels keep rest. */
  double worst_key = 0, worst_mid = 0;
  for (int k = 0; k < 3; ++k) {
    LB_CHECK(lb_world_sample_clip(w, 1, k_hips_times[k], false, pose, 5) == LB_OK);
    float hips[3];
    baked_hips(k, hips);
    LB_CHECK(same_bits(pose[0].t, hips, 3));
    worst_key = fmax(worst_key, max_abs(pose[0].t, hips, 3));
    LB_CHECK(lb_world_sample_clip(w, 1, k_spine_times[k], false, pose, 5) == LB_OK);
    LB_CHECK(same_bits(pose[1].r, &k_spine_r[4 * k], 4));
    LB_CHECK(same_bits(pose[1].t, rest[1].t, 3));
  }
  /* LINEAR midpoint of the Hips translation; STEP holds the first key until 1.25 s. */
  LB_CHECK(lb_world_sample_clip(w, 1, 0.5f, false, pose, 5) == LB_OK);
  const float file_mid[3] = {0.0f, 1.05f, 0.1f};
  lb_transform arm = armature();
  float mid[3];
  lb_transform_point(&arm, file_mid, mid);
  worst_mid = max_abs(pose[0].t, mid, 3);
  LB_CHECK(worst_mid < 1e-6);
  LB_CHECK(pose[4].s[0] == 1.0f);
  LB_CHECK(lb_world_sample_clip(w, 1, 1.2499f, false, pose, 5) == LB_OK && pose[4].s[1] == 1.0f);
  LB_CHECK(lb_world_sample_clip(w, 1, 1.25f, false, pose, 5) == LB_OK && pose[4].s[1] == 1.5f);
  LB_CHECK(lb_world_sample_clip(w, 1, 2.4f, false, pose, 5) == LB_OK && pose[4].s[2] == 1.5f);
  /* Spine at 1.0 s: halfway between 40 and 80 degrees about Y = 60 degrees. */
  LB_CHECK(lb_world_sample_clip(w, 1, 1.0f, false, pose, 5) == LB_OK);
  double ey = fabs(pose[1].r[1] - sin(60.0 * 3.14159265358979323846 / 360.0));
  printf("sampling: keys bit-exact (max %.1e), LINEAR midpoint error %.2e m, slerp midpoint "
         "error %.2e\n",
         worst_key, worst_mid, ey);
  LB_CHECK(ey < 1e-6);
  /* Bad sampling calls name the clip. */
  LB_CHECK(lb_world_sample_clip(w, 1, NAN, false, pose, 5) == LB_ERR_NOT_FINITE);
  LB_CHECK(strstr(lb_world_last_error(w), "'Walk'") != NULL);
  LB_CHECK(lb_world_sample_clip(w, 1, 0.0f, false, pose, 4) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_world_sample_clip(w, 9, 0.0f, false, pose, 5) == LB_ERR_INVALID_ARGUMENT);
  /* A second import adds a second skeleton; names may repeat across skeletons. */
  LB_CHECK(lb_world_add_gltf(w, &d, &added) == LB_OK);
  LB_CHECK(added.skeleton == 2 && added.first_clip == 3);
  LB_CHECK(lb_world_find_clip(w, 2, "Walk") == 3 && lb_world_find_clip(w, 0, "Walk") == 1);
  /* lb_world_add_clip copies a caller's clip. */
  uint32_t h = 0;
  LB_CHECK(lb_world_add_clip(w, "copy", 1, lb_world_clip(w, 1), &h) == LB_OK && h == 5);
  LB_CHECK(lb_world_add_clip(w, "", 1, lb_world_clip(w, 1), &h) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_world_add_clip(w, "x", 7, lb_world_clip(w, 1), &h) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_world_clip_count(w) == 5);
  lb_world_destroy(w);
  printf("world with 2 glTF rigs and 5 clips: %zu allocations, %zu frees\n", cnt.allocs, cnt.frees);
  LB_CHECK(cnt.allocs == cnt.frees && cnt.live == 0);
}

/* ---- bad input ----------------------------------------------------------------------------- */

/* Replaces the first `from` in src with `to` into dst; false if absent. */
static bool replace(const char *src, const char *from, const char *to, char *dst, size_t cap) {
  const char *at = strstr(src, from);
  if (!at) {
    return false;
  }
  snprintf(dst, cap, "%.*s%s%s", (int)(at - src), src, to, at + strlen(from));
  return true;
}

typedef struct mutation {
  const char *from, *to;
  lb_result code;
  const char *message; /* substring expected in the message */
} mutation;

/* Imports `bytes` into a world: expects `code`, the message, nothing added and no leak. */
static void expect_failure(const void *bytes, size_t n, const lb_gltf_def *base, lb_result code,
                           const char *message, const char *label) {
  counter cnt = {0};
  lb_world_def wd = lb_world_default_def();
  wd.allocator = counting(&cnt);
  lb_world *w = NULL;
  lb_world_create(&wd, &w);
  lb_gltf_def d = base ? *base : lb_gltf_default_def();
  d.data = bytes;
  d.size = n;
  lb_gltf_added added = {7, 7, 7};
  lb_result r = lb_world_add_gltf(w, &d, &added);
  const char *err = lb_world_last_error(w);
  bool ok = r == code && strstr(err, message) != NULL;
  if (!ok) {
    fprintf(stderr, "%s: got %s '%s', expected %s '%s'\n", label, lb_result_name(r), err,
            lb_result_name(code), message);
  }
  LB_CHECK(ok);
  LB_CHECK(added.skeleton == 7); /* out untouched */
  LB_CHECK(lb_skeleton_joint_count(w, 1) == 0 && lb_world_clip_count(w) == 0);
  printf("  %-34s -> %s\n", label, err);
  lb_world_destroy(w);
  LB_CHECK(cnt.allocs == cnt.frees && cnt.live == 0);
}

static void test_bad_json(void) {
  static char text[JSON_MAX], bad[JSON_MAX];
  make_gltf(text);
  static const mutation cases[] = {
      {"\"version\":\"2.0\"", "\"version\":\"1.0\"", LB_ERR_PARSE, "only 2.x"},
      {"\"scene\":0,", "\"scene\":0,,", LB_ERR_PARSE, "malformed JSON near byte"},
      {"\"nodes\":[{\"name\":\"Armature\"", "\"nodes\":7,\"x\":[{\"name\":\"Armature\"",
       LB_ERR_PARSE, "'nodes' is not an array"},
      /* accessor bounds and indices */
      {"\"byteOffset\":12,\"byteLength\":36", "\"byteOffset\":12,\"byteLength\":99999",
       LB_ERR_PARSE, "bufferView 1: byteOffset 12 + byteLength 99999 exceeds buffer 0"},
      {"{\"bufferView\":1,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}",
       "{\"bufferView\":1,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"byteOffset\":4}",
       LB_ERR_PARSE,
       "accessor 1 (animation 0 'Walk' channel 0 (node 1 'Hips' translation) "
       "output): offset + size exceeds bufferView 1"},
      {"{\"input\":0,\"output\":1}", "{\"input\":0,\"output\":99}", LB_ERR_PARSE,
       "'output' = 99 is not an index below"},
      {"{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"SCALAR\"}",
       "{\"bufferView\":0,\"componentType\":5123,\"count\":3,\"type\":\"SCALAR\"}", LB_ERR_PARSE,
       "SCALAR FLOAT expected"},
      {"{\"bufferView\":3,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"}",
       "{\"bufferView\":3,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"}", LB_ERR_PARSE,
       "VEC4 of FLOAT or normalized"},
      {"{\"bufferView\":1,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}",
       "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}", LB_ERR_PARSE,
       "2 elements, expected 3"},
      {"\"componentType\":5122,\"count\":2,\"type\":\"VEC4\",\"normalized\":true",
       "\"componentType\":5122,\"count\":2,\"type\":\"VEC4\"", LB_ERR_PARSE,
       "VEC4 of FLOAT or normalized"},
      {"\"inverseBindMatrices\":10", "\"inverseBindMatrices\":0", LB_ERR_PARSE,
       "MAT4 of FLOAT expected"},
      /* hierarchy */
      {"{\"translation\":[0,0.1,0]}", "{\"translation\":[0,0.1,0],\"children\":[2]}", LB_ERR_PARSE,
       "node 2 'Spine' has two parents: node 1 and node 4"},
      {"{\"name\":\"Mesh\",\"skin\":0}",
       "{\"name\":\"Mesh\",\"skin\":0},"
       "{\"name\":\"A\",\"children\":[8]},"
       "{\"name\":\"B\",\"children\":[7]}",
       LB_ERR_CYCLE, "cycle in the node hierarchy through node 7 'A'"},
      {"{\"name\":\"Leg\",", "{\"children\":[5],\"name\":\"Leg\",", LB_ERR_CYCLE,
       "node 5 'Leg' is its own child"},
      {"\"joints\":[5,1,3,2,4]", "\"joints\":[5,1,3,2,4,6]", LB_ERR_PARSE,
       "joints do not form one tree"},
      {"\"joints\":[5,1,3,2,4]", "\"joints\":[5,1,3,2,4,1]", LB_ERR_PARSE, "listed twice"},
      {"\"joints\":[5,1,3,2,4]", "\"joints\":[5,1,3,2,9]", LB_ERR_PARSE, "joints[4]"},
      /* values */
      {"\"translation\":[0,1,0]", "\"translation\":[0,1e39,0]", LB_ERR_NOT_FINITE,
       "node 1 'Hips': 'translation'[1] = 1e+39 is not a finite float"},
      {"\"translation\":[0,0.2,0],\"rotation\":[0,0,0,1]",
       "\"translation\":[0,0.2,0],\"rotation\":[0,0,0,0.5]", LB_ERR_OUT_OF_RANGE,
       "node 2 'Spine': 'rotation' is not a unit quaternion"},
      {"\"translation\":[0,0.2,0],\"rotation\":[0,0,0,1]",
       "\"translation\":[0,0.2,0],\"rotation\":[0,0,0,0]", LB_ERR_DEGENERATE, "zero quaternion"},
      {"\"scale\":[1,1,1]", "\"scale\":[1,-1,1]", LB_ERR_OUT_OF_RANGE, "node 5 'Leg': 'scale'"},
      {"[2,0,0,0, 0,0,2,0, 0,-2,0,0,", "[-2,0,0,0, 0,0,2,0, 0,-2,0,0,", LB_ERR_DEGENERATE,
       "node 3 'Head': 'matrix' mirrors"},
      {"[2,0,0,0, 0,0,2,0, 0,-2,0,0,", "[0,0,0,0, 0,0,2,0, 0,-2,0,0,", LB_ERR_DEGENERATE,
       "singular"},
      /* names */
      {"\"name\":\"Leg\"",
       "\"name\":\"A_very_long_joint_name_that_goes_on_and_on_past_sixty_three_bytes\"",
       LB_ERR_OUT_OF_RANGE, "node 5: name"},
      /* animations */
      {"\"interpolation\":\"LINEAR\"", "\"interpolation\":\"CUBICSPLINE\"", LB_ERR_PARSE,
       "(animation 0 'Walk' channel 1 (node 2 'Spine' rotation) output): 3 elements, expected 9 "
       "(3 keys x 3 for CUBICSPLINE)"},
      {"\"interpolation\":\"STEP\"", "\"interpolation\":\"SMOOTH\"", LB_ERR_PARSE,
       "'interpolation' is not LINEAR"},
      {"{\"sampler\":2,\"target\":{\"node\":5,\"path\":\"scale\"}}",
       "{\"sampler\":2,\"target\":{\"node\":1,\"path\":\"translation\"}}", LB_ERR_INVALID_ARGUMENT,
       "a second channel for the same node and path"},
      {"\"path\":\"scale\"", "\"path\":\"size\"", LB_ERR_PARSE, "target 'path'"},
      {"\"channels\":[{\"sampler\":0,\"target\":{\"node\":3",
       "\"channels\":[],\"x\":[{\"s\":0,"
       "\"target\":{\"node\":3",
       LB_ERR_PARSE, "animation 1 'animation_1': 'channels' must be a non-empty array"},
      {"\"count\":3,\"type\":\"VEC3\",\"sparse\"", "\"count\":3000000,\"type\":\"VEC3\",\"sparse\"",
       LB_ERR_CAPACITY,
       "accessor 12 (animation 1 'animation_1' channel 1 (node 4 translation) "
       "output): 3000000 elements without a bufferView (limit 1048576)"},
      /* buffers */
      {"base64,", "base64,*", LB_ERR_PARSE, "not base64"},
      {";base64,", ",", LB_ERR_PARSE, "data URI is not base64"},
  };
  printf("bad .gltf inputs:\n");
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    bool found = replace(text, cases[i].from, cases[i].to, bad, sizeof bad);
    if (!found) {
      fprintf(stderr, "mutation %zu: pattern '%s' not in the fixture\n", i, cases[i].from);
    }
    LB_CHECK(found);
    char label[48];
    snprintf(label, sizeof label, "mutation %zu", i);
    expect_failure(bad, strlen(bad), NULL, cases[i].code, cases[i].message, label);
  }
  /* Duplicate names: suffixed by default, an error on request. */
  LB_CHECK(replace(text, "\"name\":\"Leg\"", "\"name\":\"Spine\"", bad, sizeof bad));
  lb_gltf_asset *a = NULL;
  char msg[LB_GLTF_MESSAGE_MAX];
  LB_CHECK(import(bad, strlen(bad), NULL, &a, msg) == LB_OK);
  LB_CHECK(a && strcmp(a->skeleton.names[4], "Spine_1") == 0);
  lb_gltf_free(a);
  lb_gltf_def d = lb_gltf_default_def();
  d.names = LB_GLTF_NAMES_ERROR;
  expect_failure(bad, strlen(bad), &d, LB_ERR_INVALID_ARGUMENT,
                 "node 2 and node 5 are both named 'Spine'", "duplicate names (error)");
  /* '/' in a name becomes '_' */
  LB_CHECK(replace(text, "\"name\":\"Leg\"", "\"name\":\"L/eg\"", bad, sizeof bad));
  LB_CHECK(import(bad, strlen(bad), NULL, &a, msg) == LB_OK);
  LB_CHECK(a && strcmp(a->skeleton.names[4], "L_eg") == 0);
  lb_gltf_free(a);
  /* Def errors. */
  d = lb_gltf_default_def();
  d.skin = 3;
  expect_failure(text, strlen(text), &d, LB_ERR_INVALID_ARGUMENT, "def.skin = 3",
                 "skin out of range");
  d = lb_gltf_default_def();
  d.cubic_tolerance = -1.0f;
  expect_failure(text, strlen(text), &d, LB_ERR_OUT_OF_RANGE, "cubic_tolerance", "bad tolerance");
  LB_CHECK(lb_gltf_import(NULL, &a, msg, sizeof msg) == LB_ERR_INVALID_ARGUMENT);
  d = lb_gltf_default_def();
  LB_CHECK(lb_gltf_import(&d, &a, msg, sizeof msg) == LB_ERR_INVALID_ARGUMENT && a == NULL);
}

/* Binary mutations: key data and the GLB container. */
static void test_bad_binary(void) {
  static uint8_t glb[JSON_MAX], bad[JSON_MAX];
  size_t n = make_glb(glb);
  size_t json_len = glb[12] | (glb[13] << 8);
  size_t bin_at = 20 + json_len + 8;
  printf("bad .glb inputs:\n");
  /* NaN key time, time going back, NaN in a rotation. */
  memcpy(bad, glb, n);
  const float nan = NAN, back = 0.25f, inf = INFINITY;
  memcpy(bad + bin_at + g_fix.offsets[A_HIPS_T] + 4, &nan, 4);
  expect_failure(bad, n, NULL, LB_ERR_NOT_FINITE, "accessor 0 (animation 0 'Walk' channel 0",
                 "NaN key time");
  memcpy(bad, glb, n);
  memcpy(bad + bin_at + g_fix.offsets[A_SPINE_T] + 8, &back, 4);
  expect_failure(bad, n, NULL, LB_ERR_OUT_OF_RANGE,
                 "channel 1 (node 2 'Spine' rotation): key times not increasing at key 2",
                 "times going back");
  memcpy(bad, glb, n);
  memcpy(bad + bin_at + g_fix.offsets[A_SPINE_RV] + 20, &inf, 4);
  expect_failure(bad, n, NULL, LB_ERR_NOT_FINITE, "element 1 component 1 is infinite",
                 "Inf rotation key");
  memcpy(bad, glb, n);
  memcpy(bad + bin_at + g_fix.offsets[A_SPINE_RV] + 16, &back, 4);
  expect_failure(bad, n, NULL, LB_ERR_OUT_OF_RANGE, "rotation key 1 is not a unit quaternion",
                 "non-unit rotation key");
  /* Container. */
  memcpy(bad, glb, n);
  bad[0] = 'x';
  expect_failure(bad, n, NULL, LB_ERR_PARSE, "neither the GLB magic", "wrong magic");
  memcpy(bad, glb, n);
  bad[4] = 1;
  expect_failure(bad, n, NULL, LB_ERR_PARSE, "glb: version 1", "wrong version");
  expect_failure(glb, n - 4, NULL, LB_ERR_PARSE, "truncated: the header says", "truncated file");
  expect_failure(glb, 10, NULL, LB_ERR_PARSE, "the header needs 12", "truncated header");
  memcpy(bad, glb, n);
  put_u32(bad + 12, (uint32_t)n);
  expect_failure(bad, n, NULL, LB_ERR_PARSE, "chunk 0 (JSON) length", "JSON chunk too long");
  memcpy(bad, glb, n);
  put_u32(bad + bin_at - 8, 1u << 20);
  expect_failure(bad, n, NULL, LB_ERR_PARSE, "chunk 1 (BIN) length", "BIN chunk too long");
  memcpy(bad, glb, n);
  memcpy(bad + 16, "JSOX", 4);
  expect_failure(bad, n, NULL, LB_ERR_PARSE, "chunk 0 is not JSON", "first chunk not JSON");
  /* No BIN chunk: the header and size shrink to the JSON chunk alone. */
  memcpy(bad, glb, 20 + json_len);
  put_u32(bad + 8, (uint32_t)(20 + json_len));
  expect_failure(bad, 20 + json_len, NULL, LB_ERR_PARSE, "no GLB BIN chunk", "missing BIN");
  memcpy(bad, glb, n);
  put_u32(bad + bin_at - 8, (uint32_t)(g_fix.bin_len - 40));
  put_u32(bad + 8, (uint32_t)(n - 40));
  expect_failure(bad, n - 40, NULL, LB_ERR_PARSE, "exceeds the BIN chunk", "short BIN");
  expect_failure("", 1, NULL, LB_ERR_PARSE, "neither", "one byte");
}

/* Every single allocation failing in turn gives LB_ERR_OUT_OF_MEMORY and leaks nothing. */
static void test_allocation_failures(void) {
  static char text[JSON_MAX];
  size_t n = make_gltf(text);
  counter probe = {0};
  lb_gltf_def d = lb_gltf_default_def();
  d.allocator = counting(&probe);
  lb_gltf_asset *a = NULL;
  char msg[LB_GLTF_MESSAGE_MAX];
  LB_CHECK(import(text, n, &d, &a, msg) == LB_OK);
  lb_gltf_free(a);
  size_t total = probe.allocs;
  int failures = 0;
  for (long k = 1; k <= (long)total; ++k) {
    counter c = {0};
    c.fail_at = k;
    d.allocator = counting(&c);
    a = NULL;
    lb_result r = import(text, n, &d, &a, msg);
    failures += r == LB_ERR_OUT_OF_MEMORY;
    LB_CHECK(r == LB_ERR_OUT_OF_MEMORY && a == NULL);
    LB_CHECK(c.live == 0);
  }
  printf("import: allocation failure at each of %zu allocations: %d x LB_ERR_OUT_OF_MEMORY, 0 "
         "leaks\n",
         total, failures);
  /* The same through a world: every failing allocation leaves the world without the rig. */
  lb_world_def wd = lb_world_default_def();
  lb_world *w = NULL;
  lb_gltf_def gd = lb_gltf_default_def();
  gd.data = (const uint8_t *)text;
  gd.size = n;
  lb_gltf_added added;
  size_t per_add = 0;
  {
    counter c2 = {0};
    wd.allocator = counting(&c2);
    LB_CHECK(lb_world_create(&wd, &w) == LB_OK);
    size_t before = c2.allocs;
    LB_CHECK(lb_world_add_gltf(w, &gd, &added) == LB_OK);
    per_add = c2.allocs - before;
    lb_world_destroy(w);
  }
  int world_failures = 0;
  for (size_t k = 1; k <= per_add; ++k) {
    counter c3 = {0};
    wd.allocator = counting(&c3);
    LB_CHECK(lb_world_create(&wd, &w) == LB_OK);
    c3.fail_at = (long)(c3.allocs + k);
    lb_result r = lb_world_add_gltf(w, &gd, &added);
    world_failures += r == LB_ERR_OUT_OF_MEMORY;
    LB_CHECK(r == LB_ERR_OUT_OF_MEMORY);
    LB_CHECK(lb_skeleton_joint_count(w, 1) == 0 && lb_world_clip_count(w) == 0);
    c3.fail_at = 0;
    LB_CHECK(lb_world_add_gltf(w, &gd, &added) == LB_OK && added.skeleton == 1 &&
             added.first_clip == 1); /* and the world still works */
    lb_world_destroy(w);
    LB_CHECK(c3.live == 0);
  }
  printf("lb_world_add_gltf: allocation failure at each of %zu allocations: %d x "
         "LB_ERR_OUT_OF_MEMORY, world unchanged, 0 leaks\n",
         per_add, world_failures);
}

/* CUBICSPLINE: resampled within the tolerance, by default LB_GLTF_CUBIC_TOLERANCE; each clip
 * reports the tracks, the tolerance and the deviation measured. */
static void test_cubic(void) {
  fixture f;
  memset(&f, 0, sizeof f);
  const float times[3] = {0.0f, 0.8f, 2.0f};
  /* per key: in-tangent, value, out-tangent (VEC3) */
  const float tv[27] = {0,  0, 0, 0, 0,    0, 1,  2, 0,  /* key 0 */
                        -1, 0, 3, 1, 0.5f, 0, -1, 0, 3,  /* key 1 */
                        0,  0, 0, 0, 1,    0, 0,  0, 0}; /* key 2 */
  float rv[36];                                          /* rotations about Z */
  const double ang[3] = {0.0, 1.2, 2.0};
  const double dang[3] = {0.5, 2.0, -1.0}; /* rad/s */
  for (int k = 0; k < 3; ++k) {
    double h = ang[k] / 2, dh = dang[k] / 2;
    float q[4] = {0, 0, (float)sin(h), (float)cos(h)};
    float dq[4] = {0, 0, (float)(cos(h) * dh), (float)(-sin(h) * dh)};
    for (int c = 0; c < 4; ++c) {
      rv[12 * k + c] = dq[c];
      rv[12 * k + 4 + c] = q[c];
      rv[12 * k + 8 + c] = dq[c];
    }
  }
  int at = add_floats(&f, times, 3, "SCALAR", 1);
  int av = add_floats(&f, tv, 9, "VEC3", 3);
  int ar = add_floats(&f, rv, 9, "VEC4", 4);
  static char text[JSON_MAX];
  char *b64 = malloc(BIN_MAX * 2);
  base64(f.bin, f.bin_len, b64);
  snprintf(text, sizeof text,
           "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"a\"}],"
           "\"animations\":[{\"name\":\"curve\",\"samplers\":["
           "{\"input\":%d,\"output\":%d,\"interpolation\":\"CUBICSPLINE\"},"
           "{\"input\":%d,\"output\":%d,\"interpolation\":\"CUBICSPLINE\"}],"
           "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}},"
           "{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"rotation\"}}]}],"
           "\"accessors\":[%s],\"bufferViews\":[%s],\"buffers\":[{\"byteLength\":%zu,"
           "\"uri\":\"data:application/octet-stream;base64,%s\"}]}",
           at, av, at, ar, f.accessors, f.views, f.bin_len, b64);
  free(b64);
  const float tols[3] = {1e-3f, 1e-5f, 0.0f}; /* 0: the default */
  for (int ti = 0; ti < 3; ++ti) {
    lb_gltf_def d = lb_gltf_default_def();
    d.cubic_tolerance = tols[ti];
    float tol = tols[ti] > 0.0f ? tols[ti] : LB_GLTF_CUBIC_TOLERANCE;
    lb_gltf_asset *a = NULL;
    char msg[LB_GLTF_MESSAGE_MAX];
    LB_CHECK(import(text, strlen(text), &d, &a, msg) == LB_OK);
    if (!a) {
      fprintf(stderr, "%s\n", msg);
      return;
    }
    const lb_clip *clip = &a->clips[0].clip;
    LB_CHECK(clip->joints[0].translation.interp == LB_INTERP_LINEAR);
    /* Against the Hermite curve in double at 2001 times. */
    double worst_t = 0, worst_r = 0;
    lb_transform rest, out;
    lb_transform_identity(&rest);
    for (int i = 0; i <= 2000; ++i) {
      float t = 2.0f * (float)i / 2000.0f;
      lb_sample_job job = {0};
      job.clip = clip;
      job.time = t;
      job.rest = &rest;
      job.joint_count = 1;
      job.output = &out;
      LB_CHECK(lb_sample_job_run(&job) == LB_OK);
      int k = t < times[1] ? 0 : 1;
      double td = (double)times[k + 1] - times[k], u = (t - times[k]) / td;
      double u2 = u * u, u3 = u2 * u;
      double s2 = -2 * u3 + 3 * u2, s3 = u3 - u2, s0 = 1 - s2, s1 = s3 - u2 + u;
      double q[4], qn = 0;
      for (int c = 0; c < 3; ++c) {
        double p0 = tv[9 * k + 3 + c], m0 = tv[9 * k + 6 + c] * td;
        double p1 = tv[9 * (k + 1) + 3 + c], m1 = tv[9 * (k + 1) + c] * td;
        worst_t = fmax(worst_t, fabs(s0 * p0 + s1 * m0 + s2 * p1 + s3 * m1 - out.t[c]));
      }
      for (int c = 0; c < 4; ++c) {
        double p0 = rv[12 * k + 4 + c], m0 = rv[12 * k + 8 + c] * td;
        double p1 = rv[12 * (k + 1) + 4 + c], m1 = rv[12 * (k + 1) + c] * td;
        q[c] = s0 * p0 + s1 * m0 + s2 * p1 + s3 * m1;
        qn += q[c] * q[c];
      }
      for (int c = 0; c < 4; ++c) {
        worst_r = fmax(worst_r, fabs(q[c] / sqrt(qn) - out.r[c]));
      }
    }
    const lb_clip_reduction *rep = &a->clips[0].reduction;
    printf("CUBICSPLINE resampled at tolerance %.0e%s: %u + %u linear keys, max error "
           "translation %.2e m, rotation %.2e (reported %u tracks, deviation %.2e)\n",
           (double)tol, tols[ti] > 0.0f ? "" : " (default)", clip->joints[0].translation.count,
           clip->joints[0].rotation.count, worst_t, worst_r, rep->cubic_tracks,
           (double)rep->cubic_error);
    LB_CHECK(worst_t <= 1.5 * tol + 1e-6 && worst_r <= 1.5 * tol + 1e-6);
    LB_CHECK(rep->cubic_tracks == 2 && rep->cubic_tolerance == tol);
    LB_CHECK(rep->cubic_error > 0.0f && rep->cubic_error <= tol);
    lb_gltf_free(a);
  }
}

/* An animated armature node becomes the root joint (its motion plays, as in three.js), a
 * static node above it stays the root's placement, and the skinned mesh says where each
 * joint's mesh ends: nodes
 *  0 Root (0, 0, 0.5), static -> 1
 *  1 Armature, translation animated (0, 0, 0) -> (1, 0, 0) over 1 s -> 2
 *  2 Hips (0, 1, 0) -> 3
 *  3 Tip (0, 0.2, 0), no end joint
 *  4 Mesh: a box around Tip's bone from Tip to 0.15 m past it (near end shared 50/50 with
 *    Hips), skin [Tip, Hips] (out of depth-first order). */
static void test_armature_and_mesh_ends(void) {
  fixture f;
  memset(&f, 0, sizeof f);
  const float times[2] = {0.0f, 1.0f};
  const float arm_t[6] = {0, 0, 0, 1, 0, 0};
  float ibm[32];
  memset(ibm, 0, sizeof ibm);
  const float bind_y[2] = {1.2f, 1.0f}; /* Tip, Hips in the scene at rest */
  for (int k = 0; k < 2; ++k) {
    ibm[16 * k] = ibm[16 * k + 5] = ibm[16 * k + 10] = ibm[16 * k + 15] = 1.0f;
    ibm[16 * k + 13] = -bind_y[k];
    ibm[16 * k + 14] = -0.5f;
  }
  float pos[24];
  uint8_t joints[32];
  float weights[32];
  for (int v = 0; v < 8; ++v) {
    bool far = v & 1;
    pos[3 * v] = v & 2 ? 0.01f : -0.01f;
    pos[3 * v + 1] = far ? 1.35f : 1.2f;
    pos[3 * v + 2] = 0.5f + (v & 4 ? 0.008f : -0.008f);
    const uint8_t jv[4] = {0, 1, 0, 0};
    memcpy(&joints[4 * v], jv, 4);
    const float wv[4] = {far ? 1.0f : 0.5f, far ? 0.0f : 0.5f, 0, 0};
    memcpy(&weights[4 * v], wv, sizeof wv);
  }
  int at = add_floats(&f, times, 2, "SCALAR", 1);
  int av = add_floats(&f, arm_t, 2, "VEC3", 3);
  int ai = add_floats(&f, ibm, 2, "MAT4", 16);
  int ap = add_floats(&f, pos, 8, "VEC3", 3);
  int aj = add_accessor(&f, joints, sizeof joints, 5121, 8, "VEC4", false);
  int aw = add_floats(&f, weights, 8, "VEC4", 4);
  static char text[JSON_MAX];
  char *b64 = malloc(BIN_MAX * 2);
  base64(f.bin, f.bin_len, b64);
  snprintf(
      text, sizeof text,
      "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0,4]}],"
      "\"nodes\":[{\"name\":\"Root\",\"translation\":[0,0,0.5],\"children\":[1]},"
      "{\"name\":\"Armature\",\"children\":[2]},"
      "{\"name\":\"Hips\",\"translation\":[0,1,0],\"children\":[3]},"
      "{\"name\":\"Tip\",\"translation\":[0,0.2,0]},{\"name\":\"Mesh\",\"mesh\":0,\"skin\":0}],"
      "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":%d,\"JOINTS_0\":%d,"
      "\"WEIGHTS_0\":%d}}]}],"
      "\"skins\":[{\"joints\":[3,2],\"inverseBindMatrices\":%d}],"
      "\"animations\":[{\"samplers\":[{\"input\":%d,\"output\":%d}],"
      "\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}}]}],"
      "\"accessors\":[%s],\"bufferViews\":[%s],\"buffers\":[{\"byteLength\":%zu,"
      "\"uri\":\"data:application/octet-stream;base64,%s\"}]}",
      ap, aj, aw, ai, at, av, f.accessors, f.views, f.bin_len, b64);
  free(b64);
  lb_gltf_asset *a = NULL;
  char msg[LB_GLTF_MESSAGE_MAX];
  LB_CHECK(import(text, strlen(text), NULL, &a, msg) == LB_OK);
  if (!a) {
    fprintf(stderr, "%s\n", msg);
    return;
  }
  const lb_skeleton_def *sk = &a->skeleton;
  LB_CHECK(sk->joint_count == 3 && strcmp(sk->names[0], "Armature") == 0 && sk->parents[0] == -1);
  LB_CHECK(strcmp(sk->names[2], "Tip") == 0 && sk->parents[2] == 1);
  LB_CHECK(a->root_parent.t[2] == 0.5f && sk->rest[0].t[2] == 0.5f);
  LB_CHECK(sk->skin_joint_count == 2 && sk->skin_joints[0] == 2 && sk->skin_joints[1] == 1);
  LB_CHECK(strcmp(a->clips[0].name, "animation_0") == 0);
  const lb_track *tr = &a->clips[0].clip.joints[0].translation;
  LB_CHECK(tr->count == 2 && tr->values[3] == 1.0f && tr->values[5] == 0.5f);
  /* mesh ends: Tip's box ends 0.15 m along its +Y; Hips holds half of the near cap, 0.2 m
   * out; the Armature has no vertex */
  const lb_joint_end *e = sk->mesh_ends;
  LB_CHECK(e != NULL);
  if (e) {
    printf("mesh ends: Tip (%g, %g, %g) known %u, Hips (%g, %g, %g), Armature known %u\n",
           (double)e[2].point[0], (double)e[2].point[1], (double)e[2].point[2], e[2].known,
           (double)e[1].point[0], (double)e[1].point[1], (double)e[1].point[2], e[0].known);
    LB_CHECK(e[2].known && fabsf(e[2].point[1] - 0.15f) < 1e-6f && fabsf(e[2].point[0]) < 1e-6f &&
             fabsf(e[2].point[2]) < 1e-6f);
    LB_CHECK(e[1].known && fabsf(e[1].point[1] - 0.2f) < 1e-6f && e[0].known == 0);
  }
  /* through the world: skin order and mesh ends stay with the skeleton */
  lb_world_def wd = lb_world_default_def();
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(&wd, &w) == LB_OK);
  lb_gltf_added added = {0};
  LB_CHECK(lb_world_add_gltf_asset(w, a, &added) == LB_OK);
  uint32_t n = 0;
  const uint16_t *sj = lb_skeleton_skin_joints(w, added.skeleton, &n);
  LB_CHECK(n == 2 && sj && sj[0] == 2 && sj[1] == 1);
  lb_joint_end got;
  LB_CHECK(lb_skeleton_joint_end(w, added.skeleton, 2, &got) == LB_OK && got.known &&
           got.point[1] == e[2].point[1]);
  LB_CHECK(lb_skeleton_joint_end(w, added.skeleton, 3, &got) == LB_ERR_INVALID_ARGUMENT);
  lb_transform pose[3];
  LB_CHECK(lb_world_sample_clip(w, added.first_clip, 1.0f, false, pose, 3) == LB_OK);
  LB_CHECK(pose[0].t[0] == 1.0f && pose[0].t[2] == 0.5f);
  lb_world_destroy(w);
  lb_gltf_free(a);
  /* without weights the mesh says nothing: no ends */
  char *cut = strstr(text, ",\"WEIGHTS_0\"");
  LB_CHECK(cut != NULL);
  char *end = cut ? strchr(cut, '}') : NULL;
  if (end) {
    memmove(cut, end, strlen(end) + 1);
  }
  a = NULL;
  lb_result r = import(text, strlen(text), NULL, &a, msg);
  LB_CHECK(r == LB_OK && a && a->skeleton.mesh_ends == NULL);
  lb_gltf_free(a);
}

/* A skeleton def's skin order follows the world's depth-first reordering; bad ones are
 * refused. */
static void test_skeleton_skin_order(void) {
  const char *names[4] = {"Root", "A", "B", "C"};
  const int16_t parents[4] = {-1, 0, 0, 1}; /* C under A: stored Root, A, C, B */
  lb_transform rest[4];
  for (int i = 0; i < 4; ++i) {
    lb_transform_identity(&rest[i]);
  }
  const uint16_t skin[3] = {3, 0, 2}; /* C, Root, B in def indices */
  lb_joint_end ends[4] = {{{0, 0, 0}, 0}, {{0, 0, 0}, 0}, {{0, 0, 0}, 0}, {{0, 0.1f, 0}, 1}};
  lb_skeleton_def def = lb_skeleton_default_def();
  def.joint_count = 4;
  def.names = names;
  def.parents = parents;
  def.rest = rest;
  def.skin_joints = skin;
  def.skin_joint_count = 3;
  def.mesh_ends = ends;
  lb_world_def wd = lb_world_default_def();
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(&wd, &w) == LB_OK);
  uint32_t asset = 0, n = 0;
  LB_CHECK(lb_world_add_skeleton(w, &def, &asset) == LB_OK);
  const uint16_t *sj = lb_skeleton_skin_joints(w, asset, &n);
  LB_CHECK(n == 3 && sj && sj[0] == 2 && sj[1] == 0 && sj[2] == 3);
  lb_joint_end e;
  LB_CHECK(lb_skeleton_joint_end(w, asset, 2, &e) == LB_OK && e.known && e.point[1] == 0.1f);
  const uint16_t twice[2] = {1, 1};
  def.skin_joints = twice;
  def.skin_joint_count = 2;
  LB_CHECK(lb_world_add_skeleton(w, &def, &asset) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(strstr(lb_world_last_error(w), "both joint 1") != NULL);
  const uint16_t outside[1] = {4};
  def.skin_joints = outside;
  def.skin_joint_count = 1;
  LB_CHECK(lb_world_add_skeleton(w, &def, &asset) == LB_ERR_OUT_OF_RANGE);
  def.skin_joint_count = 0;
  ends[0].point[0] = NAN;
  LB_CHECK(lb_world_add_skeleton(w, &def, &asset) == LB_ERR_NOT_FINITE);
  LB_CHECK(lb_skeleton_skin_joints(w, 99, &n) == NULL && n == 0);
  lb_world_destroy(w);
}

int main(void) {
  LB_RUN(test_gltf_data_uri);
  LB_RUN(test_glb);
  LB_RUN(test_external_buffer_and_bom);
  LB_RUN(test_no_skin_all_nodes);
  LB_RUN(test_world_add_and_sample);
  LB_RUN(test_bad_json);
  LB_RUN(test_bad_binary);
  LB_RUN(test_allocation_failures);
  LB_RUN(test_cubic);
  LB_RUN(test_armature_and_mesh_ends);
  LB_RUN(test_skeleton_skin_order);
  LB_TEST_MAIN_END();
}
