/**
 * @file thermal_k.h
 * @brief Thermal radiation by emission-based reciprocal Monte Carlo (ERMC), the per-ray
 *        and per-element maths shared by the CPU loop (thermal_cpu.c) and the CUDA kernel
 *        (gpu/thermal/thermal_cuda.cu): random numbers, ray directions, the grey gas of a
 *        ray, the walk through the cells (3D DDA on the fine grid and the coarser
 *        multigrid levels, periodic axes, grey diffuse walls) and the estimate of one
 *        element (a cell or a wall patch), with its standard error.
 *
 * The estimator (Silvestri & Pecnik 2019, eqs. 12-14, in difference form).  A ray of grey
 * gas j leaves element i; every element k it crosses (cell, or wall) takes the share
 * tau_{i->k} alpha_k of it (alpha = 1 - exp(-kappa_j ds) for a cell, the emissivity for a
 * wall; tau the transmissivity up to k, walls' reflections included) and the ray adds
 *     D = sum_k tau_{i->k} alpha_k (I_b,j(T_i) - I_b,j(T_k))          [W m^-2 sr^-1]
 * (I_b,j = a_j sigma T^4 / pi).  Cell:  Q = 4 pi kappa_j,i D  (emitted - absorbed,
 * W/m^3).  Wall patch: q = -pi eps_i D  (absorbed - emitted, W/m^2, into the wall).
 * An isothermal enclosure gives D = 0 for every ray, exactly.  Below transmissivity_min
 * the rest, tau (I_b,j(T_i) - I_b,j(T_last)), goes to the last element crossed.
 *
 * Grey gas of a ray: p_j proportional to kappa_j a_j(T_max) (cells: the cell's
 * composition) or a_j(T_max) (wall patches, transparent window included), the estimate
 * divided by p_j (the seed's R_I, eq. 14); a WSGG's p_j keeps a floor (1% spread evenly
 * over the gases that can contribute), so that a gas of weight 0 at T_max still gets rays.
 * sort_gases = 1: stratified instead: the element's rays go to the gases in order of
 * increasing kappa_j, n_j rays each (2 each, the rest by the cumulative of p_j), and the
 * estimate is the sum over gases of each stratum's mean (its variance: sum s_j^2 / n_j).
 *
 * Random numbers: Philox4x32-10 (core/philox_k.h), key (seed, 0), counter (element,
 * ray, event, element >> 32): event 0 gives the direction (u0, u1) and the gas (u2),
 * event e >= 1 the direction after the e-th reflection.  Elements: cells by their C index,
 * wall patch w as cells + w.  A result depends on the seed and rays only.
 *
 * Multigrid (seed section 4.3): level l has ceil(n / 2^l) cells per axis of 2^l times the
 * fine size (the last one cut at the box); a ray takes steps_per_level cell steps on a
 * level, then goes on on the next coarser one; the coarsest runs to the end.  Coarse
 * fields (thermal_levels.c): kappa_j the volume average (what a ray crossing the coarse
 * cell sees on average), I_b,j the kappa_j-weighted average (so that the coarse cell
 * emits what its fine cells emit, and an isothermal region stays exactly isothermal).
 *
 * Lengths in metres.  No allocation here: the solvers pass a struct thermal_view.
 */
#ifndef IONF_THERMAL_K_H
#define IONF_THERMAL_K_H

#include <math.h>
#include <stdint.h>

#include "core/constants.h"
#include "core/ionf_hd.h"
#include "core/philox_k.h"
#include "thermal/thermal_gas_k.h"

/* The per-step table reads (kappa_j, I_b,j of a cell or wall patch): on the GPU through
   the read-only data cache (__ldg: the seed's texture-memory acceleration, measured in
   benchmarks/RESULTS.md); a translation unit may define THERMAL_LOAD first (plain loads). */
#ifndef THERMAL_LOAD
#if defined(__CUDA_ARCH__)
#define THERMAL_LOAD(p) __ldg(p)
#else
#define THERMAL_LOAD(p) (*(p))
#endif
#endif

