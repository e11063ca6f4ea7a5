/* Running a Check suite under MPI: every rank runs every test (tests may be collective),
 * in-process (no fork after MPI_Init); only rank 0 prints; the program fails when any
 * rank failed.  Usage: int main(int argc, char **argv) { return mpi_check_main(argc, argv,
 * my_suite); } */
#ifndef EFSI_MPI_CHECK_H
#define EFSI_MPI_CHECK_H

#include <check.h>

int mpi_check_main(int argc, char **argv, Suite *(*make_suite)(void));

/* Every process grid px x py x pz = size (px outer, py inner), at most max of them, into
 * grids; returns how many. */
int mpi_check_process_grids(int size, int grids[][3], int max);

/* The number of ranks of MPI_COMM_WORLD. */
int mpi_check_world_size(void);

/* For assertions that must hold on every rank: true on all ranks if true on each. */
int mpi_all(int condition);

#endif
