/* Grip holding: arm placement onto anchors (Object and Hand placement), out-of-reach,
 * mirroring for the other hand, blends without jumps, shoulder assist, determinism and
 * bad input. Humanoid in T-pose facing +Z, left = +X. */
#include "limber/grip.h"
#include "limber/limber.h"

#include <string.h>

#include "humanoid_fixture.h"
#include "test.h"

typedef struct scene {
  lb_world *w;
  lb_entity hero, object, main_anchor, support_anchor;
  uint32_t asset;
} scene;

static const versor ID = {0, 0, 0, 1};

/* Main anchor right of the object, support anchor left and forward; fingers down. */
static void scene_init_with(scene *sc, const lb_world_def *def_w, float obj_z, uint32_t placement,
                            uint32_t main_hand, float blend) {
  memset(sc, 0, sizeof *sc);
  LB_CHECK(lb_world_create(def_w, &sc->w) == LB_OK);
  lb_humanoid_def def = lb_humanoid_default_def();
  LB_CHECK(lb_world_add_humanoid(sc->w, &def, &sc->asset) == LB_OK);
  sc->hero = lb_test_spawn_xf(sc->w, 0, 0, 0, 0, ID);
  lb_rig_c rig = {sc->asset};
  LB_CHECK(lb_world_insert(sc->w, sc->hero, LB_RIG, &rig) == LB_OK);
  sc->object = lb_test_spawn_xf(sc->w, 0, 0, 1.2f, obj_z, ID);
  versor down;
  lb_quat_from_axis_angle((vec3){1, 0, 0}, 90.0f * LB_DEG2RAD, down);
  sc->main_anchor = lb_test_spawn_xf(sc->w, sc->object, -0.18f, 0.0f, 0.0f, down);
  versor tilt;
  lb_quat_from_axis_angle((vec3){0, 0, 1}, -70.0f * LB_DEG2RAD, tilt);
  sc->support_anchor = lb_test_spawn_xf(sc->w, sc->object, 0.14f, 0.04f, 0.06f, tilt);
  lb_grip_profile_c prof;
  lb_component_defaults(LB_GRIP_PROFILE, &prof);
  prof.main_anchor = sc->main_anchor;
  prof.support_anchor = sc->support_anchor;
  LB_CHECK(lb_world_insert(sc->w, sc->object, LB_GRIP_PROFILE, &prof) == LB_OK);
  lb_grip_holder_c gh;
  lb_component_defaults(LB_GRIP_HOLDER, &gh);
  gh.held = sc->object;
  gh.placement = placement;
  gh.main_hand = main_hand;
  gh.blend_seconds = blend;
  LB_CHECK(lb_world_insert(sc->w, sc->hero, LB_GRIP_HOLDER, &gh) == LB_OK);
}

static void scene_init(scene *sc, float obj_z, uint32_t placement, uint32_t main_hand,
                       float blend) {
  scene_init_with(sc, NULL, obj_z, placement, main_hand, blend);
}

/* Palm frame of a hand, world space. */
static lb_transform palm_world(const scene *sc, lb_hand_side side) {
  lb_hand_info info;
  LB_CHECK(lb_world_find_hand(sc->w, sc->hero, side, "", &info) == LB_OK);
  uint32_t n;
  const lb_transform *model = lb_rig_model_pose(sc->w, sc->hero, &n);
  lb_palm_frame_job job = lb_palm_frame_default_job();
  job.hand = &info;
  job.model = model;
  job.joint_count = n;
  LB_CHECK(lb_palm_frame_job_run(&job) == LB_OK);
  lb_transform root, out;
  LB_CHECK(lb_world_entity_transform(sc->w, sc->hero, &root) == LB_OK);
  lb_transform_mul(&root, &job.frame, &out);
  return out;
}

static float dist3(const float *a, const float *b) {
  vec3 d = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  return lb_vec3_length(d);
}

static float angle_deg(const versor a, const versor b) {
  versor inv, d;
  lb_quat_conj(a, inv);
  lb_quat_mul(inv, b, d);
  return lb_quat_angle(d) * LB_RAD2DEG;
}

static lb_transform world_of(const scene *sc, lb_entity e) {
  lb_transform t;
  LB_CHECK(lb_world_entity_transform(sc->w, e, &t) == LB_OK);
  return t;
}

