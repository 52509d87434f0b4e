// The CPU backend's face build (level_faces.hpp's operations in host loops on all threads).
#pragma once

#include <memory>

#include "../backend.hpp"

namespace fdsolve::cpu {

/// The host's LevelFaceBuilder: what the CPU backend returns from level_faces().
std::unique_ptr<LevelFaceBuilder> make_host_level_faces();

}  // namespace fdsolve::cpu
