# Validation against published results and analytic solutions (validation/*.py,
# see validation/README.md). Each script runs ionfront, checks and writes figures;
# in CI the figures and tables go into the build folder, not docs/. The scripts
# exit 77 (skip) without numpy, h5py or matplotlib.  -DIONFRONT_VALIDATION_TESTS=OFF
# leaves them out (scripts/test.sh: the CPU-only build beside a CUDA one).
if(NOT IONFRONT_VALIDATION_TESTS)
  return()
endif()
set(IONF_VALIDATION_PYTHON /usr/bin/python3 CACHE FILEPATH
    "Python 3 with numpy, h5py and matplotlib, for the validation tests")

# ionf_validation_test(TEST_NAME SCRIPT_NAME [extra script arguments...])
function(ionf_validation_test test_name script)
  add_test(NAME ${test_name}
           COMMAND ${IONF_VALIDATION_PYTHON} ${CMAKE_SOURCE_DIR}/validation/${script}.py ${ARGN}
                   --ionfront $<TARGET_FILE:ionfront>
                   --run-dir ${CMAKE_BINARY_DIR}/validation_${script}
                   --out ${CMAKE_BINARY_DIR}/validation_out)
  set_tests_properties(${test_name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600
                       LABELS validation
                       ENVIRONMENT PYTHONDONTWRITEBYTECODE=1) # no validation/__pycache__
endfunction()

ionf_validation_test(validation_iliev1_quick iliev1 --quick)       # 64^3, a few seconds
ionf_validation_test(validation_iliev2_quick iliev2 --quick)       # 48^3, ~15 s
ionf_validation_test(validation_expanding_quick expanding --quick) # 64^3, ~10 s
ionf_validation_test(validation_dice dice)                         # the built-in 128^3, ~20 s
ionf_validation_test(validation_iliev3_quick iliev3 --quick)       # 48^3, dt = 0.1 Myr, ~12 s
ionf_validation_test(validation_iliev4_quick iliev4 --quick)       # 32^3 stand-in field, ~15 s
ionf_validation_test(validation_eor_quick eor --quick)             # 24^3, dt = 25 Myr, ~15 s
ionf_validation_test(validation_mc_iliev1_quick mc_iliev1 --quick) # 32^3, ASORA + 3 Monte Carlo runs, ~20 s idle
ionf_validation_test(validation_sph_iliev1_quick sph_iliev1 --quick) # 16^3 particles, ~15 s
ionf_validation_test(validation_sph_iliev2_quick sph_iliev2 --quick) # 16^3 particles + 48^3 grid, ~40 s
ionf_validation_test(validation_sph_iliev4_quick sph_iliev4 --quick) # 16^3 particles + 16^3 grid to 0.05 Myr, ~35 s

# Without the comparison project's data (../shared/reference: absent for users and CI)
# the scripts whose checks need it exit 77 (skip), never 0: run with --reference pointing
# at a folder that does not exist.
foreach(script iliev2 iliev3)
  add_test(NAME validation_${script}_noref
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/expect_skip.sh "no reference data"
                   ${IONF_VALIDATION_PYTHON} ${CMAKE_SOURCE_DIR}/validation/${script}.py --quick
                   --reference ${CMAKE_BINARY_DIR}/no_reference_data_here
                   --ionfront $<TARGET_FILE:ionfront>
                   --run-dir ${CMAKE_BINARY_DIR}/validation_${script}_noref
                   --out ${CMAKE_BINARY_DIR}/validation_noref_out)
  set_tests_properties(validation_${script}_noref PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600
                       LABELS validation ENVIRONMENT PYTHONDONTWRITEBYTECODE=1)
endforeach()
ionf_validation_test(validation_helium_quick helium --quick)       # 32^3, H + He, ~10 s
ionf_validation_test(validation_eor_helium_quick eor_helium --quick) # 16^3: eor_helium, eor, 5e4 K, ~40 s

# A py21cmfast 4 run (16^3, z = 9, 8.5, 8) and ionfront on its files
# (validation/py21cmfast_run.py).  With IONF_21CMFAST_PYTHON (a Python that has py21cmfast,
# numpy and h5py) it runs there; otherwise tests/py21cmfast_venv.sh installs py21cmfast
# 4.1.1 from PyPI into a virtual environment in the build folder (about 70 s on 2 cores,
# once; it compiles C with Debian's FFTW and GSL) and runs it with that, skipping (77)
# only when PyPI cannot be reached.  The run itself takes ~15 s.
set(IONF_21CMFAST_PYTHON "" CACHE FILEPATH
    "Python 3 with py21cmfast, numpy and h5py, for validation_py21cmfast (empty: a venv from PyPI)")
if(IONF_21CMFAST_PYTHON)
  add_test(NAME validation_py21cmfast
           COMMAND ${IONF_21CMFAST_PYTHON} ${CMAKE_SOURCE_DIR}/validation/py21cmfast_run.py
                   --ionfront $<TARGET_FILE:ionfront>
                   --run-dir ${CMAKE_BINARY_DIR}/validation_py21cmfast
                   --out ${CMAKE_BINARY_DIR}/validation_out)
else()
  add_test(NAME validation_py21cmfast
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/py21cmfast_venv.sh ${CMAKE_SOURCE_DIR}
                   ${CMAKE_BINARY_DIR} $<TARGET_FILE:ionfront> ${IONF_VALIDATION_PYTHON})
endif()
set_tests_properties(validation_py21cmfast PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900
                     PROCESSORS 2 LABELS "validation;network" ENVIRONMENT PYTHONDONTWRITEBYTECODE=1)
ionf_validation_test(validation_thermal_quick thermal --quick)     # the grey slab, ~2 s
