# Snapshots, output directory, step log, density and source readers, source lists.
ionf_add_test(NAME test_io SOURCES test_io.c LABELS unit)
# The output directory made by rank 0 for every rank, and its failures on every rank.
ionf_add_test(NAME test_output_dir SOURCES test_output_dir.c RANKS 3 LABELS unit mpi)
# The HDF5 attribute helpers (io/h5_util): types, values, failures and their reasons.
ionf_add_test(NAME test_h5_util SOURCES test_h5_util.c LABELS unit)
# tabulated source spectra (io/io_sed.c) (issue 21)
ionf_add_test(NAME test_io_sed SOURCES test_io_sed.c LABELS unit)
# Reading a box of the grid (io_field_read_box): wrapping boxes, bad values in and out of it
ionf_add_test(NAME test_io_box SOURCES test_io_box.c LABELS unit)
# CubeP3M density files (io/io_cubep3m.c): the layout, boxes, header and size refusals
ionf_add_test(NAME test_io_cubep3m SOURCES test_io_cubep3m.c LABELS unit)
