/**
 * @file backend_cuda.cu
 * @brief The CUDA backend (src/engine/backend.h): the fields live in GPU memory
 *        for the whole ray-tracing <-> chemistry iteration; the host sees them
 *        only when the engine asks (outputs, the MPI sum of the rates).
 *
 * It owns the device, the stream every kernel of the run is queued on, the working
 * fields, the rate tables and the NCCL sum; the tracers (gpu/rt/) and the
 * chemistry (gpu/chem/) compute on its arrays.
 */
#include <cuda_runtime.h>

extern "C" {
#include "engine/backend.h"
#include "gpu/core/cuda_util.h"
#include "gpu/mpi/nccl_sum.h"
#include "mpi/comm.h"
}

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Multiply every cell by `factor` (density dilution in an expanding universe). */
__global__ void scale_kernel(double *field, long long cells, double factor) {
  for (long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x; c < cells;
       c += (long long)gridDim.x * blockDim.x)
    field[c] *= factor;
}

/* dst[c] += src[c]: a peer's rates for an owned range. */
__global__ void add_kernel(double *dst, const double *src, long long count) {
  for (long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x; c < count;
       c += (long long)gridDim.x * blockDim.x)
    dst[c] += src[c];
}

struct cuda_backend {
  struct fields *host;
  int sm_count;
  cudaStream_t stream;
  double *d_tables[IONF_MAX_SPECIES][4]; /* thick, thin, heat_thick, heat_thin */
  double *d_inv_tau;                      /* 1 / tau_i (photo_table_locate_fast) */
  double *d_bands[5];           /* with helium: sigma, the photon and energy tables; the
                                   whole-band photon and energy tables */
  double *pinned[3];            /* host fields page-locked for fast copies */
  int n_pinned;
  struct nccl_sum *nccl;        /* device all-reduce over the ranks, when available */
  double *halo_scratch;         /* a split grid: the peers' halo rates, before they are added */
  size_t halo_scratch_doubles;
};

static struct cuda_backend *cuda_of(struct backend *be) { return (struct cuda_backend *)be->impl; }

static ionf_err cuda_move(struct backend *be, unsigned mask, int64_t first, int64_t count,
                          int to_device) {
  struct cuda_backend *cb = cuda_of(be);
  size_t bytes = sizeof(double) * (size_t)count;
  for (unsigned bit = 1; bit <= FIELD_HEAT; bit <<= 1) {
    if (!(mask & bit)) continue;
    double *host0 = backend_field_array(cb->host, bit), *dev0 = backend_field_array(&be->work, bit);
    if (!host0 || !dev0) continue; /* a thermal field in an isothermal run */
    int blocks = backend_field_per_species(bit) ? cb->host->n_species : 1;
    for (int b = 0; b < blocks; ++b) { /* the range of every species */
      double *host = host0 + b * cb->host->cells + first;
      double *dev = dev0 + b * cb->host->cells + first;
      if (to_device)
        CUDA_CHECK(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, cb->stream),
                   "copy of a field to the GPU");
      else
        CUDA_CHECK(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, cb->stream),
                   "copy of a field from the GPU");
    }
  }
  CUDA_CHECK(cudaStreamSynchronize(cb->stream), "field copy");
  return IONF_OK;
}

static ionf_err cuda_upload(struct backend *be, unsigned mask, int64_t first, int64_t count) {
  return cuda_move(be, mask, first, count, 1);
}

static ionf_err cuda_download(struct backend *be, unsigned mask, int64_t first, int64_t count) {
  return cuda_move(be, mask, first, count, 0);
}

/* The working fields on the device, the same layout as the host's. */
static ionf_err alloc_fields(struct backend *be, const struct fields *h) {
  size_t field_bytes = sizeof(double) * (size_t)h->cells;
  size_t species_bytes = field_bytes * (size_t)h->n_species; /* [species][cells] */
  struct fields *w = &be->work;
  w->cells = h->cells;
  w->n_species = h->n_species;
  w->abundance_he = h->abundance_he;
  double **fields[] = {&w->n_h_cm3, &w->x_ion, &w->x_ion_av, &w->x_ion_end, &w->temperature_k,
                       &w->gamma_per_s};
  int per_species[] = {0, 1, 1, 1, 0, 1};
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; ++i)
    IONF_CALL(cuda_util_alloc((void **)fields[i], per_species[i] ? species_bytes : field_bytes,
                              "the grid fields"));
  if (h->temperature_av_k) { /* the temperature evolves */
    double **thermal[] = {&w->temperature_av_k, &w->temperature_end_k, &w->heating_erg_per_s};
    for (size_t i = 0; i < sizeof thermal / sizeof thermal[0]; ++i)
      IONF_CALL(cuda_util_alloc((void **)thermal[i], i == 2 ? species_bytes : field_bytes,
                                "the temperature fields"));
  }
  return IONF_OK;
}

