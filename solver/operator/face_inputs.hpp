// What the face build (kernels/level_faces.hpp) reads of a level and of the medium: a level's
// grid as a FaceGrid, the Robin faces, and the fine level's faces where they are formed on the
// host (problem.sampling: cells, from the cells beside each face).
#pragma once

#include <array>

#include "host_array.hpp"
#include "level_faces.hpp"
#include "medium.hpp"
#include "multigrid/hierarchy.hpp"

namespace fdsolve::op {

/// Level g as the face build reads it.
FaceGrid face_grid(const multigrid::LevelGeometry& g);

/// The Robin faces of the medium.
RobinFaces robin_faces(const Medium& m);

/// The fine level's dense faces under problem.sampling: cells (Medium::face_beta of the cells
/// beside each face; a face index beyond the nodes folds as the face rule says); empty arrays
/// when the medium is sampled at nodes, whose faces the build forms from the node values.
std::array<HostArray<double>, 3> cell_sampled_faces(const multigrid::LevelGeometry& g,
                                                    const Medium& m);

/// The fine level's faces on the host: the dense arrays of `cells` where they are filled, else
/// the medium's node values (or its number).
FaceSource host_fine_faces(const Medium& m, const std::array<HostArray<double>, 3>& cells);

}  // namespace fdsolve::op
