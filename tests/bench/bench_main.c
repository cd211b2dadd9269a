/* limber_bench: runs registered benchmarks, one JSON line per benchmark on stdout.
 *
 *   limber_bench [--bench NAME]... [--runs N] [--iters N] [--warmup N]
 *                [--target LABEL] [--list]
 *
 * Each run times one batch of `iters` operations (default: the bench's own, e.g.
 * 100000 two-bone solves; rounded up to the bench's iter_multiple) with CLOCK_MONOTONIC;
 * the sample is microseconds per operation (a stage bench, which times one part of its
 * operation itself with the same clock, reports that part: lb_bench_stats.timed_us). `warmup`
 * untimed batches (default 1) come first; they also let V8 tier wasm code up from Liftoff to
 * TurboFan. --bench NAME
 * selects a bench, or every bench under a dotted prefix (--bench world.scale); opt-in
 * benches (world.scale.*) run only when selected so. Output:
 *   {"bench":"ik.two_bone","target":"native","unit":"us","min":X,"median":Y,
 *    "runs":N,"iters":I,"samples":[...],"mean_error":E,"max_error":M,"failures":F,
 *    "what":"...", and when the bench counts inner work "work":"queries","work_per_op":W}
 * tests/bench/run.mjs turns this into the contract format. Nothing is asserted:
 * the exit status is non-zero only when a benchmark cannot be set up. */
#define _POSIX_C_SOURCE 199309L
#include "bench.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const lb_bench *const lb_benches[] = {&lb_bench_ik_two_bone,
                                             &lb_bench_world_step_ik,
                                             &lb_bench_grip_hand,
                                             &lb_bench_grip_character,
                                             &lb_bench_grip_stage_pose,
                                             &lb_bench_grip_stage_wrap,
                                             &lb_bench_grip_stage_arms,
                                             &lb_bench_grip_stage_fingers,
                                             &lb_bench_anim_character,
                                             &lb_bench_anim_character_unreal,
                                             &lb_bench_anim_stage_sample,
                                             &lb_bench_anim_stage_blend,
                                             &lb_bench_anim_stage_model,
                                             &lb_bench_anim_stage_sample_blend,
                                             &lb_bench_world_crowd_100,
                                             &lb_bench_world_crowd_1000,
                                             &lb_bench_world_player,
                                             &lb_bench_world_player_stage_animate,
                                             &lb_bench_world_player_stage_move,
                                             &lb_bench_world_player_stage_model,
                                             &lb_bench_world_player_stage_reach,
                                             &lb_bench_world_player_stage_grip,
                                             &lb_bench_world_player_stage_output,
                                             &lb_bench_world_npc_1000,
#if !defined(__EMSCRIPTEN__) || defined(LIMBER_WASM_MT) /* threads: native and bench-mt.js */
                                             &lb_bench_world_crowd_1000_t1,
                                             &lb_bench_world_crowd_1000_t2,
                                             &lb_bench_world_npc_1000_t1,
                                             &lb_bench_world_npc_1000_t2,
