/* One body tracer: a point per body, started at its centroid and carried by the fluid
 * (docs/tracers.md).  The driver moves tracers between ranks; restart files and bodies.csv
 * store them. */
#ifndef EFSI_TRACER_H
#define EFSI_TRACER_H

typedef struct {
  long id;                   /* the body's number, unique over all ranks */
  int kind;                  /* index into the caller's list of kind names (rbc, platelet..) */
  double x[3];               /* position, inside [0, L] in every direction */
  double v[3];               /* velocity interpolated at the last interpolation or move (a
                                move stores the velocity it used, i.e. at the position
                                before the move) */
} efsi_tracer;

#endif
