# Config module: units, YAML tree and overrides, built-in problems, validation messages.
ionf_add_test(NAME test_config SOURCES test_config.c LABELS unit)
# --set time.t_end shortens any run (later outputs dropped with a note); --set mistakes
# name the --set (issue 20)
ionf_add_test(NAME test_config_shorten SOURCES test_config_shorten.c LABELS unit)
# point sources by length; source cells in each file's own convention in messages (issue 20)
ionf_add_test(NAME test_config_source_lengths SOURCES test_config_source_lengths.c LABELS unit)
ionf_add_test(NAME test_config_compare SOURCES test_config_compare.c LABELS unit)
# helium's config keys and what helium refuses (issue 21)
ionf_add_test(NAME test_config_helium SOURCES test_config_helium.c LABELS unit)
# ionfront convert: every key of pyC2Ray's parameter file converted or listed, units and
# frames (issue 25)
ionf_add_test(NAME test_convert_pyc2ray SOURCES test_convert_pyc2ray.c LABELS unit)
