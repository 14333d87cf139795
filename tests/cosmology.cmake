# Cosmology: flat LCDM background, the Shapiro & Giroux (1987) expanding H II region,
# and halo catalogues as sources (pyC2Ray Eq. 20).
ionf_add_test(NAME test_cosmology SOURCES test_cosmology.c LABELS unit)
ionf_add_test(NAME test_halos SOURCES test_halos.c LABELS unit)
