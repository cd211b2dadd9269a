/* Native CLI: `limber hash SCENE --steps N [--dt S]` prints the bone hash as the
 * last line (16 hex digits); `limber run ...` prints a readable summary too; `limber replay
 * [SCENE] LOG [--every]` loads the scene into a new world (without SCENE: a new, empty world,
 * for a log that carries its own setup), applies the input log the bridge recorded
 * (world.record, limber/input_log.h) and prints the hash (with --every, each step's first),
 * exit 1 when it differs from the log's "end". Files the
 * scene refers to (glTF rigs) are read relative to the scene's folder or the first folder
 * above it that has them (so repository-relative paths work from anywhere). */
#define _POSIX_C_SOURCE 200809L /* fstat */
#include "limber/limber.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define LIMBER_FILE_MAX ((size_t)1 << 30) /* 1 GiB: larger is refused, not allocated */

/* A whole regular file, NUL-terminated; null with *why set for a missing file, a
 * directory or another non-regular file, one over LIMBER_FILE_MAX, or a read error. */
static char *read_file_why(const char *path, size_t *len, const char **why) {
  *why = "cannot open it";
  FILE *f = fopen(path, "rb");
  if (!f) {
    return NULL;
  }
  struct stat st;
  char *buf = NULL;
  if (fstat(fileno(f), &st) != 0) {
    *why = "cannot stat it";
  } else if (!S_ISREG(st.st_mode)) {
    *why = S_ISDIR(st.st_mode) ? "it is a directory" : "it is not a regular file";
  } else if (st.st_size < 0 || (unsigned long long)st.st_size > LIMBER_FILE_MAX) {
    *why = "it is larger than 1 GiB";
  } else {
    size_t n = (size_t)st.st_size;
    buf = malloc(n + 1u);
    *why = "out of memory";
    if (buf) {
      size_t got = fread(buf, 1, n, f);
      /* A file that changed size while being read is read as far as it went. */
      if (got != n || ferror(f)) {
        free(buf);
        buf = NULL;
        *why = "read error";
      } else {
        buf[n] = 0;
        *len = n;
        *why = NULL;
      }
    }
  }
  fclose(f);
  return buf;
}

static char *read_file(const char *path, size_t *len) {
  const char *why;
  return read_file_why(path, len, &why);
}

/* Reads `rel` from the scene's folder or a folder above it. */
static char *read_near(const char *scene_path, const char *rel, size_t *len) {
  if (rel[0] == '/') {
    return read_file(rel, len);
  }
  char dir[1024];
  const char *slash = strrchr(scene_path, '/');
  size_t n = slash ? (size_t)(slash - scene_path) : 1u;
  if (n >= sizeof dir) {
    return NULL;
  }
  memcpy(dir, slash ? scene_path : ".", n);
  dir[n] = 0;
  for (int up = 0; up < 16; ++up) {
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    char *bytes = read_file(path, len);
    if (bytes || strlen(dir) + 4u >= sizeof dir) {
      return bytes;
    }
    strcat(dir, "/..");
  }
  return NULL;
}

/* Loads the scene with every file it refers to. */
static lb_result load_scene(lb_world *world, const char *path, const char *json, size_t len,
                            lb_scene **scene) {
  size_t need = 0;
  lb_scene_files(json, len, NULL, 0, &need);
  char *list = malloc(need ? need : 1);
  size_t lines = 0;
  lb_result r = list ? lb_scene_files(json, len, list, need, &need) : LB_ERR_OUT_OF_MEMORY;
  for (const char *p = list; r == LB_OK && p && *p; ++p) {
    lines += *p == '\n';
  }
  lb_scene_file *files = calloc(lines ? lines : 1u, sizeof *files);
  uint32_t count = 0;
  if (!files) {
    r = LB_ERR_OUT_OF_MEMORY;
  }
  for (char *p = list, *nl; r == LB_OK && p && (nl = strchr(p, '\n')); p = nl + 1) {
    *nl = 0;
    size_t n = 0;
    char *bytes = count < lines ? read_near(path, p, &n) : NULL;
    if (!bytes) {
      fprintf(stderr, "limber: cannot read %s (named by %s)\n", p, path);
      continue; /* the loader names the missing file */
    }
    files[count].path = p;
    files[count].bytes = (const uint8_t *)bytes;
    files[count++].size = n;
  }
  if (r == LB_OK || r == LB_ERR_PARSE) {
    r = lb_scene_load_files(world, json, len, files, count, scene);
  }
  for (uint32_t i = 0; i < count; ++i) {
    free((void *)files[i].bytes);
  }
  free(files);
  free(list);
  return r;
}

