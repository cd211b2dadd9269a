/* World: lifetime and allocator hooks, entity handles, the component schema, insert/update
 * validation (a failing call changes nothing), parenting and the step's dt contract. */
#include "limber/limber.h"

#include <stdlib.h>
#include <string.h>

#include "test.h"

/* The message of the last failure on `w` contains `sub`. */
#define CHECK_MSG(w, sub)                                                                          \
  do {                                                                                             \
    const char *lb_m_ = lb_world_last_error(w);                                                    \
    if (!strstr(lb_m_, (sub))) {                                                                   \
      fprintf(stderr, "%s:%d: message \"%s\" lacks \"%s\"\n", __FILE__, __LINE__, lb_m_, (sub));   \
      lb_test_checks_failed++;                                                                     \
    }                                                                                              \
  } while (0)

static const char *label(lb_entity e, char *buf, size_t n) {
  snprintf(buf, n, "entity %uv%u", (unsigned)((e & LB_MAX_ENTITIES) - 1u),
           (unsigned)(e >> LB_ENTITY_INDEX_BITS));
  return buf;
}

static lb_world *new_world(lb_test_counter *c) {
  lb_world_def def = lb_world_default_def();
  if (c) {
    def.allocator.alloc = lb_test_count_alloc;
    def.allocator.free = lb_test_count_free;
    def.allocator.user = c;
  }
  lb_world *w = NULL;
  lb_result r = lb_world_create(&def, &w);
  LB_CHECK(r == LB_OK && w != NULL);
  return w;
}

static lb_transform_c transform_at(float x, float y, float z) {
  lb_transform_c t;
  lb_component_defaults(LB_TRANSFORM, &t);
  t.position[0] = x;
  t.position[1] = y;
  t.position[2] = z;
  return t;
}

/* A humanoid "hero" with Transform + Rig, a target and an arm IK entity. */
typedef struct fixture {
  lb_world *w;
  uint32_t asset;
  lb_entity hero, target, target2, arm;
  lb_two_bone_ik_c ik;
} fixture;

static void fixture_init(fixture *f, lb_test_counter *c) {
  f->w = new_world(c);
  LB_CHECK(lb_world_add_humanoid(f->w, NULL, &f->asset) == LB_OK);
  LB_CHECK(lb_world_spawn(f->w, &f->hero) == LB_OK);
  LB_CHECK(lb_world_spawn(f->w, &f->target) == LB_OK);
  LB_CHECK(lb_world_spawn(f->w, &f->target2) == LB_OK);
  LB_CHECK(lb_world_spawn(f->w, &f->arm) == LB_OK);
  lb_transform_c t = transform_at(0.0f, 0.0f, 0.0f);
  LB_CHECK(lb_world_insert(f->w, f->hero, LB_TRANSFORM, &t) == LB_OK);
  lb_rig_c rig = {f->asset};
  LB_CHECK(lb_world_insert(f->w, f->hero, LB_RIG, &rig) == LB_OK);
  t = transform_at(-0.3f, 1.3f, 0.3f);
  LB_CHECK(lb_world_insert(f->w, f->target, LB_TRANSFORM, &t) == LB_OK);
  t = transform_at(-0.4f, 1.0f, 0.2f);
  LB_CHECK(lb_world_insert(f->w, f->target2, LB_TRANSFORM, &t) == LB_OK);
  lb_component_defaults(LB_TWO_BONE_IK, &f->ik);
  f->ik.rig = f->hero;
  f->ik.target = f->target;
}

/* ---- lifetime and memory --------------------------------------------------------------- */
static void test_create_destroy_allocator(void) {
  lb_test_counter c = {0};
  fixture f;
  fixture_init(&f, &c);
  LB_CHECK(lb_world_insert(f.w, f.arm, LB_TWO_BONE_IK, &f.ik) == LB_OK);
  LB_CHECK(c.allocs > 0);
  LB_CHECK(lb_world_step(f.w, 1.0f / 60.0f) == LB_OK);
  size_t after_first = c.allocs;
  lb_transform_c t = transform_at(-0.3f, 1.3f, 0.3f);
  for (int i = 0; i < 200; ++i) {
    t.position[1] = 1.2f + 0.001f * (float)i; /* moving target: the IK really runs */
    LB_CHECK(lb_world_set(f.w, f.target, LB_TRANSFORM, &t) == LB_OK);
    LB_CHECK(lb_world_step(f.w, 1.0f / 60.0f) == LB_OK);
  }
  printf("world: %zu allocations (%zu bytes) before stepping, %zu during 200 steps\n", after_first,
         c.bytes, c.allocs - after_first);
  LB_CHECK(c.allocs == after_first); /* no per-step heap allocation */
  LB_CHECK(lb_world_step_count(f.w) == 201);
  lb_world_destroy(f.w);
  LB_CHECK(c.frees == c.allocs);
  LB_CHECK(c.live == 0);

  /* Growth from a tiny capacity, despawns and skeletons: everything freed. */
  lb_test_counter g = {0};
  lb_world_def def = lb_world_default_def();
  def.entity_capacity = 2;
  def.allocator.alloc = lb_test_count_alloc;
  def.allocator.free = lb_test_count_free;
  def.allocator.user = &g;
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(&def, &w) == LB_OK);
  uint32_t asset = 0;
  LB_CHECK(lb_world_add_humanoid(w, NULL, &asset) == LB_OK);
  lb_entity es[100];
  for (int i = 0; i < 100; ++i) {
    LB_CHECK(lb_world_spawn(w, &es[i]) == LB_OK);
    lb_rig_c rig = {asset};
    if (i % 3 == 0) {
      LB_CHECK(lb_world_insert(w, es[i], LB_RIG, &rig) == LB_OK);
    }
  }
  for (int i = 0; i < 100; i += 2) {
    LB_CHECK(lb_world_despawn(w, es[i]) == LB_OK);
  }
  LB_CHECK(lb_world_step(w, 0.0f) == LB_OK);
  lb_world_destroy(w);
  LB_CHECK(g.allocs > 10 && g.frees == g.allocs && g.live == 0);

  /* Half-set hooks and bad capacities are refused without allocating. */
  lb_test_counter h = {0};
  def = lb_world_default_def();
  def.allocator.alloc = lb_test_count_alloc;
  def.allocator.user = &h;
  w = (lb_world *)&h; /* must be reset to null on failure */
  LB_CHECK(lb_world_create(&def, &w) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(w == NULL);
  def = lb_world_default_def();
  def.entity_capacity = 0;
  LB_CHECK(lb_world_create(&def, &w) == LB_ERR_OUT_OF_RANGE && w == NULL);
  def.entity_capacity = LB_MAX_ENTITIES + 1u;
  LB_CHECK(lb_world_create(&def, &w) == LB_ERR_OUT_OF_RANGE && w == NULL);
  LB_CHECK(h.allocs == 0);
  LB_CHECK(lb_world_create(NULL, NULL) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK && w != NULL); /* null def = defaults */
  lb_world_destroy(w);
  lb_world_destroy(NULL); /* no-op */
}

