/* The vault probe on the generated vault course (assets/levels/vault-course.json): each
 * obstacle's class, height, depth and distance against the level file's own numbers, and the
 * far-side refusals on hand-built layouts. */
#include "collide_fixture.h"
#include "limber/vault.h"

typedef struct expected {
  const char *piece;
  float z;      /* takeoff, on the lane x = 0 */
  float height; /* from the level file */
  float depth;
  lb_vault_class verdict;
} expected;

/* assets/levels/vault-course.json "obstacles": takeoff 0.7 m before the near face. */
static const expected course[] = {
    {"obstacle_curb_01", 3.3f, 0.3f, 0.4f, LB_VAULT_CLASS_STEP_OVER},
    {"obstacle_low_01", 9.3f, 0.55f, 0.3f, LB_VAULT_CLASS_VAULT},
    {"obstacle_low_02", 15.3f, 0.75f, 0.4f, LB_VAULT_CLASS_VAULT},
    {"obstacle_low_03", 21.3f, 0.9f, 0.25f, LB_VAULT_CLASS_VAULT},
    {"obstacle_low_04", 27.3f, 1.05f, 0.55f, LB_VAULT_CLASS_VAULT},
    {"obstacle_high_01", 33.3f, 1.4f, 0.4f, LB_VAULT_CLASS_TOO_TALL},
    {"obstacle_deep_01", 39.3f, 0.75f, 1.2f, LB_VAULT_CLASS_MANTLE},
};

static const char *class_name(lb_vault_class c) {
  static const char *names[] = {"none", "step over", "vault", "mantle", "too tall"};
  return (uint32_t)c < 5u ? names[c] : "?";
}

static lb_scene *load_course(lb_world *w) {
  const char *path = "assets/levels/vault-course.json";
  char json[160];
  snprintf(json, sizeof json, "{\"name\": \"vault test\", \"level\": \"%s\", \"entities\": []}",
           path);
  size_t size = 0;
  void *bytes = lb_test_read_file(path, &size);
  LB_CHECK(bytes != NULL);
  lb_scene_file f = {path, bytes, size};
  lb_scene *sc = NULL;
  LB_CHECK(lb_scene_load_files(w, json, strlen(json), &f, 1, &sc) == LB_OK);
  free(bytes);
  return sc;
}

static void test_course_verdicts(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  lb_scene *sc = load_course(w);
  double worst_h = 0, worst_d = 0, worst_x = 0;
  for (size_t i = 0; sc && i < sizeof course / sizeof course[0]; ++i) {
    const expected *e = &course[i];
    lb_vault_probe_job job = lb_vault_probe_default_job();
    job.world = w;
    job.character.t[2] = e->z;
    LB_CHECK(lb_vault_probe_job_run(&job) == LB_OK);
    bool vault = e->verdict == LB_VAULT_CLASS_VAULT;
    printf("%-17s %-9s (expected %-9s) height %.4f m (file %.2f), depth %.4f m (file %.2f), "
           "near face %.4f m ahead, %u casts%s\n",
           e->piece, class_name(job.verdict), class_name(e->verdict), (double)job.height,
           (double)e->height, (double)job.depth, (double)e->depth, (double)job.distance,
           job.cast_count,
           vault ? (job.refusal == LB_VAULT_ACCEPTED ? ", accepted" : ", REFUSED") : "");
    LB_CHECK(job.verdict == e->verdict);
    LB_CHECK(job.obstacle == lb_scene_entity(sc, e->piece));
    LB_CHECK(job.refusal == (vault ? LB_VAULT_ACCEPTED : LB_VAULT_NOT_VAULTABLE));
    LB_CHECK_NEAR(job.distance, 0.7, 1e-3);
    worst_x = fmax(worst_x, fabs(job.distance - 0.7));
    if (e->verdict != LB_VAULT_CLASS_STEP_OVER) {
      LB_CHECK_NEAR(job.height, e->height, 1e-3);
      worst_h = fmax(worst_h, fabs(job.height - e->height));
      CL_CHECK_VEC(job.top_normal, 0, 1, 0, 1e-4);
    }
    if (vault) {
      LB_CHECK_NEAR(job.depth, e->depth, 1e-3);
      worst_d = fmax(worst_d, fabs(job.depth - e->depth));
      LB_CHECK_NEAR(job.landing[1], 0.0, 1e-4);
    }
  }
  printf("vault course: worst height error %.2e m, depth %.2e m, near face %.2e m\n", worst_h,
         worst_d, worst_x);
  lb_scene_destroy(w, sc);
  lb_world_destroy(w);
}