static void object_placement_reaches_both_anchors(void) {
  scene sc;
  scene_init(&sc, 0.35f, LB_GRIP_PLACEMENT_OBJECT, 0, 0.0f);
  LB_CHECK(lb_world_step(sc.w, 1.0f / 60.0f) == LB_OK);
  lb_grip_holder_c gh;
  LB_CHECK(lb_world_get(sc.w, sc.hero, LB_GRIP_HOLDER, &gh) == LB_OK);
  lb_transform pm = palm_world(&sc, LB_HAND_RIGHT), ps = palm_world(&sc, LB_HAND_LEFT);
  lb_transform am = world_of(&sc, sc.main_anchor), as = world_of(&sc, sc.support_anchor);
  float dm = dist3(pm.t, am.t), ds = dist3(ps.t, as.t);
  float rm = angle_deg(pm.r, am.r), rs = angle_deg(ps.r, as.r);
  printf("  object placement: main palm %.2e m / %.4f deg, support %.2e m / %.4f deg off\n",
         (double)dm, (double)rm, (double)ds, (double)rs);
  LB_CHECK(dm < 5e-4f && ds < 5e-4f);
  LB_CHECK(rm < 0.05f && rs < 0.05f);
  LB_CHECK(gh.main_reached && gh.support_reached);
  LB_CHECK_NEAR(gh.main_distance, dm, 1e-5);
  LB_CHECK_NEAR(gh.support_distance, ds, 1e-5);
  lb_world_destroy(sc.w);
}

static void out_of_reach_points_and_reports(void) {
  scene sc;
  scene_init(&sc, 1.6f, LB_GRIP_PLACEMENT_OBJECT, 0, 0.0f);
  LB_CHECK(lb_world_step(sc.w, 1.0f / 60.0f) == LB_OK);
  lb_grip_holder_c gh;
  LB_CHECK(lb_world_get(sc.w, sc.hero, LB_GRIP_HOLDER, &gh) == LB_OK);
  lb_transform pm = palm_world(&sc, LB_HAND_RIGHT), am = world_of(&sc, sc.main_anchor);
  /* straight arm: shoulder, elbow, wrist collinear and pointing at the hand target */
  uint32_t n;
  const lb_transform *model = lb_rig_model_pose(sc.w, sc.hero, &n);
  int hand = lb_skeleton_find_joint(sc.w, sc.asset, "RightHand");
  int fore = lb_skeleton_find_joint(sc.w, sc.asset, "RightForeArm");
  int upper = lb_skeleton_find_joint(sc.w, sc.asset, "RightArm");
  vec3 a = {model[fore].t[0] - model[upper].t[0], model[fore].t[1] - model[upper].t[1],
            model[fore].t[2] - model[upper].t[2]};
  vec3 b = {model[hand].t[0] - model[fore].t[0], model[hand].t[1] - model[fore].t[1],
            model[hand].t[2] - model[fore].t[2]};
  vec3 ua, ub;
  lb_vec3_normalize_to(a, ua);
  lb_vec3_normalize_to(b, ub);
  float bend = lb_acos(ua[0] * ub[0] + ua[1] * ub[1] + ua[2] * ub[2]) * LB_RAD2DEG;
  float rot = angle_deg(pm.r, am.r);
  printf("  out of reach: distance %.3f m reported %.3f m, elbow bend %.4f deg, wrist %.4f deg\n",
         (double)dist3(pm.t, am.t), (double)gh.main_distance, (double)bend, (double)rot);
  LB_CHECK(!gh.main_reached && gh.main_distance > 0.3f);
  LB_CHECK_NEAR(gh.main_distance, dist3(pm.t, am.t), 1e-5);
  LB_CHECK(bend < 0.05f);
  LB_CHECK(rot < 0.05f);
  lb_world_destroy(sc.w);
}

