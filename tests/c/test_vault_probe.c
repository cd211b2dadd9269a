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
    LB_CHECK(lb_vault_probe_run(&job) == LB_OK);
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
  LB_CHECK(lb_vault_probe_run(&job) == LB_OK);
  LB_CHECK(job.verdict == LB_VAULT_CLASS_VAULT && job.obstacle == ob);
  LB_CHECK(job.refusal == LB_VAULT_NO_FLOOR);
  job.drop_limit = 3.5f; /* a long drop is allowed: lands on the lower floor */
  LB_CHECK(lb_vault_probe_run(&job) == LB_OK && job.refusal == LB_VAULT_ACCEPTED);
  LB_CHECK_NEAR(job.landing[1], -3.0, 1e-4);
  lb_world_destroy(w);
  /* No room: a wall 0.3 m past the far face. */
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  box(w, 0, -0.05f, 3, 4, 0.1f, 8);
  box(w, 0, 0.375f, 1.2f, 1.6f, 0.75f, 0.4f);
  box(w, 0, 1.5f, 2.0f, 4, 3, 0.2f);
  job = lb_vault_probe_default_job();
  job.world = w;
  LB_CHECK(lb_vault_probe_run(&job) == LB_OK);
  LB_CHECK(job.verdict == LB_VAULT_CLASS_VAULT && job.refusal == LB_VAULT_NO_ROOM);
  job.capsule_radius = 0.0f; /* room check off */
  LB_CHECK(lb_vault_probe_run(&job) == LB_OK && job.refusal == LB_VAULT_ACCEPTED);
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
  LB_CHECK(lb_vault_probe_run(&job) == LB_OK);
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
  LB_CHECK(lb_vault_probe_run(&job) == LB_OK && job.verdict == LB_VAULT_CLASS_NONE);
  LB_CHECK(job.obstacle == LB_NULL_ENTITY);
  lb_world_destroy(w);
}

static void test_bad_input(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  lb_vault_probe_job job = lb_vault_probe_default_job();
  LB_CHECK(lb_vault_probe_run(&job) == LB_ERR_INVALID_ARGUMENT); /* no world */
  job.world = w;
  job.hand_radius = NAN;
  LB_CHECK(lb_vault_probe_run(&job) == LB_ERR_NOT_FINITE);
  job.hand_radius = 0.0f;
  LB_CHECK(lb_vault_probe_run(&job) == LB_ERR_OUT_OF_RANGE);
  job = lb_vault_probe_default_job();
  job.world = w;
  job.cast_down_limit = 0;
  LB_CHECK(lb_vault_probe_run(&job) == LB_ERR_OUT_OF_RANGE);
  job = lb_vault_probe_default_job();
  job.world = w;
  const float s = 0.70710678f;
  job.character.r[0] = -s; /* facing straight up */
  job.character.r[3] = s;
  LB_CHECK(lb_vault_probe_run(&job) == LB_ERR_OUT_OF_RANGE);
  job = lb_vault_probe_default_job();
  job.world = w;
  job.capsule_height = 0.4f; /* < 2 radius */
  LB_CHECK(lb_vault_probe_run(&job) == LB_ERR_OUT_OF_RANGE);
  lb_world_destroy(w);
}

int main(void) {
  LB_RUN(test_course_verdicts);
  LB_RUN(test_far_side_refusals);
  LB_RUN(test_facing);
  LB_RUN(test_bad_input);
  LB_TEST_MAIN_END();
}