/* ---- entity handles -------------------------------------------------------------------- */
static void test_entity_handles(void) {
  lb_world *w = new_world(NULL);
  char lbl[48];
  lb_entity a, b;
  LB_CHECK(lb_world_spawn(w, &a) == LB_OK);
  LB_CHECK(lb_world_spawn(w, &b) == LB_OK);
  LB_CHECK(a != LB_NULL_ENTITY && b != LB_NULL_ENTITY && a != b);
  LB_CHECK(lb_world_alive(w, a) && lb_world_alive(w, b));
  lb_transform_c t = transform_at(1.0f, 2.0f, 3.0f);
  LB_CHECK(lb_world_insert(w, a, LB_TRANSFORM, &t) == LB_OK);
  LB_CHECK(lb_world_has(w, a, LB_TRANSFORM));

  LB_CHECK(lb_world_despawn(w, a) == LB_OK);
  LB_CHECK(!lb_world_alive(w, a));
  LB_CHECK(!lb_world_has(w, a, LB_TRANSFORM));
  LB_CHECK(lb_world_alive(w, b)); /* others untouched */

  /* Stale handle: every entry point answers with an error naming the entity. */
  lb_transform_c got;
  LB_CHECK(lb_world_get(w, a, LB_TRANSFORM, &got) == LB_ERR_STALE_ENTITY);
  LB_CHECK(lb_world_insert(w, a, LB_TRANSFORM, &t) == LB_ERR_STALE_ENTITY);
  CHECK_MSG(w, label(a, lbl, sizeof lbl));
  CHECK_MSG(w, "stale");
  LB_CHECK(lb_world_set(w, a, LB_TRANSFORM, &t) == LB_ERR_STALE_ENTITY);
  CHECK_MSG(w, label(a, lbl, sizeof lbl));
  LB_CHECK(lb_world_remove(w, a, LB_TRANSFORM) == LB_ERR_STALE_ENTITY);
  CHECK_MSG(w, label(a, lbl, sizeof lbl));
  lb_transform xf;
  LB_CHECK(lb_world_entity_transform(w, a, &xf) == LB_ERR_STALE_ENTITY);
  /* Double despawn: an error, not a crash, and the message names the entity. */
  LB_CHECK(lb_world_despawn(w, a) == LB_ERR_STALE_ENTITY);
  CHECK_MSG(w, label(a, lbl, sizeof lbl));
  CHECK_MSG(w, "despawn");

  /* Slot reuse: same index, new generation; the old handle stays stale. */
  lb_entity c = 0;
  LB_CHECK(lb_world_spawn(w, &c) == LB_OK);
  LB_CHECK((c & LB_MAX_ENTITIES) == (a & LB_MAX_ENTITIES));
  LB_CHECK(c != a);
  LB_CHECK((c >> LB_ENTITY_INDEX_BITS) != (a >> LB_ENTITY_INDEX_BITS));
  LB_CHECK(lb_world_alive(w, c) && !lb_world_alive(w, a));
  LB_CHECK(!lb_world_has(w, c, LB_TRANSFORM)); /* reused slot starts empty */
  LB_CHECK(lb_world_insert(w, a, LB_TRANSFORM, &t) == LB_ERR_STALE_ENTITY);
  LB_CHECK(!lb_world_has(w, c, LB_TRANSFORM)); /* the stale write did not land on c */
  LB_CHECK(lb_world_despawn(w, a) == LB_ERR_STALE_ENTITY);
  LB_CHECK(lb_world_alive(w, c));

  /* Null entity and made-up handles. */
  LB_CHECK(!lb_world_alive(w, LB_NULL_ENTITY));
  LB_CHECK(lb_world_despawn(w, LB_NULL_ENTITY) == LB_ERR_STALE_ENTITY);
  CHECK_MSG(w, "null");
  LB_CHECK(lb_world_insert(w, LB_NULL_ENTITY, LB_TRANSFORM, &t) == LB_ERR_STALE_ENTITY);
  CHECK_MSG(w, "null");
  LB_CHECK(lb_world_get(w, LB_NULL_ENTITY, LB_TRANSFORM, &got) == LB_ERR_STALE_ENTITY);
  LB_CHECK(lb_world_entity_transform(w, LB_NULL_ENTITY, &xf) == LB_ERR_STALE_ENTITY);
  LB_CHECK(!lb_world_has(w, LB_NULL_ENTITY, LB_TRANSFORM));
  lb_entity bogus = 5000u | (3u << LB_ENTITY_INDEX_BITS);
  LB_CHECK(!lb_world_alive(w, bogus));
  LB_CHECK(lb_world_despawn(w, bogus) == LB_ERR_STALE_ENTITY);
  LB_CHECK(!lb_world_alive(w, b | (7u << LB_ENTITY_INDEX_BITS))); /* right slot, wrong gen */
  LB_CHECK(lb_world_spawn(w, NULL) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_world_spawn(NULL, &c) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(!lb_world_alive(NULL, b));

  /* Many spawn/despawn cycles: handles never repeat while the generation has room. */
  lb_entity prev = c;
  for (int i = 0; i < 100; ++i) {
    lb_entity n;
    LB_CHECK(lb_world_despawn(w, prev) == LB_OK);
    LB_CHECK(lb_world_spawn(w, &n) == LB_OK);
    LB_CHECK(n != prev && !lb_world_alive(w, prev));
    prev = n;
  }
  lb_world_destroy(w);
}

/* ---- schema ------------------------------------------------------------------------------ */
static uint32_t type_size(lb_field_type t) {
  switch (t) {
  case LB_FIELD_VEC3:
    return 12;
  case LB_FIELD_QUAT:
    return 16;
  case LB_FIELD_STRING:
    return 0; /* any */
  default:
    return 4;
  }
}

static void test_schema(void) {
  LB_CHECK(lb_component_count() == LB_COMPONENT_TYPE_COUNT);
  LB_CHECK(lb_component_find("Transform") == LB_TRANSFORM);
  LB_CHECK(lb_component_find("Rig") == LB_RIG);
  LB_CHECK(lb_component_find("TwoBoneIK") == LB_TWO_BONE_IK);
  LB_CHECK(lb_component_find("transform") == -1);
  LB_CHECK(lb_component_find("") == -1);
  LB_CHECK(lb_component_find(NULL) == -1);
  LB_CHECK(lb_component_info_get(LB_COMPONENT_TYPE_COUNT) == NULL);
  LB_CHECK(lb_component_info_get(LB_TRANSFORM)->size == sizeof(lb_transform_c));
  LB_CHECK(lb_component_info_get(LB_RIG)->size == sizeof(lb_rig_c));
  LB_CHECK(lb_component_info_get(LB_TWO_BONE_IK)->size == sizeof(lb_two_bone_ik_c));

  lb_transform_c t;
  memset(&t, 0xAB, sizeof t);
  lb_component_defaults(LB_TRANSFORM, &t);
  for (int i = 0; i < 3; ++i) {
    LB_CHECK(t.position[i] == 0.0f && t.scale[i] == 1.0f);
  }
  LB_CHECK(t.rotation[0] == 0.0f && t.rotation[1] == 0.0f && t.rotation[2] == 0.0f &&
           t.rotation[3] == 1.0f);
  LB_CHECK(t.parent == LB_NULL_ENTITY && t.parent_joint == 0);

  lb_two_bone_ik_c ik;
  memset(&ik, 0xAB, sizeof ik);
  lb_component_defaults(LB_TWO_BONE_IK, &ik);
  LB_CHECK(ik.weight == 1.0f && ik.rotation_weight == 0.0f && ik.soften == 1.0f);
  {
    /* A name default is the id its text has in every world. */
    lb_world *nw = new_world(NULL);
    LB_CHECK(strcmp(lb_world_name_text(nw, ik.tip), "RightHand") == 0);
    LB_CHECK(lb_world_name(nw, "RightHand") == ik.tip);
    lb_world_destroy(nw);
  }
  LB_CHECK(ik.rig == LB_NULL_ENTITY && ik.target == LB_NULL_ENTITY && ik.hint == LB_NULL_ENTITY);
  LB_CHECK(ik.reached == 0 && ik.distance == 0.0f);

  lb_rig_c rig;
  memset(&rig, 0xAB, sizeof rig);
  lb_component_defaults(LB_RIG, &rig);
  LB_CHECK(rig.asset == 0);

  /* Every field inside its struct, no two fields overlapping, names unique, sizes match the
   * type, numeric defaults inside their range. */
  for (uint32_t ty = 0; ty < lb_component_count(); ++ty) {
    const lb_component_info *info = lb_component_info_get(ty);
    LB_CHECK(info && info->name && info->field_count > 0 && info->fields);
    for (uint32_t i = 0; i < info->field_count; ++i) {
      const lb_field *f = &info->fields[i];
      LB_CHECK(f->name && f->name[0] && f->doc && f->doc[0]);
      LB_CHECK(f->size > 0 && f->offset + f->size <= info->size);
      LB_CHECK(type_size(f->type) == 0 || type_size(f->type) == f->size);
      for (uint32_t k = 0; k < i; ++k) {
        const lb_field *g = &info->fields[k];
        LB_CHECK(strcmp(f->name, g->name) != 0);
        LB_CHECK(f->offset >= g->offset + g->size || g->offset >= f->offset + f->size);
      }
      if (f->type == LB_FIELD_F32 || f->type == LB_FIELD_VEC3) {
        for (uint32_t k = 0; k < f->size / 4u; ++k) {
          LB_CHECK(f->def[k] >= f->min && f->def[k] <= f->max);
        }
      }
    }
  }
  LB_CHECK(lb_enum_index("Right|Left", "Left", 4) == 1);
  LB_CHECK(lb_enum_index("Right|Left", "Right", 5) == 0);
  LB_CHECK(lb_enum_index("Right|Left", "Lef", 3) == -1);
  LB_CHECK(lb_enum_index("Right|Left", "Up", 2) == -1);
  LB_CHECK(strcmp(lb_result_name(LB_ERR_NOT_FINITE), "LB_ERR_NOT_FINITE") == 0);
  LB_CHECK(strcmp(lb_result_name(LB_RESULT_COUNT), "LB_UNKNOWN_RESULT") == 0);
}

/* ---- insert/update validation ---------------------------------------------------------- */

/* The world state a failing call must not touch: the arm's IK (if any), the target's
 * Transform, and the bone hash after one more step (compared with a reference fixture
 * that never saw the failing calls). */
static void check_unchanged(fixture *f, fixture *ref, bool has_ik) {
  lb_two_bone_ik_c got, want;
  if (has_ik) {
    LB_CHECK(lb_world_get(f->w, f->arm, LB_TWO_BONE_IK, &got) == LB_OK);
    LB_CHECK(lb_world_get(ref->w, ref->arm, LB_TWO_BONE_IK, &want) == LB_OK);
    LB_CHECK(memcmp(&got, &want, sizeof got) == 0);
  } else {
    LB_CHECK(!lb_world_has(f->w, f->arm, LB_TWO_BONE_IK));
    LB_CHECK(lb_world_get(f->w, f->arm, LB_TWO_BONE_IK, &got) == LB_ERR_MISSING_COMPONENT);
  }
  lb_transform_c a, b;
  LB_CHECK(lb_world_get(f->w, f->target, LB_TRANSFORM, &a) == LB_OK);
  LB_CHECK(lb_world_get(ref->w, ref->target, LB_TRANSFORM, &b) == LB_OK);
  LB_CHECK(memcmp(&a, &b, sizeof a) == 0);
  LB_CHECK(lb_world_step(f->w, 1.0f / 60.0f) == LB_OK);
  LB_CHECK(lb_world_step(ref->w, 1.0f / 60.0f) == LB_OK);
  LB_CHECK(lb_world_hash(f->w) == lb_world_hash(ref->w));
}

static void test_insert_validation(void) {
  fixture f, ref;
  fixture_init(&f, NULL);
  fixture_init(&ref, NULL);
  char lbl[48];
  label(f.arm, lbl, sizeof lbl);

  /* Each bad IK also points at the other target, so a partial commit would show. */
  lb_two_bone_ik_c bad = f.ik;
  bad.target = f.target2;
  bad.weight = NAN;
  LB_CHECK(lb_world_insert(f.w, f.arm, LB_TWO_BONE_IK, &bad) == LB_ERR_NOT_FINITE);
  CHECK_MSG(f.w, "'weight'");
  CHECK_MSG(f.w, "TwoBoneIK");
  CHECK_MSG(f.w, lbl);
  check_unchanged(&f, &ref, false);

  bad.weight = INFINITY;
  LB_CHECK(lb_world_insert(f.w, f.arm, LB_TWO_BONE_IK, &bad) == LB_ERR_NOT_FINITE);
  CHECK_MSG(f.w, "'weight'");
  bad.weight = 1.0f;
  bad.soften = -INFINITY;
  LB_CHECK(lb_world_insert(f.w, f.arm, LB_TWO_BONE_IK, &bad) == LB_ERR_NOT_FINITE);
  CHECK_MSG(f.w, "'soften'");
  check_unchanged(&f, &ref, false);

  /* Now with a committed IK: failures leave the previous value in place. */
  LB_CHECK(lb_world_insert(f.w, f.arm, LB_TWO_BONE_IK, &f.ik) == LB_OK);
  LB_CHECK(lb_world_insert(ref.w, ref.arm, LB_TWO_BONE_IK, &ref.ik) == LB_OK);
  check_unchanged(&f, &ref, true);

  bad = f.ik;
  bad.target = f.target2;
  bad.weight = 1.5f;
  LB_CHECK(lb_world_insert(f.w, f.arm, LB_TWO_BONE_IK, &bad) == LB_ERR_OUT_OF_RANGE);
  CHECK_MSG(f.w, "'weight'");
  CHECK_MSG(f.w, "TwoBoneIK");
  CHECK_MSG(f.w, lbl);
  LB_CHECK(lb_world_set(f.w, f.arm, LB_TWO_BONE_IK, &bad) == LB_ERR_OUT_OF_RANGE);
  bad.weight = 1.0f;
  bad.rotation_weight = -0.01f;
  LB_CHECK(lb_world_set(f.w, f.arm, LB_TWO_BONE_IK, &bad) == LB_ERR_OUT_OF_RANGE);
  CHECK_MSG(f.w, "'rotationWeight'");
  bad.rotation_weight = NAN;
  LB_CHECK(lb_world_set(f.w, f.arm, LB_TWO_BONE_IK, &bad) == LB_ERR_NOT_FINITE);
  CHECK_MSG(f.w, "'rotationWeight'");
  check_unchanged(&f, &ref, true);

  /* Unknown joint: named in the message. */
  bad = f.ik;
  bad.target = f.target2;
  bad.tip = lb_world_name(f.w, "RightHandd");
  LB_CHECK(lb_world_set(f.w, f.arm, LB_TWO_BONE_IK, &bad) == LB_ERR_JOINT_NOT_FOUND);
  CHECK_MSG(f.w, "'RightHandd'");
  CHECK_MSG(f.w, "'tip'");
  bad.tip = lb_world_name(f.w, "Hips/Spine/RightHand"); /* wrong path */
  LB_CHECK(lb_world_set(f.w, f.arm, LB_TWO_BONE_IK, &bad) == LB_ERR_JOINT_NOT_FOUND);
  CHECK_MSG(f.w, "Hips/Spine/RightHand");
  bad.tip = lb_world_name(f.w, "Spine"); /* Spine has no grandparent */
  LB_CHECK(lb_world_set(f.w, f.arm, LB_TWO_BONE_IK, &bad) == LB_ERR_JOINT_NOT_FOUND);
  CHECK_MSG(f.w, "'Spine'");
  bad.tip = 0x7FFFFFF0u; /* not a name id of this world */
  LB_CHECK(lb_world_set(f.w, f.arm, LB_TWO_BONE_IK, &bad) == LB_ERR_UNKNOWN_NAME);
  CHECK_MSG(f.w, "'tip'");
  bad.tip = LB_NAME_INVALID; /* what lb_world_name gives for a name it cannot intern */
  LB_CHECK(lb_world_set(f.w, f.arm, LB_TWO_BONE_IK, &bad) == LB_ERR_UNKNOWN_NAME);
  {
    char too_long[1100];
    memset(too_long, 'x', sizeof too_long - 1);
    too_long[sizeof too_long - 1] = 0;
    lb_name id = 0;
    LB_CHECK(lb_world_intern(f.w, too_long, &id) == LB_ERR_OUT_OF_RANGE);
    CHECK_MSG(f.w, "1024 bytes");
    LB_CHECK(lb_world_name(f.w, too_long) == LB_NAME_INVALID);
  }
  check_unchanged(&f, &ref, true);

  /* Entity fields: stale and null handles. */
  lb_entity gone;
  LB_CHECK(lb_world_spawn(f.w, &gone) == LB_OK);
  LB_CHECK(lb_world_despawn(f.w, gone) == LB_OK);
  LB_CHECK(lb_world_spawn(ref.w, &gone) == LB_OK); /* keep the slot layout equal */
  LB_CHECK(lb_world_despawn(ref.w, gone) == LB_OK);
  bad = f.ik;
  bad.target = gone;
  LB_CHECK(lb_world_set(f.w, f.arm, LB_TWO_BONE_IK, &bad) == LB_ERR_STALE_ENTITY);
  CHECK_MSG(f.w, "'target'");
  CHECK_MSG(f.w, label(gone, lbl, sizeof lbl));
  bad.target = f.target2;
  bad.hint = gone;
  LB_CHECK(lb_world_set(f.w, f.arm, LB_TWO_BONE_IK, &bad) == LB_ERR_STALE_ENTITY);
  CHECK_MSG(f.w, "'hint'");
  bad.hint = LB_NULL_ENTITY;
  bad.rig = gone;
  LB_CHECK(lb_world_set(f.w, f.arm, LB_TWO_BONE_IK, &bad) == LB_ERR_STALE_ENTITY);
  CHECK_MSG(f.w, "'rig'");
  bad.rig = f.target; /* alive, but no Rig */
  LB_CHECK(lb_world_set(f.w, f.arm, LB_TWO_BONE_IK, &bad) == LB_ERR_MISSING_COMPONENT);
  CHECK_MSG(f.w, "'rig'");
  bad.rig = f.hero;
  bad.target = LB_NULL_ENTITY;
  LB_CHECK(lb_world_set(f.w, f.arm, LB_TWO_BONE_IK, &bad) == LB_ERR_INVALID_ARGUMENT);
  CHECK_MSG(f.w, "'target'");
  check_unchanged(&f, &ref, true);

  /* Outputs are read-only: written values are ignored. */
  lb_two_bone_ik_c ro = f.ik;
  ro.reached = 1;
  ro.distance = 123.0f;
  LB_CHECK(lb_world_insert(f.w, f.target2, LB_TWO_BONE_IK, &ro) == LB_OK);
  lb_two_bone_ik_c got;
  LB_CHECK(lb_world_get(f.w, f.target2, LB_TWO_BONE_IK, &got) == LB_OK);
  LB_CHECK(got.reached == 0 && got.distance == 0.0f);
  LB_CHECK(lb_world_remove(f.w, f.target2, LB_TWO_BONE_IK) == LB_OK);
  LB_CHECK(!lb_world_has(f.w, f.target2, LB_TWO_BONE_IK));
  LB_CHECK(lb_world_remove(f.w, f.target2, LB_TWO_BONE_IK) == LB_ERR_MISSING_COMPONENT);
  CHECK_MSG(f.w, "TwoBoneIK");

  /* Transform: NaN / Inf / zero quaternion / scale out of range. */
  label(f.target, lbl, sizeof lbl);
  lb_transform_c bt = transform_at(0.5f, 0.5f, 0.5f);
  bt.position[1] = NAN;
  LB_CHECK(lb_world_insert(f.w, f.target, LB_TRANSFORM, &bt) == LB_ERR_NOT_FINITE);
  CHECK_MSG(f.w, "'position'");
  CHECK_MSG(f.w, "Transform");
  CHECK_MSG(f.w, lbl);
  bt.position[1] = 0.5f;
  bt.rotation[2] = INFINITY;
  LB_CHECK(lb_world_insert(f.w, f.target, LB_TRANSFORM, &bt) == LB_ERR_NOT_FINITE);
  CHECK_MSG(f.w, "'rotation'");
  memset(bt.rotation, 0, sizeof bt.rotation);
  LB_CHECK(lb_world_insert(f.w, f.target, LB_TRANSFORM, &bt) == LB_ERR_OUT_OF_RANGE);
  CHECK_MSG(f.w, "'rotation'");
  bt.rotation[3] = 1.0f;
  bt.scale[0] = 0.0f;
  LB_CHECK(lb_world_insert(f.w, f.target, LB_TRANSFORM, &bt) == LB_ERR_OUT_OF_RANGE);
  CHECK_MSG(f.w, "'scale'");
  bt.scale[0] = -1.0f;
  LB_CHECK(lb_world_set(f.w, f.target, LB_TRANSFORM, &bt) == LB_ERR_OUT_OF_RANGE);
  bt.scale[0] = 1.0f;
  bt.position[0] = 2e6f;
  LB_CHECK(lb_world_set(f.w, f.target, LB_TRANSFORM, &bt) == LB_ERR_OUT_OF_RANGE);
  CHECK_MSG(f.w, "'position'");
  check_unchanged(&f, &ref, true);

  /* Non-unit rotations are normalised on write. */
  bt = transform_at(0.0f, 0.0f, 0.0f);
  bt.rotation[1] = 3.0f;
  bt.rotation[3] = 4.0f;
  LB_CHECK(lb_world_insert(f.w, f.target2, LB_TRANSFORM, &bt) == LB_OK);
  lb_transform_c gt;
  LB_CHECK(lb_world_get(f.w, f.target2, LB_TRANSFORM, &gt) == LB_OK);
  LB_CHECK_NEAR(gt.rotation[1], 0.6f, 1e-7);
  LB_CHECK_NEAR(gt.rotation[3], 0.8f, 1e-7);

  /* Rig: asset 0 and unknown assets. */
  lb_rig_c rig = {0};
  LB_CHECK(lb_world_insert(f.w, f.target2, LB_RIG, &rig) == LB_ERR_OUT_OF_RANGE);
  CHECK_MSG(f.w, "'asset'");
  rig.asset = 99;
  LB_CHECK(lb_world_insert(f.w, f.target2, LB_RIG, &rig) == LB_ERR_UNKNOWN_NAME);
  CHECK_MSG(f.w, "'asset'");
  LB_CHECK(!lb_world_has(f.w, f.target2, LB_RIG));

  /* Unknown type ids and null data. */
  LB_CHECK(lb_world_insert(f.w, f.arm, 99, &f.ik) == LB_ERR_UNKNOWN_NAME);
  LB_CHECK(lb_world_insert(f.w, f.arm, LB_TWO_BONE_IK, NULL) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_world_get(f.w, f.arm, 99, &got) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_world_remove(f.w, f.arm, 99) == LB_ERR_UNKNOWN_NAME);
  LB_CHECK(!lb_world_has(f.w, f.arm, 99));

  lb_world_destroy(f.w);
  lb_world_destroy(ref.w);
}

static void test_update_missing(void) {
  fixture f;
  fixture_init(&f, NULL);
  char lbl[48];
  LB_CHECK(lb_world_set(f.w, f.arm, LB_TWO_BONE_IK, &f.ik) == LB_ERR_MISSING_COMPONENT);
  CHECK_MSG(f.w, "TwoBoneIK");
  CHECK_MSG(f.w, label(f.arm, lbl, sizeof lbl));
  LB_CHECK(!lb_world_has(f.w, f.arm, LB_TWO_BONE_IK));
  lb_transform_c t = transform_at(0, 0, 0);
  LB_CHECK(lb_world_set(f.w, f.arm, LB_TRANSFORM, &t) == LB_ERR_MISSING_COMPONENT);
  CHECK_MSG(f.w, "Transform");
  LB_CHECK(!lb_world_has(f.w, f.arm, LB_TRANSFORM));
  /* insert adds, then set works */
  LB_CHECK(lb_world_insert(f.w, f.arm, LB_TRANSFORM, &t) == LB_OK);
  t.position[0] = 2.0f;
  LB_CHECK(lb_world_set(f.w, f.arm, LB_TRANSFORM, &t) == LB_OK);
  lb_transform_c g;
  LB_CHECK(lb_world_get(f.w, f.arm, LB_TRANSFORM, &g) == LB_OK && g.position[0] == 2.0f);
  lb_world_destroy(f.w);
}

/* ---- parenting ----------------------------------------------------------------------------- */
static void check_xf_near(const lb_transform *a, const lb_transform *b, double tol) {
  for (int i = 0; i < 3; ++i) {
    LB_CHECK_NEAR(a->t[i], b->t[i], tol);
    LB_CHECK_NEAR(a->s[i], b->s[i], tol);
  }
  /* q and -q are the same rotation */
  double d = 0.0;
  for (int i = 0; i < 4; ++i) {
    d += (double)a->r[i] * (double)b->r[i];
  }
  LB_CHECK_NEAR(fabs(d), 1.0, tol);
}

static void test_cycle(void) {
  lb_world *w = new_world(NULL);
  lb_entity a, b, c;
  LB_CHECK(lb_world_spawn(w, &a) == LB_OK);
  LB_CHECK(lb_world_spawn(w, &b) == LB_OK);
  LB_CHECK(lb_world_spawn(w, &c) == LB_OK);
  lb_transform_c t = transform_at(0, 0, 0);
  t.parent = a;
  LB_CHECK(lb_world_insert(w, a, LB_TRANSFORM, &t) == LB_ERR_CYCLE); /* self */
  CHECK_MSG(w, "'parent'");
  LB_CHECK(!lb_world_has(w, a, LB_TRANSFORM));
  t.parent = b;
  LB_CHECK(lb_world_insert(w, a, LB_TRANSFORM, &t) == LB_OK); /* a → b */
  t.parent = c;
  LB_CHECK(lb_world_insert(w, b, LB_TRANSFORM, &t) == LB_OK); /* b → c */
  t.parent = LB_NULL_ENTITY;
  t.position[0] = 7.0f;
  LB_CHECK(lb_world_insert(w, c, LB_TRANSFORM, &t) == LB_OK);
  lb_transform_c bad = t;
  bad.parent = a; /* c → a closes a → b → c → a */
  bad.position[0] = 9.0f;
  LB_CHECK(lb_world_set(w, c, LB_TRANSFORM, &bad) == LB_ERR_CYCLE);
  CHECK_MSG(w, "cycle");
  lb_transform_c got;
  LB_CHECK(lb_world_get(w, c, LB_TRANSFORM, &got) == LB_OK);
  LB_CHECK(memcmp(&got, &t, sizeof got) == 0);
  LB_CHECK(lb_world_step(w, 0.0f) == LB_OK);
  lb_transform xf;
  LB_CHECK(lb_world_entity_transform(w, a, &xf) == LB_OK);
  LB_CHECK_NEAR(xf.t[0], 7.0f, 0.0);
  lb_world_destroy(w);
}

static void test_parenting(void) {
  lb_world *w = new_world(NULL);
  /* The child gets a lower slot than its parent, so the walk must resolve parents first. */
  lb_entity child, parent, grandchild;
  LB_CHECK(lb_world_spawn(w, &grandchild) == LB_OK);
  LB_CHECK(lb_world_spawn(w, &child) == LB_OK);
  LB_CHECK(lb_world_spawn(w, &parent) == LB_OK);
  lb_transform_c p = transform_at(1.0f, 2.0f, 3.0f);
  const vec3 ay = {0.0f, 1.0f, 0.0f}, ax = {1.0f, 0.0f, 0.0f};
  lb_quat_from_axis_angle(ay, 90.0f * LB_DEG2RAD, p.rotation);
  p.scale[0] = p.scale[1] = p.scale[2] = 2.0f;
  LB_CHECK(lb_world_insert(w, parent, LB_TRANSFORM, &p) == LB_OK);
  lb_transform_c c = transform_at(0.5f, 0.0f, 0.0f);
  lb_quat_from_axis_angle(ax, 30.0f * LB_DEG2RAD, c.rotation);
  c.parent = parent;
  LB_CHECK(lb_world_insert(w, child, LB_TRANSFORM, &c) == LB_OK);
  lb_transform_c g = transform_at(0.0f, 0.25f, 0.0f);
  g.parent = child;
  LB_CHECK(lb_world_insert(w, grandchild, LB_TRANSFORM, &g) == LB_OK);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);

  /* By hand: Ry(90) takes +X to -Z; scale 2 doubles the offset. */
  lb_transform cx, gx;
  LB_CHECK(lb_world_entity_transform(w, child, &cx) == LB_OK);
  LB_CHECK_NEAR(cx.t[0], 1.0, 1e-6);
  LB_CHECK_NEAR(cx.t[1], 2.0, 1e-6);
  LB_CHECK_NEAR(cx.t[2], 2.0, 1e-6);
  LB_CHECK_NEAR(cx.s[0], 2.0, 0.0);
  versor want_r;
  lb_quat_mul(p.rotation, c.rotation, want_r);
  lb_transform want = {
      {1.0f, 2.0f, 2.0f}, {want_r[0], want_r[1], want_r[2], want_r[3]}, {2.0f, 2.0f, 2.0f}};
  check_xf_near(&cx, &want, 1e-6);
  /* Grandchild: child's +Y is Ry(90)*Rx(30) applied to +Y; offset 0.25 scaled by 2. */
  vec3 up = {0.0f, 0.5f, 0.0f}, off;
  lb_quat_rotate(want_r, up, off);
  LB_CHECK(lb_world_entity_transform(w, grandchild, &gx) == LB_OK);
  for (int i = 0; i < 3; ++i) {
    LB_CHECK_NEAR(gx.t[i], want.t[i] + off[i], 1e-6);
  }
  /* Rx(30) then Ry(90): +Y → (sin30·?, cos30, ...) — check the numbers independently. */
  LB_CHECK_NEAR(off[1], 0.5 * cos(30.0 * 3.14159265358979 / 180.0), 1e-6);
  LB_CHECK_NEAR(off[0], 0.5 * sin(30.0 * 3.14159265358979 / 180.0), 1e-6);

  /* Moving the parent moves the child on the next step. */
  p.position[1] = 5.0f;
  LB_CHECK(lb_world_set(w, parent, LB_TRANSFORM, &p) == LB_OK);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  LB_CHECK(lb_world_entity_transform(w, child, &cx) == LB_OK);
  LB_CHECK_NEAR(cx.t[1], 5.0, 1e-6);

  /* A despawned parent: the child falls back to its local transform. */
  LB_CHECK(lb_world_despawn(w, parent) == LB_OK);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  LB_CHECK(lb_world_entity_transform(w, child, &cx) == LB_OK);
  LB_CHECK_NEAR(cx.t[0], 0.5, 0.0);
  LB_CHECK_NEAR(cx.t[1], 0.0, 0.0);
  lb_world_destroy(w);
}