static void hand_placement_object_follows_hand(void) {
  scene sc;
  scene_init(&sc, 0.35f, LB_GRIP_PLACEMENT_HAND, 0, 0.0f);
  LB_CHECK(lb_world_step(sc.w, 1.0f / 60.0f) == LB_OK);
  lb_transform pm = palm_world(&sc, LB_HAND_RIGHT), am = world_of(&sc, sc.main_anchor);
  lb_transform ps = palm_world(&sc, LB_HAND_LEFT), as = world_of(&sc, sc.support_anchor);
  float dm = dist3(pm.t, am.t), rm = angle_deg(pm.r, am.r);
  printf("  hand placement: main anchor %.2e m / %.4f deg from the palm; support palm %.2e m\n",
         (double)dm, (double)rm, (double)dist3(ps.t, as.t));
  LB_CHECK(dm < 1e-5f && rm < 0.01f);
  /* the main arm keeps the animation: the rest pose's right hand */
  uint32_t n;
  const lb_transform *model = lb_rig_model_pose(sc.w, sc.hero, &n);
  int hand = lb_skeleton_find_joint(sc.w, sc.asset, "RightHand");
  lb_world *ref;
  LB_CHECK(lb_world_create(NULL, &ref) == LB_OK);
  uint32_t asset;
  lb_humanoid_def def = lb_humanoid_default_def();
  LB_CHECK(lb_world_add_humanoid(ref, &def, &asset) == LB_OK);
  lb_entity e;
  LB_CHECK(lb_world_spawn(ref, &e) == LB_OK);
  lb_rig_c rig = {asset};
  LB_CHECK(lb_world_insert(ref, e, LB_RIG, &rig) == LB_OK);
  LB_CHECK(lb_world_step(ref, 1.0f / 60.0f) == LB_OK);
  const lb_transform *rest = lb_rig_model_pose(ref, e, &n);
  LB_CHECK(lb_test_same_transforms(&model[hand], &rest[hand], 1));
  /* the support arm reads the object where the main hand put it (out of reach from a
   * T-pose: the reported gap is the measured one) */
  lb_grip_holder_c gh;
  LB_CHECK(lb_world_get(sc.w, sc.hero, LB_GRIP_HOLDER, &gh) == LB_OK);
  LB_CHECK_NEAR(gh.support_distance, dist3(ps.t, as.t), 1e-5);
  lb_world_destroy(ref);
  lb_world_destroy(sc.w);
}

/* The rig is symmetric about x = 0 and so is the object there: holding with the left
 * hand must give the exact mirror image of holding with the right. */
static void mirrored_grip_is_reflection(void) {
  scene r, l;
  scene_init(&r, 0.35f, LB_GRIP_PLACEMENT_OBJECT, 0, 0.0f);
  scene_init(&l, 0.35f, LB_GRIP_PLACEMENT_OBJECT, 1, 0.0f);
  LB_CHECK(lb_world_step(r.w, 1.0f / 60.0f) == LB_OK);
  LB_CHECK(lb_world_step(l.w, 1.0f / 60.0f) == LB_OK);
  uint32_t n;
  const lb_transform *mr = lb_rig_model_pose(r.w, r.hero, &n);
  const lb_transform *ml = lb_rig_model_pose(l.w, l.hero, &n);
  float worst = 0.0f;
  int compared = 0;
  for (uint32_t j = 0; j < n; ++j) {
    const char *name = lb_skeleton_joint_name(r.w, r.asset, j);
    char other[64];
    if (strncmp(name, "Right", 5) == 0) {
      snprintf(other, sizeof other, "Left%s", name + 5);
    } else if (strncmp(name, "Left", 4) == 0) {
      snprintf(other, sizeof other, "Right%s", name + 4);
    } else {
      snprintf(other, sizeof other, "%s", name);
    }
    int k = lb_skeleton_find_joint(l.w, l.asset, other);
    LB_CHECK(k >= 0);
    if (k < 0) {
      continue;
    }
    vec3 m = {-mr[j].t[0], mr[j].t[1], mr[j].t[2]};
    float d = dist3(m, ml[k].t);
    worst = d > worst ? d : worst;
    ++compared;
  }
  lb_transform pr = palm_world(&r, LB_HAND_RIGHT), pl = palm_world(&l, LB_HAND_LEFT);
  vec3 zr, yr, zl, yl;
  lb_quat_rotate(pr.r, (vec3){0, 0, 1}, zr);
  lb_quat_rotate(pr.r, (vec3){0, 1, 0}, yr);
  lb_quat_rotate(pl.r, (vec3){0, 0, 1}, zl);
  lb_quat_rotate(pl.r, (vec3){0, 1, 0}, yl);
  float axis_err = fabsf(-zr[0] - zl[0]) + fabsf(zr[1] - zl[1]) + fabsf(zr[2] - zl[2]) +
                   fabsf(-yr[0] - yl[0]) + fabsf(yr[1] - yl[1]) + fabsf(yr[2] - yl[2]);
  printf("  mirror: %d joints, max reflection error %.2e m; palm axes error %.2e\n", compared,
         (double)worst, (double)axis_err);
  LB_CHECK(compared > 60);
  LB_CHECK(worst < 2e-5f);
  LB_CHECK(axis_err < 1e-4f);
  lb_world_destroy(r.w);
  lb_world_destroy(l.w);
}

