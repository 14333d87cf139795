# Sub-grid models (issue 25): chemistry.clumping and raytracing.mean_free_path.
# the clumping models, the built-in fits and the table reader (src/chem/clumping.h)
ionf_add_test(NAME test_clumping_model SOURCES test_clumping_model.c LABELS unit)
# the clumping factor in the chemistry maths (chem_k.h, chem_he_k.h, chem_cpu.c)
ionf_add_test(NAME test_chem_clumping SOURCES test_chem_clumping.c LABELS unit)
# the mean-free-path models and their range over redshift (src/rt/mfp.h)
ionf_add_test(NAME test_mfp_model SOURCES test_mfp_model.c LABELS unit)
# chemistry.clumping and raytracing.mean_free_path in the config: values, the planned
# photon radius, the effective config, the refusals naming the key, particle runs
ionf_add_test(NAME test_config_subgrid SOURCES test_config_subgrid.c LABELS unit)
# a run's photon radius and clumping factor step by step, and the tracer using the step's
# radius (CPU)
ionf_add_test(NAME test_engine_subgrid SOURCES test_engine_subgrid.c LABELS unit TIMEOUT 300)
# through the command line: clumping: 5 = alpha_B x 5 to 1e-12, the start-up and --dry-run
# lines, refusals naming the key, the snapshots' R_max_cells and clumping_factor
add_test(NAME cli_subgrid COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_subgrid.sh $<TARGET_FILE:ionfront>)
set_tests_properties(cli_subgrid PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
if(IONFRONT_CUDA)
  # the CUDA chemistry with a clumping factor per cell against the CPU's (skips without a GPU)
  ionf_add_test(NAME test_chem_clumping_gpu SOURCES test_chem_clumping_gpu.c LABELS gpu)
  # the same on the CUDA backend, and its x_HII against the CPU's (skips without a GPU)
  ionf_add_test(NAME test_engine_subgrid_gpu SOURCES test_engine_subgrid.c ARGS cuda LABELS gpu
                TIMEOUT 300)
endif()
# on a grid split in slabs: halos sized for the largest R(z), the density model's mean over
# the ranks; 2 ranks = 1 rank to 1e-12
add_test(NAME cli_subgrid_slabs COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_subgrid_slabs.sh
                                        ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:ionfront>)
set_tests_properties(cli_subgrid_slabs PROPERTIES SKIP_RETURN_CODE 77 PROCESSORS 2 LABELS mpi
                     TIMEOUT 300)
