/* Threads (lb_world_def.threads, enqueue_task/finish_task): every stored scene
 * (tests/expected-hashes.json) gives its stored hash at 1, 2, 3 and 4 threads and on a game's
 * own task systems (one running ranges inline in reverse order, one on threads of its own);
 * invalid defs are refused naming the field, with nothing allocated; steps with threads = 4
 * allocate nothing after warm-up (npc-crowd.json: every per-character system); two holders of
 * one object (the Grip phase then runs in entity order) give the same hash at 1 and 4 threads. Also
 * run under ThreadSanitizer (the tsan preset). */
#include "limber/limber.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cJSON.h"
#include "test.h"

#define EXPECTED_HASHES "tests/expected-hashes.json"

/* ---- scenes with the files they name (as the CLI reads them) ------------------------------ */

/* `rel` from the scene's folder or a folder above it. */
static char *read_near(const char *scene_path, const char *rel, size_t *len) {
  char dir[512];
  const char *slash = strrchr(scene_path, '/');
  size_t n = slash ? (size_t)(slash - scene_path) : 1u;
  memcpy(dir, slash ? scene_path : ".", n);
  dir[n] = 0;
  for (int up = 0; up < 8; ++up) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    FILE *f = fopen(path, "rb");
    if (f) {
      fclose(f);
      return lb_test_read_file(path, len);
    }
    strcat(dir, "/..");
  }
  return NULL;
}

static lb_result load_scene(lb_world *w, const char *path, lb_scene **sc) {
  size_t len = 0, need = 0;
  char *json = lb_test_read_file(path, &len);
  if (!json) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  lb_scene_files(json, len, NULL, 0, &need);
  char *list = calloc(need + 1u, 1);
  lb_scene_file files[16];
  uint32_t count = 0;
  lb_result r = list ? lb_scene_files(json, len, list, need, &need) : LB_ERR_OUT_OF_MEMORY;
  for (char *p = list, *nl; r == LB_OK && (nl = strchr(p, '\n')) && count < 16; p = nl + 1) {
    *nl = 0;
    size_t n = 0;
    char *bytes = read_near(path, p, &n);
    if (bytes) {
      files[count].path = p;
      files[count].bytes = (const uint8_t *)bytes;
      files[count++].size = n;
    }
  }
  if (r == LB_OK) {
    r = lb_scene_load_files(w, json, len, files, count, sc);
  }
  for (uint32_t i = 0; i < count; ++i) {
    free((void *)files[i].bytes);
  }
  free(list);
  free(json);
  return r;
}

/* The scene's hash after `steps` steps of 1/60 s in a world made from `def`. */
static uint64_t scene_hash(const char *path, int steps, const lb_world_def *def) {
  lb_world *w = NULL;
  lb_scene *sc = NULL;
  LB_CHECK(lb_world_create(def, &w) == LB_OK);
  if (!w) {
    return 0;
  }
  lb_result r = load_scene(w, path, &sc);
  if (r != LB_OK) {
    fprintf(stderr, "%s: %s\n", path, lb_world_last_error(w));
  }
  for (int i = 0; r == LB_OK && i < steps; ++i) {
    r = lb_scene_step(w, sc, 1.0f / 60.0f);
  }
  LB_CHECK(r == LB_OK);
  uint64_t h = lb_world_hash(w);
  if (sc) {
    lb_scene_destroy(w, sc);
  }
  lb_world_destroy(w);
  return h;
}

/* ---- the game's own task systems ------------------------------------------------------------ */

/* Inline, ranges of min_range items from the last to the first, on worker indices cycling
 * 0..threads-1: any order gives the same result. */
static void *enqueue_inline_reversed(lb_task_fn *task, uint32_t count, uint32_t min_range,
                                     void *task_context, void *user_context) {
  uint32_t threads = *(const uint32_t *)user_context;
  uint32_t ranges = (count + min_range - 1u) / min_range;
  for (uint32_t k = ranges; k-- > 0;) {
    uint32_t start = k * min_range, end = start + min_range < count ? start + min_range : count;
    task(start, end, k % threads, task_context);
  }
  return NULL;
}

static void finish_never(void *user_task, void *user_context) {
  (void)user_task;
  (void)user_context;
  LB_CHECK(!"finish_task called for a task enqueue_task ran inline");
}

/* Three threads of the game's, each given every third range. */
#define GAME_THREADS 3u
typedef struct game_task {
  lb_task_fn *task;
  void *context;
  uint32_t count, min_range, index;
  pthread_t thread;
} game_task;

