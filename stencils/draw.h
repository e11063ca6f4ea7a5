/* Initial volume fractions (docs/bodies.md, "Initial volume fractions"): phi_m = the fraction of
 * each cell inside the bodies of material m (sub-cell sampling, or a tanh profile over
 * init.interface_width cells), and the wall of a vessel, phi = the fraction of each cell
 * outside the lumen.  Pure functions of the grid, the placed bodies and the arrays. */
#ifndef EFSI_DRAW_H
#define EFSI_DRAW_H

#include "base/grid.h"
#include "stencils/shapes.h"

/* A placed body. */
typedef struct {
  long id;                 /* seeded bodies 0 .. N-1 (family by family), singles N + j */
  int kind;                /* BODY_RBC, BODY_PLATELET, BODY_SPHERE, BODY_ELLIPSOID */
  int material;            /* index into the state's phi[] */
  double center[3];
  double frame[3][3];      /* rows: the body's x, y, z axes in lab coordinates, orthonormal */
  double size[3];          /* semi-axes, or D for an RBC in size[0], radius for a sphere */
} efsi_body;

/* How far beyond its bounding sphere a body still changes phi: 0 for sharp fractions,
 * 5 interface_width cells with smoothing.  Query bodies_near with the owned box widened by
 * this for bodies_volume_fraction to see every contribution. */
double bodies_reach(const efsi_grid *g, double interface_width);

/* Add to phi[material] of every owned cell the cell's volume fraction of each body (clipped
 * to 1).  interface_width = 0: sub-cell sampling; > 0: tanh of the signed distance estimate,
 * 12 %..88 % over interface_width cells (docs/bodies.md).  Bodies are added in id order, so
 * the result does not depend on the order of b[].  Halos are not touched.  Returns nonzero
 * when memory runs out. */
int bodies_volume_fraction(const efsi_grid *g, const efsi_body *b, long n,
                           double interface_width, double *const phi[]);

/* A membrane's level (docs/membrane.md) on every owned cell: the signed distance to the
 * nearest body of material `material` (shape_distance, negative inside), in cells of the
 * smallest spacing, clipped to [-cap, cap]; cells farther than cap from every such body keep
 * level's value, which should be cap.  Query bodies_near with the owned box widened by
 * cap cells.  Halos are not touched. */
void bodies_level(const efsi_grid *g, const efsi_body *b, long n, int material, double cap,
                  double *level);

/* The least distance between two bodies, one of this kind and size, on cells of h, for which
 * their sharp volume fractions (interface_width = 0) never sum to more than 1 in a cell
 * (docs/bodies.md, "Initial volume fractions"): cut cells are sampled at the same points for
 * every body, so only a cell taken whole can count a point outside its body, and that point
 * lies within lambda d^2 / 8 of the body (d the cell's diagonal, lambda the largest positive
 * curvature of the faces: 0 for the convex shapes). */
double bodies_draw_gap(const double h[3], int kind, const double size[3]);

/* Wall material of a tube along x (axis at the centre of the y-z cross-section): phi = the
 * fraction of each owned cell outside the lumen of the given diameter (or its tanh-smoothed
 * value when interface_width > 0). */
void vessel_volume_fraction(const efsi_grid *g, double diameter, double interface_width,
                            double *phi);

/* Number of sub-cell samples per direction in a cut cell (bodies), and in a cut column's
 * y-z square (vessel). */
#define BODIES_SUBCELL 8
#define VESSEL_SUBCELL 64

#endif
