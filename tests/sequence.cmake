# Production runs (config sequence:): density files and halo catalogues read as the
# run advances.  test_sequence: the config rules, the exact density switch, sources
# following the catalogues, intervals without halos, bad inputs (CPU).
# cli_sequence: bad inputs through the command line, 1 vs 2 MPI ranks, restarts
# mid-sequence bit for bit.  test_sequence_gpu: CPU vs CUDA (skips without a GPU).
ionf_add_test(NAME test_sequence SOURCES test_sequence.c LABELS physics)
# 16^3 cells: on a loaded 2-core machine a second thread only waits at barriers
# (0.8 s alone, 22 s with two threads under a parallel build)
set_tests_properties(test_sequence PROPERTIES ENVIRONMENT OMP_NUM_THREADS=1)
add_test(NAME cli_sequence COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_sequence.sh ${MPIEXEC_EXECUTABLE}
                                   $<TARGET_FILE:ionfront>)
set_tests_properties(cli_sequence PROPERTIES SKIP_RETURN_CODE 77 PROCESSORS 2 LABELS mpi TIMEOUT 300)
if(IONFRONT_CUDA)
  ionf_add_test(NAME test_sequence_gpu SOURCES test_sequence_gpu.c LABELS gpu TIMEOUT 600)
endif()
# test_halos_sequence: sequence.halos' source models and halo-list formats (c2ray,
# pyc2ray_hdf5) through the config and the engine: per-source Ndot against hand values,
# 2-redshift runs, C2-Ray's suppression of low-mass haloes; the config's refusals (CPU).
ionf_add_test(NAME test_halos_sequence SOURCES test_halos_sequence.c LABELS physics)
set_tests_properties(test_halos_sequence PROPERTIES ENVIRONMENT OMP_NUM_THREADS=1)
# cli_halo_formats: C2-Ray and pyC2Ray halo files through the command line: rates by hand,
# low-mass suppression, 1 vs 2 ranks (slabs), restarts bit for bit, bad inputs.
add_test(NAME cli_halo_formats COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_halo_formats.sh
                                       ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:ionfront>)
set_tests_properties(cli_halo_formats PROPERTIES SKIP_RETURN_CODE 77 PROCESSORS 2 LABELS mpi TIMEOUT 300)
# Density files in other formats (sequence.density.format, sequence.halos.format):
# cli_inputs_cubep3m: CubeP3M binaries as tools21cm lays them out; cli_inputs_21cmfast:
# py21cmfast 4 PerturbedField and (Perturbed)HaloCatalog files (written by h5py).  Each:
# n_H as documented in every cell, 1 rank = 2 ranks in slabs, refusals by --dry-run.
foreach(format cubep3m 21cmfast)
  add_test(NAME cli_inputs_${format}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_inputs_${format}.sh ${MPIEXEC_EXECUTABLE}
                   $<TARGET_FILE:ionfront>)
  set_tests_properties(cli_inputs_${format} PROPERTIES SKIP_RETURN_CODE 77 PROCESSORS 2
                       LABELS mpi TIMEOUT 300)
endforeach()