#define THERMAL_LEVELS_MAX 16
/** A walk that starts within this fraction of a cell of a face starts on it (see
    thermal_walk_start); far above rounding (1e-15) and far below any real offset. */
#define THERMAL_FACE_SNAP 1e-9
/** A ray stops after this many steps whatever its transmissivity (a guard against rays
    that never end: a transparent gas between mirrors; the rest goes as at tau_min). */
#define THERMAL_RAY_STEPS_MAX 100000000
/** Share of p_j spread evenly over the gases of a WSGG (see the file comment). */
#define THERMAL_GAS_P_FLOOR 0.01

/** One grid level as a kernel sees it (host or device pointers). */
struct thermal_level_view {
  int64_t n[3];                 /*!< cells per axis */
  double cell_m[3];             /*!< cell size per axis [m] (the last cell may be cut) */
  const double *kappa_per_m;    /*!< [gas][cell] absorption coefficient [1/m] */
  const double *ib_w_per_m2_sr; /*!< [gas][cell] blackbody intensity of the gas */
};

/** Everything a solve's kernel reads (thermal_levels_view fills it). */
struct thermal_view {
  int64_t n[3];        /*!< fine cells per axis */
  double len_m[3];     /*!< box size [m] */
  int periodic[3];
  int gas_model, gases;
  double kappa_grey_per_m;
  double t_max_k;      /*!< largest temperature of cells and walls (gas sampling) */
  const double *t_k, *p_atm, *x_h2o, *x_co2; /*!< fine fields (NULL: defaults) */
  int levels;          /*!< >= 1 */
  int steps_per_level;
  struct thermal_level_view level[THERMAL_LEVELS_MAX];
  double wall_eps[6];
  int64_t wall_first[7]; /*!< first patch of each face; wall_first[6] = all patches */
  const double *wall_ib_w_per_m2_sr; /*!< [gas][patch] I_b,j(T_wall), adjacent cell's composition */
  uint32_t seed;
  int64_t rays;
  double tau_min;
  int sort_gases;
};

/** The estimate of one element. */
struct thermal_estimate {
  double value;    /*!< Q [W/m^3] of a cell, or net flux into a wall patch [W/m^2] */
  double sigma;    /*!< its standard error */
  int64_t steps;   /*!< cell and wall crossings of its rays */
};

/** Four uniforms of event `event` of ray `ray` of element `element`. */
IONF_HD IONF_INLINE void thermal_random4(uint32_t seed, int64_t element, int64_t ray,
                                         uint32_t event, double u[4]) {
  uint32_t key[2], ctr[4], bits[4];
  key[0] = seed;
  key[1] = 0u;
  ctr[0] = (uint32_t)((uint64_t)element & 0xffffffffu);
  ctr[1] = (uint32_t)ray;
  ctr[2] = event;
  ctr[3] = (uint32_t)((uint64_t)element >> 32);
  philox_4x32_10(ctr, key, bits);
  for (int i = 0; i < 4; ++i) u[i] = philox_uniform(bits[i]);
}

/** Isotropic unit vector: cos(theta) = 2 u0 - 1, phi = 2 pi u1. */
IONF_HD IONF_INLINE void thermal_dir_isotropic(double u0, double u1, double dir[3]) {
  double mu = 2.0 * u0 - 1.0;
  double s = sqrt(fmax(0.0, 1.0 - mu * mu));
  double phi = 2.0 * IONF_PI * u1;
  dir[0] = s * cos(phi);
  dir[1] = s * sin(phi);
  dir[2] = mu;
}

/** Cosine-weighted unit vector into the box from face `face` (enum thermal_face):
    cos(theta) = sqrt(u0) about the inward normal, phi = 2 pi u1. */
