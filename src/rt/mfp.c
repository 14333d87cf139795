/**
 * @file mfp.c
 * @brief The mean-free-path models (mfp.h).
 */
#include "rt/mfp.h"

#include <math.h>

const char *mfp_name(enum mfp_kind kind) {
  return kind == MFP_CHOUDHURY09 ? "Choudhury09" : kind == MFP_WORSECK2014 ? "Worseck2014" : "none";
}

double mfp_comoving_cm(const struct mfp_model *m, double z) {
  if (m->kind == MFP_NONE) return 0.0;
  double r = m->a_cm * pow((1.0 + z) / 5.0, m->eta);
  if (m->kind == MFP_WORSECK2014) r *= 1.0 + pow((1.0 + z) / (1.0 + m->z1), m->eta1);
  return r;
}

void mfp_range_cm(const struct mfp_model *m, double z_lo, double z_hi, double *r_min_cm,
                  double *r_max_cm) {
  if (z_lo > z_hi) {
    double t = z_lo;
    z_lo = z_hi;
    z_hi = t;
  }
  double r_lo = mfp_comoving_cm(m, z_lo), r_hi = mfp_comoving_cm(m, z_hi);
  *r_max_cm = r_lo > r_hi ? r_lo : r_hi;
  *r_min_cm = r_lo < r_hi ? r_lo : r_hi;
  /* Worseck2014: d ln R / d ln(1+z) = eta + eta1 s, s = w / (1 + w) in (0, 1), is zero
     where s = -eta / eta1: the minimum, when it lies inside */
  if (m->kind != MFP_WORSECK2014 || m->eta1 == 0.0) return;
  double s = -m->eta / m->eta1;
  if (!(s > 0.0 && s < 1.0)) return;
  double u = (1.0 + m->z1) * pow(s / (1.0 - s), 1.0 / m->eta1); /* 1 + z of the extremum */
  if (u - 1.0 > z_lo && u - 1.0 < z_hi) {
    double r = mfp_comoving_cm(m, u - 1.0);
    if (r < *r_min_cm) *r_min_cm = r;
  }
}
