/* World invariants (issue "release core"): handles never come back to life; references to
 * despawned entities read as null and block no later update; a scene step that fails
 * changes nothing (dt first, then the step's timeline commands all or nothing) and names
 * the scene, the timeline index, the command and the entity; no matrix entry or world
 * transform is ever non-finite, whatever extreme value goes in. */
#include "limber/limber.h"

#include <string.h>

#include "test.h"

/* ---- handles ------------------------------------------------------------------------ */

static void test_generation_never_wraps(void) {
  lb_world_def d = lb_world_default_def();
  d.entity_capacity = 1;
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(&d, &w) == LB_OK);
  lb_entity first = 0, e = 0;
  LB_CHECK(lb_world_spawn(w, &first) == LB_OK);
  e = first;
  /* 4,096 despawns of slot 0: generations 0..4095, then the slot is retired. */
  for (uint32_t i = 0; i <= LB_ENTITY_GENERATION_MAX; ++i) {
    LB_CHECK(lb_world_despawn(w, e) == LB_OK);
    LB_CHECK(lb_world_spawn(w, &e) == LB_OK);
  }
  /* The last spawn could not reuse slot 0: it took a new slot. */
  LB_CHECK((e & LB_MAX_ENTITIES) == 2u);
  LB_CHECK(!lb_world_alive(w, first));
  lb_transform_c xf;
  lb_component_defaults(LB_TRANSFORM, &xf);
  LB_CHECK(lb_world_insert(w, first, LB_TRANSFORM, &xf) == LB_ERR_STALE_ENTITY);
  LB_CHECK(lb_world_get(w, first, LB_TRANSFORM, &xf) == LB_ERR_STALE_ENTITY);
  /* Every old handle of slot 0 stays stale from now on. */
  for (uint32_t g = 0; g <= LB_ENTITY_GENERATION_MAX; ++g) {
    LB_CHECK(!lb_world_alive(w, (g << LB_ENTITY_INDEX_BITS) | 1u));
  }
  for (int i = 0; i < 8; ++i) {
    lb_entity n = 0;
    LB_CHECK(lb_world_spawn(w, &n) == LB_OK && (n & LB_MAX_ENTITIES) != 1u);
  }
  lb_world_destroy(w);
}

/* ---- references to despawned entities --------------------------------------------- */

typedef struct refs {
  lb_world *w;
  lb_entity hero, target, child, arm, rifle, grip;
} refs;

static void refs_setup(refs *r) {
  memset(r, 0, sizeof *r);
  LB_CHECK(lb_world_create(NULL, &r->w) == LB_OK);
  lb_world *w = r->w;
  uint32_t asset = 0;
  lb_humanoid_def hd = lb_humanoid_default_def();
  LB_CHECK(lb_world_add_humanoid(w, &hd, &asset) == LB_OK);
  lb_world_spawn(w, &r->hero);
  lb_world_spawn(w, &r->target);
  lb_world_spawn(w, &r->child);
  lb_world_spawn(w, &r->arm);
  lb_world_spawn(w, &r->rifle);
  lb_world_spawn(w, &r->grip);
  lb_transform_c xf;
  lb_component_defaults(LB_TRANSFORM, &xf);
  LB_CHECK(lb_world_insert(w, r->hero, LB_TRANSFORM, &xf) == LB_OK);
  lb_rig_c rig = {asset};
  LB_CHECK(lb_world_insert(w, r->hero, LB_RIG, &rig) == LB_OK);
  xf.position[1] = 1.2f;
  xf.position[2] = 0.3f;
  LB_CHECK(lb_world_insert(w, r->target, LB_TRANSFORM, &xf) == LB_OK);
  LB_CHECK(lb_world_insert(w, r->rifle, LB_TRANSFORM, &xf) == LB_OK);
  lb_component_defaults(LB_TRANSFORM, &xf);
  xf.parent = r->hero;
  xf.parent_joint = lb_world_name(w, "RightHand");
  LB_CHECK(lb_world_insert(w, r->child, LB_TRANSFORM, &xf) == LB_OK);
  xf.parent = r->rifle;
  xf.parent_joint = 0;
  LB_CHECK(lb_world_insert(w, r->grip, LB_TRANSFORM, &xf) == LB_OK);
  lb_two_bone_ik_c ik;
  lb_component_defaults(LB_TWO_BONE_IK, &ik);
  ik.rig = r->hero;
  ik.target = r->target;
  ik.hint = r->target;
  LB_CHECK(lb_world_insert(w, r->arm, LB_TWO_BONE_IK, &ik) == LB_OK);
  lb_grip_profile_c prof;
  lb_component_defaults(LB_GRIP_PROFILE, &prof);
  prof.main_anchor = r->grip;
  LB_CHECK(lb_world_insert(w, r->rifle, LB_GRIP_PROFILE, &prof) == LB_OK);
  lb_grip_holder_c gh;
  lb_component_defaults(LB_GRIP_HOLDER, &gh);
  gh.held = r->rifle;
  LB_CHECK(lb_world_insert(w, r->hero, LB_GRIP_HOLDER, &gh) == LB_OK);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
}

