/* Counter-based random numbers (splitmix64): a stream is a pure function of a key, so any
 * rank draws the numbers of any body alone, and the seeding is the same on every process
 * grid (docs/bodies.md, "Seeding"). */
#ifndef EFSI_RANDOM_H
#define EFSI_RANDOM_H

#include <stdint.h>

/* The splitmix64 finaliser: a bijective mix of 64 bits. */
uint64_t random_mix64(uint64_t z);

/* The next number of the stream *state, uniform in [0, 1) with 53 random bits. */
double random_uniform(uint64_t *state);

/* The stream of body l of family f under init.seed. */
uint64_t random_stream(unsigned long seed, int f, long l);

/* A rotation uniform over SO(3), drawn from *state (Shoemake's unit quaternion): its
 * matrix, row by row, three numbers of the stream. */
void random_rotation(uint64_t *state, double frame[3][3]);

#endif
