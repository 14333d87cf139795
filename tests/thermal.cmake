# Thermal radiation in absorbing-emitting media (src/thermal, issue 26)
# the grey slab (seed cases 1-2) against the exact Q^R, sigma honest (chi^2)
ionf_add_test(NAME test_thermal_slab SOURCES test_thermal_slab.c LABELS unit)
