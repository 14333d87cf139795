/**
 * @file thermal_gas_k.h
 * @brief Gas models of thermal radiation (shared host/device maths): the absorption
 *        coefficient kappa_j [1/m] and the emission weight a_j(T) of every grey gas j of a
 *        cell, and the blackbody intensity of a grey gas, a_j sigma T^4 / pi [W m^-2 sr^-1].
 *
 * Models (enum thermal_gas_model, thermal.h):
 *  - THERMAL_GAS_GREY: one gas, kappa = the setup's kappa_per_m, a = 1.
 *  - THERMAL_GAS_WSGG_BORDBAR14: the weighted sum of grey gases of Bordbar, Wecel &
 *    Hyppanen 2014 (Combust. Flame 161, 2435-2445, "A line by line based weighted sum of
 *    gray gases model for inhomogeneous CO2-H2O mixture in oxy-fired combustion"),
 *    its Table 2 (the mixture correlation, total pressure 1 atm): four grey gases and a
 *    transparent one (gas 0 here, a_0 = 1 - sum a_j, kappa_0 = 0),
 *        kappa_j = P_a sum_k d_jk Mr^k                  [1/m], P_a = p_H2O + p_CO2 [atm]
 *        a_j     = sum_i (sum_k c_jik Mr^k) (T/1200 K)^i
 *    with Mr = x_H2O / x_CO2 held in [0.01, 4] and T in [500, 2400] K (the fit's ranges;
 *    outside, the nearest bound's weights).  The numbers below were read from the
 *    paper's table as reproduced in three independent open sources (Uintah/Arches's
 *    spectralProperties.h, a Fortran data block of a WSGG library and L. Calixto's
 *    wsgg_functions.f95) and compared entry by entry: each value here is the one at least
 *    two of them give (the third had a one-digit typo at c_{3,1,0}, c_{3,3,0} or c_{3,2,1}).
 *
 * Gas order: gas 0 of a WSGG model is the transparent window; the grey model's one gas
 * absorbs.  At most THERMAL_GASES_MAX gases.
 */
#ifndef IONF_THERMAL_GAS_K_H
#define IONF_THERMAL_GAS_K_H

#include <math.h>

#include "core/constants.h"
#include "core/ionf_hd.h"

#define THERMAL_GASES_MAX 5

/** Validity range of the Bordbar 2014 correlation (inputs are held inside it). */
#define THERMAL_BORDBAR_MR_MIN 0.01
#define THERMAL_BORDBAR_MR_MAX 4.0
#define THERMAL_BORDBAR_T_MIN_K 500.0
#define THERMAL_BORDBAR_T_MAX_K 2400.0
#define THERMAL_BORDBAR_T_REF_K 1200.0

/** Number of grey gases (transparent window included) of a model (enum thermal_gas_model). */
IONF_HD IONF_INLINE int thermal_gas_count(int model) { return model == 0 ? 1 : 5; }

/* Bordbar et al. 2014, Table 2: d_jk [1/(m atm)] as [j-1][k] (gas j = 1..4, power k of Mr),
   and c_jik as [j-1][i][k] (power i of T/1200 K), as initialisers: thermal_gas_eval
   declares each table once per evaluation (a function's local array is filled where it is
   declared: an accessor per coefficient filled the 125 numbers 100 times an evaluation). */
#define THERMAL_BORDBAR_D \
  {{0.0340429, 0.0652305, -0.0463685, 0.0138684, -0.0014450}, \
  {0.3509457, 0.7465138, -0.5293090, 0.1594423, -0.0166326}, \
  {4.5707400, 2.1680670, -1.4989010, 0.4917165, -0.0542999}, \
  {109.81690, -50.923590, 23.432360, -5.1638920, 0.4393889}}
#define THERMAL_BORDBAR_C \
  { \
  {{0.7412956, -0.5244441, 0.5822860, -0.2096994, 0.0242031}, \
  {-0.9412652, 0.2799577, -0.7672319, 0.3204027, -0.0391017}, \
  {0.8531866, 0.0823075, 0.5289430, -0.2468463, 0.0310940}, \
  {-0.3342806, 0.1474987, -0.4160689, 0.1697627, -0.0204066}, \
  {0.0431436, -0.0688622, 0.1109773, -0.0420861, 0.0049188}}, \
  {{0.1552073, -0.4862117, 0.3668088, -0.1055508, 0.0105857}, \
  {0.6755648, 1.4092710, -1.3834490, 0.4575210, -0.0501976}, \
  {-1.1253940, -0.5913199, 0.9085441, -0.3334201, 0.0384236}, \
  {0.6040543, -0.0553385, -0.1733014, 0.0791608, -0.0098934}, \
  {-0.1105453, 0.0464663, -0.0016129, -0.0035398, 0.0006121}}, \
  {{0.2550242, 0.3805403, -0.4249709, 0.1429446, -0.0157408}, \
  {-0.6065428, 0.3494024, 0.1853509, -0.1013694, 0.0130244}, \
  {0.8123855, -1.1020090, 0.4046178, -0.0811822, 0.0062981}, \
  {-0.4532290, 0.6784475, -0.3432603, 0.0883088, -0.0084152}, \
  {0.0869309, -0.1306996, 0.0741446, -0.0202929, 0.0020110}}, \
  {{-0.0345199, 0.2656726, -0.1225365, 0.0300151, -0.0028205}, \
  {0.4112046, -0.5728350, 0.2924490, -0.0798076, 0.0079966}, \
  {-0.5055995, 0.4579559, -0.2616436, 0.0764841, -0.0079084}, \
  {0.2317509, -0.1656759, 0.1052608, -0.0321935, 0.0033870}, \
  {-0.0375491, 0.0229520, -0.0160047, 0.0050463, -0.0005364}}}