/* The rate tables on the device, and their view with device pointers. */
static ionf_err copy_tables(struct backend *be, const struct photo_tables *t) {
  struct cuda_backend *cb = cuda_of(be);
  be->tables = photo_tables_view(t);
  size_t bytes = sizeof(double) * ((size_t)t->num_tau + 1);
  for (int sp = 0; sp < PHOTO_TABLE_SPECIES; ++sp) { /* every species' tables */
    const struct photo_species_tables *s = &t->sp[sp];
    const double *host[4] = {s->thick, s->thin, s->heat_thick, s->heat_thin};
    for (int q = 0; q < 4; ++q) {
      if (q >= 2 && !t->heating) continue;
      IONF_CALL(cuda_util_alloc((void **)&cb->d_tables[sp][q], bytes,
                                q < 2 ? "the rate tables" : "the heating tables"));
      CUDA_CHECK(cudaMemcpy(cb->d_tables[sp][q], host[q], bytes, cudaMemcpyHostToDevice),
                 q < 2 ? "copy of the rate tables" : "copy of the heating tables");
    }
    be->tables.sp[sp].thick = cb->d_tables[sp][0];
    be->tables.sp[sp].thin = cb->d_tables[sp][1];
    be->tables.sp[sp].heat_thick = cb->d_tables[sp][2];
    be->tables.sp[sp].heat_thin = cb->d_tables[sp][3];
  }
  if (t->inv_tau) { /* the nodes' inverses (photo_table_locate_fast) */
    IONF_CALL(cuda_util_alloc((void **)&cb->d_inv_tau, bytes, "the rate tables"));
    CUDA_CHECK(cudaMemcpy(cb->d_inv_tau, t->inv_tau, bytes, cudaMemcpyHostToDevice),
               "copy of the rate tables");
    be->tables.inv_tau = cb->d_inv_tau;
  }
  return IONF_OK;
}

/* With helium: the band tables on the device, and their view with device pointers. */
static ionf_err copy_bands(struct backend *be, const struct bands *b) {
  struct cuda_backend *cb = cuda_of(be);
  memset(&be->bands, 0, sizeof be->bands);
  if (!b) return IONF_OK;
  be->bands = bands_view_of(b);
  const double *host[5] = {b->sigma_cm2, b->table, b->e_table, b->whole.table, b->whole.e_table};
  const size_t bytes[5] = {sizeof(double) * BANDS_N_ABSORBERS * (size_t)b->n_bins,
                           sizeof(double) * bands_table_doubles(b),
                           sizeof(double) * bands_table_doubles(b),
                           sizeof(double) * b->whole.doubles, sizeof(double) * b->whole.doubles};
  for (int q = 0; q < 5; ++q) {
    if (!host[q] || !bytes[q]) continue; /* no energy table without heating; one kind of table */
    IONF_CALL(cuda_util_alloc((void **)&cb->d_bands[q], bytes[q], "the band tables"));
    CUDA_CHECK(cudaMemcpy(cb->d_bands[q], host[q], bytes[q], cudaMemcpyHostToDevice),
               "copy of the band tables");
  }
  be->bands.sigma_cm2 = cb->d_bands[0];
  be->bands.table = cb->d_bands[1];
  be->bands.e_table = cb->d_bands[2];
  be->bands.whole.table = cb->d_bands[3];
  be->bands.whole.e_table = cb->d_bands[4];
  return IONF_OK;
}

