# Synthetic cosmological inputs: power spectrum and growth, Gaussian random fields,
# haloes (Test 4 peaks, extended Press-Schechter), the files and the synthetic: section.
ionf_add_test(NAME test_synth_spectrum SOURCES test_synth_spectrum.c LABELS unit)
ionf_add_test(NAME test_synth_grf SOURCES test_synth_grf.c LABELS unit)
ionf_add_test(NAME test_synth_halos SOURCES test_synth_halos.c LABELS unit)
ionf_add_test(NAME test_synth_files SOURCES test_synth_files.c LABELS unit)
ionf_add_test(NAME test_synth_config SOURCES test_synth_config.c LABELS unit)
add_test(NAME cli_synth COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli_synth.sh $<TARGET_FILE:ionfront>)
set_tests_properties(cli_synth PROPERTIES LABELS cli TIMEOUT 300)