/** Mr = x_H2O / x_CO2 held in the correlation's range (no CO2: the upper bound). */
IONF_HD IONF_INLINE double thermal_gas_bordbar_mr(double x_h2o, double x_co2) {
  double mr = x_co2 > 0.0 ? x_h2o / x_co2 : THERMAL_BORDBAR_MR_MAX;
  return fmin(fmax(mr, THERMAL_BORDBAR_MR_MIN), THERMAL_BORDBAR_MR_MAX);
}

/**
 * The grey gases of one cell: kappa[j] [1/m] and a[j] for j < thermal_gas_count(model).
 * t_k: temperature; p_atm: total pressure; x_h2o, x_co2: mole fractions; kappa_grey_per_m:
 * the grey model's coefficient.  a_j of the WSGG is evaluated at T held in the fit's range.
 */
IONF_HD IONF_INLINE void thermal_gas_eval(int model, double kappa_grey_per_m, double t_k,
                                          double p_atm, double x_h2o, double x_co2,
                                          double kappa[THERMAL_GASES_MAX],
                                          double a[THERMAL_GASES_MAX]) {
  if (model == 0) {
    kappa[0] = kappa_grey_per_m;
    a[0] = 1.0;
    return;
  }
  double mr = thermal_gas_bordbar_mr(x_h2o, x_co2);
  double pa_atm = p_atm * (x_h2o + x_co2);
  double th = fmin(fmax(t_k, THERMAL_BORDBAR_T_MIN_K), THERMAL_BORDBAR_T_MAX_K) /
              THERMAL_BORDBAR_T_REF_K;
  const double d[4][5] = THERMAL_BORDBAR_D;
  const double c[4][5][5] = THERMAL_BORDBAR_C;
  double sum_a = 0.0;
  for (int j = 1; j <= 4; ++j) {
    double dk = 0.0, mk = 1.0;
    double bi[5] = {0.0, 0.0, 0.0, 0.0, 0.0};
    for (int k = 0; k < 5; ++k) {
      dk += d[j - 1][k] * mk;
      for (int i = 0; i < 5; ++i) bi[i] += c[j - 1][i][k] * mk;
      mk *= mr;
    }
    double aj = 0.0, ti = 1.0;
    for (int i = 0; i < 5; ++i) {
      aj += bi[i] * ti;
      ti *= th;
    }
    kappa[j] = dk * pa_atm;
    a[j] = aj;
    sum_a += aj;
  }
  kappa[0] = 0.0;
  a[0] = 1.0 - sum_a;
}

/** Blackbody intensity of a grey gas of weight a at T [W m^-2 sr^-1]: a sigma T^4 / pi. */
IONF_HD IONF_INLINE double thermal_gas_ib(double a, double t_k) {
  double t2 = t_k * t_k;
  return a * (IONF_STEFAN_BOLTZMANN_W_PER_M2_K4 / IONF_PI) * t2 * t2;
}

/**
 * Total emissivity of a homogeneous column of path length s_m [m] (the model's
 * eps = sum_j a_j (1 - exp(-kappa_j s))), e.g. to compare with published emissivities.
 */
IONF_HD IONF_INLINE double thermal_gas_emissivity(int model, double kappa_grey_per_m, double t_k,
                                                  double p_atm, double x_h2o, double x_co2,
                                                  double s_m) {
  double kappa[THERMAL_GASES_MAX], a[THERMAL_GASES_MAX];
  thermal_gas_eval(model, kappa_grey_per_m, t_k, p_atm, x_h2o, x_co2, kappa, a);
  double eps = 0.0;
  for (int j = 0; j < thermal_gas_count(model); ++j) eps += a[j] * -expm1(-kappa[j] * s_m);
  return eps;
}

#endif /* IONF_THERMAL_GAS_K_H */
