/**
 * @file sph_trace.h
 * @brief One ray-tracing pass over SPH particles: the photoionization (and
 *        photo-heating) rate of every particle from a list of point sources.
 *
 * The contract between the particle tracer (CPU: src/sph_trace_cpu.c, CUDA:
 * gpu/sph_trace.cu) and the particle engine that iterates it with the
 * chemistry (src/sph_engine.c).
 *
 * Method (grace/taranis, made photon-conserving per hit): each source sends
 * n_rays isotropic rays (HEALPix directions); a ray's hits are the particles
 * whose kernel sphere it crosses, sorted by distance from the source; hit p
 * adds the column dN_p = N_H,p (1 - x_p) * C(b^2/h_p^2) / h_p^2 (C: the
 * kernel's line integral through the whole sphere at impact parameter b, from
 * a table; N_H,p: hydrogen atoms of the particle), tau = sigma0 * column, and
 * the particle is credited with the photons the ray loses across it,
 * Ndot/n_rays * [thick(tau_in) - thick(tau_out)] (src/photo_k.h), divided by
 * its neutral atoms N_H,p (1 - x_p) to make a rate per HI atom.
 */
#ifndef IONF_SPH_TRACE_H
#define IONF_SPH_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "particles/bvh.h"
#include "core/error.h"
#include "particles/particles.h"
#include "rt/bands_k.h"
#include "rt/photo_k.h"
#include "rt/tracer.h"

/**
 * Periodic sets (particles->periodic, box particles->box_size_cm): rays wrap,
 * every image of the box within r_max is traced (src/sph_periodic_k.h); r_max
 * must be finite, > 0 and at most SPH_PERIODIC_MAX_R_BOXES smallest box sides,
 * and the particles and sources lie in the box [0, L].  Both paths wrap (the
 * GPU's from the same functions).
 */

/** Point sources among particles (positions in the particles' frame). */
struct sph_sources {
  int64_t count;
  const double *pos_cm;       /*!< count x 3 [cm] */
  const double *ndot_per_s;   /*!< count ionizing photon rates [1/s] */
};

/** The CUDA pass's ray schedule (gpu/particles/sph_trace_gpu.h). */
enum sph_trace_schedule {
  SPH_TRACE_SCHEDULE_WARP = 0, /*!< one warp per ray (the default); one thread per ray for
                                    trees deeper than the warp's stack, and for a pass with a
                                    ray too dense for its windows */
  SPH_TRACE_SCHEDULE_THREAD    /*!< one thread per ray, always */
};

/* The measured defaults of the tuning (benchmarks/RESULTS.md, H100): 512 hits with 8
   blocks per SM beat 256 and 1024 hits and 1 or 6 blocks; an aim of 0.85 beats 0.5, 0.7. */
#define SPH_TRACE_WINDOW_HITS_DEFAULT 512
#define SPH_TRACE_WINDOW_HITS_MAX 1024 /*!< the largest window buffer (8 KiB of keys per warp) */
#define SPH_TRACE_MIN_BLOCKS_DEFAULT 8
#define SPH_TRACE_WINDOW_AIM_DEFAULT 0.85

/**
 * Knobs of the CUDA pass, for tests and measurements; zero everywhere: the measured
 * defaults.  The CPU pass ignores them.  A value out of range fails the pass
 * (IONF_ERR_CONFIG); config key particles.trace (config/sph_config.h).
 */
struct sph_trace_tuning {
  enum sph_trace_schedule schedule;
  int window_hits;      /*!< warp: the hits a window's buffer holds, 2 ..
                             SPH_TRACE_WINDOW_HITS_MAX (small values force many windows);
                             0: SPH_TRACE_WINDOW_HITS_DEFAULT */
  int min_blocks;       /*!< warp: blocks per SM the kernel is compiled to fit (its launch
                             bound: fewer registers, some spilled), 1, 6 or 8; 0: 8 */
  double window_aim;    /*!< warp: the hits a window aims at, as a fraction of its buffer,
                             0.1 .. 2 (above 1 windows are meant to overflow and be cut);
                             0: SPH_TRACE_WINDOW_AIM_DEFAULT */
  int64_t hit_capacity; /*!< thread: the hits its buffers hold (small values split each batch
                             into many pieces); 0: sized from free GPU memory */
};

/** What a pass reads. */
struct sph_trace_input {
  const struct particle_set *particles; /*!< pos, h, n_h_atoms */
  const struct bvh *tree;               /*!< built over particles (bvh_build_cpu/gpu) */
  const double *x_hii;                  /*!< per particle: ionized fraction the columns use
                                             (with helium: then x_HeII, x_HeIII blocks) */
  struct photo_table_view tables;       /*!< host pointers (the CUDA path copies them) */
  int heating;                          /*!< also fill heating_erg_per_s */
  struct sph_sources sources;           /*!< this rank's sources */
  int64_t n_rays;                       /*!< rays per source: 12 * nside^2 (HEALPix) */
  /* a share of every source's rays (ranks sharing the rays): this pass traces rays
     k = ray_first + j * ray_stride, j = 0, 1, ... below n_rays, of every source, each
     carrying Ndot / n_rays, so the shares of ray_stride passes (ray_first 0 .. stride - 1)
     sum to the whole pass; ray_stride 0 or 1: every ray */
  int64_t ray_first;                    /*!< 0 <= ray_first < max(ray_stride, 1) */
  int64_t ray_stride;
  double r_max_cm;                      /*!< rays stop here; <= 0: unlimited (open sets only) */
  struct sph_trace_tuning tuning;       /*!< the CUDA pass's knobs (zero: the defaults) */
  /* hydrogen and helium (n_species 3): each ray carries the columns of HI, HeI and HeII
     and every hit is credited through the band tables (sph_hit_credit_he) */
  int n_species;                        /*!< 0 or 1: hydrogen alone (tables); 3: with helium */
  double abundance_he;                  /*!< n_He / n_H (n_species 3) */
  int64_t species_stride;               /*!< n_species 3: species s of x_hii and of the
                                             outputs at s * species_stride (>= count) */
  struct bands_view bands;              /*!< n_species 3: the band tables (host pointers) */
};