static ionf_err cuda_setup(struct backend *be, const struct backend_setup *s) {
  struct cuda_backend *cb = cuda_of(be);
  cb->host = s->host;
  IONF_CALL(alloc_fields(be, s->host));
  /* Page-lock the host fields that cross PCIe every iteration under MPI (Gamma,
     x_av) or at outputs, so those copies run at full speed.  Best effort. */
  if (comm_size() > 1) {
    size_t species_bytes = sizeof(double) * (size_t)s->host->cells * (size_t)s->host->n_species;
    double *pin[] = {s->host->gamma_per_s, s->host->x_ion_av, s->host->x_ion_end};
    /* (the thermal fields cross too, but pinning them is not worth the locked memory) */
    for (size_t i = 0; i < sizeof pin / sizeof pin[0]; ++i)
      if (cudaHostRegister(pin[i], species_bytes, cudaHostRegisterDefault) == cudaSuccess)
        cb->pinned[cb->n_pinned++] = pin[i];
      else
        cudaGetLastError();
  }
  if (s->want_device_sum && comm_size() > 1) {
    char why[200];
    IONF_CALL(nccl_sum_create(&cb->nccl, why, sizeof why));
    size_t len = strlen(be->description);
    snprintf(be->description + len, sizeof be->description - len, "; rates summed %s%s",
             cb->nccl ? "on the GPUs by NCCL" : "through the host: ", cb->nccl ? "" : why);
  }
  if (!cb->nccl) be->ops.sum_rates = NULL;
  if (!nccl_sum_has_exchange(cb->nccl)) be->ops.halo = NULL;
  IONF_CALL(copy_bands(be, s->bands));
  return copy_tables(be, s->tables);
}

/* x_av, x_end := x (and T) at a step's start; x := x_end (and T) at its end, on the stream */
static ionf_err cuda_step_copies(struct backend *be, int at_end) {
  struct cuda_backend *cb = cuda_of(be);
  double *dst[4];
  const double *src[4];
  int64_t count[4];
  int n = backend_step_copies(&be->work, at_end, dst, src, count);
  for (int i = 0; i < n; ++i)
    CUDA_CHECK(cudaMemcpyAsync(dst[i], src[i], sizeof(double) * (size_t)count[i],
                               cudaMemcpyDeviceToDevice, cb->stream),
               at_end ? "the copies ending a step" : "the copies starting a step");
  if (at_end) CUDA_CHECK(cudaStreamSynchronize(cb->stream), "end of step");
  return IONF_OK;
}

static ionf_err cuda_step_begin(struct backend *be) { return cuda_step_copies(be, 0); }

static ionf_err cuda_step_end(struct backend *be) { return cuda_step_copies(be, 1); }

static ionf_err cuda_scale_density(struct backend *be, double factor) {
  struct cuda_backend *cb = cuda_of(be);
  scale_kernel<<<8 * cb->sm_count, 256, 0, cb->stream>>>(be->work.n_h_cm3, be->work.cells, factor);
  CUDA_CHECK(cudaGetLastError(), "launch of the density scaling");
  return IONF_OK;
}

static ionf_err cuda_sum_rates(struct backend *be) {
  struct cuda_backend *cb = cuda_of(be);
  long long values = be->work.cells * be->work.n_species; /* every species */
  IONF_CALL(nccl_sum_allreduce(cb->nccl, be->work.gamma_per_s, values, cb->stream));
  if (be->work.heating_erg_per_s && be->tables.heating)
    IONF_CALL(nccl_sum_allreduce(cb->nccl, be->work.heating_erg_per_s, values, cb->stream));
  CUDA_CHECK(cudaStreamSynchronize(cb->stream), "NCCL all-reduce");
  return IONF_OK;
}

/* Messages of `ranges` for every block of the working fields in `mask`: their planes,
   or (scratch) consecutive pieces of it. */
static int halo_messages(struct backend *be, unsigned mask, const struct decomp_range *r, int n,
                         int64_t plane_cells, double *scratch, struct nccl_sum_message *out) {
  int k = 0;
  int64_t used = 0, cells = be->work.cells;
  for (unsigned bit = 1; bit <= FIELD_HEAT; bit <<= 1) {
    double *dev0 = (mask & bit) ? backend_field_array(&be->work, bit) : NULL;
    if (!dev0) continue;
    int blocks = backend_field_per_species(bit) ? be->work.n_species : 1;
    for (int b = 0; b < blocks; ++b)
      for (int m = 0; m < n; ++m) {
        int64_t count = r[m].planes * plane_cells;
        double *at = scratch ? scratch + used : dev0 + b * cells + r[m].plane * plane_cells;
        out[k++] = (struct nccl_sum_message){r[m].peer, at, count};
        used += count;
      }
  }
  return k;
}

