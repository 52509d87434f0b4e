// The medium of a run on a device: resolved_medium with the backend's evaluator (the formulas
// compiled and run where the fields live), and the coefficient's and capacity's arrays left on
// the device for the face build (LevelFaceBuilder::keep), which then need not travel back up.
#pragma once

#include <memory>

#include "backend.hpp"
#include "case.hpp"
#include "medium.hpp"

namespace fdsolve::op {

/// resolved_medium(c) evaluated on `backend` (a device's, in double). The arrays kept on the
/// device are found by the addresses of the medium's host arrays: the caller holds the medium
/// until the face build has taken them.
std::shared_ptr<const Medium> medium_on_backend(const Case& c, Backend<double>& backend);

}  // namespace fdsolve::op