static void test_despawned_references(void) {
  refs r;
  refs_setup(&r);
  lb_world *w = r.w;
  /* The IK target and the held object go. */
  LB_CHECK(lb_world_despawn(w, r.target) == LB_OK);
  LB_CHECK(lb_world_despawn(w, r.grip) == LB_OK);
  lb_two_bone_ik_c ik;
  LB_CHECK(lb_world_get(w, r.arm, LB_TWO_BONE_IK, &ik) == LB_OK);
  LB_CHECK(ik.target == LB_NULL_ENTITY && ik.hint == LB_NULL_ENTITY && ik.rig == r.hero);
  /* Read, change another field, write back: accepted (was LB_ERR_STALE_ENTITY). */
  ik.weight = 0.5f;
  lb_result res = lb_world_set(w, r.arm, LB_TWO_BONE_IK, &ik);
  if (res != LB_OK) {
    fprintf(stderr, "  update after despawn: %s\n", lb_world_last_error(w));
  }
  LB_CHECK(res == LB_OK);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  LB_CHECK(lb_world_get(w, r.arm, LB_TWO_BONE_IK, &ik) == LB_OK);
  LB_CHECK(ik.weight == 0.5f && ik.target == LB_NULL_ENTITY && ik.reached == 0);
  /* A stale handle written where the field did not hold it is still an error. */
  lb_entity stale_target = r.target;
  lb_two_bone_ik_c other = ik;
  other.hint = stale_target;
  LB_CHECK(lb_world_get(w, r.arm, LB_TWO_BONE_IK, &ik) == LB_OK);
  /* hint held the same stale handle: writing it back is "unchanged" and fine. */
  LB_CHECK(lb_world_set(w, r.arm, LB_TWO_BONE_IK, &other) == LB_OK);
  lb_transform_c xf;
  lb_component_defaults(LB_TRANSFORM, &xf);
  xf.parent = stale_target;
  LB_CHECK(lb_world_set(w, r.rifle, LB_TRANSFORM, &xf) == LB_ERR_STALE_ENTITY);
  /* A live target replaces the stale one. */
  lb_entity t2 = 0;
  lb_world_spawn(w, &t2);
  lb_component_defaults(LB_TRANSFORM, &xf);
  xf.position[1] = 1.0f;
  LB_CHECK(lb_world_insert(w, t2, LB_TRANSFORM, &xf) == LB_OK);
  ik.target = t2;
  LB_CHECK(lb_world_set(w, r.arm, LB_TWO_BONE_IK, &ik) == LB_OK);
  /* The rig itself goes: the constraint idles and stays writable. */
  lb_grip_holder_c gh;
  LB_CHECK(lb_world_get(w, r.hero, LB_GRIP_HOLDER, &gh) == LB_OK && gh.held == r.rifle);
  LB_CHECK(lb_world_despawn(w, r.rifle) == LB_OK);
  LB_CHECK(lb_world_get(w, r.hero, LB_GRIP_HOLDER, &gh) == LB_OK && gh.held == LB_NULL_ENTITY);
  gh.weight = 0.25f;
  LB_CHECK(lb_world_set(w, r.hero, LB_GRIP_HOLDER, &gh) == LB_OK);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  LB_CHECK(lb_world_despawn(w, r.hero) == LB_OK);
  LB_CHECK(lb_world_get(w, r.arm, LB_TWO_BONE_IK, &ik) == LB_OK && ik.rig == LB_NULL_ENTITY);
  ik.soften = 0.75f;
  LB_CHECK(lb_world_set(w, r.arm, LB_TWO_BONE_IK, &ik) == LB_OK);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  /* The Transform child of the despawned hero is a root now, and says so. */
  LB_CHECK(lb_world_get(w, r.child, LB_TRANSFORM, &xf) == LB_OK);
  LB_CHECK(xf.parent == LB_NULL_ENTITY && xf.parent_joint == 0);
  xf.position[0] = 2.0f;
  LB_CHECK(lb_world_set(w, r.child, LB_TRANSFORM, &xf) == LB_OK);
  lb_world_destroy(w);
}