static float pose_change_deg(const lb_transform *a, const lb_transform *b, uint32_t n) {
  float worst = 0.0f;
  for (uint32_t j = 0; j < n; ++j) {
    float d = angle_deg(a[j].r, b[j].r);
    worst = d > worst ? d : worst;
  }
  return worst;
}

/* Grab then release with 0.25 s blends at 60 Hz: starts from the animation, ends on
 * the held pose, no step changes any joint by more than the smoothstep's peak share. */
static void blend_has_no_jump(void) {
  scene sc, ref;
  scene_init(&sc, 0.35f, LB_GRIP_PLACEMENT_OBJECT, 0, 0.25f);
  scene_init(&ref, 0.35f, LB_GRIP_PLACEMENT_OBJECT, 0, 0.0f);
  lb_grip_holder_c gh;
  LB_CHECK(lb_world_get(sc.w, sc.hero, LB_GRIP_HOLDER, &gh) == LB_OK);
  LB_CHECK(lb_world_step(ref.w, 1.0f / 60.0f) == LB_OK);
  uint32_t n;
  lb_transform prev[128], held[128], rest[128];
  const lb_transform *pose = lb_rig_local_pose(ref.w, ref.hero, &n);
  memcpy(held, pose, n * sizeof(lb_transform));
  /* the rest pose (let go at once) */
  gh.held = 0;
  gh.blend_seconds = 0.0f;
  LB_CHECK(lb_world_set(ref.w, ref.hero, LB_GRIP_HOLDER, &gh) == LB_OK);
  LB_CHECK(lb_world_step(ref.w, 1.0f / 60.0f) == LB_OK);
  pose = lb_rig_local_pose(ref.w, ref.hero, &n);
  memcpy(rest, pose, n * sizeof(lb_transform));
  float total = pose_change_deg(rest, held, n);
  LB_CHECK(lb_world_step(sc.w, 1.0f / 60.0f) == LB_OK);
  pose = lb_rig_local_pose(sc.w, sc.hero, &n);
  memcpy(prev, pose, n * sizeof(lb_transform));
  float first = pose_change_deg(rest, prev, n), worst = 0.0f;
  for (int k = 1; k < 20; ++k) {
    LB_CHECK(lb_world_step(sc.w, 1.0f / 60.0f) == LB_OK);
    const lb_transform *cur = lb_rig_local_pose(sc.w, sc.hero, &n);
    float d = pose_change_deg(prev, cur, n);
    worst = d > worst ? d : worst;
    memcpy(prev, cur, n * sizeof(lb_transform));
  }
  float settled = pose_change_deg(prev, held, n);
  /* release */
  gh.held = 0;
  gh.blend_seconds = 0.25f;
  LB_CHECK(lb_world_set(sc.w, sc.hero, LB_GRIP_HOLDER, &gh) == LB_OK);
  float worst_release = 0.0f;
  for (int k = 0; k < 20; ++k) {
    LB_CHECK(lb_world_step(sc.w, 1.0f / 60.0f) == LB_OK);
    const lb_transform *cur = lb_rig_local_pose(sc.w, sc.hero, &n);
    float d = pose_change_deg(prev, cur, n);
    worst_release = d > worst_release ? d : worst_release;
    memcpy(prev, cur, n * sizeof(lb_transform));
  }
  float back = pose_change_deg(prev, rest, n);
  printf("  blend: total %.2f deg; first step %.4f deg; max step grab %.3f, release %.3f deg "
         "(smoothstep peak share %.3f); settled %.2e, back %.2e deg\n",
         (double)total, (double)first, (double)worst, (double)worst_release,
         (double)(total * 1.5f / 15.0f), (double)settled, (double)back);
  LB_CHECK(total > 20.0f);
  LB_CHECK(first < 1e-3f);
  LB_CHECK(worst <= total * 1.5f / 15.0f + 0.05f);
  LB_CHECK(worst_release <= total * 1.5f / 15.0f + 0.05f);
  LB_CHECK(settled < 1e-3f && back < 1e-3f);
  lb_world_destroy(sc.w);
  lb_world_destroy(ref.w);
}