IONF_HD IONF_INLINE void thermal_dir_lambert(int face, double u0, double u1, double dir[3]) {
  int a = face / 2;
  double mu = sqrt(u0);
  double s = sqrt(fmax(0.0, 1.0 - u0));
  double phi = 2.0 * IONF_PI * u1;
  dir[a] = (face % 2 == 0) ? mu : -mu;
  dir[(a + 1) % 3] = s * cos(phi);
  dir[(a + 2) % 3] = s * sin(phi);
}

/** The two in-face axes of axis a, in C order: (b, c) with b < c. */
IONF_HD IONF_INLINE void thermal_face_axes(int a, int *b, int *c) {
  *b = a == 0 ? 1 : 0;
  *c = a == 2 ? 1 : 2;
}

/** Patches of face f (enum thermal_face): 0 on a periodic axis. */
IONF_HD IONF_INLINE int64_t thermal_face_patches(const int64_t n[3], const int periodic[3],
                                                 int face) {
  int a = face / 2, b, c;
  thermal_face_axes(a, &b, &c);
  return periodic[a] ? 0 : n[b] * n[c];
}

/** The patch of face f under the point p (on the face) [m]: its index among all patches. */
IONF_HD IONF_INLINE int64_t thermal_patch_at(const struct thermal_view *v, int face,
                                             const double p[3]) {
  int b, c;
  thermal_face_axes(face / 2, &b, &c);
  int64_t ib = (int64_t)floor(p[b] / (v->len_m[b] / (double)v->n[b]));
  int64_t ic = (int64_t)floor(p[c] / (v->len_m[c] / (double)v->n[c]));
  ib = ib < 0 ? 0 : (ib >= v->n[b] ? v->n[b] - 1 : ib);
  ic = ic < 0 ? 0 : (ic >= v->n[c] ? v->n[c] - 1 : ic);
  return v->wall_first[face] + ib * v->n[c] + ic;
}

/** The walk of a ray on one level: the segment's start, the cell, the face distances. */
struct thermal_walk {
  double pos[3];    /*!< start of the segment (wrapped on periodic axes) [m] */
  double dir[3];
  int level;
  int64_t cell[3];
  double t_next[3]; /*!< path from pos to the next face per axis [m] */
  double t;         /*!< path walked from pos [m] */
};

/** Width of cell c of a level along axis a (the last may be cut by the box) [m]. */
IONF_HD IONF_INLINE double thermal_cell_width(const struct thermal_view *v, int l, int a,
                                              int64_t c) {
  double h = v->level[l].cell_m[a];
  double hi = fmin((double)(c + 1) * h, v->len_m[a]);
  return hi - (double)c * h;
}

/** Start a walk on level l at p (inside the box or on its boundary) along dir. */
IONF_HD IONF_INLINE void thermal_walk_start(const struct thermal_view *v, int l, const double p[3],
                                            const double dir[3], struct thermal_walk *w) {
  w->level = l;
  w->t = 0.0;
  for (int a = 0; a < 3; ++a) {
    double h = v->level[l].cell_m[a];
    int64_t n = v->level[l].n[a];
    w->pos[a] = p[a];
    w->dir[a] = dir[a];
    int64_t c = (int64_t)floor(p[a] / h);
    /* a start on a face (a coarser level's walk begins where the finer one crossed one;
       a reflection leaves from a wall) is in the cell the ray enters: so that a last-bit
       difference in p (the GPU's fused multiply-adds, its sin/cos) picks the same cell
       on the CPU and the GPU, and no step has zero length */
    double frac = p[a] / h - (double)c;
    if (dir[a] > 0.0 && frac > 1.0 - THERMAL_FACE_SNAP) ++c;
    if (dir[a] < 0.0 && frac < THERMAL_FACE_SNAP) --c;
    c = c < 0 ? 0 : (c >= n ? n - 1 : c);
    w->cell[a] = c;
    if (dir[a] > 0.0) {
      double face = fmin((double)(c + 1) * h, v->len_m[a]);
      w->t_next[a] = fmax(0.0, face - p[a]) / dir[a];
    } else if (dir[a] < 0.0) {
      w->t_next[a] = fmax(0.0, p[a] - (double)c * h) / -dir[a];
    } else {
      w->t_next[a] = HUGE_VAL;
    }
  }
}

