/**
 * @file sph_trace_warp_walk.h
 * @brief Internal to the warp schedule (gpu/particles/sph_trace_warp.cu): where a
 *        window's keys lie in the warp's buffer, and the walk of a window's sorted
 *        hits, 32 at a time with a warp scan of what the ray carries: hydrogen's
 *        optical depth (struct sph_tau) or, with helium, the columns of HI, HeI and
 *        HeII (struct sph_columns).  The kernel is a template on the carried type, so
 *        the hydrogen kernels are the code of before.
 */
#ifndef IONF_SPH_TRACE_WARP_WALK_H
#define IONF_SPH_TRACE_WARP_WALK_H

#include "gpu/particles/sph_trace_gpu.h"

#define FULL_MASK 0xffffffffu

/*
 * Where key i of a window lies in the buffer: i with its low four bits
 * flipped when bit 4 is set.  Why: 8-byte keys fill the 32 banks 16 at a time;
 * so placed, the 16 lanes of a half warp touch 16 different bank pairs both
 * when they take 16 consecutive keys and in a bitonic step at stride < 16
 * (whose keys differ in every bit of 0..4 but log2(stride)).
 */
__device__ static inline int key_pos(int i) { return i ^ (((i >> 4) & 1) * 15); }

/* The warp's values of a sum from lane `from` (d lanes down) / broadcast. */
__device__ static inline struct sph_tau tau_shfl_up(struct sph_tau a, int d) {
  struct sph_tau b = {__shfl_up_sync(FULL_MASK, a.hi, d), __shfl_up_sync(FULL_MASK, a.lo, d)};
  return b;
}

__device__ static inline struct sph_tau tau_shfl(struct sph_tau a, int lane) {
  struct sph_tau b = {__shfl_sync(FULL_MASK, a.hi, lane), __shfl_sync(FULL_MASK, a.lo, lane)};
  return b;
}

/*
 * Credit the window's n hits in key order, 32 at a time: lane L takes hit
 * base + L (keys[order[j]] after window_order, keys[key_pos(j)] after a
 * sort; one column per hit), a warp scan of the
 * hits' optical depths gives each lane the optical depth before its hit, and
 * the carry goes on to the next 32.  All sums are struct sph_tau, so this
 * grouping gives the CPU's hit-by-hit sum (see sph_trace_k.h).  Returns the
 * optical depth after the window.
 */
__device__ static struct sph_tau window_walk(const struct trace_scene &s,
                                             const struct trace_walk &w,
                                             const struct sph_ray &ray, double ndot_ray,
                                             struct sph_tau tau, const uint64_t *keys,
                                             const uint16_t *order, int n, int lane) {
  for (int base = 0; base < n; base += 32) {
    int j = base + lane, valid = j < n;
    int32_t slot = 0;
    double col = 0.0, n_hi = 0.0;
    struct sph_tau incl = {0.0, 0.0};
    if (valid) {
      uint64_t key = keys[order ? (int)order[j] : key_pos(j)];
      slot = sph_hit_key_slot(key);
      col = trace_hit_column(s, ray, key);
      n_hi = w.n_hi[slot];
      incl.hi = sph_hit_dtau(&w.tv, n_hi, col);
    }
    for (int d = 1; d < 32; d <<= 1) { /* inclusive scan; lower lanes first: the hits' order */
      struct sph_tau up = tau_shfl_up(incl, d);
      if (lane >= d) {
        sph_tau_merge(&up, incl);
        incl = up;
      }
    }
    struct sph_tau before = tau_shfl_up(incl, 1), tau_in = tau;
    if (lane > 0) sph_tau_merge(&tau_in, before);
    if (valid) {
      double dheat = 0.0;
      double g = sph_hit_credit(&w.tv, ndot_ray, sph_tau_value(tau_in), n_hi, col,
                                w.heating ? &dheat : NULL);
      atomicAdd(&w.gamma[slot], g);
      if (w.heating) atomicAdd(&w.heat[slot], dheat);
    }
    sph_tau_merge(&tau, tau_shfl(incl, 31));
  }
  return tau;
}

/* The warp's values of helium's three columns from lane `from` (d lanes down) / broadcast. */
__device__ static inline struct sph_columns columns_shfl_up(struct sph_columns a, int d) {
  struct sph_columns b;
  for (int k = 0; k < BANDS_N_ABSORBERS; ++k) b.n[k] = tau_shfl_up(a.n[k], d);
  return b;
}

__device__ static inline struct sph_columns columns_shfl(struct sph_columns a, int lane) {
  struct sph_columns b;
  for (int k = 0; k < BANDS_N_ABSORBERS; ++k) b.n[k] = tau_shfl(a.n[k], lane);
  return b;
}

/*
 * window_walk with helium: the same 32 hits at a time, the warp scan over every
 * absorber's column (struct sph_columns: TwoSum sums, so the grouping gives the CPU's
 * hit-by-hit sums), each lane's hit credited by sph_hit_credit_he.  Returns the
 * columns after the window.
 */
__device__ static struct sph_columns window_walk(const struct trace_scene &s,
                                                 const struct trace_walk &w,
                                                 const struct sph_ray &ray, double ndot_ray,
                                                 struct sph_columns cols, const uint64_t *keys,
                                                 const uint16_t *order, int n, int lane) {
  for (int base = 0; base < n; base += 32) {
    int j = base + lane, valid = j < n;
    int32_t slot = 0;
    double col = 0.0;
    struct sph_absorbers ab = {{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
    struct sph_columns incl = {};
    if (valid) {
      uint64_t key = keys[order ? (int)order[j] : key_pos(j)];
      slot = sph_hit_key_slot(key);
      col = trace_hit_column(s, ray, key);
      ab = w.absorbers[slot];
      double dcol[BANDS_N_ABSORBERS];
      sph_hit_dcol(&ab, col, dcol);
      for (int k = 0; k < BANDS_N_ABSORBERS; ++k) incl.n[k].hi = dcol[k];
    }
    for (int d = 1; d < 32; d <<= 1) { /* inclusive scan; lower lanes first: the hits' order */
      struct sph_columns up = columns_shfl_up(incl, d);
      if (lane >= d) {
        sph_columns_merge(&up, &incl);
        incl = up;
      }
    }
    struct sph_columns before = columns_shfl_up(incl, 1), in = cols;
    if (lane > 0) sph_columns_merge(&in, &before);
    if (valid) {
      double col_in[BANDS_N_ABSORBERS], g[BANDS_N_ABSORBERS], dheat[BANDS_N_ABSORBERS];
      sph_columns_value(&in, col_in);
      sph_hit_credit_he(&w.bands, ndot_ray, col_in, &ab, col, g, w.heating ? dheat : NULL);
      for (int k = 0; k < BANDS_N_ABSORBERS; ++k) {
        atomicAdd(&w.gamma[k * w.n + slot], g[k]);
        if (w.heating) atomicAdd(&w.heat[k * w.n + slot], dheat[k]);
      }
    }
    struct sph_columns last = columns_shfl(incl, 31);
    sph_columns_merge(&cols, &last);
  }
  return cols;
}

#endif /* IONF_SPH_TRACE_WARP_WALK_H */
