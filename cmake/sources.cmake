# Layers, bottom up. Each folder lists its own sources explicitly.
add_subdirectory(sim/core)
add_subdirectory(sim/ir)
add_subdirectory(frontend)
add_subdirectory(hw_models)
add_subdirectory(sim/app)
