# Exports for other codes: C2-Ray grid files, XDMF sidecars, the 21-cm brightness temperature.
ionf_add_test(NAME test_exports SOURCES test_exports.c LABELS unit)