/* A box obstacle of the vault size at z 1..1.4 in front of the character, on a floor. */
static lb_entity box(lb_world *w, float x, float y, float z, float sx, float sy, float sz) {
  lb_collider_c c = cl_test_collider(LB_COLLIDER_BOX);
  c.size[0] = sx, c.size[1] = sy, c.size[2] = sz;
  return cl_test_spawn(w, &c, x, y, z, NULL, NULL);
}

static void test_far_side_refusals(void) {
  /* No floor beyond: the floor ends at the obstacle's far face, and the drop is 3 m. */
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  box(w, 0, -0.05f, 0.7f, 4, 0.1f, 1.4f); /* floor z in [0, 1.4] */
  box(w, 0, -3.05f, 4.7f, 4, 0.1f, 6.6f); /* far below, z in [1.4, 8] */
  lb_entity ob = box(w, 0, 0.375f, 1.2f, 1.6f, 0.75f, 0.4f);
  lb_vault_probe_job job = lb_vault_probe_default_job();
  job.world = w;
  LB_CHECK(lb_vault_probe_job_run(&job) == LB_OK);
  LB_CHECK(job.verdict == LB_VAULT_CLASS_VAULT && job.obstacle == ob);
  LB_CHECK(job.refusal == LB_VAULT_NO_FLOOR);
  job.drop_limit = 3.5f; /* a long drop is allowed: lands on the lower floor */
  LB_CHECK(lb_vault_probe_job_run(&job) == LB_OK && job.refusal == LB_VAULT_ACCEPTED);
  LB_CHECK_NEAR(job.landing[1], -3.0, 1e-4);
  lb_world_destroy(w);
  /* No room: a wall 0.3 m past the far face. */
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  box(w, 0, -0.05f, 3, 4, 0.1f, 8);
  box(w, 0, 0.375f, 1.2f, 1.6f, 0.75f, 0.4f);
  box(w, 0, 1.5f, 2.0f, 4, 3, 0.2f);
  job = lb_vault_probe_default_job();
  job.world = w;
  LB_CHECK(lb_vault_probe_job_run(&job) == LB_OK);
  LB_CHECK(job.verdict == LB_VAULT_CLASS_VAULT && job.refusal == LB_VAULT_NO_ROOM);
  job.capsule_radius = 0.0f; /* room check off */
  LB_CHECK(lb_vault_probe_job_run(&job) == LB_OK && job.refusal == LB_VAULT_ACCEPTED);
  lb_world_destroy(w);
}

/* One obstacle of the given height and depth (1.6 m wide) whose near face is `z0` ahead of a
 * character at z0 - 1 facing +Z, on a floor; the probe's defaults. */
typedef struct plank_case {
  float height, depth, z0;
  lb_vault_class verdict;
  lb_vault_refusal refusal;
} plank_case;

static lb_vault_probe_job probe_plank(const plank_case *pc, lb_entity *ob) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  box(w, 0, -0.05f, pc->z0 + 2.0f, 4, 0.1f, 8);
  *ob = box(w, 0, 0.5f * pc->height, pc->z0 + 0.5f * pc->depth, 1.6f, pc->height, pc->depth);
  lb_vault_probe_job job = lb_vault_probe_default_job();
  job.world = w;
  job.character.t[2] = pc->z0 - 1.0f;
  LB_CHECK(lb_vault_probe_job_run(&job) == LB_OK);
  job.world = NULL;
  lb_world_destroy(w);
  return job;
}

/* The measures of a probe against the obstacle's own numbers: tolerances measured (the worst
 * error over these cases is printed; 1e-5 m holds it with a margin). */
static void check_plank(const plank_case *pc, double *worst) {
  lb_entity ob;
  lb_vault_probe_job job = probe_plank(pc, &ob);
  printf("%.3f m high, %.4f m deep at %g m: %-9s refusal %u, height %.6f, depth %.6f, near face "
         "%.6f m ahead\n",
         (double)pc->height, (double)pc->depth, (double)pc->z0, class_name(job.verdict),
         (unsigned)job.refusal, (double)job.height, (double)job.depth, (double)job.distance);
  LB_CHECK(job.verdict == pc->verdict);
  LB_CHECK(job.refusal == pc->refusal);
  LB_CHECK(job.obstacle == ob);
  LB_CHECK_NEAR(job.distance, 1.0, 1e-5);
  *worst = fmax(*worst, fabs(job.distance - 1.0));
  if (pc->verdict == LB_VAULT_CLASS_STEP_OVER) {
    return;
  }
  LB_CHECK_NEAR(job.height, pc->height, 1e-5);
  CL_CHECK_VEC(job.top_normal, 0, 1, 0, 1e-6);
  LB_CHECK(job.top[2] >= pc->z0 && job.top[2] <= pc->z0 + pc->depth); /* on the obstacle */
  *worst = fmax(*worst, fabs(job.height - pc->height));
  if (pc->verdict == LB_VAULT_CLASS_VAULT) {
    LB_CHECK_NEAR(job.depth, pc->depth, 1e-5);
    *worst = fmax(*worst, fabs(job.depth - pc->depth));
  }
}