/* ---- scene steps: dt first, commands all or nothing, named errors ------------------- */

static const char *TIMELINE_SCENE =
    "{\"name\":\"lab\",\"entities\":["
    "{\"name\":\"a\",\"components\":{\"Transform\":{}}},"
    "{\"name\":\"b\",\"components\":{\"Transform\":{}}},"
    "{\"name\":\"c\"}],"
    "\"timeline\":["
    "{\"step\":1,\"update\":{\"entity\":\"a\",\"component\":\"Transform\","
    "\"fields\":{\"position\":[1,0,0]}}},"
    "{\"step\":1,\"remove\":{\"entity\":\"b\",\"component\":\"Transform\"}},"
    "{\"step\":1,\"insert\":{\"entity\":\"c\",\"component\":\"Transform\","
    "\"fields\":{\"position\":[0,3,0]}}},"
    "{\"step\":1,\"update\":{\"entity\":\"a\",\"component\":\"Transform\","
    "\"fields\":{\"parentJoint\":\"Hips\"}}}]}";

static void xf_of(lb_world *w, lb_scene *sc, const char *name, lb_transform_c *out, bool *has) {
  *has = lb_world_get(w, lb_scene_entity(sc, name), LB_TRANSFORM, out) == LB_OK;
}

static void test_step_dt_first(void) {
  lb_world *w = NULL;
  lb_scene *sc = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  const char *json = "{\"entities\":[{\"name\":\"a\",\"components\":{\"Transform\":{}}}],"
                     "\"timeline\":[{\"step\":0,\"update\":{\"entity\":\"a\",\"component\":"
                     "\"Transform\",\"fields\":{\"position\":[1,2,3]}}}]}";
  LB_CHECK(lb_scene_load(w, json, strlen(json), &sc) == LB_OK);
  float bad[] = {NAN, INFINITY, -1.0f, 2.0f};
  for (int i = 0; i < 4; ++i) {
    LB_CHECK(lb_scene_step(w, sc, bad[i]) == LB_ERR_OUT_OF_RANGE);
    lb_transform_c xf;
    LB_CHECK(lb_world_get(w, lb_scene_entity(sc, "a"), LB_TRANSFORM, &xf) == LB_OK);
    LB_CHECK(xf.position[0] == 0.0f); /* the due command was not applied */
    LB_CHECK(lb_world_step_count(w) == 0);
  }
  LB_CHECK(strstr(lb_world_last_error(w), "no timeline command applied") != NULL);
  LB_CHECK(lb_scene_step(w, sc, 1.0f / 60.0f) == LB_OK);
  lb_transform_c xf;
  LB_CHECK(lb_world_get(w, lb_scene_entity(sc, "a"), LB_TRANSFORM, &xf) == LB_OK);
  LB_CHECK(xf.position[0] == 1.0f);
  lb_scene_destroy(w, sc);
  lb_world_destroy(w);
}