static void test_parent_joint(void) {
  lb_world *w = new_world(NULL);
  uint32_t asset;
  LB_CHECK(lb_world_add_humanoid(w, NULL, &asset) == LB_OK);
  lb_entity hero, prop, plain;
  LB_CHECK(lb_world_spawn(w, &prop) == LB_OK); /* lower slot than its parent */
  LB_CHECK(lb_world_spawn(w, &hero) == LB_OK);
  LB_CHECK(lb_world_spawn(w, &plain) == LB_OK);
  lb_transform_c h = transform_at(0.0f, 0.0f, 1.0f);
  const vec3 ay = {0.0f, 1.0f, 0.0f}, az = {0.0f, 0.0f, 1.0f};
  lb_quat_from_axis_angle(ay, LB_PI, h.rotation);
  LB_CHECK(lb_world_insert(w, hero, LB_TRANSFORM, &h) == LB_OK);
  lb_transform_c pt = transform_at(0.0f, 0.1f, 0.0f);
  pt.parent = hero;
  pt.parent_joint = lb_world_name(w, "RightHand");
  /* No Rig on the parent yet. */
  LB_CHECK(lb_world_insert(w, prop, LB_TRANSFORM, &pt) == LB_ERR_MISSING_COMPONENT);
  CHECK_MSG(w, "'parentJoint'");
  lb_rig_c rig = {asset};
  LB_CHECK(lb_world_insert(w, hero, LB_RIG, &rig) == LB_OK);
  pt.parent_joint = lb_world_name(w, "RightPalm");
  LB_CHECK(lb_world_insert(w, prop, LB_TRANSFORM, &pt) == LB_ERR_JOINT_NOT_FOUND);
  CHECK_MSG(w, "'RightPalm'");
  lb_transform_c orphan = transform_at(0, 0, 0);
  orphan.parent_joint = lb_world_name(w, "RightHand");
  LB_CHECK(lb_world_insert(w, plain, LB_TRANSFORM, &orphan) == LB_ERR_INVALID_ARGUMENT);
  CHECK_MSG(w, "'parentJoint'");
  pt.parent_joint =
      lb_world_name(w, "Hips/Spine/Spine1/Spine2/RightShoulder/RightArm/RightForeArm/RightHand");
  LB_CHECK(lb_world_insert(w, prop, LB_TRANSFORM, &pt) == LB_OK);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);

  /* Rest: RightHand at model (-0.70, 1.44, 0); hero turned 180° about Y at z = 1 puts it at
   * (0.70, 1.44, 1.0); the prop sits 0.1 m above. */
  lb_transform x;
  LB_CHECK(lb_world_entity_transform(w, prop, &x) == LB_OK);
  LB_CHECK_NEAR(x.t[0], 0.70, 1e-5);
  LB_CHECK_NEAR(x.t[1], 1.54, 1e-5);
  LB_CHECK_NEAR(x.t[2], 1.0, 1e-5);

  /* Animate the arm down (RightArm +90° about Z): the prop follows this step's pose. */
  uint32_t n = 0;
  const lb_transform *local = lb_rig_local_pose(w, hero, &n);
  LB_CHECK(local && n == 65);
  lb_transform pose[65];
  memcpy(pose, local, sizeof pose);
  int arm = lb_skeleton_find_joint(w, asset, "RightArm");
  int hand = lb_skeleton_find_joint(w, asset, "RightHand");
  LB_CHECK(arm >= 0 && hand >= 0);
  lb_quat_from_axis_angle(az, 90.0f * LB_DEG2RAD, pose[arm].r);
  LB_CHECK(lb_rig_set_animation_pose(w, hero, pose, 65) == LB_OK);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  const lb_transform *model = lb_rig_model_pose(w, hero, &n);
  lb_transform hero_xf, expect_parent, expect;
  LB_CHECK(lb_world_entity_transform(w, hero, &hero_xf) == LB_OK);
  lb_transform local_prop = {{0.0f, 0.1f, 0.0f}, {0, 0, 0, 1}, {1, 1, 1}};
  lb_transform_mul(&hero_xf, &model[hand], &expect_parent);
  lb_transform_mul(&expect_parent, &local_prop, &expect);
  LB_CHECK(lb_world_entity_transform(w, prop, &x) == LB_OK);
  check_xf_near(&x, &expect, 1e-6);
  /* Arm hangs: the hand is 0.53 m below the shoulder at model (-0.17, 0.91, 0), world
   * (0.17, 0.91, 1.0); the hand turned with the arm, so the prop's local +0.1 Y now points
   * along model -X, which the turned hero maps to world +X. */
  LB_CHECK_NEAR(x.t[0], 0.27, 1e-5);
  LB_CHECK_NEAR(x.t[1], 0.91, 1e-5);
  LB_CHECK_NEAR(x.t[2], 1.0, 1e-5);
  lb_world_destroy(w);
}