/** The current point of a walk, wrapped on periodic axes [m]. */
IONF_HD IONF_INLINE void thermal_walk_point(const struct thermal_view *v,
                                            const struct thermal_walk *w, double p[3]) {
  for (int a = 0; a < 3; ++a) {
    double x = w->pos[a] + w->t * w->dir[a];
    double len = v->len_m[a];
    if (v->periodic[a]) {
      x = fmod(x, len);
      if (x < 0.0) x += len;
    } else {
      x = fmin(fmax(x, 0.0), len);
    }
    p[a] = x;
  }
}

/** The axis whose face the walk crosses next. */
IONF_HD IONF_INLINE int thermal_walk_axis(const struct thermal_walk *w) {
  int a = 0;
  if (w->t_next[1] < w->t_next[a]) a = 1;
  if (w->t_next[2] < w->t_next[a]) a = 2;
  return a;
}

/**
 * Cross the face of axis a (after the segment in the current cell was used): returns
 * -1 when the walk is in the next cell, or the face (enum thermal_face) of the wall hit;
 * then the walk's t is at the wall.
 */
IONF_HD IONF_INLINE int thermal_walk_cross(const struct thermal_view *v, struct thermal_walk *w,
                                           int a) {
  int l = w->level;
  int64_t n = v->level[l].n[a];
  int up = w->dir[a] > 0.0;
  int64_t c = w->cell[a] + (up ? 1 : -1);
  w->t = w->t_next[a];
  if (c < 0 || c >= n) {
    if (!v->periodic[a]) return 2 * a + up;
    c = up ? 0 : n - 1;
  }
  w->cell[a] = c;
  w->t_next[a] += thermal_cell_width(v, l, a, c) / fabs(w->dir[a]);
  return -1;
}

/** Flat index of the walk's cell on its level. */
IONF_HD IONF_INLINE int64_t thermal_walk_index(const struct thermal_view *v,
                                               const struct thermal_walk *w) {
  const int64_t *n = v->level[w->level].n;
  return (w->cell[0] * n[1] + w->cell[1]) * n[2] + w->cell[2];
}

/** The state of one ray along its walk. */
struct thermal_ray {
  double ib_i;     /*!< I_b,j of the emitting element */
  double tau;      /*!< transmissivity so far */
  double d;        /*!< sum of tau alpha (I_b,i - I_b,k) so far */
  double ib_last;  /*!< I_b,j of the last element crossed */
  int64_t steps;
  int steps_on_level;
  uint32_t event;  /*!< last Philox event used */
};

/** A wall hit at the walk's point: the wall's share; 1 when the ray ends there. */
IONF_HD IONF_INLINE int thermal_ray_wall(const struct thermal_view *v, int gas, int face,
                                         int64_t element, int64_t ray_index,
                                         struct thermal_walk *w, struct thermal_ray *r) {
  double p[3];
  thermal_walk_point(v, w, p);
  int64_t patch = thermal_patch_at(v, face, p);
  double ib_w = THERMAL_LOAD(&v->wall_ib_w_per_m2_sr[(int64_t)gas * v->wall_first[6] + patch]);
  double eps = v->wall_eps[face];
  r->d += r->tau * eps * (r->ib_i - ib_w);
  r->ib_last = ib_w;
  r->tau *= 1.0 - eps;
  ++r->steps;
  if (r->tau < v->tau_min) return 1;
  /* diffuse reflection from the wall's point */
  double u[4], dir[3];
  thermal_random4(v->seed, element, ray_index, ++r->event, u);
  thermal_dir_lambert(face, u[0], u[1], dir);
  p[face / 2] = (face % 2 == 0) ? 0.0 : v->len_m[face / 2];
  thermal_walk_start(v, w->level, p, dir, w);
  return 0;
}