static void shoulder_assist_closes_part_of_gap(void) {
  float gap[2];
  for (int k = 0; k < 2; ++k) {
    scene sc;
    scene_init(&sc, 0.6f, LB_GRIP_PLACEMENT_OBJECT, 0, 0.0f);
    lb_grip_holder_c gh;
    LB_CHECK(lb_world_get(sc.w, sc.hero, LB_GRIP_HOLDER, &gh) == LB_OK);
    gh.shoulder_assist = k ? 0.8f : 0.0f;
    LB_CHECK(lb_world_set(sc.w, sc.hero, LB_GRIP_HOLDER, &gh) == LB_OK);
    LB_CHECK(lb_world_step(sc.w, 1.0f / 60.0f) == LB_OK);
    LB_CHECK(lb_world_get(sc.w, sc.hero, LB_GRIP_HOLDER, &gh) == LB_OK);
    gap[k] = gh.main_distance;
    lb_world_destroy(sc.w);
  }
  printf("  shoulder assist 0.8: gap %.4f m -> %.4f m (%.0f%% closed)\n", (double)gap[0],
         (double)gap[1], (double)(100.0f * (1.0f - gap[1] / gap[0])));
  LB_CHECK(gap[0] > 0.02f);
  LB_CHECK(gap[1] < gap[0] * 0.5f);
}

static void determinism_bit_identical(void) {
  uint64_t h[2];
  for (int k = 0; k < 2; ++k) {
    scene sc;
    scene_init(&sc, 0.35f, LB_GRIP_PLACEMENT_HAND, 1, 0.2f);
    for (int i = 0; i < 40; ++i) {
      LB_CHECK(lb_world_step(sc.w, 1.0f / 60.0f) == LB_OK);
    }
    h[k] = lb_world_hash(sc.w);
    lb_world_destroy(sc.w);
  }
  LB_CHECK(h[0] == h[1]);
}

static void bad_input_changes_nothing(void) {
  scene sc;
  scene_init(&sc, 0.35f, LB_GRIP_PLACEMENT_OBJECT, 0, 0.0f);
  lb_grip_holder_c gh, before;
  LB_CHECK(lb_world_get(sc.w, sc.hero, LB_GRIP_HOLDER, &before) == LB_OK);
  gh = before;
  gh.held = sc.main_anchor; /* no GripProfile */
  LB_CHECK(lb_world_set(sc.w, sc.hero, LB_GRIP_HOLDER, &gh) == LB_ERR_MISSING_COMPONENT);
  LB_CHECK(strstr(lb_world_last_error(sc.w), "held") != NULL);
  gh = before;
  gh.weight = 1.5f;
  LB_CHECK(lb_world_set(sc.w, sc.hero, LB_GRIP_HOLDER, &gh) == LB_ERR_OUT_OF_RANGE);
  gh = before;
  gh.right_hand = lb_world_name(sc.w, "NoSuchHand");
  LB_CHECK(lb_world_set(sc.w, sc.hero, LB_GRIP_HOLDER, &gh) == LB_ERR_JOINT_NOT_FOUND);
  LB_CHECK(strstr(lb_world_last_error(sc.w), "rightHand") != NULL);
  LB_CHECK(lb_world_get(sc.w, sc.hero, LB_GRIP_HOLDER, &gh) == LB_OK);
  LB_CHECK(memcmp(&gh, &before, sizeof gh) == 0);
  /* GripHolder and GripPose need a Rig */
  LB_CHECK(lb_world_insert(sc.w, sc.object, LB_GRIP_HOLDER, &before) == LB_ERR_MISSING_COMPONENT);
  lb_grip_pose_c gp;
  lb_component_defaults(LB_GRIP_POSE, &gp);
  gp.right_pose = lb_world_name(sc.w, "nonsense");
  LB_CHECK(lb_world_insert(sc.w, sc.hero, LB_GRIP_POSE, &gp) == LB_ERR_UNKNOWN_NAME);
  LB_CHECK(strstr(lb_world_last_error(sc.w), "rightPose") != NULL);
  LB_CHECK(!lb_world_has(sc.w, sc.hero, LB_GRIP_POSE));
  lb_grip_surface_c surf;
  lb_component_defaults(LB_GRIP_SURFACE, &surf);
  surf.shape = 1; /* capsule shorter than its caps */
  surf.radius = 0.1f;
  surf.height = 0.1f;
  LB_CHECK(lb_world_insert(sc.w, sc.object, LB_GRIP_SURFACE, &surf) == LB_ERR_OUT_OF_RANGE);
  surf.radius = -1.0f;
  LB_CHECK(lb_world_insert(sc.w, sc.object, LB_GRIP_SURFACE, &surf) == LB_ERR_OUT_OF_RANGE);
  LB_CHECK(!lb_world_has(sc.w, sc.object, LB_GRIP_SURFACE));
  lb_grip_profile_c prof;
  LB_CHECK(lb_world_get(sc.w, sc.object, LB_GRIP_PROFILE, &prof) == LB_OK);
  prof.support_anchor = prof.main_anchor;
  LB_CHECK(lb_world_set(sc.w, sc.object, LB_GRIP_PROFILE, &prof) == LB_ERR_INVALID_ARGUMENT);
  /* despawning the held object: the holder idles, nothing crashes */
  LB_CHECK(lb_world_despawn(sc.w, sc.object) == LB_OK);
  LB_CHECK(lb_world_step(sc.w, 1.0f / 60.0f) == LB_OK);
  lb_world_destroy(sc.w);
}

