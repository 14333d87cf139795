/**
 * @file clumping.c
 * @brief The clumping models' step values (clumping.h).
 */
#include "chem/clumping.h"

#include <math.h>
#include <string.h>

double clumping_redshift_factor(double c0, double c1, double c2, double z) {
  return c0 * exp(c1 * z + c2 * z * z) + 1.0;
}

void clumping_table_at(const struct clumping_table *t, double z, double abc[3]) {
  int n = t->n_rows, hi = 1;
  if (n < 1) {
    abc[0] = abc[1] = 0.0;
    abc[2] = 1.0;
    return;
  }
  if (n == 1 || !(z > t->z[0])) { /* below the table (or NaN): the first row */
    abc[0] = t->a[0], abc[1] = t->b[0], abc[2] = t->c[0];
    return;
  }
  if (z >= t->z[n - 1]) {
    abc[0] = t->a[n - 1], abc[1] = t->b[n - 1], abc[2] = t->c[n - 1];
    return;
  }
  while (t->z[hi] < z) ++hi; /* z[hi - 1] < z <= z[hi] */
  const double w = (z - t->z[hi - 1]) / (t->z[hi] - t->z[hi - 1]);
  abc[0] = t->a[hi - 1] * (1.0 - w) + t->a[hi] * w;
  abc[1] = t->b[hi - 1] * (1.0 - w) + t->b[hi] * w;
  abc[2] = t->c[hi - 1] * (1.0 - w) + t->c[hi] * w;
}

struct chem_clumping clumping_model_step(const struct clumping_model *m, double z,
                                         double mean_n_h_cm3) {
  struct chem_clumping k;
  memset(&k, 0, sizeof k);
  if (m->z_fixed >= 0.0) z = m->z_fixed;
  switch (m->kind) {
    case CLUMPING_CONSTANT:
      k.model = CHEM_CLUMPING_UNIFORM;
      k.factor = m->value;
      break;
    case CLUMPING_REDSHIFT:
      k.model = CHEM_CLUMPING_UNIFORM;
      k.factor = clumping_redshift_factor(m->c0, m->c1, m->c2, z);
      break;
    case CLUMPING_DENSITY:
      if (!(mean_n_h_cm3 > 0.0) || !isfinite(mean_n_h_cm3)) { /* no gas: nothing to clump */
        k.model = CHEM_CLUMPING_UNIFORM;
        k.factor = 1.0;
        break;
      }
      {
        double abc[3];
        clumping_table_at(&m->table, z, abc);
        k.model = CHEM_CLUMPING_DENSITY;
        k.a = abc[0];
        k.b = abc[1];
        k.c = abc[2];
        k.x_offset = m->x_plus_one ? 1.0 : 0.0;
        k.mean_n_h_cm3 = mean_n_h_cm3;
      }
      break;
    case CLUMPING_NONE:
      break;
  }
  return k;
}
