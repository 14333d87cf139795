/**
 * @file test_tmpdir.h
 * @brief A fresh temporary directory for a test's files: made by mkdtemp under
 *        $TMPDIR (else /tmp), and removed with everything in it at the end, so that a
 *        test writes neither into the source tree nor into the directory it is run from.
 *        The including file defines _XOPEN_SOURCE 700 (mkdtemp, nftw) before its first
 *        #include.
 */
#ifndef IONF_TEST_TMPDIR_H
#define IONF_TEST_TMPDIR_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/** Makes DIR = $TMPDIR/STEM_XXXXXX (size bytes); 1 on success, 0 (and a message) not. */
static inline int test_tmpdir_make(char *dir, size_t size, const char *stem) {
  const char *root = getenv("TMPDIR");
  if (!root || !root[0]) root = "/tmp";
  int n = snprintf(dir, size, "%s/%s_XXXXXX", root, stem);
  if (n < 0 || (size_t)n >= size || !mkdtemp(dir)) {
    fprintf(stderr, "cannot make a temporary directory %s/%s_XXXXXX\n", root, stem);
    return 0;
  }
  return 1;
}

static inline int test_tmpdir_remove_entry(const char *path, const struct stat *sb, int flag,
                                           struct FTW *ftw) {
  (void)sb, (void)flag, (void)ftw;
  return remove(path);
}

/** Removes DIR and everything in it; 1 on success. */
static inline int test_tmpdir_remove(const char *dir) {
  return nftw(dir, test_tmpdir_remove_entry, 16, FTW_DEPTH | FTW_PHYS) == 0;
}

/* The directory the test ran from, while test_tmpdir_enter holds it. */
static char test_tmpdir_home[4096];

/** Makes a fresh temporary directory (test_tmpdir_make) and changes into it, so that
 *  the test's relative paths land there; 1 on success. */
static inline int test_tmpdir_enter(char *dir, size_t size, const char *stem) {
  if (!getcwd(test_tmpdir_home, sizeof test_tmpdir_home)) return 0;
  if (!test_tmpdir_make(dir, size, stem)) return 0;
  if (chdir(dir) != 0) {
    test_tmpdir_remove(dir);
    return 0;
  }
  return 1;
}

/** Back to the directory the test ran from, and DIR removed; 1 on success. */
static inline int test_tmpdir_leave(const char *dir) {
  int ok = chdir(test_tmpdir_home) == 0;
  return test_tmpdir_remove(dir) && ok;
}

#endif
