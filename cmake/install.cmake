# cmake --install: the program, the libraries and public headers, the kernels, plans and tuning
# database, and a CMake package: find_package(plumbline CONFIG REQUIRED) gives plumbline::check (kernel
# checks and the GoogleTest helpers of testing/gtest.hpp) and the libraries under it (docs/extending.md).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set_target_properties(plumbline_core PROPERTIES EXPORT_NAME core)
set_target_properties(plumbline_reference PROPERTIES EXPORT_NAME reference)
set_target_properties(plumbline_check PROPERTIES EXPORT_NAME host_check)
set_target_properties(plumbline_opencl PROPERTIES EXPORT_NAME opencl)
set_target_properties(plumbline_kernel_check PROPERTIES EXPORT_NAME check)
install(TARGETS plumbline_core plumbline_reference plumbline_plans plumbline_check plumbline_opencl plumbline_kernel_check
        EXPORT plumblineTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS plumbline RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
foreach(dir core reference plans check opencl testing)
  install(DIRECTORY ${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/plumbline/${dir}
          FILES_MATCHING PATTERN "*.hpp" PATTERN "kernels" EXCLUDE PATTERN "tuning" EXCLUDE)
endforeach()
install(DIRECTORY opencl/kernels/ DESTINATION ${CMAKE_INSTALL_DATADIR}/plumbline/kernels)
install(DIRECTORY opencl/tuning/ DESTINATION ${CMAKE_INSTALL_DATADIR}/plumbline/tuning)

install(EXPORT plumblineTargets NAMESPACE plumbline:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/plumbline)
configure_package_config_file(cmake/plumblineConfig.cmake.in ${CMAKE_BINARY_DIR}/plumblineConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/plumbline
                              PATH_VARS CMAKE_INSTALL_DATADIR CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/plumblineConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/plumblineConfig.cmake ${CMAKE_BINARY_DIR}/plumblineConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/plumbline)
