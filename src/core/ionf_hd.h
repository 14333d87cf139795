/**
 * @file ionf_hd.h
 * @brief Qualifiers that let one static inline function serve the host (C17)
 *        and the device (CUDA C++): the shared per-cell and per-ray maths of
 *        every *_k.h header is written once with these.
 *
 * Rules for *_k.h headers (they compile as C17 and as nvcc's C++): no VLAs,
 * compound literals, designated initialisers, _Generic or bare `restrict`; no
 * allocation, I/O, globals or error returns.  They take scalars and plain
 * pointers and report problems through return values or flags.
 */
#ifndef IONF_HD_H
#define IONF_HD_H

#ifdef __CUDACC__
#define IONF_HD __host__ __device__
#define IONF_RESTRICT __restrict__
#else
#define IONF_HD
#define IONF_RESTRICT restrict
#endif

#define IONF_INLINE static inline

#if defined(__CUDA_ARCH__)
#define IONF_ON_DEVICE 1
#else
#define IONF_ON_DEVICE 0
#endif

#endif /* IONF_HD_H */
