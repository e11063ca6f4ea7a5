/* Cartesian domain decomposition: P = px*py*pz ranks, each owning an equal block
 * n_d = N_d / p_d of the global grid at offset coords_d * n_d.  Factors left at 0 are chosen
 * to minimise the total halo surface  S = sum_d cuts_d * N_e * N_f  (cuts_d = p_d when d is
 * periodic, p_d - 1 between walls, 0 for one rank), ties going to more ranks along z, then
 * y, so that x rows stay long.  reorder = 0: world rank 0 stays cart rank 0. */
#include "decomp/decomp.h"

#include <stdio.h>
#include <string.h>

#include "base/errors.h"

static const char axis_name[3] = {'x', 'y', 'z'};

/* A rank needs EFSI_HALO cells along a direction whose halo comes from one neighbour (split)
 * or whose boundary layers are reflections of its own cells (walls). */
static int needs_full_halo(int p, int periodic) { return p > 1 || !periodic; }

static int factors_fit(const int cells[3], const int p[3], const int periodic[3])
{
  for (int e = 0; e < 3; e++) {
    if (cells[e] % p[e] != 0) return 0;
    if (needs_full_halo(p[e], periodic[e]) && cells[e] / p[e] < EFSI_HALO) return 0;
  }
  return 1;
}

static double halo_surface(const int cells[3], const int p[3], const int periodic[3])
{
  double s = 0.0;
  for (int e = 0; e < 3; e++) {
    const int cuts = p[e] == 1 ? 0 : periodic[e] ? p[e] : p[e] - 1;
    s += (double)cuts * cells[(e + 1) % 3] * cells[(e + 2) % 3];
  }
  return s;
}

/* Is p better than best: smaller surface, then more ranks along z, then along y? */
static int better(const int cells[3], const int periodic[3], const int p[3], const int best[3])
{
  const double sp = halo_surface(cells, p, periodic), sb = halo_surface(cells, best, periodic);
  if (sp != sb) return sp < sb;
  if (p[2] != best[2]) return p[2] > best[2];
  return p[1] > best[1];
}

/* Every factorization of size consistent with the given (nonzero) factors that fits the grid;
 * the best one in dims.  Returns 0 when none fits. */
static int choose_factors(int size, const int cells[3], const int ranks[3],
                          const int periodic[3], int dims[3])
{
  int found = 0;
  for (int px = 1; px <= size; px++) {
    if (size % px != 0 || (ranks[0] && ranks[0] != px)) continue;
    for (int py = 1; py <= size / px; py++) {
      if ((size / px) % py != 0 || (ranks[1] && ranks[1] != py)) continue;
      const int p[3] = {px, py, size / px / py};
      if (ranks[2] && ranks[2] != p[2]) continue;
      if (!factors_fit(cells, p, periodic)) continue;
      if (!found || better(cells, periodic, p, dims)) memcpy(dims, p, sizeof p);
      found = 1;
    }
  }
  return found;
}