/* A fist around a grip across the palm: after the wrap no finger bone centre is closer
 * than the 8% margin minus 0.1 mm, no joint is bent further from rest than the pose bends
 * it, and the fingers stop short of the pose (they touched). */
static void wrap_stops_on_surface_within_pose(void) {
  lb_transform posed[128], rest[128], open_model[128];
  uint32_t n = 0;
  float worst_gap = 1e9f, worst_over = -1e9f;
  int stopped = 0;
  for (int k = 0; k < 3; ++k) {
    scene sc;
    scene_init(&sc, 0.35f, LB_GRIP_PLACEMENT_OBJECT, 0, 0.0f);
    lb_grip_profile_c prof;
    LB_CHECK(lb_world_get(sc.w, sc.object, LB_GRIP_PROFILE, &prof) == LB_OK);
    prof.main_pose = lb_world_name(sc.w, k == 0 ? "open" : "fist");
    prof.wrap = k == 2;
    LB_CHECK(lb_world_set(sc.w, sc.object, LB_GRIP_PROFILE, &prof) == LB_OK);
    /* 2.5 cm out of the palm (+Y), along the palm's X axis: across the fingers */
    lb_entity grip = lb_test_spawn_xf(sc.w, sc.main_anchor, 0.0f, 0.025f, 0.0f, ID);
    lb_grip_surface_c surf;
    lb_component_defaults(LB_GRIP_SURFACE, &surf);
    surf.direction = 0;
    surf.radius = 0.015f;
    surf.height = 0.12f;
    LB_CHECK(lb_world_insert(sc.w, grip, LB_GRIP_SURFACE, &surf) == LB_OK);
    LB_CHECK(lb_world_step(sc.w, 1.0f / 60.0f) == LB_OK);
    const lb_transform *local = lb_rig_local_pose(sc.w, sc.hero, &n);
    if (k < 2) {
      memcpy(k == 0 ? rest : posed, local, n * sizeof(lb_transform));
      if (k == 0) {
        memcpy(open_model, lb_rig_model_pose(sc.w, sc.hero, &n), n * sizeof(lb_transform));
      }
      lb_world_destroy(sc.w);
      continue;
    }
    const lb_transform *model = lb_rig_model_pose(sc.w, sc.hero, &n);
    lb_transform root, gw, shape_space;
    LB_CHECK(lb_world_entity_transform(sc.w, sc.hero, &root) == LB_OK);
    LB_CHECK(lb_world_entity_transform(sc.w, grip, &gw) == LB_OK);
    lb_transform_inverse_mul(&root, &gw, &shape_space);
    lb_shape_def def = lb_shape_default_def();
    def.direction = LB_AXIS_X;
    def.radius = surf.radius;
    def.height = surf.height;
    lb_shape shape;
    LB_CHECK(lb_shape_resolve(&def, &shape_space, &shape) == LB_OK);
    lb_hand_info info;
    LB_CHECK(lb_world_find_hand(sc.w, sc.hero, LB_HAND_RIGHT, "", &info) == LB_OK);
    lb_palm_frame_job pj = lb_palm_frame_default_job();
    pj.hand = &info;
    pj.model = model;
    pj.joint_count = n;
    LB_CHECK(lb_palm_frame_job_run(&pj) == LB_OK);
    float margin = 0.08f * pj.index_length;
    for (int f = 0; f < LB_FINGER_COUNT; ++f) {
      const lb_finger_info *fi = &info.fingers[f];
      float finger_bend = 0.0f, pose_bend = 0.0f;
      for (int b = 0; b < fi->segment_count; ++b) {
        int a = fi->joints[b];
        int c = b + 1 < fi->segment_count ? fi->joints[b + 1] : fi->tip;
        if (c >= 0) {
          vec3 mid = {(model[a].t[0] + model[c].t[0]) * 0.5f,
                      (model[a].t[1] + model[c].t[1]) * 0.5f,
                      (model[a].t[2] + model[c].t[2]) * 0.5f};
          /* a bone that starts inside the margin may not get deeper than it started */
          vec3 mid0 = {(open_model[a].t[0] + open_model[c].t[0]) * 0.5f,
                       (open_model[a].t[1] + open_model[c].t[1]) * 0.5f,
                       (open_model[a].t[2] + open_model[c].t[2]) * 0.5f};
          float start = lb_shape_distance(&shape, mid0);
          float d = lb_shape_distance(&shape, mid) - (start < margin ? start : margin);
          worst_gap = d < worst_gap ? d : worst_gap;
        }
        float wrapped = angle_deg(
            rest[a].r, model == NULL ? rest[a].r : lb_rig_local_pose(sc.w, sc.hero, &n)[a].r);
        float full = angle_deg(rest[a].r, posed[a].r);
        worst_over = wrapped - full > worst_over ? wrapped - full : worst_over;
        finger_bend += wrapped;
        pose_bend += full;
      }
      stopped += f != LB_FINGER_THUMB && finger_bend < pose_bend - 1.0f;
    }
    lb_world_destroy(sc.w);
  }
  printf("  wrap: closest bone centre %.2f mm beyond the margin (or its start); max bend past the "
         "pose %.2e deg; "
         "%d of 4 fingers stopped short of the fist\n",
         (double)(worst_gap * 1000.0f), (double)worst_over, stopped);
  LB_CHECK(worst_gap >= -1e-4f);
  LB_CHECK(worst_over <= 1e-3f);
  LB_CHECK(stopped == 4);
}

