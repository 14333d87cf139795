# Validation against published results, Iliev Test 2 and the expanding universe
# (validation/iliev2.py, validation/expanding.py; see validation/README.md). Quick
# mode as for validation_iliev1_quick: figures and tables go into the build folder,
# not docs/; the scripts exit 77 (skip) without numpy, h5py or matplotlib.
set(IONF_VALIDATION_PYTHON /usr/bin/python3 CACHE FILEPATH
    "Python 3 with numpy, h5py and matplotlib, for the validation tests")
add_test(NAME validation_iliev2_quick
         COMMAND ${IONF_VALIDATION_PYTHON} ${CMAKE_SOURCE_DIR}/validation/iliev2.py --quick
                 --ionfront $<TARGET_FILE:ionfront>
                 --run-dir ${CMAKE_BINARY_DIR}/validation_iliev2
                 --out ${CMAKE_BINARY_DIR}/validation_out)
set_tests_properties(validation_iliev2_quick PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600
                     LABELS validation)
add_test(NAME validation_expanding_quick
         COMMAND ${IONF_VALIDATION_PYTHON} ${CMAKE_SOURCE_DIR}/validation/expanding.py --quick
                 --ionfront $<TARGET_FILE:ionfront>
                 --run-dir ${CMAKE_BINARY_DIR}/validation_expanding
                 --out ${CMAKE_BINARY_DIR}/validation_out)
set_tests_properties(validation_expanding_quick PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600
                     LABELS validation)
# dice: the built-in 128^3 problem itself (about 20 s of steps); symmetry and fronts
add_test(NAME validation_dice
         COMMAND ${IONF_VALIDATION_PYTHON} ${CMAKE_SOURCE_DIR}/validation/dice.py
                 --ionfront $<TARGET_FILE:ionfront>
                 --run-dir ${CMAKE_BINARY_DIR}/validation_dice
                 --out ${CMAKE_BINARY_DIR}/validation_out)
set_tests_properties(validation_dice PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600
                     LABELS validation)
