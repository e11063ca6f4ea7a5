/* Counter-based random numbers (see random.h). */
#include "src/random.h"

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
