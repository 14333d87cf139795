# Validation against published results (validation/*.py, see validation/README.md).
# The quick mode runs in well under a minute; figures and tables go into the build
# folder, not docs/. The scripts exit 77 (skip) without numpy, h5py or matplotlib.
set(IONF_VALIDATION_PYTHON /usr/bin/python3 CACHE FILEPATH
    "Python 3 with numpy, h5py and matplotlib, for the validation tests")
add_test(NAME validation_iliev1_quick
         COMMAND ${IONF_VALIDATION_PYTHON} ${CMAKE_SOURCE_DIR}/validation/iliev1.py --quick
                 --ionfront $<TARGET_FILE:ionfront>
                 --run-dir ${CMAKE_BINARY_DIR}/validation_iliev1
                 --out ${CMAKE_BINARY_DIR}/validation_out)
set_tests_properties(validation_iliev1_quick PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600
                     LABELS validation)
