/**
 * @file sph_trace_k.h
 * @brief Shared per-ray maths of the particle tracer (src/sph_trace_cpu.c,
 *        gpu/sph_trace.cu): the slab test against a node's two child boxes,
 *        the ray-sphere test, a hit's column, and the photon-conserving credit
 *        of one hit.  Both paths call these in the same order, so they find
 *        the same hits in the same order (the CUDA file is compiled with
 *        --fmad=false so that the device rounds as the host does).
 *
 * Hit rule (grace's closest-approach rule, plus the source's own particles):
 * with v = centre - source, t = v.d the distance of closest approach along
 * the ray and b^2 = |v - t d|^2, particle p is hit when b^2 < h^2, t <= t_max
 * (rays stop at r_max: closest approach inside), and t >= 0 or the kernel
 * sphere contains the source (|v|^2 < h^2).  A particle that contains the
 * source gives each ray half its chord column: every line through the source
 * is two opposite rays (HEALPix pixel centres come in antipodal pairs), so the
 * pair together takes the full chord and the particle's column is not counted
 * twice.  Hits are walked in the order of sph_hit_key: t rounded to float,
 * then the sorted slot: a total order that does not depend on how a path
 * found the hits (traversal order, windows, threads), so CPU and GPU walk
 * every ray's hits identically.
 */
#ifndef IONF_SPH_TRACE_K_H
#define IONF_SPH_TRACE_K_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "chem/species_k.h"
#include "particles/bvh_k.h"
#include "core/ionf_hd.h"
#include "rt/bands_k.h"
#include "rt/photo_k.h"
#include "particles/sph_k.h"

/** A ray from a source: origin, unit direction, its inverse, the end. */
struct sph_ray {
  double o[3];
  double d[3];
  double inv_d[3]; /*!< 1/d (+-inf on a zero component) */
  double t_max;    /*!< closest approaches beyond it are not hits (INFINITY: none) */
};

IONF_HD IONF_INLINE void sph_ray_make(const double *origin, const double *dir, double r_max_cm,
                                      struct sph_ray *r) {
  for (int a = 0; a < 3; ++a) {
    r->o[a] = origin[a];
    r->d[a] = dir[a];
    r->inv_d[a] = 1.0 / dir[a];
  }
  r->t_max = r_max_cm > 0.0 ? r_max_cm : INFINITY;
}

/* fmin / fmax (a NaN argument loses), inline: libm's calls cost 5% of a CPU pass. */
IONF_HD IONF_INLINE double sph_min(double a, double b) { return (a < b || b != b) ? a : b; }
IONF_HD IONF_INLINE double sph_max(double a, double b) { return (a > b || b != b) ? a : b; }

/**
 * Slab test of the box [lo, hi] over the ray's t in [t_lo, t_hi].  Each axis'
 * entry and exit faces follow from the sign of 1/d (so no min/max per axis:
 * this test runs for every node a ray visits).  A NaN slab (0 * inf: the origin
 * on a face, a zero direction component) leaves t_near / t_far as they are;
 * that cannot hide a hit because the float boxes lie strictly outside their
 * spheres.
 */
IONF_HD IONF_INLINE int sph_ray_box_range(const struct sph_ray *r, double t_lo, double t_hi,
                                          float x_lo, float x_hi, float y_lo, float y_hi,
                                          float z_lo, float z_hi) {
  double t_near = t_lo, t_far = t_hi;
  float lo[3] = {x_lo, y_lo, z_lo}, hi[3] = {x_hi, y_hi, z_hi};
  for (int a = 0; a < 3; ++a) {
    int neg = r->inv_d[a] < 0.0;
    double t_in = ((double)(neg ? hi[a] : lo[a]) - r->o[a]) * r->inv_d[a];
    double t_out = ((double)(neg ? lo[a] : hi[a]) - r->o[a]) * r->inv_d[a];
    t_near = t_in > t_near ? t_in : t_near;
    t_far = t_out < t_far ? t_out : t_far;
  }
  return t_near <= t_far;
}

