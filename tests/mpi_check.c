/* Check + MPI glue for the unit tests (see mpi_check.h). */
#include "tests/mpi_check.h"

#include <mpi.h>
#include <stdlib.h>

int mpi_all(int condition)
{
  int all = 0;
  MPI_Allreduce(&condition, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return all;
}

int mpi_check_world_size(void)
{
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

int mpi_check_process_grids(int size, int grids[][3], int max)
{
  int count = 0;
  for (int px = 1; px <= size; px++)
    for (int py = 1; px * py <= size; py++)
      if (size % (px * py) == 0 && count < max) {
        grids[count][0] = px;
        grids[count][1] = py;
        grids[count][2] = size / (px * py);
        count++;
      }
  return count;
}

int mpi_check_main(int argc, char **argv, Suite *(*make_suite)(void))
{
  int provided = 0, rank = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  SRunner *runner = srunner_create(make_suite());
  srunner_set_fork_status(runner, CK_NOFORK);
  srunner_run_all(runner, rank == 0 ? CK_NORMAL : CK_SILENT);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return any == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