/* Obstacles thinner than one hand radius: a top ray a fixed 5 cm past the near face missed
 * them (landing on the floor: height 0, every depth ray hit, class Mantle). The top is now
 * found at the near face, from 1 mm deep, also 40 m from the origin. */
static void test_thin_obstacles(void) {
  static const plank_case cases[] = {
      {0.8f, 0.001f, 1.0f, LB_VAULT_CLASS_VAULT, LB_VAULT_ACCEPTED},
      {0.8f, 0.02f, 1.0f, LB_VAULT_CLASS_VAULT, LB_VAULT_ACCEPTED},
      {0.8f, 0.05f, 1.0f, LB_VAULT_CLASS_VAULT, LB_VAULT_ACCEPTED},
      {0.8f, 0.001f, 40.0f, LB_VAULT_CLASS_VAULT, LB_VAULT_ACCEPTED},
      {0.8f, 0.02f, 40.0f, LB_VAULT_CLASS_VAULT, LB_VAULT_ACCEPTED},
      {1.099f, 0.001f, 1.0f, LB_VAULT_CLASS_VAULT, LB_VAULT_ACCEPTED},
      {0.501f, 0.001f, 1.0f, LB_VAULT_CLASS_VAULT, LB_VAULT_ACCEPTED},
  };
  double worst = 0.0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    check_plank(&cases[i], &worst);
  }
  printf("thin obstacles: worst height/depth/near face error %.2e m\n", worst);
}

/* The class boundaries with the defaults (vault.h): vaultable up to r (cast_forward_limit - 1)
 * = 0.6 m deep, too tall above hand_origin.y = 1.1 m, found down to 0.5 m (below: step over);
 * 1 mm either side of each, for a thin and a thick obstacle. */
static void test_class_boundaries(void) {
  static const plank_case cases[] = {
      {0.8f, 0.599f, 1.0f, LB_VAULT_CLASS_VAULT, LB_VAULT_ACCEPTED},
      {0.8f, 0.601f, 1.0f, LB_VAULT_CLASS_MANTLE, LB_VAULT_NOT_VAULTABLE},
      {1.099f, 0.599f, 1.0f, LB_VAULT_CLASS_VAULT, LB_VAULT_ACCEPTED},
      {1.099f, 0.601f, 1.0f, LB_VAULT_CLASS_MANTLE, LB_VAULT_NOT_VAULTABLE},
      {0.501f, 0.599f, 1.0f, LB_VAULT_CLASS_VAULT, LB_VAULT_ACCEPTED},
      {0.501f, 0.601f, 1.0f, LB_VAULT_CLASS_MANTLE, LB_VAULT_NOT_VAULTABLE},
      {1.099f, 0.3f, 1.0f, LB_VAULT_CLASS_VAULT, LB_VAULT_ACCEPTED},
      {1.101f, 0.3f, 1.0f, LB_VAULT_CLASS_TOO_TALL, LB_VAULT_NOT_VAULTABLE},
      {1.101f, 0.02f, 1.0f, LB_VAULT_CLASS_TOO_TALL, LB_VAULT_NOT_VAULTABLE},
      {0.501f, 0.3f, 1.0f, LB_VAULT_CLASS_VAULT, LB_VAULT_ACCEPTED},
      {0.499f, 0.3f, 1.0f, LB_VAULT_CLASS_STEP_OVER, LB_VAULT_NOT_VAULTABLE},
      {0.499f, 0.02f, 1.0f, LB_VAULT_CLASS_STEP_OVER, LB_VAULT_NOT_VAULTABLE},
      {0.8f, 0.599f, 40.0f, LB_VAULT_CLASS_VAULT, LB_VAULT_ACCEPTED},
      {0.8f, 0.601f, 40.0f, LB_VAULT_CLASS_MANTLE, LB_VAULT_NOT_VAULTABLE},
  };
  double worst = 0.0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    check_plank(&cases[i], &worst);
  }
  printf("class boundaries: worst height/depth/near face error %.2e m\n", worst);
}

/* A sheet with no thickness (a vertical mesh quad 0.8 m high): the sphere casts hit it, the ray
 * down at its near face passes it onto the floor. That is no top: the vault is refused with
 * NO_TOP (once: height 0 and class Mantle from depth rays that all hit the floor). */
