# Thermal radiation in absorbing-emitting media (src/thermal, issue 26)
# the grey slab (seed cases 1-2) against the exact Q^R, sigma honest (chi^2)
ionf_add_test(NAME test_thermal_slab SOURCES test_thermal_slab.c LABELS unit)
# an isothermal enclosure gives exactly 0 (difference form), grey and WSGG, multigrid, sorted
ionf_add_test(NAME test_thermal_isothermal SOURCES test_thermal_isothermal.c LABELS unit)
# the same bits on 1 and 2 threads and with the range split in two
ionf_add_test(NAME test_thermal_repeat SOURCES test_thermal_repeat.c LABELS unit)
# wall patches' net flux vs the exact slab, black and grey diffuse walls (reflections)
ionf_add_test(NAME test_thermal_walls SOURCES test_thermal_walls.c LABELS unit)
# the slab's error falls as 1/sqrt(N) (N and 16 N rays)
ionf_add_test(NAME test_thermal_convergence SOURCES test_thermal_convergence.c LABELS unit)
# multigrid: the seed's Table 5 from eq. 25, coarse level sizes, 3 levels within sigma of 1
ionf_add_test(NAME test_thermal_multigrid SOURCES test_thermal_multigrid.c LABELS unit)
# the Bordbar 2014 WSGG: weights, emissivity vs Smith 1982, MC slab vs exact (drawn, sorted gases)
ionf_add_test(NAME test_thermal_wsgg SOURCES test_thermal_wsgg.c LABELS unit)
# validation/thermal.py's helper (not a test): the exact slab of a run's cells, the cube's line
add_executable(thermal_tool thermal_tool.c)
target_link_libraries(thermal_tool PRIVATE ionfront_core)
target_compile_options(thermal_tool PRIVATE $<$<COMPILE_LANGUAGE:C>:${IONF_WARNINGS}>)
if(IONFRONT_CUDA)
  set_target_properties(thermal_tool PROPERTIES LINKER_LANGUAGE CUDA)
endif()
# bad set-ups and fields refused with messages naming the key or the cell
ionf_add_test(NAME test_thermal_setup SOURCES test_thermal_setup.c LABELS unit)
if(IONFRONT_CUDA)
  # the CUDA solve against the CPU's (grey slab; WSGG box, sorted gases, multigrid); plain
  # loads and device arrays give the same bits; skips (77) without a GPU
  ionf_add_test(NAME test_thermal_gpu SOURCES test_thermal_gpu.cu LABELS gpu)
endif()
