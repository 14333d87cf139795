/**
 * @file test_mc_dda.c
 * @brief The 3D DDA of mc_k.h: from random starts and directions, each step moves
 *        to a face neighbour, the path lengths sum to the distance walked, and every
 *        segment's midpoint lies inside the cell it is booked to; directions are
 *        isotropic (mean 0, <d_z^2> = 1/3); the per-cell rate tends to the thin limit.
 */
#include <stdint.h>

#include "rt/mc/mc_k.h"
#include "test_util.h"

int main(void) {
  const int walks = 20000, steps = 60;
  double mean[3] = {0, 0, 0}, zz = 0.0;
  for (int w = 0; w < walks; ++w) {
    double u[4], v[4], dir[3], pos[3];
    mc_random4(1u, 77u, MC_KIND_SOURCE, 0u, (uint32_t)w, 0u, u);
    mc_random4(1u, 77u, MC_KIND_SOURCE, 0u, (uint32_t)w, 1u, v);
    mc_direction(u[0], u[1], dir);
    for (int a = 0; a < 3; ++a) mean[a] += dir[a];
    zz += dir[2] * dir[2];
    EXPECT(fabs(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2] - 1.0) < 1e-12, "not unit");
    for (int a = 0; a < 3; ++a) pos[a] = 10.0 * v[a] - 5.0; /* negative cells too */
    struct mc_dda d;
    mc_dda_start(pos, dir, &d);
    double walked = 0.0;
    for (int s = 0; s < steps; ++s) {
      int64_t before[3] = {d.cell[0], d.cell[1], d.cell[2]};
      double t0 = d.t;
      double ds = mc_dda_advance(&d);
      walked += ds;
      EXPECT(ds >= 0.0 && ds <= sqrt(3.0) + 1e-12, "segment %g", ds);
      double mid = t0 + 0.5 * ds;
      for (int a = 0; a < 3; ++a) {
        double x = pos[a] + mid * dir[a];
        EXPECT(x >= (double)before[a] - 1e-9 && x <= (double)before[a] + 1.0 + 1e-9,
               "walk %d step %d axis %d: midpoint %.12g outside cell %lld", w, s, a, x,
               (long long)before[a]);
      }
      int moved = 0;
      for (int a = 0; a < 3; ++a) moved += (int)llabs(d.cell[a] - before[a]);
      EXPECT(moved == 1, "walk %d step %d moved %d cells", w, s, moved);
    }
    EXPECT(fabs(walked - d.t) < 1e-9 * d.t, "path lengths %g vs %g", walked, d.t);
  }
  for (int a = 0; a < 3; ++a)
    EXPECT(fabs(mean[a] / walks) < 5.0 * sqrt(1.0 / 3.0 / walks), "mean direction %d: %g", a,
           mean[a] / walks);
  /* <mu^2> = 1/3, its standard error sqrt(4/45 / N) */
  EXPECT(fabs(zz / walks - 1.0 / 3.0) < 5.0 * sqrt(4.0 / 45.0 / walks), "<d_z^2> = %g",
         zz / walks);
  /* per-cell rate: photons absorbed / (n_HI V) and its thin limit agree */
  double photons = 1e50, sigma = 6.3e-18, ds_cm = 1e20, vol = 1e60;
  for (double n_hi = 1e-12; n_hi < 1.0; n_hi *= 10.0) {
    double dtau = sigma * n_hi * ds_cm;
    double g = mc_cell_gamma(photons, sigma, ds_cm, dtau, vol);
    double absorbed = photons * -expm1(-dtau) / (n_hi * vol);
    EXPECT_REL(g, absorbed, 1e-12, "rate = absorbed photons per atom");
  }
  EXPECT_REL(mc_cell_gamma(photons, sigma, ds_cm, 0.0, vol), photons * sigma * ds_cm / vol, 1e-15,
             "thin limit");
  TEST_RETURN();
}
