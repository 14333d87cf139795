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

/* asora_cell_absorbers from the pass's fields (v->n_abs_cm3 set: ns loads, not ns + 1). */
IONF_HD IONF_INLINE void asora_cell_absorbers_given(const struct asora_source_view *v,
                                                    const int ns, long long c, long long cells,
                                                    double *x_ion, double *n_abs) {
  for (int s = 0; s < ns; ++s) {
    x_ion[s] = 0.0;
    n_abs[s] = v->n_abs_cm3[s * cells + c];
  }
  if (ns == BANDS_N_ABSORBERS && v->bands.secondary && !v->split)
    x_ion[SPECIES_HI] = v->x_ion_av[SPECIES_HI * cells + c];
}

/* Box cell c's absorber densities n_abs[s] of the ns species (from the pass's fields when
   v->n_abs_cm3, else from n_H and x) and what the cell step needs of its ion fractions
   x_ion (only x_HII, for helium's X-ray electrons when their split is not given; 0
   otherwise with the pass's fields). */
IONF_HD IONF_INLINE void asora_cell_absorbers(const struct asora_source_view *v, const int ns,
                                              long long c, long long cells, double *x_ion,
                                              double *n_abs) {
  if (v->n_abs_cm3) {
    asora_cell_absorbers_given(v, ns, c, cells, x_ion, n_abs);
  } else {
    for (int s = 0; s < ns; ++s) x_ion[s] = v->x_ion_av[s * cells + c];
    for (int s = 0; s < ns; ++s)
      n_abs[s] = species_absorber_density(s, v->n_h_cm3[c], x_ion, v->abundance_he);
  }
}

/** The places of the cell at offset (di, dj, dk) of cube shell h = max |d| in that shell's
    faces cf (struct asora_shell_faces): the faces (x, y, z) that hold it, place[a] = its
    index there, -1 where face a does not (an edge or corner cell is in two or three). */
IONF_HD IONF_INLINE void asora_shell_places(const struct asora_shell_faces *cf, int di, int dj,
                                            int dk, long long *place) {
  const int adi = abs(di), adj = abs(dj), adk = abs(dk);
  const int h = adi > adj ? (adi > adk ? adi : adk) : (adj > adk ? adj : adk);
  place[0] = adi == h ? asora_shell_faces_index(cf, 0, di < 0, dj, dk) : -1;
  place[1] = adj == h ? asora_shell_faces_index(cf, 1, dj < 0, di, dk) : -1;
  place[2] = adk == h ? asora_shell_faces_index(cf, 2, dk < 0, di, dj) : -1;
}

/* A cell's outgoing columns col_out[0..ns) into cols: at the cell in the box (here_cell),
   or in every face of its cube shell that holds it (asora_shell_places). */
IONF_HD IONF_INLINE void asora_columns_store(const struct asora_columns *cols, const int ns,
                                             const int in_shells, long long here_cell, int di,
                                             int dj, int dk, const double *col_out) {
  if (!in_shells) {
    for (int s = 0; s < ns; ++s) cols->box[ns * here_cell + s] = col_out[s];
  } else {
    long long place[3];
    asora_shell_places(cols->cur_faces, di, dj, dk, place);
    for (int a = 0; a < 3; ++a)
      if (place[a] >= 0)
        for (int s = 0; s < ns; ++s) cols->cur[ns * place[a] + s] = col_out[s];
  }
}

/**
 * Where the stencil st of the cell at offset (di, dj, dk) != 0 reads its four upstream
 * neighbours in the faces pf of the shell before the cell's (struct asora_shell_faces):
 * at[m] the index of entry m there, -1 for an entry of weight 0 (never read).  A neighbour
 * is entry 3's index (one step back along a only) less a stride per step back along p and
 * q: face (a, sign d_a), q running fastest.
 */
IONF_HD IONF_INLINE void asora_shell_upstream(const struct asora_shell_faces *pf,
                                              const struct asora_stencil *st, int di, int dj,
                                              int dk, long long *at) {
  const int d_p = st->axis == 0 ? dj : di, d_q = st->axis == 2 ? dj : dk;
  const long long at3 = asora_shell_faces_index(pf, st->axis, st->sa < 0, d_p, d_q);
  const long long back_p = (long long)st->sp * pf->qlen[st->axis], back_q = st->sq;
  for (int m = 0; m < 4; ++m)
    at[m] = st->s[m] > 0.0 ? at3 - ((m & 1) ? 0 : back_p) - ((m & 2) ? 0 : back_q) : -1;
}

/* The same in the domain's box (the box layout of struct asora_columns), the cell at
   here_cell there. */
