# Config module: units, YAML tree and overrides, built-in problems, validation messages.
ionf_add_test(NAME test_config SOURCES test_config.c LABELS unit)
ionf_add_test(NAME test_config_compare SOURCES test_config_compare.c LABELS unit)
