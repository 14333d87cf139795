/**
 * @file asora_cell_k.h
 * @brief ASORA's step of one source through one cell (shared host/device maths): where
 *        the source's outgoing columns live (struct asora_columns), what
 *        tracing it needs (struct asora_source_view) and asora_cell_step, which the CPU
 *        sweep (asora_cpu.c) and the GPU kernels (gpu/rt/asora/asora_cuda.cu) both call.
 *        The geometry (shells, stencils, domains, cube shells and their faces) is asora_k.h.
 */
#ifndef IONF_ASORA_CELL_K_H
#define IONF_ASORA_CELL_K_H

#include "chem/species_k.h"
#include "core/ionf_hd.h"
#include "rt/asora/asora_k.h"
#include "rt/bands_k.h"
#include "rt/photo_k.h"

/**
 * Where one source's outgoing columns live, [cell][species] (a cell's absorbers side by
 * side): the domain's bounding box (`box`: the CPU sweep, any order of cells), or two cube
 * shells (the cell step's in_shells 1: the GPU), shell h's
 * columns in `cur` laid out by cur_faces (struct asora_shell_faces) and those of shell
 * h - 1, which holds every upstream neighbour of shell h, in `prev` by prev_faces: two
 * shell buffers of asora_domain_shell_cells() cells, 6 (2R + 1)^2 cells a buffer instead
 * of (2R + 1)^3.
 */
struct asora_columns {
  double *box;                    /* the box layout (the cell step's in_shells 0) */
  const struct asora_shell_faces *cur_faces, *prev_faces;
  double *cur;
  const double *prev;
};

/** What tracing one source needs (read-only; host or device pointers). */
struct asora_source_view {
  const double *n_h_cm3;          /*!< the box's hydrogen densities */
  const double *x_ion_av;         /*!< [species][box cells] time-averaged ion fractions */
  const double *n_abs_cm3;        /*!< [species][box cells] the pass's absorber densities
                                       (the GPU's pre-pass, the same
                                       species_absorber_density), or NULL: from n_H and x */
  const double *split;            /*!< helium with secondary ionization: [3][box cells]
                                       secondary_split_at of each cell's x_HII (heat,
                                       ion_hi, ion_hei; the GPU's pre-pass), or NULL:
                                       computed where a cell takes X-rays */
  double abundance_he;            /*!< n_He / n_H (helium's absorber densities) */
  long long n;                    /*!< cells per side of the whole grid */
  int periodic;
  struct grid_box box;            /*!< the cells the fields hold (grid/grid.h) */
  double cell_cm;
  int src[3];                     /*!< source cell */
  double ndot_per_s;              /*!< source photon rate */
  struct asora_domain dom;        /*!< traced domain */
  const double *geo;              /*!< the stencils' geometry by |d| (asora_stencil_geometry,
                                       ASORA_GEOMETRY_VALUES each, [|di|][|dj|][|dk|] with
                                       geo_side a side: the GPU's table), or NULL: computed */
  int geo_side;
  struct photo_table_view tables;
  struct bands_view bands;        /*!< three species (helium): the band tables */
};

/* Box cell c's absorber densities n_abs[s] of the ns species (from the pass's fields when
   v->n_abs_cm3, else from n_H and x) and what the cell step needs of its ion fractions
   x_ion (only x_HII, for helium's X-ray electrons when their split is not given; 0
   otherwise with the pass's fields). */
IONF_HD IONF_INLINE void asora_cell_absorbers(const struct asora_source_view *v, const int ns,
                                              long long c, long long cells, double *x_ion,
                                              double *n_abs) {
  if (v->n_abs_cm3) { /* ns loads, not ns + 1 */
    for (int s = 0; s < ns; ++s) {
      x_ion[s] = 0.0;
      n_abs[s] = v->n_abs_cm3[s * cells + c];
    }
    if (ns == BANDS_N_ABSORBERS && v->bands.secondary && !v->split)
      x_ion[SPECIES_HI] = v->x_ion_av[SPECIES_HI * cells + c];
  } else {
    for (int s = 0; s < ns; ++s) x_ion[s] = v->x_ion_av[s * cells + c];
    for (int s = 0; s < ns; ++s)
      n_abs[s] = species_absorber_density(s, v->n_h_cm3[c], x_ion, v->abundance_he);
  }
}

/* A cell's outgoing columns col_out[0..ns) into cols: at the cell in the box (here_cell),
   or in every face of its cube shell that holds it (struct asora_shell_faces). */