int decomp_plan(int size, const int cells[3], const int ranks[3], const int periodic[3],
                int dims[3], char *err, size_t errlen)
{
  char r[64], c[64];
  snprintf(r, sizeof r, "%d %d %d", ranks[0], ranks[1], ranks[2]);
  snprintf(c, sizeof c, "%d %d %d", cells[0], cells[1], cells[2]);
  for (int e = 0; e < 3; e++) {
    if (cells[e] < 1) {
      snprintf(err, errlen, "grid.cells = %s must be positive", c);
      return 1;
    }
    if (ranks[e] < 0) {
      snprintf(err, errlen, "grid.ranks = %s must be >= 0 (0 = choose)", r);
      return 1;
    }
  }
  for (int e = 0; e < 3; e++) {
    if (ranks[e] == 0) continue;
    if (cells[e] % ranks[e] != 0) {
      snprintf(err, errlen, "grid.ranks = %s does not divide grid.cells = %s (%d is not a "
               "multiple of %d)", r, c, cells[e], ranks[e]);
      return 1;
    }
    if (needs_full_halo(ranks[e], periodic[e]) && cells[e] / ranks[e] < EFSI_HALO) {
      snprintf(err, errlen, "grid.ranks = %s leaves %d cells per rank along %c of grid.cells "
               "= %s; at least %d are needed along a split or walled direction (the WENO5 "
               "halo of width %d comes from one neighbour)", r, cells[e] / ranks[e],
               axis_name[e], c, EFSI_HALO, EFSI_HALO);
      return 1;
    }
  }
  if (ranks[0] && ranks[1] && ranks[2]) {
    const long long product = (long long)ranks[0] * ranks[1] * ranks[2];
    if (product != size) {
      snprintf(err, errlen, "grid.ranks = %s needs %lld ranks, run has %d", r, product, size);
      return 1;
    }
    memcpy(dims, ranks, 3 * sizeof *dims);
    return 0;
  }
  if (!choose_factors(size, cells, ranks, periodic, dims)) {
    snprintf(err, errlen, "grid.ranks = %s: no process grid of %d ranks fits grid.cells = %s "
             "(each factor must divide its cell count and leave at least %d cells per rank "
             "along a split or walled direction)", r, size, c, EFSI_HALO);
    return 1;
  }
  return 0;
}

int decomp_create(efsi_decomp *d, MPI_Comm comm, const int cells[3], const int ranks[3],
                  const int periodic[3], char *err, size_t errlen)
{
  memset(d, 0, sizeof *d);
  d->comm = d->node = MPI_COMM_NULL;
  for (int e = 0; e < 3; e++) d->line[e] = MPI_COMM_NULL;
  if (errlen > 0) err[0] = '\0';

  int size = 0;
  MPI_CHECK(MPI_Comm_size(comm, &size));
  for (int e = 0; e < 3; e++) d->periodic[e] = periodic[e] != 0;
  if (decomp_plan(size, cells, ranks, d->periodic, d->dims, err, errlen)) return 1;

  MPI_CHECK(MPI_Cart_create(comm, 3, d->dims, d->periodic, 0, &d->comm));
  MPI_CHECK(MPI_Comm_rank(d->comm, &d->rank));
  MPI_CHECK(MPI_Comm_size(d->comm, &d->size));
  MPI_CHECK(MPI_Cart_coords(d->comm, d->rank, 3, d->coords));
  for (int e = 0; e < 3; e++) {
    MPI_CHECK(MPI_Cart_shift(d->comm, e, 1, &d->neighbor[e][0], &d->neighbor[e][1]));
    int remain[3] = {0, 0, 0};
    remain[e] = 1;
    MPI_CHECK(MPI_Cart_sub(d->comm, remain, &d->line[e]));
  }
  MPI_CHECK(MPI_Comm_split_type(d->comm, MPI_COMM_TYPE_SHARED, d->rank, MPI_INFO_NULL, &d->node));
  MPI_CHECK(MPI_Comm_rank(d->node, &d->node_rank));
  MPI_CHECK(MPI_Comm_size(d->node, &d->node_size));
  return 0;
}

void decomp_grid(const efsi_decomp *d, const int cells[3], const double length[3],
                 efsi_grid *g)
{
  int n[3], offset[3], wall_lo[3], wall_hi[3];
  for (int e = 0; e < 3; e++) {
    n[e] = cells[e] / d->dims[e];
    offset[e] = d->coords[e] * n[e];
    wall_lo[e] = !d->periodic[e] && d->coords[e] == 0;
    wall_hi[e] = !d->periodic[e] && d->coords[e] == d->dims[e] - 1;
  }
  grid_init(g, cells, length, n, offset, wall_lo, wall_hi);
}

void decomp_free(efsi_decomp *d)
{
  for (int e = 0; e < 3; e++)
    if (d->line[e] != MPI_COMM_NULL) MPI_CHECK(MPI_Comm_free(&d->line[e]));
  if (d->node != MPI_COMM_NULL) MPI_CHECK(MPI_Comm_free(&d->node));
  if (d->comm != MPI_COMM_NULL) MPI_CHECK(MPI_Comm_free(&d->comm));
}