/** Go on on the next coarser level from the walk's point. */
IONF_HD IONF_INLINE void thermal_ray_coarsen(const struct thermal_view *v, struct thermal_walk *w,
                                             struct thermal_ray *r) {
  double p[3], dir[3];
  thermal_walk_point(v, w, p);
  for (int a = 0; a < 3; ++a) dir[a] = w->dir[a];
  thermal_walk_start(v, w->level + 1, p, dir, w);
  r->steps_on_level = 0;
}

/**
 * Walk one ray of grey gas `gas` from p along dir (level 0) to its end; returns D, the
 * sum of tau alpha (I_b,j(T_i) - I_b,j(T_k)) over the elements k it crossed.
 */
IONF_HD IONF_INLINE double thermal_ray_trace(const struct thermal_view *v, int gas, double ib_i,
                                             const double p[3], const double dir[3],
                                             int64_t element, int64_t ray_index,
                                             int64_t *steps) {
  struct thermal_walk w;
  struct thermal_ray r;
  r.ib_i = ib_i;
  r.tau = 1.0;
  r.d = 0.0;
  r.ib_last = ib_i;
  r.steps = 0;
  r.steps_on_level = 0;
  r.event = 0;
  thermal_walk_start(v, 0, p, dir, &w);
  for (;;) {
    int a = thermal_walk_axis(&w);
    double ds = w.t_next[a] - w.t;
    int64_t cells = v->level[w.level].n[0] * v->level[w.level].n[1] * v->level[w.level].n[2];
    int64_t k = (int64_t)gas * cells + thermal_walk_index(v, &w);
    double kappa = THERMAL_LOAD(&v->level[w.level].kappa_per_m[k]);
    double ib_k = THERMAL_LOAD(&v->level[w.level].ib_w_per_m2_sr[k]);
    double trans = exp(-kappa * ds);
    r.d += r.tau * (1.0 - trans) * (r.ib_i - ib_k);
    r.ib_last = ib_k;
    r.tau *= trans;
    ++r.steps;
    if (r.tau < v->tau_min || r.steps >= THERMAL_RAY_STEPS_MAX) break;
    int face = thermal_walk_cross(v, &w, a);
    if (face >= 0) {
      if (thermal_ray_wall(v, gas, face, element, ray_index, &w, &r)) break;
    } else if (w.level + 1 < v->levels && ++r.steps_on_level >= v->steps_per_level) {
      thermal_ray_coarsen(v, &w, &r);
    }
  }
  r.d += r.tau * (r.ib_i - r.ib_last);
  *steps += r.steps;
  return r.d;
}

/** An element: where its rays start, how they leave, its I_b,j and emission factor. */
struct thermal_element {
  int64_t id;        /*!< cells: C index; wall patch w: cells + w */
  int is_wall;
  int face;          /*!< wall patches */
  double p[3];       /*!< ray origin [m] */
  int64_t fine_cell; /*!< the cell itself, or the cell next to the patch */
  double prob[THERMAL_GASES_MAX]; /*!< p_j */
  int order[THERMAL_GASES_MAX];   /*!< gases by increasing kappa_j (sort_gases) */
  int64_t count[THERMAL_GASES_MAX]; /*!< rays per gas (sort_gases) */
};