static void test_step_all_or_nothing(void) {
  lb_world *w = NULL;
  lb_scene *sc = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  LB_CHECK(lb_scene_load(w, TIMELINE_SCENE, strlen(TIMELINE_SCENE), &sc) == LB_OK);
  LB_CHECK(lb_scene_step(w, sc, 1.0f / 60.0f) == LB_OK);
  uint64_t h = lb_world_hash(w);
  /* Step 1: three commands apply, the fourth fails (a has no parent for parentJoint). */
  for (int attempt = 0; attempt < 2; ++attempt) {
    lb_result r = lb_scene_step(w, sc, 1.0f / 60.0f);
    LB_CHECK(r == LB_ERR_INVALID_ARGUMENT);
    const char *msg = lb_world_last_error(w);
    if (attempt == 0) {
      printf("  failed step: %s\n", msg);
    }
    LB_CHECK(strstr(msg, "scene 'lab'") != NULL);
    LB_CHECK(strstr(msg, "timeline[3]") != NULL);
    LB_CHECK(strstr(msg, "update Transform") != NULL);
    LB_CHECK(strstr(msg, "entity 'a'") != NULL);
    LB_CHECK(strstr(msg, "parentJoint") != NULL);
    /* Nothing of the step stayed: a unmoved, b keeps its Transform, c has none. */
    lb_transform_c xf;
    bool has = false;
    xf_of(w, sc, "a", &xf, &has);
    LB_CHECK(has && xf.position[0] == 0.0f);
    xf_of(w, sc, "b", &xf, &has);
    LB_CHECK(has);
    xf_of(w, sc, "c", &xf, &has);
    LB_CHECK(!has);
    LB_CHECK(lb_world_step_count(w) == 1 && lb_world_hash(w) == h);
  }
  lb_scene_destroy(w, sc);
  lb_world_destroy(w);
}

static void test_step_precheck_names(void) {
  lb_world *w = NULL;
  lb_scene *sc = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  const char *json =
      "{\"name\":\"pre\",\"entities\":[{\"name\":\"a\",\"components\":{\"Transform\":{}}},"
      "{\"name\":\"gone\",\"components\":{\"Transform\":{}}}],"
      "\"timeline\":[{\"step\":0,\"update\":{\"entity\":\"a\",\"component\":"
      "\"Transform\",\"fields\":{\"position\":[1,2,3]}}},"
      "{\"step\":0,\"update\":{\"entity\":\"gone\",\"component\":\"Transform\","
      "\"fields\":{\"position\":[1,2,3]}}}]}";
  LB_CHECK(lb_scene_load(w, json, strlen(json), &sc) == LB_OK);
  LB_CHECK(lb_world_despawn(w, lb_scene_entity(sc, "gone")) == LB_OK);
  LB_CHECK(lb_scene_step(w, sc, 1.0f / 60.0f) == LB_ERR_STALE_ENTITY);
  const char *msg = lb_world_last_error(w);
  printf("  precheck: %s\n", msg);
  LB_CHECK(strstr(msg, "scene 'pre'") && strstr(msg, "timeline[1]") && strstr(msg, "'gone'"));
  lb_transform_c xf;
  LB_CHECK(lb_world_get(w, lb_scene_entity(sc, "a"), LB_TRANSFORM, &xf) == LB_OK);
  LB_CHECK(xf.position[0] == 0.0f);
  lb_scene_destroy(w, sc);
  /* Values are checked at load: an out-of-range scale in an update is refused then. */
  const char *bad = "{\"entities\":[{\"name\":\"a\",\"components\":{\"Transform\":{}}}],"
                    "\"timeline\":[{\"step\":9,\"update\":{\"entity\":\"a\",\"component\":"
                    "\"Transform\",\"fields\":{\"scale\":[1,1e9,1]}}}]}";
  sc = NULL;
  LB_CHECK(lb_scene_load(w, bad, strlen(bad), &sc) == LB_ERR_OUT_OF_RANGE && sc == NULL);
  LB_CHECK(strstr(lb_world_last_error(w), "timeline[0]") != NULL);
  lb_world_destroy(w);
}

