/* Native CLI (wasm/cli/limber_cli.c), run as a process: arguments are parsed strictly
 * (empty, non-numeric, out-of-range or overflowing --dt / --steps are refused with a
 * message), files are read safely (a directory or a non-regular file is an error, not a
 * huge allocation) and a scene may refer to any number of files. */
#define _POSIX_C_SOURCE 200809L /* popen, mkdtemp */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"

#ifndef LIMBER_CLI_PATH
#error "LIMBER_CLI_PATH is set by CMakeLists.txt"
#endif

/* Runs the CLI with `args` (shell words); returns the exit status, output in out. */
static int run(const char *args, char *out, size_t cap) {
  char cmd[8192];
  snprintf(cmd, sizeof cmd, "'%s' %s 2>&1", LIMBER_CLI_PATH, args);
  FILE *p = popen(cmd, "r");
  if (!p) {
    return -1;
  }
  size_t n = fread(out, 1, cap - 1u, p);
  out[n] = 0;
  int st = pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_arguments(void) {
  static const char *bad[] = {"--dt ''",
                              "--dt abc",
                              "--dt 0.1x",
                              "--dt ' 0.1'",
                              "--dt nan",
                              "--dt inf",
                              "--dt 1e400",
                              "--dt -0.5",
                              "--dt 2",
                              "--steps ''",
                              "--steps -1",
                              "--steps +5",
                              "--steps 5x",
                              "--steps ' 5'",
                              "--steps 99999999999999999999999",
                              "--steps 18446744073709551617"};
  char out[4096], args[256];
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    snprintf(args, sizeof args, "hash assets/scenes/default.json %s", bad[i]);
    int st = run(args, out, sizeof out);
    if (st != 2 || !strstr(out, "expected")) {
      fprintf(stderr, "  %s: status %d, output '%s'\n", bad[i], st, out);
    }
    LB_CHECK(st == 2 && strstr(out, "expected") != NULL);
  }
  LB_CHECK(run("hash assets/scenes/default.json --steps 120 --dt 0.016666668", out, sizeof out) ==
           0);
  LB_CHECK(strstr(out, "9c92446ec14f017f") != NULL);
  /* the crowd scene (100 avoiding agents), as tests/expected-hashes.json stores it */
  LB_CHECK(run("hash assets/scenes/crowd.json --steps 480", out, sizeof out) == 0);
  LB_CHECK(strstr(out, "ff8d778093cec914") != NULL);
  LB_CHECK(run("hash assets/scenes/default.json --steps 0", out, sizeof out) == 0);
}

static void test_files(void) {
  char out[4096];
  LB_CHECK(run("hash assets/scenes", out, sizeof out) == 1);
  LB_CHECK(strstr(out, "is a directory") != NULL);
  LB_CHECK(run("hash /dev/null", out, sizeof out) == 1);
  LB_CHECK(strstr(out, "not a regular file") != NULL);
  LB_CHECK(run("hash assets/scenes/no-such-scene.json", out, sizeof out) == 1);
  LB_CHECK(strstr(out, "cannot open") != NULL);
}

/* 70 distinct file paths (the old CLI read only 64 and then failed the load). */
static void test_many_files(void) {
  char dir[] = "/tmp/limber-cli-XXXXXX";
  char cwd[2048];
  LB_CHECK(mkdtemp(dir) != NULL && getcwd(cwd, sizeof cwd) != NULL);
  char path[2200];
  snprintf(path, sizeof path, "%s/many.json", dir);
  FILE *f = fopen(path, "w");
  LB_CHECK(f != NULL);
  if (!f) {
    return;
  }
  fprintf(f, "{\"assets\":{\"rigs\":{");
  for (int i = 0; i < 70; ++i) {
    fprintf(f, "%s\"r%d\":{\"gltf\":\"%s/", i ? "," : "", i, cwd);
    for (int k = 0; k < i; ++k) {
      fprintf(f, "./");
    }
    fprintf(f, "assets/rigs/mannequin-mixamo.glb\"}");
  }
  fprintf(f, "}},\"entities\":[{\"name\":\"e\",\"components\":{\"Rig\":{\"asset\":\"r69\"}}}]}");
  fclose(f);
  char args[2400], out[4096];
  snprintf(args, sizeof args, "hash '%s' --steps 1", path);
  int st = run(args, out, sizeof out);
  if (st != 0) {
    fprintf(stderr, "  70 files: status %d: %s\n", st, out);
  }
  LB_CHECK(st == 0);
  remove(path);
  rmdir(dir);
}

int main(void) {
  LB_RUN(test_arguments);
  LB_RUN(test_files);
  LB_RUN(test_many_files);
  LB_TEST_MAIN_END();
}
