# End-to-end tests of the ionfront command line.
add_test(NAME cli_help COMMAND ionfront --help)
add_test(NAME cli_run_help COMMAND ionfront run --help)
add_test(NAME cli_version COMMAND ionfront --version)
set_tests_properties(cli_version PROPERTIES PASS_REGULAR_EXPRESSION "ionfront [0-9]+\\.[0-9]+\\.[0-9]+")
add_test(NAME cli_example_list COMMAND ionfront example)
set_tests_properties(cli_example_list PROPERTIES PASS_REGULAR_EXPRESSION "iliev1")
add_test(NAME cli_no_command COMMAND ionfront)
set_tests_properties(cli_no_command PROPERTIES WILL_FAIL TRUE)
add_test(NAME cli_bad_input COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_bad_input.sh $<TARGET_FILE:ionfront>)
add_test(NAME cli_small_run COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_small_run.sh $<TARGET_FILE:ionfront>
                                    ${CMAKE_CURRENT_SOURCE_DIR}/check_snapshot.py)
set_tests_properties(cli_bad_input cli_small_run PROPERTIES SKIP_RETURN_CODE 77)
# the job scripts find the clone's build/ionfront (issue 20)
add_test(NAME job_scripts COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/job_scripts.sh ${CMAKE_SOURCE_DIR}
                                  $<TARGET_FILE:ionfront>)
set_tests_properties(job_scripts PROPERTIES SKIP_RETURN_CODE 77 LABELS mpi)
# ranks x OpenMP threads beyond the node's cores: a warning (issue 20)
add_test(NAME cli_cores COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_cores.sh $<TARGET_FILE:ionfront>)
add_test(NAME cli_mpi_ranks COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_mpi_ranks.sh ${MPIEXEC_EXECUTABLE}
                                    $<TARGET_FILE:ionfront>)
set_tests_properties(cli_mpi_ranks PROPERTIES SKIP_RETURN_CODE 77 PROCESSORS 2 LABELS mpi)
add_test(NAME cli_restart COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_restart.sh ${MPIEXEC_EXECUTABLE}
                                  $<TARGET_FILE:ionfront>)
add_test(NAME cli_rank_failure COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_rank_failure.sh
                                       ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:ionfront>)
set_tests_properties(cli_restart cli_rank_failure PROPERTIES SKIP_RETURN_CODE 77 PROCESSORS 2
                     LABELS mpi TIMEOUT 300)
# a config from a pipe or a shell's <(...), read once (issue 20)
add_test(NAME cli_config_pipe COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_config_pipe.sh
                                      ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:ionfront>)
set_tests_properties(cli_config_pipe PROPERTIES PROCESSORS 2 LABELS mpi TIMEOUT 300)
# ionfront run --dry-run: checks inputs, prints the plan, writes nothing (issue 20)
add_test(NAME cli_dry_run COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_dry_run.sh
                                  ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:ionfront>)
set_tests_properties(cli_dry_run PROPERTIES PROCESSORS 2 LABELS mpi TIMEOUT 300)
# every command listed in --help; every help names the command typed (issue 20)
add_test(NAME cli_help_texts COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_help.sh $<TARGET_FILE:ionfront>
                                     $<TARGET_FILE:ionfront-particles>)
add_test(NAME cli_restart_compat COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_restart_compat.sh
                                         $<TARGET_FILE:ionfront>)
set_tests_properties(cli_restart_compat PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
add_test(NAME cli_output_dir COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_output_dir.sh ${MPIEXEC_EXECUTABLE}
                                     $<TARGET_FILE:ionfront>)
set_tests_properties(cli_output_dir PROPERTIES PROCESSORS 2 LABELS mpi TIMEOUT 300)
add_test(NAME cli_interrupt COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_interrupt.sh ${MPIEXEC_EXECUTABLE}
                                    $<TARGET_FILE:ionfront>)
set_tests_properties(cli_interrupt PROPERTIES SKIP_RETURN_CODE 77 PROCESSORS 2 LABELS mpi TIMEOUT 300)
# a grid run with helium through the command line, with a restart (issue 21)
add_test(NAME cli_helium COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_helium.sh $<TARGET_FILE:ionfront>)
set_tests_properties(cli_helium PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
# grid.decomposition: slabs on 2 and 3 ranks = replicated to 1e-12, restarts across rank counts
add_test(NAME cli_decomp COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_decomp.sh ${MPIEXEC_EXECUTABLE}
                                 $<TARGET_FILE:ionfront>)
set_tests_properties(cli_decomp PROPERTIES SKIP_RETURN_CODE 77 PROCESSORS 2 LABELS mpi)
# ionfront convert: pyC2Ray parameter files (tests/data/pyc2ray/, written for the tests)
# made into configs that pass --dry-run; bad files and options refused (issue 25)
add_test(NAME cli_convert COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_convert.sh $<TARGET_FILE:ionfront>
                                  ${CMAKE_CURRENT_SOURCE_DIR}/data/pyc2ray)
# its commented sequence template, uncommented as its note says, passes --dry-run with tiny
# CubeP3M densities and pyC2Ray HDF5 source lists (h5import: hdf5-tools)
add_test(NAME cli_convert_template COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_convert_template.sh
                                           $<TARGET_FILE:ionfront> ${CMAKE_CURRENT_SOURCE_DIR}/data/pyc2ray)
set_tests_properties(cli_convert_template PROPERTIES SKIP_RETURN_CODE 77)