#endif
                                             &lb_bench_world_npc_1000_stage_animate,
                                             &lb_bench_world_npc_1000_stage_move,
                                             &lb_bench_world_npc_1000_stage_model,
                                             &lb_bench_world_npc_1000_stage_reach,
                                             &lb_bench_world_npc_1000_stage_grip,
                                             &lb_bench_world_npc_1000_stage_output,
                                             &lb_bench_collide_closest,
                                             &lb_bench_collide_ray,
                                             &lb_bench_collide_sphere,
                                             &lb_bench_collide_capsule,
                                             &lb_bench_controller_move,
                                             &lb_bench_controller_stage_casts,
                                             &lb_bench_controller_stage_slide,
                                             &lb_bench_controller_stage_step,
                                             &lb_bench_controller_stage_snap,
                                             &lb_bench_interact_character_100,
                                             &lb_bench_interact_character_1000,
                                             &lb_bench_vault_detect_course,
                                             &lb_bench_vault_detect_1000,
                                             &lb_bench_nav_path,
                                             &lb_bench_nav_agents_100,
                                             &lb_bench_nav_agents_1000,
                                             &lb_bench_nav_crowd_100,
                                             &lb_bench_nav_crowd_100_off,
                                             &lb_bench_nav_crowd_1000,
                                             &lb_bench_nav_crowd_1000_off,
                                             &lb_bench_world_scale_object_10,
                                             &lb_bench_world_scale_object_100,
                                             &lb_bench_world_scale_object_1000,
                                             &lb_bench_world_scale_object_10000,
                                             &lb_bench_world_scale_hand_10,
                                             &lb_bench_world_scale_hand_100,
                                             &lb_bench_world_scale_hand_1000,
                                             &lb_bench_world_scale_hand_10000,
                                             &lb_bench_collide_closest_100,
                                             &lb_bench_collide_closest_100_brute,
                                             &lb_bench_collide_closest_1000,
                                             &lb_bench_collide_closest_1000_brute,
                                             &lb_bench_collide_closest_mesh,
                                             &lb_bench_collide_closest_mesh_brute,
                                             &lb_bench_collide_sphere_100,
                                             &lb_bench_collide_sphere_100_brute,
                                             &lb_bench_collide_sphere_1000,
                                             &lb_bench_collide_sphere_1000_brute,
                                             &lb_bench_collide_sphere_mesh,
                                             &lb_bench_collide_sphere_mesh_brute,
                                             &lb_bench_collide_ray_100,
                                             &lb_bench_collide_ray_100_brute,
                                             &lb_bench_collide_ray_1000,
                                             &lb_bench_collide_ray_1000_brute,
                                             &lb_bench_collide_ray_mesh,
                                             &lb_bench_collide_ray_mesh_brute};
#define LB_BENCH_COUNT (sizeof lb_benches / sizeof lb_benches[0])
#define LB_MAX_RUNS 1000
#define LB_MAX_SELECTED 64 /* --bench options */

#if defined(LIMBER_WASM_MT)
#define LB_DEFAULT_TARGET "wasm-mt"
#elif defined(__wasm_simd128__)
#define LB_DEFAULT_TARGET "wasm-simd"
#elif defined(__EMSCRIPTEN__)
#define LB_DEFAULT_TARGET "wasm"
#else
#define LB_DEFAULT_TARGET "native"
#endif

double lb_bench_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

static int lb_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void lb_json_string(const char *s) {
  putchar('"');
  for (; *s; ++s) {
    if (*s == '"' || *s == '\\') {
      putchar('\\');
    }
    putchar(*s);
  }
  putchar('"');
}

/* NAME itself, or NAME is a dotted prefix of it ("world.scale" selects "world.scale.hand.10")
 * and no bench is called NAME: "world.player" is that bench alone, not its stages too (each
 * would set the whole world up again; "world.player.stage" selects them). */
static int lb_selects(const char *sel, const char *name) {
  size_t n = strlen(sel);
  if (!strcmp(sel, name)) {
    return 1;
  }
  if (strncmp(sel, name, n) || name[n] != '.') {
    return 0;
  }
  for (size_t j = 0; j < LB_BENCH_COUNT; ++j) {
    if (!strcmp(sel, lb_benches[j]->name)) {
      return 0;
    }
  }
  return 1;
}

