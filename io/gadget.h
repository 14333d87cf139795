/**
 * @file gadget.h
 * @brief The Gadget/SWIFT HDF5 layout's header, shared by the particle-set writer
 *        (io_particles_write) and the particle run's snapshots (sph_snapshot_write).
 */
#ifndef IONF_GADGET_H
#define IONF_GADGET_H

#include <hdf5.h>

#include "particles/particles.h"

/**
 * The attributes of /Header every Gadget reader needs, on the open group `header`:
 * NumPart_ThisFile, NumPart_Total, NumPart_Total_HighWord (all gas, type 0), MassTable
 * (zero: masses per particle), NumFilesPerSnapshot 1, BoxSize (a scalar for a cube;
 * zero without a box), units of cm, g and cm/s (UnitLength_in_cm = 1 ...) and Periodic.
 * The caller adds Redshift, Time and HubbleParam, which differ between the files.
 * 1, or 0 with HDF5's reason on its error stack (h5_util's writers' convention).
 */
int gadget_put_header(hid_t header, const struct particle_set *p);

#endif
