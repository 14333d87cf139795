# Plane-parallel sources (planar_k.h, planar_cpu.c) and clumps in the initial conditions.
ionf_add_test(NAME test_planar_rates SOURCES test_planar_rates.c LABELS unit)
ionf_add_test(NAME test_clumps_paint SOURCES test_clumps_paint.c LABELS unit)