/* Mirror planes X, Y and Z of a rotated object: the left palm lands on the anchor
 * reflected through that plane, its fingers (+Z) and palm normal (+Y) the reflected
 * anchor axes. */
static void mirror_planes_reflect_anchor_frame(void) {
  float worst_pos = 0.0f, worst_axis = 0.0f;
  for (uint32_t axis = 0; axis < 3; ++axis) {
    scene sc;
    scene_init(&sc, 0.3f, LB_GRIP_PLACEMENT_OBJECT, 1, 0.0f);
    /* turn the object so its planes are not the world's */
    lb_transform_c ot;
    LB_CHECK(lb_world_get(sc.w, sc.object, LB_TRANSFORM, &ot) == LB_OK);
    lb_quat_from_axis_angle((vec3){0.0f, 1.0f, 0.0f}, 25.0f * LB_DEG2RAD, ot.rotation);
    ot.position[0] = 0.02f;
    LB_CHECK(lb_world_set(sc.w, sc.object, LB_TRANSFORM, &ot) == LB_OK);
    /* an anchor placed close to the mirror plane so the other hand can reach it */
    lb_transform_c at;
    LB_CHECK(lb_world_get(sc.w, sc.main_anchor, LB_TRANSFORM, &at) == LB_OK);
    at.position[0] = -0.03f, at.position[1] = 0.02f, at.position[2] = 0.01f;
    LB_CHECK(lb_world_set(sc.w, sc.main_anchor, LB_TRANSFORM, &at) == LB_OK);
    lb_grip_profile_c prof;
    LB_CHECK(lb_world_get(sc.w, sc.object, LB_GRIP_PROFILE, &prof) == LB_OK);
    prof.mirror = axis;
    prof.support_anchor = 0;
    LB_CHECK(lb_world_set(sc.w, sc.object, LB_GRIP_PROFILE, &prof) == LB_OK);
    LB_CHECK(lb_world_step(sc.w, 1.0f / 60.0f) == LB_OK);
    lb_transform obj = world_of(&sc, sc.object), anchor = world_of(&sc, sc.main_anchor);
    /* expected: reflect the anchor frame through the object's plane (in object space) */
    lb_transform rel;
    lb_transform_inverse_mul(&obj, &anchor, &rel);
    vec3 pos = {rel.t[0], rel.t[1], rel.t[2]}, ay, az;
    pos[axis] = -pos[axis];
    lb_quat_rotate(rel.r, (vec3){0, 1, 0}, ay);
    lb_quat_rotate(rel.r, (vec3){0, 0, 1}, az);
    ay[axis] = -ay[axis];
    az[axis] = -az[axis];
    vec3 want_p, want_y, want_z;
    lb_transform_point(&obj, pos, want_p);
    lb_quat_rotate(obj.r, ay, want_y);
    lb_quat_rotate(obj.r, az, want_z);
    lb_transform palm = palm_world(&sc, LB_HAND_LEFT);
    vec3 py, pz;
    lb_quat_rotate(palm.r, (vec3){0, 1, 0}, py);
    lb_quat_rotate(palm.r, (vec3){0, 0, 1}, pz);
    float dp = dist3(palm.t, want_p);
    float da = dist3(py, want_y) + dist3(pz, want_z);
    worst_pos = dp > worst_pos ? dp : worst_pos;
    worst_axis = da > worst_axis ? da : worst_axis;
    lb_world_destroy(sc.w);
  }
  printf("  mirror planes X/Y/Z: left palm %.2e m from the reflected anchor, axes off by %.2e\n",
         (double)worst_pos, (double)worst_axis);
  LB_CHECK(worst_pos < 5e-4f);
  LB_CHECK(worst_axis < 1e-3f);
}

