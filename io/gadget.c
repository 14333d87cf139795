/**
 * @file gadget.c
 * @brief The Gadget layout's /Header attributes (gadget.h).
 */
#include "io/gadget.h"

#include <stdint.h>

#include "io/h5_util.h"

int gadget_put_header(hid_t header, const struct particle_set *p) {
  const uint64_t n = (uint64_t)p->count;
  uint32_t this_file[6] = {(uint32_t)(n & 0xffffffffu), 0, 0, 0, 0, 0};
  uint32_t high[6] = {(uint32_t)(n >> 32), 0, 0, 0, 0, 0};
  double mass_table[6] = {0, 0, 0, 0, 0, 0};
  int cube = p->box_size_cm[0] == p->box_size_cm[1] && p->box_size_cm[1] == p->box_size_cm[2];
  double box[3];
  for (int a = 0; a < 3; ++a) box[a] = p->has_box ? p->box_size_cm[a] : 0.0;
  const hid_t u32 = H5T_STD_U32LE, f64 = H5T_IEEE_F64LE;
  return h5_util_attr_put(header, "NumPart_ThisFile", u32, H5T_NATIVE_UINT32, 6, this_file) &&
         h5_util_attr_put(header, "NumPart_Total", u32, H5T_NATIVE_UINT32, 6, this_file) &&
         h5_util_attr_put(header, "NumPart_Total_HighWord", u32, H5T_NATIVE_UINT32, 6, high) &&
         h5_util_attr_put(header, "MassTable", f64, H5T_NATIVE_DOUBLE, 6, mass_table) &&
         h5_util_attr_put_int32(header, "NumFilesPerSnapshot", 1) &&
         h5_util_attr_put(header, "BoxSize", f64, H5T_NATIVE_DOUBLE, cube ? 0 : 3, box) &&
         h5_util_attr_put_double(header, "UnitLength_in_cm", 1.0) &&
         h5_util_attr_put_double(header, "UnitMass_in_g", 1.0) &&
         h5_util_attr_put_double(header, "UnitVelocity_in_cm_per_s", 1.0) &&
         h5_util_attr_put_int32(header, "Periodic", p->periodic ? 1 : 0);
}