/* ---- finite-ness ------------------------------------------------------------------ */

/* No matrix entry of any rig and no world transform of any entity is NaN or infinite. */
static bool world_finite(lb_world *w, const lb_entity *ents, uint32_t n) {
  bool ok = true;
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t count = 0;
    const float *m = lb_rig_model_matrices(w, ents[i], &count);
    for (uint32_t k = 0; m && k < count * 16u; ++k) {
      ok = ok && isfinite(m[k]);
    }
    lb_transform x;
    if (lb_world_entity_transform(w, ents[i], &x) == LB_OK) {
      for (int k = 0; k < 3; ++k) {
        ok = ok && isfinite(x.t[k]) && isfinite(x.s[k]) && isfinite(x.r[k]);
      }
    }
  }
  return ok;
}

static void test_nested_scales(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  lb_entity chain[10];
  lb_transform_c xf;
  int accepted = 0;
  for (int i = 0; i < 10; ++i) {
    lb_world_spawn(w, &chain[i]);
    lb_component_defaults(LB_TRANSFORM, &xf);
    xf.scale[0] = xf.scale[1] = xf.scale[2] = 1e4f;
    xf.position[0] = LB_WORLD_EXTENT; /* the largest position accepted */
    xf.parent = i ? chain[i - 1] : LB_NULL_ENTITY;
    if (lb_world_insert(w, chain[i], LB_TRANSFORM, &xf) == LB_OK) {
      accepted++;
    } else {
      /* the entity still gets a Transform, at scale 1, under its parent */
      xf.scale[0] = xf.scale[1] = xf.scale[2] = 1.0f;
      LB_CHECK(lb_world_insert(w, chain[i], LB_TRANSFORM, &xf) == LB_OK);
    }
  }
  LB_CHECK(accepted == 1);
  LB_CHECK(strstr(lb_world_last_error(w), "world scale") == NULL); /* cleared by the success */
  /* Raising a middle scale is refused when a descendant would leave the range. */
  LB_CHECK(lb_world_get(w, chain[5], LB_TRANSFORM, &xf) == LB_OK);
  xf.scale[1] = 2.0f;
  LB_CHECK(lb_world_set(w, chain[5], LB_TRANSFORM, &xf) == LB_ERR_OUT_OF_RANGE);
  printf("  nested scale: %s\n", lb_world_last_error(w));
  xf.scale[1] = 0.5f;
  LB_CHECK(lb_world_set(w, chain[5], LB_TRANSFORM, &xf) == LB_OK);
  /* Tiny scales the same way, and reparenting under a scaled chain. */
  lb_entity tiny = 0;
  lb_world_spawn(w, &tiny);
  lb_component_defaults(LB_TRANSFORM, &xf);
  xf.scale[2] = 1e-6f;
  LB_CHECK(lb_world_insert(w, tiny, LB_TRANSFORM, &xf) == LB_OK);
  xf.parent = chain[9];
  xf.scale[2] = 1e-4f;
  LB_CHECK(lb_world_insert(w, tiny, LB_TRANSFORM, &xf) == LB_OK); /* 1e4 * 1e-4 = 1 */
  lb_transform_c child;
  lb_component_defaults(LB_TRANSFORM, &child);
  child.scale[2] = 1e-5f;
  child.parent = tiny;
  lb_entity c2 = 0;
  lb_world_spawn(w, &c2);
  LB_CHECK(lb_world_insert(w, c2, LB_TRANSFORM, &child) == LB_OK);
  xf.parent = LB_NULL_ENTITY; /* tiny to the root: its child would be at 1e-9 */
  LB_CHECK(lb_world_set(w, tiny, LB_TRANSFORM, &xf) == LB_ERR_OUT_OF_RANGE);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  lb_entity all[12];
  memcpy(all, chain, sizeof chain);
  all[10] = tiny;
  all[11] = c2;
  LB_CHECK(world_finite(w, all, 12));
  lb_world_destroy(w);
}