/** Locate element `id` (a cell, or wall patch id - cells). */
IONF_HD IONF_INLINE void thermal_element_locate(const struct thermal_view *v, int64_t id,
                                                struct thermal_element *e) {
  int64_t cells = v->n[0] * v->n[1] * v->n[2];
  e->id = id;
  double h[3];
  for (int a = 0; a < 3; ++a) h[a] = v->len_m[a] / (double)v->n[a];
  int64_t c[3];
  if (id < cells) {
    e->is_wall = 0;
    e->face = -1;
    c[0] = id / (v->n[1] * v->n[2]);
    c[1] = (id / v->n[2]) % v->n[1];
    c[2] = id % v->n[2];
    for (int a = 0; a < 3; ++a) e->p[a] = ((double)c[a] + 0.5) * h[a];
  } else {
    int64_t w = id - cells;
    int f = 0;
    while (f < 5 && w >= v->wall_first[f + 1]) ++f;
    int a = f / 2, b, cc;
    thermal_face_axes(a, &b, &cc);
    int64_t q = w - v->wall_first[f];
    e->is_wall = 1;
    e->face = f;
    c[a] = (f % 2 == 0) ? 0 : v->n[a] - 1;
    c[b] = q / v->n[cc];
    c[cc] = q % v->n[cc];
    e->p[a] = (f % 2 == 0) ? 0.0 : v->len_m[a];
    e->p[b] = ((double)c[b] + 0.5) * h[b];
    e->p[cc] = ((double)c[cc] + 0.5) * h[cc];
  }
  e->fine_cell = (c[0] * v->n[1] + c[1]) * v->n[2] + c[2];
}

/** The gas probabilities p_j of an element (and, for sort_gases, the rays per gas). */
IONF_HD IONF_INLINE void thermal_element_gases(const struct thermal_view *v,
                                               struct thermal_element *e) {
  int g = v->gases;
  int64_t cell = e->fine_cell;
  double kappa[THERMAL_GASES_MAX], a[THERMAL_GASES_MAX], kf[THERMAL_GASES_MAX];
  thermal_gas_eval(v->gas_model, v->kappa_grey_per_m, v->t_max_k,
                   v->p_atm ? v->p_atm[cell] : 1.0, v->x_h2o ? v->x_h2o[cell] : 0.0,
                   v->x_co2 ? v->x_co2[cell] : 0.0, kappa, a);
  int64_t cells = v->n[0] * v->n[1] * v->n[2];
  double sum = 0.0;
  int live = 0;
  for (int j = 0; j < g; ++j) {
    kf[j] = v->level[0].kappa_per_m[(int64_t)j * cells + cell];
    double w = e->is_wall ? fmax(a[j], 0.0) : fmax(a[j], 0.0) * kf[j];
    e->prob[j] = w;
    sum += w;
    live += (e->is_wall || kf[j] > 0.0) ? 1 : 0;
  }
  for (int j = 0; j < g; ++j) {
    int can = e->is_wall || kf[j] > 0.0;
    double pj = sum > 0.0 ? e->prob[j] / sum : 0.0;
    if (g > 1 && live > 0)
      pj = (1.0 - THERMAL_GAS_P_FLOOR) * pj + (can ? THERMAL_GAS_P_FLOOR / live : 0.0);
    if (g == 1) pj = 1.0;
    e->prob[j] = pj;
    e->order[j] = j;
  }
  /* gases by increasing kappa (insertion sort: stable, at most 5) */
  for (int j = 1; j < g; ++j) {
    int x = e->order[j], i = j - 1;
    while (i >= 0 && kf[e->order[i]] > kf[x]) {
      e->order[i + 1] = e->order[i];
      --i;
    }
    e->order[i + 1] = x;
  }
  /* sort_gases: 2 rays for every gas with p_j > 0, the rest by the cumulative of p_j */
  int64_t spare = v->rays, done = 0;
  for (int j = 0; j < g; ++j) spare -= e->prob[j] > 0.0 ? 2 : 0;
  double cum = 0.0;
  int last = -1;
  for (int j = 0; j < g; ++j) {
    int x = e->order[j];
    if (e->prob[x] <= 0.0) {
      e->count[x] = 0;
      continue;
    }
    last = x;
    cum += e->prob[x];
    int64_t upto = (int64_t)floor(cum * (double)spare + 0.5);
    if (upto > spare) upto = spare;
    e->count[x] = 2 + (upto - done > 0 ? upto - done : 0);
    done = upto > done ? upto : done;
  }
  if (last >= 0 && spare > done) e->count[last] += spare - done; /* rounding's leftover */
}