/**
 * The slab test over t in [0, reach], reach = t_max + h_max: the conservative
 * reach (a sphere of radius h whose closest approach is at t <= t_max lies
 * within t <= t_max + h).
 */
IONF_HD IONF_INLINE int sph_ray_box(const struct sph_ray *r, double reach, float x_lo, float x_hi,
                                    float y_lo, float y_hi, float z_lo, float z_hi) {
  return sph_ray_box_range(r, 0.0, reach, x_lo, x_hi, y_lo, y_hi, z_lo, z_hi);
}

/** Both children of a node over t in [t_lo, t_hi]: hit[0] left, hit[1] right. */
IONF_HD IONF_INLINE void sph_ray_node_range(const struct sph_ray *r, double t_lo, double t_hi,
                                            const struct bvh_node *n, int *hit) {
  hit[0] = sph_ray_box_range(r, t_lo, t_hi, n->left_xy[0], n->left_xy[1], n->left_xy[2],
                             n->left_xy[3], n->z[0], n->z[1]);
  hit[1] = sph_ray_box_range(r, t_lo, t_hi, n->right_xy[0], n->right_xy[1], n->right_xy[2],
                             n->right_xy[3], n->z[2], n->z[3]);
}

/** Both children of a node over t in [0, reach]. */
IONF_HD IONF_INLINE void sph_ray_node(const struct sph_ray *r, double reach,
                                      const struct bvh_node *n, int *hit) {
  sph_ray_node_range(r, 0.0, reach, n, hit);
}

/**
 * Ray vs the kernel sphere (centre c, radius h): 1 on a hit (rule above),
 * with t (the signed distance of closest approach), q2 = b^2 / h^2 and
 * inside = 1 when the sphere contains the source.
 */
IONF_HD IONF_INLINE int sph_ray_sphere(const struct sph_ray *r, const double *c, double h,
                                       double *t, double *q2, int *inside) {
  double v[3] = {c[0] - r->o[0], c[1] - r->o[1], c[2] - r->o[2]};
  double tt = v[0] * r->d[0] + v[1] * r->d[1] + v[2] * r->d[2];
  double w[3] = {v[0] - tt * r->d[0], v[1] - tt * r->d[1], v[2] - tt * r->d[2]};
  double b2 = w[0] * w[0] + w[1] * w[1] + w[2] * w[2];
  double h2 = h * h;
  if (!(b2 < h2) || tt > r->t_max) return 0;
  int in = v[0] * v[0] + v[1] * v[1] + v[2] * v[2] < h2;
  if (tt < 0.0 && !in) return 0;
  *t = tt;
  *q2 = b2 / h2;
  *inside = in;
  return 1;
}

/**
 * The sort key of a hit: float(t)'s bits made order-preserving as an unsigned
 * integer (sign bit flipped for t >= 0, all bits for t < 0) in the high word,
 * the particle's sorted slot in the low word.  Distances that round to the same
 * float are ordered by slot (a rounding of 6e-8 relative puts such particles at
 * the same place along the ray).
 */
