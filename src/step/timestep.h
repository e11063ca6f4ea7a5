/* Time-step size: the stability limits of the explicit (forward Euler) step and the choice
 * of dt.  With time.dt = auto, dt = safety * min(limits); a fixed dt above the smallest
 * limit is refused unless time.unsafe = true.  The velocity scale comes from the case (wall
 * speeds, initial flow, the steady flow the drive produces), so dt is fixed for the whole
 * run and a restart reproduces it bitwise; the run checks the measured velocity against it. */
#ifndef EFSI_TIMESTEP_H
#define EFSI_TIMESTEP_H

#include <stddef.h>

#include "src/case/case.h"
#include "src/case/config.h"

enum {
  LIMIT_VISCOUS = 0, LIMIT_ADVECTIVE, LIMIT_ADVECTIVE_DIFFUSIVE, LIMIT_ELASTIC, LIMIT_MEMBRANE,
  LIMIT_BENDING, LIMIT_COUNT
};

typedef struct {
  double dt;                     /* the step used */
  double limit[LIMIT_COUNT];     /* each limit (infinity where it does not apply) */
  int binding;                   /* which limit is smallest */
  double velocity_scale;         /* U used for the advective limits */
} efsi_timestep;

const char *timestep_limit_name(int which);

/* Velocity scale U of the case: the largest of the wall speeds, the initial flow and the
 * steady (Poiseuille or bulk) velocity of the drive. */
double timestep_velocity_scale(const efsi_config *c);

/* Fill ts from the case.  Returns nonzero with a message naming time.dt and the limit when
 * a fixed dt exceeds the stable limit and time.unsafe is false. */
int timestep_choose(const efsi_case *cs, efsi_timestep *ts, char *err, size_t errlen);

/* The advective limits for a measured maximum speed u_max: returns the ratio
 * dt / (smallest advective limit), > 1 means the run has left its stable range. */
double timestep_advective_ratio(const efsi_config *c, double dt, double u_max);

#endif