static int lb_run_bench(const lb_bench *b, const char *target, int runs, uint32_t iters,
                        int warmup) {
  if (iters == 0) {
    iters = b->default_iters;
  }
  if (b->iter_multiple > 1 && iters % b->iter_multiple) {
    iters += b->iter_multiple - iters % b->iter_multiple;
  }
  void *state = b->setup();
  if (!state) {
    fprintf(stderr, "limber_bench: setup of %s failed\n", b->name);
    return 0;
  }
  lb_bench_stats st;
  memset(&st, 0, sizeof st);
  for (int w = 0; w < warmup; ++w) {
    b->run(state, iters, &st);
  }
  memset(&st, 0, sizeof st);
  static double samples[LB_MAX_RUNS], sorted[LB_MAX_RUNS];
  for (int r = 0; r < runs; ++r) {
    double self = st.timed_us;
    double t0 = lb_bench_now_us();
    b->run(state, iters, &st);
    double t1 = lb_bench_now_us();
    /* a bench that timed part of its operation itself reports that part */
    samples[r] = (st.timed_us > self ? st.timed_us - self : t1 - t0) / (double)iters;
  }
  b->teardown(state);
  memcpy(sorted, samples, (size_t)runs * sizeof(double));
  qsort(sorted, (size_t)runs, sizeof(double), lb_cmp_double);
  double median = runs % 2 ? sorted[runs / 2] : 0.5 * (sorted[runs / 2 - 1] + sorted[runs / 2]);
  printf("{\"bench\":");
  lb_json_string(b->name);
  printf(",\"target\":");
  lb_json_string(target);
  printf(",\"unit\":");
  lb_json_string(b->unit);
  printf(",\"min\":%.6g,\"median\":%.6g,\"runs\":%d,\"iters\":%u,\"samples\":[", sorted[0], median,
         runs, iters);
  for (int r = 0; r < runs; ++r) {
    printf("%s%.6g", r ? "," : "", samples[r]);
  }
  printf("],\"mean_error\":%.6g,\"max_error\":%.6g,\"failures\":%llu,\"what\":",
         st.ops ? st.error_sum / (double)st.ops : 0.0, st.error_max,
         (unsigned long long)st.failures);
  lb_json_string(b->what);
  if (b->work) {
    printf(",\"work\":");
    lb_json_string(b->work);
    printf(",\"work_per_op\":%.6g", st.ops ? (double)st.work / (double)st.ops : 0.0);
  }
  printf("}\n");
  fflush(stdout);
  return 1;
}

static void lb_usage(void) {
  fprintf(stderr, "usage: limber_bench [--bench NAME]... [--runs N>=1] [--iters N>=1] "
                  "[--warmup N] [--target LABEL] [--list]\n");
}

int main(int argc, char **argv) {
  const char *target = LB_DEFAULT_TARGET;
  const char *only[LB_MAX_SELECTED];
  int only_count = 0, runs = 7, warmup = 1;
  long iters = 0; /* 0 = each bench's default */
  /* every option but --list takes a value: step over option and value */
  for (int i = 1; i < argc; i += 2) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--list")) {
      for (size_t k = 0; k < LB_BENCH_COUNT; ++k) {
        printf("%s\t%s\t%s\n", lb_benches[k]->name, lb_benches[k]->unit, lb_benches[k]->what);
      }
      return 0;
    } else if (v && !strcmp(a, "--bench") && only_count < LB_MAX_SELECTED) {
      only[only_count++] = v;
    } else if (v && !strcmp(a, "--runs")) {
      runs = atoi(v);
    } else if (v && !strcmp(a, "--iters")) {
      iters = atol(v);
    } else if (v && !strcmp(a, "--warmup")) {
      warmup = atoi(v);
    } else if (v && !strcmp(a, "--target")) {
      target = v;
    } else {
      lb_usage();
      return 2;
    }
  }
  if (runs < 1 || runs > LB_MAX_RUNS || iters < 0 || iters > 100000000L || warmup < 0) {
    lb_usage();
    return 2;
  }
  int ok = 1;
  for (int k = 0; k < only_count; ++k) {
    int known = 0;
    for (size_t j = 0; j < LB_BENCH_COUNT; ++j) {
      known |= lb_selects(only[k], lb_benches[j]->name);
    }
    if (!known) {
      fprintf(stderr, "limber_bench: unknown bench '%s' (--list shows them)\n", only[k]);
      ok = 0;
    }
  }
  for (size_t j = 0; j < LB_BENCH_COUNT; ++j) {
    int selected = only_count == 0 && !lb_benches[j]->opt_in;
    for (int k = 0; k < only_count; ++k) {
      selected |= lb_selects(only[k], lb_benches[j]->name);
    }
    if (selected) {
      ok &= lb_run_bench(lb_benches[j], target, runs, (uint32_t)iters, warmup);
    }
  }
  return ok ? 0 : 1;
}