static void test_pose_limits(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  uint32_t asset = 0;
  lb_humanoid_def hd = lb_humanoid_default_def();
  LB_CHECK(lb_world_add_humanoid(w, &hd, &asset) == LB_OK);
  lb_entity hero = 0;
  lb_world_spawn(w, &hero);
  lb_rig_c rig = {asset};
  LB_CHECK(lb_world_insert(w, hero, LB_RIG, &rig) == LB_OK);
  uint32_t n = 0;
  const lb_transform *rest = lb_rig_local_pose(w, hero, &n);
  lb_transform *pose = malloc(n * sizeof *pose);
  memcpy(pose, rest, n * sizeof *pose);
  /* One joint at scale 1e30 (was accepted; 567 NaN matrix entries after a step). */
  pose[3].s[0] = 1e30f;
  LB_CHECK(lb_rig_set_animation_pose(w, hero, pose, n) == LB_ERR_OUT_OF_RANGE);
  /* Every joint at the per-joint maximum: the model-space product leaves the range. */
  for (uint32_t j = 0; j < n; ++j) {
    pose[j].s[0] = pose[j].s[1] = pose[j].s[2] = LB_POSE_SCALE_MAX;
  }
  LB_CHECK(lb_rig_set_animation_pose(w, hero, pose, n) == LB_ERR_OUT_OF_RANGE);
  printf("  pose: %s\n", lb_world_last_error(w));
  memcpy(pose, rest, n * sizeof *pose);
  pose[5].t[1] = 2e6f;
  LB_CHECK(lb_rig_set_animation_pose(w, hero, pose, n) == LB_ERR_OUT_OF_RANGE);
  /* The extremes that are accepted keep every matrix entry finite. */
  memcpy(pose, rest, n * sizeof *pose);
  pose[0].s[0] = pose[0].s[1] = pose[0].s[2] = LB_POSE_SCALE_MAX;
  for (uint32_t j = 0; j < n; ++j) {
    pose[j].t[0] = LB_POSE_TRANSLATION_MAX;
  }
  LB_CHECK(lb_rig_set_animation_pose(w, hero, pose, n) == LB_OK);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  LB_CHECK(world_finite(w, &hero, 1));
  free(pose);
  lb_world_destroy(w);
}

/* Every writable number of every component of the grip lab scene at its minimum and its
 * maximum, one at a time, with steps between: no non-finite matrix entry, ever. */