/* Returned rates are received in rounds of at most this many doubles in all (64 MB), so
   the scratch they land in stays small whatever the halo. */
#define HALO_SCRATCH_DOUBLES ((int64_t)8 << 20)

/* The scratch of the returned rates: at least `doubles`. */
static ionf_err halo_scratch(struct cuda_backend *cb, size_t doubles) {
  if (doubles <= cb->halo_scratch_doubles) return IONF_OK;
  if (cb->halo_scratch) cudaFree(cb->halo_scratch);
  cb->halo_scratch = NULL;
  cb->halo_scratch_doubles = 0;
  IONF_CALL(cuda_util_alloc((void **)&cb->halo_scratch, doubles * sizeof(double),
                            "the returned halo rates"));
  cb->halo_scratch_doubles = doubles;
  return IONF_OK;
}

/* add 1: the peers' copies of the owned ranges `in` (of `n_in`) received in rounds of
   `chunk` doubles per message into the scratch and added there, in order; this rank's
   halo copies `out` sent to their owners in the same rounds (a pair's messages match
   round by round, being listed alike on both sides). */
static ionf_err halo_return_rounds(struct backend *be, const struct nccl_sum_message *out, int n_out,
                                   const struct nccl_sum_message *in, int n_in,
                                   struct nccl_sum_message *round) {
  struct cuda_backend *cb = cuda_of(be);
  int64_t chunk = HALO_SCRATCH_DOUBLES / (n_in > 0 ? n_in : 1);
  IONF_CALL(halo_scratch(cb, (size_t)(chunk * (n_in > 0 ? n_in : 1))));
  for (int64_t off = 0;; off += chunk) {
    int n_s = 0, n_r = 0;
    for (int q = 0; q < n_out; ++q)
      if (out[q].count > off)
        round[n_s++] = (struct nccl_sum_message){out[q].peer, out[q].device_buf + off,
                                                 out[q].count - off < chunk ? out[q].count - off : chunk};
    for (int q = 0; q < n_in; ++q)
      if (in[q].count > off)
        round[n_s + n_r++] = (struct nccl_sum_message){
            in[q].peer, cb->halo_scratch + q * chunk,
            in[q].count - off < chunk ? in[q].count - off : chunk};
    if (n_s + n_r == 0) break; /* nothing left between this rank and any peer */
    IONF_CALL(nccl_sum_exchange(cb->nccl, round, n_s, round + n_s, n_r, cb->stream));
    for (int q = 0; q < n_in; ++q) { /* then added, in the order of the list */
      if (in[q].count <= off) continue;
      long long len = in[q].count - off < chunk ? in[q].count - off : chunk;
      int blocks = (int)((len + 255) / 256 < 8 * cb->sm_count ? (len + 255) / 256 : 8 * cb->sm_count);
      add_kernel<<<blocks > 0 ? blocks : 1, 256, 0, cb->stream>>>(in[q].device_buf + off,
                                                                  cb->halo_scratch + q * chunk, len);
      CUDA_CHECK(cudaGetLastError(), "launch of the halo rate sum");
    }
  }
  return IONF_OK;
}

/* A split grid's halos in GPU memory (backend.h): NCCL send/receive of whole planes;
   returned rates are added in the order of d->send. */
static ionf_err cuda_halo(struct backend *be, const struct decomp *d, unsigned mask, int add) {
  struct cuda_backend *cb = cuda_of(be);
  const int64_t pc = d->plane_cells;
  int most = 9 * IONF_MAX_SPECIES * (d->n_send + d->n_recv) + 1;
  struct nccl_sum_message *msg =
      (struct nccl_sum_message *)malloc(sizeof(struct nccl_sum_message) * 2 * (size_t)most);
  IONF_CHECK(msg, IONF_ERR_MEM, "rank %d: out of memory for the halo messages", comm_rank());
  /* fill: owned planes out, halo planes in; return: halo planes out, owned planes in */
  int n_s = halo_messages(be, mask, add ? d->recv : d->send, add ? d->n_recv : d->n_send, pc,
                          NULL, msg);
  int n_r = halo_messages(be, mask, add ? d->send : d->recv, add ? d->n_send : d->n_recv, pc,
                          NULL, msg + n_s);
  ionf_err rc = add ? halo_return_rounds(be, msg, n_s, msg + n_s, n_r, msg + most)
                    : nccl_sum_exchange(cb->nccl, msg, n_s, msg + n_s, n_r, cb->stream);
  free(msg);
  IONF_CALL(rc);
  CUDA_CHECK(cudaStreamSynchronize(cb->stream), "the halo exchange");
  return IONF_OK;
}

