/**
 * @file sph_k.h
 * @brief Shared maths of SPH particles: the smoothing kernel.
 *
 * Convention (gadget-2, Springel 2005): h is the kernel's compact support
 * radius, W(r, h) = 0 for r >= h, normalised so that its volume integral is 1:
 *
 *   W(r, h) = 8 / (pi h^3) * { 1 - 6 q^2 + 6 q^3     0   <= q <= 1/2
 *                            { 2 (1 - q)^3           1/2 <  q <= 1      q = r / h
 *                            { 0                     q > 1
 *
 * SWIFT files give h_SWIFT = H / gamma_K; the reader converts to this H.
 */
#ifndef IONF_SPH_K_H
#define IONF_SPH_K_H

#include <math.h>

#include "ionf_hd.h"

#define SPH_KERNEL_NORM_3D 2.5464790894703255 /* 8 / pi */

/** W(r, h) [1 / length^3] of the cubic spline with compact support h. */
IONF_HD IONF_INLINE double sph_kernel_w(double r, double h) {
  double q = r / h;
  if (!(q < 1.0)) return 0.0;
  double norm = SPH_KERNEL_NORM_3D / (h * h * h);
  if (q <= 0.5) return norm * (1.0 - 6.0 * q * q + 6.0 * q * q * q);
  double u = 1.0 - q;
  return norm * 2.0 * u * u * u;
}

/** W from the squared distance, avoiding the square root outside the support. */
IONF_HD IONF_INLINE double sph_kernel_w_r2(double r2, double h) {
  if (!(r2 < h * h)) return 0.0;
  return sph_kernel_w(sqrt(r2), h);
}

#endif /* IONF_SPH_K_H */
