/* A fuzz target without libFuzzer: every file of its seed corpus (tests/fuzz/corpus/TARGET)
 * and of the inputs that fuzzing found to fail (tests/fuzz/regressions/TARGET) goes through
 * LLVMFuzzerTestOneInput once.  make check runs one such program per target, so a finding
 * stays fixed; under --enable-debug the sanitizers watch it (docs/building.md, "Fuzzing"). */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

/* Every regular file of dir through the target; returns how many (0 for an empty or
 * missing dir). */
static int replay_folder(const char *dir)
{
  DIR *listing = opendir(dir);
  if (!listing) return 0;
  int count = 0;
  for (struct dirent *e = readdir(listing); e; e = readdir(listing)) {
    if (e->d_name[0] == '.') continue;
    char path[4096];
    const int length = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (length < 0 || (size_t)length >= sizeof path) {
      fprintf(stderr, "replay: %s/%s: path longer than %zu bytes, skipped\n", dir, e->d_name,
              sizeof path - 1);
      continue;
    }
    FILE *f = fopen(path, "rb");
    if (!f) continue;
    fseek(f, 0, SEEK_END);
    const long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = malloc(size > 0 ? (size_t)size : 1);
    if (data && fread(data, 1, (size_t)size, f) == (size_t)size) {
      printf("  %s\n", path);
      fflush(stdout);
      LLVMFuzzerTestOneInput(data, (size_t)size);
      count++;
    }
    free(data);
    fclose(f);
  }
  closedir(listing);
  return count;
}

int main(int argc, char **argv)
{
  /* an input that sends the NetCDF library into an endless loop: given up after 1 s, not 30 */
  setenv("EFSI_DEBUG", "probe_seconds=1", 0);
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  else MPI_Init(&argc, &argv);
  const char *const kinds[2] = {"corpus", "regressions"};
  int total = 0, missing = 0;
  for (int k = 0; k < 2; k++) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/fuzz/%s/%s", EFSI_TOP_SRCDIR, kinds[k], FUZZ_TARGET);
    const int n = replay_folder(dir);
    total += n;
    /* the seeds must be there, an empty folder no better than none; a target may have no
     * finding */
    if (n == 0 && k == 0) {
      fprintf(stderr, "fuzz target %s: no seed inputs in %s\n", FUZZ_TARGET, dir);
      missing++;
    }
  }
  MPI_Finalize();
  printf("fuzz target %s: %d inputs replayed\n", FUZZ_TARGET, total);
  printf("%d passed, %d failed\n", missing ? 0 : 1, missing ? 1 : 0);
  return missing ? 1 : 0;
}