static ionf_err cuda_read_strided(struct backend *be, unsigned bit, int64_t first, int64_t stride,
                                  int64_t count, double *out) {
  const double *a = backend_field_array(&be->work, bit);
  IONF_CHECK(a, IONF_ERR_INTERNAL, "field %u is not held", bit);
  /* a column with a pitch of `stride` doubles */
  CUDA_CHECK(cudaMemcpy2D(out, sizeof(double), a + first, (size_t)stride * sizeof(double),
                          sizeof(double), (size_t)count, cudaMemcpyDeviceToHost),
             "copy of a line of a field");
  return IONF_OK;
}

static void cuda_destroy(struct backend *be) {
  struct cuda_backend *cb = cuda_of(be);
  if (cb) {
    struct fields *w = &be->work;
    void *all[] = {w->n_h_cm3, w->x_ion, w->x_ion_av, w->x_ion_end, w->temperature_k,
                   w->gamma_per_s, w->temperature_av_k, w->temperature_end_k,
                   w->heating_erg_per_s};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
      if (all[i]) cudaFree(all[i]);
    for (int sp = 0; sp < IONF_MAX_SPECIES; ++sp)
      for (int q = 0; q < 4; ++q)
        if (cb->d_tables[sp][q]) cudaFree(cb->d_tables[sp][q]);
    if (cb->d_inv_tau) cudaFree(cb->d_inv_tau);
    for (int q = 0; q < 5; ++q)
      if (cb->d_bands[q]) cudaFree(cb->d_bands[q]);
    nccl_sum_destroy(cb->nccl);
    if (cb->halo_scratch) cudaFree(cb->halo_scratch);
    if (cb->stream) cudaStreamDestroy(cb->stream);
    for (int i = 0; i < cb->n_pinned; ++i) cudaHostUnregister(cb->pinned[i]);
    free(cb);
  }
  free(be);
}

extern "C" ionf_err backend_create_cuda(int local_rank, struct backend **out) {
  *out = NULL;
  int count = cuda_util_device_count();
  if (count == 0)
    return ionf_error_set(IONF_ERR_UNSUPPORTED,
                          "backend 'cuda' asked for, but no CUDA device is visible "
                          "(check CUDA_VISIBLE_DEVICES and nvidia-smi, or use backend: cpu)");
  struct backend *be = (struct backend *)ionf_calloc(1, sizeof *be, "the CUDA backend");
  if (!be) return IONF_ERR_MEM;
  struct cuda_backend *cb =
      (struct cuda_backend *)ionf_calloc(1, sizeof *cb, "the CUDA backend state");
  if (!cb) {
    free(be);
    return IONF_ERR_MEM;
  }
  static const struct backend_ops ops = {cuda_setup,      cuda_upload,       cuda_download,
                                         cuda_step_begin, cuda_step_end,     cuda_scale_density,
                                         cuda_sum_rates,  cuda_read_strided, cuda_destroy,
                                         cuda_halo};
  be->impl = cb;
  be->type_name = "cuda";
  be->ops = ops;
  be->device = local_rank % count;
  cudaDeviceProp prop;
  cudaError_t err = cudaSetDevice(be->device);
  if (err == cudaSuccess) err = cudaGetDeviceProperties(&prop, be->device);
  if (err == cudaSuccess) err = cudaStreamCreate(&cb->stream);
  if (err != cudaSuccess) {
    ionf_err rc = cuda_util_fail((int)err, "device set-up");
    cuda_destroy(be);
    return rc;
  }
  be->stream = cb->stream;
  cb->sm_count = prop.multiProcessorCount;
  char pci[32];
  snprintf(pci, sizeof pci, "%04x:%02x:%02x.0", prop.pciDomainID, prop.pciBusID,
           prop.pciDeviceID);
  snprintf(be->description, sizeof be->description,
           "CUDA on %s (device %d of %d, PCI %s, %d SMs, %.0f GB)", prop.name, be->device, count,
           pci, cb->sm_count, (double)prop.totalGlobalMem / 1e9);
  *out = be;
  return IONF_OK;
}
