# Snapshots, output directory, step log, density and source readers, source lists.
ionf_add_test(NAME test_io SOURCES test_io.c LABELS unit)