IONF_HD IONF_INLINE void asora_columns_store(const struct asora_columns *cols, const int ns,
                                             const int in_shells, long long here_cell, int di,
                                             int dj, int dk, const double *col_out) {
  if (!in_shells) {
    for (int s = 0; s < ns; ++s) cols->box[ns * here_cell + s] = col_out[s];
  } else {
    const int adi = abs(di), adj = abs(dj), adk = abs(dk);
    const int h = adi > adj ? (adi > adk ? adi : adk) : (adj > adk ? adj : adk);
    const struct asora_shell_faces *cf = cols->cur_faces;
    if (adi == h)
      for (int s = 0; s < ns; ++s)
        cols->cur[ns * asora_shell_faces_index(cf, 0, di < 0, dj, dk) + s] = col_out[s];
    if (adj == h)
      for (int s = 0; s < ns; ++s)
        cols->cur[ns * asora_shell_faces_index(cf, 1, dj < 0, di, dk) + s] = col_out[s];
    if (adk == h)
      for (int s = 0; s < ns; ++s)
        cols->cur[ns * asora_shell_faces_index(cf, 2, dk < 0, di, dj) + s] = col_out[s];
  }
}

/* Beyond this column [cm^-2] of species s a cell takes no rate from the source: with `cut`
   (raytracing.transmission_cutoff) the tables' opaque_cm2, else PHOTO_MAX_COLUMN_CM2. */
IONF_HD IONF_INLINE double asora_opaque_cm2(const struct asora_source_view *v, const int cut,
                                            int s) {
  return cut ? v->tables.sp[s].opaque_cm2 : PHOTO_MAX_COLUMN_CM2;
}

/**
 * Trace one cell at offset (di, dj, dk) (inside the domain, so held by the box), for each of
 * the ns species (a constant at every call site, so loops over them unroll): interpolate the
 * incoming column from the upstream cells' outgoing columns in `cols` (struct
 * asora_columns: the box, or with in_shells the shell before this cell's), store its
 * outgoing column there (the box, or this cell's shell), and compute its
 * photoionization rate.  in_shells is a constant where it can be (the CPU's 0), so the
 * box's index is all that is left of the layouts there.  cut (a constant at every call
 * site too): raytracing.transmission_cutoff is set (asora_opaque_cm2).  Returns 0 for a
 * cell beyond the photon radius (nothing done: no cell inside the radius needs it);
 * otherwise 1, with the box index in *idx and per species s: the rate in
 * gamma[s] (0 behind an opaque column: every absorber's incoming column above its
 * asora_opaque_cm2), the photo-heating per absorber in heat[s] (when heat is not NULL
 * and the tables heat) and the outgoing column in col_out[s].
 */
