/**
 * @file test_h5_util.c
 * @brief The attribute helpers of io/h5_util: what the writers store (type, size,
 *        value) reads back through the readers; a failing writer returns 0 and leaves
 *        HDF5's reason on the error stack for h5_util_error_text (its cleanup calls
 *        would otherwise clear it); the readers' answers for missing attributes and
 *        wrong types.
 */
#include <hdf5.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "io/h5_util.h"
#include "test_util.h"

#define FILE_NAME "h5_util_test.h5"

/* The stored type of attribute `name`: its class, size and (strings) variable length. */
static void expect_type(hid_t obj, const char *name, H5T_class_t cls, size_t size,
                        int variable) {
  hid_t attr = H5Aopen(obj, name, H5P_DEFAULT);
  hid_t type = attr >= 0 ? H5Aget_type(attr) : -1;
  EXPECT(type >= 0, "attribute '%s' is missing", name);
  if (type >= 0) {
    EXPECT(H5Tget_class(type) == cls, "'%s': class %d, want %d", name, (int)H5Tget_class(type),
           (int)cls);
    if (variable) {
      EXPECT(H5Tis_variable_str(type) > 0, "'%s' is not a variable-length string", name);
      EXPECT(H5Tget_cset(type) == H5T_CSET_UTF8, "'%s' is not UTF-8", name);
    } else {
      EXPECT(H5Tget_size(type) == size, "'%s': %zu bytes, want %zu", name, H5Tget_size(type),
             size);
    }
    H5Tclose(type);
  }
  if (attr >= 0) H5Aclose(attr);
}

static void test_round_trip(hid_t file) {
  const double box[3] = {1.5, 2.5, 3.5};
  EXPECT(h5_util_attr_put_double(file, "d", 6.02e23) == 1, "put_double");
  EXPECT(h5_util_attr_put_int64(file, "i64", INT64_C(-1234567890123)) == 1, "put_int64");
  EXPECT(h5_util_attr_put_int32(file, "i32", -7) == 1, "put_int32");
  EXPECT(h5_util_attr_put_string(file, "s", "h\xc3\xa9llo") == 1, "put_string");
  EXPECT(h5_util_attr_put_string(file, "null", NULL) == 1, "put_string(NULL)");
  EXPECT(h5_util_attr_put(file, "box", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 3, box) == 1, "put");

  expect_type(file, "d", H5T_FLOAT, 8, 0);
  expect_type(file, "i64", H5T_INTEGER, 8, 0);
  expect_type(file, "i32", H5T_INTEGER, 4, 0);
  expect_type(file, "s", H5T_STRING, 0, 1);

  double d = 0.0, got_box[3] = {0, 0, 0};
  int64_t i64 = 0;
  int i32 = 0;
  EXPECT(h5_util_attr_get(file, FILE_NAME, "d", H5T_NATIVE_DOUBLE, &d) == IONF_OK && d == 6.02e23,
         "d read back as %g", d);
  EXPECT(h5_util_attr_get(file, FILE_NAME, "i64", H5T_NATIVE_INT64, &i64) == IONF_OK &&
             i64 == INT64_C(-1234567890123),
         "i64 read back as %lld", (long long)i64);
  EXPECT(h5_util_attr_try_get(file, "i32", H5T_NATIVE_INT, &i32) == 1 && i32 == -7,
         "i32 read back as %d", i32);
  EXPECT(h5_util_attr_get(file, FILE_NAME, "box", H5T_NATIVE_DOUBLE, got_box) == IONF_OK &&
             memcmp(got_box, box, sizeof box) == 0,
         "box read back as %g %g %g", got_box[0], got_box[1], got_box[2]);
  char text[16] = "x";
  EXPECT(h5_util_attr_get_string(file, "s", text, sizeof text) == 1 &&
             strcmp(text, "h\xc3\xa9llo") == 0,
         "s read back as '%s'", text);
  EXPECT(h5_util_attr_get_string(file, "null", text, sizeof text) == 1 && text[0] == '\0',
         "NULL read back as '%s'", text);
  char small[3];
  EXPECT(h5_util_attr_get_string(file, "s", small, sizeof small) == 1 && strcmp(small, "h\xc3") == 0,
         "truncation to 2 bytes");
}

static void test_errors(hid_t file) {
  /* a second attribute of the same name fails; the reason survives the cleanup */
  EXPECT(h5_util_attr_put_double(file, "d", 1.0) == 0, "put_double over an existing name");
  char reason[512];
  h5_util_error_text(reason, sizeof reason);
  EXPECT(strcmp(reason, "unknown HDF5 error") != 0, "the reason of the failure was lost");
  EXPECT(h5_util_attr_put_string(file, "s", "again") == 0, "put_string over an existing name");
  h5_util_error_text(reason, sizeof reason);
  EXPECT(strcmp(reason, "unknown HDF5 error") != 0, "the reason of the string failure was lost");

  double d = 42.0;
  EXPECT(h5_util_attr_try_get(file, "absent", H5T_NATIVE_DOUBLE, &d) == 0 && d == 42.0,
         "try_get of a missing attribute: returned 1 or wrote %g", d);
  ionf_error_clear();
  EXPECT(h5_util_attr_get(file, FILE_NAME, "absent", H5T_NATIVE_DOUBLE, &d) == IONF_ERR_IO,
         "attr_get of a missing attribute");
  EXPECT(strstr(ionf_error_message(), "'absent'") && strstr(ionf_error_message(), FILE_NAME),
         "message '%s' names neither the attribute nor the file", ionf_error_message());
  ionf_error_clear();
  char text[16] = "unchanged";
  EXPECT(h5_util_attr_get_string(file, "d", text, sizeof text) == 0 && text[0] == '\0',
         "get_string of a number: '%s'", text);
  EXPECT(h5_util_attr_get_string(file, "absent", text, sizeof text) == 0, "get_string: absent");
}

int main(void) {
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  hid_t file = H5Fcreate(FILE_NAME, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  EXPECT(file >= 0, "cannot create %s", FILE_NAME);
  if (file < 0) TEST_RETURN();
  test_round_trip(file);
  test_errors(file);
  H5Fclose(file);
  remove(FILE_NAME);
  TEST_RETURN();
}