/* Restoring an old copy of the world's memory puts generations back; reserving the
 * generations read before it keeps the handles issued since stale. */
static void test_generations_reserve(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  lb_entity keep = 0, gone = 0;
  LB_CHECK(lb_world_spawn(w, &keep) == LB_OK && lb_world_spawn(w, &gone) == LB_OK);
  LB_CHECK(lb_world_despawn(w, gone) == LB_OK);
  /* "After": spawn in gone's slot and one past the high water mark, despawn keep. */
  lb_entity late1 = 0, late2 = 0;
  LB_CHECK(lb_world_spawn(w, &late1) == LB_OK && lb_world_spawn(w, &late2) == LB_OK);
  LB_CHECK((late1 & LB_MAX_ENTITIES) == (gone & LB_MAX_ENTITIES));
  LB_CHECK(lb_world_despawn(w, keep) == LB_OK);
  uint16_t unused[8];
  uint32_t n = lb_world_generations_unused(w, unused, 8);
  LB_CHECK(n == 3);
  LB_CHECK(unused[0] == 1 && unused[1] == 2 && unused[2] == 1);
  /* "Restore" to a world where only keep lives and gone's slot is free (a fresh world with
   * the same history up to the copy). */
  lb_world *r = NULL;
  LB_CHECK(lb_world_create(NULL, &r) == LB_OK);
  lb_entity k2 = 0, g2 = 0;
  LB_CHECK(lb_world_spawn(r, &k2) == LB_OK && lb_world_spawn(r, &g2) == LB_OK);
  LB_CHECK(lb_world_despawn(r, g2) == LB_OK);
  LB_CHECK(lb_world_generations_reserve(r, unused, n) == LB_OK);
  lb_entity a = 0, b = 0;
  LB_CHECK(lb_world_spawn(r, &a) == LB_OK && lb_world_spawn(r, &b) == LB_OK);
  LB_CHECK((a & LB_MAX_ENTITIES) == (late1 & LB_MAX_ENTITIES) && a != late1);
  LB_CHECK((b & LB_MAX_ENTITIES) == (late2 & LB_MAX_ENTITIES) && b != late2);
  LB_CHECK(lb_world_alive(r, k2)); /* the copy's live entity keeps its handle */
  LB_CHECK(lb_world_despawn(r, k2) == LB_OK);
  lb_entity c;
  LB_CHECK(lb_world_spawn(r, &c) == LB_OK);
  LB_CHECK((c & LB_MAX_ENTITIES) == (keep & LB_MAX_ENTITIES) && c != keep && c != k2);
  uint16_t too_big = LB_ENTITY_GENERATION_MAX + 2u;
  LB_CHECK(lb_world_generations_reserve(r, &too_big, 1) == LB_ERR_OUT_OF_RANGE);
  /* Every generation of slot 4 handed out: the slot is retired, spawns skip it. */
  uint16_t spent[5] = {0, 0, 0, 0, LB_ENTITY_GENERATION_MAX + 1u};
  LB_CHECK(lb_world_generations_reserve(r, spent, 5) == LB_OK);
  lb_entity d = 0, e = 0;
  LB_CHECK(lb_world_spawn(r, &d) == LB_OK && lb_world_spawn(r, &e) == LB_OK);
  LB_CHECK((d & LB_MAX_ENTITIES) == 4u && (e & LB_MAX_ENTITIES) == 6u); /* slot 3, slot 5 */
  lb_world_destroy(r);
  lb_world_destroy(w);
}