static void test_sheet_refused(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  box(w, 0, -0.05f, 3, 4, 0.1f, 8);
  static const float pos[] = {-0.8f, 0, 1, 0.8f, 0, 1, 0.8f, 0.8f, 1, -0.8f, 0.8f, 1};
  static const uint32_t idx[] = {0, 1, 2, 0, 2, 3};
  lb_mesh_def d = lb_mesh_default_def();
  d.positions = pos;
  d.vertex_count = 4;
  d.indices = idx;
  d.index_count = 6;
  lb_collider_c c = cl_test_collider(LB_COLLIDER_MESH);
  LB_CHECK(lb_world_add_mesh(w, &d, &c.mesh) == LB_OK);
  lb_entity sheet = cl_test_spawn(w, &c, 0, 0, 0, NULL, NULL);
  lb_vault_probe_job job = lb_vault_probe_default_job();
  job.world = w;
  LB_CHECK(lb_vault_probe_job_run(&job) == LB_OK);
  printf("mesh sheet: %s, refusal %u, height %.4f\n", class_name(job.verdict),
         (unsigned)job.refusal, (double)job.height);
  LB_CHECK(job.verdict == LB_VAULT_CLASS_VAULT && job.obstacle == sheet);
  LB_CHECK(job.refusal == LB_VAULT_NO_TOP);
  LB_CHECK(job.height == 0.0f && job.depth == 0.0f);
  LB_CHECK_NEAR(job.distance, 1.0, 1e-5);
  lb_world_destroy(w);
}

/* The probe follows the character's facing: the course turned 90 degrees about Y. */
static void test_facing(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  box(w, 3, -0.05f, 0, 8, 0.1f, 4);
  lb_entity ob = box(w, 1.2f, 0.45f, 0, 0.25f, 0.9f, 1.6f); /* 0.9 high, 0.25 deep along +X */
  lb_vault_probe_job job = lb_vault_probe_default_job();
  job.world = w;
  const float s = 0.70710678f;
  job.character.r[1] = s; /* +Z turned to +X */
  job.character.r[3] = s;
  job.character.t[0] = 0.375f;
  LB_CHECK(lb_vault_probe_job_run(&job) == LB_OK);
  printf("facing +X: %s, height %.4f, depth %.4f, near face %.4f m\n", class_name(job.verdict),
         (double)job.height, (double)job.depth, (double)job.distance);
  LB_CHECK(job.verdict == LB_VAULT_CLASS_VAULT && job.obstacle == ob);
  LB_CHECK_NEAR(job.forward[0], 1.0, 1e-6);
  LB_CHECK_NEAR(job.height, 0.9, 1e-3);
  LB_CHECK_NEAR(job.depth, 0.25, 1e-3);
  LB_CHECK_NEAR(job.distance, 0.7, 1e-3);
  /* Nothing ahead when facing away. */
  job.character.r[1] = 1.0f;
  job.character.r[3] = 0.0f;
  LB_CHECK(lb_vault_probe_job_run(&job) == LB_OK && job.verdict == LB_VAULT_CLASS_NONE);
  LB_CHECK(job.obstacle == LB_NULL_ENTITY);
  lb_world_destroy(w);
}

static void test_bad_input(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  lb_vault_probe_job job = lb_vault_probe_default_job();
  LB_CHECK(lb_vault_probe_job_run(&job) == LB_ERR_INVALID_ARGUMENT); /* no world */
  job.world = w;
  job.hand_radius = NAN;
  LB_CHECK(lb_vault_probe_job_run(&job) == LB_ERR_NOT_FINITE);
  job.hand_radius = 0.0f;
  LB_CHECK(lb_vault_probe_job_run(&job) == LB_ERR_OUT_OF_RANGE);
  job = lb_vault_probe_default_job();
  job.world = w;
  job.cast_down_limit = 0;
  LB_CHECK(lb_vault_probe_job_run(&job) == LB_ERR_OUT_OF_RANGE);
  job = lb_vault_probe_default_job();
  job.world = w;
  const float s = 0.70710678f;
  job.character.r[0] = -s; /* facing straight up */
  job.character.r[3] = s;
  LB_CHECK(lb_vault_probe_job_run(&job) == LB_ERR_OUT_OF_RANGE);
  job = lb_vault_probe_default_job();
  job.world = w;
  job.capsule_height = 0.4f; /* < 2 radius */
  LB_CHECK(lb_vault_probe_job_run(&job) == LB_ERR_OUT_OF_RANGE);
  lb_world_destroy(w);
}

int main(void) {
  LB_RUN(test_course_verdicts);
  LB_RUN(test_far_side_refusals);
  LB_RUN(test_thin_obstacles);
  LB_RUN(test_class_boundaries);
  LB_RUN(test_sheet_refused);
  LB_RUN(test_facing);
  LB_RUN(test_bad_input);
  LB_TEST_MAIN_END();
}
