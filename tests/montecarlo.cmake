# Monte Carlo photon packets (raytracing.method: montecarlo; src/mc*.{c,h}, gpu/mc_trace.cu)
ionf_add_test(NAME test_mc_philox SOURCES test_mc_philox.c LABELS unit)
ionf_add_test(NAME test_mc_dda SOURCES test_mc_dda.c LABELS unit)
ionf_add_test(NAME test_mc_rates SOURCES test_mc_rates.c LABELS unit)