IONF_HD IONF_INLINE uint64_t sph_hit_key(double t, int32_t slot) {
  float f = (float)t;
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  bits = (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
  return ((uint64_t)bits << 32) | (uint64_t)(uint32_t)slot;
}

/** The float distance of a key (the inverse of sph_hit_key's high word). */
IONF_HD IONF_INLINE float sph_hit_key_t(uint64_t key) {
  uint32_t bits = (uint32_t)(key >> 32);
  bits = (bits & 0x80000000u) ? (bits & 0x7fffffffu) : ~bits;
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

/** The sorted slot of a key. */
IONF_HD IONF_INLINE int32_t sph_hit_key_slot(uint64_t key) { return (int32_t)(uint32_t)key; }

/** Column per atom of a hit [cm^-2]: C(q2) / h^2, halved when the sphere holds the source. */
IONF_HD IONF_INLINE double sph_hit_column_per_atom(const double *column_table, double q2,
                                                   double h, int inside) {
  double c = sph_kernel_column(column_table, q2) / (h * h);
  return inside ? 0.5 * c : c;
}

/**
 * The optical depth along a ray so far, as an unevaluated sum hi + lo
 * (Knuth's TwoSum keeps each addition's rounding error in lo).  Why: the CPU
 * adds hit by hit, the GPU's warp schedule by runs of hits and a warp scan;
 * with plain doubles the two groupings round differently (relative 1e-12 in
 * the rates of deep particles); with the error term both give the sum to
 * ~1e-32 relative, so sph_tau_value agrees to the last bit but for rare ties.
 */
struct sph_tau {
  double hi, lo;
};

IONF_HD IONF_INLINE void sph_tau_add(struct sph_tau *a, double x) {
  double s = a->hi + x;
  double b = s - a->hi;
  a->lo += (a->hi - (s - b)) + (x - b);
  a->hi = s;
}

/** a += b (both sums). */
IONF_HD IONF_INLINE void sph_tau_merge(struct sph_tau *a, struct sph_tau b) {
  sph_tau_add(a, b.hi);
  a->lo += b.lo;
}

IONF_HD IONF_INLINE double sph_tau_value(struct sph_tau a) { return a.hi + a.lo; }

/** A hit's optical depth: sigma0 times its neutral atoms' column. */
IONF_HD IONF_INLINE double sph_hit_dtau(const struct photo_table_view *t, double n_hi_atoms,
                                        double col_cm2) {
  /* particles hold hydrogen alone for now (the grids' species list, species_k.h) */
  return t->sp[SPECIES_HI].sigma0_cm2 * n_hi_atoms * col_cm2;
}

/**
 * The photon-conserving credit of one hit: a ray carrying ndot_ray photons/s
 * at optical depth tau_in crosses a particle of n_hi_atoms neutral atoms and
 * column per atom col_cm2 (tau_out = tau_in + sph_hit_dtau).  Returns the
 * photoionization rate per HI atom, photons lost / n_hi_atoms, through
 * photo_rates with the particle standing in for a cell: "density" = its
 * neutral atoms, "volume" = 1, "path" = col_cm2, so n_HI ds = the particle's
 * column and the thin branch (n_hi_atoms -> 0) stays finite.  heat_out (may
 * be NULL): photo-heating per HI atom [erg/s].  Callers carry the ray's tau in
 * a struct sph_tau (sph_tau_add of sph_hit_dtau), not through tau_out.
 */
IONF_HD IONF_INLINE double sph_hit_credit(const struct photo_table_view *t, double ndot_ray,
                                          double tau_in, double n_hi_atoms, double col_cm2,
                                          double *heat_out) {
  double tau_out = tau_in + sph_hit_dtau(t, n_hi_atoms, col_cm2);
  return photo_rates(t, SPECIES_HI, ndot_ray, tau_in, tau_out, n_hi_atoms, col_cm2, 1.0,
                     heat_out);
}

/* ---- hydrogen and helium (three absorbers: the band tables of rt/bands_k.h) ---------- */

/**
 * What a hit needs of a particle with helium: its absorber atoms N_HI = N_H (1 - x_HII),
 * N_HeI = N_H A_He (1 - x_HeII - x_HeIII), N_HeII = N_H A_He x_HeII
 * (species_absorber_density with the particle's atoms for the density) and how its
 * X-ray photoelectrons' energy is split (secondary_split_at of its electron fraction,
 * x_HII as the grid's cell step takes it: heat, ion_hi, ion_hei), computed here once per
 * pass and not at every hit.  48 bytes, per sorted slot.
 */
struct sph_absorbers {
  double atoms[BANDS_N_ABSORBERS];
  double split[3];
};

/** Particle i's absorbers from its hydrogen atoms and its ion fractions x_ion[s * stride + i]. */
IONF_HD IONF_INLINE void sph_absorbers_of(double n_h_atoms, const double *x_ion, int64_t stride,
                                          int64_t i, double abundance_he,
                                          struct sph_absorbers *a) {
  double x[BANDS_N_ABSORBERS];
  for (int s = 0; s < BANDS_N_ABSORBERS; ++s) x[s] = x_ion[s * stride + i];
  for (int s = 0; s < BANDS_N_ABSORBERS; ++s)
    a->atoms[s] = species_absorber_density(s, n_h_atoms, x, abundance_he);
  const struct secondary_split f = secondary_split_at(x[SPECIES_HI]);
  a->split[0] = f.heat;
  a->split[1] = f.ion_hi;
  a->split[2] = f.ion_hei;
}

/**
 * The columns a ray carries with helium: N_HI, N_HeI, N_HeII [cm^-2], each a struct
 * sph_tau (so that the CPU's hit-by-hit sums and the GPU's grouped ones agree, as for
 * hydrogen's optical depth).  Zero-initialised: no column.
 */
struct sph_columns {
  struct sph_tau n[BANDS_N_ABSORBERS];
};

/** A hit's column of each absorber [cm^-2]: its atoms times the column per atom. */
IONF_HD IONF_INLINE void sph_hit_dcol(const struct sph_absorbers *a, double col_cm2,
                                      double dcol[BANDS_N_ABSORBERS]) {
  for (int s = 0; s < BANDS_N_ABSORBERS; ++s) dcol[s] = a->atoms[s] * col_cm2;
}

/** c += a hit's columns. */
IONF_HD IONF_INLINE void sph_columns_add(struct sph_columns *c, const struct sph_absorbers *a,
                                         double col_cm2) {
  double dcol[BANDS_N_ABSORBERS];
  sph_hit_dcol(a, col_cm2, dcol);
  for (int s = 0; s < BANDS_N_ABSORBERS; ++s) sph_tau_add(&c->n[s], dcol[s]);
}

/** a += b (every absorber's sum). */
IONF_HD IONF_INLINE void sph_columns_merge(struct sph_columns *a, const struct sph_columns *b) {
  for (int s = 0; s < BANDS_N_ABSORBERS; ++s) sph_tau_merge(&a->n[s], b->n[s]);
}

IONF_HD IONF_INLINE void sph_columns_value(const struct sph_columns *c,
                                           double out[BANDS_N_ABSORBERS]) {
  for (int s = 0; s < BANDS_N_ABSORBERS; ++s) out[s] = sph_tau_value(c->n[s]);
}

/**
 * The photon-conserving credit of one hit with helium: the ray (ndot_ray photons/s, the
 * columns col_in_cm2 before the particle) crosses particle `a` with column per atom
 * col_cm2.  Through bands_rates with the particle standing in for a cell, as
 * sph_hit_credit does with photo_rates: every absorber's column across it
 * dcol[s] = atoms[s] col_cm2, "path" = col_cm2, "volume" = 1, so each sub-bin's absorbed
 * photons are shared among HI, HeI and HeII by their optical depths and the rates are
 * per absorber atom, finite as the atoms go to 0.  Sets gamma[s] [1/s] and, when heat is
 * not NULL and the tables heat, heat[s] [erg/s] per absorber atom; with v->secondary the
 * X-ray sub-bins' photoelectrons are split by bands_secondary_split with the particle's
 * split (absorber atoms for the densities: only their ratios enter).
 */
IONF_HD IONF_INLINE void sph_hit_credit_he(const struct bands_view *v, double ndot_ray,
                                           const double col_in_cm2[BANDS_N_ABSORBERS],
                                           const struct sph_absorbers *a, double col_cm2,
                                           double gamma[BANDS_N_ABSORBERS],
                                           double heat[BANDS_N_ABSORBERS]) {
  double dcol[BANDS_N_ABSORBERS], xray[BANDS_N_ABSORBERS] = {0.0, 0.0, 0.0};
  sph_hit_dcol(a, col_cm2, dcol);
  double *heat_or_null = v->heating ? heat : (double *)0;
  for (int s = 0; s < BANDS_N_ABSORBERS; ++s) {
    gamma[s] = 0.0;
    if (heat) heat[s] = 0.0;
  }
  bands_rates(v, ndot_ray, col_in_cm2, dcol, col_cm2, 1.0, gamma, heat_or_null,
              v->secondary ? xray : (double *)0);
  if (v->secondary) bands_secondary_split(0.0, a->split, 1, a->atoms, xray, gamma, heat_or_null);
}

#endif /* IONF_SPH_TRACE_K_H */
