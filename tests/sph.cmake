# SPH particles: Morton keys, the BVH (CPU reference; the GPU build against it),
# particle files, the test-particle generator.
ionf_add_test(NAME test_bvh_morton SOURCES test_bvh_morton.c LABELS unit)
ionf_add_test(NAME test_bvh_build SOURCES test_bvh_build.c LABELS unit)
ionf_add_test(NAME test_particles_make SOURCES test_particles_make.c LABELS unit)
ionf_add_test(NAME test_particles_io SOURCES test_particles_io.c LABELS unit)
if(IONFRONT_CUDA)
  # GPU tree == CPU tree, bit for bit; skips (77) without a GPU
  ionf_add_test(NAME test_bvh_gpu SOURCES test_bvh_gpu.c LABELS gpu)
  # the particle chemistry kernel against the CPU pass; skips (77) without a GPU
  ionf_add_test(NAME test_chem_gpu SOURCES test_chem_gpu.c LABELS gpu)
  # hydrogen and helium on particles: the CUDA tracer (both schedules) and the staged
  # chemistry against the CPU's; prints the worst differences; skips (77) without a GPU
  ionf_add_test(NAME test_sph_helium_gpu SOURCES test_sph_helium_gpu.c LABELS gpu TIMEOUT 300)
endif()
add_test(NAME cli_particles COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_particles.sh
                                    $<TARGET_FILE:ionfront-particles>)
set_tests_properties(cli_particles PROPERTIES SKIP_RETURN_CODE 77 LABELS unit)
# without h5py the file's contents cannot be checked: a skip (77), not a pass
add_test(NAME cli_particles_no_h5py
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/expect_skip.sh "not checked"
                 ${CMAKE_CURRENT_SOURCE_DIR}/without_h5py.sh
                 ${CMAKE_CURRENT_SOURCE_DIR}/cli_particles.sh $<TARGET_FILE:ionfront-particles>)
set_tests_properties(cli_particles_no_h5py PROPERTIES SKIP_RETURN_CODE 77 LABELS unit)
# SPH ray tracing: kernel column table, volume integrals, hits, photon conservation
ionf_add_test(NAME test_sph_kernel_table SOURCES test_sph_kernel_table.c LABELS unit)
ionf_add_test(NAME test_sph_trace_volume SOURCES test_sph_trace_volume.c LABELS unit)
ionf_add_test(NAME test_sph_trace_cpu SOURCES test_sph_trace_cpu.c LABELS unit)
# periodic boxes: the tracer against an explicit tiling of images, photon
# conservation in a closed thick box, image enumeration, bad input, deposition
ionf_add_test(NAME test_sph_trace_periodic SOURCES test_sph_trace_periodic.c LABELS unit)
# GPU tracer == CPU tracer; skips (77) without a GPU (in a CPU-only build after
# checking that sph_trace_cuda says unsupported)
ionf_add_test(NAME test_sph_trace_gpu SOURCES test_sph_trace_gpu.c LABELS gpu TIMEOUT 600)

# The particle engine (src/sph_engine.h) with injected tracers: analytic chemistry,
# config errors, snapshots; and the same answer on 1-4 ranks.
ionf_add_test(NAME test_sph_engine SOURCES test_sph_engine.c LABELS unit)
add_test(NAME sph_mpi_ranks COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/sph_mpi_ranks.sh ${MPIEXEC_EXECUTABLE}
                                   $<TARGET_FILE:test_sph_engine>)
set_tests_properties(sph_mpi_ranks PROPERTIES SKIP_RETURN_CODE 77 PROCESSORS 2 LABELS mpi)
# particle runs' chemistry split among the ranks by blocks of particles (mpi.reduction auto
# = scatter) and the all-reduce: 2 and 3 ranks = 1 rank to 1e-12, hydrogen (thermal) and helium
add_test(NAME cli_particles_split COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_particles_split.sh
                                          ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:ionfront>)
set_tests_properties(cli_particles_split PROPERTIES SKIP_RETURN_CODE 77 PROCESSORS 2 LABELS mpi)
# `ionfront run` on particles: bad input, 1 vs 3 ranks with the CPU tracer, snapshot layout
add_test(NAME cli_particles_run COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_particles_run.sh
                                        ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:ionfront>)
set_tests_properties(cli_particles_run PROPERTIES SKIP_RETURN_CODE 77 PROCESSORS 2 LABELS mpi)
# without h5diff the ranks' snapshots cannot be compared: a skip (77), not a pass
add_test(NAME cli_particles_run_no_h5diff
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/expect_skip.sh "not compared"
                 ${CMAKE_CURRENT_SOURCE_DIR}/without_tool.sh h5diff
                 ${CMAKE_CURRENT_SOURCE_DIR}/cli_particles_run.sh ${MPIEXEC_EXECUTABLE}
                 $<TARGET_FILE:ionfront>)
set_tests_properties(cli_particles_run_no_h5diff PROPERTIES SKIP_RETURN_CODE 77 PROCESSORS 2
                     LABELS mpi)
# particles from a density grid (kind density_file) and a grid source file: the
# built-in iliev4_particles at 16^3, bad input
add_test(NAME cli_particles_density COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_particles_density.sh
                                            $<TARGET_FILE:ionfront>)
set_tests_properties(cli_particles_density PROPERTIES LABELS unit)
# particle checkpoints and restarts: stopped + restarted = uninterrupted (bit for bit on
# 1 and 2 ranks, 1e-12 across rank counts), checkpoint_every, refused restarts
add_test(NAME cli_particles_restart COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_particles_restart.sh
                                            ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:ionfront>)
set_tests_properties(cli_particles_restart PROPERTIES SKIP_RETURN_CODE 77 PROCESSORS 2 LABELS mpi
                     TIMEOUT 300)
# particle configs in their own terms: R_max a length, grid-only keys refused (issue 20)
ionf_add_test(NAME test_sph_config_refuse SOURCES test_sph_config_refuse.c LABELS unit)
# hydrogen and helium on particles: fronts at the Stroemgren radii and the grid's, the
# helium datasets, the species in --dry-run; a thermal helium restart bit for bit
add_test(NAME cli_particles_helium COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_particles_helium.sh
                                           $<TARGET_FILE:ionfront> ${PROJECT_SOURCE_DIR})
set_tests_properties(cli_particles_helium PROPERTIES SKIP_RETURN_CODE 77 PROCESSORS 2 LABELS unit
                     TIMEOUT 300)
add_test(NAME cli_particles_helium_restart
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_particles_helium_restart.sh $<TARGET_FILE:ionfront>)
set_tests_properties(cli_particles_helium_restart PROPERTIES SKIP_RETURN_CODE 77 LABELS unit)