/* Holding, wrapping, switching hands, pose and trigger changes and letting go: after the
 * first step nothing in the grip phase allocates. */
static void steps_allocate_nothing(void) {
  lb_test_counter c = {0};
  lb_world_def def = lb_test_counting_def(&c);
  scene sc;
  scene_init_with(&sc, &def, 0.35f, LB_GRIP_PLACEMENT_OBJECT, 0, 0.1f);
  lb_entity grip = lb_test_spawn_xf(sc.w, sc.main_anchor, 0.0f, 0.025f, 0.0f, ID);
  lb_grip_surface_c surf;
  lb_component_defaults(LB_GRIP_SURFACE, &surf);
  LB_CHECK(lb_world_insert(sc.w, grip, LB_GRIP_SURFACE, &surf) == LB_OK);
  lb_grip_pose_c gp;
  lb_component_defaults(LB_GRIP_POSE, &gp);
  gp.left_pose = lb_world_name(sc.w, "fist");
  LB_CHECK(lb_world_insert(sc.w, sc.hero, LB_GRIP_POSE, &gp) == LB_OK);
  LB_CHECK(lb_world_step(sc.w, 1.0f / 60.0f) == LB_OK);
  size_t before = c.allocs;
  lb_grip_holder_c gh;
  LB_CHECK(lb_world_get(sc.w, sc.hero, LB_GRIP_HOLDER, &gh) == LB_OK);
  for (int i = 0; i < 120; ++i) {
    if (i == 20 || i == 50) {
      gh.main_hand = 1u - gh.main_hand;
      LB_CHECK(lb_world_set(sc.w, sc.hero, LB_GRIP_HOLDER, &gh) == LB_OK);
    }
    if (i == 30) {
      gp.right_trigger = 1.0f;
      gp.left_pose = lb_world_name(sc.w, "pinch");
      LB_CHECK(lb_world_set(sc.w, sc.hero, LB_GRIP_POSE, &gp) == LB_OK);
    }
    if (i == 80) {
      gh.held = 0;
      LB_CHECK(lb_world_set(sc.w, sc.hero, LB_GRIP_HOLDER, &gh) == LB_OK);
    }
    LB_CHECK(lb_world_step(sc.w, 1.0f / 60.0f) == LB_OK);
  }
  printf("  allocations: %zu before the first step, %zu during 120 grip steps\n", before,
         c.allocs - before);
  LB_CHECK(c.allocs == before);
  lb_world_destroy(sc.w);
  LB_CHECK(c.allocs == c.frees && c.live == 0);
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  LB_RUN(object_placement_reaches_both_anchors);
  LB_RUN(out_of_reach_points_and_reports);
  LB_RUN(hand_placement_object_follows_hand);
  LB_RUN(mirrored_grip_is_reflection);
  LB_RUN(blend_has_no_jump);
  LB_RUN(shoulder_assist_closes_part_of_gap);
  LB_RUN(determinism_bit_identical);
  LB_RUN(bad_input_changes_nothing);
  LB_RUN(wrap_stops_on_surface_within_pose);
  LB_RUN(mirror_planes_reflect_anchor_frame);
  LB_RUN(steps_allocate_nothing);
  LB_TEST_MAIN_END();
}