static int usage(void) {
  fprintf(stderr,
          "usage: limber hash|run|poses SCENE.json [--steps N] [--dt SECONDS] [--threads T]\n"
          "       limber replay [SCENE.json] LOG.json [--every]\n"
          "  poses: after every step, each named entity's joint positions in world space\n"
          "  (float32 x y z per joint, little-endian) to stdout; scripts/pose-diff.mjs\n"
          "  compares two such dumps\n"
          "  --threads T: workers for the step's parallel sections, 1..64 (default 1);\n"
          "  the hash is the same for every T\n");
  return 2;
}

static int bad_arg(const char *opt, const char *value, const char *want) {
  fprintf(stderr, "limber: %s '%s': expected %s\n", opt, value, want);
  return usage();
}

/* A whole decimal number 0..1e12: digits only (no sign, space or suffix), no overflow. */
static bool parse_steps(const char *s, unsigned long long *out) {
  if (!s[0] || strspn(s, "0123456789") != strlen(s) || strlen(s) > 13) {
    return false;
  }
  errno = 0;
  char *end = NULL;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || !end || *end || v > 1000000000000ull) {
    return false;
  }
  *out = v;
  return true;
}

/* Seconds: a decimal number with nothing after it that lb_world_step takes (0, or
 * [LB_STEP_DT_MIN, 1]). */
static bool parse_dt(const char *s, double *out) {
  if (!s[0] || strchr(" \t\n\r\f\v", s[0])) {
    return false;
  }
  errno = 0;
  char *end = NULL;
  double v = strtod(s, &end);
  if (errno || !end || end == s || *end || !isfinite(v) || !lb_world_dt_valid((float)v)) {
    return false;
  }
  *out = v;
  return true;
}

/* Why: comparing two builds' motion (a change that alters hashes states its error in metres)
 * needs the poses themselves, not a hash of them. */
static void write_poses(const lb_world *world, const lb_scene *scene) {
  for (uint32_t i = 0; i < lb_scene_entity_count(scene); ++i) {
    lb_entity e = lb_scene_entity_at(scene, i);
    uint32_t n = 0;
    const lb_transform *model = lb_rig_model_pose(world, e, &n);
    lb_transform x;
    if (!model || lb_world_entity_transform(world, e, &x) != LB_OK) {
      continue;
    }
    for (uint32_t j = 0; j < n; ++j) {
      lb_transform m;
      lb_transform_mul(&x, &model[j], &m);
      fwrite(m.t, sizeof(float), 3, stdout);
    }
  }
}

static bool print_step_hash(lb_world *world, uint64_t step, void *user) {
  (void)user;
  printf("step %llu %016llx\n", (unsigned long long)step, (unsigned long long)lb_world_hash(world));
  return true;
}

/* The log's "end": { "hash": "..." }, found by text (the core parses the log itself). */
static bool end_hash(const char *log, char out[17]) {
  const char *end = strstr(log, "\"end\"");
  const char *h = end ? strstr(end, "\"hash\"") : NULL;
  const char *q = h ? strchr(h + 6, '"') : NULL;
  if (!q || strspn(q + 1, "0123456789abcdef") != 16 || q[17] != '"') {
    return false;
  }
  memcpy(out, q + 1, 16);
  out[16] = 0;
  return true;
}

/* `replay [SCENE] LOG [--every]`: without SCENE the log starts from a new, empty world (one
 * recorded from world.record() on a new world carries its whole setup: scenes, levels, props
 * and navmeshes are ops of the log). */