/** Gas of ray r by the sorted allocation (sort_gases). */
IONF_HD IONF_INLINE int thermal_element_sorted_gas(const struct thermal_view *v,
                                                   const struct thermal_element *e, int64_t r) {
  int64_t acc = 0;
  for (int j = 0; j < v->gases; ++j) {
    int x = e->order[j];
    acc += e->count[x];
    if (r < acc) return x;
  }
  return -1;
}

/** Gas drawn from p_j with the uniform u (-1: no gas has p_j > 0). */
IONF_HD IONF_INLINE int thermal_element_drawn_gas(const struct thermal_view *v,
                                                  const struct thermal_element *e, double u) {
  double cum = 0.0;
  int last = -1;
  for (int j = 0; j < v->gases; ++j) {
    if (e->prob[j] <= 0.0) continue;
    last = j;
    cum += e->prob[j];
    if (u < cum) return j;
  }
  return last;
}

/** Welford's running mean and sum of squared deviations. */
IONF_HD IONF_INLINE void thermal_welford(double x, int64_t *n, double *mean, double *m2) {
  ++*n;
  double dx = x - *mean;
  *mean += dx / (double)*n;
  *m2 += dx * (x - *mean);
}

/**
 * The ERMC estimate of element `id` (a cell's Q^R or a wall patch's net flux into the
 * wall) from v->rays rays, with its standard error and the steps its rays took.
 */
IONF_HD IONF_INLINE void thermal_element_estimate(const struct thermal_view *v, int64_t id,
                                                  struct thermal_estimate *out) {
  struct thermal_element e;
  thermal_element_locate(v, id, &e);
  thermal_element_gases(v, &e);
  int64_t cells = v->n[0] * v->n[1] * v->n[2];
  int64_t n[THERMAL_GASES_MAX];
  double mean[THERMAL_GASES_MAX], m2[THERMAL_GASES_MAX];
  for (int j = 0; j < THERMAL_GASES_MAX; ++j) {
    n[j] = 0;
    mean[j] = 0.0;
    m2[j] = 0.0;
  }
  int64_t steps = 0;
  for (int64_t r = 0; r < v->rays; ++r) {
    double u[4], dir[3];
    thermal_random4(v->seed, id, r, 0u, u);
    if (e.is_wall) thermal_dir_lambert(e.face, u[0], u[1], dir);
    else thermal_dir_isotropic(u[0], u[1], dir);
    int gas = v->sort_gases ? thermal_element_sorted_gas(v, &e, r)
                            : thermal_element_drawn_gas(v, &e, u[2]);
    if (gas < 0) break; /* nothing to emit: 0 */
    double ib_i, factor;
    if (e.is_wall) {
      int64_t patch = id - cells;
      ib_i = v->wall_ib_w_per_m2_sr[(int64_t)gas * v->wall_first[6] + patch];
      factor = -IONF_PI * v->wall_eps[e.face];
    } else {
      int64_t k = (int64_t)gas * cells + id;
      ib_i = v->level[0].ib_w_per_m2_sr[k];
      factor = 4.0 * IONF_PI * v->level[0].kappa_per_m[k];
    }
    double g = 0.0;
    if (factor != 0.0) g = factor * thermal_ray_trace(v, gas, ib_i, e.p, dir, id, r, &steps);
    if (v->sort_gases) thermal_welford(g, &n[gas], &mean[gas], &m2[gas]);
    else thermal_welford(g / e.prob[gas], &n[0], &mean[0], &m2[0]);
  }
  double value = 0.0, var = 0.0;
  for (int j = 0; j < THERMAL_GASES_MAX; ++j) {
    if (n[j] == 0) continue;
    value += mean[j];
    var += n[j] > 1 ? m2[j] / (double)(n[j] - 1) / (double)n[j] : 0.0;
  }
  out->value = value;
  out->sigma = sqrt(var);
  out->steps = steps;
}

#endif /* IONF_THERMAL_K_H */
