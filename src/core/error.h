/**
 * @file error.h
 * @brief Error codes, propagation macros, and messages delivered to a log handler.
 *
 * Every function that can fail returns an ionf_err.  The first failure sets a
 * message (naming file, key, value or rank as appropriate) with IONF_CHECK or
 * ionf_error_set(); each IONF_CALL on the way up appends one trace line.  Only
 * main() reports and exits.  No setjmp/longjmp: jumping out of an OpenMP
 * region or past live MPI/HDF5 handles is undefined.
 */
#ifndef IONF_ERROR_H
#define IONF_ERROR_H

#include <stdarg.h>
#include <stddef.h>

typedef enum ionf_err {
  IONF_OK = 0,          /* success */
  IONF_ERR_CONFIG = 2,  /* bad configuration: syntax, unknown key, type, range */
  IONF_ERR_INPUT = 3,   /* bad input data: NaN/negative density, source outside */
  IONF_ERR_IO = 4,      /* a file could not be read or written */
  IONF_ERR_MEM = 5,     /* host allocation failed */
  IONF_ERR_GPU = 6,     /* a CUDA call failed */
  IONF_ERR_GPU_MEM = 7, /* the GPU ran out of memory */
  IONF_ERR_MPI = 8,     /* an MPI call failed or another rank failed */
  IONF_ERR_UNSUPPORTED = 9, /* asked for a feature this build does not have */
  IONF_ERR_INTERNAL = 10,   /* a bug: an invariant did not hold */
  IONF_ERR_USAGE = 11,      /* bad command line */
  IONF_ERR_PEER = 12,       /* another MPI rank failed (it reports why) */
  IONF_STOPPED = 13         /* stopped by SIGTERM/SIGUSR1/SIGINT after writing a checkpoint */
} ionf_err;

#if defined(__GNUC__)
#define IONF_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define IONF_NODISCARD __attribute__((warn_unused_result))
#else
#define IONF_PRINTF(a, b)
#define IONF_NODISCARD
#endif

/** Record an error (first message wins until ionf_error_clear). Returns code. */
ionf_err ionf_error_set(ionf_err code, const char *fmt, ...) IONF_PRINTF(2, 3);
/** Append one "at func (file:line)" line to the trace. */
void ionf_error_trace(const char *func, const char *file, int line);
/** The recorded message ("" when none). */
const char *ionf_error_message(void);
/** The recorded trace ("" when none). */
const char *ionf_error_trace_text(void);
/** Forget the recorded message and trace. */
void ionf_error_clear(void);
/** Short name of a code ("config error", ...). */
const char *ionf_error_name(ionf_err code);

/** Check a user-facing condition; on failure record the message and return. */
#define IONF_CHECK(cond, code, ...)              \
  do {                                           \
    if (!(cond)) {                               \
      return ionf_error_set((code), __VA_ARGS__); \
    }                                            \
  } while (0)

/** Call something that returns ionf_err; propagate a failure with a trace line. */
#define IONF_CALL(expr)                                     \
  do {                                                      \
    ionf_err ionf_call_rc_ = (expr);                        \
    if (ionf_call_rc_ != IONF_OK) {                         \
      ionf_error_trace(__func__, __FILE__, __LINE__);       \
      return ionf_call_rc_;                                 \
    }                                                       \
  } while (0)

/** Allocation helper: returns NULL and records IONF_ERR_MEM with the size. */
void *ionf_malloc(size_t bytes, const char *what);
void *ionf_calloc(size_t count, size_t size, const char *what);

/* ---- messages --------------------------------------------------------
 * The code never prints: ionf_message0, ionf_message and ionf_warning format their
 * text and hand it to the log handler (one line, no newline, no rank prefix).  With
 * no handler set (the default) messages are dropped.  The command line installs one
 * that prints them (src/cli/cli_log.c); a library caller may install its own
 * (ionf_set_log_handler, include/ionfront.h).
 */
/** What a message is: the handler's `level` (the values of ionfront.h's IONF_LOG_*). */
enum ionf_log_level {
  IONF_LOG_LEVEL_INFO = 20,      /*!< about the whole run, delivered on rank 0 only */
  IONF_LOG_LEVEL_RANK_INFO = 21, /*!< about this rank, delivered on the rank it concerns */
  IONF_LOG_LEVEL_WARNING = 30    /*!< a warning, on the rank that met it */
};
/** Deliver messages to fn(level, text, user) from now on; fn NULL: drop them. */
void ionf_log_set_handler(void (*fn)(int level, const char *text, void *user), void *user);
/** Set this process's rank (messages for the whole run come from rank 0 only). */
void ionf_log_set_rank(int rank);
/** Verbosity: 0 quiet (warnings only), 1 normal, 2 verbose. */
void ionf_log_set_verbosity(int level);
int ionf_log_verbosity(void);
/** Message about the run, from rank 0 only (IONF_LOG_LEVEL_INFO; not when quiet). */
void ionf_message0(const char *fmt, ...) IONF_PRINTF(1, 2);
/** Message about this rank (IONF_LOG_LEVEL_RANK_INFO; not when quiet). */
void ionf_message(const char *fmt, ...) IONF_PRINTF(1, 2);
/** Warning (IONF_LOG_LEVEL_WARNING), from any rank. */
void ionf_warning(const char *fmt, ...) IONF_PRINTF(1, 2);
/** Seconds since the process started (monotonic wall clock). */
double ionf_wtime(void);

#endif /* IONF_ERROR_H */