typedef struct game_pool {
  game_task part[GAME_THREADS];
  uint32_t enqueued, finished;
} game_pool;

static void *game_thread(void *arg) {
  const game_task *t = arg;
  for (uint32_t start = t->index * t->min_range; start < t->count;
       start += GAME_THREADS * t->min_range) {
    uint32_t end = start + t->min_range < t->count ? start + t->min_range : t->count;
    t->task(start, end, t->index, t->context);
  }
  return NULL;
}

static void *enqueue_game_threads(lb_task_fn *task, uint32_t count, uint32_t min_range,
                                  void *task_context, void *user_context) {
  game_pool *g = user_context;
  g->enqueued++;
  for (uint32_t i = 0; i < GAME_THREADS; ++i) {
    g->part[i] = (game_task){task, task_context, count, min_range, i, 0};
    if (pthread_create(&g->part[i].thread, NULL, game_thread, &g->part[i]) != 0) {
      game_thread(&g->part[i]); /* run it here instead */
      g->part[i].index = UINT32_MAX;
    }
  }
  return g;
}

static void finish_game_threads(void *user_task, void *user_context) {
  game_pool *g = user_task;
  LB_CHECK(user_task == user_context);
  for (uint32_t i = 0; i < GAME_THREADS; ++i) {
    if (g->part[i].index != UINT32_MAX) {
      pthread_join(g->part[i].thread, NULL);
    }
  }
  g->finished++;
}

/* ---- tests ---------------------------------------------------------------------------------- */

static void test_stored_hashes_every_thread_count(void) {
  size_t len = 0;
  char *text = lb_test_read_file(EXPECTED_HASHES, &len);
  cJSON *root = text ? cJSON_ParseWithLength(text, len) : NULL;
  LB_CHECK(root != NULL);
  uint32_t scenes = 0;
  for (const cJSON *it = root ? root->child : NULL; it; it = it->next) {
    char name[128], path[256];
    int steps = 0;
    const char *at = strchr(it->string, '@');
    LB_CHECK(at && cJSON_IsString(it) && (size_t)(at - it->string) < sizeof name);
    if (!at || !cJSON_IsString(it) || (size_t)(at - it->string) >= sizeof name) {
      continue;
    }
    memcpy(name, it->string, (size_t)(at - it->string));
    name[at - it->string] = 0;
    steps = atoi(at + 1);
    /* a test-only scene names its folder (tests/scenes/...) */
    snprintf(path, sizeof path, "%s%s", strchr(name, '/') ? "" : "assets/scenes/", name);
    uint64_t want = strtoull(it->valuestring, NULL, 16);
    lb_world_def def = lb_world_default_def();
    for (uint32_t t = 1; t <= 4; ++t) {
      def.threads = t;
      uint64_t got = scene_hash(path, steps, &def);
      if (got != want) {
        fprintf(stderr, "%s: %016llx at %u threads, stored %016llx\n", it->string,
                (unsigned long long)got, (unsigned)t, (unsigned long long)want);
      }
      LB_CHECK(got == want);
    }
    uint32_t threads = 4;
    def.enqueue_task = enqueue_inline_reversed;
    def.finish_task = finish_never;
    def.user_task_context = &threads;
    LB_CHECK(scene_hash(path, steps, &def) == want);
    game_pool g;
    memset(&g, 0, sizeof g);
    def.threads = GAME_THREADS;
    def.enqueue_task = enqueue_game_threads;
    def.finish_task = finish_game_threads;
    def.user_task_context = &g;
    LB_CHECK(scene_hash(path, steps, &def) == want);
    LB_CHECK(g.enqueued == g.finished);
    scenes++;
    printf("  %s: %s at 1, 2, 3, 4 threads and on two task systems of the game's (%u sections "
           "on its threads)\n",
           it->string, it->valuestring, (unsigned)g.enqueued);
  }
  LB_CHECK(scenes >= 9);
  cJSON_Delete(root);
  free(text);
}

static void check_refused(lb_world_def def, lb_result code, const char *sub) {
  lb_test_counter c = {0};
  def.allocator.alloc = lb_test_count_alloc;
  def.allocator.free = lb_test_count_free;
  def.allocator.user = &c;
  char msg[256];
  lb_world *w = (lb_world *)&c; /* not null: create must clear it */
  LB_CHECK(lb_world_def_validate(&def, msg, sizeof msg) == code);
  LB_CHECK(strstr(msg, sub) != NULL);
  LB_CHECK(lb_world_create(&def, &w) == code);
  LB_CHECK(w == NULL);
  LB_CHECK(c.allocs == 0); /* nothing made, nothing started */
  printf("  refused: %s\n", msg);
}

