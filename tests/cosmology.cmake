# Cosmology: flat LCDM background, the Shapiro & Giroux (1987) expanding H II region,
# and halo catalogues as sources (pyC2Ray Eq. 20).
ionf_add_test(NAME test_cosmology SOURCES test_cosmology.c LABELS unit)
ionf_add_test(NAME test_halos SOURCES test_halos.c LABELS unit)
# Halo masses to photon rates (grid/halo_model.h): f_gamma bit for bit, pyC2Ray's dpl f_star,
# f_esc, N_ion, accretion, C2-Ray's low-mass class and its suppression, against hand values.
ionf_add_test(NAME test_halo_model SOURCES test_halo_model.c LABELS unit)
# Halo files of sequence.halos.format c2ray (C2-Ray text source lists) and pyc2ray_hdf5.
ionf_add_test(NAME test_halos_formats SOURCES test_halos_formats.c LABELS unit)