IONF_HD IONF_INLINE int asora_cell_step(const struct asora_source_view *v, const int ns,
                                        const int in_shells, const int cut,
                                        const struct asora_columns *cols,
                                        int di, int dj, int dk,
                                        long long *idx, double *gamma, double *heat,
                                        double *col_out) {
  double r2 = (double)di * di + (double)dj * dj + (double)dk * dk;
  if (r2 > v->dom.r2_max_cells) return 0;
  /* the cell's coordinates in the box, wrapped on a periodic grid */
  const int n = (int)v->n;
  const int li = asora_wrap((int)(v->src[0] + di - v->box.lo[0]), n, v->periodic);
  const int lj = asora_wrap((int)(v->src[1] + dj - v->box.lo[1]), n, v->periodic);
  const int lk = asora_wrap((int)(v->src[2] + dk - v->box.lo[2]), n, v->periodic);
  long long c = ((long long)li * v->box.extent[1] + lj) * v->box.extent[2] + lk;
  long long cells = v->box.extent[0] * v->box.extent[1] * v->box.extent[2];
  double x_ion[IONF_MAX_SPECIES], n_abs[IONF_MAX_SPECIES], col_in[IONF_MAX_SPECIES];
  asora_cell_absorbers(v, ns, c, cells, x_ion, n_abs);
  double ds_cells, volume;
  /* this cell's place in the box's columns (the shells' places: below) */
  const long long here_cell = in_shells ? 0 : asora_domain_box_index(&v->dom, di, dj, dk);
  if (di == 0 && dj == 0 && dk == 0) {
    for (int s = 0; s < ns; ++s) col_in[s] = 0.0;
    ds_cells = 0.5; /* from the source at the cell centre to its face */
    volume = v->cell_cm * v->cell_cm * v->cell_cm;
  } else {
    struct asora_stencil st;
    const double *geo = v->geo ? v->geo + (long long)ASORA_GEOMETRY_VALUES *
                                              (((long long)abs(di) * v->geo_side + abs(dj)) *
                                                   v->geo_side + abs(dk))
                               : (const double *)0;
    asora_stencil_make(di, dj, dk, geo, &st);
    /* the neighbours' columns, the ns absorbers of a cell side by side */
    double col[4 * IONF_MAX_SPECIES];
    const double *upstream = in_shells ? cols->prev : cols->box;
    /* A neighbour is entry 3's index (one step back along a only) less a stride per step
       back along p and q: in the box its strides, in the shell before this cell's the
       face (a, sign d_a) of struct asora_shell_faces, q running fastest. */
    long long at3, back_p, back_q;
    if (in_shells) {
      const struct asora_shell_faces *pf = cols->prev_faces;
      const int d_p = st.axis == 0 ? dj : di, d_q = st.axis == 2 ? dj : dk;
      at3 = asora_shell_faces_index(pf, st.axis, st.sa < 0, d_p, d_q);
      back_p = (long long)st.sp * pf->qlen[st.axis];
      back_q = st.sq;
    } else {
      const long long stride_z = 1, stride_y = v->dom.hi[2] - v->dom.lo[2] + 1,
                      stride_x = (long long)(v->dom.hi[1] - v->dom.lo[1] + 1) * stride_y;
      at3 = here_cell - st.sa * (st.axis == 0 ? stride_x : (st.axis == 1 ? stride_y : stride_z));
      back_p = st.sp * (st.axis == 0 ? stride_y : stride_x);
      back_q = st.sq * (st.axis == 2 ? stride_y : stride_z);
    }
    for (int m = 0; m < 4; ++m) {
      long long at = -1;
      if (st.s[m] > 0.0) at = ns * (at3 - ((m & 1) ? 0 : back_p) - ((m & 2) ? 0 : back_q));
      for (int s = 0; s < ns; ++s) col[ns * m + s] = at >= 0 ? upstream[at + s] : 0.0;
    }
    if (ns == 1) {
      col_in[0] = asora_column_in(&st, col, v->tables.sp[0].sigma0_cm2);
    } else {
      double sigma0[IONF_MAX_SPECIES];
      for (int s = 0; s < ns; ++s) sigma0[s] = v->tables.sp[s].sigma0_cm2;
      asora_columns_in(&st, ns, col, sigma0, col_in);
    }
    ds_cells = st.ds_cells;
    volume = st.volume_cells * v->cell_cm * v->cell_cm * v->cell_cm; /* 4 pi r^2 ds */
  }
  double ds_cm = ds_cells * v->cell_cm;
  *idx = c;
  double dcol[IONF_MAX_SPECIES];
  for (int s = 0; s < ns; ++s) {
    dcol[s] = n_abs[s] * ds_cm;
    col_out[s] = col_in[s] + dcol[s];
  }
  asora_columns_store(cols, ns, in_shells, here_cell, di, dj, dk, col_out);
  if (ns == BANDS_N_ABSORBERS) { /* hydrogen and helium: every absorber's column at once */
    int lit = 0;
    for (int s = 0; s < BANDS_N_ABSORBERS; ++s) {
      gamma[s] = 0.0;
      if (heat) heat[s] = 0.0;
      lit = lit || col_in[s] <= asora_opaque_cm2(v, cut, s);
    }
    if (lit) {
      double xray[BANDS_N_ABSORBERS] = {0.0, 0.0, 0.0};
      double *heat_or_null = v->bands.heating ? heat : (double *)0;
      bands_rates(&v->bands, v->ndot_per_s, col_in, dcol, ds_cm, volume, gamma, heat_or_null,
                  v->bands.secondary ? xray : (double *)0);
      if (v->bands.secondary)
        bands_secondary_split(x_ion[SPECIES_HI], v->split ? v->split + c : (const double *)0,
                              cells, n_abs, xray, gamma, heat_or_null);
    }
    return 1;
  }
  for (int s = 0; s < ns; ++s) {
    double sigma0 = v->tables.sp[s].sigma0_cm2;
    if (heat) heat[s] = 0.0;
    gamma[s] = col_in[s] > asora_opaque_cm2(v, cut, s)
                   ? 0.0
                   : photo_rates(&v->tables, s, v->ndot_per_s, sigma0 * col_in[s],
                                 sigma0 * col_out[s], n_abs[s], ds_cm, volume,
                                 heat ? &heat[s] : (double *)0);
  }
  return 1;
}

#endif /* IONF_ASORA_CELL_K_H */