static void test_extreme_inputs(void) {
  size_t len = 0;
  char *json = lb_test_read_file("assets/scenes/grip-lab.json", &len);
  LB_CHECK(json != NULL);
  if (!json) {
    return;
  }
  lb_world *w = NULL;
  lb_scene *sc = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  LB_CHECK(lb_scene_load(w, json, len, &sc) == LB_OK);
  free(json);
  uint32_t ne = lb_scene_entity_count(sc);
  lb_entity ents[64];
  for (uint32_t i = 0; i < ne && i < 64; ++i) {
    ents[i] = lb_scene_entity_at(sc, i);
  }
  ne = ne < 64 ? ne : 64;
  int writes = 0, refused = 0;
  bool finite = true;
  for (uint32_t i = 0; i < ne; ++i) {
    for (uint32_t t = 0; t < lb_component_count(); ++t) {
      const lb_component_info *info = lb_component_info_get(t);
      _Alignas(16) uint8_t orig[LB_COMPONENT_MAX_SIZE], v[LB_COMPONENT_MAX_SIZE];
      if (lb_world_get(w, ents[i], t, orig) != LB_OK) {
        continue;
      }
      for (uint32_t f = 0; f < info->field_count; ++f) {
        const lb_field *fd = &info->fields[f];
        if ((fd->flags & LB_FIELD_READONLY) ||
            (fd->type != LB_FIELD_F32 && fd->type != LB_FIELD_VEC3)) {
          continue;
        }
        for (int end = 0; end < 2; ++end) {
          memcpy(v, orig, info->size);
          float *p = (float *)(v + fd->offset);
          for (uint32_t k = 0; k < fd->size / sizeof(float); ++k) {
            p[k] = end ? fd->max : fd->min;
          }
          lb_result r = lb_world_set(w, ents[i], t, v);
          writes++;
          refused += r != LB_OK;
          for (int s = 0; s < 3; ++s) {
            LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
          }
          bool ok = world_finite(w, ents, ne);
          if (!ok) {
            fprintf(stderr, "  non-finite after %s.%s = %s\n", info->name, fd->name,
                    end ? "max" : "min");
          }
          finite = finite && ok;
          lb_world_set(w, ents[i], t, orig);
        }
      }
    }
  }
  printf("  extreme inputs: %d writes (%d refused), every matrix entry finite: %s\n", writes,
         refused, finite ? "yes" : "no");
  LB_CHECK(finite && writes > 20);
  lb_scene_destroy(w, sc);
  lb_world_destroy(w);
}

/* A removed Rig is not put back with fresh buffers: removes go last, so a failing command
 * of the same step leaves the posed rig (and the hash) exactly as they were. */
static void test_step_remove_then_fail(void) {
  const char *json =
      "{\"name\":\"rm\",\"assets\":{\"rigs\":{\"m\":{\"builtin\":\"humanoid\"}}},"
      "\"entities\":[{\"name\":\"hero\",\"components\":{\"Transform\":{},\"Rig\":"
      "{\"asset\":\"m\"}}},{\"name\":\"t\",\"components\":{\"Transform\":"
      "{\"position\":[0.3,1.3,0.3]}}},{\"name\":\"arm\",\"components\":{\"TwoBoneIK\":"
      "{\"rig\":\"hero\",\"target\":\"t\"}}}],"
      "\"timeline\":[{\"step\":2,\"remove\":{\"entity\":\"hero\",\"component\":\"Rig\"}},"
      "{\"step\":2,\"update\":{\"entity\":\"t\",\"component\":\"Transform\","
      "\"fields\":{\"parentJoint\":\"Hips\"}}}]}";
  lb_world *w = NULL;
  lb_scene *sc = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  LB_CHECK(lb_scene_load(w, json, strlen(json), &sc) == LB_OK);
  LB_CHECK(lb_scene_step(w, sc, 1.0f / 60.0f) == LB_OK);
  LB_CHECK(lb_scene_step(w, sc, 1.0f / 60.0f) == LB_OK);
  uint64_t h = lb_world_hash(w);
  LB_CHECK(lb_scene_step(w, sc, 1.0f / 60.0f) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_world_has(w, lb_scene_entity(sc, "hero"), LB_RIG));
  LB_CHECK(lb_world_hash(w) == h && lb_world_step_count(w) == 2);
  lb_scene_destroy(w, sc);
  lb_world_destroy(w);
}

int main(void) {
  LB_RUN(test_step_remove_then_fail);
  LB_RUN(test_nested_scales);
  LB_RUN(test_pose_limits);
  LB_RUN(test_extreme_inputs);
  LB_RUN(test_step_dt_first);
  LB_RUN(test_step_all_or_nothing);
  LB_RUN(test_step_precheck_names);
  LB_RUN(test_generation_never_wraps);
  LB_RUN(test_despawned_references);
  LB_TEST_MAIN_END();
}
