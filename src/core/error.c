/**
 * @file error.c
 * @brief The per-process error record, and messages handed to the log handler.
 */
#define _POSIX_C_SOURCE 200809L
#include "core/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static char error_message[2048];
static char error_trace[4096];
static int error_is_set = 0;
static int log_rank = 0;
static int log_verbosity = 1;
static void (*log_handler)(int level, const char *text, void *user) = NULL;
static void *log_user = NULL;

ionf_err ionf_error_set(ionf_err code, const char *fmt, ...) {
  if (!error_is_set) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(error_message, sizeof error_message, fmt, ap);
    va_end(ap);
    error_is_set = 1;
  }
  return code;
}

void ionf_error_trace(const char *func, const char *file, int line) {
  size_t used = strlen(error_trace);
  if (used + 1 < sizeof error_trace)
    snprintf(error_trace + used, sizeof error_trace - used, "  at %s (%s:%d)\n", func,
             file, line);
}

const char *ionf_error_message(void) { return error_message; }
const char *ionf_error_trace_text(void) { return error_trace; }

void ionf_error_clear(void) {
  error_message[0] = '\0';
  error_trace[0] = '\0';
  error_is_set = 0;
}

const char *ionf_error_name(ionf_err code) {
  switch (code) {
    case IONF_OK: return "success";
    case IONF_ERR_CONFIG: return "configuration error";
    case IONF_ERR_INPUT: return "input error";
    case IONF_ERR_IO: return "I/O error";
    case IONF_ERR_MEM: return "out of memory";
    case IONF_ERR_GPU: return "GPU error";
    case IONF_ERR_GPU_MEM: return "GPU out of memory";
    case IONF_ERR_MPI: return "MPI error";
    case IONF_ERR_UNSUPPORTED: return "not supported";
    case IONF_ERR_INTERNAL: return "internal error";
    case IONF_ERR_USAGE: return "usage error";
    case IONF_ERR_PEER: return "another rank failed";
    case IONF_STOPPED: return "stopped (checkpoint written)";
  }
  return "unknown error";
}

void *ionf_malloc(size_t bytes, const char *what) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p)
    ionf_error_set(IONF_ERR_MEM, "could not allocate %zu bytes for %s", bytes, what);
  return p;
}

void *ionf_calloc(size_t count, size_t size, const char *what) {
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p)
    ionf_error_set(IONF_ERR_MEM, "could not allocate %zu x %zu bytes for %s", count, size,
                   what);
  return p;
}

void ionf_log_set_handler(void (*fn)(int level, const char *text, void *user), void *user) {
  log_handler = fn;
  log_user = user;
}

void ionf_log_set_rank(int rank) { log_rank = rank; }
void ionf_log_set_verbosity(int level) { log_verbosity = level; }
int ionf_log_verbosity(void) { return log_verbosity; }

double ionf_wtime(void) {
  static struct timespec start;
  static int started = 0;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  if (!started) {
    start = now;
    started = 1;
  }
  return (double)(now.tv_sec - start.tv_sec) + 1e-9 * (double)(now.tv_nsec - start.tv_nsec);
}

/* Format and deliver one message; long texts get a heap buffer (never truncated). */
static void log_deliver(int level, const char *fmt, va_list ap) {
  void (*fn)(int, const char *, void *) = log_handler;
  if (!fn) return;
  char small[1024];
  va_list again;
  va_copy(again, ap);
  int len = vsnprintf(small, sizeof small, fmt, ap);
  if (len >= 0 && (size_t)len < sizeof small) {
    fn(level, small, log_user);
  } else if (len >= 0) {
    char *big = malloc((size_t)len + 1);
    if (big) {
      vsnprintf(big, (size_t)len + 1, fmt, again);
      fn(level, big, log_user);
      free(big);
    } else {
      fn(level, small, log_user); /* truncated rather than lost */
    }
  }
  va_end(again);
}

void ionf_message0(const char *fmt, ...) {
  if (log_rank != 0 || log_verbosity < 1) return;
  va_list ap;
  va_start(ap, fmt);
  log_deliver(IONF_LOG_LEVEL_INFO, fmt, ap);
  va_end(ap);
}

void ionf_message(const char *fmt, ...) {
  if (log_verbosity < 1) return;
  va_list ap;
  va_start(ap, fmt);
  log_deliver(IONF_LOG_LEVEL_RANK_INFO, fmt, ap);
  va_end(ap);
}

void ionf_warning(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  log_deliver(IONF_LOG_LEVEL_WARNING, fmt, ap);
  va_end(ap);
}
