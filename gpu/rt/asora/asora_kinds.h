/**
 * @file asora_kinds.h
 * @brief The GPU tracer's kernel kinds (gpu/rt/asora/asora_cuda.cu): the run-time choices
 *        that its kernels take as template arguments, turned into them in one place.
 */
#ifndef IONF_ASORA_KINDS_H
#define IONF_ASORA_KINDS_H

#include <type_traits>

/* f(std::integral_constant<int, NS>(), std::integral_constant<int, CUT>(),
   std::integral_constant<int, WB>()) for the run's species (NS 1 or 3),
   raytracing.transmission_cutoff (CUT 0 or 1) and, with helium, spectrum.quadrature (WB 1:
   whole bands; 0: sub-bins, and always with hydrogen): the one place where the launches
   turn those run-time choices into their kernels' template arguments. */
template <typename F> static void with_species_cut(int n_species, int whole, int cut, F f) {
  typedef std::integral_constant<int, 0> zero;
  typedef std::integral_constant<int, 1> one;
  typedef std::integral_constant<int, 3> three;
  if (n_species == 3 && whole)
    cut ? f(three(), one(), one()) : f(three(), zero(), one());
  else if (n_species == 3)
    cut ? f(three(), one(), zero()) : f(three(), zero(), zero());
  else
    cut ? f(one(), one(), zero()) : f(one(), zero(), zero());
}

#endif /* IONF_ASORA_KINDS_H */
