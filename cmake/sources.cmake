# Layers, bottom up. Each folder lists its own sources explicitly.
add_subdirectory(sim/core)
add_subdirectory(sim/ir)
add_subdirectory(frontend)
add_subdirectory(hw_models)
add_subdirectory(sim/opt)
add_subdirectory(sim/sched)
add_subdirectory(sim/joint)
add_subdirectory(sim/serve)
add_subdirectory(sim/results)
add_subdirectory(sim/engine)
add_subdirectory(sim/point)
add_subdirectory(sim/stages)
add_subdirectory(sim/sweep)
add_subdirectory(sim/dataset)
add_subdirectory(sim/validate)
add_subdirectory(sim/app)

# The libraries compile as unity builds of up to 16 sources each: a clean build (what CI does,
# twice: Release and the sanitizers) parses the standard, yaml-cpp and SystemC headers once per
# batch instead of once per file. Measured in docs/PERFORMANCE.md ("CI time"). A helper in an
# anonymous namespace must therefore be unique in its library (share it instead: sim/core).
foreach(lib lc_core lc_ir lc_frontend lc_hw lc_hw_sc lc_families lc_opt lc_sched lc_joint lc_serve
            lc_results lc_engine lc_point lc_stages lc_sweep lc_dataset lc_validate)
  set_target_properties(${lib} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 16)
endforeach()