static void test_step_dt(void) {
  fixture f;
  fixture_init(&f, NULL);
  LB_CHECK(lb_world_step(f.w, 1.0f / 60.0f) == LB_OK);
  uint64_t h = lb_world_hash(f.w);
  /* Below LB_STEP_DT_MIN a rate (displacement / dt) turns rounding into kilometres per
   * second, and below 1e-38 into infinities: denormals and 1e-30 are refused. */
  const float bad[] = {NAN,  -NAN,  INFINITY, -INFINITY, -1e-6f, -1.0f, 1.0001f,
                       2.0f, 1e30f, 1e-45f,   1e-40f,    1e-30f, 1e-7f, 9.99e-7f};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    LB_CHECK(lb_world_step(f.w, bad[i]) == LB_ERR_OUT_OF_RANGE);
    CHECK_MSG(f.w, "dt");
  }
  LB_CHECK(lb_world_step_count(f.w) == 1);
  LB_CHECK(lb_world_hash(f.w) == h);
  LB_CHECK(lb_world_step(f.w, 0.0f) == LB_OK);
  LB_CHECK(lb_world_step(f.w, 1.0f) == LB_OK);
  LB_CHECK(lb_world_step(f.w, LB_STEP_DT_MIN) == LB_OK);
  LB_CHECK(lb_world_step_count(f.w) == 4);
  LB_CHECK(lb_world_step(NULL, 0.1f) == LB_ERR_INVALID_ARGUMENT);
  /* Without IK, every step starts from the same animation pose: same hash. */
  LB_CHECK(lb_world_hash(f.w) == h);
  lb_world_destroy(f.w);
}

int main(void) {
  LB_RUN(test_create_destroy_allocator);
  LB_RUN(test_entity_handles);
  LB_RUN(test_schema);
  LB_RUN(test_insert_validation);
  LB_RUN(test_update_missing);
  LB_RUN(test_cycle);
  LB_RUN(test_parenting);
  LB_RUN(test_parent_joint);
  LB_RUN(test_step_dt);
  LB_RUN(test_generations_reserve);
  LB_TEST_MAIN_END();
}
