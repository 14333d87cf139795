/**
 * @file bench_grey_groups.c
 * @brief How many grey photon groups would helium's tracing need for the accuracy of the
 *        band tables (issue 21's speed budget): the photons surviving columns of HI, HeI
 *        and HeII from grey groups (K per band, log-spaced in energy, each with the
 *        photon-weighted mean cross-section of every absorber: one exponential per group,
 *        as RAMSES-RT's photon groups) and from the tables (C2-Ray's 1 + 26 + 20 sub-bins,
 *        the whole bands), against direct integration over frequency.
 *
 * usage: bench_grey_groups [blackbody|powerlaw]
 *   a 1e5 K black body to 544 eV (default) or a power law of index 1.5 to 2 keV.
 * Columns: a log grid of 9^3 (HI 1e14-1e20, HeI and HeII 1e13-1e19 cm^-2); the worst
 * relative error where more than 1e-6 of the photons survive (tests/test_bands.c's
 * criterion).  One line per quadrature: its name (in brackets the groups, exponentials per
 * cell end, or the tables), the worst relative error, the HI column there.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chem/atomic_k.h"
#include "core/constants.h"
#include "rt/bands.h"

/* the direct integration: the midpoint rule in ln E (2e5 points: the integrand's exponent
   moves by under 0.04 between points at the grid's largest column) */
#define QUAD 200000
#define GRID 9
#define MAX_GROUPS 256

struct quad {
  double e_ev[QUAD], w[QUAD], sigma[QUAD][3], total;
};

static double survive_exact(const struct quad *q, const double col[3]) {
  double sum = 0.0;
  for (int i = 0; i < QUAD; ++i)
    sum += q->w[i] * exp(-(q->sigma[i][0] * col[0] + q->sigma[i][1] * col[1] + q->sigma[i][2] * col[2]));
  return sum / q->total;
}

/* k grey groups per band: each group's photons p[g] and mean cross-sections s[g][]. */
static int grey_groups(const struct quad *q, int k, double e_max, double *p, double (*s)[3]) {
  const double edges[5] = {IONF_E_HI_EV, IONF_E_HEI_EV, IONF_E_HEII_EV, 100.0, e_max};
  const int n = 4 * k;
  memset(p, 0, sizeof(double) * (size_t)n);
  memset(s, 0, sizeof(double[3]) * (size_t)n);
  for (int i = 0; i < QUAD; ++i) {
    int b = 0;
    while (b < 3 && q->e_ev[i] >= edges[b + 1]) ++b;
    int j = (int)(k * log(q->e_ev[i] / edges[b]) / log(edges[b + 1] / edges[b]));
    const int g = b * k + (j < k ? j : k - 1);
    p[g] += q->w[i];
    for (int a = 0; a < 3; ++a) s[g][a] += q->w[i] * q->sigma[i][a];
  }
  for (int g = 0; g < n; ++g)
    for (int a = 0; a < 3; ++a) s[g][a] = p[g] > 0.0 ? s[g][a] / p[g] : 0.0;
  return n;
}

static void column(int c, double col[3]) {
  const int i[3] = {c / (GRID * GRID), (c / GRID) % GRID, c % GRID};
  for (int a = 0; a < 3; ++a) col[a] = pow(10.0, (a == 0 ? 14.0 : 13.0) + 6.0 * i[a] / (GRID - 1.0));
}

/* the worst error of one quadrature: grey groups (n, p, s) or tables (v) */
static void report(const char *name, const struct quad *q, int n, const double *p,
                   const double (*s)[3], const struct bands_view *v) {
  double worst = 0.0, at = 0.0;
  for (int c = 0; c < GRID * GRID * GRID; ++c) {
    double col[3];
    column(c, col);
    const double ex = survive_exact(q, col);
    if (!(ex > 1e-6)) continue;
    double got = 0.0;
    if (v) {
      got = bands_surviving(v, col);
    } else {
      for (int g = 0; g < n; ++g) got += p[g] * exp(-(s[g][0] * col[0] + s[g][1] * col[1] + s[g][2] * col[2]));
      got /= q->total;
    }
    const double e = fabs(got / ex - 1.0);
    if (e > worst || e != e) {
      worst = e;
      at = col[0];
    }
  }
  printf("%-34s worst %.3e  (N_HI %.2e cm^-2)\n", name, worst, at);
}

int main(int argc, char **argv) {
  const int pl = argc > 1 && !strcmp(argv[1], "powerlaw");
  struct bands_setup setup = {.type = pl ? BANDS_POWERLAW : BANDS_BLACKBODY, .t_eff_k = 1e5,
                              .powerlaw_index = 1.5, .e_max_ev = pl ? 2000.0 : 544.16,
                              .n_sub = {1, 26, 20}};
  struct quad *q = malloc(sizeof *q);
  double *p = malloc(sizeof(double) * MAX_GROUPS), (*s)[3] = malloc(sizeof(double[3]) * MAX_GROUPS);
  if (!q || !p || !s) return 1;
  const double lo = log(IONF_E_HI_EV), span = log(setup.e_max_ev) - lo;
  q->total = 0.0;
  for (int i = 0; i < QUAD; ++i) {
    q->e_ev[i] = exp(lo + span * (i + 0.5) / QUAD);
    q->w[i] = bands_photons_at(&setup, q->e_ev[i]) * q->e_ev[i] * span / QUAD;
    q->total += q->w[i];
    for (int a = 0; a < 3; ++a)
      q->sigma[i][a] = q->e_ev[i] >= atomic_threshold_ev(a) ? atomic_sigma_cm2(a, q->e_ev[i]) : 0.0;
  }
  printf("# %s; columns on a %d^3 log grid\n", pl ? "power law 1.5 to 2 keV" : "black body 1e5 K to 544 eV", GRID);
  for (int k = 1; k <= MAX_GROUPS / 4; k *= 2) {
    const int n = grey_groups(q, k, setup.e_max_ev, p, s);
    char name[64];
    snprintf(name, sizeof name, "grey groups, %d per band (%d)", k, n);
    report(name, q, n, p, (const double(*)[3])s, NULL);
  }
  for (int whole = 0; whole < 2; ++whole) {
    struct bands b;
    setup.whole = whole;
    if (bands_build(&setup, &b) != IONF_OK) return 1;
    const struct bands_view v = bands_view_of(&b);
    report(whole ? "whole-band tables (4)" : "sub-bin tables, 1 + 26 + 20 (47)", q, 0, NULL, NULL, &v);
    bands_free(&b);
  }
  free(q);
  free(p);
  free(s);
  return 0;
}