static void test_invalid_threads_refused(void) {
  lb_world_def def = lb_world_default_def();
  def.threads = 0;
  check_refused(def, LB_ERR_OUT_OF_RANGE, "lb_world_def.threads = 0");
  def.threads = LB_MAX_THREADS + 1u;
  check_refused(def, LB_ERR_OUT_OF_RANGE, "lb_world_def.threads = 65");
  def.threads = 2;
  def.enqueue_task = enqueue_game_threads;
  check_refused(def, LB_ERR_INVALID_ARGUMENT, "enqueue_task and finish_task");
  /* the limits themselves are accepted */
  lb_world_def ok = lb_world_default_def();
  LB_CHECK(ok.threads == 1);
  ok.threads = LB_MAX_THREADS;
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(&ok, &w) == LB_OK && w != NULL);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  lb_world_destroy(w);
}

static void test_threaded_steps_allocate_nothing(void) {
  lb_test_counter c = {0};
  lb_world_def def = lb_test_counting_def(&c);
  def.threads = 4;
  lb_world *w = NULL;
  lb_scene *sc = NULL;
  LB_CHECK(lb_world_create(&def, &w) == LB_OK);
  LB_CHECK(w && load_scene(w, "tests/scenes/npc-crowd.json", &sc) == LB_OK);
  for (int i = 0; sc && i < 30; ++i) {
    LB_CHECK(lb_scene_step(w, sc, 1.0f / 60.0f) == LB_OK);
  }
  size_t before = c.allocs;
  for (int i = 0; sc && i < 120; ++i) {
    LB_CHECK(lb_scene_step(w, sc, 1.0f / 60.0f) == LB_OK);
  }
  printf("  npc-crowd.json at 4 threads: %zu allocations at setup and warm-up, %zu in 120 steps\n",
         before, c.allocs - before);
  LB_CHECK(c.allocs == before);
  if (sc) {
    lb_scene_destroy(w, sc);
  }
  lb_world_destroy(w);
  LB_CHECK(c.allocs == c.frees);
}

/* npc-crowd.json with npc2 holding npc0's rifle too: the Grip phase runs its holders in entity
 * order then (two write one object), at any thread count. */
static uint64_t shared_rifle_hash(uint32_t threads) {
  lb_world_def def = lb_world_default_def();
  def.threads = threads;
  lb_world *w = NULL;
  lb_scene *sc = NULL;
  LB_CHECK(lb_world_create(&def, &w) == LB_OK);
  LB_CHECK(w && load_scene(w, "tests/scenes/npc-crowd.json", &sc) == LB_OK);
  if (!sc) {
    lb_world_destroy(w);
    return 0;
  }
  lb_grip_holder_c gh;
  lb_entity npc2 = lb_scene_entity(sc, "npc2");
  LB_CHECK(lb_world_get(w, npc2, LB_GRIP_HOLDER, &gh) == LB_OK);
  gh.held = lb_scene_entity(sc, "rifle0");
  LB_CHECK(gh.held != LB_NULL_ENTITY && lb_world_set(w, npc2, LB_GRIP_HOLDER, &gh) == LB_OK);
  for (int i = 0; i < 120; ++i) {
    LB_CHECK(lb_scene_step(w, sc, 1.0f / 60.0f) == LB_OK);
  }
  uint64_t h = lb_world_hash(w);
  lb_scene_destroy(w, sc);
  lb_world_destroy(w);
  return h;
}

static void test_shared_object_runs_in_order(void) {
  uint64_t one = shared_rifle_hash(1), four = shared_rifle_hash(4);
  printf("  two holders of one rifle: %016llx at 1 thread, %016llx at 4\n", (unsigned long long)one,
         (unsigned long long)four);
  LB_CHECK(one != 0 && one == four);
}

int main(void) {
  LB_RUN(test_invalid_threads_refused);
  LB_RUN(test_threaded_steps_allocate_nothing);
  LB_RUN(test_stored_hashes_every_thread_count);
  LB_RUN(test_shared_object_runs_in_order);
  LB_TEST_MAIN_END();
}
