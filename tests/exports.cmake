# Exports for other codes: C2-Ray grid files, viewer sidecars (XDMF, VTKHDF), the 21-cm brightness temperature.
ionf_add_test(NAME test_exports SOURCES test_exports.c LABELS unit)
# the viewer sidecars (XDMF with a transposed copy, VTKHDF with links): axes right (issue 20)
ionf_add_test(NAME test_sidecars SOURCES test_sidecars.c LABELS unit)
# the same seen by ParaView itself (pvpython; skips without it)
add_test(NAME viewer_axes COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/viewer_axes.sh $<TARGET_FILE:ionfront>
                                  ${CMAKE_CURRENT_SOURCE_DIR}/viewer_axes.py)
set_tests_properties(viewer_axes PROPERTIES SKIP_RETURN_CODE 77)
