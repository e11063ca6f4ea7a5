/* Counter-based random numbers (see random.h). */
#include "src/bodies/random.h"

#include <math.h>

uint64_t random_mix64(uint64_t z)
{
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double random_uniform(uint64_t *state)
{
  *state += 0x9E3779B97F4A7C15ull;
  return (double)(random_mix64(*state) >> 11) * 0x1.0p-53;    /* [0, 1) */
}

uint64_t random_stream(unsigned long seed, int f, long l)
{
  return random_mix64(random_mix64(random_mix64((uint64_t)seed) ^ (uint64_t)(f + 1)) ^ (uint64_t)l);
}

void random_rotation(uint64_t *state, double frame[3][3])
{
  const double two_pi = 6.28318530717958647692;
  const double u1 = random_uniform(state), u2 = two_pi * random_uniform(state),
               u3 = two_pi * random_uniform(state);
  const double x = sqrt(1 - u1) * sin(u2), y = sqrt(1 - u1) * cos(u2), z = sqrt(u1) * sin(u3),
               w = sqrt(u1) * cos(u3);
  const double m[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                          {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                          {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) frame[i][j] = m[i][j];
}
