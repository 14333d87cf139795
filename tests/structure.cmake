# The shape rules of the code (docs/design.md, "Layers"): no include cycle between
# concept folders, no source file over 800 lines, no function over 120 lines.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  add_test(NAME structure_rules
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/check_structure.py ${CMAKE_SOURCE_DIR})
  set_tests_properties(structure_rules PROPERTIES LABELS unit)
endif()