IONF_HD IONF_INLINE void asora_box_upstream(const struct asora_domain *dom,
                                            const struct asora_stencil *st, long long here_cell,
                                            long long *at) {
  const long long stride_z = 1, stride_y = dom->hi[2] - dom->lo[2] + 1,
                  stride_x = (long long)(dom->hi[1] - dom->lo[1] + 1) * stride_y;
  const long long at3 =
      here_cell - st->sa * (st->axis == 0 ? stride_x : (st->axis == 1 ? stride_y : stride_z));
  const long long back_p = st->sp * (st->axis == 0 ? stride_y : stride_x);
  const long long back_q = st->sq * (st->axis == 2 ? stride_y : stride_z);
  for (int m = 0; m < 4; ++m)
    at[m] = st->s[m] > 0.0 ? at3 - ((m & 1) ? 0 : back_p) - ((m & 2) ? 0 : back_q) : -1;
}

/* The cell's incoming columns col_in[0..ns) from its upstream neighbours' outgoing columns
   col[ns m + s] (0 for an unused entry). */
IONF_HD IONF_INLINE void asora_cell_columns_in(const struct asora_source_view *v, const int ns,
                                               const struct asora_stencil *st,
                                               const double *col, double *col_in) {
  if (ns == 1) {
    col_in[0] = asora_column_in(st, col, v->tables.sp[0].sigma0_cm2);
  } else {
    double sigma0[IONF_MAX_SPECIES];
    for (int s = 0; s < ns; ++s) sigma0[s] = v->tables.sp[s].sigma0_cm2;
    asora_columns_in(st, ns, col, sigma0, col_in);
  }
}

/* Beyond this column [cm^-2] of species s a cell takes no rate from the source: with `cut`
   (raytracing.transmission_cutoff) the tables' opaque_cm2, else PHOTO_MAX_COLUMN_CM2. */
IONF_HD IONF_INLINE double asora_opaque_cm2(const struct asora_source_view *v, const int cut,
                                            int s) {
  return cut ? v->tables.sp[s].opaque_cm2 : PHOTO_MAX_COLUMN_CM2;
}

/* A cell's outgoing columns col_out from its incoming columns col_in, absorbers n_abs and
   path ds_cells. */
IONF_HD IONF_INLINE void asora_cell_columns_out(const struct asora_source_view *v, const int ns,
                                                const double *n_abs, const double *col_in,
                                                double ds_cells, double *col_out) {
  double ds_cm = ds_cells * v->cell_cm;
  for (int s = 0; s < ns; ++s) col_out[s] = col_in[s] + n_abs[s] * ds_cm;
}

/* Box cell c's rates (asora_cell_step's gamma and heat) from its incoming and outgoing
   columns (asora_cell_columns_out), absorbers n_abs (x_ion: asora_cell_absorbers), path
   ds_cells and shell volume [cm^3]. */
