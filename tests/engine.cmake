# The engine's pure helpers: the ETA of the progress lines.
ionf_add_test(NAME test_engine_eta SOURCES test_engine_eta.c LABELS unit)
