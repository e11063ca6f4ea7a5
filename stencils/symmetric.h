/* A symmetric tensor at one point -- B, its rate, the stress of the solid -- as six doubles
 * named in the order of base/tensor.h, and its load from and store to six arrays.  A
 * struct, not an array: GCC keeps a struct's members in registers inside a vectorised point
 * loop, where a local array stays in memory and stops the vectoriser. */
#ifndef EFSI_SYMMETRIC_H
#define EFSI_SYMMETRIC_H

#include <stddef.h>

#include "base/portable.h"
#include "base/tensor.h"

typedef struct { double xx, yy, zz, xy, xz, yz; } sym_tensor_t;

/* The tensor at p from the six arrays b[TXX..TYZ]. */
EFSI_POINT sym_tensor_t sym_load(double *const b[6], ptrdiff_t p)
{
  sym_tensor_t t = {b[TXX][p], b[TYY][p], b[TZZ][p], b[TXY][p], b[TXZ][p], b[TYZ][p]};
  return t;
}

EFSI_POINT void sym_store(double *const b[6], ptrdiff_t p, sym_tensor_t t)
{
  b[TXX][p] = t.xx;
  b[TYY][p] = t.yy;
  b[TZZ][p] = t.zz;
  b[TXY][p] = t.xy;
  b[TXZ][p] = t.xz;
  b[TYZ][p] = t.yz;
}

#endif