IONF_HD IONF_INLINE void asora_cell_rates(const struct asora_source_view *v, const int ns,
                                          const int cut, long long c, long long cells,
                                          const double *x_ion, const double *n_abs,
                                          const double *col_in, const double *col_out,
                                          double ds_cells, double volume, double *gamma,
                                          double *heat) {
  double ds_cm = ds_cells * v->cell_cm;
  double dcol[IONF_MAX_SPECIES];
  for (int s = 0; s < ns; ++s) dcol[s] = n_abs[s] * ds_cm;
  if (ns == BANDS_N_ABSORBERS) { /* hydrogen and helium: every absorber's column at once */
    int lit = 0;
    for (int s = 0; s < BANDS_N_ABSORBERS; ++s) {
      gamma[s] = 0.0;
      if (heat) heat[s] = 0.0;
      lit = lit || col_in[s] <= asora_opaque_cm2(v, cut, s);
    }
    if (lit) {
      /* every destination an array here, flags saying which are wanted (the GPU then keeps
         them in registers; heat is NULL only on the host without heating) */
      double xray[BANDS_N_ABSORBERS] = {0.0, 0.0, 0.0}, spare[BANDS_N_ABSORBERS];
      const int want_heat = v->bands.heating && heat;
      double *h = heat ? heat : spare;
      bands_rates_into(&v->bands, v->ndot_per_s, col_in, dcol, ds_cm, volume, gamma, h, xray,
                       want_heat, v->bands.secondary);
      if (v->bands.secondary)
        bands_secondary_split_into(x_ion[SPECIES_HI],
                                   v->split ? v->split + c : (const double *)0, cells, n_abs,
                                   xray, gamma, h, want_heat);
    }
    return;
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
}

/* The source's own cell: no column in, from the source at the cell centre to its face (half
   a cell), the cell's volume [cm^3]. */
IONF_HD IONF_INLINE void asora_source_cell(const struct asora_source_view *v, const int ns,
                                           double *col_in, double *ds_cells, double *volume) {
  for (int s = 0; s < ns; ++s) col_in[s] = 0.0;
  *ds_cells = 0.5;
  *volume = v->cell_cm * v->cell_cm * v->cell_cm;
}

/* Box cell c of the source at offset (di, dj, dk) and its absorbers (asora_cell_absorbers). */
IONF_HD IONF_INLINE long long asora_cell_box(const struct asora_source_view *v, const int ns,
                                             int di, int dj, int dk, long long *cells,
                                             double *x_ion, double *n_abs) {
  /* the cell's coordinates in the box, wrapped on a periodic grid */
  const int n = (int)v->n;
  const int li = asora_wrap((int)(v->src[0] + di - v->box.lo[0]), n, v->periodic);
  const int lj = asora_wrap((int)(v->src[1] + dj - v->box.lo[1]), n, v->periodic);
  const int lk = asora_wrap((int)(v->src[2] + dk - v->box.lo[2]), n, v->periodic);
  long long c = ((long long)li * v->box.extent[1] + lj) * v->box.extent[2] + lk;
  *cells = v->box.extent[0] * v->box.extent[1] * v->box.extent[2];
  asora_cell_absorbers(v, ns, c, *cells, x_ion, n_abs);
  return c;
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
  long long cells;
  double x_ion[IONF_MAX_SPECIES], n_abs[IONF_MAX_SPECIES], col_in[IONF_MAX_SPECIES];
  const long long c = asora_cell_box(v, ns, di, dj, dk, &cells, x_ion, n_abs);
  double ds_cells, volume;
  /* this cell's place in the box's columns (the shells' places: asora_columns_store) */
  const long long here_cell = in_shells ? 0 : asora_domain_box_index(&v->dom, di, dj, dk);
  if (di == 0 && dj == 0 && dk == 0) {
    asora_source_cell(v, ns, col_in, &ds_cells, &volume);
  } else {
    struct asora_stencil st;
    const double *geo = v->geo ? v->geo + (long long)ASORA_GEOMETRY_VALUES *
                                              (((long long)abs(di) * v->geo_side + abs(dj)) *
                                                   v->geo_side + abs(dk))
                               : (const double *)0;
    asora_stencil_make(di, dj, dk, geo, &st);
    long long at[4];
    if (in_shells) asora_shell_upstream(cols->prev_faces, &st, di, dj, dk, at);
    else asora_box_upstream(&v->dom, &st, here_cell, at);
    const double *upstream = in_shells ? cols->prev : cols->box;
    double col[4 * IONF_MAX_SPECIES];
    for (int m = 0; m < 4; ++m)
      for (int s = 0; s < ns; ++s) col[ns * m + s] = at[m] >= 0 ? upstream[ns * at[m] + s] : 0.0;
    asora_cell_columns_in(v, ns, &st, col, col_in);
    ds_cells = st.ds_cells;
    volume = st.volume_cells * v->cell_cm * v->cell_cm * v->cell_cm; /* 4 pi r^2 ds */
  }
  *idx = c;
  asora_cell_columns_out(v, ns, n_abs, col_in, ds_cells, col_out);
  asora_columns_store(cols, ns, in_shells, here_cell, di, dj, dk, col_out);
  asora_cell_rates(v, ns, cut, c, cells, x_ion, n_abs, col_in, col_out, ds_cells, volume, gamma,
                   heat);
  return 1;
}

/**
 * A cell of a whole domain ([-H, H]^3 with H = ceil(R), every source of a periodic box) in
 * the shell layout, as the GPU's lane table keeps it beside the cell's offset: the same for
 * every such source, so built once a pass (asora_cell_place_make).
 */
struct asora_cell_place {
  int at[4];      /*!< the upstream entries' indices in shell h - 1's faces
                       (asora_shell_upstream), -1 for an unused entry */
  int store[3];   /*!< the cell's indices in shell h's faces (asora_shell_places), or -1 */
  int corner;     /*!< asora_stencil_corner */
  double geo[ASORA_GEOMETRY_VALUES]; /*!< asora_stencil_geometry of |d| (0 at the source) */
};

/** The place of the cell at offset (di, dj, dk) of a whole domain `dom`. */
IONF_HD IONF_INLINE void asora_cell_place_make(const struct asora_domain *dom, int di, int dj,
                                               int dk, struct asora_cell_place *pl) {
  const int adi = abs(di), adj = abs(dj), adk = abs(dk);
  const int h = adi > adj ? (adi > adk ? adi : adk) : (adj > adk ? adj : adk);
  struct asora_shell_faces cf;
  asora_shell_faces_make(dom, h, &cf);
  long long place[3];
  asora_shell_places(&cf, di, dj, dk, place);
  for (int a = 0; a < 3; ++a) pl->store[a] = (int)place[a];
  long long at[4] = {-1, -1, -1, -1};
  pl->corner = 0;
  for (int g = 0; g < ASORA_GEOMETRY_VALUES; ++g) pl->geo[g] = 0.0;
  if (h > 0) {
    struct asora_shell_faces pf;
    asora_shell_faces_make(dom, h - 1, &pf);
    struct asora_stencil st;
    asora_stencil_make(di, dj, dk, (const double *)0, &st);
    asora_shell_upstream(&pf, &st, di, dj, dk, at);
    pl->corner = asora_stencil_corner(di, dj, dk);
    asora_stencil_geometry(adi, adj, adk, pl->geo);
  }
  for (int m = 0; m < 4; ++m) pl->at[m] = (int)at[m];
}

/**
 * Box cell of the source at offset (di, dj, dk) of a whole domain (asora_cell_box's cell
 * there): the box is the whole periodic grid and has fewer than 2^32 cells (the GPU's
 * condition for whole domains), so the index takes 32 bits.  (asora_wrap's early return
 * for a coordinate inside the grid, a branch most warps take together, measured 0.5-17%
 * faster in bench_raytrace on an H200 than wrapping every coordinate by selects, though
 * the eor run took ~1 s of 37 longer: benchmarks/RESULTS.md.)
 */
IONF_HD IONF_INLINE unsigned asora_whole_cell(const struct asora_source_view *v, int di, int dj,
                                              int dk) {
  const int n = (int)v->n;
  int c[3] = {v->src[0] + di, v->src[1] + dj, v->src[2] + dk};
  for (int a = 0; a < 3; ++a) c[a] = asora_wrap(c[a], n, 1);
  return ((unsigned)c[0] * (unsigned)n + (unsigned)c[1]) * (unsigned)n + (unsigned)c[2];
}

/**
 * asora_cell_step of a cell of a whole domain in the shell layout (in_shells 1, inside the
 * photon sphere: the lane table holds no other) from its place pl (asora_cell_place_make:
 * where its columns are and its stencil's geometry) and the pass's absorbers
 * v->n_abs_cm3 (required): the same function, without finding the places, in 32-bit
 * indices.
 */
IONF_HD IONF_INLINE void asora_cell_step_placed(const struct asora_source_view *v, const int ns,
                                                const int cut, const struct asora_columns *cols,
                                                int di, int dj, int dk,
                                                const struct asora_cell_place *pl,
                                                long long *idx, double *gamma, double *heat,
                                                double *col_out) {
  const long long cells = v->n * v->n * v->n;
  double x_ion[IONF_MAX_SPECIES], n_abs[IONF_MAX_SPECIES], col_in[IONF_MAX_SPECIES];
  const unsigned c = asora_whole_cell(v, di, dj, dk);
  asora_cell_absorbers_given(v, ns, c, cells, x_ion, n_abs);
  double ds_cells, volume;
  if (di == 0 && dj == 0 && dk == 0) {
    asora_source_cell(v, ns, col_in, &ds_cells, &volume);
  } else {
    struct asora_stencil st;
    asora_stencil_weights(pl->geo, pl->corner, &st);
    double col[4 * IONF_MAX_SPECIES]; /* (32-bit indices) */
    for (int m = 0; m < 4; ++m)
      for (int s = 0; s < ns; ++s)
        col[ns * m + s] = pl->at[m] >= 0 ? cols->prev[ns * pl->at[m] + s] : 0.0;
    asora_cell_columns_in(v, ns, &st, col, col_in);
    ds_cells = st.ds_cells;
    volume = st.volume_cells * v->cell_cm * v->cell_cm * v->cell_cm; /* 4 pi r^2 ds */
  }
  *idx = c;
  asora_cell_columns_out(v, ns, n_abs, col_in, ds_cells, col_out);
  for (int a = 0; a < 3; ++a)
    if (pl->store[a] >= 0)
      for (int s = 0; s < ns; ++s) cols->cur[ns * pl->store[a] + s] = col_out[s];
  asora_cell_rates(v, ns, cut, c, cells, x_ion, n_abs, col_in, col_out, ds_cells, volume, gamma,
                   heat);
}

#endif /* IONF_ASORA_CELL_K_H */
