/* The order of the six components of a symmetric tensor, shared by the left Cauchy-Green
 * tensor B (cell centres) and the stress (the diagonal at cell centres, each off-diagonal
 * component on its own edge: docs/discretisation.md, "Stress").  Arrays of six fields are
 * indexed with these names: b[TXX], s[TXY]. */
#ifndef EFSI_TENSOR_H
#define EFSI_TENSOR_H

enum { TXX = 0, TYY, TZZ, TXY, TXZ, TYZ, TENSOR_COMPONENTS };

/* The off-diagonal component of directions d != e (0, 1, 2): TXY, TXZ or TYZ. */
static inline int tensor_offdiagonal(int d, int e) { return 2 + d + e; }

#endif
