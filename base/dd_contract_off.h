/* Included first by a source file whose functions add with the double-double sums of
 * base/dd.h: no contraction of a * b + c into a fused multiply-add in the rest of the file
 * (TwoSum's error term assumes each operation rounded on its own; see base/dd.h).  Not a
 * header to include from another header: the pragma holds to the end of the file that
 * includes it. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__) && !defined(__CUDACC__)
#pragma GCC optimize("fp-contract=off")
#endif
