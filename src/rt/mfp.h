/**
 * @file mfp.h
 * @brief Mean-free-path models that set the photon radius R_max of each step from its
 *        redshift (raytracing.mean_free_path), comoving:
 *
 *   Choudhury09  R(z) = A ((1 + z) / 5)^eta               (pyC2Ray's older mfp_Choudhury09;
 *                                                          Choudhury et al. 2009's form)
 *   Worseck2014  R(z) = A ((1 + z) / 5)^eta (1 + ((1 + z) / (1 + z1))^eta1)
 *                                                         (pyC2Ray's mfp_Worseck2014;
 *                                                          Worseck et al. 2014's power law
 *                                                          with pyC2Ray's high-z term)
 *
 * In both, ln R is a convex function of ln(1 + z) (eta is a constant; the Worseck term's
 * derivative eta1 w / (1 + w), w = ((1 + z) / (1 + z1))^eta1, never decreases), so over a
 * redshift interval R is largest at one of its ends, and smallest at an end or where the
 * derivative eta + eta1 w / (1 + w) vanishes.
 */
#ifndef IONF_MFP_H
#define IONF_MFP_H

enum mfp_kind { MFP_NONE = 0, MFP_CHOUDHURY09, MFP_WORSECK2014 };

/** A mean-free-path model (a zeroed struct: none, R_max fixed). */
struct mfp_model {
  enum mfp_kind kind;
  double a_cm;        /*!< A, comoving [cm] (> 0) */
  double eta;         /*!< power of (1 + z) / 5 */
  double z1, eta1;    /*!< Worseck2014: the high-redshift term */
};

/** The model's name as the config spells it ("Choudhury09", "Worseck2014"; "none"). */
const char *mfp_name(enum mfp_kind kind);

/** R(z), comoving [cm] (0 for MFP_NONE). */
double mfp_comoving_cm(const struct mfp_model *m, double z);

/** The smallest and largest R over redshifts [z_lo, z_hi] (either order), comoving [cm]. */
void mfp_range_cm(const struct mfp_model *m, double z_lo, double z_hi, double *r_min_cm,
                  double *r_max_cm);

#endif /* IONF_MFP_H */