/** What a pass writes (per particle, overwritten, not accumulated).  With helium
    (in->n_species 3) both arrays hold three species blocks, in->species_stride apart:
    Gamma_HI, Gamma_HeI, Gamma_HeII per absorber atom (and the heating per absorber). */
struct sph_trace_output {
  double *gamma_hi_per_s;    /*!< photoionization rate per HI atom [1/s] */
  double *heating_erg_per_s; /*!< photo-heating per HI atom [erg/s] (when heating) */
};

/** Counts and times of one pass, for benchmarks and logs. */
struct sph_trace_stats {
  int64_t rays;
  int64_t hits;              /*!< ray-particle intersections */
  double seconds;            /*!< the whole call */
  /* the CUDA pass only (zero on the CPU): */
  enum sph_trace_schedule schedule; /*!< the schedule that traced (a fallback shows here) */
  int64_t windows;           /*!< warp: windows walked */
  int64_t window_cuts;       /*!< warp: windows cut short when they overflowed */
  int64_t window_retraversals; /*!< warp: windows shortened and traversed again */
  double prepare_s;          /*!< host preparation (directions, the column table) */
  double resident_s;         /*!< particles and tree to the device (0 when already there) */
  double upload_s;           /*!< the pass's uploads (x_HII, sources, tables) and x_HII check */
  double trace_s;            /*!< the rays */
  double rates_out_s;        /*!< the rates back to particle order and to the host */
};

/** CPU pass (OpenMP). */
IONF_NODISCARD ionf_err sph_trace_cpu(const struct sph_trace_input *in,
                                      struct sph_trace_output *out,
                                      struct sph_trace_stats *stats);

/**
 * CUDA pass: same function, particles and tree copied to the device on the
 * first call for a given input.particles/tree pair and kept (sph_trace_cuda_release
 * frees them).  IONF_ERR_UNSUPPORTED in a CPU-only build or without a GPU.
 */
IONF_NODISCARD ionf_err sph_trace_cuda(const struct sph_trace_input *in,
                                       struct sph_trace_output *out,
                                       struct sph_trace_stats *stats);
void sph_trace_cuda_release(void);

/**
 * Page-lock the caller's array at p (bytes long) for the CUDA pass's copies:
 * the per-pass x_HII in and rates out are the pass's largest host transfers
 * (measured on the H100 machine, 2^21 particles: in 1.1 ms and out 1.7 ms
 * page-locked, 1.2 and 1.9 ms pageable; benchmarks/RESULTS.md).  The array
 * must outlive the pin: sph_trace_cuda_release unpins everything.  Best
 * effort: when the host will not pin, the copies stay pageable.  Does nothing
 * in a CPU-only build.
 */
void sph_trace_cuda_pin_host(void *p, size_t bytes);

/* ---- the particle tracer behind the tracer interface (rt/tracer.h) ------------------ */

/** A pass function: sph_trace_cpu, sph_trace_cuda, or a test's stand-in. */
typedef ionf_err (*sph_trace_fn)(const struct sph_trace_input *in, struct sph_trace_output *out,
                                 struct sph_trace_stats *stats);

/** What a particle tracer is made with. */
struct sph_tracer_setup {
  const struct particle_set *particles; /*!< borrowed: must outlive the tracer */
  const struct bvh *tree;               /*!< built over particles */
  struct photo_table_view tables;       /*!< host tables (the CUDA pass copies them) */
  int64_t n_rays;                       /*!< rays per source */
  int64_t ray_first, ray_stride;        /*!< this rank's share of them (sph_trace_input) */
  double r_max_cm;                      /*!< rays stop here; <= 0: unlimited (open sets) */
  struct sph_trace_tuning tuning;       /*!< the CUDA pass's knobs (zero: the defaults) */
  int n_species;                        /*!< 1, or 3 with helium */
  double abundance_he;                  /*!< n_He / n_H (n_species 3) */
  struct bands_view bands;              /*!< n_species 3: the band tables (host pointers) */
};

/**
 * The particle tracer as a tracer: each pass traces this rank's sources (placed by
 * position: the source list's pos_cm) with `fn` over host arrays, x_HII from the
 * fields' averages, and sets every particle's rate (a rank without sources sets
 * zeros).  It must be the first tracer of a pass (it sets; it cannot add).  `name`
 * describes the pass function ("cpu", "cuda", "injected").
 */
IONF_NODISCARD ionf_err sph_tracer_create(const struct sph_tracer_setup *s, sph_trace_fn fn,
                                          const char *name, struct tracer **out);

#endif /* IONF_SPH_TRACE_H */