static int replay(int argc, char **argv) {
  bool every = argc >= 4 && strcmp(argv[argc - 1], "--every") == 0;
  int files = argc - 2 - (every ? 1 : 0);
  if (files < 1 || files > 2) {
    return usage();
  }
  const char *scene_path = files == 2 ? argv[2] : NULL;
  const char *log_path = argv[files == 2 ? 3 : 2];
  size_t len = 0, log_len = 0;
  const char *why = NULL;
  char *json = scene_path ? read_file_why(scene_path, &len, &why) : NULL;
  char *log = json || !scene_path ? read_file_why(log_path, &log_len, &why) : NULL;
  if (!log) {
    fprintf(stderr, "limber: cannot read %s: %s\n", json || !scene_path ? log_path : scene_path,
            why);
    free(json);
    return 1;
  }
  lb_world *world = NULL;
  lb_scene *scene = NULL;
  lb_result r = lb_world_create(NULL, &world);
  if (r == LB_OK && scene_path) {
    r = load_scene(world, scene_path, json, len, &scene);
  }
  if (r == LB_OK) {
    r = lb_input_log_replay(world, scene ? &scene : NULL, scene ? 1u : 0u, log, log_len,
                            every ? print_step_hash : NULL, NULL);
  }
  char want[17];
  int status = 0;
  if (r != LB_OK) {
    fprintf(stderr, "limber: %s\n", world ? lb_world_last_error(world) : lb_result_name(r));
    status = 1;
  } else {
    char got[17];
    snprintf(got, sizeof got, "%016llx", (unsigned long long)lb_world_hash(world));
    printf("%s\n", got);
    if (end_hash(log, want) && strcmp(want, got) != 0) {
      fprintf(stderr, "limber: the replay's hash %s differs from the recorded session's %s\n", got,
              want);
      status = 1;
    }
  }
  free(json);
  free(log);
  if (scene) {
    lb_scene_destroy(world, scene);
  }
  lb_world_destroy(world);
  return status;
}

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "replay") == 0) {
    return replay(argc, argv);
  }
  if (argc < 3 || (strcmp(argv[1], "hash") != 0 && strcmp(argv[1], "run") != 0 &&
                   strcmp(argv[1], "poses") != 0)) {
    return usage();
  }
  bool summary = strcmp(argv[1], "run") == 0;
  bool poses = strcmp(argv[1], "poses") == 0;
  const char *path = argv[2];
  unsigned long long steps = 60;
  double dt = 1.0 / 60.0;
  lb_world_def def = lb_world_default_def();
  for (int i = 3; i < argc; ++i) {
    if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) {
      if (!parse_steps(argv[++i], &steps)) {
        return bad_arg("--steps", argv[i], "a whole number of steps, 0..1000000000000");
      }
    } else if (strcmp(argv[i], "--dt") == 0 && i + 1 < argc) {
      if (!parse_dt(argv[++i], &dt)) {
        return bad_arg("--dt", argv[i], "seconds: 0 or a number in [1e-6, 1]");
      }
    } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
      unsigned long long t = 0;
      if (!parse_steps(argv[++i], &t) || t < 1 || t > LB_MAX_THREADS) {
        return bad_arg("--threads", argv[i], "a whole number of threads, 1..64");
      }
      def.threads = (uint32_t)t;
    } else {
      return usage();
    }
  }
  size_t len = 0;
  const char *why = NULL;
  char *json = read_file_why(path, &len, &why);
  if (!json) {
    fprintf(stderr, "limber: cannot read %s: %s\n", path, why);
    return 1;
  }
  lb_world *world = NULL;
  lb_scene *scene = NULL;
  lb_result r = lb_world_create(&def, &world);
  if (r == LB_OK) {
    r = load_scene(world, path, json, len, &scene);
  }
  for (unsigned long long s = 0; r == LB_OK && s < steps; ++s) {
    r = lb_scene_step(world, scene, (float)dt);
    if (r == LB_OK && poses) {
      write_poses(world, scene);
    }
  }
  free(json);
  if (r != LB_OK) {
    fprintf(stderr, "limber: %s\n", world ? lb_world_last_error(world) : lb_result_name(r));
    lb_scene_destroy(world, scene);
    lb_world_destroy(world);
    return 1;
  }
  uint64_t h = lb_world_hash(world);
  if (poses) {
    lb_scene_destroy(world, scene);
    lb_world_destroy(world);
    return 0;
  }
  if (summary) {
    printf("scene %s: %llu steps of %g s, %u named entities\n", path, steps, dt,
           lb_scene_entity_count(scene));
    for (uint32_t i = 0; i < lb_scene_entity_count(scene); ++i) {
      lb_entity e = lb_scene_entity_at(scene, i);
      lb_transform x;
      lb_world_entity_transform(world, e, &x);
      printf("  %-16s at (%.4f, %.4f, %.4f)", lb_scene_entity_name(scene, i), (double)x.t[0],
             (double)x.t[1], (double)x.t[2]);
      lb_animator_c an;
      if (lb_world_get(world, e, LB_ANIMATOR, &an) == LB_OK) {
        printf("  Animator state=%s time=%.3f s blend=%.3f", lb_world_name_text(world, an.state),
               (double)an.state_time, (double)an.blend);
      }
      lb_two_bone_ik_c ik;
      if (lb_world_get(world, e, LB_TWO_BONE_IK, &ik) == LB_OK) {
        printf("  TwoBoneIK reached=%u distance=%.6f m", ik.reached, (double)ik.distance);
      }
      lb_env_interaction_c ei;
      if (lb_world_get(world, e, LB_ENV_INTERACTION, &ei) == LB_OK) {
        static const char *const states[] = {"Search", "Approach", "Rise", "Touch", "Reset"};
        static const char *const sides[] = {"None", "Right", "Left"};
        printf(
            "  EnvironmentInteraction state=%s side=%s weights R%.3f L%.3f rise=%.3f palm=%.4f m "
            "plants=%u",
            states[ei.state % 5u], sides[ei.side % 3u], (double)ei.right_weight,
            (double)ei.left_weight, (double)ei.rise, (double)ei.palm_distance, ei.plants);
      }
      printf("\n");
    }
  }
  printf("%016llx\n", (unsigned long long)h);
  lb_scene_destroy(world, scene);
  lb_world_destroy(world);
  return 0;
}
